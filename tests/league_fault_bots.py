"""Test-only bot kinds for tests/test_league_faults.py, registered by
`register()`: a league run as a subprocess calls it first (its workers are
forked from it), Ray workers through `worker_process_setup_hook`, so the
package itself carries no test hook. Never at import: in the test process
they would join BOT_KINDS for every later test, which may play each kind.

Each plays as `random` does (the same moves from the same seed), so a
league of them gives the table of the fault-free run:
  slow      sleeps FOGBOARD_TEST_SLOW seconds per move (a league long
            enough to be signalled mid-run)
  exiter    calls os._exit(3) (phantom tic-tac-toe only)
  segv      dereferences a null pointer (phantom tic-tac-toe only)
  raiser    raises an exception whose message spans lines (phantom
            tic-tac-toe only)
  kill_once kills its own process with SIGKILL the first time, when
            FOGBOARD_TEST_KILL_ONCE names a file that does not exist yet
"""

from __future__ import annotations

import ctypes
import os
import signal
import time

from fogboard_games.bots import base


class Slow(base.RandomBot):
    kind = "slow"

    def decide(self, state) -> int:
        time.sleep(float(os.environ.get("FOGBOARD_TEST_SLOW", "0")))
        return super().decide(state)


class Exiter(base.RandomBot):
    kind = "exiter"
    games = ("fogboard_phantom_ttt",)

    def decide(self, state) -> int:
        os._exit(3)


class Segv(base.RandomBot):
    kind = "segv"
    games = ("fogboard_phantom_ttt",)

    def decide(self, state) -> int:
        ctypes.string_at(0)  # SIGSEGV
        return super().decide(state)


class Raiser(base.RandomBot):
    kind = "raiser"
    games = ("fogboard_phantom_ttt",)

    def decide(self, state) -> int:
        raise RuntimeError("a bot's bug\n  on two lines")


class KillOnce(base.RandomBot):
    kind = "kill_once"

    def decide(self, state) -> int:
        mark = os.environ.get("FOGBOARD_TEST_KILL_ONCE")
        if mark:
            try:
                open(mark, "x").close()
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return super().decide(state)


def register() -> None:
    for cls in (Slow, Exiter, Segv, Raiser, KillOnce):
        base.register_kind(cls.kind, cls)
