"""Each seat's information sets and sequences of a board game too big for
solve.Tree, without its histories (docs/solving.md#the-3x3-boards).

Phantom tic-tac-toe and dark hex 3x3 hold about 2x10^10 histories but only
a few million infosets a seat. A seat's infoset is its own plies (the cells
it tried and their results) and nothing else, so the infosets are found
from the seat's side alone, by its *belief states*: what it knows (its
stones, the opponent stones it proved, its own ply count under the abrupt
rule) and the set of opponent stone sets consistent with what it saw (a bit
set over the 2^cells subsets). Two orders of the same plies often leave the
same belief, and everything below an infoset depends only on its belief, so
the 12 to 22 thousand beliefs of a 3x3 board (both seats'), each with the
belief after every attempt and result, give all the infosets:
`kernels.expand` lays them out in preorder. The opponent's turn, seen from the seat, is the set of every
way it can play: under the classical rule any collisions with the seat's
stones (they change nothing the seat sees) then one placement on an empty
cell that does not end the game; under the abrupt rule one ply, a placement
or, while it has collisions left (fewer than the seat's stones), a
collision.

An evaluation walks every history once in compiled code (`kernels.walk`),
split across threads by the decisions three plies down, adding up each
sequence's value; best responses, expected values and CFR's regrets are then
passes over each seat's sequences. The walk follows the rules' own win
check (`rules.dist_bits` gives the win table) and the treeplex's child
table; tests/test_treeplex.py proves both against the game on every board
solve.Tree holds and on random 3x3 histories.
"""

from __future__ import annotations

import os
import re
import threading

import numpy as np
import pyspiel

from fogboard_games.boards import rules
from fogboard_games.core.contract import TERMINAL
from fogboard_games.core.observer import INFO_STATE

# The default memory bound of a treeplex: its arrays and one evaluation.
MAX_BYTES = 8 * 2**30
# Bytes an infoset and a sequence take, built and through one evaluation
# with `workers` threads (each with its own values): the arrays below, and
# at most about three sequence vectors more while a policy is made and
# checked (the uniform policy's widths, the policy's copy, its sums).
INFOSET_BYTES = (
    8 + 4 + 4 + 1 + 1 + 1 + 8 + 1
)  # seq_start, parent, belief, result, depth, seat, sums, choice
SEQUENCE_BYTES = 1 + 4 + 8 + 8 + 8 + 3 * 8  # action, infoset, child, policy, reach, temporaries
VALUE_BYTES = 8  # a sequence's value, per worker
# Boards of at most this many cells (the belief sets are bit sets over the
# 2^cells opponent stone sets; 3x3 needs 9, beyond 12 nothing fits anyway).
MAX_CELLS = 12
MAX_BELIEFS = 2_000_000
# The walk is split by the decisions this many plies below the root.
SPLIT = 3
# Rows of information-state tensors made at once (Policy.from_batch).
CHUNK = 1 << 16
# From this many sequences on, an evaluation shows a progress bar.
PROGRESS_FROM = 1_000_000

GAMES = ("fogboard_phantom_ttt", "fogboard_dark_hex")
LOG_ENTRY = re.compile(r" (\d+)\.(\S+) (placed|occupied)")


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on Linux)
        return max(1, os.cpu_count() or 1)


