"""Batched Parley: every parameter value of `fogboard_parley` (docs/batch.md),
as compiled per-row kernels (fogboard_games.jit).

A row keeps what a `rules.Match` keeps, the turns' records included;
`_play_rows` does for each row what `Match.play` does at a decision, with
chance (a hip-shot's result, a round's deals and wake) drawn from the
environment's Generator and logged after the decision, as pyspiel's chance
outcomes. `_encode_rows` and `_status_rows` write a seat's tensors from the
records, as `observer.ParleyEncoder` does (docs/batch.md#observations).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.jit import kernel
from fogboard_games.parley import rules
from fogboard_games.parley.observer import PHASE_ORDER, SHOWN_PHASE

# Phases as the tensors' `phase` piece numbers them (a row is never at chance).
LINE, ACT, REACT, OVER = (SHOWN_PHASE[p] for p in (rules.LINE, rules.ACT, rules.REACT, rules.OVER))
# A row's state (`st`: the turn under way's actor, reactions said and index kept
# there too, so a move reads no record), each cog's (`cogs`), the game's sizes.
PHASE, ROUND, IT, LIVING, MISSES, ACTOR, SAID, TURN = range(8)
HP, USED, KILLS, TOTAL = range(4)
COGS, ROUNDS, MAX_TURNS, MAX_X, HP0, PASSES, SURVIVORS, HIP_LIMIT, TALK, IT_BASE = range(10)
# A turn's record (-1: not yet): IT, its line, its act, the result, the count of
# reactions said, then their speakers and (MAX_X further on) their lines.
T_IT, T_LINE, T_ACT, T_RESULT, T_SAID, T_SPEAKERS = range(6)
# The pieces of each form, at the same index in both (-1: absent): per round and
# turn with perfect recall; in the view now the round's, its latest turn's, totals.
PIECES = ["player", "cards", "shots"] + ["turn_" + p for p in ("it", "line", "target", "pass")]
PIECES += ["turn_result", "turn_reactions", "points", "round"]
NOW = {"cards": "cards_now", "shots": "shot_now", "points": "totals"}
PLAYER, CARDS, SHOTS, P_IT, P_LINE, P_TARGET, P_PASS, P_RESULT, P_REACT, POINTS, STATUS = range(11)
PHASES = len(PHASE_ORDER)  # the `phase` piece's width
# A kept information state's seat, besides a cog: to encode whole, or zeros (finished).
STALE, BLANK = -1, -2


class Parley(Env):
    """A batch of one fogboard_parley game."""

    TABLES = ("sizes", "at_info", "at_obs", "round_outcomes", "round_highs", "round_at")

    def _configure(self, game) -> None:
        s = self.setup = game.setup
        self.num_players = s.players
        self.num_actions = s.num_actions
        self.tensor_size = game.info_layout.size
        self.obs_size = game.obs_layout.size
        # Chance: per round n deals and a wake, and at most one result per turn.
        self.max_history = s.rounds * (s.players + 1 + s.max_turns) + s.max_game_length

    def _build(self) -> None:
        s, B, n, game = self.setup, self.batch_size, self.num_players, self.game
        sizes = (n, s.rounds, s.max_turns, s.max_reactions, s.hp, s.passes, s.survivors)
        self.sizes = np.array([*sizes, s.hip_limit, s.talk, s.it_base], np.int64)
        self.at_info = np.array([game.info_layout.offset.get(p, -1) for p in PIECES])
        now = (NOW.get(p, p.replace("turn_", "last_")) for p in PIECES)
        self.at_obs = np.array([game.obs_layout.offset.get(p, -1) for p in now])
        # A round's chance: a pick in 0..pairs-1 per cog, then one in 0..n-1 (the
        # wake), drawn in one call and mapped to pyspiel's outcome ids by one lookup.
        deals = np.array(s.deal_options, np.int64)  # (n, pairs): cog c's deal outcomes
        pairs = deals.shape[1]
        self.round_outcomes = np.concatenate([deals.reshape(-1), s.it_base + np.arange(n)])
        self.round_highs = np.array([pairs] * n + [n], np.int64)
        self.round_at = np.arange(n + 1) * pairs  # each draw's place in round_outcomes
        self.mover = np.zeros(B, np.int64)
        self.st = np.zeros((B, 8), np.int16)
        self.cogs = np.zeros((B, n, 4), np.int32)
        self.cards = np.zeros((B, s.rounds, n, 2), np.int8)  # (friend, enemy)
        self.points = np.zeros((B, s.rounds, n), np.int8)
        self.turns = np.zeros((B, s.rounds, s.max_turns, T_SPEAKERS + 2 * s.max_reactions), np.int8)
        self.nturns = np.zeros((B, s.rounds), np.int16)  # turns started in each round
        self.legal = np.zeros(B, np.int64)  # the mover's legal actions, bit a for action a
        # The movers' information states, once read: each row's seat shown and the
        # turn under way (r * max_turns + k) at the last read.
        self.hand = self.hand_seat = self.hand_done = None
        self.views = None  # the movers' observations, once read

    @property
    def totals(self) -> np.ndarray:
        """(B, P): each cog's points so far (the returns at the end)."""
        return self.cogs[:, :, TOTAL]

    def _rows(self) -> tuple:
        return self.mover, self.st, self.cogs, self.cards, self.turns, self.nturns, self.sizes

    # ---- restarts, chance and the moves ------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        if self.hand is not None:
            self.hand_seat[rows] = STALE
        self._deal(rows, fresh=True)

    def _deal(self, rows: np.ndarray, fresh: bool) -> None:
        """The rows' round starts: every cog's deal (an ordered pair, uniform),
        then the wake (uniform), logged (after the step's action unless `fresh`,
        a restart); the woken IT's turn starts."""
        picks = self.rng.integers(0, self.round_highs, size=(len(rows), self.num_players + 1))
        outcomes = self.round_outcomes.take(picks + self.round_at)
        (self._log if fresh else self._log_later)(rows, outcomes)
        _deal_rows(rows, outcomes, fresh, self.legal, *self._rows())

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (docs/batch.md#interface)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _legal_rows(mask, self.legal, self.terminated)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B, play = self.batch_size, active
        ok = np.empty(B, bool)
        bad, hips = _check_rows(acts, play, ok, self.legal, *self._rows())
        if bad:
            self._refuse(active, acts, ok)
        # The hip-shots' results (a hit: 0 of 0..2) in row order; `shots`: their rows, outcomes.
        draws = self.rng.integers(0, 3, size=(hips, 1)) if hips else np.zeros((0, 1), np.int64)
        shots, over = np.empty((hips, 2), np.int64), np.zeros(B, bool)
        ends = _play_rows(acts, play, draws, shots, over, self.legal, *self._rows())
        self._log_later(shots[:, 0], shots[:, 1:])
        if not ends:
            return None, None
        rewards, (ended, deal) = np.zeros((B, self.num_players), np.float32), np.zeros((2, B), bool)
        _end_rounds(over, rewards, ended, deal, self.points, *self._rows())
        rows = np.flatnonzero(deal)
        if len(rows):
            self._deal(rows, fresh=False)
        return ended, rewards

    # ---- tensors ---------------------------------------------------------------------

    def _movers(self, form: str) -> np.ndarray:
        """The movers' tensors of the form, kept in place and brought to the rows
        now (zeros in finished rows): the information states kept from their
        first read, the observations encoded whole."""
        B = self.batch_size
        if form == "information_state":
            if self.hand is None:
                self.hand = np.zeros((B, self.tensor_size), self.dtype)
                self.hand_seat = np.full(B, STALE, np.int8)
                self.hand_done = np.zeros(B, np.int16)
            seen = (self.hand_seat, self.hand_done)
            _hand_rows(self.hand, *seen, self.terminated, self.at_info, *self._rows())
            return self._encode(self.hand, *seen, self.at_info, True)
        if self.views is None:
            self.views = np.zeros((B, self.obs_size), self.dtype)
        self.views[:] = 0
        seats = np.where(self.terminated, -1, self.mover).astype(np.int8)
        return self._encode(self.views, seats, np.zeros(B, np.int16), self.at_obs, False)

    def _encode(self, out, seats, done, at, recall: bool) -> np.ndarray:
        _encode_rows(out, seats, done, at, recall, *self._rows(), self.points)
        _status_rows(out, seats, at, *self._rows())
        return out

    def _mover_tensor(self) -> np.ndarray:
        view = self._movers(self.form)[:]
        view.flags.writeable = False
        return view

    def _seat_tensors(self, form: str, player: int) -> np.ndarray:
        B, info = self.batch_size, form == "information_state"
        out = np.zeros((B, self.tensor_size if info else self.obs_size), self.dtype)
        seats, done = np.full(B, player, np.int8), np.zeros(B, np.int16)
        return self._encode(out, seats, done, self.at_info if info else self.at_obs, info)


# The kernels loop over the rows, each doing for one row what the rules (or the
# encoder) do for one state. A helper's array arguments can cost their reference
# counts at every call (about 30 ns an array where measured): `_options` and
# `_start_turn` take three and still measured faster than the passes they replaced.


@kernel
def _options(st, cogs, b, p, c):
    """Cog p's legal actions, bit a for action a (Match.options): a line (silent,
    accuse or vouch another living cog), or IT's act (head-shots at the others,
    hip-shots while misses allow, a pass while it has passes left)."""
    others, n = st[b, LIVING] & ~(1 << p), c[COGS]
    if st[b, PHASE] != ACT:
        return 1 | others << 1 | others << (1 + n)
    shots = others << (1 + 2 * n) | (others << (1 + 3 * n)) * (st[b, MISSES] < c[HIP_LIMIT])
    return shots | (1 << (1 + 4 * n)) * (cogs[b, p, USED] < c[PASSES])


@kernel
def _legal_rows(mask, legal, terminated):
    """The mask from the rows' legal actions (none where finished), along the rows."""
    for a in range(mask.shape[0]):
        for b in range(len(legal)):
            mask[a, b] = (legal[b] >> a) & 1 > terminated[b]


@kernel
def _check_rows(acts, play, ok, legal, mover, st, cogs, cards, turns, nturns, c):
    """Whether each playing row's action is legal (`ok`, True in the others);
    returns the illegal count and the hip-shots' (whose results chance draws)."""
    n, bad, hips = c[COGS], 0, 0
    for b in range(len(acts)):
        a = acts[b]
        ok[b] = not play[b] or 0 <= a < 64 and (legal[b] >> a) & 1 == 1
        hips += play[b] and st[b, PHASE] == ACT and 3 * n < a <= 4 * n
        bad += not ok[b]
    return bad, hips


@kernel
def _next_speaker(actor, place, it, living, said, X, n):
    """The cog to react from place `place` on in seat order after the actor
    (the actor itself last): living, not the next IT, while fewer than X
    have spoken; -1 if none (seats wrap by a subtraction, cheaper than a division)."""
    for q in range(place, n + 1 if said < X else 0):
        cog = actor + q - n if actor + q >= n else actor + q
        if (living >> cog) & 1 == 1 and cog != it:
            return cog
    return -1


@kernel
def _play_rows(acts, play, draws, shots, over, legal, mover, st, cogs, cards, turns, nturns, c):
    """Each playing row's decision (Match.play): IT's line; its shot or pass (a
    hip-shot's result the next of chance's `draws`, its row and outcome then in
    `shots`): a hit costs the target 1 hp, at 0 it is OUT, the shooter keeps the
    gun, scores if it was its ENEMY and the round may be `over`; otherwise, hit
    or miss, the target is IT (a pass leaves the gun with IT); or a reaction.
    Then the next cog reacts, or the next IT's turn starts. Returns the rounds over."""
    n, X, ends, j = c[COGS], c[MAX_X], 0, 0
    for b in range(len(acts)):
        if not play[b]:
            continue
        a, r, k, phase = acts[b], st[b, ROUND], st[b, TURN], st[b, PHASE]
        actor, place, said = st[b, ACTOR], 1, st[b, SAID]
        if phase == LINE:
            turns[b, r, k, T_LINE] = a
            st[b, PHASE] = ACT
            legal[b] = _options(st, cogs, b, mover[b], c)
            continue
        if phase == REACT:
            turns[b, r, k, T_SPEAKERS + said], turns[b, r, k, T_SPEAKERS + X + said] = mover[b], a
            said += 1
            turns[b, r, k, T_SAID] = st[b, SAID] = said
            place = mover[b] - actor + 1  # (the place after the speaker's)
            place += n if place < 2 else 0
        else:
            turns[b, r, k, T_ACT] = a
            target, hit = actor, False
            if a == 4 * n + 1:
                cogs[b, actor, USED] += 1
            else:
                target = a - 1 - 2 * n if a <= 3 * n else a - 1 - 3 * n
                hit = a <= 3 * n  # (a head-shot always hits)
                if not hit:  # (outcome ids: hit n^3 + n, miss the next)
                    hit = draws[j, 0] == 0
                    shots[j, 0], shots[j, 1] = b, n * n * n + n + (not hit)
                    j += 1
                turns[b, r, k, T_RESULT] = rules.HIT if hit else rules.MISS
                st[b, MISSES] += not hit
            if hit:
                cogs[b, target, HP] -= 1
                if cogs[b, target, HP] == 0:
                    st[b, LIVING] &= ~(1 << target)
                    cogs[b, actor, KILLS] += cards[b, r, actor, 1] == target
                    standing = 0
                    for q in range(n):
                        standing += (st[b, LIVING] >> q) & 1
                    over[b] = standing == c[SURVIVORS]
                    target = actor
            st[b, IT] = target
        speaker = _next_speaker(actor, place, st[b, IT], st[b, LIVING], said, X, n)
        st[b, PHASE] = REACT
        mover[b] = actor if speaker < 0 or over[b] else speaker
        if speaker < 0 and not over[b]:
            mover[b] = _start_turn(st, turns, nturns, b, k + 1, c[TALK])
        legal[b] = _options(st, cogs, b, mover[b], c)
        ends += over[b]
    return ends


@kernel
def _end_rounds(over, rewards, ended, deal, points, mover, st, cogs, cards, turns, nturns, c):
    """Each cog's points of a round `over`: 3 standing, 1 for a standing FRIEND,
    its ENEMY kills; then the match is `ended`, or the next round to `deal`."""
    for b in range(len(over)):
        if not over[b]:
            continue
        r, living = st[b, ROUND], st[b, LIVING]
        for q in range(c[COGS]):
            got = rules.SURVIVOR_POINTS * ((living >> q) & 1) + cogs[b, q, KILLS]
            got += rules.FRIEND_POINTS * ((living >> cards[b, r, q, 0]) & 1)
            points[b, r, q], rewards[b, q] = got, got
            cogs[b, q, TOTAL] += got
        ended[b], deal[b] = r + 1 == c[ROUNDS], r + 1 < c[ROUNDS]
        st[b, PHASE], st[b, ROUND] = OVER, r + deal[b]


@kernel
def _deal_rows(rows, outcomes, fresh, legal, mover, st, cogs, cards, turns, nturns, c):
    """Each row's round starts (the match too where `fresh`) with chance's
    `outcomes`: every cog's deal, then the cog that wakes up IT, whose turn starts."""
    n = c[COGS]
    for i in range(len(rows)):
        b = rows[i]
        if fresh:
            st[b, ROUND] = 0
            cogs[b, :, TOTAL] = 0
        r = st[b, ROUND]
        st[b, LIVING], st[b, MISSES] = (1 << n) - 1, 0
        for q in range(n):
            cogs[b, q, HP], cogs[b, q, USED], cogs[b, q, KILLS] = c[HP0], 0, 0
            pair = outcomes[i, q] % (n * n)
            cards[b, r, q, 0], cards[b, r, q, 1] = pair // n, pair % n
        st[b, IT] = outcomes[i, n] - c[IT_BASE]
        mover[b] = _start_turn(st, turns, nturns, b, 0, c[TALK])
        legal[b] = _options(st, cogs, b, mover[b], c)


@kernel
def _start_turn(st, turns, nturns, b, k, talk):
    """IT's turn k of the round under way started (its record too); returns IT."""
    r, it = st[b, ROUND], st[b, IT]
    st[b, PHASE], st[b, ACTOR], st[b, SAID], st[b, TURN] = LINE if talk else ACT, it, 0, k
    nturns[b, r] = k + 1
    turns[b, r, k, T_IT], turns[b, r, k, T_SAID] = it, 0
    turns[b, r, k, T_LINE], turns[b, r, k, T_ACT], turns[b, r, k, T_RESULT] = -1, -1, -1
    return it


# ---- tensors: ParleyEncoder.encode for each row ---------------------------------------


@kernel
def _put_shot(out, b, base, act, n, v) -> None:
    """A cog's own shot: its aim (head, hip), then its target."""
    out[b, base + (1 if act > 3 * n else 0)] = v
    out[b, base + 2 + (act - 1) % n] = v


@kernel
def _encode_rows(out, seats, done, at, recall, mover, st, cogs, cards, turns, nturns, c, points):
    """Each row's tensor of cog `seats[b]` (none where -1) but the status, from
    the turn under way at the last read, `done[b]` (r * max_turns + k), over
    what it holds already (zeros for a whole one), `done` moved on to the
    turn under way: with perfect recall every round's cards, turns and
    points, else this round's cards, its latest turn and the totals."""
    n, E, X = c[COGS], c[MAX_TURNS], c[MAX_X]
    for b in range(len(seats)):
        p, now = seats[b], st[b, ROUND]
        if p < 0:
            continue
        out[b, at[PLAYER] + p] = 1
        first = done[b] // E if recall else now
        for r in range(first, now + 1):
            base = at[CARDS] + (r * 2 * n if recall else 0)
            out[b, base + cards[b, r, p, 0]] = out[b, base + n + cards[b, r, p, 1]] = 1
            if recall and (r < now or st[b, PHASE] == OVER):
                for q in range(n):
                    out[b, at[POINTS] + r * n + q] = points[b, r, q]
            k0 = (done[b] % E if r == first else 0) if recall else nturns[b, r] - 1
            for k in range(k0, nturns[b, r]):
                row = r * E + k if recall else 0
                it, line, act = turns[b, r, k, T_IT], turns[b, r, k, T_LINE], turns[b, r, k, T_ACT]
                out[b, at[P_IT] + row * n + it] = 1
                if line >= 0:
                    out[b, at[P_LINE] + row * (1 + 2 * n) + line] = 1
                if act == 4 * n + 1:
                    out[b, at[P_PASS] + row] = 1
                elif act >= 0:  # (the table learns a shot with its result)
                    out[b, at[P_TARGET] + row * n + (act - 1) % n] = 1
                    out[b, at[P_RESULT] + row * 2 + turns[b, r, k, T_RESULT]] = 1
                    if it == p:
                        _put_shot(out, b, at[SHOTS] + row * (2 + n), act, n, 1)
                for x in range(turns[b, r, k, T_SAID]):
                    said = at[P_REACT] + (row * X + x) * (1 + 3 * n)  # (speaker, then line)
                    out[b, said + turns[b, r, k, T_SPEAKERS + x]] = 1
                    out[b, said + n + turns[b, r, k, T_SPEAKERS + X + x]] = 1
        for q in range(0 if recall else n):
            out[b, at[POINTS] + q] = cogs[b, q, TOTAL]
        done[b] = now * E + nturns[b, now] - 1


@kernel
def _status_rows(out, seats, at, mover, st, cogs, cards, turns, nturns, c):
    """The status pieces of each row's tensor (none where seats[b] is -1),
    written anew: round, mover, phase, it, every cog's hp and passes left,
    misses (one-hot each)."""
    n = c[COGS]
    for b in range(len(seats)):
        if seats[b] < 0:
            continue
        out[b, at[STATUS] :] = 0
        phase, base = st[b, PHASE], at[STATUS] + c[ROUNDS]
        out[b, at[STATUS] + st[b, ROUND]] = 1
        if phase != OVER:
            out[b, base + mover[b]] = 1
        out[b, base + n + phase] = 1
        base += n + PHASES
        out[b, base + st[b, IT]] = 1
        base += n
        for q in range(n):
            out[b, base + q * (c[HP0] + 1) + cogs[b, q, HP]] = 1
        base += n * (c[HP0] + 1)
        for q in range(n):
            out[b, base + q * (c[PASSES] + 1) + c[PASSES] - cogs[b, q, USED]] = 1
        out[b, base + n * (c[PASSES] + 1) + st[b, MISSES]] = 1


@kernel
def _hand_rows(hand, seat, done, terminated, at, mover, st, cogs, cards, turns, nturns, c):
    """The kept information states made ready for `_encode_rows` from `done`
    on: zeros in a finished row (seat BLANK), a restarted (or never read)
    row zeros to encode whole, and where the mover changed the seats'
    private pieces (player, cards, own shots) swapped."""
    n, E = c[COGS], c[MAX_TURNS]
    for b in range(len(seat)):
        was, p = seat[b], mover[b]
        if was < 0 or terminated[b]:
            if was != BLANK:
                hand[b, :] = 0
            seat[b], done[b] = BLANK if terminated[b] else p, 0
            continue
        if was == p:
            continue
        hand[b, at[PLAYER] + was] = 0
        for r in range(st[b, ROUND] + 1):
            base = at[CARDS] + r * 2 * n
            hand[b, base + cards[b, r, was, 0]] = hand[b, base + n + cards[b, r, was, 1]] = 0
            hand[b, base + cards[b, r, p, 0]] = hand[b, base + n + cards[b, r, p, 1]] = 1
            for k in range(nturns[b, r]):
                q, act = turns[b, r, k, T_IT], turns[b, r, k, T_ACT]
                if (q == was or q == p) and 0 <= act < 4 * n + 1:
                    _put_shot(hand, b, at[SHOTS] + (r * E + k) * (2 + n), act, n, q == p)
        seat[b] = p
