"""Batched Mind Bluff, single games and the best-of-3 series (docs/mind_bluff.md),
as compiled per-row kernels (fogboard_games.jit).

A row is one game (or series) kept as the rules keep a match: per game of
the row, its phase, count left, debts, first seat, start, ending, winner
and its turns (actor, eat, claim, forced, response, verdict), with the
series' game under way and score. `_step_rows` does for each row what
`rules.Match.play` does for one state; `_encode_rows` writes a row's
tensors of both seats as `observer.MindBluffEncoder` (and the series'
encoder) encode one state, from those records. Chance (the coin, a secret
start) is drawn from the environment's Generator where a game starts, and
logged in the row's history as pyspiel's outcomes: at the restart of a
single game, and for the series' third game right after the action that
ended the second.

Tensors are made at their first read and then kept: a step marks the rows
it changed, and a read re-encodes those rows, the game under way only
(finished games of a series never change: their blocks are written once,
when they end).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import Store
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.jit import kernel
from fogboard_games.mind_bluff import rules, series

EAT, CLAIM, RESPOND, OVER = rules.EAT, rules.CLAIM, rules.RESPOND, rules.OVER
# A turn's record, per row, game and turn (-1: not yet; eat 0: all done).
ACTOR, ATE, CLAIMED, FORCED, RESPONSE, VERDICT = range(6)
# The pieces a game's block may hold, in this order (observer.MindBluffEncoder's names).
PIECES = (
    "player", "eats", "eat_now", "first", "claims", "forced", "responses", "verdicts",
    "last_claim", "last_forced", "last_response", "last_verdict", "remaining_possible",
    "mover", "phase", "forced_now", "debts", "ending", "start_shown", "remaining_shown",
)  # fmt: skip
GAME_BLOCK, REVIEW_BLOCK = 0, 1
# How much of a row a read must encode again: nothing, the game under way, everything.
CLEAN, CURRENT, WHOLE = 0, 1, 2


def _offsets(layout, base: int) -> np.ndarray:
    return np.array([base + layout.offset[p] if p in layout.offset else -1 for p in PIECES])


class MindBluff(Env):
    """A batch of fogboard_mind_bluff or fogboard_mind_bluff_series games."""

    TABLES = ("legal", "legal_flat", "legal_by_action", "blocks", "outer", "spans", "g_setup")

    def _configure(self, game) -> None:
        setup = game.setup
        self.is_series = isinstance(setup, series.SeriesSetup)
        self.setups = setup.games if self.is_series else (setup,)
        self.num_players = 2
        self.num_actions = setup.num_actions
        self.M = setup.max_eat
        self.tensor_size = game.info_layout.size
        self.obs_size = game.obs_layout.size
        chance = sum((g.first_player == -1) + (g.spread > 0) for g in self.setups)
        self.max_history = chance + setup.max_game_length

    def _build(self) -> None:
        B, M, G = self.batch_size, self.M, len(self.setups)
        self.start_block = (0, M + 1)  # every game starts at an eat
        # legal[key]: eat; claim; a forced claim of the true eat k (1 + k); respond; over.
        legal = np.zeros((M + 4, self.num_actions), bool)
        legal[0, : M + 1] = True
        legal[1, M + 1 : 2 * M + 1] = True
        for k in range(1, M + 1):
            legal[1 + k, M + k] = True
        legal[M + 2, [2 * M + 1, 2 * M + 2]] = True
        self.legal = legal
        self.legal_flat = np.concatenate([legal, np.zeros((M + 4, 1), bool)], 1).reshape(-1)
        self.legal_by_action = np.ascontiguousarray(legal.T)
        self.respond_key, self.finished_key = M + 2, M + 3
        # Per game: first seat (-1: a coin), start, spread, low, high, turns.
        self.g_setup = np.array(
            [[s.first_player, s.start, s.spread, s.low, s.high, s.max_turns] for s in self.setups],
            np.int64,
        )
        self.T = int(self.g_setup[:, 5].max())
        self.W = -(-(int(self.g_setup[:, 4].max()) + 1) // 64)  # bitset words of totals
        self.blocks, self.outer, self.spans = self._layouts()
        # The rows: the game under way, the score, and per game its state and turns.
        self.game_index = np.zeros(B, np.int64)
        self.score = np.zeros((B, 2), np.int64)
        self.mover = np.zeros(B, np.int64)
        self.key = np.zeros(B, np.int8)
        self.state = np.zeros((B, G, 9), np.int16)  # (see _step_rows: STATE_*)
        self.turns = np.full((B, G, self.T, 6), -1, np.int8)
        self.tracking = False  # some tensor was read: kept from then on
        # Per form, once read: its Store of both seats' tensors (store row 2b + p)
        # and (B,) what a read must encode again (CLEAN, CURRENT, WHOLE).
        self.info = self.obs = self.info_dirty = self.obs_dirty = None
        self.row_of = (np.arange(2 * B) // 2).astype(np.int32)

    @property
    def remaining(self) -> np.ndarray:
        """(B,) the count left in each row's game under way."""
        return self.state[self.rows, self.game_index, S_REMAINING].astype(np.int64)

    def _layouts(self):
        """Each game's pieces per form (absolute offsets, -1: absent) and the
        series' own (player, score, game), and each game's span of columns."""
        game, G = self.game, len(self.setups)
        blocks = np.full((2, 2, G, len(PIECES)), -1, np.int64)  # [form, block kind, game]
        outer = np.full((2, 3), -1, np.int64)
        spans = np.zeros((2, G, 2), np.int64)  # [form, game]: columns of its blocks
        for f, key in enumerate((INFO_STATE, OBSERVATION)):
            layout = game.encoder.layout(key)
            if not self.is_series:
                blocks[f, GAME_BLOCK, 0] = _offsets(layout, 0)
                spans[f, 0] = (0, layout.size)
                continue
            at = layout.offset
            for i, name in enumerate(("player", "score", "game")):
                outer[f, i] = at.get(name, -1)
            for g in range(G):
                inner = game.setup.encoder.inner[g]
                lo = hi = None
                for kind, (name, inner_key) in enumerate(
                    ((f"game{g + 1}", key), (f"review{g + 1}", series.REVIEW_KEY))
                ):
                    if name in at:
                        blocks[f, kind, g] = _offsets(inner.layout(inner_key), at[name])
                        end = at[name] + layout.shape[name][0]
                        lo = at[name] if lo is None else min(lo, at[name])
                        hi = end if hi is None else max(hi, end)
                spans[f, g] = (lo or 0, hi or 0)
        return blocks, outer, spans

    # ---- restarts and game starts ---------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self.game_index[rows] = 0
        self.score[rows] = 0
        self.state[rows] = 0
        self.state[rows, :, S_ENDING] = -1
        self.turns[rows] = -1
        self._start_games(rows, later=False)

    def _start_games(self, rows: np.ndarray, later: bool) -> None:
        """The rows' game under way starts: its coin and secret start drawn
        where the game has them, logged (after the step's action if `later`)."""
        g = self.game_index[rows]
        first, start, spread, low = (self.g_setup[g, i] for i in range(4))
        coin = first < 0
        secret = spread > 0
        first = np.where(coin, (self.rng.random(len(rows)) < 0.5).astype(np.int64), first)
        drawn = low + (self.rng.random(len(rows)) * (2 * spread + 1)).astype(np.int64)
        start = np.where(secret, drawn, start)
        st = self.state
        st[rows, g] = 0
        st[rows, g, S_FIRST], st[rows, g, S_START], st[rows, g, S_REMAINING] = first, start, start
        st[rows, g, S_ENDING] = -1
        self.mover[rows] = first
        self.key[rows] = 0
        if coin.any() or secret.any():
            outcomes = np.stack([first, start], 1)
            real = np.stack([coin, secret], 1)
            (self._log_later if later else self._log)(rows, outcomes, real)
        for level in self._levels():
            level[rows] = WHOLE

    # ---- the moves --------------------------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        return self.legal_by_action.take(self.key, 1).T

    def _play(self, acts: np.ndarray, active):
        self._check_keys(acts, active, self.key, self.legal_flat)
        B = self.batch_size
        playing = np.ones(B, bool) if active is None else active
        ended = np.zeros(B, bool)
        rewards = np.zeros((B, 2), np.float32)
        starts = np.zeros(B, bool)
        levels = self._levels()
        level = levels[0] if levels else np.zeros(0, np.int8)
        _step_rows(
            acts, playing, self.game_index, self.score, self.mover, self.key, self.state,
            self.turns, self.M, len(self.setups), ended, rewards, starts, level,
        )  # fmt: skip
        for other in levels[1:]:
            np.maximum(other, level, out=other)
        if starts.any():
            self._start_games(np.flatnonzero(starts), later=True)
        if not ended.any() and not rewards.any():
            return None, None
        return ended, rewards

    # ---- the tensors ------------------------------------------------------------------

    def _levels(self) -> list:
        return [x for x in (self.info_dirty, self.obs_dirty) if x is not None]

    def _store(self, form: str) -> Store:
        f = 0 if form == "information_state" else 1
        name = ("info", "obs")[f]
        if getattr(self, name) is None:
            B = self.batch_size
            size = self.tensor_size if f == 0 else self.obs_size
            setattr(self, name, Store(2 * B, size, self.row_of, whole=True))
            setattr(self, name + "_dirty", np.full(B, WHOLE, np.int8))
            self.tracking = True
        store, level = getattr(self, name), getattr(self, name + "_dirty")
        if level.any():
            _encode_rows(
                store.array, level, f, self.game_index, self.score, self.mover,
                self.state, self.turns, self.blocks[f], self.outer[f], self.spans[f],
                self.g_setup, self.M, self.W, self.is_series,
            )  # fmt: skip
            level[:] = CLEAN
        return store