def _bitset(flags: np.ndarray) -> int:
    """A Python int with bit i set where flags[i] is true."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


class Beliefs:
    """A seat's belief states of one board game, both seats', with every
    transition (see the module docstring).

    Per belief b: `seat[b]`, `own[b]` (the seat's stones, a cell mask),
    `proven[b]` (the opponent stones it proved), `worlds[b]` (a Python int:
    bit S set for every opponent stone set S it cannot rule out) and
    `trans[b][cell][result]`, the belief after trying `cell` with that
    result (-1: the seat never moves again after it: it won, or no history
    gets there).
    """

    def __init__(self, geo: rules.Geometry, max_beliefs: int = MAX_BELIEFS):
        n = self.cells = geo.cells
        self.geo = geo
        self.abrupt = geo.abrupt
        self.ttt = geo.is_ttt
        subsets = np.arange(1 << n)
        members = (subsets[:, None] >> np.arange(n)) & 1  # (2^n, n)
        sizes = members.sum(axis=1)
        bits = np.array(geo.bits, dtype=object)
        self.win = np.zeros((2, 1 << n), dtype=np.uint8)
        for seat in (0, 1):
            for s in range(1 << n):
                own = int(np.sum(bits[members[s].astype(bool)])) if s else 0
                self.win[seat, s] = rules.dist_bits(geo, seat, own, 0) == 0
        self.every = (1 << (1 << n)) - 1
        self.contains = [_bitset(members[:, c].astype(bool)) for c in range(n)]
        self.wins = [_bitset(self.win[seat].astype(bool)) for seat in (0, 1)]
        self.of_size = [_bitset(sizes == k) for k in range(n + 2)]
        self.seat: list[int] = []
        self.own: list[int] = []
        self.proven: list[int] = []
        self.plies: list[int] = []
        self.worlds: list[int] = []
        self.trans: list[list[list[int]]] = []
        self._ids: dict[tuple, int] = {}
        self.max_beliefs = max_beliefs
        self.roots = (self._id(0, 0, 0, 1, 0), self._id(1, 0, 0, self._reply(1, 0, 1, 0), 0))
        done = 0
        while done < len(self.seat):  # (the list grows as new beliefs are met)
            self.trans.append(self._transitions(done))
            done += 1

    def _id(self, seat, own, proven, worlds, plies) -> int:
        key = (seat, own, proven, worlds, plies if self.abrupt else 0)
        b = self._ids.get(key)
        if b is None:
            if len(self.seat) >= self.max_beliefs:
                raise ValueError(
                    f"more than {self.max_beliefs:,} belief states: the board is too big "
                    f"for the treeplex"
                )
            b = self._ids[key] = len(self.seat)
            self.seat.append(seat)
            self.own.append(own)
            self.proven.append(proven)
            self.worlds.append(worlds)
            self.plies.append(key[-1])
        return b

    def _reply(self, seat: int, own: int, worlds: int, plies: int) -> int:
        """The opponent stone sets when `seat` (with stones `own`, after its
        `plies` plies) next moves, from `worlds` before the opponent's turn;
        the sets where the opponent's turn ends the game left out."""
        n = self.cells
        out = 0
        contains = self.contains
        every = self.every
        for c in range(n):
            if not (own >> c) & 1:
                out |= (worlds & (every ^ contains[c])) << (1 << c)
        out &= every ^ self.wins[1 - seat]
        stones = own.bit_count()
        if self.ttt:  # a placement filling the board ends it, drawn
            out &= every ^ self.of_size[n - stones]
        if self.abrupt:
            # Or a collision, while the opponent has proved fewer of the
            # seat's stones than it has: its collisions so far are its plies
            # so far minus its stones.
            before = plies - 1 if seat == 0 else plies
            for k in range(max(0, before - stones + 1), n + 1):
                out |= worlds & self.of_size[k]
        return out

    def _transitions(self, b: int) -> list[list[int]]:
        seat, own, proven, worlds, plies = (
            self.seat[b],
            self.own[b],
            self.proven[b],
            self.worlds[b],
            self.plies[b],
        )
        n = self.cells
        every = self.every
        out = []
        for cell in range(n):
            if ((own | proven) >> cell) & 1:
                out.append([-1, -1])
                continue
            placed = occupied = -1
            hit = worlds & self.contains[cell]
            if hit:
                if self.abrupt:
                    after = self._reply(seat, own, hit, plies + 1)
                    if after:
                        occupied = self._id(seat, own, proven | 1 << cell, after, plies + 1)
                else:
                    occupied = self._id(seat, own, proven | 1 << cell, hit, plies + 1)
            miss = worlds & (every ^ self.contains[cell])
            stones = own | 1 << cell
            if miss and not self.win[seat, stones]:
                if self.ttt:
                    miss &= every ^ self.of_size[n - stones.bit_count()]
                after = self._reply(seat, stones, miss, plies + 1)
                if after:
                    placed = self._id(seat, stones, proven, after, plies + 1)
            out.append([placed, occupied])
        return out

    def __len__(self) -> int:
        return len(self.seat)

    def sizes(self) -> list[tuple[int, int]]:
        """Per seat, (infosets, sequences) of its treeplex: each belief's
        subtree counted once (beliefs only lead to beliefs of more plies)."""
        count: dict[int, tuple[int, int]] = {}
        order = sorted(range(len(self)), key=lambda b: -self.known(b).bit_count())
        for b in order:  # (the most known first: the deepest)
            infosets, sequences = 1, self.cells - self.known(b).bit_count()
            for placed_occupied in self.trans[b]:
                for nb in placed_occupied:
                    if nb >= 0:
                        i, s = count[nb]
                        infosets += i
                        sequences += s
            count[b] = (infosets, sequences)
        return [count[r] for r in self.roots]

    def known(self, b: int) -> int:
        """The cells the seat of belief b may not try: its stones and the proven ones."""
        return self.own[b] | self.proven[b]


class Size:
    """What a treeplex will hold and need, before it is built."""

    def __init__(self, sizes: list[tuple[int, int]], beliefs: int, workers: int):
        self.num_infostates = [i for i, _ in sizes]
        self.num_sequences = [s for _, s in sizes]
        self.beliefs = beliefs
        infosets, sequences = sum(self.num_infostates), sum(self.num_sequences)
        self.bytes = infosets * INFOSET_BYTES + sequences * (SEQUENCE_BYTES + workers * VALUE_BYTES)

    def __repr__(self) -> str:
        return (
            f"infostates {self.num_infostates}, sequences {self.num_sequences}, "
            f"{self.bytes / 2**30:.2f} GiB"
        )


class Evaluation:
    """One policy's exact values on a treeplex: each seat's expected return
    and best-response value, and the best response itself (`choice[i]`: the
    place of its action among infoset i's sequences, for every infoset)."""

    def __init__(self, expected_values, best_response_values, choice, histories):
        self.expected_values = np.asarray(expected_values, dtype=np.float64)
        self.best_response_values = np.asarray(best_response_values, dtype=np.float64)
        self.choice = choice
        self.histories = histories


class Treeplex:
    """Each seat's information sets and sequences of a two-player Fog-of-War
    board game (phantom tic-tac-toe, dark hex of any rules and sides) as flat
    arrays, without the histories (docs/solving.md#the-3x3-boards).

    It has the arrays solve.Policy and the algorithms read on a solve.Tree,
    with the same meaning: per infoset `infoset_seat`, `infoset_parent_seq`,
    `seq_start` and, on demand, `infoset_string`, `legal_mask` and
    `info_state_tensors`; per sequence `seq_infoset` and `seq_action`; per
    seat `num_infostates`, `infoset_range`, `seat_seq_range`; `lookup`.
    And what the walk needs: `child[s, r]`, the seat's infoset after its
    sequence s with result r (0 placed, 1 occupied; -1 where it never moves
    again). Infosets are numbered seat 0's first, each seat's in preorder.

    `max_bytes` bounds the memory of the arrays and one evaluation, known
    before anything is laid out (`Treeplex.measure(game)`): above it the game
    is refused with the figure. `workers`: the threads of an evaluation
    (default: this process's cores).
    """

    def __init__(self, game, max_bytes: int = MAX_BYTES, workers: int | None = None):
        geo = _board_geometry(game)
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes <= 0:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        self.workers = _checked_workers(workers)
        self.game = game
        self.num_players = 2
        self.num_actions = game.num_distinct_actions()
        self.cells = geo.cells
        self.beliefs = beliefs = _beliefs(game, geo)
        size = Size(beliefs.sizes(), len(beliefs), self.workers)
        if size.bytes > max_bytes:
            raise ValueError(
                f"{game}: {size.num_infostates} infostates and {size.num_sequences} sequences "
                f"a seat need about {size.bytes / 2**30:.1f} GiB; the bound is "
                f"{max_bytes / 2**30:.1f} GiB: pass a larger max_bytes to build it anyway"
            )
        self.size = size
        self._lay_out(beliefs, size)
        self._strings = None
        self._lookup = None
        self._legal_mask = None

    @staticmethod
    def measure(game, workers: int | None = None) -> Size:
        """The counts and memory of `game`'s treeplex, without laying it out
        (a second or two on a 3x3 board: its belief states)."""
        geo = _board_geometry(game)
        beliefs = _beliefs(game, geo)
        return Size(beliefs.sizes(), len(beliefs), _checked_workers(workers))

    # ---- the arrays ------------------------------------------------------------

    def _lay_out(self, beliefs: Beliefs, size: Size) -> None:
        from fogboard_games.solve import kernels

        infosets = sum(size.num_infostates)
        sequences = sum(size.num_sequences)
        self.num_infostates = list(size.num_infostates)
        self.num_sequences = sequences
        self.infoset_range = np.array([0, size.num_infostates[0], infosets], dtype=np.int64)
        self.seat_seq_range = np.array([0, size.num_sequences[0], sequences], dtype=np.int64)
        self.infoset_seat = np.repeat(np.arange(2, dtype=np.int8), size.num_infostates)
        self.infoset_parent_seq = np.empty(infosets, dtype=np.int32)
        self.infoset_result = np.empty(infosets, dtype=np.int8)
        self.infoset_belief = np.empty(infosets, dtype=np.int32)
        self.infoset_depth = np.empty(infosets, dtype=np.int8)
        self.seq_start = np.empty(infosets + 1, dtype=np.int64)
        self.seq_action = np.empty(sequences, dtype=np.int8)
        self.seq_infoset = np.empty(sequences, dtype=np.int32)
        self.child = np.empty((sequences, 2), dtype=np.int32)
        trans = np.array(beliefs.trans, dtype=np.int32).reshape(len(beliefs), self.cells, 2)
        known = np.array([beliefs.known(b) for b in range(len(beliefs))], dtype=np.int64)
        self.belief_own = np.array(beliefs.own, dtype=np.int64)
        self.belief_proven = np.array(beliefs.proven, dtype=np.int64)
        i = s = 0
        for seat in (0, 1):
            i, s = kernels.expand(
                trans,
                known,
                beliefs.roots[seat],
                self.cells,
                i,
                s,
                self.infoset_parent_seq,
                self.infoset_result,
                self.infoset_belief,
                self.infoset_depth,
                self.seq_start,
                self.seq_action,
                self.seq_infoset,
                self.child,
            )
            assert (i, s) == (self.infoset_range[seat + 1], self.seat_seq_range[seat + 1])
        self.win = beliefs.win
        # A full board ends tic-tac-toe drawn; hex ends before (no mask matches -1).
        self.full = (1 << self.cells) - 1 if beliefs.ttt else -1
        self.abrupt = beliefs.abrupt

    @property
    def nbytes(self) -> int:
        """The bytes the treeplex's arrays hold."""
        return sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))

    @property
    def legal_mask(self) -> np.ndarray:
        """(infosets, num_distinct_actions) bool, made on first use."""
        if self._legal_mask is None:
            self._legal_mask = self.legal_masks(np.arange(len(self.infoset_seat)))
        return self._legal_mask

    def legal_masks(self, infosets) -> np.ndarray:
        """The legal masks of `infosets` (ids), (len, num_distinct_actions) bool."""
        known = (self.belief_own | self.belief_proven)[self.infoset_belief[infosets]]
        cells = np.arange(self.cells)
        mask = np.zeros((len(known), self.num_actions), dtype=bool)
        mask[:, : self.cells] = ((known[:, None] >> cells) & 1) == 0
        return mask

    def plies(self, infoset: int) -> list[tuple[int, int]]:
        """The seat's own plies before `infoset`, oldest first, as (cell, result)."""
        out = []
        i = int(infoset)
        while True:
            ps = int(self.infoset_parent_seq[i])
            if ps < 0:
                return out[::-1]
            out.append((int(self.seq_action[ps]), int(self.infoset_result[i])))
            i = int(self.seq_infoset[ps])

    # ---- strings ---------------------------------------------------------------

    def info_state_string(self, infoset: int) -> str:
        """The information-state string of `infoset`, as the game shows it
        (observer.BoardEncoder.info_state_string), made from its plies."""
        infoset = int(infoset)
        seat = int(self.infoset_seat[infoset])
        enc = self.game.setup.encoder
        geo = self.game.setup
        page = bytearray(enc.blank_page)
        marks = enc.view_marks[seat]
        log = ""
        for j, (cell, result) in enumerate(self.plies(infoset), 1):
            page[enc.page_slot[cell]] = marks[rules.OWN if result == rules.PLACED else rules.PROVEN]
            log += enc.log_entries(j)[2 * cell + result]
        b = int(self.infoset_belief[infoset])
        own, known = int(self.belief_own[b]), int(self.belief_own[b] | self.belief_proven[b])
        mine = sum(geo.bits[c] for c in range(self.cells) if (own >> c) & 1)
        free = sum(geo.bits[c] for c in range(self.cells) if not (known >> c) & 1)
        dist = enc.dist_texts[enc.believed_dist(seat, mine, free)]
        return f"{enc.view_heads[seat]}{page.decode()}\nlog:{log or ' -'}\n{dist}"

    @property
    def infoset_string(self) -> _Strings:
        """Each infoset's information-state string, made when read
        (`treeplex.infoset_string[i]`): millions of strings are not kept."""
        if self._strings is None:
            self._strings = _Strings(self)
        return self._strings

    @property
    def lookup(self) -> list[_Lookup]:
        """Per seat, {information-state string: infoset id}, read without a
        dict: the string's log is followed through the child table, and the
        infoset's own string must be the one asked."""
        if self._lookup is None:
            self._lookup = [_Lookup(self, seat) for seat in range(2)]
        return self._lookup

    def find(self, seat: int, info_state) -> int | None:
        """The infoset of `seat` whose string is `info_state`, or None."""
        enc = self.game.setup.encoder
        if not isinstance(info_state, str) or not info_state.startswith(enc.view_heads[seat]):
            return None
        at = info_state.find("\nlog:")
        end = info_state.find("\n", at + 1)
        if at < 0 or end < 0:
            return None
        actions = self.game.setup.action_ids
        i = int(self.infoset_range[seat])
        for j, (number, name, result) in enumerate(LOG_ENTRY.findall(info_state[at + 5 : end]), 1):
            cell = actions.get(name)
            if int(number) != j or cell is None or cell >= self.cells:
                return None
            lo, hi = int(self.seq_start[i]), int(self.seq_start[i + 1])
            places = np.flatnonzero(self.seq_action[lo:hi] == cell)
            if len(places) == 0:
                return None
            i = int(self.child[lo + int(places[0]), 0 if result == "placed" else 1])
            if i < 0:
                return None
        return i if self.info_state_string(i) == info_state else None

    # ---- tensors and states --------------------------------------------------

    def info_state_tensors(self, seat: int, infosets=None) -> np.ndarray:
        """The information-state tensors of `infosets` (ids of `seat`'s;
        default all of them: mind the memory), one row each, made from their
        plies as the encoder writes them: the believed board, each own
        attempt and its result; the outcome part is zero while the game runs."""
        lo, hi = int(self.infoset_range[seat]), int(self.infoset_range[seat + 1])
        ids = np.arange(lo, hi) if infosets is None else np.asarray(infosets, dtype=np.int64)
        if len(ids) and (ids.min() < lo or ids.max() >= hi):
            raise ValueError(f"infosets must be seat {seat}'s, ids {lo} to {hi - 1}")
        layout = self.game.setup.encoder.layout(INFO_STATE)
        offset = layout.offset
        cells = self.cells
        own_plies = self.game.setup.max_own_plies
        rows = np.zeros((len(ids), layout.size))
        board = offset["board"] + 3 * np.arange(cells)
        rows[:, board] = 1.0  # every cell unknown, until a ply says otherwise
        at = ids.copy()
        depth = self.infoset_depth[ids].astype(np.int64)
        step = np.zeros(len(ids), dtype=np.int64)
        index = np.arange(len(ids))
        while True:
            parent = self.infoset_parent_seq[at].astype(np.int64)
            climbing = parent >= 0
            if not climbing.any():
                return rows
            r, p, a = index[climbing], parent[climbing], at[climbing]
            cell = self.seq_action[p].astype(np.int64)
            result = self.infoset_result[a].astype(np.int64)
            j = depth[climbing] - 1 - step[climbing]  # the ply's number among the seat's, from 0
            rows[r, offset["board"] + 3 * cell] = 0.0
            rows[r, offset["board"] + 3 * cell + 1 + result] = 1.0
            rows[r, offset["attempts"] + j * cells + cell] = 1.0
            rows[r, offset["results"] + j * 2 + result] = 1.0
            assert np.all(j < own_plies)
            step[climbing] += 1
            at[climbing] = self.seq_infoset[p]

    def history(self, infoset: int) -> list[int]:
        """The actions of one history of `infoset` (a representative), found
        by a search through the rules: the seat plays its plies, the opponent
        any legal move, and a branch is left as soon as the opponent's stones
        are not among those the seat's belief allows."""
        infoset = int(infoset)
        seat = int(self.infoset_seat[infoset])
        path = [infoset]
        while self.infoset_parent_seq[path[-1]] >= 0:
            path.append(int(self.seq_infoset[self.infoset_parent_seq[path[-1]]]))
        path.reverse()
        plies = self.plies(infoset)
        worlds = [self.beliefs.worlds[int(self.infoset_belief[i])] for i in path]
        opp_code = rules.O_STONE if seat == 0 else rules.X_STONE

        def search(m, actions, j):
            if m.mover == TERMINAL:
                return None
            if m.mover == seat:
                stones = sum(1 << c for c, v in enumerate(m.board) if v == opp_code)
                if not (worlds[j] >> stones) & 1:
                    return None
                if j == len(plies):
                    return actions
                cell, result = plies[j]
                c = m.copy()
                c.play(cell)
                if c.plies[-1].result != result:
                    return None
                return search(c, actions + [cell], j + 1)
            for a in list(m.options):
                c = m.copy()
                c.play(a)
                found = search(c, actions + [a], j)
                if found is not None:
                    return found
            return None

        found = search(self.game.new_initial_state().writable_truth(), [], 0)
        assert found is not None, f"no history reaches infoset {infoset}"
        return found

    def infoset_state(self, infoset: int):
        """A pyspiel state at a history of `infoset` (`history`)."""
        state = self.game.new_initial_state()
        for a in self.history(infoset):
            state.apply_action(a)
        return state

    # ---- the walk --------------------------------------------------------------

    def reach(self, probs: np.ndarray) -> np.ndarray:
        """Every sequence's reach under `probs` (each seat's own, the
        sequence form), with the two empty sequences (1) at the end."""
        from fogboard_games.solve import kernels

        n = self.num_sequences
        x = np.empty(n + 2)
        x[n:] = 1.0
        for seat in (0, 1):
            lo, hi = int(self.infoset_range[seat]), int(self.infoset_range[seat + 1])
            kernels.realize(self.seq_start, self.infoset_parent_seq, probs, lo, hi, x)
        return x

    def walk(self, x: np.ndarray, mode: int, progress=None, workers=None) -> tuple[np.ndarray, int]:
        """One walk of every history (kernels.walk) under the reach `x`: the
        values `v` it adds up (mode kernels.BOTH, SEAT0, SEAT1; COUNT adds
        none) and the number of histories. The decisions SPLIT plies down go
        round-robin to the workers, each with its own values, summed in
        worker order: the same numbers at every run with as many workers."""
        from fogboard_games.solve import kernels

        workers = self.workers if workers is None else _checked_workers(workers)
        n = self.num_sequences
        root = (0, 0, 0, int(self.infoset_range[1]), n, n + 1, 0)

        def call(v, lo, hi, top, what):
            return kernels.walk(
                self.seq_start,
                self.seq_action,
                self.child,
                self.win,
                self.full,
                self.abrupt,
                *root,
                SPLIT,
                lo,
                hi,
                top,
                x,
                v,
                what,
            )

        values = [np.zeros(n + 2) for _ in range(workers if mode != kernels.COUNT else 1)]
        # The ends above the split, and how many decisions are there.
        counted, frontier = call(values[0], 0, 0, True, mode)
        counts = [0] * workers
        if progress is None:
            progress = n >= PROGRESS_FROM
        from tqdm import tqdm

        bar = tqdm(total=frontier, disable=not progress, desc="walk", unit=" subtrees", leave=False)
        lock = threading.Lock()
        stop = threading.Event()
        failed: list[BaseException] = []

        def lane(w: int) -> None:
            v = values[min(w, len(values) - 1)]
            try:
                for c in range(w, frontier, workers):
                    if stop.is_set():
                        return
                    counts[w] += call(v, c, c + 1, False, mode)[0]
                    with lock:
                        bar.update(1)
            except BaseException as e:  # (handed to the main thread)
                failed.append(e)
                stop.set()

        try:
            if workers == 1:
                lane(0)
            else:
                threads = [
                    threading.Thread(target=lane, args=(w,), daemon=True) for w in range(workers)
                ]
                for t in threads:
                    t.start()
                try:
                    for t in threads:
                        while t.is_alive():
                            t.join(0.2)
                except BaseException:
                    # Ctrl-C: each worker stops after its subtree, into values
                    # nobody reads. Not joined: a join cut short by the signal
                    # can leave a thread's lock taken, and a second join hang.
                    stop.set()
                    raise
        finally:
            bar.close()
        if failed:
            raise failed[0]
        v = values[0]
        for other in values[1:]:
            v += other
        return v, 1 + counted + sum(counts)

    def count_histories(self, progress=None) -> int:
        """The number of histories (every node of the game tree), by a walk."""
        from fogboard_games.solve import kernels

        return self.walk(np.ones(self.num_sequences + 2), kernels.COUNT, progress)[1]

    def evaluate(self, policy, progress=None) -> Evaluation:
        """`policy`'s expected values, best-response values and best
        responses, by one walk (kept with the policy: asking again is free)."""
        from fogboard_games.solve import kernels

        kept = getattr(policy, "_evaluation", None)
        if kept is not None:
            return kept
        n = self.num_sequences
        x = self.reach(policy.probs)
        v, histories = self.walk(x, kernels.BOTH, progress)
        expected, best = np.zeros(2), np.zeros(2)
        choice = np.empty(len(self.infoset_seat), dtype=np.int8)
        for seat in (0, 1):
            lo, hi = int(self.seat_seq_range[seat]), int(self.seat_seq_range[seat + 1])
            empty = v[n + seat]
            expected[seat] = float(np.dot(x[lo:hi], v[lo:hi])) + empty
            first, stop = int(self.infoset_range[seat]), int(self.infoset_range[seat + 1])
            best[seat] = empty + kernels.best_response(
                self.seq_start, self.infoset_parent_seq, v, first, stop, choice[first:stop]
            )
        evaluation = Evaluation(expected, best, choice, histories)
        policy._evaluation = evaluation
        return evaluation

    def regrets(self, probs: np.ndarray, seat: int, progress=None):
        """CFR's update for `seat` under `probs`, by one walk: each of its
        sequences' regret this iteration (its counterfactual value minus its
        infoset's), and its own reach of the infoset (the average's weight;
        per infoset, not times its histories as solve.Tree's: a constant per
        infoset, which the average's normalization cancels)."""
        from fogboard_games.solve import kernels

        x = self.reach(probs)
        v, _ = self.walk(x, kernels.SEAT0 + seat, progress)
        lo, hi = int(self.seat_seq_range[seat]), int(self.seat_seq_range[seat + 1])
        first, stop = int(self.infoset_range[seat]), int(self.infoset_range[seat + 1])
        kernels.counterfactual(self.seq_start, self.infoset_parent_seq, probs, v, first, stop)
        parent = self.infoset_parent_seq[self.seq_infoset[lo:hi]]
        own_reach = np.where(parent >= 0, x[np.maximum(parent, 0)], 1.0)
        return v[lo:hi].copy(), own_reach

    def __repr__(self) -> str:
        return (
            f"solve.Treeplex({self.game}: infostates {self.num_infostates}, "
            f"{self.num_sequences} sequences)"
        )


