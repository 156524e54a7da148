"""The whole game tree of a small game as flat numpy arrays (docs/solving.md#the-tree).

The tree is walked once, depth first, through the contract (match.copy,
play, options, odds, the encoder's information-state string), never through
pyspiel: the walk appends to plain lists and interns each seat's strings into
ids with one dict, and everything becomes numpy once at the end; a ruleset
whose tree factors lays the same raw arrays out itself, through its
`tree_arrays` hook (docs/solving.md#the-factored-road). The nodes
are then renumbered level by level (stable, so each parent's children stay
contiguous and in order), which lets the solvers (solve.algorithms) run a
whole level as one numpy operation; the arrays hold nothing per-node that a
later streaming traversal could not also produce.
"""

from __future__ import annotations

import gc
import itertools
import math
import random
import sys

import numpy as np
import pyspiel

from fogboard_games.core.contract import CHANCE, TERMINAL
from fogboard_games.solve.treeplex import Treeplex  # (which imports no solve module: no cycle)

# What a node costs while the tree is built (the walk's Python lists, the
# string dicts) and after (the arrays), measured on liars-dice-classic-1 and
# rounded up: the estimate a too-big game is refused with.
BUILD_BYTES_PER_NODE = 200
# The default memory bound of a tree: 4 GiB while it is built.
MAX_BYTES = 4 * 2**30
# Random root-to-end probes of the size estimate (Knuth's estimator).
PROBES = 1024

DECISION, CHANCE_NODE, END = 0, 1, 2  # `kind` of a node


def checked_tree(tree, where: str) -> Tree:
    """`tree` if it is a solve.Tree or solve.Treeplex, else TypeError naming `where` and what it
    takes: the one check of every solver, policy and value function, which
    would otherwise fail deep inside on a missing array (AttributeError)."""
    if not isinstance(tree, (Tree, Treeplex)):
        raise TypeError(
            f"{where} takes a solve.Tree (solve.Tree(fogboard_games.load(preset))) or, for a "
            f"two-player board, a solve.Treeplex, got {type(tree).__name__}"
        )
    return tree


def estimate_histories(game, probes: int = PROBES, seed: int = 0) -> float:
    """An unbiased estimate of the number of histories (Knuth 1975): each
    random path from the root counts, at every depth, the product of the
    branching factors along it; the mean over paths estimates the nodes."""
    rng = random.Random(seed)
    root = game.new_initial_state().writable_truth()
    total = 0.0
    for _ in range(probes):
        m, weight, count = root, 1.0, 1.0
        while m.mover != TERMINAL:
            options = m.options
            weight *= len(options)
            count += weight
            c = m.copy()
            c.play(options[rng.randrange(len(options))])
            m = c
        total += count
    return total / probes  # (inf for a game past a float's range)


def _count(x: float) -> str:
    return f"about {x:.3g}" if math.isfinite(x) else "more than 1e308"


def _ints(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=np.int64)


def _depths(parent: np.ndarray) -> np.ndarray:
    """Each node's count of ancestors, from its parent (-1 at the root)."""
    depth = np.zeros(len(parent), dtype=np.int32)
    up = parent.copy()
    while True:
        alive = up >= 0
        if not alive.any():
            return depth
        depth += alive
        up = np.where(alive, parent[np.maximum(up, 0)], -1)