# A game's state, per row and game (int16).
S_PHASE, S_REMAINING, S_DEBT0, S_DEBT1, S_TURNS, S_ENDING, S_WINNER, S_FIRST, S_START = range(9)


@kernel
def _step_rows(
    acts, playing, game_index, score, mover, key, state, turns, M, G, ended, rewards, starts, level
):
    """`rules.Match.play` (and the series' `SeriesMatch.play`) for every
    playing row, its action already checked (`_move`); where a game ends,
    `ended` and `rewards` (the series: its end) or `starts` (the series'
    next game, which the caller starts); the rows' encode `level`."""
    for b in range(len(acts)):
        if not playing[b]:
            continue
        g = game_index[b]
        st = state[b, g]
        over = _move(st, turns[b, g], mover, key, b, acts[b], M)
        if len(level):
            level[b] = max(level[b], WHOLE if over else CURRENT)
        if not over:
            continue
        w = st[S_WINNER]
        if G > 1:
            score[b, w] += 1
            if score[b, w] < 2:
                game_index[b] = g + 1
                starts[b] = True
                continue
        ended[b] = True
        key[b] = M + 3
        rewards[b, w] = 1.0
        rewards[b, 1 - w] = -1.0


@kernel
def _move(st, turns, mover, key, b, act, M) -> bool:
    """One move of row b's game (its state `st`, its `turns`): the mover
    and legal key after it; True when it ends the game."""
    a = mover[b]
    t = st[S_TURNS]
    if st[S_PHASE] == EAT:
        turn = turns[t]
        turn[ACTOR] = a
        st[S_TURNS] = t + 1
        turn[ATE] = 0 if act == M else act + 1
        if act == M:  # all done
            won = st[S_REMAINING] == 1
            st[S_ENDING] = rules.ALL_DONE_WIN if won else rules.ALL_DONE_LOSS
            st[S_WINNER] = a if won else 1 - a
        elif act + 1 >= st[S_REMAINING]:  # the last dango: lost before any claim
            st[S_REMAINING] = 0
            st[S_ENDING] = rules.LAST_DANGO
            st[S_WINNER] = 1 - a
        else:
            st[S_REMAINING] -= act + 1
            st[S_PHASE] = CLAIM
            key[b] = 2 + act if st[S_DEBT0 + a] > 0 else 1  # (owing: only the true eat)
            return False
        st[S_PHASE] = OVER
        return True
    turn = turns[t - 1]
    if st[S_PHASE] == CLAIM:
        forced = st[S_DEBT0 + a] > 0
        if forced:  # the forced-honest claim pays back one debt, before the response
            st[S_DEBT0 + a] -= 1
        turn[CLAIMED] = act - M
        turn[FORCED] = 1 if forced else 0
        st[S_PHASE] = RESPOND
        mover[b] = 1 - a
        key[b] = M + 2
        return False
    # RESPOND: the mover is the challenger
    if act == 2 * M + 1:  # believe
        turn[RESPONSE] = rules.BELIEVE
    else:
        true = turn[ATE] == turn[CLAIMED]
        # TRUE: the challenger owes an honest claim; BLUFF: the claimant does.
        st[S_DEBT0 + (a if true else turn[ACTOR])] += 1
        turn[RESPONSE] = rules.DOUBT
        turn[VERDICT] = 1 if true else 0
    st[S_PHASE] = EAT
    key[b] = 0
    return False


