"""One uniformly random legal action per row of a legal mask, vectorized:
the random batched bot's draw, and the environment's own when it probes
what a row takes (env.py), so it sits below both."""

from __future__ import annotations

import functools

import numpy as np

# Above this many actions the draw finds a row's action block by block (see
# random_actions); at or below it the running count over single actions costs less.
RUNNING_COUNT_UP_TO = 48
BYTE_WEIGHTS = (1 << np.arange(8)).astype(np.uint8)  # bit i of a byte, to pack 8 bools


def _nth_bit_table() -> np.ndarray:
    """table[byte << 3 | r]: the place (0..7, low bit first) of the byte's
    (r + 1)-th set bit; 7 where it has no such bit."""
    table = np.full((256, 8), 7, np.int64)
    for byte in range(256):
        ones = [i for i in range(8) if byte >> i & 1]
        table[byte, : len(ones)] = ones
    table = table.reshape(-1)
    table.flags.writeable = False
    return table


NTH_BIT = _nth_bit_table()


@functools.cache
def _row_index(batch: int) -> np.ndarray:
    rows = np.arange(batch)
    rows.flags.writeable = False  # (shared by every call)
    return rows


def random_actions(rng, mask):
    """One uniformly random legal action per row of a (B, A) mask, vectorized.

    Row b with c legal actions draws k = floor(u * c), u uniform in [0, 1)
    (one float64 per row: uniform over the c actions up to float64 rounding,
    a bias below 1e-15, and k < c always), and plays its (k + 1)-th legal
    action. Rows with no legal action get A - 1. The work runs along the
    mask's transposed (A, B) layout, the one `fogboard_games.batch` hands
    out, across rows in memory order (docs/batch.md#speed):

    - up to RUNNING_COUNT_UP_TO actions, the running count of legal actions
      (A - 1 additions over rows), and the number of actions whose count is
      still at most k;
    - above, the actions in blocks of 8, each a byte of bits per row (one
      einsum over the mask), their counts (popcount) and running counts
      (one addition a block), the block holding the (k + 1)-th legal action
      (the blocks whose running count is at most k), and in its byte the
      place of the right set bit from a table: a fixed number of calls
      over small arrays rather than A calls over the mask.

    Both pick the same action from the same u, so a seeded Generator gives
    the same draws whichever runs.
    """
    by_action = mask.T
    A, B = by_action.shape
    if A <= RUNNING_COUNT_UP_TO:
        return _by_running_count(rng, by_action.view(np.uint8))
    if not by_action.flags.c_contiguous:  # (a row-major mask: one copy)
        by_action = np.ascontiguousarray(by_action)
    count = np.uint8 if A < 256 else np.uint16
    full, rest = divmod(A, 8)
    blocks = full + (rest > 0)
    bits = by_action.view(np.uint8)
    packed = np.empty((blocks, B), np.uint8)  # bit i of packed[j, b]: action 8j + i in row b
    if full:
        block = bits[: 8 * full].reshape(full, 8, B)
        np.einsum("jib,i->jb", block, BYTE_WEIGHTS, out=packed[:full])
    if rest:
        np.einsum("ib,i->b", bits[8 * full :], BYTE_WEIGHTS[:rest], out=packed[full])
    before = np.empty((blocks + 1, B), count)  # before[j]: legal actions in blocks < j
    before[0] = 0
    np.bitwise_count(packed, out=before[1:])
    for j in range(2, blocks + 1):
        np.add(before[j], before[j - 1], out=before[j])
    u = rng.random(B)
    u *= before[blocks]
    k = u.astype(count)
    rows = _row_index(B)
    # The block: how many blocks end at or before the (k + 1)-th legal action.
    passed = np.less_equal(before[1:blocks], k)
    j = np.add.reduce(passed.view(np.uint8), axis=0, dtype=count).astype(np.int64)
    at = j * B
    at += rows
    k -= before.reshape(-1).take(at)  # the legal actions to pass inside block j
    key = packed.reshape(-1).take(at).astype(np.int64)
    key <<= 3
    key |= k
    picked = NTH_BIT.take(key)
    j <<= 3
    picked += j
    if rest:  # (a row with no legal action: past the last action, so A - 1)
        np.minimum(picked, A - 1, out=picked)
    return picked


def _by_running_count(rng, by_action):
    """random_actions on a narrow (A, B) uint8 mask: the (k + 1)-th legal
    action is the number of actions whose running count is still at most k."""
    A, B = by_action.shape
    counts = np.empty((A - 1, B), np.uint8 if A < 256 else np.uint16)
    if A > 1:
        counts[0] = by_action[0]
        for i in range(1, A - 1):
            np.add(counts[i - 1], by_action[i], out=counts[i])
        total = counts[-1] + by_action[-1]
    else:
        total = by_action[0]
    k = (rng.random(B) * total).astype(counts.dtype)
    # The last action needs no count: it is chosen when all the others are passed.
    # (a new array: written over `counts` itself, the compare ran 1.5-5x slower)
    passed = np.less_equal(counts, k)
    return np.add.reduce(passed.view(np.uint8), axis=0, dtype=counts.dtype).astype(np.int64)
