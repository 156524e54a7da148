"""Search bots: `mcts` (a cheating baseline) and `ismcts` (docs/bots.md#search).

Both wrap OpenSpiel's Python searchers (open_spiel.python.algorithms): the
C++ `pyspiel.MCTSBot` and `pyspiel.ISMCTSBot` crash the process on Python
games, because they release the GIL around a clone that calls Python.

* `mcts` is `mcts.MCTSBot` with random-rollout leaves. It searches the true
  state, hidden facts included: a **cheating** baseline, an upper reference
  for what the information states let a fair bot do, never a fair opponent.
  OpenSpiel's MCTSBot refuses games that pay rewards before the end; Parley
  pays its round points as rewards, but its returns at the end are the
  match totals, all a rollout reads, so the bot hands MCTSBot a view of the
  game that reports terminal rewards.
* `ismcts` is `ismcts.ISMCTSBot` searching worlds drawn by our
  `resample_from_infostate`: it decides from its seat's information state
  alone (every world it searches is one the seat cannot rule out).

Every decision seeds its searcher (and the resampler) from the bot's seed,
the games it has started and its seat's information-state string, so a bot
with a given seed makes the same move in any two states its seat cannot
tell apart. Options: `simulations` (default 200), `rollouts` (random
rollouts per leaf, 1), `uct_c` (the exploration constant, 2.0).
"""

from __future__ import annotations

import dataclasses
import random
import zlib

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from fogboard_games.bots.base import SeatBot
from fogboard_games.core import glue
from fogboard_games.core.params import is_int


def _options(simulations: int, rollouts: int, uct_c: float) -> None:
    for name, value in (("simulations", simulations), ("rollouts", rollouts)):
        if not is_int(value) or value < 1:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    if isinstance(uct_c, bool) or not isinstance(uct_c, (int, float)) or not uct_c > 0:
        raise ValueError(f"uct_c must be a positive number, got {uct_c!r}")


class _TerminalRewardsView:
    """A game as MCTSBot may take it: the same game reporting terminal rewards.

    MCTSBot reads only the game type (to refuse intermediate rewards) and
    max_utility; its rollouts score `state.returns()` at the end, which for
    a game paying rewards on the way are the totals of those rewards."""

    def __init__(self, game):
        self._game = game

    def get_type(self):
        # The game's own GameType, built by the glue from its ruleset, with
        # terminal rewards; any other pyspiel game as it is (MCTSBot refuses
        # one that pays rewards on the way, with its own message).
        ruleset = getattr(self._game, "ruleset", None)
        if ruleset is None:
            return self._game.get_type()
        return glue.game_type(dataclasses.replace(ruleset, reward_model="terminal"))

    def __getattr__(self, name):
        return getattr(self._game, name)


class _SearchBot(SeatBot):
    def __init__(self, game, player, seed=0, simulations=200, rollouts=1, uct_c=2.0):
        super().__init__(game, player, seed)
        _options(simulations, rollouts, uct_c)
        self.simulations, self.rollouts, self.uct_c = simulations, rollouts, float(uct_c)

    def decision_seed(self, state) -> int:
        key = f"{self.seed}:{self._games}:{state.information_state_string(self.player)}"
        return zlib.crc32(key.encode())

    def evaluator(self, rng: np.random.RandomState):
        return mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=rng)


class MCTSBot(_SearchBot):
    """OpenSpiel's MCTS on the true state: a cheating baseline (see the module)."""

    kind = "mcts"

    def decide(self, state) -> int:
        rng = np.random.RandomState(self.decision_seed(state))
        bot = mcts.MCTSBot(
            _TerminalRewardsView(self.game),
            self.uct_c,
            self.simulations,
            self.evaluator(rng),
            solve=False,
            random_state=rng,
        )
        return bot.step(state.clone())


class ISMCTSBot(_SearchBot):
    """OpenSpiel's IS-MCTS over worlds drawn from this seat's information state."""

    kind = "ismcts"

    def decide(self, state) -> int:
        seed = self.decision_seed(state)
        rng = np.random.RandomState(seed)
        worlds = random.Random(seed)
        bot = ismcts.ISMCTSBot(
            self.game,
            self.evaluator(rng),
            self.uct_c,
            self.simulations,
            random_state=rng,
        )
        # OpenSpiel's default resampler builds an unseeded sampler per call.
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, worlds.random))
        return bot.step(state.clone())
