"""Rules of the Fog-of-War boards (docs/boards.md#rules), free of pyspiel.

One ply is one attempt; in recon hex a ply is a sense, then an attempt, by
the same seat. Attempting an empty cell places a stone (`placed`); attempting
an opponent stone places nothing and proves that stone to the mover
(`occupied`). After a collision the classical rule lets the mover move again;
the abrupt rule passes the turn. A placement is followed by the win check
(hex: own edges joined; tic-tac-toe: a line), then the board-full check
(tic-tac-toe), then the ply cap, where the game is scored by true distToWin.

A seat may never attempt its own stone nor an opponent stone it has proven
(by a collision or by sensing): those cells are not legal actions at all.

`Geometry` (the ruleset's core.contract.Setup) holds what never changes in
a game (cell names, neighbours, lines, sense blocks; a hex board may be a
rectangle, docs/boards.md#rectangular-boards); `Match` holds
everything that changes, in a few flat lists so that copying a state
(OpenSpiel clones constantly) stays cheap.
"""

from __future__ import annotations

import collections
from typing import NamedTuple

from fogboard_games.core import contract
from fogboard_games.core.contract import NO_ODDS, NO_OPTIONS, TERMINAL
from fogboard_games.core.notation import cell_name

# Cell codes on the true board and in a seat's view.
EMPTY, X_STONE, O_STONE = 0, 1, 2  # board: X_STONE = seat 0, O_STONE = seat 1
UNKNOWN, OWN, PROVEN = 0, 1, 2  # view: what a seat knows of a cell
PLACED, OCCUPIED = 0, 1  # attempt results
RESULT_NAMES = ("placed", "occupied")
UNREACHABLE = contract.NO_ROUTE  # distToWin when no connection / line is possible any more

ENDINGS = ("line", "connection", "board-full", "ply-cap", "wall-clock")


class Ply(NamedTuple):
    """One ply: `seat` attempted `cell` with `result` (PLACED / OCCUPIED),
    after sensing the block of anchor index `anchor` (-1: no sense) and
    seeing `seen` there (one view code per block cell: UNKNOWN for empty,
    OWN, PROVEN)."""

    seat: int
    anchor: int
    seen: tuple[int, ...]
    cell: int
    result: int


class Sense(NamedTuple):
    """A recon sense of the ply under way: the block of anchor index `anchor`
    showed `seen` (one view code per block cell: UNKNOWN for empty, OWN, PROVEN)."""

    anchor: int
    seen: tuple[int, ...]


