"""Batched Mind Bluff, single games and the best-of-3 series (docs/mind_bluff.md),
as compiled per-row kernels (fogboard_games.jit; docs/batch.md#observations).

A row keeps what rules.Match keeps: per game its state (phase, count
left, debts, turns, ending, winner, first seat, start) and its turns'
records, with the series' game under way and score. `_move_rows` plays as
Match.play does; `_encode_outer` and `_encode_game` (with `_possible`)
write a seat's tensor whole from those records, as observer.MindBluffEncoder
does, at each read. Chance is drawn where a game starts and logged as
pyspiel's outcomes. Only the movers' information states (the hand) are
kept between reads: a read writes what changed since the last one
(`_hand_current`), or the whole tensor where a game started or ended.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.jit import kernel
from fogboard_games.mind_bluff import rules, series

EAT, CLAIM, RESPOND, OVER = rules.EAT, rules.CLAIM, rules.RESPOND, rules.OVER
# A turn's record, per row, game and turn (-1: not yet; eat 0: all done).
ACTOR, ATE, CLAIMED, FORCED, RESPONSE, VERDICT = range(6)
# The pieces a game's block may hold, in this order (observer.MindBluffEncoder's names),
# and their indices (A_*) in a block's offsets (`at`, a row of `_layouts`' blocks).
PIECES = (
    "player", "eats", "eat_now", "first", "claims", "forced", "responses", "verdicts",
    "last_claim", "last_forced", "last_response", "last_verdict", "remaining_possible",
    "mover", "phase", "forced_now", "debts", "ending", "start_shown", "remaining_shown",
)  # fmt: skip
A_PLAYER, A_EATS, A_EAT_NOW, A_FIRST, A_CLAIMS, A_FORCED, A_RESPONSES, A_VERDICTS = range(8)
A_LAST_CLAIM, A_LAST_FORCED, A_LAST_RESPONSE, A_LAST_VERDICT, A_POSSIBLE = range(8, 13)
A_MOVER, A_PHASE, A_FORCED_NOW, A_DEBTS, A_ENDING, A_START_SHOWN, A_REMAINING_SHOWN = range(13, 20)
assert (A_LAST_CLAIM, A_MOVER, A_REMAINING_SHOWN) == tuple(
    map(PIECES.index, ("last_claim", "mover", "remaining_shown"))
)
GAME_BLOCK, REVIEW_BLOCK = 0, 1
STATUS = 12  # mover, phase, forced_now, debts, ending (3): one span (_layouts checks)


def _offsets(layout, base: int) -> np.ndarray:
    return np.array([base + layout.offset[p] if p in layout.offset else -1 for p in PIECES])


class MindBluff(Env):
    """A batch of fogboard_mind_bluff or fogboard_mind_bluff_series games."""

    TABLES = ("legal_bits", "blocks", "outer", "g_setup")

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
        # Bit k of legal_bits[a]: action a is legal at key k (0 eat; 1 claim; 1 + e a claim
        # forced honest of the true eat e; M + 2 respond; M + 3, over, none).
        claims = [2 | 1 << (1 + e) for e in range(1, M + 1)]
        self.legal_bits = np.array([1] * (M + 1) + claims + [1 << (M + 2)] * 2, np.int64)
        self.respond_key = M + 2
        # Per game: first seat (-1: a coin), start, spread, low, high, turns.
        self.g_setup = np.array(
            [[s.first_player, s.start, s.spread, s.low, s.high, s.max_turns] for s in self.setups],
            np.int64,
        )
        self.T = int(self.g_setup[:, 5].max())
        self.blocks, self.outer = self._layouts()
        # The rows: the game under way, the score, and per game its state and turns.
        self.game_index = np.zeros(B, np.int64)
        self.score = np.zeros((B, 2), np.int64)
        self.mover = np.zeros(B, np.int64)
        self.key = np.zeros(B, np.int8)
        self.state = np.zeros((B, G, 9), np.int16)  # (S_PHASE .. S_START)
        self.turns = np.full((B, G, self.T, 6), -1, np.int8)
        self.hand = None  # the movers' tensors handed out (_mover_tensor)
        self.fresh = np.ones(B, bool)  # a game started or ended since the hand's last read
        self.chance = np.array([g.first_player == -1 or g.spread > 0 for g in self.setups])
        # A row's records, in the order the kernels that move the rows take them.
        self.rec = (self.game_index, self.mover, self.key, self.score, self.state, self.turns)

    @property
    def remaining(self) -> np.ndarray:
        """(B,) the count left in each row's game under way."""
        return self.state[self.rows, self.game_index, S_REMAINING].astype(np.int64)

    def _layouts(self):
        """Each game's pieces per form (absolute offsets, -1: absent), in its
        block and its review, and the series' own (player, score, game)."""
        game, G = self.game, len(self.setups)
        blocks = np.full((2, 2, G, len(PIECES)), -1, np.int64)  # [form, block kind, game]
        outer = np.full((2, 3), -1, np.int64)
        for f, key in enumerate((INFO_STATE, OBSERVATION)):
            layout = game.encoder.layout(key)
            if not self.is_series:
                blocks[f, GAME_BLOCK, 0] = _offsets(layout, 0)
                continue
            at = layout.offset
            outer[f] = [at.get(name, -1) for name in ("player", "score", "game")]
            for g in range(G):
                inner = game.setup.encoder.inner[g]
                kinds = ((f"game{g + 1}", key), (f"review{g + 1}", series.REVIEW_KEY))
                for kind, (name, inner_key) in enumerate(kinds):
                    if name in at:
                        blocks[f, kind, g] = _offsets(inner.layout(inner_key), at[name])
        mover, ending = blocks[..., A_MOVER], blocks[..., A_ENDING]  # (STATUS: one span)
        assert ((mover < 0) | (ending + 3 - mover == STATUS)).all()
        return blocks, outer

    # ---- restarts and game starts ---------------------------------------------------------

    def _restart(self, rows: np.ndarray, later: bool = False) -> None:
        """The rows' game under way starts (their first; `later`: the series' next), its
        coin and secret start drawn where it has them and logged by `_log_later` (after
        the step's action, or at once by a reset)."""
        n = len(rows)
        chance = self.chance[self.game_index[rows]].any() if later else self.chance[0]
        u = self.rng.random((2, n)) if chance else np.zeros((2, 0))  # (coins, spreads)
        outcomes, real = np.empty((n, 2), np.int64), np.empty((n, 2), bool)
        _start_rows(rows, *u, not later, self.g_setup, *self.rec, self.fresh, outcomes, real)
        if chance:
            self._log_later(rows, outcomes, real)

    # ---- the moves --------------------------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _mask_rows(mask, self.legal_bits, self.key)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B = self.batch_size
        ended, rewards = np.zeros(B, bool), np.zeros((B, 2), np.float32)
        starts = np.empty(B if self.is_series else 0, np.int64)
        out = (ended, rewards, starts, self.fresh)
        done, more = _move_rows(active, acts, *self.rec, self.M, len(self.setups), *out)
        if more:
            self._restart(starts[:more], later=True)
        return (ended, rewards) if done else (None, None)

    # ---- the tensors ------------------------------------------------------------------

    @property
    def tracking(self) -> bool:
        """The movers' tensors are kept (the hand, made at the first State.observation)."""
        return self.hand is not None

    def _mover_tensor(self) -> np.ndarray:
        B, f = self.batch_size, 0 if self.form == "information_state" else 1
        if self.hand is None:
            self.hand = np.zeros((B, (self.tensor_size, self.obs_size)[f]), self.dtype)
            self.hand_view = self.hand[:]
            self.hand_view.flags.writeable = False
            self.hand_seat = np.full(B, -1, np.int8)  # the seat each row last showed
            self.hand_turns = np.zeros(B, np.int16)  # the turns it showed of the game
            self.fresh[:] = True
        if f == 1:
            self.hand[:] = 0
            whole = ~self.terminated
        else:
            rows = (self.fresh, self.terminated, self.mover, self.game_index, self.state)
            at = (self.turns, self.blocks[0, GAME_BLOCK], self.outer[0], self.M)
            _hand_current(self.hand, *rows, *at, self.hand_seat, self.hand_turns)
            whole = self.fresh & ~self.terminated
        self._encode(self.hand, np.where(whole, self.mover, -1), f)
        self.fresh[:] = False
        return self.hand_view

    def _seat_tensors(self, form: str, seats: np.ndarray) -> np.ndarray:
        f = 0 if form == "information_state" else 1
        out = np.zeros((self.batch_size, (self.tensor_size, self.obs_size)[f]), np.uint8)
        self._encode(out, seats, f)
        return out

    def _encode(self, out, seats, f: int) -> None:
        """The tensor of the form (0: information state, 1: observation) of
        seat seats[b] (-1: none) written whole into row b of `out`, zeros there."""
        rows = (seats, self.game_index, self.score)
        if self.is_series:
            _encode_outer(out, *rows, self.outer[f])
        for g in range(len(self.setups)):
            for kind in (GAME_BLOCK, REVIEW_BLOCK):
                at = self.blocks[f, kind, g]
                if at[A_MOVER] < 0 and at[A_EATS] < 0 and at[A_EAT_NOW] < 0:  # (no such block)
                    continue
                review, recall = kind == REVIEW_BLOCK, f == 0
                _encode_game(out, *rows, self.mover, self.state, self.turns, at, g, review, self.g_setup, self.M, recall, self.is_series)  # fmt: skip