class _Strings:
    """A treeplex's infoset strings, each made when read."""

    def __init__(self, treeplex: Treeplex):
        self.treeplex = treeplex

    def __len__(self) -> int:
        return len(self.treeplex.infoset_seat)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.treeplex.info_state_string(j) for j in range(*i.indices(len(self)))]
        i = int(i)
        if not -len(self) <= i < len(self):
            raise IndexError(f"infoset {i} out of range 0..{len(self) - 1}")
        return self.treeplex.info_state_string(i % len(self))

    def __iter__(self):
        return (self.treeplex.info_state_string(i) for i in range(len(self)))


class _Lookup:
    """One seat's {string: infoset id} of a treeplex, read without a dict."""

    def __init__(self, treeplex: Treeplex, seat: int):
        self.treeplex = treeplex
        self.seat = seat

    def get(self, key, default=None):
        found = self.treeplex.find(self.seat, key)
        return default if found is None else found

    def __getitem__(self, key) -> int:
        found = self.treeplex.find(self.seat, key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key) -> bool:
        return self.treeplex.find(self.seat, key) is not None

    def __len__(self) -> int:
        return self.treeplex.num_infostates[self.seat]


def _board_geometry(game) -> rules.Geometry:
    """The game's board rules, if the treeplex handles them; else ValueError."""
    short = getattr(type(game), "short_name", None)
    if not isinstance(game, pyspiel.Game) or getattr(type(game), "ruleset", None) is None:
        raise ValueError(
            f"solve.Treeplex takes a fogboard board game (pyspiel.load_game or "
            f"fogboard_games.load), got {type(game).__name__}"
        )
    if short not in GAMES:
        raise ValueError(
            f"solve.Treeplex lays out {' and '.join(GAMES)}; {game} is another game: use solve.Tree"
        )
    geo = game.setup
    params = game.get_parameters()
    refusals = {
        "obstype": (params.get("obstype") != "reveal-nothing", "reveal-nothing"),
        "imperfect_recall": (bool(params.get("imperfect_recall")), "false"),
        "max_plies": (params.get("max_plies") != 2 * geo.cells, f"{2 * geo.cells} (2 x cells)"),
    }
    for name, (refused, allowed) in refusals.items():
        if refused:
            raise ValueError(
                f"solve.Treeplex needs {name}={allowed} (a seat's information state "
                f"is then its own plies); {game} has {name}={params.get(name)}: use solve.Tree"
            )
    if geo.cells > MAX_CELLS:
        raise ValueError(
            f"solve.Treeplex takes boards of at most {MAX_CELLS} cells; {game} has {geo.cells}"
        )
    return geo


# The belief states of the last few games (Treeplex.measure, then Treeplex).
_KEPT: dict[str, Beliefs] = {}


def _beliefs(game, geo) -> Beliefs:
    key = str(game)
    if key not in _KEPT:
        try:
            beliefs = Beliefs(geo)
        except ValueError as refusal:
            raise ValueError(f"{game}: {refusal}") from None
        if len(_KEPT) >= 4:
            _KEPT.pop(next(iter(_KEPT)))
        _KEPT[key] = beliefs
    return _KEPT[key]


def _checked_workers(workers) -> int:
    if workers is None:
        return default_workers()
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= 1024:
        raise ValueError(f"workers must be an int from 1 to 1024, got {workers!r}")
    return workers
