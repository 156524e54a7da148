"""Ctrl-C in the command line: one line on stderr and exit status 130 at any
moment, never a traceback (docs/league.md#the-journal-and---resume).

Python turns SIGINT into a KeyboardInterrupt raised wherever the program
is, which the command line catches per command (fogboard_games/__main__.py).
That leaves two places where a catch cannot help: while the package itself
loads for the command line, before any command's code runs
(`quiet_while_loading`), and inside a step that must not be cut in two,
such as a journal line or a worker process being started (`held`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading

COMMAND = "fogboard"  # the console script setup.py installs
PACKAGE = "fogboard_games"


def _module_run() -> str | None:
    """The module `python -m NAME` was asked to run, from the interpreter's own arguments."""
    args = getattr(sys, "orig_argv", [])
    for at, arg in enumerate(args[1:], start=1):
        if arg == "-m":
            return args[at + 1] if at + 1 < len(args) else None
        if arg.startswith("-m"):  # (-mNAME)
            return arg[2:]
    return None


def started_as_command() -> bool:
    """Whether the package is being imported to run the command line: the
    `fogboard` script, or `python -m fogboard_games` (whose sys.argv[0] is
    "-m" while Python imports the package to find its __main__)."""
    first = sys.argv[0] if sys.argv else ""
    if first == "-m":
        return _module_run() == PACKAGE
    return os.path.basename(first).removesuffix(".exe") == COMMAND


def _stopped_while_loading(signum, frame) -> None:
    # Nothing has been played or written yet: leave at once, in one line.
    lead = "\n" if sys.stderr.isatty() else ""  # (past the ^C the terminal echoed)
    sys.stderr.write(f"{lead}interrupted while starting: nothing was played or written\n")
    sys.stderr.flush()
    os._exit(130)


def quiet_while_loading() -> None:
    """For the command line only: Ctrl-C before a command runs (the package's
    imports of OpenSpiel and numpy take a good part of a second) exits 130 in
    one line. The command line hands SIGINT back (`loaded`) once it runs a command."""
    if started_as_command() and threading.current_thread() is threading.main_thread():
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _stopped_while_loading)


def loaded() -> None:
    """Ctrl-C raises KeyboardInterrupt again (each command catches it its own way)."""
    if signal.getsignal(signal.SIGINT) is _stopped_while_loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_asked = False  # a Ctrl-C came while `stopping` was in force


def _stop(signum, frame) -> None:
    global _asked
    _asked = True
    raise KeyboardInterrupt


@contextlib.contextmanager
def stopping():
    """Within: a Ctrl-C raises KeyboardInterrupt as usual and is remembered,
    so that `check()` raises it again where a library swallowed it (a
    KeyboardInterrupt landing in numpy's lazy imports can be lost)."""
    global _asked
    if threading.current_thread() is not threading.main_thread():
        yield  # (only the main thread handles signals)
        return
    _asked = False
    before = signal.signal(signal.SIGINT, _stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        _asked = False


def check() -> None:
    """KeyboardInterrupt if a Ctrl-C came within `stopping` (between steps of a long run)."""
    if _asked:
        raise KeyboardInterrupt


@contextlib.contextmanager
def held():
    """Ctrl-C within the block is raised as the block ends, not inside it.

    For a step that must not be cut in two: a journal's header or line,
    or a worker process being started. SIGINT is also blocked in this
    thread meanwhile, and a child process inherits the blocked mask (by
    fork or across exec alike), so a worker never sees a Ctrl-C before it
    has chosen to ignore it. A no-op outside the main thread, where Python
    cannot handle signals, and where SIGINT's handler is not Python's.
    """
    previous = signal.getsignal(signal.SIGINT)
    if (
        threading.current_thread() is not threading.main_thread()
        or previous is None
        or not hasattr(signal, "pthread_sigmask")
    ):
        yield
        return
    caught: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # (a Ctrl-C held by the mask lands here)
        signal.signal(signal.SIGINT, previous)
        if caught:
            signal.raise_signal(signal.SIGINT)  # as if it came now, to the handler of before


def worker_ignores() -> None:
    """In a worker process: ignore Ctrl-C, which reaches the whole process
    group; the parent stops the workers itself. Then unblock SIGINT, which
    `held` blocked as the worker was started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
