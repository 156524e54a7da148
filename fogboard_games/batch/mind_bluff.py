"""Batched Mind Bluff, single games and the best-of-3 series (docs/mind_bluff.md).

The rules are those of fogboard_games/mind_bluff/rules.py
(docs/mind_bluff.md#rules) and series.py (docs/mind_bluff.md#the-series),
applied to every row at once. Chance (the coin, then a secret start) is
drawn from the environment's Generator where a game starts, and logged in
the row's history as pyspiel's outcomes: at the restart of a single game,
and for the series' third game right after the action that ended the
second (so `step` appends it after that action).

A row keeps only what the rules need: the phase, the mover, the count
left, both honesty debts, the turn under way and its eat and claim (and
in the series the game and the score). Legal actions depend on one key
per row (eat; claim; a forced claim of the true eat k; respond; over).

Both seats' information-state tensors are kept as one uint8 store, each
step writing its few entries for every row (the eat to its seat, the
claim, response and verdict to both, then the status block of mover,
phase, forced_now, debts and ending); in the series the finished game's
review (the view of every seat) is built beside it and copied into both
seats when that game ends. `_seat_view` is the one place that reads a
seat's tensor out.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.mind_bluff import rules, series

EAT, CLAIM, RESPOND, OVER = range(4)  # rules.EAT .. rules.OVER, counted from EAT
STATUS = 12  # mover (2), phase (4), forced_now (1), debts (2), ending (3): contiguous
REVIEW = series.REVIEW_KEY  # a finished game as every seat sees it


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

    def __init__(self, game, batch_size: int, seed=None):
        setup = game.setup
        self.is_series = isinstance(setup, series.SeriesSetup)
        games = setup.games if self.is_series else (setup,)
        self.setups = games
        self.num_players = 2
        self.num_actions = A = setup.num_actions
        self.M = M = setup.max_eat
        layout = game.info_layout
        self.tensor_size = D = layout.size
        chance = sum((g.first_player == -1) + (g.spread > 0) for g in games)
        self.max_history = chance + setup.max_game_length
        super().__init__(game, batch_size, seed)
        B = self.batch_size

        # Per game: the first seat (-1: a coin), the start's range, the turns.
        self.g_first = np.array([g.first_player for g in games], np.int64)
        self.g_low = np.array([g.low for g in games], np.int64)
        self.g_high = np.array([g.high for g in games], np.int64)
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

        self.game_index = np.zeros(B, np.int64)  # the game under way (the series' 0..2)
        self.key = np.zeros(B, np.int64)
        self.phase = np.zeros(B, np.int64)
        self.mover = np.zeros(B, np.int64)
        self.first = np.zeros(B, np.int64)
        self.start = np.zeros(B, np.int64)
        self.remaining = np.zeros(B, np.int64)
        self.debts = np.zeros((B, 2), np.int64)
        self.turn = np.zeros(B, np.int64)  # the turn under way, from 0
        self.actual = np.zeros(B, np.int64)  # its eat
        self.claim = np.zeros(B, np.int64)  # its claim
        self.score = np.zeros((B, 2), np.int64)
        self.tensors = np.zeros((B, 2, D), np.uint8)  # small counts: float32 when read
        self._chance = None  # (rows, outcomes) drawn in `_play`, logged after the action
        self.reset()

    # ---- starts: the chance draws -------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self.tensors[rows] = 0
        self._put(rows, 0, self.o_player, 1)
        self._put(rows, 1, self.o_player + 1, 1)
        if self.is_series:
            self.score[rows] = 0
            self.reviews[rows] = 0
        outcomes = self._start_game(rows, np.zeros(len(rows), np.int64))
        if outcomes is not None:
            self._log(rows, outcomes)

    def _start_game(self, rows: np.ndarray, g: np.ndarray):
        """Rows start game g (a per-row index; in a call that draws chance all rows
        start the same game). Returns the chance outcomes to log, (rows, k), or None."""
        n = len(rows)
        self.game_index[rows] = g
        first = self.g_first[g]
        drawn = []
        i = int(g[0]) if n else 0
        if n and self.setups[i].first_player == -1:  # a public coin
            first = self.rng.integers(0, 2, size=n)
            drawn.append(first)
        start = self.g_low[g]
        if n and self.setups[i].spread:  # a secret start
            start = self.rng.integers(self.setups[i].low, self.setups[i].high + 1, size=n)
            drawn.append(start)
        self.first[rows] = first
        self.start[rows] = start
        self.remaining[rows] = start
        self.mover[rows] = first
        self.debts[rows] = 0
        self.turn[rows] = 0
        self.phase[rows] = EAT
        self.key[rows] = 0
        v = self.view
        for seat in (0, 1):
            self._put(rows, seat, v.player[g] + seat, 1)
        self._put_both(rows, v.first[g] + first, 1)
        if self.is_series:
            self._review(rows, self.review.first[g] + first, 1)
            self._put_both(rows, self.o_game + g, 1)
            self._put_both(rows, self.o_game + g - 1, 0, where=g > 0)
        self._status(rows, g)
        return np.stack(drawn, 1) if drawn else None

    # ---- what the mover may do ----------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        return self.legal_by_action.take(self.key, 1).T

    # ---- the moves ------------------------------------------------------------------

    def step(self, actions):
        state = super().step(actions)
        if self._chance is not None:  # the third game's coin and start, after the action
            rows, outcomes = self._chance
            self._chance = None
            self._log(rows, outcomes)
        return state

    def _play(self, acts: np.ndarray, active):
        rows = self.rows if active is None else np.flatnonzero(active)
        a = acts if active is None else acts[rows]
        A = self.num_actions
        inside = (a >= 0) & (a < A)
        ok = inside & self.legal.reshape(-1)[self.key[rows] * A + np.where(inside, a, 0)]
        if not ok.all():
            every = np.ones(self.batch_size, bool)
            every[rows] = ok
            self._refuse(active, acts, every)
        done, winner = self._apply(rows, a)
        if not len(done):
            return None, None
        if self.is_series:
            done, winner = self._next_game(done, winner)
            if not len(done):
                return None, None
        ended = np.zeros(self.batch_size, bool)
        ended[done] = True
        self.key[done] = self.finished_key
        rewards = np.zeros((self.batch_size, 2), np.float32)
        rewards[done, winner] = 1.0
        rewards[done, 1 - winner] = -1.0
        return ended, rewards

    def _apply(self, rows: np.ndarray, a: np.ndarray):
        """Play the checked actions; returns the rows whose game ended and its winners."""
        M, v = self.M, self.view
        g = self.game_index[rows]
        phase, mover, t = self.phase[rows], self.mover[rows], self.turn[rows]
        ending = np.full(len(rows), -1, np.int64)
        winner = np.zeros(len(rows), np.int64)

        # Eats and all done.
        eat = np.flatnonzero(phase == EAT)
        if len(eat):
            r, k, seat, left = rows[eat], a[eat] + 1, mover[eat], self.remaining[rows[eat]]
            done = k == M + 1
            won = left == 1
            ending[eat[done]] = np.where(won[done], rules.ALL_DONE_WIN, rules.ALL_DONE_LOSS)
            winner[eat[done]] = np.where(won[done], seat[done], 1 - seat[done])
            ate = ~done
            last = ate & (k >= left)
            ending[eat[last]] = rules.LAST_DANGO
            winner[eat[last]] = 1 - seat[last]
            self.remaining[r[last]] = 0
            on = ate & ~last
            ro, ko = r[on], k[on]
            self.remaining[ro] = left[on] - ko
            self.actual[ro] = ko
            self.phase[ro] = CLAIM
            forced = self.debts[ro, seat[on]] > 0
            self.key[ro] = np.where(forced, 1 + ko, 1)
            # The eat (the last one too) is the eater's alone.
            re, ke, se, ge, te = r[ate], k[ate], seat[ate], g[eat[ate]], t[eat[ate]]
            self._put(re, se, v.eats[ge] + te * M + ke - 1, 1)
            if self.is_series:
                turns = self.g_turns[ge]
                self._review(re, self.review.eats[ge] + (se * turns + te) * M + ke - 1, 1)

        # Claims.
        cl = np.flatnonzero(phase == CLAIM)
        if len(cl):
            r, seat, gc, tc = rows[cl], mover[cl], g[cl], t[cl]
            c = a[cl] - M
            forced = self.debts[r, seat] > 0
            self.debts[r[forced], seat[forced]] -= 1  # paid back before the response
            self.claim[r] = c
            self.phase[r] = RESPOND
            self.mover[r] = 1 - seat
            self.key[r] = self.respond_key
            self._put_both(r, v.claims[gc] + tc * M + c - 1, 1)
            self._put_both(r, v.forced[gc] + tc, 1, where=forced)
            if self.is_series:
                self._review(r, self.review.claims[gc] + tc * M + c - 1, 1)
                self._review(r[forced], self.review.forced[gc[forced]] + tc[forced], 1)

        # Responses: the mover is the challenger, and eats next.
        rs = np.flatnonzero(phase == RESPOND)
        if len(rs):
            r, challenger, gr, tr = rows[rs], mover[rs], g[rs], t[rs]
            doubt = a[rs] == 2 * M + 2
            true = self.actual[r] == self.claim[r]
            # TRUE: the challenger owes an honest claim; BLUFF: the claimant does.
            owes = np.where(true, challenger, 1 - challenger)
            np.add.at(self.debts, (r[doubt], owes[doubt]), 1)
            self.turn[r] = tr + 1
            self.phase[r] = EAT
            self.key[r] = 0
            response = doubt.astype(np.int64)
            verdict = np.where(true, 0, 1)
            self._put_both(r, v.responses[gr] + 2 * tr + response, 1)
            self._put_both(r, v.verdicts[gr] + 2 * tr + verdict, 1, where=doubt)
            if self.is_series:
                rv = self.review
                self._review(r, rv.responses[gr] + 2 * tr + response, 1)
                self._review(r[doubt], (rv.verdicts[gr] + 2 * tr + verdict)[doubt], 1)

        over = np.flatnonzero(ending >= 0)
        self.phase[rows[over]] = OVER
        self._status(rows, g, ending)
        if len(over):
            ro, go = rows[over], g[over]
            for seat in (0, 1):
                self._shown(ro, go, seat, v)
            if self.is_series:
                self._shown(ro, go, None, self.review)
        return rows[over], winner[over]

    def _next_game(self, rows: np.ndarray, winner: np.ndarray):
        """Series rows whose game ended: the review shown, the score kept, the next
        game started. Returns the rows whose series ended and the series' winners."""
        g = self.game_index[rows]
        for i in np.unique(g).tolist():  # the finished review, shown to both seats
            r = rows[g == i]
            size, base = self.review_size[i], self.review_base[i]
            self.tensors[r, :, base : base + size] = self.reviews[r, None, :size]
            self.reviews[r] = 0
        np.add.at(self.score, (rows, winner), 1)
        score = self.score[rows]
        for seat in (0, 1):
            self._put_both(rows, self.o_score + seat, score[:, seat])
        over = score.max(1) == 2
        self._put_both(rows[over], self.o_game + g[over], 0)
        on = ~over
        for i in np.unique(g[on]).tolist():
            r = rows[on][g[on] == i]
            outcomes = self._start_game(r, np.full(len(r), i + 1, np.int64))
            if outcomes is not None:
                self._chance = (r, outcomes)
        return rows[over], np.where(score[over, 0] == 2, 0, 1)

    # ---- tensors --------------------------------------------------------------------

    def _put(self, rows, seat, at, value, where=None) -> None:
        """Write `value` at offset `at` of seat `seat`'s tensor in `rows` (arrays or scalars)."""
        if where is not None:
            rows, seat, at = _pick(where, rows, seat, at)
            value = _pick(where, value)[0] if np.ndim(value) else value
        flat = (rows * 2 + seat) * self.tensor_size + at
        self.tensors.reshape(-1)[flat] = value

    def _put_both(self, rows, at, value, where=None) -> None:
        """The same write in both seats' tensors (a public fact)."""
        for seat in (0, 1):
            self._put(rows, seat, at, value, where=where)

    def _review(self, rows, at, value) -> None:
        """A write into the review under construction (series only)."""
        self.reviews.reshape(-1)[rows * self.reviews.shape[1] + at] = value

    def _status(self, rows: np.ndarray, g: np.ndarray, ending=None) -> None:
        """Rewrite the status block (mover, phase, forced_now, debts, ending) of
        game g in both seats' tensors, and in the review under construction."""
        n = len(rows)
        block = np.zeros((n, STATUS), np.uint8)
        i = np.arange(n)
        phase = self.phase[rows]
        mover = self.mover[rows]
        running = phase != OVER
        block[i[running], mover[running]] = 1
        block[i, 2 + phase] = 1
        debts = self.debts[rows]
        block[:, 6] = (phase == CLAIM) & (debts[i, mover] > 0)
        block[:, 7:9] = debts
        if ending is not None:
            block[i[~running], 9 + ending[~running]] = 1
        at = self.view.mover[g][:, None] + np.arange(STATUS)
        for seat in (0, 1):
            self._put(rows[:, None], seat, at, block)
        if self.is_series:
            at = self.review.mover[g][:, None] + np.arange(STATUS)
            self._review(rows[:, None], at, block)

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

    def _seat_view(self, player: int) -> np.ndarray:
        """(B, D) uint8: seat `player`'s information-state tensor in every row."""
        return self.tensors[:, player]

    def _mover_tensor(self) -> np.ndarray:
        B, D = self.batch_size, self.tensor_size
        out = self._fresh("observation", (B, D), np.float32)  # (see Env._fresh)
        np.copyto(out, self.tensors.reshape(-1, D).take(self.rows * 2 + self.mover, 0))
        if self._finished:
            out[self.terminated] = 0
        return out

    def _seat_tensor(self, player: int) -> np.ndarray:
        return self._seat_view(player).astype(np.float32)


def _pick(where, *arrays):
    """Each of `arrays` (or a scalar) at the rows where `where` holds."""
    return tuple(x[where] if np.ndim(x) else x for x in arrays)
