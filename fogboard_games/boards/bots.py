"""Baseline bots `probe` and `sweep` for the Fog-of-War boards (docs/boards_bots_and_engine_logs.md).

`probe` attempts a cell on its believed shortest path (preferring cells on
the opponent's too), `sweep` walks a lane and shifts when blocked; `probe`
is also the boards' `heuristic` kind. Both decide from `seat_view`, built
from the seat's observer pieces alone (docs/bots.md#fair-seats), and are
pure functions of that view and a seeded RNG, so no bot keeps a memory the
seat's information state does not hold.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import NamedTuple

import numpy as np

from fogboard_games.boards import rules
from fogboard_games.boards.rules import BLOCKED, OCCUPIED, OWN, PLACED, PROVEN, UNKNOWN
from fogboard_games.bots.base import SeatBot, register_heuristic, register_kind, seat_pieces

BOT_NAMES = ("probe", "sweep")
BOARD_GAMES = ("fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_recon_hex")


class OwnPly(NamedTuple):
    """One of the seat's own plies as its log shows it: the sense (anchor
    index, -1 without one, and the block's view codes, empty without one),
    then the attempted cell and its result (PLACED / OCCUPIED)."""

    anchor: int
    seen: tuple[int, ...]
    cell: int
    result: int


@functools.cache
def plain_plies(cells: int) -> list[list[OwnPly]]:
    """[cell][result]: the OwnPly of every attempt without a sense, made once
    per board size (most plies have no sense; a log reuses these)."""
    return [[OwnPly(-1, (), c, r) for r in (PLACED, OCCUPIED)] for c in range(cells)]


@dataclasses.dataclass(frozen=True)
class SeatView:
    """Everything one seat knows, and nothing more.

    `board` is the believed board (UNKNOWN / OWN / PROVEN per cell); `log`
    holds the seat's own plies (OwnPly); `sense_now` is the Sense of a sense
    made in the ply under way, and `sensing` says the seat's next decision
    is its sense.
    """

    geo: rules.Geometry
    seat: int
    board: tuple[int, ...]
    log: tuple[OwnPly, ...]
    sense_now: rules.Sense | None
    sensing: bool

    @property
    def legal_attempts(self) -> list[int]:
        return [c for c, v in enumerate(self.board) if v == UNKNOWN]


def seat_view(state, seat: int) -> SeatView:
    """The information of `seat` in `state`, read from its observer's pieces.

    `seat_pieces` gives the seat's information-state tensor
    (docs/boards.md#tensor-pieces): the believed board, and per own ply i
    its attempt, result and (recon) sense. The row after the seat's last
    ply holds a sense made in the ply under way. Whose turn it is and
    whether the game is over are public.
    """
    geo = state.get_game().setup
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    pieces = seat_pieces(state, seat)
    board = tuple(pieces["board"][0].argmax(axis=1).tolist())
    playing = not state.is_terminal() and state.current_player() == seat
    if geo.imperfect_recall:
        # docs/boards.md#imperfect-recall: the seat keeps its view, no log
        # (and no sense: the option is not one of recon hex's).
        return SeatView(geo, seat, board, (), None, False)
    results = pieces["results"][0]
    done = int(np.count_nonzero(results))  # own plies: one one-hot row each
    cells = pieces["attempts"][0][:done].argmax(axis=1).tolist()
    plain = plain_plies(geo.cells)
    log = [
        plain[c][OCCUPIED if o else PLACED]
        for c, o in zip(cells, results[:done, OCCUPIED].tolist())
    ]
    sense_now = None
    if geo.sense:
        # Rows 0..done-1 are the senses of its plies, row `done` one under way.
        rows, anchors = pieces["senses"][0][: done + 1].nonzero()
        if len(rows):
            seen = pieces["sensed"][0][rows].argmax(axis=2).tolist()
            for i, anchor, codes in zip(rows.tolist(), anchors.tolist(), seen):
                if i < done:
                    log[i] = OwnPly(anchor, tuple(codes), log[i].cell, log[i].result)
                elif playing:  # only the mover senses in the ply under way
                    sense_now = rules.Sense(anchor, tuple(codes))
    log = tuple(log)
    sensing = bool(geo.sense) and playing and sense_now is None
    return SeatView(geo, seat, board, log, sense_now, sensing)


# ---- believed shortest paths ----------------------------------------------


def _edge_costs(view: SeatView, side: int) -> list:
    """Per-cell cost of a route for `side` on the believed board.

    From the seat's own side its stones are free and proven opponent stones
    impassable; from the opponent's side it is the other way round. Unknown
    cells cost 1 either way.
    """
    mine, theirs = (OWN, PROVEN) if side == view.seat else (PROVEN, OWN)
    return [0 if v == mine else BLOCKED if v == theirs else 1 for v in view.board]


def path_cells(view: SeatView, side: int) -> tuple[int, set[int]]:
    """(distance, unknown cells on some shortest route) for `side` on the believed board.

    Hex: a cell lies on a shortest route when the cheapest route from the
    side's first edge to it plus the cheapest from it to the far edge, less
    its own cost counted twice, is the distance. Tic-tac-toe: the unknown
    cells of the best lines the other side has not touched. Distance 99 and
    no cells when no route is left.
    """
    geo = view.geo
    cost = _edge_costs(view, side)
    if geo.kind == "ttt":
        best, cells = rules.UNREACHABLE, set()
        for line in geo.lines:
            if any(cost[c] is BLOCKED for c in line):
                continue
            need = sum(cost[c] for c in line)
            if need < best:
                best, cells = need, set()
            if need == best:
                cells.update(c for c in line if cost[c] == 1)
        return best, cells
    edges = geo.edges[side]
    first = rules.bfs01(geo, cost, [c for c in range(geo.cells) if edges[c] & 1])
    far = rules.bfs01(geo, cost, [c for c in range(geo.cells) if edges[c] & 2])
    best = min((first[c] for c in range(geo.cells) if edges[c] & 2), default=rules.UNREACHABLE)
    if best >= rules.UNREACHABLE:
        return rules.UNREACHABLE, set()
    cells = {
        c
        for c in range(geo.cells)
        if cost[c] == 1 and first[c] + far[c] - 1 == best and first[c] < rules.UNREACHABLE
    }
    return best, cells


def probe_targets(view: SeatView) -> list[int]:
    """The cells probe chooses among (its planned path), ascending.

    Own shortest-path cells; among them those also on the opponent's
    shortest path when there are any. No route of its own left: the
    opponent's path (block it). Neither: every legal attempt.
    """
    _, mine = path_cells(view, view.seat)
    _, theirs = path_cells(view, 1 - view.seat)
    if mine:
        both = mine & theirs
        return sorted(both or mine)
    if theirs:
        return sorted(theirs)
    return view.legal_attempts


# ---- sweep's lane walk ------------------------------------------------------


def lane_cell(geo: rules.Geometry, seat: int, lane: int, offset: int) -> int:
    """The cell at `offset` along `lane`: a rank for seat 0, a file for seat 1, rows in ttt."""
    n = geo.size  # files
    if geo.kind == "hex" and seat == 1:
        return offset * n + lane
    return lane * n + offset


def lane_shape(geo: rules.Geometry, seat: int) -> tuple[int, int]:
    """(lanes, cells along a lane) of the seat's sweep: seat 0 walks ranks
    (files cells long), seat 1 files (ranks long); on a rectangular board
    the two differ."""
    if geo.kind == "hex" and seat == 1:
        return geo.files, geo.ranks
    return geo.ranks, geo.files


def sweep_target(view: SeatView) -> int:
    """The cell sweep attempts next on the believed board (see the module docstring)."""
    geo = view.geo
    lanes, length = lane_shape(geo, view.seat)
    lane, offset = lanes // 2, 0
    seen = set()
    while (lane, offset) not in seen:
        seen.add((lane, offset))
        cell = lane_cell(geo, view.seat, lane, offset)
        code = view.board[cell]
        if code == UNKNOWN:
            return cell
        if code == PROVEN:
            lane = (lane + 1) % lanes  # blocked: shift one lane, same offset
        else:
            offset = (offset + 1) % length  # own stone: walk on
    # The walk cycles through known cells only; any legal cell will do.
    return view.legal_attempts[0]


def anchor_covering(geo: rules.Geometry, cell: int) -> int:
    """Index of the sense anchor whose block starts at `cell`, clamped to the board."""
    n, k = geo.size, geo.sense
    r, f = divmod(cell, n)
    return geo.anchors.index(min(r, geo.ranks - k) * n + min(f, n - k))


# ---- the bots -----------------------------------------------------------------


class _BoardBot(SeatBot):
    """A board bot: it decides from `seat_view`, its seat's knowledge only."""

    games = BOARD_GAMES

    def decide(self, state) -> int:
        view = seat_view(state, self.player)
        if view.sensing:
            return view.geo.cells + self.choose_anchor(view)
        return self.choose_attempt(view)

    def view_rng(self, view: SeatView) -> random.Random:
        """The decision's RNG, keyed by what the seat has done so far: its
        own plies, which under imperfect recall (no log kept, no sense) are
        its known cells, one per ply."""
        done = len(view.log)
        if view.geo.imperfect_recall:
            done = sum(v != UNKNOWN for v in view.board)
        return self.rng(f"{done}:{int(view.sensing)}")

    def choose_attempt(self, view: SeatView) -> int:
        raise NotImplementedError

    def choose_anchor(self, view: SeatView) -> int:
        raise NotImplementedError


class ProbeBot(_BoardBot):
    """Shortest-path chain builder that probes the opponent's path on ties."""

    kind = "probe"

    def choose_attempt(self, view: SeatView) -> int:
        return self.view_rng(view).choice(probe_targets(view))

    def choose_anchor(self, view: SeatView) -> int:
        planned = set(probe_targets(view))
        cover = [sum(c in planned for c in block) for block in view.geo.blocks]
        top = max(cover)
        return self.view_rng(view).choice([i for i, k in enumerate(cover) if k == top])


class SweepBot(_BoardBot):
    """Corridor walker that shifts one lane each time it is blocked."""

    kind = "sweep"

    def choose_attempt(self, view: SeatView) -> int:
        return sweep_target(view)

    def choose_anchor(self, view: SeatView) -> int:
        return anchor_covering(view.geo, sweep_target(view))


BOTS = {"probe": ProbeBot, "sweep": SweepBot}
for _kind, _cls in BOTS.items():
    register_kind(_kind, _cls)
for _short in BOARD_GAMES:
    register_heuristic(_short, ProbeBot)  # the boards' `heuristic` kind is probe


def make_bot(name: str, game, player: int, seed: int = 0) -> SeatBot:
    """A baseline bot by name (`probe` or `sweep`) for `player` in `game`."""
    if name not in BOTS:
        raise ValueError(f"unknown board bot {name!r}; known: {', '.join(BOT_NAMES)}")
    return BOTS[name](game, player, seed)


__all__ = [
    "BOT_NAMES",
    "ProbeBot",
    "SeatView",
    "SweepBot",
    "make_bot",
    "path_cells",
    "probe_targets",
    "seat_view",
    "sweep_target",
]