@kernel
def _encode_rows(
    out, level, f, game_index, score, mover, state, turns, blocks, outer, spans, g_setup, M, W,
    is_series,
):  # fmt: skip
    """Both seats' tensors of the rows whose `level` is not CLEAN, into `out`
    (store row 2b + p): the game under way only at CURRENT, every piece at WHOLE."""
    sums = np.zeros(W, np.uint64)
    for b in range(len(level)):
        if level[b] == CLEAN:
            continue
        g_now = game_index[b]
        series_over = is_series and max(score[b, 0], score[b, 1]) == 2
        for p in range(2):
            row = out[2 * b + p]
            if level[b] == WHOLE:
                row[:] = 0
                first_game = 0
            else:
                row[spans[g_now, 0] : spans[g_now, 1]] = 0
                first_game = g_now
            if is_series:
                if outer[0] >= 0:
                    row[outer[0] + p] = 1
                if outer[1] >= 0:
                    row[outer[1]] = score[b, 0]
                    row[outer[1] + 1] = score[b, 1]
                    if outer[2] >= 0:
                        row[outer[2] : outer[2] + 3] = 0
                        if not series_over:
                            row[outer[2] + g_now] = 1
            for g in range(first_game, g_now + 1):
                st = state[b, g]
                done = st[S_ENDING] >= 0
                if f == 1 and is_series and (done or series_over):
                    continue  # a current view shows the game under way only
                seat_mover = -1 if done else mover[b]
                _encode_game(
                    row, blocks[GAME_BLOCK, g], p, False, st, turns[b, g], seat_mover,
                    g_setup[g], M, sums,
                )  # fmt: skip
                if done and blocks[REVIEW_BLOCK, g, 13] >= 0:
                    _encode_game(
                        row, blocks[REVIEW_BLOCK, g], p, True, st, turns[b, g], -1,
                        g_setup[g], M, sums,
                    )  # fmt: skip


