"""A policy on a solve.Tree or solve.Treeplex, and its ways in and out
(docs/solving.md#policies).

A Policy is one probability per sequence (infoset, legal action), in the
tree's sequence order: what the vectorized algorithms read. It can be made
from a dense (infosets, actions) table, from OpenSpiel's TabularPolicy
(keyed by our information-state strings), from a mapping or a function over
our information-state strings, from a function over batches of
information-state tensors (called in chunks, so a neural policy is
evaluated exactly on millions of infosets without holding all their
tensors), or from a policy of OpenSpiel's own phantom_ttt or dark_hex (its
strings, or a function of its tensors and action ids); it goes out as a
TabularPolicy, so OpenSpiel's own tools check what ours computes. Every
way in refuses a wrong shape, a negative or unnormalized distribution and
mass on an illegal action, naming the infoset.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from fogboard_games.core.params import is_int
from fogboard_games.solve.tree import checked_tree

# How far an infoset's probabilities may sum from 1 (float rounding of a
# softmax or of a solver's normalization, never a real error).
TOLERANCE = 1e-6
# Infosets per call of a batch policy (Policy.from_batch): 65,536 rows of
# the boards' 129 floats are 68 MB.
CHUNK = 1 << 16


class Policy:
    """`probs[s]`: the probability of sequence s of `tree` (a solve.Tree or
    solve.Treeplex). `probs` is read-only: a treeplex keeps a policy's
    evaluation with it (one walk, however many values are asked)."""

    def __init__(self, tree, probs):
        self.tree = checked_tree(tree, "solve.Policy")
        self.probs = _checked_sequences(tree, probs)
        self.probs.flags.writeable = False

    # ---- ways in ---------------------------------------------------------------

    @classmethod
    def from_table(cls, tree, table) -> Policy:
        """From a dense (tree.num_infostates total, num_distinct_actions) table,
        rows in the tree's infoset order (seat 0's first)."""
        checked_tree(tree, "solve.Policy.from_table")
        table = np.asarray(table, dtype=np.float64)
        shape = (len(tree.infoset_seat), tree.num_actions)
        if table.shape != shape:
            raise ValueError(
                f"a policy table must have shape {shape} (infosets, actions), got {table.shape}"
            )
        _refuse_illegal_mass(tree, table, np.arange(shape[0]))
        return cls(tree, table[tree.seq_infoset, tree.seq_action])

    @classmethod
    def from_tabular(cls, tree, tabular) -> Policy:
        """From OpenSpiel's TabularPolicy of the same game (keyed by our
        information-state strings)."""
        checked_tree(tree, "solve.Policy.from_tabular")
        game = getattr(tabular, "game", None)
        lookup = getattr(tabular, "state_lookup", None)
        table = getattr(tabular, "action_probability_array", None)
        if lookup is None or table is None:
            raise ValueError(
                f"from_tabular takes an open_spiel.python.policy.TabularPolicy, got "
                f"{type(tabular).__name__}"
            )
        if game is None or str(game) != str(tree.game):
            raise ValueError(f"the tabular policy is of {game}, the tree of {tree.game}")
        table = np.asarray(table, dtype=np.float64)
        rows = np.empty(len(tree.infoset_string), dtype=np.int64)
        for i, key in enumerate(tree.infoset_string):
            row = lookup.get(key)
            if row is None:
                raise ValueError(f"the tabular policy has no row for the information state {key!r}")
            rows[i] = row
        return cls.from_table(tree, table[rows])

    @classmethod
    def from_batch(cls, tree, function, chunk: int = CHUNK) -> Policy:
        """From `function(seat, tensors, legal)`, called per seat on its
        infosets in order, at most `chunk` at a time (once per seat when it
        has no more), with their information-state tensors, shape (n, size),
        and legal masks (n, num_distinct_actions): it returns the
        (n, num_distinct_actions) probabilities, zero on illegal actions."""
        checked_tree(tree, "solve.Policy.from_batch")
        if not callable(function):
            raise TypeError(
                "solve.Policy.from_batch takes a function(seat, tensors, legal), "
                f"got {type(function).__name__}"
            )
        if not isinstance(chunk, int) or isinstance(chunk, bool) or chunk < 1:
            raise ValueError(f"chunk must be a positive int, got {chunk!r}")
        probs = np.empty(tree.num_sequences)
        for seat in range(tree.num_players):
            lo, hi = int(tree.infoset_range[seat]), int(tree.infoset_range[seat + 1])
            for start in range(lo, hi, chunk):
                ids = np.arange(start, min(start + chunk, hi))
                tensors = tree.info_state_tensors(seat, ids)
                legal = tree.legal_masks(ids)
                out = np.asarray(function(seat, tensors, legal.copy()), dtype=np.float64)
                if out.shape != legal.shape:
                    raise ValueError(
                        f"the batch policy must return shape {legal.shape} for seat {seat} "
                        f"(its infosets, actions), got {out.shape}"
                    )
                _refuse_illegal_mass(tree, out, ids)
                seqs = slice(int(tree.seq_start[ids[0]]), int(tree.seq_start[ids[-1] + 1]))
                probs[seqs] = out[tree.seq_infoset[seqs] - start, tree.seq_action[seqs]]
        return cls(tree, probs)

    @classmethod
    def from_openspiel(cls, tree, policy, chunk: int = CHUNK) -> Policy:
        """From a policy of OpenSpiel's own twin of the tree's board game
        (`phantom_ttt`, `dark_hex`), turned into ours by
        fogboard_games.boards.openspiel_map (docs/boards.md):

        - a dict {OpenSpiel information-state string: {OpenSpiel action:
          probability}} or a TabularPolicy of that game; refused, naming an
          example, where it gives two of OpenSpiel's strings of one of our
          information states different probabilities: they differ only in
          what the seat cannot know (dark_hex's string shows the ply count);
        - a function(seat, tensors, legal) as from_batch's, over OpenSpiel's
          information-state tensors, shape (n, OpenSpiel's
          information_state_tensor_size), and OpenSpiel's action ids (the
          legal masks and the returned probabilities, (n, cells)), called
          in chunks of at most `chunk` infosets; the tensors are made from
          ours (Twin.openspiel_tensors: OpenSpiel's tensor shows nothing the
          seat cannot know, so each infoset has one)."""
        checked_tree(tree, "solve.Policy.from_openspiel")
        from fogboard_games.boards.openspiel_map import Twin  # (only here: a board's twin)

        if isinstance(policy, dict) or hasattr(policy, "state_lookup"):
            return cls.from_info_states(tree, Twin(tree.game).policy_to_ours(policy))
        from open_spiel.python import policy as openspiel_policy

        if not callable(policy) or isinstance(policy, openspiel_policy.Policy):
            raise ValueError(
                "from_openspiel takes a dict {OpenSpiel information-state string: {OpenSpiel "
                "action: probability}}, an open_spiel TabularPolicy or a function(seat, "
                f"tensors, legal) over OpenSpiel's tensors and actions, got {type(policy).__name__}"
            )
        return cls.from_batch(tree, _OpenSpielBatch(tree, Twin(tree.game), policy), chunk)

    @classmethod
    def from_info_states(cls, tree, source) -> Policy:
        """From a policy over our information-state strings: `source` is a
        mapping {information-state string: probabilities} holding every
        infoset of the tree, or a function (seat, information-state string)
        returning them; the probabilities of an infoset are a mapping
        {action: probability} (absent actions 0) or one number per distinct
        action. (A policy over OpenSpiel's strings comes in through
        `from_openspiel`, which turns it into ours.)"""
        mapping = isinstance(source, Mapping)
        if not mapping and not callable(source):
            raise ValueError(
                f"from_info_states takes a mapping {{information-state string: probabilities}} "
                f"or a function (seat, information-state string) -> probabilities, got "
                f"{type(source).__name__}"
            )
        probs = np.empty(tree.num_sequences)
        strings = tree.infoset_string
        for i in range(len(tree.infoset_seat)):
            key = strings[i]
            seat = int(tree.infoset_seat[i])
            if mapping:
                if key not in source:
                    raise ValueError(f"the policy has no entry for the information state {key!r}")
                entry = source[key]
            else:
                entry = source(seat, key)
            lo, hi = int(tree.seq_start[i]), int(tree.seq_start[i + 1])
            probs[lo:hi] = _row(tree, i, key, entry)
        if mapping and len(source) > len(tree.infoset_seat):
            extra = next(
                k
                for k in source
                if not any(tree.lookup[p].get(k) is not None for p in range(tree.num_players))
            )
            raise ValueError(
                f"the policy has an entry for {extra!r}, which is no information state of a "
                f"decision of {tree.game}"
            )
        return cls(tree, probs)

    # ---- ways out --------------------------------------------------------------

    def table(self) -> np.ndarray:
        """The dense (infosets, num_distinct_actions) table, zeros off the legal actions."""
        tree = self.tree
        table = np.zeros((len(tree.infoset_seat), tree.num_actions))
        table[tree.seq_infoset, tree.seq_action] = self.probs
        return table

    def to_tabular(self):
        """An OpenSpiel TabularPolicy of the same game, holding this policy."""
        from open_spiel.python import policy as openspiel_policy

        tree = self.tree
        states = {key: tree.infoset_state(i) for i, key in enumerate(tree.infoset_string)}
        tabular = openspiel_policy.TabularPolicy(tree.game, states=states)
        table = self.table()
        for i, key in enumerate(tree.infoset_string):
            tabular.action_probability_array[tabular.state_lookup[key]] = table[i]
        return tabular

    def action_probabilities(self, seat: int, info_state: str) -> dict[int, float]:
        """{action: probability} at one of `seat`'s information states."""
        seats = self.tree.num_players
        if not is_int(seat) or not 0 <= seat < seats:
            raise ValueError(f"seat must be an int 0 to {seats - 1}, got {seat!r}")
        if not isinstance(info_state, str):
            raise TypeError(
                f"info_state is an information-state string, got {type(info_state).__name__}"
            )
        i = self.tree.lookup[seat].get(info_state)
        if i is None:
            raise ValueError(f"seat {seat} has no information state {info_state!r} in this tree")
        lo, hi = self.tree.seq_start[i], self.tree.seq_start[i + 1]
        return dict(zip(_legal(self.tree, i), self.probs[lo:hi].tolist()))

    def __repr__(self) -> str:
        return f"solve.Policy({self.tree.game}, {self.tree.num_sequences} sequences)"


