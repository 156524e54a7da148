"""Our Fog-of-War boards against OpenSpiel's C++ phantom_ttt and dark_hex: the
mapping both ways (docs/boards.md#openspiels-phantom_ttt-and-dark_hex).

The games are the same (tests/test_boards_crosscheck.py plays them move for
move); the numbering, the tensors and the strings are not. This module is
what lets an agent trained on OpenSpiel's game act in ours, exactly:

- actions: `action_maps(game)` gives the two permutations as numpy arrays,
  `to_openspiel_action` / `to_our_action` one action;
- games: `openspiel_load_string(game)` / `our_load_string(game)` (and
  `openspiel_game`, `our_game`) name the twin of the same rules, and refuse a
  game without one (recon hex, a ply cap OpenSpiel lacks);
- states: `Twin(game)` holds both games and the maps; it replays a history on
  the other side (`openspiel_state`, `our_state`), gives OpenSpiel's
  information-state string and tensor of one of our states
  (`openspiel_information_state`), and finds our information state behind an
  OpenSpiel information-state string alone (`our_information_state`);
- policies: `Twin.policy_to_ours` turns a policy over OpenSpiel's strings
  into one over our information states, refusing one that tells apart what
  the seat cannot (OpenSpiel's dark_hex string shows the ply count), and
  `Twin.tensor_policy` wraps a function of OpenSpiel's information-state
  tensors into one of our states;
- tensors: `Twin.openspiel_tensors` makes OpenSpiel's information-state
  tensors from a batch of ours, replaying nothing (solve.Policy.from_openspiel
  evaluates a function of them on millions of infosets).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

import numpy as np
import pyspiel

from fogboard_games.boards import resample, rules
from fogboard_games.core.observer import INFO_STATE

# Two OpenSpiel strings of one of our information states "differ" when some
# action's probability differs by more than this (absolute): float noise of
# a solver's normalization passes, a policy that reads the ply count does not.
TOLERANCE = 1e-12

OUR_NAMES = {"ttt": "fogboard_phantom_ttt", "hex": "fogboard_dark_hex"}
OPENSPIEL_NAMES = {"ttt": "phantom_ttt", "hex": "dark_hex"}
_VERSIONS = {"ttt": ("classical", "abrupt"), "hex": ("cdh", "adh")}
_SIDES = range(2, 12)  # fogboard_dark_hex's num_rows and num_cols
_OWN_MARKS = ("xX", "oO")  # OpenSpiel's view characters of seat 0's and seat 1's stones
# OpenSpiel's view columns of a cell, per (empty, seat 0's stone, seat 1's
# stone): phantom_ttt's tic-tac-toe states empty 0, nought 1, cross 2 (seat
# 0 is X), laid out state by state (9 x state + cell); dark_hex's hex states
# -4..4 shifted by 4, empty 0, black (seat 0) 1, white -1, cell by cell.
_VIEW_STATES = {"ttt": (0, 2, 1), "hex": (4, 5, 3)}
# How many orders of its own attempts are tried for a view of an _ir string
# (the view does not say the order; the first, placements first, almost always fits).
_IR_ORDERS = 24


class Board(NamedTuple):
    """What makes a game of ours and one of OpenSpiel's twins: the same `kind`
    ("ttt" or "hex"), OpenSpiel's `rows` (our files) and `cols` (our ranks),
    the rule, the obstype and the recall."""

    kind: str
    rows: int
    cols: int
    abrupt: bool
    obstype: str
    imperfect_recall: bool

    @property
    def cells(self) -> int:
        return self.rows * self.cols


def _flag(b: bool) -> str:
    return "true" if b else "false"


def board_of(game) -> tuple[str, Board]:
    """("ours" or "openspiel", its Board) of a pyspiel game or a load string;
    ValueError, one line, for a game with no twin."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    name = game.get_type().short_name
    p = game.get_parameters()
    if name in ("fogboard_phantom_ttt", "fogboard_dark_hex"):
        kind = "ttt" if name == "fogboard_phantom_ttt" else "hex"
        rows, cols = (3, 3) if kind == "ttt" else (p["num_rows"], p["num_cols"])
        if p["max_plies"] != 2 * rows * cols:
            raise ValueError(
                f"{game} has no OpenSpiel twin: max_plies={p['max_plies']} caps the game below "
                f"2 x cells = {2 * rows * cols}, and OpenSpiel's {OPENSPIEL_NAMES[kind]} has no "
                "ply cap (leave max_plies at -1)"
            )
        board = Board(kind, rows, cols, p["abrupt"], p["obstype"], p["imperfect_recall"])
        return "ours", board
    if name == "fogboard_recon_hex":
        raise ValueError(
            f"{game} has no OpenSpiel twin: recon hex is an original variant (OpenSpiel has "
            "phantom_ttt and dark_hex, whose twins are fogboard_phantom_ttt and fogboard_dark_hex)"
        )
    base = name.removesuffix("_ir")
    if base not in ("phantom_ttt", "dark_hex"):
        raise ValueError(
            f"{game} has no twin: the mapped games are ours fogboard_phantom_ttt and "
            "fogboard_dark_hex and OpenSpiel's phantom_ttt, phantom_ttt_ir, dark_hex and dark_hex_ir"
        )
    kind = "ttt" if base == "phantom_ttt" else "hex"
    rows, cols = (3, 3) if kind == "ttt" else (p["num_rows"], p["num_cols"])
    if rows not in _SIDES or cols not in _SIDES:
        raise ValueError(
            f"{game} has no twin of ours: fogboard_dark_hex takes num_rows and num_cols in "
            f"2..11, this board is {rows} x {cols}"
        )
    version = p["gameversion"]
    return "openspiel", Board(
        kind, rows, cols, version == _VERSIONS[kind][1], p["obstype"], name.endswith("_ir")
    )


