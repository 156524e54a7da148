"""One uniformly random legal action per row of a legal mask, as a compiled
kernel: the random batched bot's draw, and the environment's own when it
probes what a row takes (env.py), so it sits below both."""

from __future__ import annotations

import numpy as np

from fogboard_games.jit import kernel

# Bit generators whose raw 64-bit words are what numpy's float64 uniform is
# made of (u = (word >> 11) / 2**53, checked in tests/test_batch.py):
# the draw reads their words and makes u in its kernel, the same u as
# `rng.random` (a quarter cheaper at a few thousand rows: no float array).
WORDS = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64)


def random_actions(rng, mask):
    """One uniformly random legal action per row of a (B, A) bool mask.

    Row b with c legal actions draws one float64 u from `rng` and plays its
    (floor(u * c) + 1)-th legal action: uniform over the c actions up to
    float64 rounding (a bias below 1e-15), and floor(u * c) < c always.
    Rows with no legal action get A - 1. The mask is read in place where it
    is the transposed view of an (A, B) array, as fogboard_games.batch hands
    it out (another layout is copied into that one first).
    """
    bits = rng.bit_generator
    if type(bits) in WORDS:
        u = bits.random_raw(len(mask))
    else:  # (the words that make `rng.random`'s u)
        u = (rng.random(len(mask)) * 2.0**53).astype(np.uint64) << np.uint64(11)
    # (counts in the narrowest type that holds them, from -A to A - 1: the more
    # rows a vector instruction takes, the faster the passes run)
    by_action = np.ascontiguousarray(mask.T).view(np.uint8)
    A = len(by_action)
    count = np.zeros(len(mask), np.int8 if A < 2**7 else np.int16 if A < 2**15 else np.int32)
    return _pick(by_action, u, count, np.zeros_like(count))


@kernel
def _pick(by_action, u, k, out):
    """The draw over an (A, B) mask, an action at a time across the rows (in
    memory order: a row's actions are B apart), without a branch, so the
    compiler works on many rows at once: a row's count `k` goes below zero
    at its (k + 1)-th legal action, which is then the number of actions
    passed (`out`) at a count still at or above zero."""
    A, B = by_action.shape
    for a in range(A):
        for b in range(B):
            k[b] += by_action[a, b]
    for b in range(B):
        k[b] = int((u[b] >> np.uint64(11)) * 2.0**-53 * k[b])
    for a in range(A - 1):  # (the last action is the one left when all others are passed)
        for b in range(B):
            k[b] -= by_action[a, b]
            out[b] += k[b] >= 0
    return out.astype(np.int64)