class _OpenSpielBatch:
    """A function of OpenSpiel's tensors and actions as from_batch's of ours:
    each chunk's tensors made OpenSpiel's, the legal masks and the returned
    rows read through the action maps. It follows from_batch's order (each
    seat's infosets in order, chunk by chunk) to name the infoset a bad row
    belongs to, with OpenSpiel's action ids."""

    def __init__(self, tree, twin, function):
        self.tree, self.twin, self.function = tree, twin, function
        self.done = [int(tree.infoset_range[0]), int(tree.infoset_range[1])]

    def __call__(self, seat, tensors, legal):
        twin = self.twin
        first = self.done[seat]
        self.done[seat] += len(tensors)
        theirs = np.ascontiguousarray(legal[:, twin.openspiel_to_ours])
        out = self.function(seat, twin.openspiel_tensors(seat, tensors), theirs.copy())
        out = np.asarray(out, dtype=np.float64)
        if out.shape != theirs.shape:
            raise ValueError(
                f"the function must return shape {theirs.shape} for seat {seat} (its "
                f"infosets, OpenSpiel's actions), got {out.shape}"
            )
        off = (out != 0) & ~theirs
        if off.any():
            row = int(np.flatnonzero(off.any(axis=1))[0])
            raise ValueError(
                f"the function puts mass on OpenSpiel's actions {np.flatnonzero(off[row]).tolist()}"
                f", illegal at the information state {self.tree.infoset_string[first + row]!r} "
                f"(legal: {np.flatnonzero(theirs[row]).tolist()})"
            )
        return out[:, twin.ours_to_openspiel]