def _load_string(side: str, b: Board) -> str:
    if side == "openspiel":
        name = OPENSPIEL_NAMES[b.kind] + ("_ir" if b.imperfect_recall else "")
        version = f"gameversion={_VERSIONS[b.kind][b.abrupt]}"
        if b.kind == "ttt":
            return f"{name}({version},obstype={b.obstype})"
        if b.rows == b.cols:
            return f"{name}(board_size={b.rows},{version},obstype={b.obstype})"
        return f"{name}({version},num_cols={b.cols},num_rows={b.rows},obstype={b.obstype})"
    rest = (
        f"abrupt={_flag(b.abrupt)},obstype={b.obstype},imperfect_recall={_flag(b.imperfect_recall)}"
    )
    if b.kind == "ttt":
        return f"{OUR_NAMES['ttt']}({rest})"
    if b.rows == b.cols:
        return f"{OUR_NAMES['hex']}(board_size={b.rows},{rest})"
    return f"{OUR_NAMES['hex']}(num_rows={b.rows},num_cols={b.cols},{rest})"


def openspiel_load_string(game) -> str:
    """OpenSpiel's load string of the game of the same rules as `game` (ours,
    or OpenSpiel's own, normalized)."""
    return _load_string("openspiel", board_of(game)[1])


def our_load_string(game) -> str:
    """Our load string of the game of the same rules as `game` (OpenSpiel's,
    or ours, normalized)."""
    return _load_string("ours", board_of(game)[1])


def openspiel_game(game) -> pyspiel.Game:
    """OpenSpiel's C++ game of the same rules as `game`."""
    return pyspiel.load_game(openspiel_load_string(game))


def our_game(game) -> pyspiel.Game:
    """Our game of the same rules as `game`."""
    return pyspiel.load_game(our_load_string(game))