@kernel
def _encode_game(row, at, seat, seen_all, st, turns, mover, setup, M, sums):
    """One game's pieces `at` (offsets, -1: absent) for `seat` (every seat's
    eats if `seen_all`), as observer.MindBluffEncoder.encode writes them."""
    n = st[S_TURNS]
    T = setup[5]  # (this game's turns: the rows of its eats)
    if at[0] >= 0:
        row[at[0] + seat] = 1
    for t in range(n):
        turn = turns[t]
        seen = seen_all or turn[ACTOR] == seat
        r = turn[ACTOR] if seen_all else 0
        if at[1] >= 0 and seen and turn[ATE] > 0:
            row[at[1] + (r * T + t) * M + turn[ATE] - 1] = 1
        if at[4] >= 0:
            if turn[CLAIMED] > 0:
                row[at[4] + t * M + turn[CLAIMED] - 1] = 1
                if turn[FORCED] == 1:
                    row[at[5] + t] = 1
            if turn[RESPONSE] >= 0:
                row[at[6] + 2 * t + turn[RESPONSE]] = 1
            if turn[VERDICT] >= 0:
                row[at[7] + 2 * t + 1 - turn[VERDICT]] = 1
    if at[3] >= 0 and st[S_FIRST] >= 0:
        row[at[3] + st[S_FIRST]] = 1
    if n > 0:
        turn = turns[n - 1]
        if at[2] >= 0 and turn[ATE] > 0 and (seen_all or turn[ACTOR] == seat):
            r = turn[ACTOR] if seen_all else 0
            row[at[2] + r * M + turn[ATE] - 1] = 1
        if at[8] >= 0:
            if turn[CLAIMED] > 0:
                row[at[8] + turn[CLAIMED] - 1] = 1
                if turn[FORCED] == 1:
                    row[at[9]] = 1
            if turn[RESPONSE] >= 0:
                row[at[10] + turn[RESPONSE]] = 1
            if turn[VERDICT] >= 0:
                row[at[11] + 1 - turn[VERDICT]] = 1
    ended = st[S_ENDING] >= 0
    if at[12] >= 0:
        if ended:
            row[at[12] + st[S_REMAINING]] = 1
        else:
            _possible(row, at[12], seat, seen_all, st, turns, setup, M, sums)
    if at[13] < 0:
        return
    if mover >= 0:
        row[at[13] + mover] = 1
    row[at[14] + st[S_PHASE]] = 1
    if st[S_PHASE] == CLAIM and st[S_DEBT0 + mover] > 0:
        row[at[15]] = 1
    row[at[16]] = st[S_DEBT0]
    row[at[16] + 1] = st[S_DEBT1]
    if ended:
        row[at[17] + st[S_ENDING]] = 1
        if at[18] >= 0:
            row[at[18] + st[S_START] - setup[3]] = 1
        row[at[19] + st[S_REMAINING]] = 1