# A game's state, per row and game (int16).
S_PHASE, S_REMAINING, S_DEBT0, S_DEBT1, S_TURNS, S_ENDING, S_WINNER, S_FIRST, S_START = range(9)

# `_move_rows` calls no kernel and takes no view per row: each array passed, or
# view taken, costs a reference count, more than a row's move costs.


@kernel
def _start_rows(rows, coins, spreads, restart, g_setup, game_index, mover, key, score, state, turns, fresh, outcomes, real):  # fmt: skip
    """Each row's game under way starts (with `restart`, its first: records
    cleared), its chance drawn: the `outcomes` (first seat, start) that are
    `real` (a coin, a secret start)."""
    for i in range(len(rows)):
        b = rows[i]
        if restart:
            for g in range(game_index[b] + 1):
                turns[b, g, : state[b, g, S_TURNS]] = -1
            game_index[b] = score[b, 0] = score[b, 1] = 0
        fresh[b] = True
        g = game_index[b]
        first, start, spread = g_setup[g, 0], g_setup[g, 1], g_setup[g, 2]
        coin, secret = first < 0, spread > 0
        if coin:
            first = 1 if coins[i] < 0.5 else 0
        if secret:
            start = g_setup[g, 3] + np.int64(spreads[i] * (2 * spread + 1))
        state[b, g] = 0
        state[b, g, S_ENDING] = -1
        state[b, g, S_FIRST], state[b, g, S_START] = first, start
        state[b, g, S_REMAINING] = start
        mover[b], key[b] = first, 0
        outcomes[i, 0], outcomes[i, 1] = first, start
        real[i, 0], real[i, 1] = coin, secret


