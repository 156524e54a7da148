"""CFR and its variants, best responses, exploitability, NashConv and
expected values on a solve.Tree, vectorized level by level
(docs/solving.md#algorithms), and on a solve.Treeplex, whose histories are
walked by compiled code instead (solve.treeplex, docs/solving.md#the-3x3-boards).

No Python runs per node in an iteration: reach probabilities go forward one
level per numpy step (each node's from its parent's), values come back one
level per step (np.add.reduceat over a parent's children, which the tree
keeps contiguous), and regrets and averages are updated per sequence with
np.bincount. The schedule is OpenSpiel's (open_spiel/python/algorithms/cfr.py
and discounted_cfr.py): alternating updates seat by seat in seat order, each
seat's traversal reading the policy the previous seat's update left,
regret matching (+) after each seat, averages weighted by the seat's own
reach summed over the histories of an infoset.
"""

from __future__ import annotations

import json
import math
import numbers

import numpy as np

from fogboard_games.core.params import is_int
from fogboard_games.solve.policy import Policy, checked_policy
from fogboard_games.solve.tree import checked_tree
from fogboard_games.solve.treeplex import Treeplex

# ---- the passes over the tree --------------------------------------------------


def _edge_probs(tree, probs: np.ndarray) -> np.ndarray:
    """Each node's probability given its parent: the chance odds, or the
    policy's probability of the sequence played (1 at the root)."""
    f = tree.chance_prob.copy()
    f[tree.decision_edges] = probs[tree.decision_edge_seq]
    return f


def _forward(tree, f: np.ndarray) -> np.ndarray:
    """Reach probabilities: the product of `f` (shape (nodes,) or (nodes, k))
    from the root down."""
    reach = np.empty_like(f)
    reach[0] = 1.0
    parent = tree.parent
    for first, stop, _, _ in tree.levels[1:]:
        reach[first:stop] = reach[parent[first:stop]] * f[first:stop]
    return reach


def _backward(tree, f: np.ndarray, end_values: np.ndarray) -> np.ndarray:
    """Each node's value: the ends' values, and at every other node the
    sum over its children of f times the child's value."""
    v = np.zeros(tree.num_histories)
    v[tree.ends] = end_values
    levels = tree.levels
    for d in range(len(levels) - 2, -1, -1):
        _, stop, parents, segments = levels[d]
        if len(parents):
            children = slice(stop, levels[d + 1][1])
            v[parents] = np.add.reduceat(f[children] * v[children], segments)
    return v


def _without_seat(tree, f: np.ndarray, seat: int) -> np.ndarray:
    """`f` with `seat`'s own moves counted as 1 (the others' and chance's reach)."""
    g = f.copy()
    g[tree.seat_edges[seat]] = 1.0
    return g


# ---- values of a profile -----------------------------------------------------------


def expected_values(tree, policy) -> np.ndarray:
    """Each seat's expected return when every seat plays `policy`."""
    policy = checked_policy(tree, policy, "solve.expected_values")
    if isinstance(tree, Treeplex):
        return tree.evaluate(policy).expected_values.copy()
    reach = _forward(tree, _edge_probs(tree, policy.probs))
    return reach[tree.ends] @ tree.utility


def best_response_values(tree, policy) -> np.ndarray:
    """Each seat's value of a best response to the others' `policy`, by the
    sequence form: every end's utility, weighted by the others' and chance's
    reach, goes to the seat's last own sequence before it; the seat's
    infosets, deepest own move first, take the best of their sequences and
    add it into the sequence that leads to them."""
    policy = checked_policy(tree, policy, "solve.best_response_values")
    if isinstance(tree, Treeplex):
        return tree.evaluate(policy).best_response_values.copy()
    return np.array([_best_response(tree, policy, seat)[0] for seat in range(tree.num_players)])


