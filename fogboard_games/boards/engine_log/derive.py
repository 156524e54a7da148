"""What the rules derive of a finished board game, as the original engine writes it.

The `end` round, the `win` path, the scores and `results` of a match, the
comparison of a recorded value with a derived one, and the one end the
rules cannot derive, the engine's deadline stop; the reader checks an engine log
against these and the writer writes them (docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

import collections
from collections.abc import Sequence
from typing import Any

import pyspiel

from fogboard_games.boards import review, rules
from fogboard_games.boards.engine_log.config import config_of
from fogboard_games.boards.engine_log.shape import DEADLINE_ENDING
from fogboard_games.core.guards import same_fact
from fogboard_games.core.notation import parse_cell


def reason_of(ending: str) -> str:
    return "deadline" if ending == DEADLINE_ENDING else "complete"


def end_round(m: rules.Match) -> int:
    """The `round` the original engine writes on `end`.

    It settles a win or a full board inside the ply (before counting it),
    the ply cap after counting it, and a deadline between plies.
    """
    n = len(m.plies)
    return n if m.ending in ("ply-cap", DEADLINE_ENDING) else n - 1


def win_path(m: rules.Match) -> list[int]:
    """The path the original engine writes on `win`.

    Tic-tac-toe: the first of the eight lines (rows, columns, diagonals)
    through the winning cell that the winner holds. Hex: the BFS-shortest
    chain of the winner's stones from its first edge (cells in index order,
    neighbours in the rules' order) to its far edge.
    """
    geo, board, seat = m.setup, m.board, m.winner
    code = seat + 1
    if geo.kind == "ttt":
        last = m.plies[-1][3]
        for line in geo.lines:
            if last in line and all(board[c] == code for c in line):
                return list(line)
        return []
    edges = geo.edges[seat]
    previous = {}
    queue = collections.deque()
    for c in range(geo.cells):
        if edges[c] & 1 and board[c] == code:
            previous[c] = -1
            queue.append(c)
    while queue:
        c = queue.popleft()
        if edges[c] & 2:
            path = []
            while c >= 0:
                path.append(c)
                c = previous[c]
            return path[::-1]
        for nb in geo.neighbors[c]:
            if board[nb] == code and nb not in previous:
                previous[nb] = c
                queue.append(nb)
    return []


def path_problem(m: rules.Match, seat: int, path: list[int]) -> str | None:
    """Why `path` is not a winning path of `seat` on the final board, or None."""
    geo, board = m.setup, m.board
    code = seat + 1
    names = geo.names
    if len(set(path)) != len(path):
        return "it repeats a cell"
    for c in path:
        if board[c] != code:
            return f"{names[c]} is not a stone of seat {seat}"
    if geo.kind == "ttt":
        if sorted(path) not in [sorted(line) for line in geo.lines]:
            return "it is not a row, column or diagonal"
        return None
    if not path:
        return "it is empty"
    for a, b in zip(path, path[1:], strict=False):
        if b not in geo.neighbors[a]:
            return f"{names[a]} and {names[b]} are not adjacent"
    ends = geo.edges[seat][path[0]], geo.edges[seat][path[-1]]
    if not ((ends[0] & 1 and ends[1] & 2) or (ends[0] & 2 and ends[1] & 1)):
        return f"it does not join seat {seat}'s two edges"
    return None


def scores_of(m: rules.Match) -> list[float]:
    return [float(x) for x in m.returns()]


def derive_results(m: rules.Match, extras: list[dict], policy_names: Sequence[str]) -> dict:
    """The `results` object of a finished match, in the original engine's key order."""
    geo = m.setup
    made, hits, fallbacks = [0, 0], [0, 0], [0, 0]
    board = [rules.EMPTY] * geo.cells
    for (seat, _, _, cell, result), extra in zip(m.plies, extras, strict=True):
        if result == rules.PLACED:
            board[cell] = seat + 1
        # A guess hits when the cell holds an opponent stone after this ply.
        for g in extra["guess"]:
            made[seat] += 1
            hits[seat] += board[parse_cell(g, geo.size, geo.ranks)] == 2 - seat
        fallbacks[seat] += bool(extra["fellBack"])
    scores = scores_of(m)
    totals = [rules.seat_totals(m, seat) for seat in (0, 1)]
    return {
        "names": list(policy_names),
        "scores": scores,
        "outcome": [(s + 1.0) / 2.0 for s in scores],
        "stones": [t["stones"] for t in totals],
        "probes": [t["probes"] for t in totals],
        "discovered": [t["discovered"] for t in totals],
        "guessesMade": made,
        "guessAccuracy": [hits[p] / made[p] if made[p] else 0.0 for p in (0, 1)],
        "distToWin": [t["distToWin"] for t in totals],
        "fallbacks": fallbacks,
        "plies": len(m.plies),
        "maxPlies": geo.max_plies,
        **{k: v for k, v in config_of(geo.game).items() if k != "first"},
        "ending": m.ending,
        "reason": reason_of(m.ending),
    }


def same(stated: Any, derived: Any) -> bool:
    """Whether a recorded value is what the rules derive, as JSON types go.

    Where the rules derive an int, only that int (not 2.0, not true); where
    they derive a float, that float or the int equal to it (the engine may
    write 1 for 1.0), since the value read is written back as the float.
    Recursion follows `derived`, never the (possibly hostile) `stated`.
    """
    if isinstance(derived, list):
        return (
            isinstance(stated, list)
            and len(stated) == len(derived)
            and all(same(x, y) for x, y in zip(stated, derived, strict=True))
        )
    # Exact, not within a tolerance as a review's floats: a value read is
    # written back as the derived one, so a near miss would not round-trip.
    return same_fact(stated, derived)


def stop_at_deadline(state) -> pyspiel.State:
    """End a running game as the engine's play deadline does: `deadline` / `wall-clock`.

    The stop falls between plies (never after a recon sense and before its
    attempt) and is scored by true distToWin, smaller wins, equal draws.
    Returns the same state, now terminal.
    """
    m = getattr(state, "truth", None)
    if not isinstance(m, rules.Match):
        raise ValueError(
            f"stop_at_deadline stops Fog-of-War board games, not {type(state).__name__}"
        )
    review.stop_at_wall_clock(state.writable_truth())
    return state
