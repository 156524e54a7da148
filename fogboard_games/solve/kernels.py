"""The compiled parts of solve.treeplex (docs/solving.md#the-3x3-boards).

Kernels over the treeplex's flat arrays: laying out a seat's infosets and
sequences from its belief states (`expand`), the depth-first walk of the
histories (`walk`), and the passes over one seat's sequences that follow
it (`realize`, `best_response`, `counterfactual`).

Numbering: a seat's infosets are in preorder (an infoset before every
infoset after its own later moves), so every pass over them is one loop,
forward (reach, from the parent sequence to the children) or backward
(values, from the children to the parent sequence). Sequence ids are
global (seat 0's, then seat 1's); the per-sequence vectors of the walk
(`x`, `v`) have two more entries at the end, seat 0's and seat 1's empty
sequence (no own move yet), so that every end has a last sequence per
seat.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.jit import kernel

PLACED, OCCUPIED = 0, 1  # (rules.PLACED, rules.OCCUPIED: the result of an attempt)

# What a walk adds up (`mode`).
COUNT, BOTH, SEAT0, SEAT1 = 0, 1, 2, 3


@kernel
def expand(
    trans,
    known,
    root,
    cells,
    first_infoset,
    first_seq,
    infoset_parent_seq,
    infoset_result,
    infoset_belief,
    infoset_depth,
    seq_start,
    seq_action,
    seq_infoset,
    child,
):
    """One seat's infosets and sequences, in preorder from its root belief
    state: infoset i gets its belief, parent sequence, the result that led to
    it and its count of own plies; its sequences (its legal cells, in order)
    their action and infoset; `child[s, r]` becomes the infoset after
    sequence s with result r (-1: the seat never moves again there).
    `trans[b, cell, r]` is the belief state after that attempt from b (-1:
    none), `known[b]` the cells the seat may not try in b. Returns the
    (infoset, sequence) counts after this seat's."""
    cap = 4 * (cells + 1) * (cells + 1)
    stack_b = np.empty(cap, np.int64)
    stack_seq = np.empty(cap, np.int64)
    stack_r = np.empty(cap, np.int64)
    stack_d = np.empty(cap, np.int64)
    stack_b[0], stack_seq[0], stack_r[0], stack_d[0] = root, -1, -1, 0
    top = 1
    i, s = first_infoset, first_seq
    while top > 0:
        top -= 1
        b, ps, r, d = stack_b[top], stack_seq[top], stack_r[top], stack_d[top]
        infoset_belief[i] = b
        infoset_parent_seq[i] = ps
        infoset_result[i] = r
        infoset_depth[i] = d
        if ps >= 0:
            child[ps, r] = i
        seq_start[i] = s
        first = s
        k = known[b]
        for a in range(cells):
            if not (k >> a) & 1:
                seq_action[s] = a
                seq_infoset[s] = i
                child[s, 0] = -1
                child[s, 1] = -1
                s += 1
        # Pushed last child first, so the first sequence's subtree comes next.
        j = s - 1
        while j >= first:
            a = seq_action[j]
            for r2 in (OCCUPIED, PLACED):
                nb = trans[b, a, r2]
                if nb >= 0:
                    stack_b[top], stack_seq[top], stack_r[top], stack_d[top] = nb, j, r2, d + 1
                    top += 1
            j -= 1
        i += 1
    seq_start[i] = s
    return i, s