def _best_response(tree, policy, seat: int) -> tuple[float, np.ndarray]:
    """`seat`'s best-response value against `policy` on a solve.Tree, and its
    choice at each of its infosets (the place among the infoset's sequences
    of the first best one)."""
    f = _edge_probs(tree, policy.probs)
    reach = _forward(tree, _without_seat(tree, f, seat))
    weighted = reach[tree.ends] * tree.utility[:, seat]
    last = tree.end_last_seq[:, seat]
    lo, hi = tree.seat_seq_range[seat], tree.seat_seq_range[seat + 1]
    inside = last >= 0
    seq_value = np.bincount(last[inside] - lo, weights=weighted[inside], minlength=hi - lo)
    root = weighted[~inside].sum()
    first_infoset = tree.infoset_range[seat]
    starts = tree.seq_start[first_infoset : tree.infoset_range[seat + 1]] - lo
    choice = np.zeros(len(starts), dtype=np.int64)
    place = np.arange(hi - lo) - starts[tree.seq_infoset[lo:hi] - first_infoset]
    seq_infoset = tree.seq_infoset[lo:hi] - first_infoset
    for level in tree.own_levels(seat):
        best_of = np.maximum.reduceat(seq_value, starts)
        best = best_of[level - first_infoset]
        # The first sequence at its infoset's best value (the same choice
        # as the treeplex's: the first of equals).
        at_best = np.where(seq_value == best_of[seq_infoset], place, hi - lo)
        choice[level - first_infoset] = np.minimum.reduceat(at_best, starts)[level - first_infoset]
        parent = tree.infoset_parent_seq[level]
        inner = parent >= 0
        np.add.at(seq_value, parent[inner] - lo, best[inner])
        root += best[~inner].sum()
    return float(root), choice


def best_response(tree, policy, seat: int) -> Policy:
    """A best response of `seat` to `policy`, as a policy: `seat` plays, at
    each of its infosets, the first of its best actions (a pure strategy
    whose value is best_response_values(tree, policy)[seat]); the other
    seats play `policy`. So it can be played against the evaluated policy."""
    policy = checked_policy(tree, policy, "solve.best_response")
    if not is_int(seat) or not 0 <= seat < tree.num_players:
        raise ValueError(f"seat must be an int from 0 to {tree.num_players - 1}, got {seat!r}")
    first, stop = int(tree.infoset_range[seat]), int(tree.infoset_range[seat + 1])
    if isinstance(tree, Treeplex):
        choice = tree.evaluate(policy).choice[first:stop]
    else:
        choice = _best_response(tree, policy, seat)[1]
    lo, hi = int(tree.seat_seq_range[seat]), int(tree.seat_seq_range[seat + 1])
    probs = policy.probs.copy()
    probs[lo:hi] = 0.0
    probs[tree.seq_start[first:stop] + choice] = 1.0
    return Policy(tree, probs)


def nash_conv(tree, policy) -> float:
    """The sum over the seats of what a best response gains over `policy`'s
    own value (any number of seats, any utility)."""
    checked_policy(tree, policy, "solve.nash_conv")
    return float(np.sum(best_response_values(tree, policy) - expected_values(tree, policy)))


def exploitability(tree, policy) -> float:
    """The mean over the two seats of a best response's value, as
    pyspiel.exploitability: for a two-player zero-sum game only (else nash_conv)."""
    checked_policy(tree, policy, "solve.exploitability")
    utility = tree.game.get_type().utility
    if tree.num_players != 2 or utility.name != "ZERO_SUM":
        raise ValueError(
            f"exploitability is for two-player zero-sum games; {tree.game} has "
            f"{tree.num_players} seats, utility {utility.name}: use solve.nash_conv"
        )
    return float(np.mean(best_response_values(tree, policy)))


# ---- the solvers ---------------------------------------------------------------


