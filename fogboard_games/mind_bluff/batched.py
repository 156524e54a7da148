"""Batched Mind Bluff, single games and the best-of-3 series (docs/mind_bluff.md).

The rules are those of fogboard_games/mind_bluff/rules.py
(docs/mind_bluff.md#rules) and series.py (docs/mind_bluff.md#the-series),
applied to every row at once. Chance (the coin, then a secret start) is
drawn from the environment's Generator where a game starts, and logged in
the row's history as pyspiel's outcomes: at the restart of a single game,
and for the series' third game right after the action that ended the
second (so `step` appends it after that action).

A row keeps only what the rules need, in small dtypes: the phase, the
mover, the count left, both honesty debts, the turn under way and its eat
and claim (and in the series the game and the score). Legal actions
depend on one key per row (eat; claim; a forced claim of the true eat k;
respond; over). A step applies every kind of move to whole rows under
masks, as the other engines do (see Env).

Both seats' information-state tensors are kept in one uint8 `Store`
(batch/observations.py: store row 2b + p is seat p of row b), made and
filled at the first tensor read (by replaying every row's history). From
the first read of `State.observation` on, the step itself keeps the array
it hands out (the hand, docs/batch.md#observations), so a read costs
nothing more: each move's entries from tables, every row's status block,
and where a claim passes the turn the new mover's own columns (`player`
and eats, up to the turn under way; everything else is the same in both
seats). A single game's hand then holds its running rows outright: the
other seat's own columns beside it, exchanged at a claim, and the store
brought up to date only when a seat's tensor is read (a finished row's
final tensors kept until then, or dropped at its restart). The series
writes its store at every step (the mover's row; the public entries join
the other seat's at a seat's read) and the hand copies from it what a game
end changed; its finished game's review (the view of every seat) is built
beside it and copied into both seats' columns when that game ends.

The observation form (the seat's view now: the latest turn, the counts
still possible) has its own whole store, made at its first read: each
step keeps the latest turn and, per seat, the totals eaten before it that
the seat cannot rule out (a bitset, one bit a total); a read after a step
writes every row's view from them.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import LIMIT, Store
from fogboard_games.mind_bluff import rules, series

EAT, CLAIM, RESPOND, OVER = rules.EAT, rules.CLAIM, rules.RESPOND, rules.OVER  # 0 .. 3
SWAP_TURNS = (3, 8)  # a single game's seat exchange by turn: [0, 3), [3, 8), [8, ..)
STATUS = 12  # mover (2), phase (4), forced_now (1), debts (2), ending (3): contiguous
REVIEW = series.REVIEW_KEY  # a finished game as every seat sees it
# The latest turn's record kept for the observation, one per row (-1: none):
# the seat that ate, its eat (0: all done), the claim and whether it was forced
# honest, the response (BELIEVE or DOUBT) and the verdict (0 TRUE, 1 BLUFF).
LATEST_TURN = np.dtype(
    [(name, np.int8) for name in ("actor", "ate", "claimed", "forced", "response", "verdict")]
)


def _status_table() -> np.ndarray:
    """The status block, debts left zero, of each code ((ending + 1) * 4 + phase)
    * 4 + p2 + 2 forced_now (ending -1 while running)."""
    table = np.zeros((4 * 4 * 4, STATUS), np.uint8)
    for ending in range(-1, 3):
        for phase in range(4):
            for p2 in (0, 1):
                for forced_now in (0, 1):
                    row = table[((ending + 1) * 4 + phase) * 4 + p2 + 2 * forced_now]
                    if phase != OVER:
                        row[p2] = 1  # the mover (none at the end)
                    row[2 + phase] = 1
                    row[6] = forced_now
                    if ending >= 0:
                        row[9 + ending] = 1
    return table


STATUS_TABLE = _status_table()


class _Pieces:
    """Absolute offsets of one game's pieces, one entry per game (numpy, so a
    row's game index picks its offsets)."""

    NAMES = ("player", "eats", "first", "claims", "forced", "responses", "verdicts", "mover")
    NAMES += ("start_shown", "remaining_shown")

    def __init__(self, bases, layouts):
        for name in self.NAMES:
            at = [base + lay.offset.get(name, -1) for base, lay in zip(bases, layouts)]
            setattr(self, name, np.array(at, np.int64))