def uniform(tree) -> Policy:
    """Every legal action equally likely at every infoset."""
    checked_tree(tree, "solve.uniform")
    widths = np.diff(tree.seq_start)
    return Policy(tree, 1.0 / widths[tree.seq_infoset])


def checked_policy(tree, policy, where: str) -> Policy:
    """`policy` if it is a solve.Policy of the solve.Tree `tree`; else TypeError
    (not a tree, not a policy) or ValueError (a policy of another tree)."""
    checked_tree(tree, where)
    if not isinstance(policy, Policy):
        raise TypeError(
            f"{where} takes a solve.Policy of the tree (solve.uniform(tree), a solver's "
            f"average_policy()), got {type(policy).__name__}"
        )
    if policy.tree is not tree:
        raise ValueError("the policy is of another tree (build it on this one)")
    return policy


def _legal(tree, infoset: int) -> list[int]:
    """The legal actions of `infoset`, in order: its sequences' actions."""
    lo, hi = int(tree.seq_start[infoset]), int(tree.seq_start[infoset + 1])
    return tree.seq_action[lo:hi].tolist()


def _row(tree, infoset: int, key: str, entry) -> np.ndarray:
    """An infoset's probabilities of its legal actions, from `entry` (a
    mapping {action: probability} or one number per distinct action)."""
    legal = _legal(tree, infoset)
    if isinstance(entry, Mapping):
        illegal = sorted(set(entry) - set(legal), key=str)
        if any(entry[a] != 0 for a in illegal):
            raise ValueError(
                f"the policy puts mass on illegal actions {illegal} at the information "
                f"state {key!r} (legal: {legal})"
            )
        return np.array([entry.get(a, 0.0) for a in legal], dtype=np.float64)
    row = np.asarray(entry, dtype=np.float64)
    if row.shape != (tree.num_actions,):
        raise ValueError(
            f"the probabilities of {key!r} must be a mapping {{action: probability}} or "
            f"{tree.num_actions} numbers, got shape {row.shape}"
        )
    _refuse_illegal_mass(tree, row[None], np.array([infoset]))
    return row[legal]