def _maps(b: Board) -> tuple[np.ndarray, np.ndarray]:
    cells = np.arange(b.cells)
    if b.kind == "ttt":
        # OpenSpiel's row 0 is the top (our rank 3), its column our file.
        out = (2 - cells // 3) * 3 + cells % 3
    else:
        # OpenSpiel's row is our file, its column our rank
        # (docs/boards.md#rectangular-boards): our rank * files + file -> file * cols + rank.
        out = (cells % b.rows) * b.cols + cells // b.rows
    back = np.empty_like(out)
    back[out] = cells
    out.setflags(write=False)
    back.setflags(write=False)
    return out, back


def action_maps(game) -> tuple[np.ndarray, np.ndarray]:
    """(ours_to_openspiel, openspiel_to_ours): int64 arrays, read-only, with
    ours_to_openspiel[our action] = OpenSpiel's action and the inverse; `game`
    is either side's (pyspiel game or load string)."""
    return _maps(board_of(game)[1])


def _checked_action(action, cells: int, side: str) -> int:
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise ValueError(f"{side} action must be an int in 0..{cells - 1}, got {action!r}")
    a = action.__index__()
    if not 0 <= a < cells:
        raise ValueError(f"{side} action must be in 0..{cells - 1}, got {a}")
    return a


def to_openspiel_action(game, action: int) -> int:
    """OpenSpiel's id of our `action` (`game`: either side's)."""
    out, _ = action_maps(game)
    return int(out[_checked_action(action, len(out), "our")])


def to_our_action(game, action: int) -> int:
    """Our id of OpenSpiel's `action` (`game`: either side's)."""
    _, back = action_maps(game)
    return int(back[_checked_action(action, len(back), "OpenSpiel's")])


class _Parsed(NamedTuple):
    """An OpenSpiel information-state string, read: `seat` if it shows it,
    the view (OpenSpiel's cell order, one character each), the ply count it
    shows (None if none), its entries (player, OpenSpiel action or None for
    an opponent's "?")."""

    seat: int | None
    view: str
    count: int | None
    entries: tuple


class _RecordOnly:
    """What resample.resample reads of a match: the setup, the plies (the
    seat's own; under reveal-numturns every ply, for its mover) and whose
    move it is. An OpenSpiel string gives exactly this much, so the
    resampler, which draws the opponent's plies from the seat's record,
    finds a history of ours behind the string."""

    __slots__ = ("setup", "plies", "mover", "sensed")

    def __init__(self, setup, plies: list, mover: int):
        self.setup, self.plies, self.mover, self.sensed = setup, plies, mover, None


class Twin:
    """One of our games and its OpenSpiel twin, from either side's game (a
    pyspiel game or a load string): `ours`, `openspiel` (pyspiel games),
    `ours_to_openspiel` and `openspiel_to_ours` (action_maps)."""

    def __init__(self, game):
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        side, self.board = board_of(game)
        self.ours = game if side == "ours" else our_game(game)
        self.openspiel = game if side == "openspiel" else openspiel_game(game)
        self.ours_to_openspiel, self.openspiel_to_ours = _maps(self.board)
        b = self.board
        # The resampler draws worlds of the perfect-recall game (the play is
        # the same); an _ir string shows no ply movers, so none are asked for.
        self._plain_setup = self.ours.setup
        if b.imperfect_recall:
            plain = b._replace(imperfect_recall=False, obstype="reveal-nothing")
            self._plain_setup = pyspiel.load_game(_load_string("ours", plain)).setup
        self._numturns = b.obstype == "reveal-numturns" and not b.imperfect_recall
        self._plan = None  # (openspiel_tensors' columns, made on first use)

    def __repr__(self) -> str:
        return f"Twin({self.ours}, {self.openspiel})"

    # ---- histories and states ------------------------------------------------

    def _check_game(self, state, side: str) -> None:
        found, board = board_of(state.get_game())
        if (found, board) != (side, self.board):
            want = self.ours if side == "ours" else self.openspiel
            raise ValueError(f"the state is of {state.get_game()}, expected one of {want}")

    def openspiel_history(self, history: Iterable[int]) -> list[int]:
        """Our history as OpenSpiel's actions."""
        out = self.ours_to_openspiel
        return [int(out[_checked_action(a, len(out), "our")]) for a in history]

    def our_history(self, history: Iterable[int]) -> list[int]:
        """OpenSpiel's history as our actions."""
        back = self.openspiel_to_ours
        return [int(back[_checked_action(a, len(back), "OpenSpiel's")]) for a in history]

    def openspiel_state(self, state) -> pyspiel.State:
        """OpenSpiel's state after the same plies as our `state` (or our history)."""
        if isinstance(state, pyspiel.State):
            self._check_game(state, "ours")
            state = state.history()
        theirs = self.openspiel.new_initial_state()
        for a in self.openspiel_history(state):
            theirs.apply_action(a)
        return theirs

    def our_state(self, state) -> pyspiel.State:
        """Our state after the same plies as OpenSpiel's `state` (or its history)."""
        if isinstance(state, pyspiel.State):
            self._check_game(state, "openspiel")
            state = state.history()
        ours = self.ours.new_initial_state()
        for ply, a in enumerate(self.our_history(state)):
            try:
                ours.apply_action(a)
            except ValueError as err:
                raise ValueError(f"ply {ply} of the history: {err}") from None
        return ours

    def openspiel_information_state(self, state, seat: int) -> tuple[str, np.ndarray]:
        """OpenSpiel's (information-state string, flat float64 tensor) of `seat`
        after the plies of our `state` (or our history)."""
        theirs = self.openspiel_state(state)
        return (
            theirs.information_state_string(seat),
            np.asarray(theirs.information_state_tensor(seat), dtype=np.float64),
        )

    def openspiel_tensors(self, seat: int, tensors) -> np.ndarray:
        """OpenSpiel's information-state tensors of `seat` from ours: `tensors`
        is a batch of our information-state tensors of `seat`, shape (n, our
        information_state_tensor_size); returned float64, shape (n,
        OpenSpiel's size), each the very tensor OpenSpiel's game gives at a
        history of that information state. OpenSpiel's tensor is the seat's
        view (its stones and the opponent stones it proved, one-hot per
        cell) and its own attempts in order, one-hot over OpenSpiel's cells
        (under reveal-numturns every ply, the opponent's as "unknown", with
        its mover): what our tensor says too, so no history is replayed.

        Refused (ValueError): an _ir game, whose OpenSpiel tensor is the
        perfect-recall one (the order of the seat's attempts, which our
        imperfect-recall information state forgets)."""
        plan = self._tensor_plan()
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        tensors = np.asarray(tensors, dtype=np.float64)
        if tensors.ndim != 2 or tensors.shape[1] != plan["our_size"]:
            raise ValueError(
                f"our information-state tensors of {self.ours} have shape (n, "
                f"{plan['our_size']}), got {tensors.shape}"
            )
        source, blank = plan["source"][seat], plan["blank"][seat]
        out = np.take(tensors, source, axis=1)
        if len(blank):
            out[:, blank] = 0.0
        if plan["movers"] is None:  # reveal-nothing: the view and the attempts, copied
            return out
        cells = self.board.cells
        attempts = tensors[:, plan["attempts"]].reshape(len(tensors), -1, cells)
        at = plan["sequence"]
        movers = tensors[:, plan["movers"]].reshape(len(tensors), -1, 2)
        own = movers[:, :, seat]
        # The seat's j-th attempt is the ply k where its own plies reach j + 1.
        j = (np.cumsum(own, axis=1) - own).astype(np.int64)
        j = np.minimum(j, attempts.shape[1] - 1)
        rows = np.arange(len(tensors))[:, None]
        slot = cells + 2  # OpenSpiel's mover, its cells, "unknown"
        block = out[:, at : at + movers.shape[1] * slot].reshape(len(tensors), -1, slot)
        block[:, :, 0] = movers[:, :, 1]  # (the mover's number: 0 for seat 0)
        block[:, :, 1 : 1 + cells] = (
            attempts[rows, j][:, :, self.openspiel_to_ours] * own[:, :, None]
        )
        block[:, :, 1 + cells] = movers[:, :, 1 - seat]
        out[:, at : at + block.shape[1] * slot] = block.reshape(len(tensors), -1)
        return out

    def _tensor_plan(self) -> dict:
        """Where openspiel_tensors reads our tensor and writes OpenSpiel's."""
        if self._plan is not None:
            return self._plan
        b = self.board
        if b.imperfect_recall:
            raise ValueError(
                f"{self.openspiel} declares no information-state tensor (its tensor is the "
                f"perfect-recall one, the order of the seat's attempts, which {self.ours}'s "
                "information state forgets): use the game without _ir"
            )
        layout = self.ours.setup.encoder.layout(INFO_STATE)
        offset, cells = layout.offset, b.cells
        ours = np.arange(cells)
        theirs = self.ours_to_openspiel
        board = (offset["board"] + 3 * ours[:, None] + np.arange(3)).ravel()
        view = []
        for seat in (0, 1):
            # Our (unknown, own, proven) against OpenSpiel's (empty, own stone, opponent's).
            states = np.array(_VIEW_STATES[b.kind])[[0, 1 + seat, 2 - seat]]
            if b.kind == "ttt":
                columns = cells * states[None, :] + theirs[:, None]
            else:
                columns = 9 * theirs[:, None] + states[None, :]
            view.append(columns.ravel())
        plies = layout.shape["attempts"][1]
        attempts = offset["attempts"] + np.arange(plies * cells)
        at = cells * (3 if b.kind == "ttt" else 9)  # where OpenSpiel's action sequence starts
        size = self.openspiel.information_state_tensor_size()
        # Per seat, the column of ours each of OpenSpiel's copies (one gather),
        # and OpenSpiel's columns that copy none (`blank`, zeroed after it).
        sources, blanks = [], []
        for seat in (0, 1):
            source = np.full(size, -1)
            source[view[seat]] = board
            if not self._numturns:  # the seat's j-th attempt at our cell c, at OpenSpiel's slot j
                j = np.arange(plies)[:, None]
                source[(at + j * cells + theirs[None, :]).ravel()] = attempts
            blanks.append(np.flatnonzero(source < 0))
            sources.append(np.maximum(source, 0))
        plan = self._plan = {
            "our_size": layout.size,
            "size": size,
            "source": sources,
            "blank": blanks,
            "attempts": attempts,
            "sequence": at,
            "movers": None,
        }
        if self._numturns:
            m = layout.shape["ply_movers"][0]
            plan["movers"] = offset["ply_movers"] + np.arange(2 * m)
        return plan

    # ---- from OpenSpiel's string alone ----------------------------------------

    def our_information_state(self, openspiel_string: str, seat: int | None = None) -> str:
        """Our information-state string of `seat` behind OpenSpiel's
        information-state string, from the string alone (see
        `our_state_for_openspiel_string`)."""
        state, seat = self._find(openspiel_string, seat, None)
        return state.information_state_string(seat)

    def our_state_for_openspiel_string(
        self, openspiel_string: str, seat: int | None = None, to_move: bool | None = None
    ) -> pyspiel.State:
        """A running state of ours in which `seat` has OpenSpiel's
        information-state string `openspiel_string`: its history, mapped
        to OpenSpiel, gives exactly that string. `to_move` asks for `seat`
        to be the one to move (True), not to be (False), or either (None).

        The string shows the seat's view and its own actions in order (under
        reveal-numturns also who made every ply; in dark_hex the ply count),
        which is the seat's whole record; the resampler draws the opponent's
        plies behind it (docs/boards.md#how-a-world-is-drawn), and, where
        the count is hidden from the seat (dark_hex, reveal-nothing, the
        classical rule), the opponent's collisions are then set to reach it.
        `seat` may be left out when the string shows it (it lists a move).
        ValueError, one line, when no history of ours has that string."""
        return self._find(openspiel_string, seat, to_move)[0]

    def _find(self, string: str, seat: int | None, to_move: bool | None):
        parsed = self._parse(string, seat)
        seat = self._one_seat(parsed, string)
        found = self._witness(parsed, seat, string, to_move)
        if found is None:
            where = {True: " with seat to move", False: " with the other seat to move"}
            raise ValueError(
                f"no running history of {self.ours} gives seat {seat} OpenSpiel's "
                f"information-state string {string!r}{where.get(to_move, '')}"
            )
        return found, seat

    def _one_seat(self, parsed: _Parsed, string: str) -> int:
        if parsed.seat is None:
            raise ValueError(
                f"OpenSpiel's string {string!r} lists no move, so it does not say whose it is: "
                "pass seat=0 or seat=1"
            )
        return parsed.seat

    def _parse(self, string: str, seat: int | None) -> _Parsed:
        """Read OpenSpiel's information-state string (the formats of
        phantom_ttt.cc and dark_hex.cc in open_spiel 2.0.2)."""
        b = self.board

        def bad(why: str) -> ValueError:
            return ValueError(
                f"not an information-state string of {self.openspiel}: {why}; got {string!r}"
            )

        if not isinstance(string, str):
            raise ValueError(f"an OpenSpiel information-state string is a str, got {string!r}")
        if seat is not None and (isinstance(seat, bool) or seat not in (0, 1)):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        if b.imperfect_recall:
            # "P<seat> " and the view, nothing else.
            if string[:1] != "P" or string[1:3] not in ("0 ", "1 "):
                raise bad("an _ir string starts with 'P0 ' or 'P1 '")
            shown = int(string[1])
            if seat is not None and seat != shown:
                raise bad(f"it is seat {shown}'s, not seat {seat}'s")
            return _Parsed(shown, self._view(string[3:].split("\n"), bad), None, ())
        lines = string.split("\n")
        view = self._view(lines[: b.rows], bad)
        rest = lines[b.rows :]
        count = None
        if b.kind == "hex" or b.obstype == "reveal-numturns":
            if len(rest) != 2 or not rest[0].isdigit():
                raise bad("after the view comes the ply count, then the moves")
            count = int(rest[0])
            rest = rest[1:]
        if len(rest) != 1:
            raise bad("after the view come the moves on one line")
        entries = []
        for token in rest[0].split():
            player, _, action = token.partition(",")
            if player not in ("0", "1") or not (action == "?" or action.isdigit()):
                raise bad(f"a move is 'player,cell' or 'player,?', got {token!r}")
            if action != "?" and int(action) >= b.cells:
                raise bad(f"cell {action} is off the board")
            if action == "?" and b.obstype != "reveal-numturns":
                raise bad("the opponent's moves ('player,?') are shown under reveal-numturns only")
            entries.append((int(player), None if action == "?" else int(action)))
        shown = {p for p, a in entries if a is not None} | {1 - p for p, a in entries if a is None}
        if len(shown) > 1:
            raise bad("its moves are of both seats")
        if seat is not None and shown and shown != {seat}:
            raise bad(f"its moves are seat {shown.pop()}'s, not seat {seat}'s")
        return _Parsed(shown.pop() if shown else seat, view, count, tuple(entries))

    def _view(self, lines: list[str], bad) -> str:
        b = self.board
        if len(lines) != b.rows or any(len(line) != b.cols for line in lines):
            raise bad(f"the view is {b.rows} lines of {b.cols} cells")
        view = "".join(lines)
        if set(view) - set(".xoXO"):
            raise bad("the view's cells are '.', 'x', 'o' (and 'X', 'O' on a winning move)")
        return view

    def _own_plies(self, parsed: _Parsed, seat: int) -> list:
        """The seat's plies as our rules.Ply, in order; under reveal-numturns
        with a stand-in ply of the opponent where it moved."""
        view, mine = parsed.view, _OWN_MARKS[seat]
        if self.board.imperfect_recall:
            # The view alone: the seat's stones, then the stones it proved.
            known = [c for c in range(self.board.cells) if view[c] != "."]
            attempts = sorted(known, key=lambda c: (view[c] not in mine, c))
            entries = [(seat, a) for a in attempts]
        else:
            entries = parsed.entries
        back = self.openspiel_to_ours
        plies = []
        for player, action in entries:
            if action is None:
                plies.append(rules.Ply(player, -1, (), -1, -1))
                continue
            mark = view[action]
            result = rules.PLACED if mark in mine else rules.OCCUPIED
            plies.append(rules.Ply(player, -1, (), int(back[action]), result))
        return plies

    def _witness(self, parsed: _Parsed, seat: int, string: str, to_move: bool | None):
        """A state of ours behind `string` for `seat`, or None (see
        our_state_for_openspiel_string)."""
        rng = random.Random(0)  # the same witness for the same string
        plies = self._own_plies(parsed, seat)
        orders = [plies]
        if self.board.imperfect_recall:
            # The view does not say in what order the seat attempted its
            # cells: placements first leaves the opponent the most time to
            # have placed the stones the seat proved; other orders only if
            # that one has no history.
            for _ in range(_IR_ORDERS - 1):
                orders.append(rng.sample(plies, len(plies)))
        for order in orders:
            for actions in self._candidates(order, seat, parsed.count, rng):
                state = self._check_witness(actions, seat, string, to_move)
                if state is not None:
                    return state
        return None

    def _candidates(self, plies: list, seat: int, count: int | None, rng):
        """Histories of ours with the seat's record `plies`: the resampler's
        worlds with the seat to move and with the other seat to move, each
        also cut after the seat's last ply; where the ply count is shown but
        not the opponent's collisions, each with as many opponent
        collisions as reach the count."""
        own = [p for p in plies if p.seat == seat]
        bases = []
        if not self._numturns and not own:
            # An empty record, which the resampler reads as the start of the
            # game even for seat 1 to move: seat 0 has made no ply only at
            # the start, seat 1 there or after seat 0's first placement.
            bases = [[], [0]] if seat == 1 else [[]]
        else:
            for mover in (seat, 1 - seat):
                try:
                    bases.append(
                        resample.resample(_RecordOnly(self._plain_setup, plies, mover), seat, rng)
                    )
                except RuntimeError:  # no world of this kind
                    continue
        hidden_count = (
            count is not None and not self._numturns and not self.board.abrupt
        )  # the count shows the opponent's collisions, which the seat never sees
        for base in bases:
            played = self._play(base)
            if played is None:
                continue
            cut = max((i + 1 for i, p in enumerate(played) if p.seat == seat), default=0)
            for variant in (played, played[:cut]):
                if hidden_count:
                    variant = self._with_collisions(variant, seat, count)
                    if variant is None:
                        continue
                yield [p.cell for p in variant]

    def _play(self, actions: list[int]) -> list | None:
        """The plies of our history `actions`; None if it does not play (a
        record with a winning line of the seat's ends the game before it)."""
        state = self.ours.new_initial_state()
        for a in actions:
            if state.is_terminal():
                return None
            state.apply_action(a)
        return list(state.truth.plies)

    def _with_collisions(self, plies: list, seat: int, count: int):
        """`plies` (classical rule) with the opponent's collisions set so that
        the history has `count` plies, or None. An opponent collision
        changes nothing the seat sees and keeps the opponent to move, so
        any may go, on seat stones already placed, before an opponent ply
        or at the end if the opponent is to move there; the latest such
        place has the most stones."""
        opp = 1 - seat
        plies = [p for p in plies if p.seat == seat or p.result == rules.PLACED]
        need = count - len(plies)
        if need == 0:
            return plies
        if need < 0:
            return None
        spots = [i for i, p in enumerate(plies) if p.seat == opp]
        state = self.ours.new_initial_state()
        for p in plies:
            state.apply_action(p.cell)
        if state.current_player() == opp:
            spots.append(len(plies))
        if not spots:
            return None
        at = spots[-1]
        stones = [p.cell for p in plies[:at] if p.seat == seat and p.result == rules.PLACED]
        if len(stones) < need:
            return None
        hits = [rules.Ply(opp, -1, (), c, rules.OCCUPIED) for c in stones[:need]]
        return plies[:at] + hits + plies[at:]

    def _check_witness(self, actions: list[int], seat: int, string: str, to_move: bool | None):
        ours = self.ours.new_initial_state()
        for a in actions:
            if ours.is_terminal():
                return None
            ours.apply_action(a)
        if ours.is_terminal():
            return None
        if to_move is not None and (ours.current_player() == seat) != to_move:
            return None
        if self.openspiel_state(actions).information_state_string(seat) != string:
            return None
        return ours

    # ---- policies ---------------------------------------------------------------

    def policy_to_ours(self, policy) -> dict[str, dict[int, float]]:
        """OpenSpiel's policy as ours: {our information-state string: {our
        action: probability}} over our legal actions (0.0 where the policy
        gave none), for every information state of ours one of its strings
        reaches with the seat to move.

        `policy` is a dict {OpenSpiel information-state string: {OpenSpiel
        action: probability} or a list of (action, probability)}, or an
        open_spiel TabularPolicy of the twin OpenSpiel game. A string that
        shows no move of its seat (phantom_ttt, reveal-nothing: the empty
        board is both seat 0's first string and seat 1's) serves every seat
        it is a decision of, as OpenSpiel's lookup does.

        Refused (ValueError, one line): a policy that gives two OpenSpiel
        strings of one of our information states different probabilities
        (some action's differ by more than TOLERANCE = 1e-12), naming both:
        OpenSpiel's dark_hex string shows the ply count, which the seat
        cannot know under reveal-nothing and the classical rule, and a
        policy of ours cannot depend on it. Also refused: a string no
        decision of the game has, mass on an illegal action, a probability
        negative or not finite."""
        chosen: dict[str, tuple[str, dict[int, float], dict]] = {}
        for key, probs, state in self._policy_rows(policy):
            parsed = self._parse(key, None)
            seats = (0, 1) if parsed.seat is None else (parsed.seat,)
            found = False
            for seat in seats:
                if state is not None and state.current_player() == seat:
                    ours = self.our_state(state)
                else:
                    parsed = self._parse(key, seat)
                    ours = self._witness(parsed, seat, key, to_move=True)
                    if ours is None:
                        continue
                found = True
                name = ours.information_state_string(seat)
                row = self._our_row(key, probs, ours)
                if name not in chosen:
                    chosen[name] = (key, row, probs)
                    continue
                first_key, first_row, first_probs = chosen[name]
                diff = max(abs(first_row[a] - row[a]) for a in row)
                if diff > TOLERANCE:
                    raise ValueError(
                        f"the policy differs across OpenSpiel strings of one information state "
                        f"of seat {seat} ({name!r}): {first_key!r} gives {_show(first_probs)} and "
                        f"{key!r} gives {_show(probs)} (OpenSpiel's actions), a difference of "
                        f"{diff:.3g} > {TOLERANCE:g}: such a policy uses what the seat cannot "
                        "know (OpenSpiel's string shows the ply count)"
                    )
            if not found:
                raise ValueError(
                    f"OpenSpiel's string {key!r} is no decision of {self.openspiel}: no history "
                    "gives it to the seat to move"
                )
        return {name: row for name, (_, row, _) in chosen.items()}

    def _policy_rows(self, policy):
        """(OpenSpiel string, {OpenSpiel action: probability}, an OpenSpiel
        state with that string or None) of a policy, checked."""
        lookup = getattr(policy, "state_lookup", None)
        table = getattr(policy, "action_probability_array", None)
        if lookup is not None and table is not None:
            game = getattr(policy, "game", None)
            if game is None or board_of(game) != ("openspiel", self.board):
                raise ValueError(f"the tabular policy is of {game}, expected {self.openspiel}")
            masks = policy.legal_actions_mask
            for key, row in lookup.items():
                probs = {a: float(p) for a, p in enumerate(table[row])}
                illegal = [a for a, p in probs.items() if p != 0 and not masks[row][a]]
                if illegal:
                    raise ValueError(
                        f"the tabular policy puts mass on OpenSpiel's illegal actions {illegal} "
                        f"at {key!r}"
                    )
                legal = {a: p for a, p in probs.items() if masks[row][a]}
                yield key, _checked_probs(key, legal), policy.states[row]
            return
        if not isinstance(policy, dict):
            raise ValueError(
                "a policy over OpenSpiel's strings is a dict {string: {action: probability}} "
                f"or an open_spiel TabularPolicy, got {type(policy).__name__}"
            )
        for key, probs in policy.items():
            if isinstance(probs, dict):
                pairs = list(probs.items())
            else:
                try:
                    pairs = [(a, p) for a, p in probs]
                except (TypeError, ValueError):
                    raise ValueError(
                        f"the policy at {key!r} must be {{action: probability}} or a list of "
                        f"(action, probability), got {probs!r}"
                    ) from None
            row = {}
            for a, p in pairs:
                a = _checked_action(a, self.board.cells, "OpenSpiel's")
                if a in row:
                    raise ValueError(f"the policy at {key!r} lists action {a} twice")
                row[a] = p
            yield key, _checked_probs(key, row), None

    def _our_row(self, key: str, probs: dict[int, float], ours) -> dict[int, float]:
        legal = ours.legal_actions()
        theirs_legal = {int(self.ours_to_openspiel[a]) for a in legal}
        illegal = sorted(a for a, p in probs.items() if p != 0 and a not in theirs_legal)
        if illegal:
            raise ValueError(
                f"the policy puts mass on OpenSpiel's actions {illegal} at {key!r}, illegal there "
                f"(legal: {sorted(theirs_legal)})"
            )
        return {a: probs.get(int(self.ours_to_openspiel[a]), 0.0) for a in legal}

    def tensor_policy(
        self, function: Callable[[np.ndarray], np.ndarray]
    ) -> Callable[..., np.ndarray]:
        """`function` maps a batch of OpenSpiel's information-state tensors,
        shape (n, OpenSpiel's information_state_tensor_size), float64, to
        rows of action probabilities over OpenSpiel's actions, shape (n,
        cells). Returned: `policy(states, seats=None)`, which takes our
        states (or our histories) and the seat of each (default: the one to
        move), computes OpenSpiel's tensors by replaying the same plies in
        OpenSpiel's game, calls `function` once, and returns the rows over
        our actions, shape (n, cells): rows[:, a] is OpenSpiel's row at
        ours_to_openspiel[a]."""
        size = self.openspiel.information_state_tensor_size()

        def policy(states: Sequence, seats: Sequence[int] | None = None) -> np.ndarray:
            states = list(states)
            if seats is None:
                seats = [self._mover(s) for s in states]
            elif len(seats) != len(states):
                raise ValueError(f"{len(states)} states but {len(seats)} seats")
            tensors = np.zeros((len(states), size))
            for i, (state, seat) in enumerate(zip(states, seats)):
                tensors[i] = self.openspiel_state(state).information_state_tensor(seat)
            rows = np.asarray(function(tensors), dtype=np.float64)
            if rows.shape != (len(states), self.board.cells):
                raise ValueError(
                    f"the function must return shape {(len(states), self.board.cells)} "
                    f"(states, OpenSpiel's actions), got {rows.shape}"
                )
            return rows[:, self.ours_to_openspiel]

        return policy

    def _mover(self, state) -> int:
        if not isinstance(state, pyspiel.State):
            state = self.our_state_from_history(state)
        seat = state.current_player()
        if seat < 0:
            raise ValueError(f"the game is over after {state.history()}: pass the seats")
        return seat

    def our_state_from_history(self, history: Iterable[int]) -> pyspiel.State:
        """Our state after our `history`."""
        state = self.ours.new_initial_state()
        for a in history:
            state.apply_action(a)
        return state


def _checked_probs(key: str, probs: dict) -> dict[int, float]:
    out = {}
    for a, p in probs.items():
        try:
            p = float(p)
        except (TypeError, ValueError):
            raise ValueError(
                f"the policy at {key!r} gives action {a} a probability that is no number: {p!r}"
            ) from None
        if not math.isfinite(p) or p < 0:
            raise ValueError(
                f"probabilities must be finite and >= 0; the policy at {key!r} gives action {a} {p}"
            )
        out[a] = p
    return out


def _show(probs: dict[int, float]) -> str:
    return "{" + ", ".join(f"{a}: {p:.6g}" for a, p in sorted(probs.items()) if p) + "}"
