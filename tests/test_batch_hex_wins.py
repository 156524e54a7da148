"""fogboard_games.batch reads hard hex wins as pyspiel does.

The wins the boards' win check could get wrong (docs/batch.md#how-the-boards-are-kept):
a long snake of one seat's stones from its first edge to its far one, laid
every other cell first and closed from the far end, so the last stones merge
many loose chains (long floods); and a win by the last
empty cell of the board, each seat in turn. Every ply's end, mover and
rewards are checked against pyspiel, in every row.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import joined

from fogboard_games import batch


def goal_cell(geo, seat, u, v):
    """The cell at step u from the seat's first edge, v across (seat 1 joins the
    ranks, seat 0 the files: hex adjacency is the same in both coordinates)."""
    return u * geo.files + v if seat == 1 else v * geo.files + u


def snake(geo, seat, gap):
    """A path of the seat's goal coordinates from its first edge to its far one:
    across the board every `gap` steps, joined at alternate ends."""
    U, V = (geo.ranks, geo.files) if seat == 1 else (geo.files, geo.ranks)
    path, u, right = [(0, 0)], 1, True
    while True:
        path += [(u, v) for v in (range(V) if right else range(V - 1, -1, -1))]
        end = path[-1][1]
        if u + gap >= U:
            path += [(w, end) for w in range(u + 1, U)]
            break
        path += [(w, end) for w in range(u + 1, u + gap)]
        u, right = u + gap, not right
    return [goal_cell(geo, seat, u, v) for u, v in dict.fromkeys(path)]


def snake_game(geo, seat):
    """Both seats' cells in order: the seat's snake every other cell, then the
    rest from the far end; the opponent takes the other cells (which never join
    its edges: each band between the snake's crossings is closed at one end),
    enough of them to play until the snake is closed (the densest snake that
    leaves that many)."""
    for gap in (3, 4, 5):
        path = snake(geo, seat, gap)
        rest = [c for c in range(geo.cells) if c not in set(path)]
        if len(rest) >= len(path) - 1 + seat:
            return {seat: path[::2] + path[1::2][::-1], 1 - seat: rest}
    raise AssertionError("no snake fits")


def last_cell_game(geo, rng):
    """A full board's cells for both seats, in a random order, whose last cell
    (the mover's of the last ply: seat 0 on an odd number of cells) makes the
    win: the board without it joins neither seat's edges."""
    seat = (geo.cells + 1) % 2
    while True:
        cells = rng.permutation(geo.cells).tolist()
        own = {0: cells[0::2], 1: cells[1::2]}  # (seat 0 moves first)
        mine = set(own[seat])
        if not joined(geo, seat, mine):
            continue
        for last in own[seat]:
            if not joined(geo, seat, mine - {last}):
                own[seat].remove(last)
                own[seat].append(last)
                return own


def interleave(own):
    """The plies when every attempt places a stone (the turn passes at each),
    until the mover has no cell left."""
    plies = []
    while len(own[len(plies) % 2]) > len(plies) // 2:
        plies.append(own[len(plies) % 2][len(plies) // 2])
    return plies


@pytest.mark.parametrize(
    "sides, abrupt",
    [((11, 11), "false"), ((11, 11), "true"), ((9, 11), "false"), ((11, 4), "true")]
    + [((4, 11), "false"), ((5, 8), "false"), ((8, 3), "true"), ((7, 7), "false")],
)
def test_snakes_and_last_cell_wins_agree_with_pyspiel(sides, abrupt):
    files, ranks = sides
    game = pyspiel.load_game(
        f"fogboard_dark_hex(num_rows={files},num_cols={ranks},abrupt={abrupt})"
    )
    env = batch.make(game, batch_size=4, seed=0)
    geo, rng = env.geo, np.random.default_rng(files * 16 + ranks)
    games = [snake_game(geo, 0), snake_game(geo, 1), last_cell_game(geo, rng)]
    games.append(last_cell_game(geo, rng))
    plies = [interleave(own) for own in games]
    states = [game.new_initial_state() for _ in plies]
    s = env.reset()
    paid = np.zeros((len(plies), 2), np.float32)
    k = 0
    while not s.terminated.all():
        actions = np.array([p[k] if k < len(p) else 0 for p in plies])
        for row, state in enumerate(states):
            if not state.is_terminal():
                assert s.current_player[row] == state.current_player() == k % 2
                state.apply_action(int(actions[row]))
        s = env.step(actions)
        paid += s.rewards
        assert s.terminated.tolist() == [state.is_terminal() for state in states]
        k += 1
    for row, state in enumerate(states):
        assert paid[row].tolist() == state.returns()
        assert env.history_of(row) == state.history()
    # The snakes end at their last stone, won by their seat; the full boards at
    # their last cell.
    for row, own in enumerate(games[:2]):
        assert paid[row, row] == 1 and len(states[row].history()) == 2 * len(own[row]) - 1 + row
    last = (geo.cells + 1) % 2
    assert [len(states[r].history()) for r in (2, 3)] == [geo.cells] * 2
    assert paid[2, last] == paid[3, last] == 1
