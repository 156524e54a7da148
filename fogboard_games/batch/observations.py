"""The movers' float32 observations, brought up to date instead of rebuilt.

A batched board game keeps every seat's information-state tensor in a uint8
store, and the observation a step hands out is the movers' tensors as
float32: (B, D), 12 MB a ply on dark hex 5 x 5 at B = 4096, which takes
longer to write than the ply takes to play. When every ply passes the turn
in every row (the abrupt rule without a sense), the movers' tensors are one
block of the store, the two blocks taking turns; then the observation handed
out two plies ago, once nothing references it any more, differs from the
one wanted now only by what the store's block received since: four entries
a row for the ply, and the rows restarted (a blank tensor) or ended (zeros).
`Observations` keeps such buffers with the step each shows, logs the
store's writes, restarts and endings of the last few steps, and a read
takes the freshest free buffer of the block wanted and replays them into it
in order; when none is free and recent enough, it rebuilds one whole.
(Under the classical rule a row's mover depends on its plies: a third of
the rows of a buffer two plies old show the other seat, and copying rows
one by one costs several times a whole copy per row, so the game rebuilds
its observations whole, in `Env._fresh` buffers.)

Nobody can see the difference: a buffer is reused only when no array
references it (as with `Env._fresh`), and it ends up holding what a rebuild
would (the crosschecks read observations against pyspiel at every step,
both when the last ones are held and when they are dropped).
"""

from __future__ import annotations

import sys
from collections import deque

import numpy as np

# Changes of the store kept, in steps and resets (stamps): an older buffer is
# rebuilt whole. A ply is usually a step and a reset (of the rows that
# finished), so a buffer two plies old is four stamps old.
DEPTH = 8
POOL = 3  # buffers kept: while there is room, one is added rather than one rebuilt
WRITE, RESTART, END = range(3)  # the kinds of logged changes


class Buffer:
    """One pooled observation: (B + 1, D) float32, row B a scratch row for the
    writes of rows that must not change; `stamp` the step it shows (None: not
    kept up) and `block` the store block it shows."""

    __slots__ = ("array", "stamp", "block")

    def __init__(self, batch_size: int, tensor_size: int):
        self.array = np.empty((batch_size + 1, tensor_size), np.float32)
        self.stamp = None
        self.block = None

    def free(self) -> bool:
        # References of a buffer nobody else holds: .array and the argument. A
        # handed out observation (a view of it) holds the array through its base.
        return sys.getrefcount(self.array) == 2


class Observations:
    """The movers' observations of one batched board game (see the module doc).

    The store is (2B + 1, D): block k is rows k * B .. k * B + B - 1, then a
    scratch row; `blank` is a store row at a game's start. The
    game calls `write` for every batch-wide store write, `restart` and `end`
    for rows starting a game (both blocks' rows blank) and ending one, and
    `read`. `stamp` is always the step the change leads to (the environment's
    stamp after it).
    """

    def __init__(self, batch_size: int, tensor_size: int, blank: np.ndarray):
        self.B, self.D = batch_size, tensor_size
        self.blank = blank.astype(np.float32)
        self.buffers: list[Buffer] = []
        self.log: deque = deque()  # (stamp, [change, ...]), oldest first
        self.counts = {"brought up": 0, "rebuilt": 0}  # reads by road (for the tests)
        self.rows_at = np.arange(batch_size) * tensor_size  # flat offset of row b
        self.scratch_at = batch_size * tensor_size  # flat offset of the scratch row
        # Flat store offset of row b of each block (to tell a row's writes from
        # the scratch row's).
        self.block_at = [self.rows_at + k * batch_size * tensor_size for k in (0, 1)]

    @property
    def nbytes(self) -> int:
        """The buffers' bytes and the logged changes' arrays'."""
        arrays = {id(b.array): b.array for b in self.buffers}
        for _, changes in self.log:
            for change in changes:
                arrays.update((id(a), a) for a in change[1:] if isinstance(a, np.ndarray))
        return sum(a.nbytes for a in arrays.values())

    def _changes(self, stamp: int) -> list:
        if not self.log or self.log[-1][0] != stamp:
            self.log.append((stamp, []))
            while self.log[0][0] <= stamp - DEPTH:
                self.log.popleft()
        return self.log[-1][1]

    def write(self, stamp, base, rel, values, block, complete) -> None:
        """Log a store write into block `block`: row b wrote `values[b]` at flat
        store offsets base[b] + rel[b], base[b] row b of the block or the
        scratch row's; `complete`: no row wrote to the scratch row."""
        self._changes(stamp).append((WRITE, base, rel, values, block, complete))

    def restart(self, stamp, rows) -> None:
        """Rows whose store rows (of both blocks) were set blank."""
        self._changes(stamp).append((RESTART, rows))

    def end(self, stamp, rows) -> None:
        """Rows whose game ended (their observation is zeros until a restart)."""
        self._changes(stamp).append((END, rows))

    def read(self, stamp, store, block, terminated, finished) -> np.ndarray:
        """(B, D) float32: row b of store block `block`, zeros in finished rows."""
        B = self.B
        buf = self._pick(stamp, block)
        out = buf.array[:B]
        if buf.stamp is None:
            np.copyto(out, store[block * B : (block + 1) * B])
            if finished:
                out[terminated] = 0
            self.counts["rebuilt"] += 1
        else:
            self._catch_up(buf, stamp, terminated)
            self.counts["brought up"] += 1
        buf.stamp, buf.block = stamp, block
        return out

    def _pick(self, stamp, block) -> Buffer:
        """The newest free buffer of the block within the log's reach; else a new
        one while the pool has room, else the oldest free one, to rebuild (its
        stamp None): a recent one of the other block is the one the next read
        may want."""
        best, spare = None, None
        for buf in self.buffers:
            if not buf.free():
                continue
            if (
                buf.block == block
                and buf.stamp is not None
                and buf.stamp > stamp - DEPTH
                and (best is None or buf.stamp > best.stamp)
            ):
                best = buf
            elif (
                spare is None
                or spare.stamp is not None
                and (buf.stamp is None or buf.stamp < spare.stamp)
            ):
                spare = buf
        if best is not None:
            return best
        if spare is None or len(self.buffers) < POOL:
            spare = Buffer(self.B, self.D)
            if len(self.buffers) < POOL:
                self.buffers.append(spare)
        spare.stamp = None
        return spare

    def _catch_up(self, buf, stamp, terminated) -> None:
        """Replay into `buf`, in order, what its block received after its step:
        the writes, the restarts (blank rows); then zeros in the rows that ended
        and are still finished (rows finished all along write to the scratch row)."""
        block = buf.block
        flat = buf.array.reshape(-1)
        ended = []
        for entry_stamp, changes in self.log:
            if not buf.stamp < entry_stamp <= stamp:
                continue
            for change in changes:
                kind = change[0]
                if kind == WRITE:
                    _, base, rel, values, wblock, complete = change
                    if wblock != block:
                        continue  # the other block: no row this buffer shows
                    if complete:  # every row wrote its own row
                        target = self.rows_at
                    else:
                        at = self.block_at[block]
                        target = np.where(base == at, self.rows_at, self.scratch_at)
                    flat[target[:, None] + rel] = values
                elif kind == RESTART:
                    buf.array[change[1]] = self.blank
                else:
                    ended.append(change[1])
        for rows in ended:
            rows = rows[terminated.take(rows)]
            if len(rows):
                buf.array[rows] = 0