@kernel
def _mask_rows(mask, legal_bits, key):
    """Each row's legal actions, (A, B): its legal key's bit of each action's
    bits (a shift, which vectorizes where a table's gather does not)."""
    for a in range(mask.shape[0]):
        bits = legal_bits[a]
        for b in range(mask.shape[1]):
            mask[a, b] = (bits >> key[b]) & 1


@kernel
def _move_rows(moving, acts, game_index, mover, key, score, state, turns, M, G, ended, rewards, starts, fresh):  # fmt: skip
    """The moves of the rows of `moving`, as rules.Match.play makes them: an
    eat (or all done), a claim, or a response (the mover is the challenger);
    where a game ends (`fresh`), what the series does. Returns the counts of rows ended
    (`ended`, paid in `rewards`) and of series going on (`starts`). (Branches
    measured faster than selects here.)"""
    done = more = 0
    for b in range(len(acts)):
        if not moving[b]:
            continue
        g, a, act = game_index[b], mover[b], acts[b]
        phase, t, left = state[b, g, S_PHASE], state[b, g, S_TURNS], state[b, g, S_REMAINING]
        ends = False
        if phase == EAT:
            turns[b, g, t, ACTOR] = a
            turns[b, g, t, ATE] = 0 if act == M else act + 1
            state[b, g, S_TURNS] = t + 1
            if act < M and act + 1 < left:
                state[b, g, S_REMAINING] = left - act - 1
                state[b, g, S_PHASE] = CLAIM
                key[b] = 2 + act if state[b, g, S_DEBT0 + a] > 0 else 1  # (owing: the true eat)
            else:  # all done (won with the last dango left), or the last dango eaten
                won, ends = act == M and left == 1, True
                state[b, g, S_REMAINING] = left if act == M else 0
                state[b, g, S_ENDING] = rules.LAST_DANGO if act < M else rules.ALL_DONE_LOSS - won
                state[b, g, S_WINNER] = a if won else 1 - a
                state[b, g, S_PHASE] = OVER
        elif phase == CLAIM:
            forced = state[b, g, S_DEBT0 + a] > 0
            state[b, g, S_DEBT0 + a] -= forced  # (a forced-honest claim pays back one debt)
            turns[b, g, t - 1, CLAIMED] = act - M
            turns[b, g, t - 1, FORCED] = forced
            state[b, g, S_PHASE] = RESPOND
            mover[b] = 1 - a
            key[b] = M + 2
        else:
            turns[b, g, t - 1, RESPONSE] = act - 2 * M - 1  # (BELIEVE, DOUBT)
            if act == 2 * M + 2:
                true = turns[b, g, t - 1, ATE] == turns[b, g, t - 1, CLAIMED]
                # TRUE: the challenger owes an honest claim; BLUFF: the claimant does.
                state[b, g, S_DEBT0 + (a if true else turns[b, g, t - 1, ACTOR])] += 1
                turns[b, g, t - 1, VERDICT] = true
            state[b, g, S_PHASE] = EAT
            key[b] = 0
        if ends:
            fresh[b] = True
            w = state[b, g, S_WINNER]
            score[b, w] += G > 1
            if G > 1 and score[b, w] < 2:
                game_index[b] = g + 1
                starts[more] = b
                more += 1
            else:
                ended[b], key[b] = True, M + 3
                rewards[b, w], rewards[b, 1 - w] = 1.0, -1.0
                done += 1
    return done, more