class Tree:
    """The full tree of a game of ours (a pyspiel game loaded from the
    registry), as arrays; see docs/solving.md#the-tree for each array.

    `max_bytes` bounds the memory the build may take: a game whose estimated
    size needs more is refused (ValueError) with the estimate, before the
    walk, and a walk that passes the bound anyway stops with the count so far.
    A ruleset whose tree factors lays its arrays out itself (its `tree_arrays`
    hook, docs/solving.md#the-factored-road; `road` says which built the
    tree); `factored=False` walks it anyway.
    """

    def __init__(self, game, max_bytes: int = MAX_BYTES, factored: bool = True):
        ruleset = getattr(type(game), "ruleset", None)
        if ruleset is None or not isinstance(game, pyspiel.Game):
            raise ValueError(
                f"solve.Tree takes a fogboard game (fogboard_games.load(preset)), "
                f"got {type(game).__name__}"
            )
        params = game.get_parameters()
        if params.get("imperfect_recall"):
            raise ValueError(
                f"solve.Tree needs perfect recall (CFR and the sequence-form best "
                f"response assume it); {game} has imperfect_recall=true"
            )
        if not isinstance(max_bytes, int) or max_bytes <= 0:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        if not isinstance(factored, bool):
            raise ValueError(f"factored must be True or False, got {factored!r}")
        self.game = game
        self.num_players = game.num_players()
        self.num_actions = game.num_distinct_actions()
        self.estimate = estimate_histories(game)
        limit = max_bytes // BUILD_BYTES_PER_NODE
        if self.estimate > limit:
            raise ValueError(
                f"{game}: {_count(self.estimate)} histories (estimated from "
                f"{PROBES} random paths), {_count(self.estimate * BUILD_BYTES_PER_NODE / 2**30)} GiB "
                f"to build; the bound is {max_bytes / 2**30:.1f} GiB ({limit:.3g} histories): "
                f"pass a larger max_bytes to build it anyway"
            )
        self._build(limit, factored)

    # ---- the walk --------------------------------------------------------------

    def _build(self, limit: int, factored: bool) -> None:
        """The tree's raw arrays from the ruleset's `tree_arrays` hook where it
        has one and the game factors (unless `factored` is false), else from
        the walk; then the arrays."""
        game = self.game
        hook = type(game).ruleset.tree_arrays if factored else None
        raw = None
        if hook is not None:
            try:
                raw = hook(game.setup, limit)
            except ValueError as refusal:
                raise ValueError(f"{game}: {refusal}") from None
        self.road = "walk" if raw is None else "factored"
        self._arrays(self._walk(limit) if raw is None else raw)

    def _walk(self, limit: int) -> dict:
        """The raw arrays by one depth-first walk through the contract."""
        game = self.game
        info_string = game.setup.encoder.info_state_string
        # Per node, three appends: its code (an infoset id at a decision,
        # CHANCE, TERMINAL), its parent and the action leading to it; the
        # depth and the place among the siblings follow from the parents.
        code: list[int] = []
        parent_of: list[int] = []
        action_of: list[int] = []
        chance_edges: list[tuple[int, float]] = []  # (child, probability)
        utilities: list[float] = []  # each end's returns, in order of the ends
        ids: list[dict[str, int]] = [{} for _ in range(self.num_players)]
        strings: list[str] = []
        seat_of: list[int] = []
        legal: list[tuple] = []
        first_node: list[int] = []  # an infoset's first node (a representative)
        add_code, add_parent, add_action = code.append, parent_of.append, action_of.append

        # The last child is played on the match itself, which nothing needs
        # afterwards: one copy fewer per inner node.
        def visit(m, parent, action):
            n = len(code)
            add_parent(parent)
            add_action(action)
            mover = m.mover
            if mover == TERMINAL:
                add_code(TERMINAL)
                utilities.extend(m.returns())
                return
            if mover == CHANCE:
                add_code(CHANCE)
                odds = m.odds
                for a, p in odds[:-1]:
                    c = m.copy()
                    c.play(a)
                    chance_edges.append((len(code), p))
                    visit(c, n, a)
                a, p = odds[-1]
                m.play(a)
                chance_edges.append((len(code), p))
                visit(m, n, a)
                return
            if n >= limit:  # (checked at decisions: only they make the tree wide)
                raise ValueError(
                    f"{game}: more than {limit:.3g} histories (the estimate was "
                    f"{self.estimate:.3g}): beyond the memory bound; pass a larger max_bytes"
                )
            options = m.options
            key = info_string(m, mover)
            seat_ids = ids[mover]
            infoset = seat_ids.get(key)
            if infoset is None:
                infoset = seat_ids[key] = len(strings)
                strings.append(key)
                seat_of.append(mover)
                legal.append(tuple(options))  # (a copy: playing may change the list)
                first_node.append(n)
            add_code(infoset)
            last = options[-1]
            for a in options[:-1]:
                c = m.copy()
                c.play(a)
                visit(c, n, a)
            m.play(last)
            visit(m, n, last)

        rejoin = sys.getrecursionlimit()
        sys.setrecursionlimit(max(rejoin, 4 * game.max_game_length() + 100))
        # The walk makes a match per node and frees it at once: the cyclic
        # collector would only rescan the growing lists, again and again.
        collecting = gc.isenabled()
        gc.disable()
        try:
            visit(game.new_initial_state().writable_truth(), -1, -1)
        finally:
            sys.setrecursionlimit(rejoin)
            visit = None  # (the closure refers to itself: break the cycle)
            if collecting:
                gc.enable()
        n = len(code)
        prob = np.ones(n, dtype=np.float64)
        if chance_edges:
            child, p = zip(*chance_edges)
            prob[np.array(child, dtype=np.int64)] = p
        return {
            "code": _ints(code),
            "parent": _ints(parent_of),
            "action": _ints(action_of),
            "chance_prob": prob,
            "utility": np.array(utilities, dtype=np.float64).reshape(-1, self.num_players),
            "infoset_seat": np.array(seat_of, dtype=np.int64),
            "infoset_legal": legal,
            "infoset_node": _ints(first_node),
            "infoset_string": strings,
        }

    # ---- the arrays ------------------------------------------------------------

    def _arrays(self, raw: dict) -> None:
        """The tree's arrays from the raw ones, in depth-first order (see
        docs/solving.md#the-factored-road for what each holds)."""
        players = self.num_players
        old_code = raw["code"]
        old_parent = raw["parent"]
        n = len(old_code)
        self.num_histories = n
        depth = raw.get("depth")
        if depth is None:
            depth = _depths(old_parent)
        # Level by level; stable, so a parent's children stay contiguous and
        # in order, and the parents of a level in the order of their children.
        order = np.argsort(depth.astype(np.uint16 if depth.max() < 2**16 else np.int64),
                           kind="stable")  # fmt: skip
        new_index = np.empty_like(order)
        new_index[order] = np.arange(n)
        self.depth = depth[order].astype(np.int32)
        parent = old_parent[order]
        self.parent = np.where(parent >= 0, new_index[np.maximum(parent, 0)], -1)
        self.action = raw["action"][order]
        self.chance_prob = raw["chance_prob"][order]  # 1.0 on an edge from a decision
        old_code = old_code[order]
        # Infosets grouped by seat (seat 0's first), each keeping its order of
        # first visit, so a seat's sequences are one contiguous range.
        seat = raw["infoset_seat"].astype(np.int32)
        by_seat = np.argsort(seat, kind="stable")
        infoset_index = np.empty(len(by_seat), dtype=np.int64)
        infoset_index[by_seat] = np.arange(len(by_seat))
        decision = old_code >= 0
        self.infoset = np.where(decision, infoset_index[np.maximum(old_code, 0)], -1)
        self.infoset_seat = seat[by_seat]
        self.player = np.where(decision, self.infoset_seat[np.maximum(self.infoset, 0)], old_code)
        self.player = self.player.astype(np.int32)  # a seat, CHANCE (-1) or TERMINAL (-4)
        self.kind = np.where(decision, DECISION, np.where(old_code == CHANCE, CHANCE_NODE, END))
        self.kind = self.kind.astype(np.int8)
        strings = raw.get("infoset_string")
        self._strings = None if strings is None else [strings[i] for i in by_seat]
        self._lookup = None
        legal = raw["infoset_legal"]
        self.infoset_legal = [legal[i] for i in by_seat]
        self.infoset_node = new_index[raw["infoset_node"][by_seat]]
        self.num_infostates = [int(np.sum(seat == p)) for p in range(players)]
        self.infoset_range = np.concatenate([[0], np.cumsum(self.num_infostates)]).astype(np.int64)
        # Sequences: (infoset, action) pairs, an infoset's in a row.
        widths = np.fromiter(map(len, self.infoset_legal), dtype=np.int64, count=len(by_seat))
        self.seq_start = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
        self.num_sequences = int(self.seq_start[-1])
        self.seq_infoset = np.repeat(np.arange(len(widths)), widths)
        self.seq_action = np.fromiter(
            itertools.chain.from_iterable(self.infoset_legal),
            dtype=np.int64,
            count=self.num_sequences,
        )
        self.seat_seq_range = self.seq_start[self.infoset_range]
        self.legal_mask = np.zeros((len(widths), self.num_actions), dtype=bool)
        self.legal_mask[self.seq_infoset, self.seq_action] = True
        # Each edge: the parent's mover, and the sequence it plays or its odds.
        # A child's place among its siblings: its distance from the first of them.
        index = np.arange(n)
        first = np.r_[True, self.parent[1:] != self.parent[:-1]]
        slot = index - np.maximum.accumulate(np.where(first, index, 0))
        parent_safe = np.maximum(self.parent, 0)
        has_parent = self.parent >= 0
        self.parent_player = np.where(has_parent, self.player[parent_safe], TERMINAL)
        self.parent_player = self.parent_player.astype(np.int32)
        self.edge_seq = np.where(
            has_parent & (self.parent_player >= 0),
            self.seq_start[np.maximum(self.infoset[parent_safe], 0)] + slot,
            -1,
        )
        self.decision_edges = np.flatnonzero(self.edge_seq >= 0)
        self.decision_edge_seq = self.edge_seq[self.decision_edges]
        self.seat_edges = [np.flatnonzero(self.parent_player == p) for p in range(players)]
        self._check_legal(slot, widths)
        # The ends, in node order, with their returns (the rows come in
        # depth-first order: each end's row is its rank among the ends there).
        end = raw["code"] == TERMINAL
        row = np.cumsum(end) - 1
        self.ends = np.flatnonzero(end[order])
        self.utility = np.asarray(raw["utility"], dtype=np.float64).reshape(-1, players)
        self.utility = self.utility[row[order[self.ends]]]
        self._levels()

    def _check_legal(self, slot, widths) -> None:
        """Every history of an infoset has the infoset's legal actions (those
        of its first history), checked here for all at once rather than in
        the walk: each child's action is the infoset's at its place, and each
        decision has as many children as the infoset has actions."""
        edges = np.flatnonzero(self.edge_seq >= 0)
        parents = self.parent[edges]
        infoset = self.infoset[parents]
        children = np.bincount(parents, minlength=self.num_histories)
        decisions = np.flatnonzero(self.kind == DECISION)
        wrong = np.zeros(self.num_histories, dtype=bool)
        wrong[decisions] = children[decisions] != widths[self.infoset[decisions]]
        inside = slot[edges] < widths[infoset]
        seq = np.minimum(self.edge_seq[edges], self.num_sequences - 1)
        bad_edge = ~inside | (self.seq_action[seq] != self.action[edges])
        wrong[parents[bad_edge]] = True
        if wrong.any():
            node = int(np.flatnonzero(wrong)[0])
            key = self.infoset_string[self.infoset[node]]
            raise ValueError(
                f"{self.game}: two histories share the information state {key!r} but "
                f"not the legal actions: the tree needs a game whose seats see "
                f"their own legal actions"
            )

    def _levels(self) -> None:
        """Each level's node range and how its nodes' children group into it."""
        starts = np.searchsorted(self.depth, np.arange(int(self.depth[-1]) + 2))
        self.level_start = starts
        self.levels = []  # (first, stop, parents with children, segment starts) per level
        for d in range(len(starts) - 1):
            first, stop = int(starts[d]), int(starts[d + 1])
            if d + 1 < len(starts) - 1:
                children = self.parent[stop : int(starts[d + 2])]
                cut = np.flatnonzero(np.diff(children)) + 1
                segments = np.concatenate([[0], cut])
                parents = children[segments]
            else:
                segments = parents = np.zeros(0, dtype=np.int64)
            self.levels.append((first, stop, parents, segments))
        # Each node's last own sequence per seat before it (-1: none), the
        # sequence form's anchor: perfect recall makes it one per infoset.
        last = np.full((self.num_histories, self.num_players), -1, dtype=np.int64)
        for first, stop, _, _ in self.levels[1:]:
            span = slice(first, stop)
            last[span] = last[self.parent[span]]
            mover = self.parent_player[span]
            own = mover >= 0
            rows = np.flatnonzero(own) + first
            last[rows, mover[own]] = self.edge_seq[span][own]
        decisions = np.flatnonzero(self.kind == DECISION)
        anchor = last[decisions, self.player[decisions]]
        infoset = self.infoset[decisions]
        self.infoset_parent_seq = np.full(len(self.infoset_seat), -1, dtype=np.int64)
        self.infoset_parent_seq[infoset] = anchor
        if np.any(self.infoset_parent_seq[infoset] != anchor):
            bad = infoset[np.flatnonzero(self.infoset_parent_seq[infoset] != anchor)[0]]
            raise ValueError(
                f"{self.game}: the information state {self.infoset_string[bad]!r} is reached "
                f"after different own moves: the game lacks perfect recall, which the solvers need"
            )
        self.end_last_seq = last[self.ends]  # (ends, seats)

    # ---- what it holds -------------------------------------------------------

    @property
    def infoset_string(self) -> list[str]:
        """Each infoset's information-state string, in the tree's order. The
        walk keeps them as it meets them; a tree laid out by its ruleset's
        hook computes them on first use, through the encoder, at each
        infoset's first history (`infoset_node`)."""
        if self._strings is None:
            self._strings = self._representative_strings()
        return self._strings

    @property
    def lookup(self) -> list[dict[str, int]]:
        """Per seat, {information-state string: infoset id}."""
        if self._lookup is None:
            strings = self.infoset_string
            self._lookup = [
                {strings[i]: i for i in range(self.infoset_range[p], self.infoset_range[p + 1])}
                for p in range(self.num_players)
            ]
        return self._lookup

    def _representative_strings(self) -> list[str]:
        """Each infoset's string at its first history, replayed through the
        contract: the histories are taken in lexicographic order, so a
        history shares its prefix's matches with the one before it (each
        node on the way played once, not once per infoset below it)."""
        info_string = self.game.setup.encoder.info_state_string
        nodes = self.infoset_node
        if len(nodes) == 0:
            return []
        lengths = self.depth[nodes].astype(np.int64)
        width = int(lengths.max())
        # paths[i, j]: the action at depth j + 1 on the way to infoset i's node.
        paths = np.full((len(nodes), width), -1, dtype=np.int64)
        at, rows = nodes.copy(), np.arange(len(nodes))
        for step in range(width):
            climbing = lengths > step
            paths[rows[climbing], lengths[climbing] - step - 1] = self.action[at[climbing]]
            at = np.where(climbing, self.parent[at], at)
        order = np.lexsort(paths.T[::-1]) if width else rows
        same = paths[order[1:]] == paths[order[:-1]]
        shared = np.minimum(np.cumprod(same, axis=1).sum(axis=1), lengths[order[:-1]])
        keep = np.concatenate([[0], shared]).tolist()
        strings = [""] * len(nodes)
        stack = [self.game.new_initial_state().writable_truth()]  # stack[j]: after j actions
        seats = self.infoset_seat
        for i, kept in zip(order.tolist(), keep):
            del stack[kept + 1 :]
            m = stack[-1]
            for a in paths[i, kept : lengths[i]].tolist():
                m = m.copy()
                m.play(a)
                stack.append(m)
            strings[i] = info_string(stack[lengths[i]], int(seats[i]))
        return strings

    @property
    def nbytes(self) -> int:
        """The bytes the tree's arrays hold (the strings and dicts not counted)."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray)) + sum(
            a.nbytes for level in self.levels for a in level[2:]
        )

    def history(self, node: int) -> list[int]:
        """The actions (chance outcomes included) from the root to `node`."""
        actions = []
        while self.parent[node] >= 0:
            actions.append(int(self.action[node]))
            node = int(self.parent[node])
        return actions[::-1]

    def info_state_tensors(self, seat: int, infosets=None) -> np.ndarray:
        """The information-state tensors of `infosets` (ids of `seat`'s;
        default all of them), one row each, from each one's first history
        replayed through the contract (a representative: perfect recall
        gives every history of an infoset the same tensor)."""
        encoder = self.game.setup.encoder
        root = self.game.new_initial_state().writable_truth()
        lo, hi = self.infoset_range[seat], self.infoset_range[seat + 1]
        ids = np.arange(lo, hi) if infosets is None else np.asarray(infosets, dtype=np.int64)
        if len(ids) and (ids.min() < lo or ids.max() >= hi):
            raise ValueError(f"infosets must be seat {seat}'s, ids {lo} to {hi - 1}")
        rows = np.zeros((len(ids), self.game.information_state_tensor_size()))
        for row, node in enumerate(self.infoset_node[ids]):
            m = root.copy()
            for a in self.history(int(node)):
                m.play(a)
            rows[row] = encoder.info_state_tensor(m, seat)
        return rows

    def legal_masks(self, infosets) -> np.ndarray:
        """The legal masks of `infosets` (ids), (len, num_distinct_actions) bool."""
        return self.legal_mask[infosets]

    def infoset_state(self, infoset: int):
        """A pyspiel state at the first history of `infoset`."""
        return self.state(int(self.infoset_node[infoset]))

    def own_levels(self, seat: int) -> list[np.ndarray]:
        """`seat`'s infosets by how many own moves lead to them, deepest first
        (the order a best response takes them in), as infoset ids."""
        lo, hi = int(self.infoset_range[seat]), int(self.infoset_range[seat + 1])
        parent_seq = self.infoset_parent_seq[lo:hi]
        own_depth = np.zeros(hi - lo, dtype=np.int64)
        # Infosets are numbered in order of first visit, depth first: a parent
        # sequence's infoset comes before the infosets it leads to.
        above = np.where(parent_seq >= 0, self.seq_infoset[np.maximum(parent_seq, 0)] - lo, -1)
        for j in range(hi - lo):
            if above[j] >= 0:
                own_depth[j] = own_depth[above[j]] + 1
        return [
            np.flatnonzero(own_depth == d) + lo
            for d in range(int(own_depth.max(initial=0)), -1, -1)
        ]

    def state(self, node: int):
        """A pyspiel state of the game at `node` (replayed from the root)."""
        state = self.game.new_initial_state()
        for a in self.history(node):
            state.apply_action(a)
        return state

    def __repr__(self) -> str:
        return (
            f"solve.Tree({self.game}: {self.num_histories} histories, "
            f"infostates {self.num_infostates}, {self.num_sequences} sequences)"
        )