@kernel
def walk(
    seq_start,
    seq_action,
    child,
    win,
    full,
    abrupt,
    stones0,
    stones1,
    cur0,
    cur1,
    last0,
    last1,
    mover,
    split,
    lo,
    hi,
    top,
    x,
    v,
    mode,
):
    """Every history below one decision, depth first, without storing one.

    A node is the true board (each seat's stones, bit masks), each seat's
    infoset of its next decision (`cur`) and last sequence (`last`), and
    the mover; the mover's infoset gives its legal attempts (its sequences)
    and `child` the infoset after each, so nothing is looked up by key. At
    every end won by the mover p (the only nonzero returns: +1 to p, -1 to
    the other seat o) it adds o's reach `x[last o]` into `v[p's sequence]`
    and minus p's reach into `v[last o]` (`mode`: BOTH, SEAT0 or SEAT1 adds
    only that seat's part, COUNT adds nothing); a draw adds nothing.

    The work is split by the decisions `split` plies below the start: this
    call walks those numbered lo..hi-1 in the walk's order (and, if `top`,
    the ends above them), so calls with disjoint ranges add disjoint parts.
    Returns the nodes this call counted (the start itself not included) and
    the number of decisions at depth `split`.
    """
    # The stack of frames above the current one, whose state is kept in
    # locals (measured: 10-15% faster than reading it from the stack arrays).
    depth = 2 * 64 + 2
    stack_k = np.empty(depth, np.int64)
    stack_end = np.empty(depth, np.int64)
    stack_stones0 = np.empty(depth, np.int64)
    stack_stones1 = np.empty(depth, np.int64)
    stack_cur0 = np.empty(depth, np.int64)
    stack_cur1 = np.empty(depth, np.int64)
    stack_last0 = np.empty(depth, np.int64)
    stack_last1 = np.empty(depth, np.int64)
    stack_mover = np.empty(depth, np.int64)
    s0, s1, c0, c1, l0, l1, m = stones0, stones1, cur0, cur1, last0, last1, mover
    start = c0 if m == 0 else c1
    k, end = seq_start[start], seq_start[start + 1]
    d = 0
    nodes = 0
    frontier = 0
    both = mode == BOTH
    while True:
        if k == end:
            if d == 0:
                break
            d -= 1
            k, end = stack_k[d], stack_end[d]
            s0, s1 = stack_stones0[d], stack_stones1[d]
            c0, c1 = stack_cur0[d], stack_cur1[d]
            l0, l1 = stack_last0[d], stack_last1[d]
            m = stack_mover[d]
            continue
        s = k
        k += 1
        bit = np.int64(1) << np.int64(seq_action[s])
        below = d + 1  # the child's depth
        counted = top or below > split  # (a decision at the split is counted below)
        if m == 0:
            own, opp, last_opp = s0, s1, l1
        else:
            own, opp, last_opp = s1, s0, l0
        if opp & bit:
            nxt = child[s, OCCUPIED]
            new_own = own
            new_mover = 1 - m if abrupt else m
        else:
            new_own = own | bit
            if win[m, new_own]:
                if counted:
                    nodes += 1
                    if mode != COUNT:
                        if both or mode == SEAT0 + m:
                            v[s] += x[last_opp]
                        if both or mode == SEAT1 - m:
                            v[last_opp] -= x[s]
                continue
            if (new_own | opp) == full:  # (tic-tac-toe's full board: a draw)
                if counted:
                    nodes += 1
                continue
            nxt = child[s, PLACED]
            new_mover = 1 - m
        if below == split:
            c = frontier
            frontier += 1
            if c < lo or c >= hi:
                if c >= hi and not top:
                    return nodes, frontier
                continue
            nodes += 1
        elif counted:
            nodes += 1
        stack_k[d], stack_end[d] = k, end
        stack_stones0[d], stack_stones1[d] = s0, s1
        stack_cur0[d], stack_cur1[d] = c0, c1
        stack_last0[d], stack_last1[d] = l0, l1
        stack_mover[d] = m
        d += 1
        if m == 0:
            s0, c0, l0 = new_own, nxt, s
        else:
            s1, c1, l1 = new_own, nxt, s
        m = new_mover
        nc = c0 if m == 0 else c1
        k, end = seq_start[nc], seq_start[nc + 1]
    return nodes, frontier


@kernel
def realize(seq_start, infoset_parent_seq, probs, first, stop, x):
    """x[s]: the product of the seat's probabilities along sequence s (its
    reach in the sequence form), for the seat's infosets first..stop-1."""
    for i in range(first, stop):
        ps = infoset_parent_seq[i]
        base = 1.0 if ps < 0 else x[ps]
        for s in range(seq_start[i], seq_start[i + 1]):
            x[s] = base * probs[s]


@kernel
def best_response(seq_start, infoset_parent_seq, q, first, stop, choice):
    """A best response over the seat's infosets first..stop-1, deepest first:
    each infoset takes its best sequence (the first of equals; its place
    among the infoset's sequences goes to `choice`) and adds its value into
    its parent sequence. `q` holds each sequence's own ends' value on entry
    and is added into; returns the sum over the seat's first infosets."""
    root = 0.0
    for i in range(stop - 1, first - 1, -1):
        lo = seq_start[i]
        best = q[lo]
        arg = 0
        for s in range(lo + 1, seq_start[i + 1]):
            if q[s] > best:
                best = q[s]
                arg = s - lo
        choice[i - first] = arg
        ps = infoset_parent_seq[i]
        if ps >= 0:
            q[ps] += best
        else:
            root += best
    return root


@kernel
def counterfactual(seq_start, infoset_parent_seq, probs, q, first, stop):
    """CFR's values over the seat's infosets first..stop-1, deepest first: a
    sequence's value is its own ends' (in `q` on entry) plus the values of
    the infosets after it; an infoset's value is its sequences' under
    `probs`. On return q[s] is the regret of s this iteration (its value
    minus its infoset's); returns the sum over the seat's first infosets."""
    root = 0.0
    for i in range(stop - 1, first - 1, -1):
        lo, hi = seq_start[i], seq_start[i + 1]
        value = 0.0
        for s in range(lo, hi):
            value += probs[s] * q[s]
        for s in range(lo, hi):
            q[s] -= value
        ps = infoset_parent_seq[i]
        if ps >= 0:
            q[ps] += value
        else:
            root += value
    return root
