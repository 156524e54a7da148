"""fogboard_games.batch on rectangular hex boards agrees with pyspiel.

A rectangle (`num_rows` files by `num_cols` ranks, docs/boards.md#rectangular-boards)
has its wins read from per-row bit sets of each seat's chains, flooded across
its files and ranks, as a square's (docs/batch.md#how-the-boards-are-kept): the same crosscheck as
tests/test_batch.py at every step and in every row, and many games' wins.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from test_batch import OTHER_READS, compact, crosscheck

from fogboard_games import batch
from fogboard_games.bench import random_actions

SIDES = [(2, 3), (3, 2), (3, 4), (4, 3), (2, 5), (5, 7), (11, 4)]
DARK = [
    f"fogboard_dark_hex(num_rows={r},num_cols={c},abrupt={abrupt},obstype={obstype})"
    for i, (r, c) in enumerate(SIDES)
    for abrupt, obstype in [("false", "reveal-nothing"), ("true", "reveal-numturns")][:: 1 - 2 * (i % 2)]
]  # fmt: skip
OTHERS = [
    "fogboard_recon_hex(num_rows=4,num_cols=3,sense=2)",
    "fogboard_recon_hex(num_rows=3,num_cols=5,sense=2,obstype=reveal-numturns)",
    "fogboard_recon_hex(num_rows=7,num_cols=4,sense=3,max_plies=20)",
    "fogboard_dark_hex(num_rows=2,num_cols=3,abrupt=true,imperfect_recall=true)",
    "fogboard_dark_hex(num_rows=4,num_cols=5,imperfect_recall=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(num_rows=5,num_cols=3,max_plies=8)",  # (the cap: distToWin)
    "fogboard_dark_hex(num_rows=9,num_cols=11,abrupt=true)",  # (two words a bitboard)
]
READS = [("information_state", None), *OTHER_READS]


@pytest.mark.parametrize("game_string", DARK + OTHERS)
def test_rectangles_agree_with_pyspiel(game_string):
    i = (DARK + OTHERS).index(game_string)
    form, dtype = READS[(i + i // 4) % 4]
    game = pyspiel.load_game(game_string)
    dtype = compact(game_string, form) if dtype == "compact" else dtype  # (recon's ages: uint8)
    # Every row to its end; every third configuration restarts finished rows
    # and reads its tensors first mid-game (the replay).
    if i % 3:
        crosscheck(game, rows=6, seed=i, form=form, dtype=dtype)
    else:
        crosscheck(
            game, rows=6, seed=i, steps=60, restart=True, first_read=9, form=form, dtype=dtype
        )


@pytest.mark.parametrize("sides", SIDES)
def test_wins_on_rectangles_agree_over_many_games(sides):
    """Many random games without tensors, each replayed in pyspiel when it ends:
    the batch ended it at the ply pyspiel does with the same returns, for wins
    of both seats (X joins the files' ends, O the ranks')."""
    r, c = sides
    winners = set()
    for abrupt in ("false", "true"):
        game = pyspiel.load_game(f"fogboard_dark_hex(num_rows={r},num_cols={c},abrupt={abrupt})")
        env = batch.make(game, batch_size=48, seed=r * c)
        rng = np.random.default_rng(r * c)
        s = env.reset()
        paid = np.zeros((48, 2), np.float32)
        while not s.terminated.all():
            s = env.step(random_actions(rng, s.legal_action_mask))
            paid += s.rewards
        for row in range(48):
            state = env.to_pyspiel(row)
            assert state.is_terminal()
            assert paid[row].tolist() == state.returns()
            winners.add(int(np.argmax(paid[row])))
    assert winners == {0, 1}


def test_rectangles_are_covered_and_keep_their_sides():
    env = batch.make("dark-hex-rect-3x4", batch_size=2)
    assert env.reset().legal_action_mask.shape == (2, 12)
    assert env.geo.files == 3 and env.geo.ranks == 4
    assert "rectangles" in batch.COVERED