class MindBluff(Env):
    """A batch of fogboard_mind_bluff or fogboard_mind_bluff_series games."""

    TABLES = ("legal", "legal_by_action", "legal_flat")
    TABLES += ("move_column", "move_stride", "move_reach", "move_shift", "move_next")
    TABLES += ("move_mine", "hand_column", "hand_stride")
    TABLES += ("start_rows", "start_hand", "start_other", "start_ones")

    def _configure(self, game) -> None:
        setup = game.setup
        self.is_series = isinstance(setup, series.SeriesSetup)
        games = setup.games if self.is_series else (setup,)
        self.setups = games
        self.num_players = 2
        self.num_actions = setup.num_actions
        self.M = setup.max_eat
        layout = game.info_layout
        self.tensor_size = layout.size
        chance = sum((g.first_player == -1) + (g.spread > 0) for g in games)
        self.max_history = chance + setup.max_game_length

    def _build(self) -> None:
        game = self.game
        games, layout, A, M = self.setups, self.game.info_layout, self.num_actions, self.M
        B = self.batch_size

        # Per game: the first seat (-1: a coin), the start's range, the turns.
        self.g_first = np.array([g.first_player for g in games], np.int64)
        self.g_low = np.array([g.low for g in games], np.int64)
        self.g_turns = np.array([g.max_turns for g in games], np.int64)
        self.g_spread = np.array([g.spread for g in games], np.int64)
        if self.is_series:
            enc = game.encoder.inner
            at = layout.offset
            seat_bases = [at[f"game{g + 1}"] for g in range(3)]
            self.view = _Pieces(seat_bases, [e.layout(layout.key) for e in enc])
            review_layouts = [e.layout(REVIEW) for e in enc]
            self.review = _Pieces([0, 0, 0], review_layouts)
            self.review_base = [at[f"review{g + 1}"] for g in range(3)]
            self.review_size = [lay.size for lay in review_layouts]
            self.o_score, self.o_game = at["score"], at["game"]
            self.o_player = at["player"]
            self.reviews = np.zeros((B, max(self.review_size)), np.uint8)
            # What a game's end and the next one's start write (_hand_after): the
            # score and game marks, the review, the game's status and what its end
            # shows, the next game's first seat and `player` marks.
            v = self.view
            self.next_spans = [
                [
                    slice(self.o_score, self.o_game + 3),
                    slice(self.review_base[g], self.review_base[g] + self.review_size[g]),
                    slice(int(v.mover[g]), self.review_base[g + 1]),
                    slice(int(v.first[g + 1]), int(v.first[g + 1]) + 2),
                    slice(int(v.player[g + 1]), int(v.player[g + 1]) + 2),
                ]
                for g in (0, 1)
            ]
        else:
            self.view = _Pieces([0], [layout])
            self.review = None
            self.o_player = layout.offset["player"]

        # legal[key]: eat; claim; claim forced to the true eat k (key 1 + k); respond; over.
        legal = np.zeros((M + 4, A), bool)
        legal[0, : M + 1] = True
        legal[1, M + 1 : 2 * M + 1] = True
        for k in range(1, M + 1):
            legal[1 + k, M + k] = True
        legal[M + 2, [2 * M + 1, 2 * M + 2]] = True
        self.legal = legal
        self.legal_by_action = np.ascontiguousarray(legal.T)  # (A, keys)
        self.respond_key, self.finished_key = M + 2, M + 3
        self.start_block = (0, M + 1)  # every game starts at an eat

        # Small dtypes: a step's numpy calls on 4096 int8 entries cost a fraction of
        # int64 ones, and every value fits (a count is at most 196).
        self.game_index = np.zeros(B, np.int64)  # the game under way (the series' 0..2)
        self.key = np.zeros(B, np.int8)
        self.phase = np.zeros(B, np.int8)
        self.p2 = np.zeros(B, bool)  # P2 (seat 1) is the mover
        self.start = np.zeros(B, np.int16)
        self.remaining = np.zeros(B, np.int16)
        self.debts = np.zeros((2, B), np.int16)  # each seat's honesty debt
        self.turn = np.zeros(B, np.int16)  # the turn under way, from 0
        self.actual = np.zeros(B, np.int8)  # its eat
        self.claim = np.zeros(B, np.int8)  # its claim
        self.score = np.zeros((B, 2), np.int64)
        self.ending = np.full(B, -1, np.int8)  # LAST_DANGO .. ALL_DONE_LOSS, -1 while running
        self.block = np.zeros((B, STATUS), np.uint8)  # (scratch for _status_block)
        # legal_flat[key * (A + 1) + action]: a spare False column for every id out of range
        self.legal_flat = np.concatenate([legal, np.zeros((M + 4, 1), bool)], 1).reshape(-1)
        # Store row 2b + p: row b; a spare last row (2B, shown nowhere) takes the
        # writes of the rows a move writes nothing into (see _move_tables).
        self.row_of = (np.arange(2 * B + 1) // 2 % B).astype(np.int32)
        self._move_tables()
        self.info = self.tensors = None  # the Store and its (B, 2, D) view, once tracking
        # The handed-out array (the movers' tensors, kept by the step: _hand_step),
        # once State.observation is read; row B a scratch row for rows showing none.
        self.hand = self.hand_view = None
        self.settled = True  # the store's status blocks as the rows stand (_settle)
        # A single game's hand holds its running rows' tensors (the store those of
        # finished rows, and the others' only when a seat's is read: _settle).
        self.swapping = False
        # Its rows that finished since the last seat's read, and their final tensors
        # (the hand's rows before their zeros), unfolded into the store only if read
        # before the rows restart (a float cast of whole rows costs more than the rest).
        self.finals: list = []
        self.final_due = np.zeros(B, bool)
        # The columns where the seats' tensors differ: `player` and each game's eats
        # (everything else is written to both seats alike; _hand_step).
        spans = [(self.o_player, self.o_player + 2)]
        spans += [(int(lo), int(hi)) for lo, hi in zip(self.view.player, self.view.first)]
        self.own = []
        for lo, hi in sorted(set(spans)):
            if self.own and self.own[-1].stop >= lo:
                self.own[-1] = slice(self.own[-1].start, max(hi, self.own[-1].stop))
            else:
                self.own.append(slice(lo, hi))
        if not self.is_series:
            self._start_table()
        else:  # (where the new game's first seat is not the last mover: its own columns)
            self.next_own = [self.own[: g + 3] for g in (0, 1)]
        # The observation (the seat's view now): per game its pieces' absolute offsets.
        obs = game.obs_layout
        if self.is_series:
            inner = [e.layout(obs.key) for e in game.encoder.inner]
            bases = [obs.offset[f"game{g + 1}"] for g in range(3)]
            self.obs_score, self.obs_game = obs.offset["score"], obs.offset["game"]
            self.obs_player = obs.offset["player"]
        else:
            inner, bases = [obs], [0]
        self.obs_at = [{k: b + v for k, v in lay.offset.items()} for b, lay in zip(bases, inner)]
        self.obs_size = obs.size
        self.obs = None  # its Store, once read; then the last turn and the sums below
        self.obs_fresh = False  # the store shows the rows as they stand
        self.tracking = False  # tensors kept up to date (from the first read on)
        self._replay = None  # while tensors are built: each row's next history entry
        self._code = None  # in `_play`: each row's key and action, as legal_flat reads them

    def _move_tables(self) -> None:
        """What a decision writes into the information state, by (game, key,
        action), the code of `_write_table`: two entries, each a column (a base plus
        the turn times a stride), whether it goes to the mover and to the other
        seat, and for the second a shift of one where the claim was false (a
        doubt's verdict, BLUFF). An eat (its count) is the eater's alone; a
        claim (and its forced mark) and a response (and a doubt's verdict) are
        both seats'; everything else (an all done, an out-of-range action, a
        finished row) writes nothing."""
        M, A, G = self.M, self.num_actions, len(self.setups)
        K = M + 4
        column = np.zeros((G, K, A + 1, 2), np.int64)
        stride = np.zeros((K, A + 1, 2), np.int64)
        reach = np.zeros((K, A + 1, 2, 2), bool)  # [.., seat: mover / other, entry]
        shift = np.zeros((K, A + 1, 2), np.int64)
        v = self.view
        for g in range(G):
            for a in range(M):  # eat a + 1
                column[g, 0, a, 0] = v.eats[g] + a
            for key in range(1, M + 2):
                for a in range(M + 1, 2 * M + 1):  # claim a - M
                    column[g, key, a] = v.claims[g] + a - M - 1, v.forced[g]
            for a in (2 * M + 1, 2 * M + 2):  # accept, doubt
                column[g, M + 2, a] = v.responses[g] + a - 2 * M - 1, v.verdicts[g]
        stride[0, :M, 0] = M
        reach[0, :M, 0, 0] = True
        stride[1 : M + 2, M + 1 : 2 * M + 1, 0] = M
        reach[1, M + 1 : 2 * M + 1, :, 0] = True
        for k in range(1, M + 1):  # key 1 + k: the claim forced to k, and its mark
            stride[1 + k, M + k, 1] = 1
            reach[1 + k, M + k, :, :] = True
        stride[M + 2, 2 * M + 1 :, :] = 2
        reach[M + 2, 2 * M + 1 :, :, 0] = True
        reach[M + 2, 2 * M + 2, :, 1] = True
        shift[M + 2, 2 * M + 2, 1] = 1
        self.move_column = column.reshape(G * K * (A + 1), 2)
        self.move_stride = np.tile(stride.reshape(K * (A + 1), 2), (G, 1))
        self.move_reach = np.tile(reach.reshape(K * (A + 1), 2, 2), (G, 1, 1))
        self.move_shift = np.tile(shift.reshape(K * (A + 1), 2), (G, 1))
        # The entries the next mover sees: the other seat's after a claim, else the mover's.
        after = reach[:, :, 0].copy()
        after[1 : M + 2, M + 1 : 2 * M + 1] = reach[1 : M + 2, M + 1 : 2 * M + 1, 1]
        self.move_next = np.tile(after.reshape(K * (A + 1), 2), (G, 1))
        self.move_mine = np.ascontiguousarray(self.move_reach[:, 0])  # (the mover's)
        if not self.is_series:
            self._hand_tables()
        D = self.tensor_size
        B = self.batch_size
        self.spare = 2 * B * D  # (flat index of the spare store row)
        self.pair_base = (np.arange(B) * 2 * D)[:, None] + np.array([0, D])  # (B, 2) seats

    def _hand_tables(self) -> None:
        """A single game's move entries in the hand (_write_table), by (code, the
        claim true, the mover): each entry's column and stride (times the turn),
        as _move_tables' with the verdict's shift applied; an entry that reaches
        nobody (the mover made it, so reaches it if anyone) writes the 1 of the
        mover's own `player` mark instead, which is there already (no mask)."""
        codes = len(self.move_column)
        column = np.zeros((codes, 2, 2, 2), np.int64)  # [code, true, mover, entry]
        stride = np.zeros((codes, 2, 2, 2), np.int64)
        mine = self.move_reach[:, 0]  # (codes, entry)
        for true in (0, 1):
            for mover in (0, 1):
                col = self.move_column + self.move_shift * (1 - true) * [0, 1]
                column[:, true, mover] = np.where(mine, col, self.o_player + mover)
                stride[:, true, mover] = np.where(mine, self.move_stride, 0)
        self.hand_column = column.reshape(codes * 4, 2)
        self.hand_stride = stride.reshape(codes * 4, 2)

    def _start_table(self) -> None:
        """A single game's start, both seats' whole rows, by the first seat (the
        `player` marks, the first seat, the status at the first eat)."""
        v = self.view
        self.start_rows = np.zeros((2, 2, self.tensor_size), np.uint8)
        for first in (0, 1):
            for seat in (0, 1):
                row = self.start_rows[first, seat]
                row[self.o_player + seat] = 1
                row[v.first[0] + first] = 1
                row[v.mover[0] : v.mover[0] + STATUS] = STATUS_TABLE[EAT * 4 + first]
        # The hand's start by the first seat: its row, and the other seat's own columns.
        self.start_hand = self.start_rows[[0, 1], [0, 1]].astype(self.dtype)
        self.start_other = self.start_rows[[0, 1], [1, 0], self.own[0]].astype(self.dtype)
        ones = [np.flatnonzero(self.start_hand[f]) for f in (0, 1)]
        self.start_ones = np.array(ones, np.int64)  # (the same count by either seat)

    @property
    def mover(self) -> np.ndarray:
        """(B,) int64: the seat to decide (in a finished row, the last one's)."""
        return self.p2.astype(np.int64)

    # ---- starts: the chance draws -------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self._start(rows)
        if self.hand is not None and self._replay is None and not self.swapping:
            self._hand_copy(rows)  # (a new game's tensor changes whole)

    def _start(self, rows: np.ndarray) -> None:
        self.settled = False
        if self.tracking and self.is_series:
            self.tensors[rows] = 0
            self._put(rows, 0, self.o_player, 1)
            self._put(rows, 1, self.o_player + 1, 1)
        if self.is_series:
            self.score[rows] = 0
            if self.tracking:
                self.reviews[rows] = 0
        g = np.zeros(len(rows), np.int64)
        outcomes = self._start_game(rows, g)
        if outcomes is not None and self._replay is None:
            self._log(rows, outcomes)
        if self.tracking and self.is_series:
            self._status(rows, g)

    def _draw(self, rows: np.ndarray, low: int, high: int) -> np.ndarray:
        """One chance outcome per row, uniform in low..high: from the Generator,
        or, while tensors are built, the one the row's history holds next."""
        if self._replay is None:
            return self.rng.integers(low, high + 1, size=len(rows))
        at = self._replay[rows]
        self._replay[rows] = at + 1
        return self.history[rows, at].astype(np.int64)

    def _start_game(self, rows: np.ndarray, g: np.ndarray):
        """Rows start game g (a per-row index; in a call that draws chance all rows
        start the same game). Returns the chance outcomes drawn, (rows, k), or None."""
        n = len(rows)
        if not n:
            return None
        # (a finished row's hand row is zeros: a start there writes only its ones)
        finished = self.swapping and n == np.count_nonzero(self.key[rows] == self.finished_key)
        self.game_index[rows] = g
        setup = self.setups[int(g[0])]
        drawn = []
        first = self.g_first[g]
        if setup.first_player == -1:  # a public coin
            first = self._draw(rows, 0, 1)
            drawn.append(first)
        start = self.g_low[g]
        if setup.spread:  # a secret start
            start = self._draw(rows, setup.low, setup.high)
            drawn.append(start)
        self.start[rows] = start
        self.remaining[rows] = start
        self.p2[rows] = first == 1
        self.debts[:, rows] = 0
        self.turn[rows] = 0
        self.phase[rows] = EAT
        self.key[rows] = 0
        self.ending[rows] = -1
        if self.obs is not None:
            self._view_start(rows)
        if self.swapping:  # (the mover's row, the other seat's own columns: _hand_step)
            if finished:
                ones = self.start_ones.take(first, 0)
                ones += self.hand_rows[rows, None]
                self.hand.reshape(-1)[ones] = 1
            else:
                self.hand[rows] = self.start_hand.take(first, 0)
            self.other[rows] = self.start_other.take(first, 0)
            self.final_due[rows] = False  # (its final tensors: no longer this row's)
            if self.finals:  # (those of rows all restarted since: dropped)
                self.finals = [f for f in self.finals if np.count_nonzero(self.final_due[f[0]])]
        elif self.tracking and not self.is_series:  # (whole rows, both seats: a single game)
            self.tensors[rows] = self.start_rows.take(first, 0)
        elif self.tracking:
            v = self.view
            for seat in (0, 1):
                self._put(rows, seat, v.player[g] + seat, 1)
            self._put_both(rows, v.first[g] + first, 1)
            if self.is_series:
                self._review(rows, self.review.first[g] + first, 1)
                self._put_both(rows, self.o_game + g, 1)
                self._put_both(rows, self.o_game + g - 1, 0, where=g > 0)
        return np.stack(drawn, 1) if drawn else None

    # ---- what the mover may do ----------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        return self.legal_by_action.take(self.key, 1).T

    # ---- the moves ------------------------------------------------------------------

    def _play(self, acts: np.ndarray, active):
        # (the move's code: the tensors' tables read it too)
        self._code = self._check_keys(acts, active, self.key, self.legal_flat)
        # (a finished row is in no phase of play; a row sitting out must be masked)
        try:
            done, winner = self._advance(acts, active if self._sitting else None)
        finally:
            self._code = None
        if done is None:
            return None, None
        ended = np.zeros(self.batch_size, bool)
        ended[done] = True
        rewards = np.zeros((self.batch_size, 2), np.float32)
        rewards[done, winner] = 1.0
        rewards[done, 1 - winner] = -1.0
        return ended, rewards

    def _advance(self, a: np.ndarray, active=None):
        """Play checked actions (in the rows of `active`, or every running row):
        returns the rows whose game (the series: whose series) ended and the
        winners, or None, None."""
        self.settled = False  # (the store's status blocks: written when a seat's is read)
        ended, winner = self._apply(a, active)
        started = None
        if ended is not None:
            if self.is_series:
                ended, winner, started = self._next_game(ended, winner)
            self.key[ended] = self.finished_key
        if self.hand is not None and self._replay is None:
            self._hand_after(started, ended)
        return (ended, winner) if ended is not None and len(ended) else (None, None)

    def _apply(self, a: np.ndarray, active):
        """The rules on whole rows, with masks for the kinds of move (at a few
        thousand rows a numpy call costs about its work, so compacting rows by
        kind would cost more calls than it saves; see Env). A finished row is
        in no phase of play, so it takes part in none."""
        M = self.M
        a8 = a.astype(np.int8)  # (a finished row's garbage may wrap: it plays no part)
        phase, p2 = self.phase, self.p2
        if active is not None:  # (building tensors, or rows sitting out: only those playing)
            phase = np.where(active, phase, OVER).astype(np.int8)
        eat, claim, respond = phase == EAT, phase == CLAIM, phase == RESPOND
        k = a8 + 1  # the eat, in eat rows
        left = self.remaining
        ate = eat & (a8 < M)
        all_done = eat & (a8 == M)
        last = ate & (k >= left)  # the last dango: lost before any claim
        survived = ate ^ last
        ended_mask = all_done | last
        d0, d1 = self.debts
        in_debt = np.where(p2, d1, d0) > 0  # the mover's
        forced = claim & in_debt
        doubt = respond & (a8 == 2 * M + 2)
        true = self.actual == self.claim
        entries = None
        if self.tracking:  # what the move shows, written before the turn moves on
            entries = self._write(a, p2, ate, claim, forced, respond, doubt, true, active)
        if self.obs is not None:
            self._view_move(a8, p2, eat, ate, claim, forced, respond, doubt, true)
        d0 -= forced & ~p2  # a forced claim pays one back, before the response
        d1 -= forced & p2
        # TRUE: the challenger (the mover) owes an honest claim; BLUFF: the claimant does.
        owes_p2 = p2 ^ ~true
        d1 += doubt & owes_p2
        d0 += doubt & ~owes_p2
        self.remaining -= k * survived
        np.putmask(self.remaining, last, 0)
        np.putmask(self.actual, survived, k)
        np.putmask(self.claim, claim, a8 - M)
        self.turn += respond
        self.phase += survived | claim  # eat to claim, claim to respond
        np.putmask(self.phase, respond, EAT)
        np.putmask(self.phase, ended_mask, OVER)
        self.p2 ^= claim  # the other seat responds, then eats
        if self.swapping:
            self._hand_swap(claim)
        elif entries is not None:
            self._hand_step(claim, *entries)
        # The next decision: a claim (forced to the eat when in debt), a response, an eat.
        np.putmask(self.key, survived, np.where(in_debt, k + 1, 1))
        np.putmask(self.key, claim, self.respond_key)
        np.putmask(self.key, respond, 0)
        ended = winner = ending = None
        if np.count_nonzero(ended_mask):
            ended = np.flatnonzero(ended_mask)
            won = all_done[ended] & (self.remaining[ended] == 1)
            m = p2[ended].astype(np.int64)
            winner = np.where(won, m, 1 - m)
            ending = np.where(all_done[ended], 1 + ~won, rules.LAST_DANGO)
            self.ending[ended] = ending
            if self.tracking and not self.swapping:  # (else at the step's end: _hand_after)
                self._end(ended)
        return ended, winner

    def _next_game(self, rows: np.ndarray, winner: np.ndarray):
        """Series rows whose game ended: the review shown, the score kept, the next
        game started. Returns the rows whose series ended and the series' winners."""
        g = self.game_index[rows]
        if self.tracking:
            for i in np.unique(g).tolist():  # the finished review, shown to both seats
                r = rows[g == i]
                size, base = self.review_size[i], self.review_base[i]
                self.tensors[r, :, base : base + size] = self.reviews[r, None, :size]
                self.reviews[r] = 0
        self.score[rows, winner] += 1  # (each row once)
        score = self.score[rows]
        over = score.max(1) == 2
        if self.tracking:
            for seat in (0, 1):
                self._put_both(rows, self.o_score + seat, score[:, seat])
            self._put_both(rows[over], self.o_game + g[over], 0)
        for i in (0, 1):  # game 1 leads to game 2, game 2 (at 1-1) to game 3
            r = rows[~over & (g == i)]
            if not len(r):
                continue
            outcomes = self._start_game(r, np.full(len(r), i + 1, np.int64))
            if outcomes is not None and self._replay is None:
                self._log_later(r, outcomes)  # (the third game's coin and start)
        return rows[over], np.where(score[over, 0] == 2, 0, 1), rows[~over]

    # ---- tensors --------------------------------------------------------------------

    def _write_table(self, a, p2, true, active):
        """A move's entries, in one write (a dozen calls, where a write per kind
        of move took ten of its own): an eat (the last one too) to the eater
        alone; a claim, its forced mark, a response and a verdict to both seats
        (_move_tables). While a single game's hand holds its running rows, into
        the hand (every entry reaches the mover, who made it); else into both
        seats' store rows, the rows writing nothing into the spare store row,
        returning the entries' columns (B, 2) and whether each reaches the next
        mover (B, 2), for the hand if there is one."""
        A, D = self.num_actions, self.tensor_size
        code = self._code  # (from the legality check, or while tensors are built:)
        if code is None:
            code = self.key * (A + 1) + np.minimum(a.view(np.uint64), A).astype(np.int64)
        if self.is_series:
            code += self.game_index * ((self.M + 4) * (A + 1))
        if active is not None:  # (building tensors: the rows with no move left write nothing)
            code = np.where(active, code, self.finished_key * (A + 1))
        if self.swapping:  # (by code, verdict and mover: hand_tables)
            code *= 4
            code += true * 2 + p2
            cols = self.hand_stride.take(code, 0)
            cols *= self.turn[:, None]
            cols += self.hand_column.take(code, 0)
            cols += self.hand_rows[:, None]
            if self._finished:  # (their zeros stay)
                cols[self.terminated] = self.hand_scratch
            self.hand.reshape(-1)[cols] = 1
            return None
        cols = self.move_stride.take(code, 0)
        cols *= self.turn[:, None]
        cols += self.move_column.take(code, 0)
        cols[:, 1] += self.move_shift.take(code, 0)[:, 1] * ~true  # (BLUFF)
        if self.is_series:
            # Into the mover's store row only: an eat is the mover's, and a public
            # entry (any but an eat) joins the other seat's row when a seat's tensor
            # is read (_settle): the hand never reads them from the store.
            index = p2 * D  # (the mover's store row)
            index += self.pair_base[:, 0]
            index = index[:, None] + cols
            np.putmask(index, ~self.move_mine.take(code, 0), self.spare)
        else:  # (no hand yet: seats read each step cost less with both rows written)
            seats = np.where(p2[:, None], self.pair_base[:, ::-1], self.pair_base)
            index = seats[:, :, None] + cols[:, None, :]
            np.putmask(index, ~self.move_reach.take(code, 0), self.spare)
        self.info.flat[index] = 1
        if self.hand is not None and self._replay is None:
            return cols, self.move_next.take(code, 0)
        return None

    def _write(self, a, p2, ate, claim, forced, respond, doubt, true, active):
        """A move's entries in both seats' tensors (_write_table), and in the
        series the review under construction. Returns what _write_table does."""
        entries = self._write_table(a, p2, true, active)
        if not self.is_series:
            return entries
        M, rv = self.M, self.review
        g, t = self.game_index, self.turn
        r = np.flatnonzero(ate)
        if len(r):
            gr, tr, seat, k = g[r], t[r].astype(np.int64), p2[r].astype(np.int64), a[r] + 1
            self._review(r, rv.eats[gr] + (seat * self.g_turns[gr] + tr) * M + k - 1, 1)
        r = np.flatnonzero(claim)
        if len(r):
            gr, tr, c, f = g[r], t[r].astype(np.int64), a[r] - M, forced[r]
            self._review(r, rv.claims[gr] + tr * M + c - 1, 1)
            self._review(r[f], rv.forced[gr[f]] + tr[f], 1)
        r = np.flatnonzero(respond)
        if len(r):
            gr, tr, d = g[r], t[r].astype(np.int64), doubt[r]
            response, verdict = d.astype(np.int64), np.where(true[r], 0, 1)
            self._review(r, rv.responses[gr] + 2 * tr + response, 1)
            self._review(r[d], (rv.verdicts[gr] + 2 * tr + verdict)[d], 1)
        return entries

    def _end(self, ended: np.ndarray) -> None:
        """A game's end, in its own status block (the series may start the next
        game at once), and what the end shows: a secret start, the count left."""
        g = self.game_index[ended]
        if self.is_series:  # (a single game's is written with every row's)
            self._status(ended, g)
        for seat in (0, 1):
            self._shown(ended, g, seat, self.view)
        if self.is_series:
            self._shown(ended, g, None, self.review)

    def _put(self, rows, seat, at, value, where=None) -> None:
        """Write `value` at offset `at` of seat `seat`'s tensor in `rows` (arrays or scalars)."""
        if where is not None:
            rows, seat, at = _pick(where, rows, seat, at)
            value = _pick(where, value)[0] if np.ndim(value) else value
        self.info.flat[(rows * 2 + seat) * self.tensor_size + at] = value

    def _put_both(self, rows, at, value, where=None) -> None:
        """The same write in both seats' tensors (a public fact)."""
        if where is not None:
            rows, at = _pick(where, rows, at)
            value = _pick(where, value)[0] if np.ndim(value) else value
        D = self.tensor_size
        flat = rows * 2 * D + at
        store = self.info.flat
        store[flat] = value
        store[flat + D] = value

    def _review(self, rows, at, value) -> None:
        """A write into the review under construction (series only)."""
        self.reviews.reshape(-1)[rows * self.reviews.shape[1] + at] = value

    def _status_block(self, rows, out=None) -> np.ndarray:
        """(n, STATUS) uint8: mover, phase, forced_now, debts and ending of `rows`
        (a slice or an index array) as the state stands: one lookup of all but
        the debts (STATUS_TABLE), then the debts."""
        phase, p2 = self.phase[rows], self.p2[rows]
        d0, d1 = self.debts[0, rows], self.debts[1, rows]
        forced_now = (phase == CLAIM) & (np.where(p2, d1, d0) > 0)
        code = ((self.ending[rows] + 1) * 4 + phase) * 4 + (p2 + 2 * forced_now)
        block = STATUS_TABLE.take(code, 0, out=out)
        block[:, 7], block[:, 8] = d0, d1
        return block

    def _status(self, rows: np.ndarray, g: np.ndarray) -> None:
        """Rewrite the status block of game g (per row) in both seats' tensors,
        and in the review under construction, for `rows`."""
        block = self._status_block(rows)
        self._put_both(rows[:, None], self.view.mover[g][:, None] + np.arange(STATUS), block)
        if self.is_series:
            at = self.review.mover[g][:, None] + np.arange(STATUS)
            self._review(rows[:, None], at, block)

    def _settle(self) -> None:
        """Every row's status block of its game under way into the store, where a
        seat's tensor is read (a step leaves the store's stale: the hand has its
        own, _hand_after; a series game's final block is written at its end,
        `_end`), by whole slices (at a few thousand rows cheaper than picking
        the rows that moved or started)."""
        if self.settled:
            return
        self.settled = True
        if self.swapping:  # the running rows' seats from the hand, the finished from finals
            self._unfold_finals()
            run = np.flatnonzero(self.key != self.finished_key)
            self._unfold(run, self.hand[run])
            return
        block = self._status_block(slice(None), self.block)
        if not self.is_series:
            at = int(self.view.mover[0])
            self.tensors[:, :, at : at + STATUS] = block[:, None, :]
            return
        for g in range(len(self.setups)):
            rows = np.flatnonzero(self.game_index == g)
            if len(rows):
                at = int(self.view.mover[g])
                self.tensors[rows, :, at : at + STATUS] = block[rows, None, :]
        self._join_public()

    def _join_public(self) -> None:
        """Each series game's public move entries (claims, forced marks,
        responses, verdicts), written into the mover's store row only
        (_write_table), into both seats' rows: their union, as every entry is
        a 1 in one or both."""
        t = self.tensors
        for lo, hi in zip(self.view.claims.tolist(), self.view.mover.tolist()):
            both = np.maximum(t[:, 0, lo:hi], t[:, 1, lo:hi])
            t[:, 0, lo:hi] = both
            t[:, 1, lo:hi] = both

    def _shown(self, rows, g, seat, pieces) -> None:
        """At a game's end: the secret start (if any) and the count left."""

        def put(r, at):
            if seat is None:
                self._review(r, at, 1)
            else:
                self._put(r, seat, at, 1)

        spread = self.g_spread[g] > 0
        put(rows[spread], (pieces.start_shown[g] + self.start[rows] - self.g_low[g])[spread])
        put(rows, pieces.remaining_shown[g] + self.remaining[rows])

    def _track(self) -> None:
        """From the first tensor read on, every move writes its entries; first
        the rows' tensors are built by replaying their histories with writes on
        (play that never reads a tensor writes none). The replay ends in the
        state it started from: the rules and chance are the history's."""
        B, D = self.batch_size, self.tensor_size
        # No mirror of it is ever read (the step keeps the hand), so it logs nothing.
        self.info = Store(2 * B + 1, D, self.row_of)  # (and a spare row, _move_tables)
        self.tensors = self.info.array[: 2 * B].reshape(B, 2, D)
        self.tracking = True
        self._rebuild_from_history()

    def _rebuild_from_history(self) -> None:
        """Replay every row's history with the kept tensors' writes on: they end
        where the rows are (the rules and chance are the history's)."""
        self.swapping = False  # (the store rebuilt whole, then the hand from it)
        self.finals.clear()
        self.final_due[:] = False
        if self.tracking and self.is_series:
            self.reviews[:] = 0
        self._replay = np.zeros(self.batch_size, np.int64)
        try:
            self._restart(self.rows)  # (the starts' chance read from the history)
            length, last = self.history_len, self.hstride - 1
            while True:
                active = self._replay < length
                if not np.count_nonzero(active):
                    break
                a = self.history[self.rows, np.minimum(self._replay, last)].astype(np.int64)
                self._replay += active
                self._advance(a, active)
        finally:
            self._replay = None
        if self.obs is not None:
            self.obs.invalidate()  # (rewritten whole: any mirror is rebuilt)
        if self.hand is not None:
            self._hand_build()

    # ---- the observation: the seat's view now ------------------------------------------

    def _view_start(self, rows: np.ndarray) -> None:
        """A game starts: no turn yet, and the only total eaten is 0."""
        self.obs_fresh = False
        self.latest[rows] = -1
        self.sums[rows] = 0
        self.sums[rows, :, 0] = 1  # (bit 0: the total 0)

    def _view_move(self, a8, p2, eat, ate, claim, forced, respond, doubt, true) -> None:
        """A move in the record of the latest turn (actor, eat, claim, forced,
        response, verdict); an eat (or all done) begins a turn, and the turn it
        follows joins each seat's totals eaten it cannot rule out."""
        self.obs_fresh = False
        t = self.latest
        begun = np.flatnonzero(eat & (t["actor"] >= 0))  # (finished rows: OVER, not EAT)
        if len(begun):
            self._commit(begun)
        r = np.flatnonzero(eat)
        if len(r):
            t[r] = -1
            t["actor"][r] = p2[r]
            t["ate"][r] = np.where(ate[r], a8[r] + 1, 0)
            t["claimed"][r] = 0
            t["forced"][r] = 0
        r = np.flatnonzero(claim)
        if len(r):
            t["claimed"][r] = a8[r] - self.M
            t["forced"][r] = forced[r]
        r = np.flatnonzero(respond)
        if len(r):
            t["response"][r] = doubt[r]
            t["verdict"][r] = np.where(doubt[r], np.where(true[r], 0, 1), -1)

    def _candidates(self, rows: np.ndarray) -> np.ndarray:
        """(n, 2) uint64: bit k set for each eat k of the rows' latest turn each
        seat cannot rule out (rules.eat_candidates): its own eat, a claim shown
        true (forced or doubted TRUE), anything but a claim doubted BLUFF, else
        any eat; bit 0 alone where the row has no turn yet (nothing added)."""
        one, t = np.uint64(1), self.latest[rows]
        every = np.uint64((1 << (self.M + 1)) - 2)  # eats 1 .. M
        claim = one << np.maximum(t["claimed"], 0).astype(np.uint64)
        shown = (t["claimed"] > 0) & ((t["forced"] == 1) | (t["verdict"] == 0))
        other = np.where(shown, claim, np.where(t["verdict"] == 1, every & ~claim, every))
        own = one << np.maximum(t["ate"], 0).astype(np.uint64)
        cands = np.empty((len(rows), 2), np.uint64)
        for seat in (0, 1):
            cands[:, seat] = np.where(t["actor"] == seat, own, other)
        cands[t["actor"] < 0] = one
        return cands

    def _shift(self, sums: np.ndarray, cands: np.ndarray) -> np.ndarray:
        """Every total of one from `sums` ((n, 2, W) uint64 bitsets: bit t of the
        total t) plus one candidate eat of `cands` (see _candidates)."""
        out = np.zeros_like(sums)
        one, zero = np.uint64(1), np.uint64(0)
        for k in range(self.M + 1):
            mask = zero - ((cands >> np.uint64(k)) & one)  # all ones where k is one
            moved = sums << np.uint64(k)
            if k and sums.shape[2] > 1:  # (the bits carried into the next word)
                moved[..., 1:] |= sums[..., :-1] >> np.uint64(64 - k)
            moved &= mask[..., None]
            out |= moved
        return out

    def _commit(self, rows: np.ndarray) -> None:
        self.sums[rows] = self._shift(self.sums[rows], self._candidates(rows))

    def _view_build(self) -> None:
        """Write every row's view, both seats', into the store: a few dozen entries
        a seat, nearly all changed at every ply (the status block, the latest
        turn), so written whole as the information state of a single game is."""
        B = self.batch_size
        out = self.obs.array.reshape(B, 2, self.obs_size)
        out[:] = 0
        rows_all = self.rows
        t = self.latest
        if self.is_series:
            for seat in (0, 1):
                out[:, :, self.obs_score + seat] = self.score[:, seat, None]
            out[:, 0, self.obs_player] = 1
            out[:, 1, self.obs_player + 1] = 1
            running = self.key != self.finished_key  # (a finished series shows no game)
        has = t["actor"] >= 0
        ended = self.ending >= 0
        for g, at in enumerate(self.obs_at):
            setup = self.setups[g]
            rows = (
                rows_all if not self.is_series else np.flatnonzero(running & (self.game_index == g))
            )
            if not len(rows):
                continue
            view = out[rows] if self.is_series else out  # (n, 2, D): filled (then put back)
            n = len(rows)
            if self.is_series:
                view[:, :, self.obs_game + g] = 1
            view[:, 0, at["player"]] = 1
            view[:, 1, at["player"] + 1] = 1
            tr, hr, er = t[rows], has[rows], ended[rows]
            eat = tr["ate"].astype(np.int64)
            claimed, verdict = tr["claimed"].astype(np.int64), tr["verdict"].astype(np.int64)
            response = tr["response"].astype(np.int64)
            for seat in (0, 1):
                mine = np.flatnonzero(hr & (tr["actor"] == seat) & (eat > 0))
                view[mine, seat, at["eat_now"] + eat[mine] - 1] = 1
            c = np.flatnonzero(hr & (claimed > 0))
            view[c, :, at["last_claim"] + claimed[c] - 1] = 1
            view[c, :, at["last_forced"]] = (tr["forced"][c] == 1)[:, None]
            c = np.flatnonzero(hr & (response >= 0))
            view[c, :, at["last_response"] + response[c]] = 1
            c = np.flatnonzero(hr & (verdict >= 0))
            view[c, :, at["last_verdict"] + verdict[c]] = 1
            # The counts left: each start less each total, with the latest turn's eat.
            H = setup.high + 1
            totals = self._shift(self.sums[rows], self._candidates(rows))
            bits = np.unpackbits(totals.view(np.uint8), axis=2, bitorder="little").view(bool)
            left = np.zeros((n, 2, H), bool)
            for v in setup.starts:  # (count r from total v - r: r = 1 .. v)
                left[:, :, 1 : v + 1] |= bits[:, :, v - 1 :: -1]
            left[er] = False
            done = np.flatnonzero(er)
            remaining = self.remaining[rows].astype(np.int64)
            left[done, :, remaining[done]] = True
            view[:, :, at["remaining_possible"] : at["remaining_possible"] + H] = left
            view[:, :, at["mover"] : at["mover"] + STATUS] = self._status_block(rows)[:, None]
            if setup.spread:
                start = at["start_shown"] + self.start[rows][done].astype(np.int64) - setup.low
                view[done, :, start] = 1
            view[done, :, at["remaining_shown"] + remaining[done]] = 1
            if self.is_series:
                out[rows] = view
        self.obs_fresh = True

    # ---- the hand: the movers' information-state tensors, kept by the step ------------

    def _hand_build(self) -> None:
        """Every row of the hand from the store (zeros in finished rows); in a
        single game the other seats' own columns too, and from then on the
        hand holds the running rows (`swapping`)."""
        self._settle()
        self._hand_copy(self.rows)
        if not self.is_series:
            other = self.rows * 2 + 1 - self.p2
            self.other[:] = self.info.array[other, self.own[0]]
            self.swapping = True

    def _hand_copy(self, rows: np.ndarray) -> None:
        """Rows of the hand copied whole from their movers' store rows (zeros in
        finished rows: the store's padding row)."""
        want = rows * 2 + self.p2[rows]
        np.putmask(want, self.key[rows] == self.finished_key, -1)
        self.hand[rows] = self.info.padded.take(want, 0)

    def _unfold(self, rows: np.ndarray, mine: np.ndarray) -> None:
        """A single game's rows into both seats' store rows: the mover's tensors
        `mine`, and the other seat's, the same but for its own columns."""
        mover = rows * 2 + self.p2[rows]
        other = rows * 4 + 1 - mover
        store = self.info.array
        mine = mine.astype(np.uint8)  # (one cast, for both seats)
        store[mover] = mine
        store[other] = mine
        store[other, self.own[0]] = self.other[rows]

    def _hand_swap(self, claim: np.ndarray) -> None:
        """Where a claim passed the turn, the seats' own columns (`player` and
        the eats) exchanged between the hand and `other`: every other column
        is the same in both seats' tensors."""
        claimed = np.flatnonzero(claim)
        if not len(claimed):
            return
        # Past the turn under way both seats' eats are zero: rows in groups by turn
        # (most claims come early) exchange only up to their group's latest turn
        # (narrow columns in one group: fewer calls cost less than fewer columns).
        M = self.M
        if self.own[0].stop <= 32:
            own = self.own[0]
            mine = self.hand[claimed, own]
            self.hand[claimed, own] = self.other[claimed]
            self.other[claimed] = mine
            return
        for r, upto in _by_turn(claimed, self.turn[claimed]):
            own = slice(0, min(int(self.view.eats[0]) + upto * M, self.own[0].stop))
            mine = self.hand[r, own]
            self.hand[r, own] = self.other[r, own]
            self.other[r, own] = mine

    def _hand_step(self, claim: np.ndarray, cols: np.ndarray, seen: np.ndarray) -> None:
        """A series move's entries into the hand where they reach the next mover
        (`seen`: the other seat after a claim, else the mover), the others' into
        its scratch row; then, where a claim passed the turn, the new mover's
        own columns (its `player` and eats) from the store: every other column
        is the same in both seats' tensors (docs/batch.md#observations)."""
        index = self.hand_rows[:, None] + cols
        np.putmask(index, ~seen, self.hand_scratch)
        self.hand.reshape(-1)[index] = 1
        claimed = np.flatnonzero(claim)
        if not len(claimed):
            return
        games = self.game_index[claimed]
        store, M = self.info.array, self.M
        for g in range(len(self.setups)):  # (columns past a row's game: zero in both seats)
            rows = claimed[games == g] if g or games.any() else claimed
            if not len(rows):
                continue
            srow = 2 * rows + self.p2[rows]
            for own in self.own[: g + 1]:  # `player`, the earlier games' eats
                self.hand[rows, own] = store[srow, own]
            lo, eats, stop = int(self.view.player[g]), int(self.view.eats[g]), self.own[g + 1].stop
            for r, upto in _by_turn(rows, self.turn[rows]):  # this game's, to the turn
                own = slice(lo, min(eats + upto * M, stop))
                self.hand[r, own] = store[2 * r + self.p2[r], own]

    def _hand_after(self, started, ended) -> None:
        """The end of a step in the hand: rows that started a series' next game
        copied whole from the store, every running row's status block (of its
        game under way) from the rows' state, zeros where a row finished (a
        single game's final tensors kept in the store first)."""
        if started is not None and len(started):  # (their status block: written below)
            games = self.game_index[started]
            for g in (1, 2):  # the game that began: what the one before's end changed
                r = started[games == g]
                if len(r):
                    srow = 2 * r + self.p2[r]
                    # (the seat a row shows: its `player` mark; the other's, from the store)
                    seat = self.hand[r, self.o_player + 1] != self.p2[r]
                    for cols in self.next_spans[g - 1]:
                        self.hand[r, cols] = self.info.array[srow, cols]
                    if np.count_nonzero(seat):
                        r, srow = r[seat], srow[seat]
                        for cols in self.next_own[g - 1]:
                            self.hand[r, cols] = self.info.array[srow, cols]
        block = self._status_block(slice(None), self.block)
        if self.is_series:  # (each game's block in the rows playing it)
            for g in range(len(self.setups)):
                rows = np.flatnonzero(self.game_index == g)
                if self._finished:  # (rows ending now are zeroed below)
                    rows = rows[self.key.take(rows) != self.finished_key]
                if len(rows):
                    at = int(self.view.mover[g])
                    self.hand[rows, at : at + STATUS] = block[rows]
        else:  # (rows finished before the step keep their zeros)
            at = int(self.view.mover[0])
            status = self.hand[: self.batch_size, at : at + STATUS]
            if self._finished:
                np.copyto(status, block, where=~self.terminated[:, None])
            else:
                np.copyto(status, block)
        if ended is None or not len(ended):
            return
        if self.swapping:  # the final tensors kept, for the store if read (_settle)
            self.finals.append((ended, self.hand[ended]))
            self.final_due[ended] = True
            if len(self.finals) > LIMIT:  # (a batch never read nor restarted: bounded)
                self._unfold_finals()
        self.hand[ended] = 0

    def _unfold_finals(self) -> None:
        """The finished rows' final tensors, and what their ends show, into the
        store, for the rows not restarted since (the latest end last)."""
        for rows, tensors in self.finals:
            due = self.final_due[rows]
            if np.count_nonzero(due):
                self._unfold(rows[due], tensors[due])
                self._end(rows[due])
        self.finals.clear()
        self.final_due[:] = False

    # ---- tensors: the Env hooks -------------------------------------------------------

    def _mover_tensor(self) -> np.ndarray:
        """The movers' information-state tensors: a read-only view of the hand,
        which every step keeps up to date from the first read on, so a read
        costs nothing more (docs/batch.md#observations); the observation form
        from its store, as the other engines read theirs."""
        if self.form != "information_state":
            return super()._mover_tensor()
        if not self.tracking:
            self._track()
        if self.hand is None:
            B, D = self.batch_size, self.tensor_size
            self.hand = np.zeros((B + 1, D), self.dtype)  # (row B: the scratch row)
            self.hand_view = self.hand[:B]
            self.hand_view.flags.writeable = False
            self.hand_rows = self.rows * D
            self.hand_scratch = B * D
            self.status_cols = np.arange(STATUS)
            if not self.is_series:
                self.other = np.zeros((B, self.own[0].stop), self.dtype)
            self._hand_build()
        return self.hand_view

    def _seat_store(self, form: str, player: int) -> Store:
        store = self._store(form)
        if form == "information_state":
            self._settle()
        return store

    def _store(self, form: str) -> Store:
        if form == "observation":
            if self.obs is None:
                B = self.batch_size
                self.obs = Store(2 * B, self.obs_size, self.row_of, whole=True)
                # The latest turn (LATEST_TURN) and per seat the totals
                # eaten before it that the seat cannot rule out.
                self.latest = np.full(B, -1, LATEST_TURN)
                words = -(-max(g.high for g in self.setups) // 64)  # totals 0 .. high - 1
                self.sums = np.zeros((B, 2, words), np.uint64)
                self._rebuild_from_history()
            if not self.obs_fresh:
                self._view_build()
            return self.obs
        if not self.tracking:
            self._track()
        return self.info


def _by_turn(rows: np.ndarray, turn: np.ndarray):
    """`rows` in groups by their turn under way (SWAP_TURNS), each with the number
    of turns its rows' eats may fill (past them both seats' eats are zero)."""
    low = 0
    for high in (*SWAP_TURNS, None):
        if high is None:
            yield rows[turn >= low], int(turn.max()) + 1
            return
        r = rows[turn < high] if low == 0 else rows[(turn >= low) & (turn < high)]
        if len(r):
            yield r, high
        if not np.count_nonzero(turn >= high):
            return
        low = high


def _pick(where, *arrays):
    """Each of `arrays` (or a scalar) at the rows where `where` holds."""
    return tuple(x[where] if np.ndim(x) else x for x in arrays)