class Geometry(contract.Setup):
    """The fixed facts of one board game: size, adjacency, lines, sense blocks.

    `numturns` says whether ply movers are public (obstype reveal-numturns);
    it shapes what seats know, not the rules.
    """

    max_chance_outcomes = 0
    min_utility, max_utility, utility_sum = -1.0, 1.0, 0.0

    def __init__(
        self,
        kind: str,
        size: int,
        abrupt: bool,
        sense: int,
        max_plies: int,
        numturns: bool = False,
        ranks: int = 0,
        imperfect_recall: bool = False,
    ):
        assert kind in ("ttt", "hex")
        ranks = ranks or size
        self.built_from = (kind, size, abrupt, sense, max_plies, numturns, ranks, imperfect_recall)
        self.num_players = 2  # an instance attribute: read at every tensor call
        self.numturns = numturns
        # docs/boards.md#imperfect-recall: a seat's information state is its
        # current view only (OpenSpiel's phantom_ttt_ir / dark_hex_ir).
        self.imperfect_recall = imperfect_recall
        self.perfect_recall = not imperfect_recall  # what the conformance suite reads
        self.kind = kind
        self.is_ttt = kind == "ttt"  # read at every attempt
        # `size` is the number of files (cells per rank), `ranks` the number
        # of ranks: equal but on a rectangular hex board (docs/boards.md#board-and-seats).
        self.size = self.files = size
        self.ranks = ranks
        self.square = ranks == size
        self.cells = size * ranks
        self.abrupt = abrupt
        self.sense = sense  # 0: no sense step
        self.max_plies = max_plies
        self.names = [cell_name(c, size) for c in range(self.cells)]
        self.unknown_marks = [1.0] * self.cells  # the board piece's "unknown" column
        n = size
        if kind == "hex":
            nbrs = []
            for c in range(self.cells):
                r, f = divmod(c, n)
                out = []
                for dr, df in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1)):
                    rr, ff = r + dr, f + df
                    if 0 <= rr < ranks and 0 <= ff < n:
                        out.append(rr * n + ff)
                nbrs.append(tuple(out))
            self.neighbors = tuple(nbrs)
            # Edge flags: bit 1 = the seat's first edge, bit 2 = its far edge.
            # Seat 0 joins file a to the last file, seat 1 rank 1 to the last.
            self.edges = (
                tuple((c % n == 0) | ((c % n == n - 1) << 1) for c in range(self.cells)),
                tuple((c // n == 0) | ((c // n == ranks - 1) << 1) for c in range(self.cells)),
            )
            self.lines = ()
            # Bit boards for distToWin: cell (rank r, file f) is bit r * (n + 1) + f.
            # The spare bit closing each rank keeps a shift from wrapping a
            # stone onto the next rank: the six neighbours of a set of cells
            # are then a few shifts (`dist_bits`).
            self.stride = n + 1
            self.bits = tuple(1 << (c // n * (n + 1) + c % n) for c in range(self.cells))
        else:
            rows = [[r * 3 + f for f in range(3)] for r in range(3)]
            cols = [[r * 3 + f for r in range(3)] for f in range(3)]
            self.lines = tuple(map(tuple, rows + cols + [[0, 4, 8], [2, 4, 6]]))
            # For each cell, the pairs of other cells completing a line with it.
            self.line_partners = tuple(
                tuple(tuple(x for x in ln if x != c) for ln in self.lines if c in ln)
                for c in range(self.cells)
            )
            self.bits = tuple(1 << c for c in range(self.cells))
            self.line_bits = tuple(sum(1 << c for c in ln) for ln in self.lines)
        # Per seat, (first edge, far edge) as bit masks (hex; unused in tic-tac-toe).
        self.edge_bits = (
            tuple(
                tuple(
                    sum(b for b, e in zip(self.bits, self.edges[seat]) if e & end) for end in (1, 2)
                )
                for seat in (0, 1)
            )
            if kind == "hex"
            else ((0, 0), (0, 0))
        )
        if sense:
            k = sense
            self.anchors = tuple(r * n + f for r in range(ranks - k + 1) for f in range(n - k + 1))
            self.blocks = tuple(
                tuple((a // n + dr) * n + (a % n + df) for dr in range(k) for df in range(k))
                for a in self.anchors
            )
        else:
            self.anchors = ()
            self.blocks = ()
        # A seat's attempts go to distinct cells (a tried cell is then its own
        # stone or proven), so no seat makes more than `cells` plies.
        # Action strings -> ids: cells, then `sense <anchor>`.
        self.action_ids = {name: c for c, name in enumerate(self.names)}
        for i, a in enumerate(self.anchors):
            self.action_ids["sense " + self.names[a]] = self.cells + i
        self.max_game_plies = min(2 * self.cells - 1, max_plies)
        self.max_own_plies = min(self.cells, max_plies)
        self.num_actions = self.cells + len(self.anchors)
        self.max_game_length = self.max_game_plies * (2 if sense else 1)  # a sense is a decision
        self.sense_actions = list(range(self.cells, self.num_actions))
        # Plies without a sense, made once: an attempt appends one of these.
        self.plain_plies = [
            [[Ply(seat, -1, (), c, r) for r in (PLACED, OCCUPIED)] for c in range(self.cells)]
            for seat in (0, 1)
        ]

    def new_match(self) -> Match:
        return Match(self)

    def action_name(self, player: int, action: int) -> str:
        if 0 <= action < self.cells:
            return self.names[action]
        if self.cells <= action < self.num_actions:
            return "sense " + self.names[self.anchors[action - self.cells]]
        raise ValueError(f"action {action!r} is out of range 0..{self.num_actions - 1}")


class Match(contract.Match):
    """The changing part of a board game: true board, views, logs, turn.

    Besides the contract's slots (setup: the Geometry; mover: the seat to
    move, TERMINAL at the end; options: the mover's legal actions; shared;
    cache: the encoder's per-match tensors), it keeps:
    """

    __slots__ = (
        "board",  # true board: EMPTY / X_STONE / O_STONE per cell
        "view",  # 2 * cells: seat p's knowledge of cell c at p * cells + c
        "legal",  # per seat: sorted cells it may attempt (derived from view,
        # kept because legal_actions is the hottest call of every search)
        "plies",  # every Ply in order
        "uf",  # hex union-find: parent per cell, then edge flags per cell
        "stones",  # stones on the board (tic-tac-toe board-full check)
        "sensed",  # recon: the mover's Sense this ply, else None
        "seen_empty_at",  # recon: 2 * cells, own ply index when last seen empty
        "ending",  # None while running, else one of ENDINGS
        "winner",  # 0, 1, or -1 for a draw
    )

    def __init__(self, geo: Geometry):
        cells = geo.cells
        self.setup = geo
        self.board = [EMPTY] * cells
        self.view = [UNKNOWN] * (2 * cells)
        self.legal = [list(range(cells)), list(range(cells))]
        self.plies = []
        self.uf = list(range(cells)) + [0] * cells if geo.kind == "hex" else None
        self.stones = 0
        self.mover = 0
        self.sensed = None
        self.seen_empty_at = [-1] * (2 * cells) if geo.sense else None
        self.ending = None
        self.winner = -1
        self.shared = False
        self.cache = None
        self.options = geo.sense_actions if geo.sense else self.legal[0]
        self.odds = NO_ODDS  # no chance in these games

    def copy(self) -> Match:
        m = Match.__new__(Match)
        m.setup = self.setup
        m.board = self.board[:]
        m.view = self.view[:]
        legal = self.legal
        m.legal = [legal[0][:], legal[1][:]]
        # The options follow the mover's legal list (or are a fixed list).
        options = self.options
        m.options = (
            m.legal[0] if options is legal[0] else m.legal[1] if options is legal[1] else options
        )
        m.plies = self.plies[:]  # entries are tuples, shared safely
        m.uf = self.uf[:] if self.uf is not None else None
        m.stones = self.stones
        m.mover = self.mover
        m.sensed = self.sensed
        m.seen_empty_at = self.seen_empty_at[:] if self.seen_empty_at is not None else None
        m.ending = self.ending
        m.winner = self.winner
        m.odds = NO_ODDS
        m.shared = False
        m.cache = None
        return m

    # ---- what a seat may do -------------------------------------------------

    @property
    def sensing(self) -> bool:
        """True when the mover's next decision is its sense (recon hex)."""
        return bool(self.setup.sense) and self.sensed is None and self.ending is None

    def why_illegal(self, action) -> str:
        return "it is the sense step" if self.sensing else "not a legal attempt for this seat"

    def is_legal(self, action: int) -> bool:
        # (an int: the glue checks an action's type before play sees it)
        geo = self.setup
        if self.ending is not None:
            return False
        if geo.sense and self.sensed is None:  # the sense step (not self.sensing: hot path)
            return geo.cells <= action < geo.num_actions
        return 0 <= action < geo.cells and self.view[self.mover * geo.cells + action] == UNKNOWN

    # ---- the moves ------------------------------------------------------------

    def play(self, action: int) -> bool:
        """Apply a legal action (attempt or sense); False, changing nothing, if illegal."""
        geo = self.setup
        # is_legal, inlined for an attempt outside the sense step: the hottest move.
        if (
            0 <= action < geo.cells
            and self.ending is None
            and not (geo.sense and self.sensed is None)
            and self.view[self.mover * geo.cells + action] == UNKNOWN
        ):
            self.attempt(action)
            return True
        if not self.is_legal(action):
            return False
        self.sense(action - geo.cells)  # the only other legal action
        return True

    def sense(self, anchor_index: int) -> None:
        """Recon sense: the block at the anchor is shown truthfully to the mover."""
        geo = self.setup
        seat = self.mover
        base = seat * geo.cells
        opp_code = O_STONE if seat == 0 else X_STONE
        own_ply = sum(1 for p in self.plies if p.seat == seat)
        seen = []
        board, view, legal = self.board, self.view, self.legal[seat]
        for c in geo.blocks[anchor_index]:
            v = board[c]
            if v == EMPTY:
                seen.append(UNKNOWN)  # empty now; may not stay so
                # Emptiness perishes: stamp it with the seat's own ply count,
                # never a global count that would reveal the opponent's plies.
                self.seen_empty_at[base + c] = own_ply
            elif v == opp_code:
                seen.append(PROVEN)
                self.seen_empty_at[base + c] = -1  # known occupied from now on
                if view[base + c] == UNKNOWN:
                    view[base + c] = PROVEN
                    legal.remove(c)
            else:
                seen.append(OWN)
        self.sensed = Sense(anchor_index, tuple(seen))
        self.options = legal

    def attempt(self, cell: int) -> int:
        """One attempt by the mover; returns PLACED or OCCUPIED."""
        geo = self.setup
        seat = self.mover
        board = self.board
        at = seat * geo.cells + cell  # the cell in the mover's view
        self.legal[seat].remove(cell)
        sensed = self.sensed
        if sensed is None:
            anchor, seen = -1, ()
        else:
            anchor, seen = sensed
            self.sensed = None
        if geo.sense:
            self.seen_empty_at[at] = -1  # known from now on, never "seen empty"
        if board[cell] == EMPTY:
            result = PLACED
            code = seat + 1
            board[cell] = code
            self.view[at] = OWN
            self.stones += 1
            if geo.is_ttt:  # a line through the cell (inline: the hottest game)
                for a, b in geo.line_partners[cell]:
                    if board[a] == code and board[b] == code:
                        self.ending = "line"
                        self.winner = seat
                        break
            elif self._joins_edges(cell, code):
                self.ending = "connection"
                self.winner = seat
            self.mover = 1 - seat
        else:
            result = OCCUPIED
            self.view[at] = PROVEN
            if geo.abrupt:
                self.mover = 1 - seat
        plies = self.plies
        if anchor < 0:
            plies.append(geo.plain_plies[seat][cell][result])
        else:
            plies.append(Ply(seat, anchor, seen, cell, result))
        if self.ending is None:
            if geo.is_ttt and self.stones == geo.cells:
                self.ending = "board-full"
                self.winner = -1
            elif len(plies) >= geo.max_plies:
                self.settle_by_distance("ply-cap")
        if self.ending is not None:
            self.mover = TERMINAL
            self.options = NO_OPTIONS
        else:
            self.options = geo.sense_actions if geo.sense else self.legal[self.mover]
        return result

    def settle_by_distance(self, ending: str) -> None:
        """End a game with no winner on the board: smaller true distToWin wins.

        Used at the ply cap, and by engine logs for a recorded `wall-clock` stop.
        """
        d0, d1 = true_dist(self, 0), true_dist(self, 1)
        self.ending = ending
        self.winner = 0 if d0 < d1 else 1 if d1 < d0 else -1
        self.mover = TERMINAL
        self.options = NO_OPTIONS

    def _joins_edges(self, cell: int, code: int) -> bool:
        """Hex: does the stone just placed join its seat's two edges?"""
        board = self.board
        geo = self.setup
        # Union-find over own stones; the new stone becomes the root of every
        # group it touches and collects their edge flags.
        uf = self.uf
        cells = geo.cells
        flags = geo.edges[code - 1][cell]
        for nb in geo.neighbors[cell]:
            if board[nb] == code:
                r = nb
                while uf[r] != r:
                    uf[r] = uf[uf[r]]
                    r = uf[r]
                if r != cell:
                    uf[r] = cell
                    flags |= uf[cells + r]
        uf[cells + cell] = flags
        return flags == 3

    # ---- outcome ------------------------------------------------------------

    def returns(self) -> list[float]:
        if self.ending is None or self.winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]


def dist_to_win(geo: Geometry, cells: list[int], seat: int, own: int, opp: int) -> int:
    """Least number of additional cells `seat` needs to win on `cells`.

    `own` and `opp` are the codes of the seat's and the opponent's cells in
    `cells` (a true board or a seat's view). Hex: the cheapest route from the
    seat's first edge to its far edge, own cells costing 0, others 1,
    opponent cells impassable. Tic-tac-toe: min over lines with no opponent
    mark of (3 - own marks). UNREACHABLE (99) when impossible.
    """
    mine = free = 0
    for b, v in zip(geo.bits, cells):
        if v == own:
            mine |= b
        elif v != opp:
            free |= b
    return dist_bits(geo, seat, mine, free)


def dist_bits(geo: Geometry, seat: int, own: int, free: int) -> int:
    """dist_to_win from bit masks (`geo.bits`): the seat's cells `own`, the
    cells still open to it `free`; every other cell is the opponent's.

    Hex: the set of cells the seat reaches at cost d, grown for d = 0, 1,
    ...: own cells next to it join at no cost; only when none is left does d
    grow, and the free cells next to it join. The neighbours of the cell of
    bit i are bits i +- 1, i +- w and i +- (w - 1), w = n + 1
    (`Geometry.stride`): with y = set | set << 1, they are y << (w - 1),
    y >> w, set << 1 and set >> 1.
    """
    if geo.is_ttt:
        best = UNREACHABLE
        blocked = ~(own | free)
        for line in geo.line_bits:
            if not line & blocked:
                best = min(best, 3 - (line & own).bit_count())
        return best
    w = geo.stride
    v = w - 1
    first, far = geo.edge_bits[seat]
    reach = 0
    d = 0
    while True:
        y = reach | reach << 1
        touch = y << v | y >> w | y | reach >> 1 | first
        joined = touch & own
        if joined:
            reach |= joined
            own ^= joined
            continue
        if reach & far:
            return d
        step = touch & free
        if not step:
            return UNREACHABLE
        reach |= step
        free ^= step
        d += 1


def seat_totals(m: Match, seat: int) -> dict:
    """A seat's totals (the review's and the engine log's): its stones on the
    board, its collisions (probes), the opponent stones it proved, and its
    true distToWin."""
    cells = m.setup.cells
    return {
        "stones": m.board.count(seat + 1),
        "probes": sum(1 for p in m.plies if p.seat == seat and p.result == OCCUPIED),
        "discovered": m.view[seat * cells : (seat + 1) * cells].count(PROVEN),
        "distToWin": true_dist(m, seat),
    }


def true_dist(m: Match, seat: int) -> int:
    """distToWin of `seat` on the true board."""
    own, opp = (X_STONE, O_STONE) if seat == 0 else (O_STONE, X_STONE)
    return dist_to_win(m.setup, m.board, seat, own, opp)


def believed_dist(m: Match, seat: int) -> int:
    """distToWin of `seat` on its believed board (own + proven stones).

    (The strings show it; the encoder finds it from the bit masks of the
    seat's view it keeps, observer.SeatText, with rules.dist_bits.)
    """
    geo = m.setup
    view = m.view[seat * geo.cells : (seat + 1) * geo.cells]
    return dist_to_win(geo, view, seat, OWN, PROVEN)


BLOCKED = None  # route cost of a cell a route may not use


def bfs01(geo: Geometry, cost: list, sources: list[int]) -> list[int]:
    """Least route cost (0-1 BFS) to every hex cell from `sources`, counting
    each cell's own cost (0 or 1; BLOCKED cells are never entered)."""
    dist = [UNREACHABLE] * geo.cells
    dq = collections.deque()
    for c in sources:
        if cost[c] is not BLOCKED and cost[c] < dist[c]:
            dist[c] = cost[c]
            if cost[c] == 0:
                dq.appendleft(c)
            else:
                dq.append(c)
    while dq:
        c = dq.popleft()
        for nb in geo.neighbors[c]:
            w = cost[nb]
            if w is BLOCKED:
                continue
            d = dist[c] + w
            if d < dist[nb]:
                dist[nb] = d
                if w == 0:
                    dq.appendleft(nb)
                else:
                    dq.append(nb)
    return dist