class _Solver:
    """The loop every variant shares: seat by seat, the counterfactual
    values under the current policy, the regret update, the policy's new
    regret matching, the average's weighted addition."""

    regret_plus = False  # regret matching+: regrets below 0 reset to 0

    def __init__(self, tree):
        self.tree = checked_tree(tree, f"solve.{type(self).__name__}")
        self.iteration = 0
        self.regret = np.zeros(tree.num_sequences)
        self.cumulative = np.zeros(tree.num_sequences)
        self.current = _regret_matching(tree, self.regret, slice(0, tree.num_sequences))
        self.streamed = isinstance(tree, Treeplex)
        if not self.streamed:
            self._seat = [_SeatIndex(tree, seat) for seat in range(tree.num_players)]
        self._edges = None  # each node's probability given its parent, under `current`

    def run(self, iterations: int) -> _Solver:
        if not is_int(iterations) or iterations < 0:
            raise ValueError(f"iterations must be an int >= 0, got {iterations!r}")
        for _ in range(iterations):
            self.iterate()
        return self

    def iterate(self) -> None:
        tree = self.tree
        arrays = (self.regret, self.cumulative, self.current)
        # A treeplex's walk takes minutes on a 3x3 board: one stopped by
        # Ctrl-C during seat 1's leaves the solver as it was before the iteration.
        first = slice(0, int(tree.seat_seq_range[1]))
        kept = [a[first].copy() for a in arrays] if self.streamed else None
        self.iteration += 1
        try:
            for seat in range(tree.num_players):
                lo, hi = int(tree.seat_seq_range[seat]), int(tree.seat_seq_range[seat + 1])
                sequences = slice(lo, hi)
                regret, contribution = self._regrets(seat)
                self._update(sequences, regret, contribution)
                self._match(seat, sequences)
        except BaseException:
            if kept is not None:
                self.iteration -= 1
                for a, old in zip(arrays, kept):
                    a[first] = old
            raise

    def _regrets(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        """`seat`'s regrets this iteration under the current policy (each of
        its sequences' counterfactual value minus its infoset's), and what
        its average gains (the current probability times the seat's own reach
        summed over the infoset's histories; on a treeplex, times the reach
        once: a constant factor per infoset, which the average's
        normalization cancels)."""
        tree = self.tree
        if self.streamed:
            lo, hi = int(tree.seat_seq_range[seat]), int(tree.seat_seq_range[seat + 1])
            regret, own_reach = tree.regrets(self.current, seat)
            return regret, self.current[lo:hi] * own_reach
        if self._edges is None:
            self._edges = _edge_probs(tree, self.current)
        f = self._edges  # kept current: each seat's update rewrites its own edges
        index = self._seat[seat]
        own = index.edges
        others = f.copy()
        others[own] = 1.0
        reach = _forward(tree, others)
        v = _backward(tree, f, tree.utility[:, index.seat])
        q = np.bincount(
            index.edge_seq, weights=reach[index.edge_parent] * v[own], minlength=index.size
        )
        current = self.current[index.sequences]
        state_value = np.add.reduceat(current * q, index.starts)
        regret = q - state_value[index.seq_infoset]
        own_reach = index.own_reach(current) * index.histories
        return regret, current * own_reach[index.seq_infoset]

    def _match(self, seat: int, sequences: slice) -> None:
        """The seat's current policy: regret matching of its regrets."""
        if self.streamed:
            self.current[sequences] = _regret_matching(self.tree, self.regret, sequences)
            return
        index = self._seat[seat]
        self.current[sequences] = index.regret_matching(self.regret[sequences])
        self._edges[index.edges] = self.current[self.tree.edge_seq[index.edges]]

    def _update(self, sequences: slice, regret: np.ndarray, contribution: np.ndarray) -> None:
        self.regret[sequences] += regret
        if self.regret_plus:
            np.maximum(self.regret[sequences], 0.0, out=self.regret[sequences])
        self.cumulative[sequences] += self._weight() * contribution

    def _weight(self) -> float:
        return 1.0

    # ---- checkpoints ----------------------------------------------------------

    def _identity(self) -> dict:
        """What a checkpoint must match to be resumed by this solver."""
        tree = self.tree
        return {
            "game": str(tree.game),
            "tree": type(tree).__name__,
            "solver": type(self).__name__,
            "parameters": self._parameters(),
            "num_infostates": [int(n) for n in tree.num_infostates],
            "num_sequences": int(tree.num_sequences),
        }

    def _parameters(self) -> dict:
        return {}

    def save(self, path: str, extra: dict | None = None) -> None:
        """Write the solver's state to `path`, an .npz file (its regrets and
        average, and a JSON header: the game, solver, iteration and `extra`),
        replacing the old one whole or not at all (core.files.save_atomically).
        The current policy is not written: it is the regret matching of the
        regrets, made again on `restore`, bit for bit."""
        from fogboard_games.core import files

        header = {**self._identity(), "iteration": self.iteration, "extra": extra or {}}
        encoded = np.frombuffer(json.dumps(header).encode("utf-8"), dtype=np.uint8)

        def write(f):
            np.savez(f, header=encoded, regret=self.regret, cumulative=self.cumulative)

        files.save_atomically(path, write)

    def restore(self, path: str) -> dict:
        """Continue from the state `save` wrote to `path`: the same numbers,
        iteration after iteration, as a run never stopped. Returns its
        `extra`. ValueError, one line, for a file that is not such a
        checkpoint or one of another game, tree, solver or size."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                header = json.loads(saved["header"].tobytes().decode("utf-8"))
                regret, cumulative = saved["regret"], saved["cumulative"]
        except (OSError, ValueError, KeyError, UnicodeDecodeError) as e:
            raise ValueError(f"{path!r} is not a solver checkpoint ({e})") from None
        expected = self._identity()
        for key, value in expected.items():
            if header.get(key) != value:
                raise ValueError(
                    f"{path!r} holds a run with {key} {header.get(key)!r}, not {value!r}: "
                    f"it cannot be resumed here"
                )
        shape = (self.tree.num_sequences,)
        if (
            regret.shape != shape
            or cumulative.shape != shape
            or not is_int(header.get("iteration"))
        ):
            raise ValueError(f"{path!r} is not a solver checkpoint (its arrays are damaged)")
        self.iteration = header["iteration"]
        self.regret[:] = regret
        self.cumulative[:] = cumulative
        for seat in range(self.tree.num_players):
            lo, hi = int(self.tree.seat_seq_range[seat]), int(self.tree.seat_seq_range[seat + 1])
            self.current[lo:hi] = _regret_matching(self.tree, self.regret, slice(lo, hi))
        self._edges = None
        return header["extra"]

    def average_policy(self) -> Policy:
        """The average policy: the cumulative one normalized per infoset,
        uniform where it is all zero (as OpenSpiel's)."""
        tree = self.tree
        sums = np.add.reduceat(self.cumulative, tree.seq_start[:-1])
        widths = np.diff(tree.seq_start)
        total = sums[tree.seq_infoset]
        uniform = 1.0 / widths[tree.seq_infoset]
        probs = np.where(total > 0, self.cumulative / np.where(total > 0, total, 1.0), uniform)
        return Policy(tree, probs)

    def current_policy(self) -> Policy:
        return Policy(self.tree, self.current.copy())


class _SeatIndex:
    """One seat's index arrays, made once: its sequences, its edges, its nodes."""

    def __init__(self, tree, seat: int):
        self.seat = seat
        lo, hi = int(tree.seat_seq_range[seat]), int(tree.seat_seq_range[seat + 1])
        self.sequences = slice(lo, hi)
        self.size = hi - lo
        self.edges = tree.seat_edges[seat]
        self.edge_seq = tree.edge_seq[self.edges] - lo
        self.edge_parent = tree.parent[self.edges]
        first, last = int(tree.infoset_range[seat]), int(tree.infoset_range[seat + 1])
        self.starts = tree.seq_start[first:last] - lo
        self.seq_infoset = tree.seq_infoset[lo:hi] - first
        nodes = np.flatnonzero(tree.player == seat)
        self.histories = np.bincount(tree.infoset[nodes] - first, minlength=last - first)
        self.widths = np.diff(tree.seq_start[first : last + 1])[self.seq_infoset]
        # The seat's own reach of an infoset is the same at all its histories
        # (perfect recall): a product along its own sequences, shallowest first.
        self.levels = tree.own_levels(seat)[::-1]
        parent = tree.infoset_parent_seq[first:last]
        self.parent_seq = np.where(parent >= 0, parent - lo, -1)
        self.first = first

    def own_reach(self, current: np.ndarray) -> np.ndarray:
        """Each of the seat's infosets' own reach under its `current` sequence probabilities."""
        reach = np.ones(len(self.starts))
        seq_reach = np.empty(self.size)
        for level in self.levels:
            infosets = level - self.first
            parent = self.parent_seq[infosets]
            inner = parent >= 0
            reach[infosets[inner]] = seq_reach[parent[inner]]
            # this level's sequences: those of its infosets
            seqs = _ranges(self.starts, self.size, infosets)
            seq_reach[seqs] = reach[self.seq_infoset[seqs]] * current[seqs]
        return reach

    def regret_matching(self, regret: np.ndarray) -> np.ndarray:
        positive = np.maximum(regret, 0.0)
        total = np.add.reduceat(positive, self.starts)[self.seq_infoset]
        return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / self.widths)


def _ranges(starts: np.ndarray, size: int, infosets: np.ndarray) -> np.ndarray:
    """The sequences of `infosets` (ids local to a seat), concatenated."""
    stops = np.append(starts[1:], size)
    first, stop = starts[infosets], stops[infosets]
    widths = stop - first
    offsets = np.repeat(first - np.concatenate([[0], np.cumsum(widths)[:-1]]), widths)
    return np.arange(int(widths.sum())) + offsets


def _regret_matching(tree, regret: np.ndarray, sequences: slice) -> np.ndarray:
    """Probabilities proportional to the positive regrets, uniform where none is positive."""
    lo = sequences.start
    positive = np.maximum(regret[sequences], 0.0)
    first = np.searchsorted(tree.seq_start, lo)
    last = np.searchsorted(tree.seq_start, sequences.stop)
    starts = tree.seq_start[first:last] - lo
    seq_infoset = tree.seq_infoset[sequences] - first
    total = np.add.reduceat(positive, starts)[seq_infoset] if len(starts) else positive
    widths = np.diff(tree.seq_start[first : last + 1])[seq_infoset]
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 1.0 / widths)


