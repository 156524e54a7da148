"""Tensor stores kept in place, and the read-only views handed out of them
(docs/batch.md#observations).

A batched game keeps each kind of tensor it has been asked for (information
state, observation) for every seat of every row in one uint8 `Store`, which
its steps write a few entries at a time. What `State.observation` hands out
is a `Mirror` of a store: a (B, D) array in the environment's dtype whose
row b shows one store row (row b's mover's), zeros in finished rows. A read
brings the mirror up to date in place with what changed since its last
read: the logged writes into the store rows it shows, and whole rows where
the row shown changed (the turn passed, a restart, an ending). It is handed
out as a read-only view that stays valid until the next step or reset:
whoever holds it, the next read writes over it (OpenSpiel's rl_environment
convention: copy it to keep it). So the cost of a read is what changed plus
handing out the array, whatever the caller keeps.
"""

from __future__ import annotations

from collections import deque

import numpy as np

# Logged changes kept for mirrors not read for a while; a mirror further behind
# is rebuilt whole. Reading every step keeps a step's few entries.
LIMIT = 64
WRITE, RESTART, COLUMNS, BLOCK, PUBLIC, ROWS = range(6)  # the kinds of logged changes
# Groups of rows a private copy with a reach is split in (each one copy a slice).
GROUPS = 4


class Mirror:
    """One handed-out array: row b shows store row `shown[b]` (-1: zeros),
    as of the store's log entry `seen` (None: never filled). Row B is a
    scratch row for the logged writes of rows showing another store row
    (sending them there costs less than picking the others out)."""

    __slots__ = ("array", "view", "shown", "seen", "scratch", "key", "blank")

    def __init__(self, batch_size: int, size: int, dtype, key, blank):
        self.key = key
        self.blank = None if blank is None else blank.astype(dtype)  # (no cast per restart)
        self.array = np.zeros((batch_size + 1, size), dtype)
        self.scratch = batch_size * size  # flat offset of the scratch row
        self.view = self.array[:batch_size]
        self.view.flags.writeable = False
        self.shown = np.full(batch_size, -1, np.int32)
        self.seen = None


