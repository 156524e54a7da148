"""Batched Mind Bluff, single games and the best-of-3 series (docs/mind_bluff.md),
as compiled per-row kernels (fogboard_games.jit; docs/batch.md#observations).

A row keeps what rules.Match keeps: per game its state (phase, count
left, debts, turns, ending, winner, first seat, start) and its turns'
records, with the series' game under way and score. `_move_rows` plays as
Match.play does, `_encode_turns`, `_encode_status` and `_encode_possible`
encode as observer.MindBluffEncoder does, from those records. Chance is
drawn where a game starts and logged as pyspiel's outcomes. Tensors are
made at their first read; a step marks the rows it changed (`dirty`:
CURRENT, ENDED, WHOLE) and a read encodes again only what changed.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env, hand_out
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
# How much of a row a read must encode again: nothing, the game under way, every
# game started and the series' own pieces (a game ended), everything.
CLEAN, CURRENT, ENDED, WHOLE = 0, 1, 2, 3


def _offsets(layout, base: int) -> np.ndarray:
    return np.array([base + layout.offset[p] if p in layout.offset else -1 for p in PIECES])


class MindBluff(Env):
    """A batch of fogboard_mind_bluff or fogboard_mind_bluff_series games."""

    TABLES = ("legal_flat", "legal_bits", "blocks", "outer", "spans", "g_setup")

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
        # legal[key]: eat; claim; a forced claim of the true eat k (1 + k); respond; over.
        legal = np.zeros((M + 4, self.num_actions), bool)
        legal[0, : M + 1] = True
        legal[1, M + 1 : 2 * M + 1] = True
        for k in range(1, M + 1):
            legal[1 + k, M + k] = True
        legal[M + 2, [2 * M + 1, 2 * M + 2]] = True
        self.legal_flat = np.concatenate([legal, np.zeros((M + 4, 1), bool)], 1).reshape(-1)
        self.legal_bits = (legal.T.astype(np.int64) << np.arange(M + 4)).sum(1)  # (bit: key)
        self.respond_key = M + 2
        # Per game: first seat (-1: a coin), start, spread, low, high, turns.
        self.g_setup = np.array(
            [[s.first_player, s.start, s.spread, s.low, s.high, s.max_turns] for s in self.setups],
            np.int64,
        )
        self.T = int(self.g_setup[:, 5].max())
        self.W = -(-(int(self.g_setup[:, 4].max()) + 1) // 64)  # bitset words of totals
        self.blocks, self.outer, self.spans, self.gspans = self._layouts()
        # The rows: the game under way, the score, and per game its state and turns.
        self.game_index = np.zeros(B, np.int64)
        self.score = np.zeros((B, 2), np.int64)
        self.mover = np.zeros(B, np.int64)
        self.key = np.zeros(B, np.int8)
        self.state = np.zeros((B, G, 9), np.int16)  # (S_PHASE .. S_START)
        self.turns = np.full((B, G, self.T, 6), -1, np.int8)
        self.tracking = False  # some tensor was read: kept from then on
        self.info = self.obs = None  # per form, once read: both seats' tensors (row 2b + p)
        # Per form and the hand, what a read must encode again (CLEAN .. WHOLE).
        self.dirty = np.full((3, B), WHOLE, np.int8)
        self.encoded = np.zeros((2, B), np.int16)  # per form: the turns a read last wrote
        self.hand = None  # the movers' information states (_mover_tensor)
        self.chance = np.array([g.first_player == -1 or g.spread > 0 for g in self.setups])
        self.no_draws = np.zeros(0)

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
        # [form, game]: the columns a read at CURRENT clears: with perfect recall the
        # status pieces (turns only gain entries), in a current view the game's block.
        spans = np.zeros((2, G, 2), np.int64)
        gspans = np.zeros((2, G + 1, 2), np.int64)  # each game's blocks, then the series' own
        for f, key in enumerate((INFO_STATE, OBSERVATION)):
            layout = game.encoder.layout(key)
            if not self.is_series:
                blocks[f, GAME_BLOCK, 0] = _offsets(layout, 0)
                status = blocks[f, GAME_BLOCK, 0, 13]  # (mover .. ending: 12 columns)
                spans[f, 0] = (status, status + 12) if f == 0 else (0, layout.size)
                gspans[f, 0] = (0, layout.size)
                continue
            at = layout.offset
            for i, name in enumerate(("player", "score", "game")):
                outer[f, i] = at.get(name, -1)
            for g in range(G):
                inner = game.setup.encoder.inner[g]
                for kind, (name, inner_key) in enumerate(
                    ((f"game{g + 1}", key), (f"review{g + 1}", series.REVIEW_KEY))
                ):
                    if name in at:
                        blocks[f, kind, g] = _offsets(inner.layout(inner_key), at[name])
                name = f"game{g + 1}"
                status = blocks[f, GAME_BLOCK, g, 13]
                whole = (at[name], at[name] + layout.shape[name][0])
                spans[f, g] = (status, status + 12) if f == 0 else whole
                first = at.get(f"review{g + 1}", at[name])  # (a review comes before its game)
                gspans[f, g] = (first, whole[1])
            gspans[f, G] = (0, gspans[f, 0, 0])
        return blocks, outer, spans, gspans

    # ---- restarts and game starts ---------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self._start_games(rows, later=False)

    def _start_games(self, rows: np.ndarray, later: bool) -> None:
        """The rows' game under way starts (at a restart, their first), its coin and
        secret start drawn where it has them: logged after the step's action if `later`."""
        n = len(rows)
        chance = self.chance[self.game_index[rows]].any() if later else self.chance[0]
        u = (self.rng.random(n), self.rng.random(n)) if chance else (self.no_draws,) * 2
        k = n if later else 0
        drawn = (np.empty(k, np.int64), np.empty((k, 2), np.int64), np.empty((k, 2), bool))
        rec = (self.game_index, self.score, self.state, self.turns, self.mover, self.key)
        log = (self.history.reshape(-1), self.hpos, self.dirty)
        k, full = _start_rows(rows, *u, not later, self.g_setup, *rec, *log, *drawn)
        if k:  # (the rows that drew, all of both outcomes where `full`: _log's short path)
            at, outcomes, real = drawn
            self._log_later(at[:k], outcomes[:k], None if full else real[:k])

    # ---- the moves --------------------------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _mask_rows(mask, self.legal_bits, self.key)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B = self.batch_size
        moved = active
        ok = np.empty(B, bool)
        if _check_rows(moved, acts, self.legal_flat, self.key, self.num_actions, ok):
            self._refuse(active, acts, ok)
        ended, rewards = np.zeros(B, bool), np.zeros((B, 2), np.float32)
        rec = (self.game_index, self.mover, self.key, self.score, self.state, self.turns)
        starts = np.empty(B if self.is_series else 0, np.int64)
        out = (ended, rewards, starts, self.dirty)
        done, more = _move_rows(moved, acts, *rec, self.M, len(self.setups), *out)
        if more:
            self._start_games(starts[:more], later=True)
        return (ended, rewards) if done else (None, None)

    # ---- the tensors ------------------------------------------------------------------

    def _mover_tensor(self) -> np.ndarray:
        """The movers' tensors, kept in place (the hand): information states
        written from the changed rows' records (`_hand_current`) or copied from
        the store (`_hand_rows`), observations gathered from their store."""
        if self.form != "information_state":
            if self.hand is None:
                self.hand = np.zeros((self.batch_size, self.obs_size), self.dtype)
            want = np.where(self.terminated, -1, 2 * self.rows + self.mover)
            return hand_out(self._store(self.form), want, self.hand)
        if self.hand is None:
            B, D = self.batch_size, self.tensor_size
            self.hand = np.zeros((B, D), self.dtype)
            self.hand_view = self.hand[:]
            self.hand_view.flags.writeable = False
            self.dirty[2] = WHOLE
            self.hand_seat = np.full(B, -1, np.int8)
            self.hand_turns = np.zeros(B, np.int16)
        level = self.dirty[2]
        store = self._store(self.form, only=level >= ENDED)
        hand = self.hand.view(np.uint8) if self.dtype == np.bool_ else self.hand
        at = self.blocks[0, GAME_BLOCK]
        seat, done = self.hand_seat, self.hand_turns
        rows = (level, self.terminated, self.mover, self.game_index, self.state)
        _hand_rows(hand, store, *rows, self.gspans[0], seat, done)
        _hand_current(hand, *rows, self.turns, at, self.outer[0], self.M, seat, done)
        level[:] = CLEAN
        return self.hand_view

    def _store(self, form: str, only=None) -> np.ndarray:
        """The form's store of both seats' tensors (row 2b + p: seat p of row
        b), its rows brought up to date (only those of the mask `only`, if given)."""
        f = 0 if form == "information_state" else 1
        name = ("info", "obs")[f]
        if getattr(self, name) is None:
            B = self.batch_size
            size = self.tensor_size if f == 0 else self.obs_size
            setattr(self, name, np.zeros((2 * B, size), np.uint8))
            self.dirty[f] = WHOLE
            self.tracking = True
        store, level = getattr(self, name), self.dirty[f]
        if only is not None:
            part = np.where(only, level, CLEAN).astype(np.int8)
            if part.any():
                self._encode(store, part, f)
                level[only] = CLEAN
        elif level.any():
            self._encode(store, level, f)
            level[:] = CLEAN
        return store

    def _seat_tensors(self, form: str, player: int) -> np.ndarray:
        return self._store(form)[player::2]

    def _encode(self, out, level, f: int) -> None:
        """Both seats' tensors of the form (0: information state, 1: observation)
        of the rows a read must encode again, by their `level`."""
        recall, series = f == 0, self.is_series
        rows = (level, self.game_index, self.score)
        _clear_rows(out, level, self.game_index, self.spans[f], self.gspans[f])
        if series:
            _encode_outer(out, *rows, self.outer[f])
        for g, (_, _, _, low, high, T) in enumerate(self.g_setup.tolist()):
            for kind, all_seats in ((GAME_BLOCK, False), (REVIEW_BLOCK, True)):
                at = self.blocks[f, kind, g]
                if at[13] < 0 and at[1] < 0 and at[2] < 0:  # (no such block)
                    continue
                # (a review shows a finished game: its rows are those, at WHOLE)
                state = self.state
                _encode_turns(out, *rows, state, self.turns, at, g, all_seats, T, self.M, recall, series, self.encoded[f])  # fmt: skip
                _encode_status(out, *rows, self.mover, state, at, g, low, recall, series, all_seats)
                if at[12] >= 0:
                    _encode_possible(out, *rows, state, self.turns, at[12], g, low, high, self.M, self.W, series)  # fmt: skip


