"""Many games advanced together, a row per game, by compiled kernels (docs/batch.md).

    from fogboard_games import batch
    env = batch.make("dark-hex-5", batch_size=4096, seed=0)
    s = env.reset()                  # every row at its first decision
    s = env.step(actions)            # (B,) ints, one action per row
    s = env.step(actions, rows)      # only the rows of a (B,) bool mask play

One `Env` plays `batch_size` independent games of one configured game, one
row per game, with the rules of the registered pyspiel game it was made
from: the same current player, legal actions, information-state tensors
and returns, move for move (tests/test_batch.py checks every step against
pyspiel). Chance (the dice, Mind Bluff's coin and secret start) is drawn
inside from a seeded numpy Generator, so after `reset` every row stands at
its first decision; each row keeps its history of pyspiel action ids,
chance outcomes included, so `env.to_pyspiel(row)` rebuilds the row as a
pyspiel state.

Each game's engine lives in its own package (e.g.
fogboard_games/boards/batched.py), declared by its Ruleset's `batched`
(core.contract.Batched), which `make` reads; what every engine shares (the
State snapshot, the history, the refusal of illegal actions, the
observation forms and dtypes, the movers' hand-out) is in `env.py`, the
random draw in `draw.py`, the batched bots (random,
and the heuristics a game declares) in `bots.py`. Nothing here imports a
game package: the registry names what to import.
"""

from __future__ import annotations

import pyspiel

from fogboard_games.batch.env import DTYPES, FORMS, TERMINAL, Env, State
from fogboard_games.core import registry

# The presets the batch tests crosscheck and `bench --batch` measures: every
# preset whose game declares a batched engine (`make` takes any registered
# preset by name, and any game string of the covered family).
COVERED_PRESETS = registry.batched_presets()


def covered() -> str:
    """What `make` covers, game by game, from the registry (a game registered
    after this module was imported is counted too)."""
    said: dict = {}
    for short, cls in registry.GAMES.items():
        declared = cls.ruleset.batched
        if declared is not None:
            said.setdefault((declared.engine, declared.covers), []).append(short)
    return "; ".join(
        f"{' and '.join([', '.join(names[:-1]), names[-1]] if len(names) > 1 else names)}: {covers}"
        for (_, covers), names in said.items()
    )


COVERED = covered()


def make(
    game, batch_size: int = 1024, seed=None, observation="information_state", dtype=None
) -> Env:
    """A batched environment of a covered preset name or loaded pyspiel game.

    `game` is a preset name ("dark-hex-5"), a game string
    ("fogboard_dark_hex(board_size=3)") or a pyspiel game of this package
    with parameters in the covered family (`COVERED`); anything else is
    refused with a ValueError saying what is covered. `observation` is what
    State.observation holds, the mover's "information_state" tensor or its
    "observation" tensor; `dtype` float32 (None), uint8 or bool (FORMS,
    DTYPES; docs/batch.md#observations).
    """
    if isinstance(game, str):
        if game in registry.PRESETS:  # every preset is covered
            game = registry.load(game)
        elif game.startswith("fogboard_"):
            game = pyspiel.load_game(game)
        else:
            raise ValueError(f"unknown preset {game!r}; presets: {', '.join(registry.PRESETS)}")
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"make takes a preset name or a pyspiel game, got {type(game).__name__}")
    short = game.get_type().short_name
    declared = registry.batched(short)
    if declared is None:
        raise ValueError(
            f"{game} is not covered by fogboard_games.batch (game {short}); covered: {covered()}"
        )
    return registry.resolve(declared.engine)(game, batch_size, seed, observation, dtype)


__all__ = ["COVERED", "COVERED_PRESETS", "DTYPES", "FORMS", "Env", "State", "TERMINAL", "make"]