class Store:
    """Every seat's tensors of one kind: `array` uint8 (R, D), store row r shown
    as row `row_of[r]` of the batch. The game writes through `write` (flat
    indices into `array`), `public` (a fact written into every seat's row of
    batch rows), `restart` (rows of the batch whose store rows it set
    afresh), `rewrote` (rows, or some of their columns, it rewrote in bulk:
    a block copied, the seats' rows exchanged)
    and `columns` (a block of columns it rewrote in place, in any rows: a
    status block kept from the rows' state); `read` hands out a mirror.
    Writes are logged only while some mirror exists.

    `private`: where the game keeps every other column the same in all the
    store rows of one batch row (the public pieces, written to every seat),
    the columns that may differ (a list of slices in column order: the
    seats' own pieces); a
    mirror row whose store row changed within its batch row (the
    turn passed) then copies only those. `reach`: a function giving (B,) per
    batch row the column before which every private entry of its store rows
    lies (later private columns are zero in all of them): such a copy then
    stops there, in groups of rows of like reach. A block of `columns` is
    gathered from the store rows a read shows (a game may keep it up to date
    in those rows only), or, given its `values` per batch row (a public
    block, the same in every store row of a batch row), copied from them.

    `whole`: nothing is logged and every read gathers the rows it shows
    whole, for small tensors whose shown rows change nearly everywhere at
    every ply anyway (Mind Bluff: a status block in every row): one gather
    costs less than the log's calls."""

    def __init__(
        self,
        rows: int,
        size: int,
        row_of: np.ndarray,
        blank=None,
        private=None,
        whole=False,
        reach=None,
        seats=None,
    ):
        self.blank = blank  # the row every restart sets, if one for all (the boards)
        self.private = private
        self.reach = reach
        self.seats = seats  # store rows b * seats .. b * seats + seats - 1: row b (`public`)
        self.whole = whole
        # The rows, then one row of zeros that nothing writes: a read gathers the
        # rows it shows by `want` as it is, -1 (a finished row) giving zeros.
        self.padded = np.zeros((rows + 1, size), np.uint8)
        self.array = self.padded[:rows]
        self.flat = self.array.reshape(-1)
        self.size = size
        self.row_of = row_of
        self.mirrors: dict = {}
        # (seq, kind, index array, block, rows, values), oldest first
        self.log: deque = deque()
        self.seq = 0  # the last entry's number
        self.dropped = 0  # entries up to this one are gone

    def arrays(self) -> list:
        """Every array the store keeps: its own, its mirrors', its log's."""
        kept = [self.padded] + ([] if self.blank is None else [self.blank])
        for m in self.mirrors.values():
            kept += [m.array, m.shown] + ([] if m.blank is None else [m.blank])
        for entry in self.log:
            kept += [x for x in entry[2:] if isinstance(x, np.ndarray)]
        return kept

    def write(self, index: np.ndarray, values, block=None, rows=None) -> None:
        """Set `values` at the flat indices `index`, (n,) or (n, k). If known,
        `block`: the writes go into rows of the store block the mirror of that
        key shows, or the scratch row (boards' always_passes); `rows`: the store
        row of each index, of `index`'s leading shape (spares a division per
        entry at a read)."""
        self.flat[index] = values
        if self.mirrors:
            self._append(WRITE, index, block, rows, values)

    def public(self, rows: np.ndarray, columns: np.ndarray, values) -> None:
        """Set `values` at `columns` ((m,) or (m, k), with values of that shape or
        a scalar) in every store row of the batch rows `rows` (m,): a public fact
        (a store with `private` and `seats`). A mirror row shows every seat's
        public columns alike, so a read writes them in the rows shown as they
        are, with no look at which store row each shows."""
        P, D = self.seats, self.size
        cols = columns if columns.ndim == 2 else columns[:, None]
        at = (rows * (P * D))[:, None] + cols  # (m, k): seat 0's
        seat = (np.arange(P) * D)[:, None]
        if np.ndim(values):
            values = values.reshape(cols.shape)
            self.flat[at[:, None, :] + seat] = values[:, None, :]
        else:
            self.flat[at[:, None, :] + seat] = values
        if self.mirrors:
            self._append(PUBLIC, rows[:, None] * D + cols, None, None, values)

    def restart(self, rows: np.ndarray) -> None:
        if self.mirrors:
            self._append(RESTART, rows, None, None, None)

    def rewrote(self, rows: np.ndarray, columns=None) -> None:
        """Rows of the batch whose store rows the game rewrote in bulk, directly
        in `array` (a block copied, the seats' rows exchanged): a read copies
        them whole, or only the columns lo..hi-1 of `columns` (lo, hi) if given."""
        if not self.mirrors:
            return
        if columns is None:
            self._append(ROWS, rows, None, None, None)
        else:
            self._append(BLOCK, rows, None, None, columns)

    def columns(self, lo: int, hi: int, values=None) -> None:
        """Columns lo..hi-1 were rewritten in `array` directly (any rows): a read
        gathers them from the store for the rows it shows. `values` (B, hi - lo),
        if given: what every store row of each batch row now holds there (a
        public block; the store keeps the array, which the game never writes
        again): a read copies it instead."""
        if self.mirrors:
            self._append(COLUMNS, (lo, hi), None, None, values)

    def invalidate(self) -> None:
        """The store was rewritten whole (a replay): every mirror is rebuilt."""
        self.seq += 1
        self.dropped = self.seq
        self.log.clear()

    def _append(self, kind, data, block, rows, values) -> None:
        if self.whole:  # (no log: every read gathers whole rows)
            return
        self.seq += 1
        self.log.append((self.seq, kind, data, block, rows, values))
        if len(self.log) > LIMIT:
            self.dropped = self.log.popleft()[0]

    def read(self, key, want: np.ndarray, dtype) -> np.ndarray:
        """The read-only (B, D) view of mirror `key` showing store row want[b]
        in row b (-1: zeros), brought up to date."""
        mirror = self.mirrors.get(key)
        if mirror is None:
            mirror = self.mirrors[key] = Mirror(len(want), self.size, dtype, key, self.blank)
        self._sync(mirror, want)
        seen = min(m.seen for m in self.mirrors.values())
        while self.log and self.log[0][0] <= seen:
            self.log.popleft()
        return mirror.view

    def _sync(self, mirror: Mirror, want: np.ndarray) -> None:
        B, out = len(want), mirror.array
        entries = ()
        part = ()  # rows whose shown store row changed within the row (private)
        if mirror.seen is None or mirror.seen < self.dropped or self.whole:
            full = None  # every row
        else:
            full = want != mirror.shown
            entries = [e for e in self.log if e[0] > mirror.seen]
            if self.private is not None:
                seat = full & (want >= 0) & (mirror.shown >= 0)
            # A restart's rows (without a blank) and rewritten rows are copied
            # whole; so are restarted rows that have finished again since (with a
            # blank: the blank would stand where the padding's zeros must).
            for _, kind, data, *_ in entries:
                if kind == ROWS or kind == RESTART and self.blank is None:
                    full[data] = True
                    if self.private is not None:
                        seat[data] = False
                elif kind == RESTART:
                    full[data[want.take(data) < 0]] = True
            if self.private is not None:
                part = np.flatnonzero(seat)
                full &= ~seat
        count = B if full is None else np.count_nonzero(full)
        if 2 * count > B:  # most rows changed whole: all of them, in one gather
            np.copyto(out[:B], self.padded.take(want, axis=0), casting="unsafe")
        else:
            # The writes replayed in order (so the last one of an entry stands),
            # with the values written: what the store holds there now.
            finished = None
            for _, kind, data, block, srow, values in entries:
                if kind == WRITE:
                    if block is None or block == mirror.key:  # (else one it never shows)
                        self._replay(mirror, data, srow, values)
                elif kind == PUBLIC:  # (finished rows write none: zeros stay zeros)
                    out.reshape(-1)[data] = values
                elif kind == COLUMNS:  # the store's values now, in the rows to show
                    lo, hi = data
                    if values is None:  # (the padding row: zeros where a row finished)
                        np.copyto(out[:B, lo:hi], self.padded[want, lo:hi], casting="unsafe")
                        continue
                    np.copyto(out[:B, lo:hi], values, casting="unsafe")
                    if finished is None:
                        finished = np.flatnonzero(want < 0)
                    if len(finished):
                        out[finished, lo:hi] = 0
                elif kind == BLOCK:  # the store's values now, in the rows showing one
                    lo, hi = values
                    rows = data[want.take(data) >= 0]
                    out[rows, lo:hi] = self.array[want.take(rows), lo:hi]
                elif kind == ROWS:  # (copied whole below)
                    continue
                elif self.blank is not None:  # a restart (every store row of the rows)
                    out[data] = mirror.blank
            if count:  # (zeros where a row finished: want -1, the padding row)
                copy = np.flatnonzero(full)
                out[copy] = self.padded.take(want[copy], axis=0)
            if len(part):  # the other columns are the old store row's already
                self._copy_private(out, part, want[part])
        mirror.shown[:] = want
        mirror.seen = self.seq

    def _replay(self, mirror: Mirror, data, srow, values) -> None:
        """A logged write (flat indices, their store rows or None, values) into
        the mirror rows showing its store rows, the others' into the scratch row."""
        B, D, shown = len(mirror.shown), self.size, mirror.shown
        if srow is None:
            srow, column = np.divmod(data, D)
            rows = self.row_of.take(srow)
            target = rows * D
            target += column
            np.putmask(target, shown.take(rows) != srow, mirror.scratch)
        else:  # from store row srow to the row showing it, or the scratch row
            rows = self.row_of.take(srow)
            np.putmask(rows, shown.take(rows) != srow, B)
            rows = rows - srow  # (int64 with srow: store rows times D may pass 2**31)
            rows *= D
            target = data + rows.reshape(rows.shape + (1,) * (data.ndim - rows.ndim))
        mirror.array.reshape(-1)[target] = values

    def _copy_private(self, out, part, rows) -> None:
        """The private columns of store rows `rows` into mirror rows `part`; with
        `reach`, in up to GROUPS groups of rows by reach, each copying up to its
        largest (a row's private entries past its reach are zero everywhere)."""
        if self.reach is None:
            groups = [(part, rows, None)]
        else:
            reach = self.reach().take(part)
            order = np.argsort(reach, kind="stable")
            bounds = np.linspace(0, len(part), GROUPS + 1).astype(np.int64)
            groups = [
                (part[order[i:j]], rows[order[i:j]], int(reach[order[j - 1]]))
                for i, j in zip(bounds[:-1], bounds[1:])
                if j > i
            ]
        for p, r, end in groups:
            for cols in self.private:  # (a take of the column view runs 10x slower)
                if end is not None:
                    if cols.start >= end:
                        break
                    cols = slice(cols.start, min(cols.stop, end))
                out[p, cols] = self.array[r, cols]