def _refuse_illegal_mass(tree, table, infosets) -> None:
    off = np.where(tree.legal_masks(infosets), 0.0, np.abs(table))
    if np.any(off != 0):
        i = int(np.flatnonzero(off.any(axis=1))[0])
        actions = np.flatnonzero(off[i]).tolist()
        raise ValueError(
            f"the policy puts mass on illegal actions {actions} at the information state "
            f"{tree.infoset_string[infosets[i]]!r} (legal: {_legal(tree, int(infosets[i]))})"
        )


def _checked_sequences(tree, probs) -> np.ndarray:
    probs = np.array(probs, dtype=np.float64)
    if probs.shape != (tree.num_sequences,):
        raise ValueError(
            f"a policy is one probability per sequence, shape ({tree.num_sequences},); "
            f"got {probs.shape}"
        )
    if not np.all(np.isfinite(probs)) or np.any(probs < 0):
        s = int(np.flatnonzero(~(np.isfinite(probs) & (probs >= 0)))[0])
        raise ValueError(
            f"probabilities must be finite and >= 0; got {probs[s]} at the information "
            f"state {tree.infoset_string[tree.seq_infoset[s]]!r}"
        )
    sums = np.add.reduceat(probs, tree.seq_start[:-1]) if len(probs) else probs
    off = np.abs(sums - 1) > TOLERANCE
    if np.any(off):
        i = int(np.flatnonzero(off)[0])
        raise ValueError(
            f"each information state's probabilities must sum to 1; they sum to {sums[i]} "
            f"at {tree.infoset_string[i]!r}"
        )
    return probs