class CFR(_Solver):
    """Vanilla CFR with alternating updates (OpenSpiel's CFRSolver)."""


class CFRPlus(_Solver):
    """CFR+ (OpenSpiel's CFRPlusSolver): regret matching+, alternating
    updates, the average weighted by the iteration number."""

    regret_plus = True

    def _weight(self) -> float:
        return float(self.iteration)


class DCFR(_Solver):
    """Discounted CFR(alpha, beta, gamma) as OpenSpiel's DCFRSolver: after a
    seat's update its positive regrets are scaled by t^a / (t^a + 1), its
    negative ones by t^b / (t^b + 1), and its average's addition weighted by t^g."""

    def __init__(self, tree, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0):
        super().__init__(tree)
        for name, value in (("alpha", alpha), ("beta", beta), ("gamma", gamma)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"{name} must be a number, got {type(value).__name__}")
            if not math.isfinite(value):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        self.alpha, self.beta, self.gamma = float(alpha), float(beta), float(gamma)

    def _parameters(self) -> dict:
        return {"alpha": self.alpha, "beta": self.beta, "gamma": self.gamma}

    def _update(self, sequences: slice, regret: np.ndarray, contribution: np.ndarray) -> None:
        t = float(self.iteration)
        self.cumulative[sequences] += t**self.gamma * contribution
        r = self.regret[sequences] + regret
        up, down = t**self.alpha, t**self.beta
        self.regret[sequences] = np.where(r >= 0, r * (up / (up + 1)), r * (down / (down + 1)))


class LinearCFR(DCFR):
    """Linear CFR: DCFR(1, 1, 1), as OpenSpiel's LCFRSolver."""

    def __init__(self, tree):
        super().__init__(tree, 1.0, 1.0, 1.0)
