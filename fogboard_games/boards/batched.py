"""Batched Fog-of-War boards: phantom tic-tac-toe, dark hex, recon hex (docs/batch.md).

The rules of fogboard_games/boards/rules.py (docs/boards.md#rules), applied
to every row at once on per-seat uint64 bitboards kept mover-relative (two
words a board above 64 cells), with hex wins read from lookup tables (with a
side above 8 from per-row union-finds) and tensors written only
once first read;
docs/batch.md#how-the-boards-are-kept says how and why.
"""

from __future__ import annotations

import functools

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import Store
from fogboard_games.boards import rules
from fogboard_games.core.observer import INFO_STATE, Layout

MAX_SIZE = 11  # cells fit two uint64 words
ONE_WORD = 8  # up to this size a bitboard is one uint64 (above: two, `wide`)
UNKNOWN, OWN, PROVEN = rules.UNKNOWN, rules.OWN, rules.PROVEN
# A row's outcome at a ply, as `ending | seat`: 0 playing on, DRAWN, or WON by
# seat; RETURNS and OUTCOME_AT (the tensors' outcome entry) by that index.
DRAWN, WON = 2, 4
RETURNS = np.array([[0, 0], [0, 0], [0, 0], [0, 0], [1, -1], [-1, 1]], np.float32)
OUTCOME_AT = np.array([0, 0, 1, 1, 0, 2])  # seat 0 won / draw / seat 1 won
BYTE_BITS = (1 << np.arange(8, dtype=np.uint8))[:, None]  # bit i of a byte, per row
ROOT = 128  # a union-find node at or above: a root (see Boards._uf_tables)
TABLE_LIMIT = 1 << 18  # entries per hex lookup table (int32: 1 MB; most are far smaller)


def _root(parent: dict, x: int) -> int:
    while parent.get(x, x) != x:
        x = parent[x]
    return x


@functools.cache
def frontier_table(n: int) -> np.ndarray:
    """Hex connection states of an n-wide board read rank by rank: (S, 2^n) int64,
    next state = table[state, stones of the next rank as n bits].

    A state is the last rank read: per cell 0 (no stone), 1 (a stone joined to
    the first edge, through the ranks read) or 2, 3, ... (stones joined to one
    another but not to the first edge: the label says which, numbered in order
    of first appearance). State 0 is the start (a virtual rank of first-edge
    stones above rank 0); state 1 is every state with no 1 left, which can no
    longer join the edges. Cell f of the next rank touches cells f - 1 and f + 1
    of its own rank and cells f and f + 1 of the rank above (hex). After the
    last rank, a state other than 1 is a win. Built by search from the start
    (70 states on 5 x 5; about 1.5 s for the 1423 of 8 x 8, once per size).
    """
    runs = []  # per stones pattern: its runs (first, last) of adjacent stones
    for bits in range(1 << n):
        pattern, f = [], 0
        while f < n:
            if bits >> f & 1:
                a = f
                while f + 1 < n and bits >> (f + 1) & 1:
                    f += 1
                pattern.append((a, f, range(a, min(f + 1, n - 1) + 1)))  # + cells above
            f += 1
        runs.append(pattern)
    start = (1,) * n
    ids = {start: 0, None: 1}
    order = [start, None]
    table = []
    i = 0
    while i < len(order):
        state = order[i]
        i += 1
        if state is None:
            table.append([1] * (1 << n))
            continue
        row = []
        for pattern in runs:
            parent = {}  # union-find over the labels above (1 stays a root)
            find = functools.partial(_root, parent)
            heads = []  # per run: the label it joins (None: a new group)
            for _, _, above in pattern:
                head = None
                for u in above:
                    label = state[u]
                    if label:
                        root = find(label)
                        if head is None:
                            head = root
                        elif root != head:
                            if root == 1:
                                parent[head], head = 1, 1
                            else:
                                parent[root] = head
                heads.append(head)
            out, names, alive = [0] * n, {}, False
            for (a, b, _), head in zip(pattern, heads):
                key = ("new", a) if head is None else find(head)
                label = 1 if key == 1 else names.setdefault(key, len(names) + 2)
                alive |= label == 1
                out[a : b + 1] = [label] * (b + 1 - a)
            nxt = tuple(out) if alive else None
            if nxt not in ids:
                ids[nxt] = len(order)
                order.append(nxt)
            row.append(ids[nxt])
        table.append(row)
    return np.array(table, np.int64)


def words(bits: int) -> list[int]:
    """A bitboard of up to 128 cells as its two uint64 words, low word first."""
    return [bits & (1 << 64) - 1, bits >> 64]


def held(board: np.ndarray) -> np.ndarray:
    """(B,) bool: the two-word bitboards (B, 2) holding some cell."""
    return (board[:, 0] | board[:, 1]) != 0


def lanes(flags: np.ndarray) -> np.ndarray:
    """uint64 all ones where `flags`, else 0: to mask bitboards with an AND (numpy
    multiplies uint64 by bool many times slower)."""
    out = flags.astype(np.uint64)
    return np.negative(out, out=out)


