"""Many games advanced together by vectorized numpy (docs/batch.md).

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

The rules live in `boards.py` (phantom tic-tac-toe, dark hex, recon hex),
`liars_dice.py` (Liar's Dice in every mode), `mind_bluff.py` (Mind Bluff
and its series) and `parley.py`; what every game shares (the State snapshot,
the history, the refusal of illegal actions, the observation forms and
dtypes) in
`env.py`; the batched bots (random, and the heuristics that vectorize) in
`bots.py`; this module holds `make`, which says which games are covered.
"""

from __future__ import annotations

import pyspiel

from fogboard_games.batch import boards, liars_dice, mind_bluff, parley
from fogboard_games.batch.env import DTYPES, FORMS, TERMINAL, Env, State
from fogboard_games.core import registry

# The presets the batch tests crosscheck and `bench --batch` measures (`make`
# takes every registered preset by name; the medium presets of docs/solving.md
# are other sizes of these rules).
COVERED_PRESETS = (
    "phantom-ttt-3",
    "dark-hex-4",
    "dark-hex-5",
    "recon-hex-5",
    "dark-hex-rect-3x4",
    "liars-dice",
    "liars-dice-1",
    "liars-dice-classic",
    "liars-dice-classic-1",
    "liars-dice-table",
    "mind-bluff",
    "mind-bluff-tiny",
    "mind-bluff-series",
    "parley",
    "parley-tiny",
)
COVERED = (
    "fogboard_phantom_ttt (any parameters); fogboard_dark_hex "
    "and fogboard_recon_hex on square boards of side 2..11 and rectangles of num_rows "
    "and num_cols 2..11 each (any other parameters); "
    "fogboard_liars_dice with any "
    "parameters (players, numdice, dice_sides, wild, prophecy, prophecy_payout, "
    "allow_pass, rerolls, mode chips or dice); fogboard_mind_bluff and "
    "fogboard_mind_bluff_series (any parameters); fogboard_parley (any parameters)"
)


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
    if short in ("fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_recon_hex"):
        return boards.Boards(game, batch_size, seed, observation, dtype)
    if short == "fogboard_liars_dice":
        return liars_dice.LiarsDice(game, batch_size, seed, observation, dtype)
    if short in ("fogboard_mind_bluff", "fogboard_mind_bluff_series"):
        return mind_bluff.MindBluff(game, batch_size, seed, observation, dtype)
    if short == "fogboard_parley":
        return parley.Parley(game, batch_size, seed, observation, dtype)
    raise ValueError(
        f"{game} is not covered by fogboard_games.batch (game {short}); covered: {COVERED}"
    )


__all__ = ["COVERED", "COVERED_PRESETS", "DTYPES", "FORMS", "Env", "State", "TERMINAL", "make"]