# A game's state, per row and game (int16).
S_PHASE, S_REMAINING, S_DEBT0, S_DEBT1, S_TURNS, S_ENDING, S_WINNER, S_FIRST, S_START = range(9)

# The kernels loop over the rows themselves and call no kernel per row: a
# call, or a view of a row, passing arrays costs a reference count each,
# which would cost more than the row's move.


@kernel
def _start_rows(rows, coins, spreads, restart, g_setup, game_index, score, state, turns, mover, key, history, hpos, dirty, at, outcomes, real):  # fmt: skip
    """Each row's game under way starts (with `restart`, its first: records
    cleared, chance logged at once), else returns the count of rows that drew
    (`at`, their `outcomes`, which are `real`) and whether all drew both."""
    n, full = 0, True
    for i in range(len(rows)):
        b = rows[i]
        if restart:
            for g in range(game_index[b] + 1):
                for t in range(state[b, g, S_TURNS]):
                    for k in range(6):
                        turns[b, g, t, k] = -1
            game_index[b] = score[b, 0] = score[b, 1] = 0
            for f in range(3):
                dirty[f, b] = WHOLE
        g = game_index[b]
        first, start, spread = g_setup[g, 0], g_setup[g, 1], g_setup[g, 2]
        coin, secret = first < 0, spread > 0
        if coin:
            first = 1 if coins[i] < 0.5 else 0
        if secret:
            start = g_setup[g, 3] + np.int64(spreads[i] * (2 * spread + 1))
        for k in range(state.shape[2]):
            state[b, g, k] = 0
        state[b, g, S_ENDING] = -1
        state[b, g, S_FIRST], state[b, g, S_START] = first, start
        state[b, g, S_REMAINING] = start
        mover[b], key[b] = first, 0
        if restart:
            history[hpos[b]] = first
            hpos[b] += coin
            history[hpos[b]] = start
            hpos[b] += secret
        elif coin or secret:
            at[n], outcomes[n, 0], outcomes[n, 1], real[n, 0], real[n, 1] = (
                b,
                first,
                start,
                coin,
                secret,
            )
            n, full = n + 1, full and coin and secret
    return n, full


