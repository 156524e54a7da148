"""The boards' and Liar's Dice's bots see only their seat (issue 18, item 2).

`seat_view` is built from the seat's observer pieces; here it is checked,
at every position of seeded random playouts, against a reference read from
the true match the way the bots used to read it (tests may read the truth),
so the bots' moves are the same as before. The bots also play with the
true match made unreachable.
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games.boards import bots as board_bots
from fogboard_games.boards import rules as board_rules
from fogboard_games.bots.base import seat_pieces
from fogboard_games.liars_dice import bots as dice_bots

# ---- the references: the views as read from the true match ----------------------


def board_view_from_truth(state, seat: int) -> board_bots.SeatView:
    """The boards' seat view as it was built from `state.truth`."""
    m = state.truth
    geo = m.setup
    log = tuple((p.anchor, p.seen, p.cell, p.result) for p in m.plies if p.seat == seat)
    sense_now = m.sensed if (m.ending is None and m.mover == seat) else None
    board = [board_rules.UNKNOWN] * geo.cells
    senses = [(a, seen) for a, seen, _, _ in log if a >= 0]
    if sense_now is not None:
        senses.append(sense_now)
    for anchor, seen in senses:
        for c, code in zip(geo.blocks[anchor], seen, strict=True):
            if code == board_rules.PROVEN:
                board[c] = board_rules.PROVEN
    for _, _, cell, result in log:
        board[cell] = board_rules.OWN if result == board_rules.PLACED else board_rules.PROVEN
    sensing = bool(geo.sense) and m.ending is None and m.mover == seat and m.sensed is None
    return board_bots.SeatView(geo, seat, tuple(board), log, sense_now, sensing)


def dice_view_from_truth(state, seat: int) -> dice_bots.SeatView:
    """Liar's Dice's seat view as it was built from `state.truth`."""
    m = state.truth
    return dice_bots.SeatView(
        m.setup, seat, m.phase, tuple(sorted(m.hands[seat])), m.in_play, m.bid
    )


def presets_of(*short_names):
    return [p.name for p in fogboard_games.PRESETS.values() if p.short_name in short_names]


BOARD_CONFIGS = [(name, None) for name in presets_of(*board_bots.BOARD_GAMES)] + [
    ("fogboard_phantom_ttt", {"abrupt": True}),
    ("fogboard_phantom_ttt", {"obstype": "reveal-numturns", "max_plies": 7}),
    ("fogboard_dark_hex", {"board_size": 3}),
    ("fogboard_dark_hex", {"board_size": 3, "abrupt": True, "max_plies": 5}),
    ("fogboard_dark_hex", {"board_size": 6, "obstype": "reveal-numturns"}),
    ("fogboard_recon_hex", {"board_size": 3, "sense": 1}),
    ("fogboard_recon_hex", {"board_size": 4, "sense": 3, "max_plies": 9}),
    ("fogboard_recon_hex", {"board_size": 6, "sense": 2, "obstype": "reveal-numturns"}),
]

DICE_CONFIGS = [(name, None) for name in presets_of("fogboard_liars_dice")] + [
    ("fogboard_liars_dice", {"players": 3, "numdice": 2, "wild": "none"}),
    ("fogboard_liars_dice", {"players": 3, "numdice": 2, "mode": "dice", "rerolls": 2}),
    ("fogboard_liars_dice", {"numdice": 3, "dice_sides": 4, "wild": "highest", "rerolls": 1}),
    ("fogboard_liars_dice", {"players": 4, "numdice": 1, "mode": "dice", "allow_pass": True}),
    (
        "fogboard_liars_dice",
        {"numdice": 2, "mode": "dice", "allow_pass": True, "prophecy_payout": 2, "rerolls": 1},
    ),
    ("fogboard_liars_dice", {"numdice": 2, "prophecy": False, "allow_pass": True}),
]


def load(name, params):
    return fogboard_games.load(name) if params is None else pyspiel.load_game(name, params)


def views_match_truth(game, new_view, reference, playouts: int, seed) -> int:
    """Compare every seat's view with the reference at every position of
    seeded random playouts (decisions, chance nodes); return the
    positions compared."""
    rng = random.Random(str(seed))
    compared = 0
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            for seat in range(game.num_players()):
                assert new_view(state, seat) == reference(state, seat), (
                    f"{game} seat {seat} after {state.history()}"
                )
            compared += 1
            if state.is_chance_node():
                faces, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(faces, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return compared


@pytest.mark.parametrize("name,params", BOARD_CONFIGS)
def test_board_views_are_the_views_read_from_the_truth(name, params):
    game = load(name, params)
    assert views_match_truth(game, board_bots.seat_view, board_view_from_truth, 12, name) > 50


@pytest.mark.parametrize("name,params", DICE_CONFIGS)
def test_liars_dice_views_are_the_views_read_from_the_truth(name, params):
    game = load(name, params)
    assert views_match_truth(game, dice_bots.seat_view, dice_view_from_truth, 15, name) > 50


def test_board_views_hold_senses_and_the_sense_under_way():
    # Recon plies with senses and one sense under way: the log and sense_now
    # come from the `senses` and `sensed` pieces, not only the board.
    game = fogboard_games.load("recon-hex-5")
    state = game.new_initial_state()
    for action in (game.setup.cells, 0, game.setup.cells, 24, game.setup.cells + 3):
        state.apply_action(action)
    mine = board_bots.seat_view(state, 0)
    assert [ply.anchor for ply in mine.log] == [0] and mine.sense_now == (3, (0, 0, 0, 0))
    assert not mine.sensing and mine == board_view_from_truth(state, 0)
    theirs = board_bots.seat_view(state, 1)
    assert theirs.sense_now is None and [ply.anchor for ply in theirs.log] == [0]


def test_seat_pieces_gives_the_information_state_or_the_current_view():
    game = fogboard_games.load("liars-dice")
    state = game.new_initial_state()
    for face in (0, 0, 2, 3, 4, 5, 5, 5, 5, 5):  # seat 0 rolls 1 1 3 4 5, seat 1 all 6s
        state.apply_action(face)
    recall = dict(seat_pieces(state, 0))
    assert "hands" in recall and "hand" not in recall
    assert recall["hands"][0, 0, 0].tolist() == [2, 0, 1, 1, 1, 0]
    view = seat_pieces(state, 0, recall=False)
    assert "hands" not in view and view["hand"][0].tolist() == [2, 0, 1, 1, 1, 0]
    assert seat_pieces(state, 1, recall=False)["hand"][0].tolist() == [0, 0, 0, 0, 0, 5]
