"""fogboard_games.batch on the boards of 9 x 9 to 11 x 11 agrees with pyspiel.

The kernels keep a board of any size cell by cell, with hex wins read from
per-row bit sets of each seat's chains (docs/batch.md#how-the-boards-are-kept): the same
crosscheck as tests/test_batch.py (current player, legal mask, both seats'
tensors of both forms, rewards, returns, to_pyspiel at every step and in
every row), on few rows so that a full game of 121 cells stays quick.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import arrays, assert_unchanged
from test_batch import OTHER_READS, compact, crosscheck

from fogboard_games import batch
from fogboard_games.bench import random_actions

DARK = [
    f"fogboard_dark_hex(board_size={n},abrupt={abrupt},obstype={obstype})"
    for n in (9, 10, 11)
    for abrupt in ("false", "true")
    for obstype in ("reveal-nothing", "reveal-numturns")
]
RECON = [
    "fogboard_recon_hex(board_size=9,sense=2)",
    "fogboard_recon_hex(board_size=11,sense=3,obstype=reveal-numturns)",
]
# Each configuration in one of the four reads of State.observation, in turn
# (both seats' tensors of every form are read at every step in all of them).
READS = [("information_state", None), *OTHER_READS]


@pytest.mark.parametrize("game_string", DARK + RECON)
def test_big_boards_agree_with_pyspiel(game_string):
    i = (DARK + RECON).index(game_string)
    form, dtype = READS[(i + i // 4) % 4]  # (turned by a step per board size)
    game = pyspiel.load_game(game_string)
    dtype = compact(game_string, form) if dtype == "compact" else dtype  # (recon's ages: uint8)
    # Full games (every row to its end) on 3 rows; every third configuration
    # restarts finished rows and reads its tensors first mid-game (the replay).
    if i % 3:
        crosscheck(game, rows=3, seed=i, form=form, dtype=dtype)
    else:
        crosscheck(
            game, rows=3, seed=i, steps=150, restart=True, first_read=40, form=form, dtype=dtype
        )


def test_capped_big_board_settles_by_true_distance():
    """The ply cap reads both words of the boards for distToWin."""
    game = pyspiel.load_game("fogboard_dark_hex(board_size=11,max_plies=60)")
    crosscheck(game, rows=4, seed=5, dtype="uint8")


@pytest.mark.parametrize("size", [9, 10, 11])
def test_wins_agree_over_many_games(size):
    """Many random games without tensors, each replayed in pyspiel when it ends:
    the batch ended it at the ply pyspiel does (pyspiel refuses a move past
    the end) with the same returns, for wins of both seats."""
    for abrupt in ("false", "true"):
        game = pyspiel.load_game(f"fogboard_dark_hex(board_size={size},abrupt={abrupt})")
        env = batch.make(game, batch_size=64, seed=size)
        rng = np.random.default_rng(size)
        s = env.reset()
        paid = np.zeros((64, 2), np.float32)
        while not s.terminated.all():
            s = env.step(random_actions(rng, s.legal_action_mask))
            paid += s.rewards
        winners = set()
        for r in range(64):
            state = env.to_pyspiel(r)
            assert state.is_terminal()
            assert paid[r].tolist() == state.returns()
            winners.add(int(np.argmax(paid[r])))
        assert winners == {0, 1}


def test_an_illegal_action_on_a_big_board_is_refused_and_no_row_changes():
    env = batch.make("fogboard_recon_hex(board_size=11,sense=2)", batch_size=6, seed=0)
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(9):  # (ends after a sense: the rows are at their attempt)
        s = env.step(random_actions(rng, s.legal_action_mask))
    s.observation  # noqa: B018  (tensors tracked from here)
    acts = random_actions(rng, s.legal_action_mask)
    row = 4
    bad = int(np.flatnonzero(~s.legal_action_mask[row])[0])  # a cell it knows, or a sense
    acts[row] = bad
    before = arrays(env)
    with pytest.raises(ValueError, match=rf"illegal action {bad} in row {row} .*legal actions"):
        env.step(acts)
    assert_unchanged(env, before)
    acts[row] = int(np.flatnonzero(s.legal_action_mask[row])[-1])
    env.step(acts)  # and the batch plays on


def test_a_known_cell_in_either_word_is_refused_on_dark_hex_11():
    """Dark hex 11 x 11 keeps a seat's known cells in two words (cells 64 to 120
    in the second): the check refuses a cell the mover knows in either word, or
    an action past the cells, and plays the cells it does not know in both."""
    env = batch.make("fogboard_dark_hex(board_size=11)", batch_size=4, seed=0)
    env.reset()
    env.step(np.array([100, 5, 70, 0]))  # seat 0's stones
    env.step(np.array([1, 1, 1, 1]))  # seat 1's: seat 0 moves again
    before = arrays(env)
    for row, bad in ((0, 100), (1, 5), (2, 70), (3, -1), (3, 121)):
        acts = np.array([64, 120, 2, 63])  # (legal in every row)
        acts[row] = bad
        with pytest.raises(ValueError, match=rf"illegal action {bad} in row {row} .*legal actions"):
            env.step(acts)
        assert_unchanged(env, before)
    env.step(np.array([64, 120, 2, 63]))
    assert [env.history_of(row) for row in range(4)] == [
        [100, 1, 64],
        [5, 1, 120],
        [70, 1, 2],
        [0, 1, 63],
    ]


def test_boards_up_to_11_are_covered():
    for size in (9, 11):
        env = batch.make(f"fogboard_dark_hex(board_size={size})", batch_size=2)
        assert env.reset().legal_action_mask.shape == (2, size * size)
    assert "square boards of side 2..11" in batch.COVERED


@pytest.mark.parametrize(
    "game", ["fogboard_dark_hex(board_size=11)", "fogboard_recon_hex(board_size=9,sense=2)"]
)
def test_a_held_legal_mask_stays_the_snapshots_own(game):
    """Every snapshot's legal mask is its own array (docs/batch.md): later
    steps and restarts, finished rows among them, never change a held one."""
    env = batch.make(game, batch_size=64, seed=0)
    rng = np.random.default_rng(1)
    s = env.reset()
    held = []
    finished = 0
    for _ in range(160):
        held.append((s.legal_action_mask, s.legal_action_mask.copy()))
        s = env.step(random_actions(rng, s.legal_action_mask))
        finished += int(np.count_nonzero(s.terminated))
        if s.terminated.any() and rng.random() < 0.5:  # (some snapshots keep finished rows)
            held.append((s.legal_action_mask, s.legal_action_mask.copy()))
            s = env.reset(s.terminated)
    assert finished
    for mask, kept in held:
        assert np.array_equal(mask, kept)