@kernel
def _mask_rows(mask, legal_bits, key):
    """Each row's legal actions, (A, B): its legal key's bit of each action's
    bits (a shift, which vectorizes where a table's gather does not)."""
    for a in range(mask.shape[0]):
        bits = legal_bits[a]
        for b in range(mask.shape[1]):
            mask[a, b] = (bits >> key[b]) & 1


@kernel
def _check_rows(moving, acts, legal_flat, key, A, ok):
    """Each moving row's action checked against its legal key's row of
    `legal_flat` (key * (A + 1) + action; any id out of range is illegal):
    `ok`, and the count of illegal ones."""
    bad = 0
    for b in range(len(acts)):
        act = acts[b]
        inside = (act >= 0) & (act < A)
        ok[b] = (not moving[b]) | legal_flat[key[b] * (A + 1) + (act if inside else A)]
        bad += not ok[b]
    return bad


@kernel
def _move_rows(moving, acts, game_index, mover, key, score, state, turns, M, G, ended, rewards, starts, dirty):  # fmt: skip
    """The moves of the rows of `moving`, as rules.Match.play makes them: an
    eat (or all done), a claim, or a response (the mover is the challenger);
    where a game ends, what the series does. Returns the counts of rows ended
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
        for f in range(3):
            dirty[f, b] = max(dirty[f, b], CURRENT + ends)  # (ENDED: and the review it shows)
        if ends:
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
def _clear_rows(out, level, game_index, spans, gspans):
    """Zero what the rows' `level` encodes again: the game's status (CURRENT),
    the series' own pieces and the blocks of every game started (ENDED: more
    than one may have ended since the last read), or the whole row."""
    for b in range(len(level)):
        if level[b] == CLEAN:
            continue
        g = game_index[b]
        for i in range(g + 2):  # (at ENDED: the series' own, then every game started)
            k = len(gspans) - 1 if i == 0 else i - 1
            lo, hi = gspans[k, 0], gspans[k, 1]
            if level[b] == WHOLE:
                lo, hi = (0, out.shape[1]) if i == 0 else (0, 0)
            elif level[b] == CURRENT:
                lo, hi = (spans[g, 0], spans[g, 1]) if i == 0 else (0, 0)
            if hi - lo > 32:  # (a slice: a reference count, then a fast fill)
                out[2 * b, lo:hi] = 0
                out[2 * b + 1, lo:hi] = 0
                continue
            for c in range(lo, hi):
                out[2 * b, c] = 0
                out[2 * b + 1, c] = 0


@kernel
def _encode_outer(out, level, game_index, score, outer):
    """The series' own pieces: each seat's player, the score, the game under way."""
    for b in range(len(level)):
        if level[b] == CLEAN:
            continue
        for p in range(2):
            r = 2 * b + p
            if outer[0] >= 0:
                out[r, outer[0] + p] = 1
            if outer[1] >= 0:
                out[r, outer[1]] = score[b, 0]
                out[r, outer[1] + 1] = score[b, 1]
                for c in range(3):
                    out[r, outer[2] + c] = 0
                if max(score[b, 0], score[b, 1]) < 2:
                    out[r, outer[2] + game_index[b]] = 1


@kernel
def _shows(level, g_now, g, ended, series_over, recall, is_series) -> bool:
    """Whether a read encodes game g of a row: changed since the last read (the
    game under way; every game started at ENDED and WHOLE), and in a current view of
    the series only the game under way while the series runs."""
    if level == CLEAN or g > g_now or (level == CURRENT and g != g_now):
        return False
    return recall or not is_series or (g == g_now and not ended and not series_over)


@kernel
def _encode_turns(
    out, level, game_index, score, state, turns, at, g, seen_all, T, M, recall, series, done
):
    """Game g's turns in its block `at` (offsets, -1: absent) of both seats'
    tensors (every seat's eats if `seen_all`), as MindBluffEncoder.encode
    writes them: every turn's eat, claim, response and verdict with perfect
    recall (from the last one encoded, `done`, at CURRENT), else the latest."""
    latest = at[8] >= 0
    eats, claims = (at[2], at[8]) if latest else (at[1], at[4])
    forced, responses, verdicts = (at[9], at[10], at[11]) if latest else (at[5], at[6], at[7])
    for b in range(len(level)):
        ended, over = state[b, g, S_ENDING] >= 0, max(score[b, 0], score[b, 1]) == 2
        if not _shows(level[b], game_index[b], g, ended, over and series, recall, series):
            continue
        if seen_all and not ended:  # (a review: of a finished game only)
            continue
        n = state[b, g, S_TURNS]
        t0 = n - 1 if latest else (0 if level[b] >= ENDED else max(done[b] - 1, 0))
        if not seen_all and g == game_index[b]:
            done[b] = n
        for p in range(2):
            r = 2 * b + p
            if at[0] >= 0:
                out[r, at[0] + p] = 1
            if at[3] >= 0 and state[b, g, S_FIRST] >= 0:
                out[r, at[3] + state[b, g, S_FIRST]] = 1
            for t in range(max(t0, 0), n):
                actor, ate = turns[b, g, t, ACTOR], turns[b, g, t, ATE]
                claim, k = turns[b, g, t, CLAIMED], 0 if latest else t
                if eats >= 0 and ate > 0 and (seen_all or actor == p):
                    row = actor if seen_all else 0
                    out[r, eats + (row * (1 if latest else T) + k) * M + ate - 1] = 1
                if claims < 0:
                    continue
                if claim > 0:
                    out[r, claims + k * M + claim - 1] = 1
                    if turns[b, g, t, FORCED] == 1:
                        out[r, forced + k] = 1
                if turns[b, g, t, RESPONSE] >= 0:
                    out[r, responses + 2 * k + turns[b, g, t, RESPONSE]] = 1
                if turns[b, g, t, VERDICT] >= 0:
                    out[r, verdicts + 2 * k + 1 - turns[b, g, t, VERDICT]] = 1


@kernel
def _encode_status(out, level, game_index, score, mover, state, at, g, low, recall, series, review):
    """Game g's public pieces of its block `at` in both seats' tensors: the
    mover, phase, forced_now, debts, and at the end its ending, start and
    count left (and the count left where a finished current view shows it)."""
    for b in range(len(level)):
        ended, over = state[b, g, S_ENDING] >= 0, max(score[b, 0], score[b, 1]) == 2
        if not _shows(level[b], game_index[b], g, ended, over and series, recall, series):
            continue
        if review and not ended:  # (a review: of a finished game only)
            continue
        phase = state[b, g, S_PHASE]
        for p in range(2):
            r = 2 * b + p
            if ended and at[12] >= 0:
                out[r, at[12] + state[b, g, S_REMAINING]] = 1
            if at[13] < 0:
                continue
            if not ended:
                out[r, at[13] + mover[b]] = 1
                if phase == CLAIM and state[b, g, S_DEBT0 + mover[b]] > 0:
                    out[r, at[15]] = 1
            out[r, at[14] + phase] = 1
            out[r, at[16]] = state[b, g, S_DEBT0]
            out[r, at[16] + 1] = state[b, g, S_DEBT1]
            if ended:
                out[r, at[17] + state[b, g, S_ENDING]] = 1
                if at[18] >= 0:
                    out[r, at[18] + state[b, g, S_START] - low] = 1
                out[r, at[19] + state[b, g, S_REMAINING]] = 1


@kernel
def _encode_possible(out, level, game_index, score, state, turns, at, g, low, high, M, W, series):
    """rules.remaining_set in a running game's current view: every count left
    the seat cannot rule out, from the totals one pick of each turn's candidate
    eats (rules.eat_candidates) makes, kept as a bitset of W words."""
    sums = np.zeros(W, np.uint64)
    shifted = np.zeros(W, np.uint64)
    every = (1 << (M + 1)) - 2  # eats 1 .. M
    for b in range(len(level)):
        ended, over = state[b, g, S_ENDING] >= 0, max(score[b, 0], score[b, 1]) == 2
        if ended or not _shows(level[b], game_index[b], g, ended, over and series, False, series):
            continue
        for p in range(2):
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
                        out[2 * b + p, at + v - total] = 1


@kernel
def _hand_rows(hand, store, level, terminated, mover, game_index, state, gspans, seat, done):
    """The hand's rows where a game ended (ENDED) or that restarted (WHOLE): the
    mover's store row (2b + mover) copied, every game started and the series'
    own pieces, or the whole row; zeros where finished."""
    for b in range(len(level)):
        if level[b] < ENDED:
            continue
        r, g = 2 * b + mover[b], game_index[b]
        if terminated[b]:
            for c in range(hand.shape[1]):
                hand[b, c] = 0
        elif level[b] == WHOLE:
            for c in range(hand.shape[1]):
                hand[b, c] = store[r, c]
        else:
            for k in range(-1, g + 1):  # (the series' own, then every game started)
                lo, hi = gspans[k if k >= 0 else len(gspans) - 1]
                for c in range(lo, hi):
                    hand[b, c] = store[r, c]
        seat[b] = mover[b]
        done[b] = state[b, g, S_TURNS]


@kernel
def _hand_current(hand, level, terminated, mover, game_index, state, turns, at, outer, M, seat, done):  # fmt: skip
    """The hand's rows whose game went on (CURRENT), from the row's records as
    MindBluffEncoder writes the mover's tensor: the status, the turns since the
    last read, and where the mover changed its own columns (the player pieces
    and its own eats in every game started)."""
    for b in range(len(level)):
        if level[b] != CURRENT:
            continue
        g, p = game_index[b], mover[b]
        n, phase = state[b, g, S_TURNS], state[b, g, S_PHASE]
        for c in range(at[g, 13], at[g, 13] + 12):  # mover, phase, forced_now, debts, ending
            hand[b, c] = 0
        hand[b, at[g, 13] + p] = 1
        hand[b, at[g, 14] + phase] = 1
        if phase == CLAIM and state[b, g, S_DEBT0 + p] > 0:
            hand[b, at[g, 15]] = 1
        hand[b, at[g, 16]] = state[b, g, S_DEBT0]
        hand[b, at[g, 16] + 1] = state[b, g, S_DEBT1]
        for t in range(max(done[b] - 1, 0), n):
            claim, response = turns[b, g, t, CLAIMED], turns[b, g, t, RESPONSE]
            if claim > 0:
                hand[b, at[g, 4] + t * M + claim - 1] = 1
                hand[b, at[g, 5] + t] = turns[b, g, t, FORCED]
            if response >= 0:
                hand[b, at[g, 6] + 2 * t + response] = 1
            if turns[b, g, t, VERDICT] >= 0:
                hand[b, at[g, 7] + 2 * t + 1 - turns[b, g, t, VERDICT]] = 1
            if turns[b, g, t, ACTOR] == p and turns[b, g, t, ATE] > 0:
                hand[b, at[g, 1] + t * M + turns[b, g, t, ATE] - 1] = 1
        if seat[b] != p:
            if outer[0] >= 0:
                hand[b, outer[0] + 1 - p] = 0
                hand[b, outer[0] + p] = 1
            for gg in range(g + 1):
                hand[b, at[gg, 0] + 1 - p] = 0
                hand[b, at[gg, 0] + p] = 1
                for t in range(state[b, gg, S_TURNS]):
                    ate = turns[b, gg, t, ATE]
                    if ate > 0:
                        hand[b, at[gg, 1] + t * M + ate - 1] = turns[b, gg, t, ACTOR] == p
        seat[b] = p
        done[b] = n
