"""Batched Fog-of-War boards: phantom tic-tac-toe, dark hex, recon hex.

The rules are those of fogboard_games/boards/rules.py (docs/boards.md#rules),
applied to every row at once. A ply is one attempt (in recon hex a sense,
then an attempt, by the same seat): an empty cell takes the mover's stone
(`placed`), an opponent stone is proven to the mover (`occupied`). A
placement passes the turn; a collision passes it under the abrupt rule and
lets the mover go again under the classical one. After a placement comes
the win check (a line; hex: the mover's two edges joined), then the
board-full check (tic-tac-toe), then the ply cap, where true distToWin
decides. A seat's own stones and the opponent stones it has proven (by a
collision or a sense) are not legal attempts; at a sense every anchor is.

Each row keeps per seat two bitboards (one uint64 each, so boards up to
8 x 8): its stones, and the cells it knows (its stones and the opponent
stones it proved). The true board is the two seats' stones; the legal
attempts are the cells a seat does not know.

Hex connections are kept without a flood fill per move: per row and seat,
bitboards of the seat's stones joined to its first edge and to its far
edge. A new stone wins when it touches (or lies on) both; when it touches
just one, the group it now belongs to joins that set (a flood through the
seat's stones outside the set, usually zero or one dilation).

Information-state tensors are not made until first read: until then each
ply goes to a compact per-row log, from which the first read builds them;
from then on every ply writes its few 1.0s straight into them. Play that
never reads a tensor never pays for one.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch import Env
from fogboard_games.boards import rules

MAX_SIZE = 8  # cells fit one uint64 bitboard
UNKNOWN, OWN, PROVEN = rules.UNKNOWN, rules.OWN, rules.PROVEN
ONE, ZERO = np.uint64(1), np.uint64(0)
# A logged ply packs into an int16: cell | occupied << 6 | seat << 7 | own ply index << 8.
SEAT_BIT, OWN_SHIFT = 7, 8


class Boards(Env):
    """A batch of one board game (fogboard_phantom_ttt, _dark_hex or _recon_hex)."""

    def __init__(self, game, batch_size: int, seed=None):
        geo = self.geo = game.setup
        assert geo.size <= MAX_SIZE
        self.cells = n2 = geo.cells
        self.num_players = 2
        self.num_actions = geo.num_actions
        layout = game.info_layout
        self.tensor_size = layout.size
        self.max_history = geo.max_game_length
        self.log_len = M = geo.max_game_plies
        self.sense = geo.sense
        self.abrupt = geo.abrupt
        # The cap binds only below 2 x cells - 1 plies (docs/boards.md#length).
        self.cap = geo.max_plies if geo.max_plies < 2 * n2 - 1 else None
        super().__init__(game, batch_size, seed)
        B = self.batch_size
        off = layout.offset
        self.o_board = off["board"]
        self.o_attempts = off["attempts"]
        self.o_results = off["results"]
        self.o_movers = off.get("ply_movers")
        self.o_outcome = off["outcome"]
        self.full = np.uint64((1 << n2) - 1)
        self._checked = (None, None, None)

        # The game, per row; per-seat arrays are seat-major: [seat, row].
        self.own = np.zeros((2, B), np.uint64)  # each seat's stones
        self.known = np.zeros((2, B), np.uint64)  # its stones and the stones it proved
        self.mover = np.zeros(B, np.int64)  # 0 or 1 (the last mover in finished rows)
        self.plies = np.zeros(B, np.int64)
        self.own_plies = np.zeros((2, B), np.int64)
        self.winner = np.zeros(B, np.int64)  # 0, 1, or -1 for a draw
        self.log = np.zeros((B, M), np.int16)  # packed plies, until tensors are tracked
        # Tensors: both seats', made at the first read, then kept current.
        self.tracking = False
        self.tensors = np.zeros((B, 2, layout.size), np.uint8)  # 0/1: float32 when read
        self.blank = np.zeros((2, layout.size), np.uint8)
        self.blank[:, self.o_board : self.o_board + 3 * n2 : 3] = 1  # every cell unknown

        if geo.kind == "ttt":
            self.lines = np.zeros(512, bool)  # bitboard -> holds a line
            for bits in range(512):
                self.lines[bits] = any(all(bits >> c & 1 for c in ln) for ln in geo.lines)
        else:
            self._hex_tables(geo)
        if self.sense:
            self.blocks = np.array(geo.blocks, np.int64)  # (anchors, K) cells
            self.anchors = len(geo.anchors)
            K = self.blocks.shape[1]
            self.block_bits = np.array([[1 << c for c in block] for block in geo.blocks], np.uint64)
            self.o_senses = off["senses"]
            self.o_sensed = off["sensed"]
            self.sensing = np.ones(B, bool)  # the mover's next decision is its sense
            self.sensed_anchor = np.full(B, -1, np.int64)  # sense of the ply under way
            self.sensed_seen = np.zeros((B, K), np.int8)
            self.log_anchor = np.zeros((B, M), np.int8)
            self.log_seen = np.zeros((B, M, K), np.int8)
        self.reset()

    def _hex_tables(self, geo) -> None:
        n, n2 = geo.size, geo.cells
        self.neighbours = np.array(
            [sum(1 << nb for nb in geo.neighbors[c]) for c in range(n2)], np.uint64
        )
        # on_edge[edge][seat * cells + cell]: the cell lies on the seat's first / far edge.
        self.on_edge = [
            np.array([bool(geo.edges[s][c] & (1 << e)) for s in (0, 1) for c in range(n2)])
            for e in (0, 1)
        ]
        self.conn = np.zeros((2, 2, self.batch_size), np.uint64)  # [seat, edge, row]
        file0 = sum(1 << (r * n) for r in range(n))
        last = file0 << (n - 1)
        self.shifts = (np.uint64(1), np.uint64(n), np.uint64(n - 1))
        self.not_file0 = np.uint64(((1 << n2) - 1) & ~file0)
        self.not_last = np.uint64(((1 << n2) - 1) & ~last)

    def _dilate(self, g: np.ndarray) -> np.ndarray:
        """Bitboards with their hex neighbours added: (r, f +- 1), (r +- 1, f),
        (r - 1, f + 1) and (r + 1, f - 1); the masks stop wraps across files."""
        one, n, d = self.shifts
        out = (
            g
            | (((g << one) | (g >> d)) & self.not_file0)
            | (((g >> one) | (g << d)) & self.not_last)
        )
        out |= (g << n) | (g >> n)
        return out & self.full

    # ---- restart ------------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self.own[:, rows] = 0
        self.known[:, rows] = 0
        self.own_plies[:, rows] = 0
        self.mover[rows] = 0
        self.plies[rows] = 0
        if self.geo.kind == "hex":
            self.conn[:, :, rows] = 0
        if self.sense:
            self.sensing[rows] = True
            self.sensed_anchor[rows] = -1
        if self.tracking:
            self.tensors[rows] = self.blank

    # ---- what the mover may do ------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array: per action, every row
        (so a reduction over the actions runs across rows, the fast way)."""
        B, n2 = self.batch_size, self.cells
        known = np.where(self.mover == 1, self.known[1], self.known[0])
        free = ~known & np.where(self.terminated, ZERO, self.full)
        bits = free.view(np.uint8).reshape(B, 8).T  # byte i of every row
        attempts = np.unpackbits(bits, axis=0, count=n2, bitorder="little").view(bool)
        if not self.sense:
            return attempts.T
        mask = np.empty((self.num_actions, B), bool)
        np.logical_and(attempts, ~self.sensing, out=mask[:n2])
        mask[n2:] = self.sensing & ~self.terminated
        return mask.T

    def _start_mask(self) -> np.ndarray:
        """The legal actions at the start of a game."""
        mask = np.zeros(self.num_actions, bool)
        if self.sense:
            mask[self.cells :] = True
        else:
            mask[: self.cells] = True
        return mask

    def _check(self, rows, acts: np.ndarray) -> np.ndarray:
        n2 = self.cells
        seat = self.mover[rows]
        known = self.known.reshape(-1)[seat * self.batch_size + rows]
        bit = ONE << (acts & 63).astype(np.uint64)
        ok = (acts >= 0) & (acts < n2) & ((known & bit) == 0)
        self._checked = (acts, seat, bit)  # _attempt reuses them when handed the same acts
        if self.sense:
            ok = np.where(self.sensing[rows], (acts >= n2) & (acts < self.num_actions), ok)
        return ok

    # ---- the moves --------------------------------------------------------------

    def _apply(self, rows: np.ndarray, acts: np.ndarray):
        if self.sense:
            sensing = self.sensing[rows]
            if sensing.any():
                self._sense(rows[sensing], acts[sensing] - self.cells)
                rows, acts = rows[~sensing], acts[~sensing]
        return self._attempt(rows, acts)

    def _sense(self, rows: np.ndarray, anchor: np.ndarray) -> None:
        """The referee shows each mover its block: empty / own / opponent stone."""
        B = self.batch_size
        seat = self.mover[rows]
        mine = self.own.reshape(-1)[seat * B + rows]
        theirs = self.own.reshape(-1)[(1 - seat) * B + rows]
        cells = self.block_bits[anchor]  # (rows, K) one bit per block cell
        seen = np.where((cells & mine[:, None]) != 0, OWN, UNKNOWN).astype(np.int8)
        opponent = (cells & theirs[:, None]) != 0
        seen[opponent] = PROVEN
        self.sensed_anchor[rows] = anchor
        self.sensed_seen[rows] = seen
        self.sensing[rows] = False
        # Opponent stones seen are proven: they leave the legal attempts.
        self.known.reshape(-1)[seat * B + rows] |= theirs & np.bitwise_or.reduce(cells, axis=1)
        if self.tracking:
            j = self.own_plies.reshape(-1)[seat * B + rows]
            self._write_sense((rows * 2 + seat) * self.tensor_size, j, anchor, seen)

    def _attempt(self, rows: np.ndarray, cell: np.ndarray):
        """Each row's mover attempts `cell`; (rows that ended, their returns)."""
        B = self.batch_size
        full_batch = len(rows) == B
        sel = slice(None) if full_batch else rows
        checked = self._checked
        if checked[0] is cell:  # seat (a copy: mover is written below) and bit from _check
            _, seat, bit = checked
        else:
            seat = self.mover[rows]
            bit = ONE << cell.astype(np.uint64)
        self._checked = (None, None, None)
        at = seat * B + rows  # [seat, row], flat
        other = at + B - 2 * B * seat  # the opponent's [seat, row]
        own, known = self.own.reshape(-1), self.known.reshape(-1)
        theirs = own[other]
        occupied = (theirs & bit) != 0
        mine = own[at] | np.where(occupied, ZERO, bit)
        own[at] = mine
        known[at] |= bit
        k = self.plies.copy() if full_batch else self.plies[rows]
        self.plies[sel] = k + 1
        j = self.own_plies.reshape(-1)[at]
        self.own_plies.reshape(-1)[at] = j + 1
        if self.tracking:
            self._write_plies(rows, seat, cell, occupied, j, k)
        else:
            packed = cell | (occupied.astype(np.int64) << 6) | (seat << SEAT_BIT) | (j << OWN_SHIFT)
            self.log.reshape(-1)[rows * self.log_len + k] = packed
        if self.sense:
            if not self.tracking:
                self.log_anchor[rows, k] = self.sensed_anchor[sel]
                self.log_seen[rows, k] = self.sensed_seen[sel]
            self.sensed_anchor[sel] = -1
            self.sensing[sel] = True
        # The win check, after a placement only.
        if self.geo.is_ttt:
            won = self.lines[mine]  # no line before: a collision finds none
        else:
            won = self._connects(rows, seat, cell, bit, mine, ~occupied)
        # The turn: a placement passes it, a collision only under the abrupt rule.
        self.mover[sel] = seat ^ 1 if self.abrupt else seat ^ ~occupied
        ended = won
        if self.geo.is_ttt:  # board full without a line: a draw
            ended = won | ((mine | theirs) == self.full)
        capped = None
        if self.cap is not None:
            capped = ~ended & (k + 1 >= self.cap)
            ended = ended | capped
        if not ended.any():
            return rows[:0], np.zeros((0, 2), np.float32)
        done = rows[ended]
        winner = np.where(won[ended], seat[ended], -1)
        self.winner[done] = winner
        if capped is not None and capped.any():
            self._settle_by_distance(rows[capped])
            winner = self.winner[done]
        if self.tracking:
            self._write_outcome(done)
        returns = np.zeros((len(done), 2), np.float32)
        returns[winner == 0] = (1.0, -1.0)
        returns[winner == 1] = (-1.0, 1.0)
        return done, returns

    def _connects(self, rows, seat, cell, bit, mine, placed) -> np.ndarray:
        """Hex win check of stones just placed; keeps the edge-joined sets exact."""
        B, n2 = self.batch_size, self.cells
        nb = self.neighbours[cell]
        at = seat * 2 * B + rows  # [seat, edge 0, row]; edge 1 is B further
        conn = self.conn.reshape(-1)
        first, far = conn[at], conn[at + B]
        on = seat * n2 + cell
        t1 = placed & (self.on_edge[0][on] | ((nb & first) != 0))
        t2 = placed & (self.on_edge[1][on] | ((nb & far) != 0))
        # A stone joined to one edge brings its whole new group into that set:
        # flood from it through the seat's stones not yet in the set (rows whose
        # stone touches none of those need no flood: most of them).
        one = t1 ^ t2
        side = np.where(t1, first, far)
        region = mine & ~side
        group = bit | (nb & region)
        todo = np.flatnonzero(one & (group != bit))
        while len(todo):  # (long chains are rare: drop the rows that stopped growing)
            g = group[todo]
            grown = (self._dilate(g) & region[todo]) | g
            group[todo] = grown
            todo = todo[grown != g]
        # Every row writes back: the joined set grown, else its first set unchanged.
        conn[at + B * (t2 & ~t1)] = np.where(one, side | group, first)
        return t1 & t2

    def _settle_by_distance(self, rows: np.ndarray) -> None:
        """The ply cap: the smaller true distToWin wins (rare: row by row)."""
        geo = self.geo
        for r in rows.tolist():
            x, o = int(self.own[0, r]), int(self.own[1, r])
            board = [
                rules.X_STONE if x >> c & 1 else rules.O_STONE if o >> c & 1 else rules.EMPTY
                for c in range(geo.cells)
            ]
            d0 = rules.dist_to_win(geo, board, 0, rules.X_STONE, rules.O_STONE)
            d1 = rules.dist_to_win(geo, board, 1, rules.O_STONE, rules.X_STONE)
            self.winner[r] = 0 if d0 < d1 else 1 if d1 < d0 else -1

    # ---- tensors ----------------------------------------------------------------

    def _tensors(self) -> np.ndarray:
        """Both seats' information-state tensors, made from the logs at the first read."""
        if not self.tracking:
            self._build_tensors()
            self.tracking = True
        return self.tensors

    def _build_tensors(self) -> None:
        """Write every logged ply, the senses under way and the outcomes."""
        B, D, M = self.batch_size, self.tensor_size, self.log_len
        self.tensors[:] = self.blank
        q = np.flatnonzero(self.plies > 0)
        k = 0
        while len(q):
            packed = self.log[q, k].astype(np.int64)
            seat = (packed >> SEAT_BIT) & 1
            if self.sense:
                j = packed >> OWN_SHIFT
                self._write_sense((q * 2 + seat) * D, j, self.log_anchor[q, k], self.log_seen[q, k])
            occupied = ((packed >> 6) & 1).astype(bool)
            self._write_plies(q, seat, packed & 63, occupied, packed >> OWN_SHIFT, k)
            k += 1
            q = q[self.plies[q] > k]
        assert k <= M
        if self.sense:
            q = np.flatnonzero((self.sensed_anchor >= 0) & ~self.terminated)
            seat = self.mover[q]
            j = self.own_plies.reshape(-1)[seat * B + q]
            self._write_sense((q * 2 + seat) * D, j, self.sensed_anchor[q], self.sensed_seen[q])
        self._write_outcome(np.flatnonzero(self.terminated))

    def _write_plies(self, rows, seat, cell, occupied, j, k) -> None:
        """One attempt per row: the mover's seat `seat`, its j-th, ply k of the game."""
        T = self.tensors.reshape(-1)
        D, n2 = self.tensor_size, self.cells
        result = occupied.astype(np.int64)
        base = (rows * 2 + seat) * D
        square = base + self.o_board + 3 * cell
        T[square] = 0
        T[square + 1 + result] = 1  # placed: own stone; occupied: proven
        T[base + self.o_attempts + j * n2 + cell] = 1
        T[base + self.o_results + 2 * j + result] = 1
        if self.o_movers is not None:  # public: both seats see who made ply k
            movers = rows * 2 * D + self.o_movers + 2 * k + seat
            T[movers] = 1
            T[movers + D] = 1

    def _write_sense(self, base, j, anchor, seen) -> None:
        """A sense as the seat's ply j: its rows, and the opponent stones it proved."""
        T = self.tensors.reshape(-1)
        anchor = anchor.astype(np.int64)
        seen = seen.astype(np.int64)
        K = seen.shape[1]
        T[base + self.o_senses + j * self.anchors + anchor] = 1
        row = (base + self.o_sensed + j * K * 3)[:, None] + 3 * np.arange(K)
        T[row + seen] = 1
        square = (base + self.o_board)[:, None] + 3 * self.blocks[anchor]
        proven = square[seen == PROVEN]
        T[proven] = 0
        T[proven + 2] = 1

    def _write_outcome(self, rows: np.ndarray) -> None:
        """Public: seat 0 won / draw / seat 1 won, in both seats' tensors."""
        D = self.tensor_size
        w = self.winner[rows]
        at = rows * 2 * D + self.o_outcome + np.where(w < 0, 1, 2 * w)
        T = self.tensors.reshape(-1)
        T[at] = 1
        T[at + D] = 1