class Boards(Env):
    """A batch of one board game (fogboard_phantom_ttt, _dark_hex or _recon_hex)."""

    TABLES = (
        "bits", "goal_bits", "blank", "obs_blank", "ply_entries", "obs_entries", "ending",
        "lookups", "blocks", "block_bits", "seat_at", "uf_neighbors", "uf_edges",
    )  # fmt: skip

    def _configure(self, game) -> None:
        geo = self.geo = game.setup
        assert max(geo.files, geo.ranks) <= MAX_SIZE
        self.cells = n2 = geo.cells
        self.num_players = 2
        self.num_actions = geo.num_actions
        # Under imperfect recall (docs/boards.md#imperfect-recall) the information
        # state is the believed board alone: the observation's board piece, so it
        # is served from the observation store (`_seat_tensor`) and no store of
        # the perfect-recall log is kept. Its layout still names the ply entries'
        # places (`info_size`), which that store never uses.
        self.forgets = geo.imperfect_recall
        layout = game.info_layout
        if self.forgets:  # (the encoder's pieces of a key, before its recall_key)
            layout = Layout(game.encoder.pieces(INFO_STATE), INFO_STATE)
        self.info_size = layout.size
        self.pieces_layout = layout  # (the information state's pieces: _build places them)
        self.tensor_size = game.info_layout.size
        self.max_history = geo.max_game_length
        self.sense = geo.sense
        self.abrupt = abrupt = geo.abrupt
        self.is_hex = geo.kind == "hex"
        # Above 64 cells (8 x 8) a bitboard is two uint64 words, (..., 2). Hex wins
        # are read from goal-order tables of the longer side n (a rectangle,
        # docs/boards.md#rectangular-boards, sits in the n x n square: see
        # _hex_tables); with a side above 8 the tables no longer pay, and wins are
        # read from per-row union-finds instead (see _uf_join).
        self.wide = n2 > ONE_WORD * ONE_WORD
        self.unions = self.is_hex and max(geo.files, geo.ranks) > ONE_WORD
        # Abrupt without a sense: every ply passes the turn in every row.
        self.always_passes = abrupt and not self.sense
        # The cap binds only below 2 x cells - 1 plies (docs/boards.md#length).
        self.cap = geo.max_plies if geo.max_plies < 2 * n2 - 1 else None

    def _build(self) -> None:
        game = self.game
        geo, n2, A, D, wide = self.geo, self.cells, self.num_actions, self.info_size, self.wide
        layout = self.pieces_layout
        B = self.batch_size
        W = (2,) if wide else ()  # the words of a bitboard
        self.full = np.array(words((1 << n2) - 1), np.uint64) if wide else np.uint64((1 << n2) - 1)
        # bits[a + 1]: the bit of attempt a; 0 for the sense actions and, at both
        # ends, for any action out of range (a take with mode="clip" lands there).
        self.bits = np.zeros((A + 2, *W), np.uint64)
        self.bits[1 : n2 + 1] = [words(1 << c) if wide else 1 << c for c in range(n2)]

        # The game, per row. Per-seat bitboards, stacked as [mine/theirs, field, row]
        # so a swap of seats is a few operations: see _seat_views.
        self.fields = ["stones", "known"]
        if self.is_hex and not self.unions:
            self.fields.append("goal")  # the stones in goal order (see the module doc)
        K = len(self.fields)
        self.seats = np.zeros((2, K, B, *W), np.uint64)
        self.ply_keys = np.zeros((2, B), np.int64)  # tensors: 2 * cells * own plies made
        self._views = [None, None]
        self._seat_views(0)
        self._swap = np.empty((K, B, *W), np.uint64)  # scratch of the seat swap
        self.seat_at = (np.arange(2 * K) * B)[:, None]  # flat offset of each seat field
        self.mover = np.zeros(B, np.int64)  # 0 or 1 (the last mover in finished rows)
        self._free = np.zeros((B, *W), np.uint64)  # the mover's legal attempts, as of the snapshot
        self._rebuilding = None  # the replay's history column (see _build_tensors)

        if geo.kind == "ttt":
            # ending[their stones << 9 | my stones], after my placement: WON if I
            # hold a line, DRAWN if the board is full, else 0.
            holds = np.array([any(b & m == m for m in geo.line_bits) for b in range(512)])
            boards = np.arange(1 << 18)
            full = (boards >> 9 | boards) & 511 == 511
            ending = np.where(holds[boards & 511], WON, np.where(full, DRAWN, 0))
            self.ending = ending.astype(np.int8)  # (small: a table that stays in cache)
        elif self.unions:
            self._uf_tables(geo)
        else:
            self._hex_tables(geo)
        if self.sense:
            self.blocks = np.array(geo.blocks, np.int64)  # (anchors, K) cells
            self.anchors = np.uint64(len(geo.anchors))
            self.block_bits = np.array(
                [[words(1 << c) if wide else 1 << c for c in block] for block in geo.blocks],
                np.uint64,
            )  # (anchors, K) bits, (anchors, K, 2) words when wide
            self.sensing = np.ones(B, bool)  # the mover's next decision is its sense

        # Tensors: both seats' of each form asked for, made at the first read, then
        # kept current, in Stores of two slots of B rows: slot s, row b at s * B + b.
        # Slot s holds seat s's, but when every ply passes the turn (always_passes)
        # slot _mine holds the mover's, like the bitboards, so the movers' tensors
        # are one block. Row 2B (scratch) takes the writes of rows sitting a ply out.
        self.tracking = False  # some store is kept
        self.info = self.obs = None  # the information-state and observation Stores
        self.row_of = (np.arange(2 * B + 1) % B).astype(np.int32)  # a store row's row of the batch
        self.blank = np.zeros(D, np.uint8)  # either seat's tensor at the start
        off = layout.offset
        self.o_board = off["board"]
        self.blank[self.o_board : self.o_board + 3 * n2 : 3] = 1  # every cell unknown
        # The observation: the believed board and the outcome from the same writes.
        obs_off = game.obs_layout.offset
        self.obs_board = obs_off["board"]
        self.obs_size = game.obs_layout.size
        self.obs_blank = np.zeros(self.obs_size, np.uint8)
        self.obs_blank[obs_off["board"] : obs_off["board"] + 3 * n2 : 3] = 1
        self.obs_outcome = obs_off["outcome"]
        # Imperfect recall's information state: the observation's board columns.
        self.forgot = slice(self.obs_board, self.obs_board + 3 * n2)
        # Under reveal-numturns the one-hot ply count (public); in recon hex the
        # ages of cells seen empty and the anchor sensed this ply (private,
        # adjacent: kept in place in the store, handed on as a block of columns).
        self.obs_count = obs_off.get("ply_count")
        if self.obs_count is not None:
            self.obs_blank[self.obs_count] = 1  # no ply yet
        self.obs_age = obs_off.get("seen_empty_age")
        if self.obs_age is not None:
            self.obs_now = obs_off["sensed_now"]
            self.obs_recent = (self.obs_age, self.obs_now + len(geo.anchors))  # (columns)
        self.count_values = np.tile(np.array([0, 1], np.uint8), (B, 1))
        self.o_movers = off.get("ply_movers")
        self.o_outcome = off["outcome"]
        if self.sense:
            self.o_senses = off["senses"]
            self.o_sensed = off["sensed"]
        self.row_at = self.rows * D  # flat index of row b's tensor of seat 0
        self.scratch = 2 * B * D
        # An attempt's four entries, by key 2 * (cells * j + cell) + placed (the
        # seat's j-th attempt): the cell leaves "unknown" and becomes own stone
        # (placed) or proven (occupied); the attempt; its result.
        L = geo.max_own_plies
        j, cell, placed = np.meshgrid(np.arange(L), np.arange(n2), (0, 1), indexing="ij")
        square = self.o_board + 3 * cell
        self.ply_entries = np.stack(
            [
                square,
                square + 2 - placed,
                off["attempts"] + j * n2 + cell,
                off["results"] + 2 * j + 1 - placed,
            ],
            axis=-1,
        ).reshape(-1, 4)
        # The observation's two of them (the board), by key 2 * cell + placed.
        self.obs_entries = (self.ply_entries[: 2 * n2, :2] - self.o_board + obs_off["board"]).copy()
        # (a full array, not a broadcast (4,): numpy's scatter is much faster so)
        self.ply_values = np.tile(np.array([0, 1, 1, 1], np.uint8), (B, 1))
        self.obs_values = np.ascontiguousarray(self.ply_values[:, :2])
        self.start_block = (n2, A) if self.sense else (0, n2)  # the senses, or attempts

    def _seat_views(self, mine: int) -> None:
        """Name the fields of seats[mine] my_*, of the other their_* (views)."""
        views = self._views[mine]
        if views is None:
            views = self._views[mine] = {"_mine": mine}
            for i, field in enumerate(self.fields):
                views["my_" + field] = self.seats[mine, i]
                views["their_" + field] = self.seats[1 - mine, i]
            views["my_ply_key"], views["their_ply_key"] = (
                self.ply_keys[mine],
                self.ply_keys[1 - mine],
            )
        self.__dict__.update(views)

    def _hex_tables(self, geo) -> None:
        files, ranks, n2 = geo.files, geo.ranks, geo.cells
        n = max(files, ranks)  # the tables' square
        # goal_bits[2 * (cell + 1) + seat]: the cell's bit in the seat's goal order,
        # with the seat's padding (entries 0 and 1: the padding alone). A seat's goal
        # order reads its ranks from its first edge (seat 1: the ranks, seat 0: the
        # files read as ranks), each n cells wide. On a rectangle its ranks past its
        # far edge are padding, full of its stones: they touch only its far rank
        # and one another, so they join the first edge exactly when the far rank
        # does, and a square's tables read the rectangle's wins (its files past the
        # rectangle's stay empty, joining nothing).
        pads = [
            sum(((1 << n) - 1) << (n * r) for r in range(length, n)) for length in (files, ranks)
        ]
        self.goal_bits = np.zeros(2 * n2 + 2, np.uint64)
        self.goal_bits[:2] = pads
        for c in range(n2):
            r, f = divmod(c, files)
            self.goal_bits[2 * c + 2] = 1 << (f * n + r) | pads[0]  # seat 0 joins files
            self.goal_bits[2 * c + 3] = 1 << (r * n + f) | pads[1]  # seat 1 joins ranks
        # The ranks in lookups of a few ranks each (as many as fit TABLE_LIMIT; the
        # first lookup starts from the one start state, so it can read more).
        step = frontier_table(n)
        S = len(step)
        widths = [max(r for r in range(1, n + 1) if 1 << (n * r) <= TABLE_LIMIT)]
        wide = max(r for r in range(1, n + 1) if S << (n * r) <= TABLE_LIMIT or r == 1)
        while sum(widths) < n:
            widths.append(min(wide, n - sum(widths)))
        # lookups: (table, shift, mask) in order. Table of lookup i, at index
        # state << (n * width) | the ranks' stones, holds the next state shifted
        # to take the next lookup's stones below it; the last table holds the win.
        self.lookups = []
        at = 0
        for i, w in enumerate(widths):
            bits = np.arange(1 << (n * w))
            states = np.zeros(1, np.int64) if i == 0 else np.arange(S)
            t = np.repeat(states, len(bits))
            pattern = np.tile(bits, len(states))
            for k in range(w):
                t = step[t, (pattern >> (n * k)) & ((1 << n) - 1)]
            if i + 1 < len(widths):
                table = (t << (n * widths[i + 1])).astype(np.int32)  # (half the cache)
            else:
                table = np.where(t != 1, WON, 0).astype(np.int8)  # joined: not state 1
            mask = None if at + n * w == n * n else np.uint64((1 << (n * w)) - 1)
            self.lookups.append((table, np.uint64(at), mask))
            at += n * w

    def _joined(self, goal: np.ndarray) -> np.ndarray:
        """(B,) int8: WON where the goal-order boards join their two edges, else 0."""
        state = None
        for table, shift, mask in self.lookups:
            bits = goal >> shift if shift else goal
            if mask is not None:
                bits = bits & mask
            bits = bits.view(np.int64)
            if state is not None:
                bits |= state  # (int32 into int64, in place)
            state = table.take(bits)
        return state

    def _uf_tables(self, geo) -> None:
        """The union-finds of hex boards with a side above 8: per seat and row, a
        uint8 node per cell + 2 (NONE: no stone; DUMP: where rows placing nothing
        write). A stone's node is its parent cell (below ROOT) or, at a root,
        ROOT | rank << 2 | its group's edge flags (bit 0: first edge, bit 1: far
        edge; union by rank keeps the trees under log2(cells) deep). One byte a
        cell: the union-finds of a row are 2 x 123 bytes on 11 x 11, a few cache
        lines, which is what a step's scattered reads cost."""
        n2 = geo.cells
        NONE = self.NONE = n2
        self.DUMP = n2 + 1
        assert self.DUMP < ROOT
        C = self.uf_cells = n2 + 2
        # uf_neighbors[cell]: its up to six neighbours (NONE past them), a row a cell:
        # a step takes (B, 6) rows of it, much faster than (6, B) columns.
        self.uf_neighbors = np.full((C, 6), NONE, np.int64)
        for c, nbs in enumerate(geo.neighbors):
            self.uf_neighbors[c, : len(nbs)] = nbs
        self.uf_edges = np.zeros(2 * C, np.uint8)  # [seat * C + cell]: its edge flags
        for seat in (0, 1):
            self.uf_edges[seat * C : seat * C + n2] = geo.edges[seat]
        B = self.batch_size
        self.uf_rows = self.rows * C  # each row's union-find of seat 0
        # Per (row, slot), flat: the row, and the place in a (6, B) array (slot-major,
        # where reductions over the six slots are a few whole-row operations).
        self.uf_slot_row = np.repeat(self.rows.astype(np.int32), 6)
        self.uf_slot_major = (np.arange(6) * B + self.rows[:, None]).reshape(-1).astype(np.int32)
        self.uf_nodes = np.full((2, B, C), NONE, np.uint8)  # [seat, row, cell]
        # Scratch of _uf_join, never handed out: its (B, 6) int64 temporaries are
        # 192 KB at batch 4096, past the size where malloc maps fresh pages for an
        # array (docs/batch.md#speed), so a step would fault them in anew.
        self._uf_nb = np.empty((B, 6), np.int64)
        self._uf_at = np.empty((B, 6), np.int64)

    def _uf_clear(self, rows: np.ndarray) -> None:
        self.uf_nodes[:, rows] = self.NONE

    def _uf_join(self, acts: np.ndarray, placed_one: np.ndarray) -> np.ndarray:
        """(B,) int8: WON where the mover's new stone joins its two edges, else 0;
        the stone joins the mover's union-find (rows placing none write DUMP).
        The new group's flags are the stone's edges and those of the groups
        of its up to six neighbours, each found by walking to its root. The
        walks go on the neighbours that are the mover's stones only (about
        one slot in eight in random play), picked out once."""
        B, C, NONE = self.batch_size, self.uf_cells, self.NONE
        nodes = self.uf_nodes.reshape(-1)
        cell = np.where(placed_one, acts, self.DUMP)
        base = self.mover * (B * C)
        base += self.uf_rows  # each row's mover's union-find
        # (indices all in range: mode="clip" only skips numpy's bounds check)
        nb = self.uf_neighbors.take(cell, axis=0, out=self._uf_nb, mode="clip")  # (B, 6) cells
        node = nodes.take(np.add(nb, base[:, None], out=self._uf_at), mode="clip")
        slots = np.flatnonzero(node != NONE)  # the mover's stones, (row, slot) flat
        row = self.uf_slot_row.take(slots)
        at = base.take(row)  # the slot's row's union-find
        root = nb.reshape(-1).take(slots)
        node = node.reshape(-1).take(slots)
        while True:  # (trees stay shallow: union by rank; the new stone sits at a root)
            up = node < ROOT
            if not np.count_nonzero(up):
                break
            root = np.where(up, node, root)
            node = nodes.take(root + at, mode="clip")
        # Per slot, its root's node and cell, to compare: ROOT | rank << 2 | flags in
        # the high byte, the cell in the low one; 0 where the slot holds no stone.
        keys = np.zeros(6 * B, np.uint16)
        key = node.astype(np.uint16)
        key <<= 8
        key |= root.astype(np.uint16)
        keys[self.uf_slot_major.take(slots)] = key
        keys = keys.reshape(6, B)
        joined = keys[0] | keys[1]
        for slot in keys[2:]:
            joined |= slot
        joined >>= 8
        joined &= 3
        joined |= self.uf_edges.take(self.mover * C + cell)
        # Union by rank: the deepest tree's root takes the others (the max key over
        # the six slots).
        best = keys.max(axis=0)
        top, deepest = best & 255, (best >> 10) & 31
        slot_top = top.take(row)
        tie = np.zeros(B, bool)  # another root as deep: the rank grows
        tie[row[((node >> 2) & 31 == deepest.take(row)) & (root != slot_top)]] = True
        # Every slot's root under the top (the top too: rewritten whole below).
        nodes[root + at] = slot_top
        top = np.where(best == 0, cell, top)  # no neighbour of its own: a new group
        nodes[cell + base] = top
        rank = np.maximum(deepest, 1)
        rank += tie
        nodes[top + base] = ROOT | rank << 2 | joined
        won = joined == 3
        return won.view(np.int8) << 2  # WON

    # ---- restart ------------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        if self.wide:
            self.seats[:, :, rows] = 0
        else:
            self.seats.reshape(-1)[self.seat_at + rows] = 0
        if self.unions:
            self._uf_clear(rows)
        self.mover[rows] = 0
        self._free[rows] = 0 if self.sense else self.full
        if self.sense:
            self.sensing[rows] = True
        if self.tracking:
            self.ply_keys[:, rows] = 0
            B = self.batch_size
            for store, blank in ((self.info, self.blank), (self.obs, self.obs_blank)):
                if store is not None:  # (both slots' rows in one call)
                    store.array[: 2 * B].reshape(2, B, -1)[:, rows] = blank
                    store.restart(rows)

    # ---- what the mover may do ------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array: per action, every row
        (so a reduction over the actions runs across rows, the fast way)."""
        B, n2 = self.batch_size, self.cells
        if self.wide:  # the cells the mover does not know: the low word is all cells
            free = np.invert(self.my_known)  # (a (B, 2) ^ (2,) broadcast ran 4x slower)
            free[:, 1] &= self.full[1]
        else:
            free = self.full ^ self.my_known
        if self.sense:
            free[self.sensing] = 0
        if self._finished:
            if self.wide:  # (few rows: faster than a (B, 2) mask)
                free[self.terminated.nonzero()[0]] = 0
            else:
                np.putmask(free, self.terminated, 0)
        self._free = free  # the next step's legal attempts
        # Byte i of every row, then its 8 bits against 8 masks: action-major rows
        # in two vectorized calls (unpackbits along that axis is much slower),
        # both in the mask's own memory.
        nbytes = -(-n2 // 8)
        by = np.ascontiguousarray(free.view(np.uint8).reshape(B, -1)[:, :nbytes].T)
        mask = np.empty((max(self.num_actions, 8 * nbytes), B), bool)
        bit_rows = mask[: 8 * nbytes].reshape(nbytes, 8, B)
        np.bitwise_and(by[:, None, :], BYTE_BITS, out=bit_rows.view(np.uint8))
        np.not_equal(bit_rows.view(np.uint8), 0, out=bit_rows)  # (to 0 / 1)
        if self.sense:
            mask[n2 : self.num_actions] = self.sensing & ~self.terminated
        return mask[: self.num_actions].T

    # ---- the moves --------------------------------------------------------------

    def _play(self, acts: np.ndarray, active, trusted: bool = False):
        """Every running row's action: checked, then played (see Env). `trusted`
        (the replay of histories) skips the check."""
        n2 = self.cells
        after = acts + 1  # (index 0 of the tables below: nothing)
        wide = self.wide
        bit = self.bits.take(after, axis=0, mode="clip")  # 0: a sense or out of range
        if trusted:
            if active is not None:
                placed = bit & (lanes(active)[:, None] if wide else lanes(active))
            else:
                placed = bit
        else:
            placed = self._free & bit  # the attempt, if legal: 0 in finished rows
            if self.sense or active is not None or wide:
                ok = held(placed) if wide else placed != 0
                if self.sense:
                    ok |= self.sensing & ((acts - n2).view(np.uint64) < self.anchors)
                if active is not None:
                    ok |= ~active
                if np.count_nonzero(ok) < len(ok):  # (faster than ok.all())
                    self._refuse(active, acts, ok)
            elif np.count_nonzero(placed) < len(placed):
                self._refuse(active, acts, placed != 0)
            if self._sitting:  # (_free is 0 in finished rows only: mask the rows sitting out)
                placed &= lanes(active)[:, None] if wide else lanes(active)
        # Rows attempting: all (None), else a mask (senses and finished rows sit out,
        # with placed = 0: the bitboard updates below leave them unchanged).
        attempting = active
        if self.sense:
            sensing = self.sensing if active is None else self.sensing & active
            rows = np.flatnonzero(sensing)
            if len(rows):
                self._sense(rows, acts[rows] - n2)
            attempting = ~self.sensing if active is None else active & ~self.sensing
        occupied = self.their_stones & placed
        stone = placed ^ occupied  # the new stone's bit, or 0
        self.my_stones |= stone
        self.my_known |= placed
        placed_one = held(stone) if wide else stone != 0
        # The plies made before this one, where the cap or the tensors read them.
        plies = None
        if (
            self.cap is not None
            or self.tracking
            and (self.o_movers is not None or self.obs is not None and self.obs_count is not None)
        ):
            plies = self._plies_made()
        if self.tracking:
            self._write_attempts(acts, placed_one, attempting, plies)
        # The ending, after a placement (a collision, or a finished row, finds what
        # was found before: so rows not attempting are masked out).
        if self.unions:
            ending = self._uf_join(acts, placed_one)
        elif self.is_hex:
            at = after * placed_one  # (cell, seat) in goal_bits; cell 0: no stone
            at <<= 1
            at |= self.mover
            self.my_goal |= self.goal_bits.take(at)
            ending = self._joined(self.my_goal)
        else:
            ending = self.ending.take((self.their_stones << 9 | self.my_stones).view(np.int64))
        if attempting is not None:
            ending *= attempting
        capped = ()
        if self.cap is not None:
            capped = (plies >= self.cap - 1) & (ending == 0)
            if attempting is not None:
                capped &= attempting
            capped = np.flatnonzero(capped)
        ended = rewards = None
        if np.count_nonzero(ending) or len(capped):
            outcome = ending | self.mover
            if len(capped):
                outcome[capped] = self._settle_by_distance(capped)
            ended = outcome >= DRAWN
            rewards = RETURNS.take(outcome, axis=0)
            if self.tracking:
                self._write_outcome(np.flatnonzero(ended), outcome)
        # The turn: a placement passes it, a collision only under the abrupt rule.
        if self.always_passes:
            # Every row: exchange the names. Finished rows pass too, harmlessly (a
            # restart zeroes both seats; a replay mends rows it had no ply for).
            self._seat_views(1 - self._mine)
            self.mover ^= 1
            if self._sitting:  # rows sitting out exchange their seats back: as they were
                self._swap_rows(np.flatnonzero(~(active | self.terminated)), logged=True)
        else:
            if not self.abrupt:
                passing = placed_one
            else:
                passing = held(placed) if wide else placed != 0
            swap = np.bitwise_xor(self.seats[0], self.seats[1], out=self._swap)
            # The rows that pass: exchange their seats' boards (wide: both words of
            # a row, a full array rather than a broadcast (B, 1), much faster).
            keep = lanes(passing.repeat(2).reshape(-1, 2) if wide else passing)
            for field in swap:  # (field by field: one (K, B) &= (B,) ran 2-4x slower)
                field &= keep
            self.seats[0] ^= swap
            self.seats[1] ^= swap
            if self.tracking:
                keys = (self.ply_keys[0] ^ self.ply_keys[1]) * passing
                self.ply_keys ^= keys
            self.mover ^= passing
        if self.sense:  # a sense is followed by the attempt, an attempt by a sense
            if active is None:
                np.logical_not(self.sensing, out=self.sensing)
            else:
                self.sensing ^= active
        return ended, rewards

    def _plies_made(self) -> np.ndarray:
        """(B,) the plies made before this step's attempt (read from the history
        length: in recon hex a ply is a sense and an attempt)."""
        made = self.hpos - self.hstart if self._rebuilding is None else self._rebuilding
        return (made - 1) >> 1 if self.sense else made

    def _sense(self, rows: np.ndarray, anchor: np.ndarray) -> None:
        """The referee shows each mover its block: empty / own / opponent stone."""
        mine, theirs = self.my_stones[rows], self.their_stones[rows]
        cells = self.block_bits[anchor]  # (rows, K) one bit per block cell
        if self.wide:  # (rows, K, 2): a cell is in one word of the two
            mine_at = (cells & mine[:, None]).any(axis=2)
            opponent = (cells & theirs[:, None]).any(axis=2)
        else:
            mine_at = (cells & mine[:, None]) != 0
            opponent = (cells & theirs[:, None]) != 0
        seen = np.where(mine_at, OWN, UNKNOWN).astype(np.int8)
        seen[opponent] = PROVEN
        # Opponent stones seen are proven: they leave the legal attempts.
        self.my_known[rows] |= theirs & np.bitwise_or.reduce(cells, axis=1)
        if self.tracking:
            seat = self.mover[rows]
            j = self.my_ply_key[rows].view(np.int64) // (2 * self.cells)
            self._write_sense((seat * self.batch_size + rows) * self.info_size, j, anchor, seen)

    def _settle_by_distance(self, rows: np.ndarray) -> list[int]:
        """The ply cap: the smaller true distToWin wins (rare: row by row). The
        rows' outcomes (see RETURNS)."""
        geo = self.geo
        outcomes = []
        for r in rows.tolist():
            mine, theirs = self.my_stones[r].tolist(), self.their_stones[r].tolist()
            if self.wide:
                mine, theirs = mine[0] | mine[1] << 64, theirs[0] | theirs[1] << 64
            x, o = (mine, theirs) if self.mover[r] == 0 else (theirs, mine)
            board = [
                rules.X_STONE if x >> c & 1 else rules.O_STONE if o >> c & 1 else rules.EMPTY
                for c in range(geo.cells)
            ]
            d0 = rules.dist_to_win(geo, board, 0, rules.X_STONE, rules.O_STONE)
            d1 = rules.dist_to_win(geo, board, 1, rules.O_STONE, rules.X_STONE)
            outcomes.append(WON if d0 < d1 else WON | 1 if d1 < d0 else DRAWN)
        return outcomes

    # ---- tensors ----------------------------------------------------------------

    def _mover_tensor(self) -> np.ndarray:
        if self.forgets and self.form == "information_state":
            store = self._store("observation")  # (first: see Env._mover_tensor)
            key, want = self._mover_rows()
            return store.read(key, want, self.dtype)[:, self.forgot]
        return super()._mover_tensor()

    def _seat_tensor(self, form: str, player) -> np.ndarray:
        if self.forgets and form == "information_state":
            # The observation's board piece (its columns of the observation store).
            return super()._seat_tensor("observation", player)[:, self.forgot].copy()
        return super()._seat_tensor(form, player)

    def _store(self, form: str) -> Store:
        """The form's store of both seats' tensors, made and filled at its first read."""
        store = self.info if form == "information_state" else self.obs
        if store is None:
            B = self.batch_size
            size = self.info_size if form == "information_state" else self.obs_size
            blank = self.blank if form == "information_state" else self.obs_blank
            store = Store(2 * B + 1, size, self.row_of, blank)
            if form == "information_state":
                self.info = store
            else:
                self.obs = store
            self._build_tensors()
        return store

    def _mover_rows(self):
        """The mirror (the slot under always_passes, where the movers' rows are
        one block) and each row's mover's store row (-1: finished)."""
        B = self.batch_size
        if self.always_passes:
            key, want = self._mine, self.rows + self._mine * B
        else:
            key, want = 0, self.mover * B + self.rows
        if self._finished:
            want = np.where(self.terminated, -1, want)
        return key, want

    def _seat_rows(self, player: int) -> np.ndarray:
        B = self.batch_size
        if self.always_passes:
            slot = (self.mover != player) ^ self._mine
            return slot * B + self.rows
        return player * B + self.rows

    def _build_tensors(self) -> None:
        """Replay every row's history from the start with tensor writes on (into
        every store kept): it ends where the rows are, with their tensors written."""
        B = self.batch_size
        self.tracking = True
        for store, blank in ((self.info, self.blank), (self.obs, self.obs_blank)):
            if store is not None:
                store.array[: 2 * B] = blank
                store.array[2 * B :] = 0
        length = self.history_len
        self.seats[:] = 0
        self.ply_keys[:] = 0
        if self.unions:
            self._uf_clear(self.rows)
        self._seat_views(0)
        self.mover[:] = 0
        if self.sense:
            self.sensing[:] = True
        for k in range(int(length.max())):
            active = length > k
            acts = self.history[:, k].astype(np.int64)
            self._rebuilding = k  # the history length before this step
            self._play(acts, None if active.all() else active, trusted=True)
        self._rebuilding = None
        if self.always_passes:  # every row passed at every replayed ply: undo the
            self._swap_rows(np.flatnonzero((length.max() - length) & 1))  # extra ones
        for store in (self.info, self.obs):
            if store is not None:
                store.invalidate()  # (its slots may have moved: mirrors rebuild)

    def _swap_rows(self, rows: np.ndarray, logged: bool = False) -> None:
        """Exchange the two seats' data (mine / theirs) of the rows; `logged`:
        the stores log it, so their mirrors copy those rows whole at a read
        (a replay rebuilds them instead)."""
        B = self.batch_size
        self.seats[:, :, rows] = self.seats[::-1][:, :, rows]
        self.ply_keys[:, rows] = self.ply_keys[::-1][:, rows]
        for store in (self.info, self.obs):
            if store is not None:
                T = store.array
                T[rows], T[rows + B] = T[rows + B], T[rows]
                if logged:
                    store.rewrote(rows)
        self.mover[rows] ^= 1

    def _write_attempts(self, acts, placed_one, attempting, plies) -> None:
        """Each attempting row's ply into its mover's tensor: the seat's j-th
        attempt (j from my_ply_key), ply k of the game (k = plies, _plies_made)."""
        B, D, n2 = self.batch_size, self.info_size, self.cells
        complete = attempting is None
        if self.always_passes:  # the mover's tensors are slot _mine (see _seat_views)
            srow = self.rows + B if self._mine else self.rows  # (never written in place)
        else:
            srow = self.mover * B
            srow += self.rows
        if not complete:  # rows sitting out write to the scratch row
            srow = np.where(attempting, srow, 2 * B)
        base = srow * D  # each row's store row (the scratch row's too), and its start
        result = (acts << 1) + placed_one
        block = self._mine if self.always_passes else None  # (the movers' mirror)
        if self.obs is not None:  # the same ply's board entries, in the observation
            obs, E = self.obs, self.obs_size
            at = (srow * E)[:, None] + self.obs_entries.take(result, 0, mode="clip")
            obs.write(at, self.obs_values, block, srow)
            if self.obs_count is not None:  # public: the count moves on, for both seats
                for seat_row in (self.rows, self.rows + B):
                    row = seat_row if complete else np.where(attempting, seat_row, 2 * B)
                    at = (row * E + self.obs_count + plies)[:, None] + (0, 1)
                    obs.write(at, self.count_values, None, row)
            if self.obs_age is not None:
                self._age_views(srow, acts, attempting)
        if self.info is None:
            return
        key = self.my_ply_key.view(np.int64) + result
        entries = self.ply_entries.take(key, axis=0, mode="clip")
        self.info.write(base[:, None] + entries, self.ply_values, block, srow)
        if self.o_movers is not None:  # public: both seats see who made ply k
            at = (self.o_movers + 2 * plies + self.mover)[:, None]
            base = self.row_at if complete else np.where(attempting, self.row_at, self.scratch)
            self.info.write(base[:, None] + at, 1)
            base = base + (B * D if complete else B * D * attempting)
            self.info.write(base[:, None] + at, 1)
        step = np.int64(2 * n2)
        self.my_ply_key.view(np.int64)[:] += step if complete else step * attempting

    def _age_views(self, srow, acts, attempting) -> None:
        """An attempt in the observation of recon hex: in the mover's store row
        every cell seen empty grows a ply older, the attempted cell is known
        (age 0) and the ply's sense is over. Most of a row's ages change, so
        the block is rewritten in place and handed on as columns."""
        rows = self.rows if attempting is None else np.flatnonzero(attempting)
        if not len(rows):
            return
        obs, n2 = self.obs, self.cells
        lo, hi = self.obs_recent
        at = srow[rows]
        ages = obs.array[at, lo : lo + n2]
        ages += ages != 0
        ages[np.arange(len(rows)), acts[rows]] = 0
        obs.array[at, lo : lo + n2] = ages
        obs.array[at, lo + n2 : hi] = 0
        obs.columns(lo, hi)

    def _write_sense(self, base, j, anchor, seen) -> None:
        """A sense as the seat's ply j: its rows, and the opponent stones it proved."""
        if self.obs is not None:
            self._write_sense_view(base // self.info_size, anchor, seen)
        if self.info is None:
            return
        K = seen.shape[1]
        self.info.write(base + self.o_senses + j * len(self.blocks) + anchor, 1)
        row = (base + self.o_sensed + j * K * 3)[:, None] + 3 * np.arange(K)
        self.info.write(row + seen, 1)
        square = (base + self.o_board)[:, None] + 3 * self.blocks[anchor]
        proven = square[seen == PROVEN]
        self.info.write(proven, 0)
        self.info.write(proven + 2, 1)

    def _write_sense_view(self, srow, anchor, seen) -> None:
        """A sense in the observation (store rows srow): the opponent stones it
        proved on the board; its empty cells seen now (age 1), its opponent
        stones never again seen empty (age 0); the anchor sensed this ply."""
        obs = self.obs
        E = obs.size
        cells = self.blocks[anchor]  # (rows, K)
        square = (srow * E + self.obs_board)[:, None] + 3 * cells
        proven = seen == PROVEN
        obs.write(square[proven], 0)
        obs.write(square[proven] + 2, 1)
        lo, hi = self.obs_recent
        at = srow[:, None]
        ages = obs.array[at, lo + cells]
        ages[seen == UNKNOWN] = 1
        ages[proven] = 0
        obs.array[at, lo + cells] = ages
        obs.array[srow, self.obs_now + anchor] = 1
        obs.columns(lo, hi)

    def _write_outcome(self, rows: np.ndarray, outcome: np.ndarray) -> None:
        """Public: seat 0 won / draw / seat 1 won, in both seats' tensors."""
        B = self.batch_size
        which = OUTCOME_AT.take(outcome[rows])
        both = rows[:, None] + (0, B)  # the rows' store rows in both slots
        for store, o in ((self.info, self.o_outcome), (self.obs, self.obs_outcome)):
            if store is not None:
                at = both * store.size
                at += (o + which)[:, None]
                store.write(at, 1, rows=both)