@kernel
def _possible(row, at, seat, seen_all, st, turns, setup, M, sums):
    """rules.remaining_set: every count left the seat cannot rule out, from the
    totals one pick of each turn's candidate eats (rules.eat_candidates) makes."""
    W = len(sums)
    sums[:] = 0
    sums[0] = 1  # the total 0
    every = (1 << (M + 1)) - 2  # eats 1 .. M
    for t in range(st[S_TURNS]):
        turn = turns[t]
        if seen_all or turn[ACTOR] == seat:
            cands = 1 << turn[ATE]
        elif turn[CLAIMED] > 0 and (turn[FORCED] == 1 or turn[VERDICT] == 1):
            cands = 1 << turn[CLAIMED]
        elif turn[VERDICT] == 0:  # BLUFF: anything but the claim
            cands = every & ~(1 << turn[CLAIMED])
        else:
            cands = every
        shifted = np.zeros(W, np.uint64)
        for k in range(1, M + 1):
            if cands >> k & 1:
                for w in range(W - 1, -1, -1):
                    word = sums[w] << np.uint64(k)
                    if w > 0:
                        word |= sums[w - 1] >> np.uint64(64 - k)
                    shifted[w] |= word
        sums[:] = shifted
    low, high = setup[3], setup[4]
    for total in range(high):  # (the totals below the highest start)
        if sums[total // 64] >> np.uint64(total % 64) & np.uint64(1):
            for v in range(max(low, total + 1), high + 1):
                row[at + v - total] = 1