@kernel
def _encode_outer(out, seats, game_index, score, outer):
    """The series' own pieces: the seat's player, the score, the game under way."""
    for b in range(len(seats)):
        p = seats[b]
        if p < 0:
            continue
        if outer[0] >= 0:
            out[b, outer[0] + p] = 1
        if outer[1] >= 0:
            out[b, outer[1]] = score[b, 0]
            out[b, outer[1] + 1] = score[b, 1]
            if max(score[b, 0], score[b, 1]) < 2:
                out[b, outer[2] + game_index[b]] = 1


@kernel
def _encode_game(
    out, seats, game_index, score, mover, state, turns, at, g, review, g_setup, M, recall, series
):
    """Game g's block `at` (offsets, -1: absent) in the seat's tensor, as
    MindBluffEncoder.encode writes it, in every game started (in a current
    view of the series, only the game under way while the series runs):
    every turn's eat, claim, response and verdict with perfect recall, else
    the latest; the status (`_status`); in a running game's current view,
    the counts left it cannot rule out (`_possible`). A review shows a
    finished game, every seat's eats."""
    low, high, T = g_setup[g, 3], g_setup[g, 4], g_setup[g, 5]
    sums = np.zeros(-(-(high + 1) // 64), np.uint64)  # (_possible's bitsets of totals)
    shifted = np.zeros(len(sums), np.uint64)
    latest = at[A_LAST_CLAIM] >= 0  # (the latest turn only: LAST_*, four on in PIECES)
    eats, last = at[A_EAT_NOW] if latest else at[A_EATS], 4 * latest
    claims, forced = at[A_CLAIMS + last], at[A_FORCED + last]
    responses, verdicts = at[A_RESPONSES + last], at[A_VERDICTS + last]
    for b in range(len(seats)):
        p, ended = seats[b], state[b, g, S_ENDING] >= 0
        running = g == game_index[b] and not ended and max(score[b, 0], score[b, 1]) < 2
        shown = recall or not series or running  # (a series' current view: the game under way)
        if p < 0 or g > game_index[b] or (review and not ended) or not shown:
            continue
        if at[A_PLAYER] >= 0:
            out[b, at[A_PLAYER] + p] = 1
        if at[A_FIRST] >= 0 and state[b, g, S_FIRST] >= 0:
            out[b, at[A_FIRST] + state[b, g, S_FIRST]] = 1
        n = state[b, g, S_TURNS]
        for t in range(max(n - 1, 0) if latest else 0, n):
            actor, ate = turns[b, g, t, ACTOR], turns[b, g, t, ATE]
            claim, k = turns[b, g, t, CLAIMED], 0 if latest else t
            if eats >= 0 and ate > 0 and (review or actor == p):
                row = actor if review else 0
                out[b, eats + (row * (1 if latest else T) + k) * M + ate - 1] = 1
            if claims >= 0 and claim > 0:
                out[b, claims + k * M + claim - 1] = 1
                if turns[b, g, t, FORCED] == 1:
                    out[b, forced + k] = 1
            if claims >= 0 and turns[b, g, t, RESPONSE] >= 0:
                out[b, responses + 2 * k + turns[b, g, t, RESPONSE]] = 1
            if claims >= 0 and turns[b, g, t, VERDICT] >= 0:
                out[b, verdicts + 2 * k + 1 - turns[b, g, t, VERDICT]] = 1
        _status(out, b, mover[b], state, at, g, low, ended)
        if at[A_POSSIBLE] >= 0 and running:
            _possible(out, b, p, state, turns, at[A_POSSIBLE], g, low, high, M, sums, shifted)


@kernel
def _status(out, b, mover, state, at, g, low, ended):
    """Game g's public pieces of its block `at` in row b: the mover, phase,
    forced_now, debts, and at the end its ending, start and count left (and
    the count left where a finished current view shows it)."""
    if ended and at[A_POSSIBLE] >= 0:
        out[b, at[A_POSSIBLE] + state[b, g, S_REMAINING]] = 1
    if at[A_MOVER] < 0:
        return
    phase = state[b, g, S_PHASE]
    if not ended:
        out[b, at[A_MOVER] + mover] = 1
        if phase == CLAIM and state[b, g, S_DEBT0 + mover] > 0:
            out[b, at[A_FORCED_NOW]] = 1
    out[b, at[A_PHASE] + phase] = 1
    out[b, at[A_DEBTS]] = state[b, g, S_DEBT0]
    out[b, at[A_DEBTS] + 1] = state[b, g, S_DEBT1]
    if ended:
        out[b, at[A_ENDING] + state[b, g, S_ENDING]] = 1
        if at[A_START_SHOWN] >= 0:
            out[b, at[A_START_SHOWN] + state[b, g, S_START] - low] = 1
        out[b, at[A_REMAINING_SHOWN] + state[b, g, S_REMAINING]] = 1


@kernel
def _possible(out, b, p, state, turns, at, g, low, high, M, sums, shifted):
    """rules.remaining_set of seat p in row b's game g under way: every count
    left it cannot rule out, from the totals one pick of each turn's candidate
    eats (rules.eat_candidates) makes, kept as a bitset of len(sums) words."""
    W, every = len(sums), (1 << (M + 1)) - 2  # (every: eats 1 .. M)
    for w in range(W):
        sums[w] = 0
    sums[0] = 1  # the total 0
    for t in range(state[b, g, S_TURNS]):
        claim, verdict = turns[b, g, t, CLAIMED], turns[b, g, t, VERDICT]
        if turns[b, g, t, ACTOR] == p:
            cands = 1 << turns[b, g, t, ATE]
        elif claim > 0 and (turns[b, g, t, FORCED] == 1 or verdict == 1):
            cands = 1 << claim
        elif verdict == 0:  # BLUFF: anything but the claim
            cands = every & ~(1 << claim)
        else:
            cands = every
        for w in range(W):
            shifted[w] = 0
        for k in range(1, M + 1):
            if cands >> k & 1:
                for w in range(W):
                    word = sums[w] << np.uint64(k)
                    if w > 0:
                        word |= sums[w - 1] >> np.uint64(64 - k)
                    shifted[w] |= word
        for w in range(W):
            sums[w] = shifted[w]
    for total in range(high):  # (the totals below the highest start)
        if sums[total // 64] >> np.uint64(total % 64) & np.uint64(1):
            for v in range(max(low, total + 1), high + 1):
                out[b, at + v - total] = 1


@kernel
def _hand_current(hand, fresh, terminated, mover, game_index, state, turns, at, outer, M, seat, done):  # fmt: skip
    """The movers' information states kept in the hand, from the rows'
    records as MindBluffEncoder writes them: zeros where a game started or
    ended since the last read (`fresh`: encoded whole next); else the status,
    the turns since the last read, and where the mover changed its own
    columns (the player pieces and its own eats in every game started)."""
    for b in range(len(fresh)):
        g, p = game_index[b], mover[b]
        n = state[b, g, S_TURNS]
        if fresh[b]:
            hand[b] = 0
            seat[b], done[b] = p, n
        if fresh[b] or terminated[b]:
            continue
        hand[b, at[g, A_MOVER] : at[g, A_MOVER] + STATUS] = 0
        _status(hand, b, p, state, at[g], g, 0, False)
        for t in range(max(done[b] - 1, 0), n):
            claim, response = turns[b, g, t, CLAIMED], turns[b, g, t, RESPONSE]
            if claim > 0:
                hand[b, at[g, A_CLAIMS] + t * M + claim - 1] = 1
                hand[b, at[g, A_FORCED] + t] = turns[b, g, t, FORCED]
            if response >= 0:
                hand[b, at[g, A_RESPONSES] + 2 * t + response] = 1
            if turns[b, g, t, VERDICT] >= 0:
                hand[b, at[g, A_VERDICTS] + 2 * t + 1 - turns[b, g, t, VERDICT]] = 1
            if turns[b, g, t, ACTOR] == p and turns[b, g, t, ATE] > 0:
                hand[b, at[g, A_EATS] + t * M + turns[b, g, t, ATE] - 1] = 1
        if seat[b] != p:
            if outer[0] >= 0:
                hand[b, outer[0] + 1 - p] = 0
                hand[b, outer[0] + p] = 1
            for gg in range(g + 1):
                hand[b, at[gg, A_PLAYER] + 1 - p] = 0
                hand[b, at[gg, A_PLAYER] + p] = 1
                for t in range(state[b, gg, S_TURNS]):
                    ate = turns[b, gg, t, ATE]
                    if ate > 0:
                        hand[b, at[gg, A_EATS] + t * M + ate - 1] = turns[b, gg, t, ACTOR] == p
        seat[b] = p
        done[b] = n
