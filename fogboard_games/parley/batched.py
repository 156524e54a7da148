"""Batched Parley: every parameter value of `fogboard_parley` (docs/batch.md),
as compiled per-row kernels (fogboard_games.jit).

A row keeps what a `rules.Match` keeps, the turns' records included;
`_play_rows` does for each row what `Match.play` does at a decision, with
chance (a hip-shot's result, a round's deals and wake) drawn from the
environment's Generator and logged after the decision, as pyspiel's chance
outcomes. `_encode_rows` writes a seat's tensor from the records, as
`observer.ParleyEncoder` does (docs/batch.md#observations).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.jit import kernel
from fogboard_games.parley import rules
from fogboard_games.parley.observer import SHOWN_PHASE

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
# turn with perfect recall; in the view now the round's, its latest turn's, totals;
# the status pieces (from `round` on, the layout's last) in both.
PIECES = ["player", "cards", "shots"] + ["turn_" + p for p in ("it", "line", "target", "pass")]
PIECES += ["turn_result", "turn_reactions", "points", "round", "mover", "phase", "it", "hp"]
PIECES += ["passes_left", "misses"]
NOW = {"cards": "cards_now", "shots": "shot_now", "points": "totals"}
PLAYER, CARDS, SHOTS, P_IT, P_LINE, P_TARGET, P_PASS, P_RESULT, P_REACT, POINTS = range(10)
S_ROUND, S_MOVER, S_PHASE, S_IT, S_HP, S_PASSES, S_MISSES = range(10, 17)
# What a kept row shows besides a cog's tensor: zeros, or a game gone (to clear).
BLANK, STALE = -1, -2


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
        # The movers' tensors of the environment's form, kept from their first
        # read, and what each row showed at the last (its cog and turn under way).
        self.hand = self.shown = self.done = None
        # The rows' records, in the kernels' order (the game's sizes follow them).
        self.records = (self.legal, self.mover, self.st, self.cogs, self.cards, self.points)
        self.records += (self.turns, self.nturns)

    @property
    def totals(self) -> np.ndarray:
        """(B, P): each cog's points so far (the returns at the end)."""
        return self.cogs[:, :, TOTAL]

    # ---- restarts, chance and the moves ------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        if self.hand is not None:  # (cleared at the next read, in its kernel; a row read
            self.shown[rows[self.shown[rows] != BLANK]] = STALE  # finished was already)
        self.st[rows, ROUND], self.cogs[rows, :, TOTAL] = 0, 0
        self._deal(rows)

    def _deal(self, rows: np.ndarray) -> None:
        """The rows' round starts: every cog's deal (an ordered pair) and the wake
        drawn (uniform), logged after the step's action (or the restart)."""
        picks = self.rng.integers(0, self.round_highs, size=(len(rows), self.num_players + 1))
        outcomes = self.round_outcomes.take(picks + self.round_at)
        self._log_later(rows, outcomes)
        _deal_rows(rows, outcomes, *self.records, self.sizes)

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (docs/batch.md#interface)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _legal_rows(mask, self.legal, self.terminated)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B, n = self.batch_size, self.num_players
        hips = _hip_shots(acts, active, self.st, n)
        # The hip-shots' results (a hit: 0 of 0..2) in row order; `shots`: their rows, outcomes.
        draws = self.rng.integers(0, 3, size=hips) if hips else np.zeros(0, np.int64)
        shots, over = np.empty((hips, 2), np.int64), np.zeros(B, np.int8)
        ends = _play_rows(acts, active, draws, shots, over, *self.records, self.sizes)
        self._log_later(shots[:, 0], shots[:, 1:])
        if not ends:
            return None, None
        paid = np.zeros((B, n), np.float32)
        _end_rounds(over, paid, *self.records, self.sizes)  # (over: 1, a round follows; 2, the end)
        rows = np.flatnonzero(over == 1)
        if len(rows):
            self._deal(rows)
        return over == 2, paid

    # ---- tensors ---------------------------------------------------------------------

    def _mover_tensor(self) -> np.ndarray:
        if self.hand is None:
            self.hand, self.shown, self.done = self._blank(self.form, self.dtype)
        seats = np.where(self.terminated, -1, self.mover)
        self._encode(self.hand, seats, self.shown, self.done, self.form)
        view = self.hand[:]
        view.flags.writeable = False
        return view

    def _seat_tensors(self, form: str, seats: np.ndarray) -> np.ndarray:
        # (in uint8, which holds every value: Env hands out a copy in its dtype)
        out, shown, done = self._blank(form, np.uint8)
        self._encode(out, seats, shown, done, form)
        return out

    def _blank(self, form: str, dtype) -> tuple:
        """Zero tensors of the form, and what each row showed at its last read: nothing."""
        B = self.batch_size
        size = self.tensor_size if form == "information_state" else self.obs_size
        return np.zeros((B, size), dtype), np.full(B, BLANK, np.int8), np.zeros(B, np.int16)

    def _encode(self, out, seats, shown, done, form: str) -> None:
        recall = form == "information_state"
        at = self.at_info if recall else self.at_obs
        _encode_rows(out, seats, shown, done, at, recall, *self.records, self.sizes)


# The kernels loop over the rows, each doing for one row what the rules (or the
# encoder) do for one state; each takes the rows' records whole (`records`). A
# helper's array arguments can cost their reference counts at every call (about
# 30 ns an array where measured): the helpers called for most rows (`_options`,
# `_start_turn`, `_put_turn`) take three at most; the encoder writes the status
# itself, and a round's end is a pass of its own (as helpers, taking five and
# seven arrays, they made a read and a step of parley-tiny twice as long).


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
def _hip_shots(acts, play, st, n):
    """The count of playing rows shooting from the hip (whose results chance draws)."""
    hips = 0
    for b in range(len(acts)):
        a = acts[b]
        hips += play[b] and st[b, PHASE] == ACT and 3 * n < a <= 4 * n
    return hips


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
def _play_rows(
    acts, play, draws, shots, over, legal, mover, st, cogs, cards, points, turns, nturns, c
):
    """Each playing row's decision (Match.play): IT's line; its shot or pass (a
    hip-shot's result the next of chance's `draws`, its row and outcome then in
    `shots`): a hit costs the target 1 hp, at 0 it is OUT, the shooter keeps the
    gun, scores if it was its ENEMY and the round may be `over`; otherwise, hit
    or miss, the target is IT (a pass leaves the gun with IT); or a reaction.
    Then the next cog reacts, or the next IT's turn starts. Returns the rounds
    over (`_end_rounds` pays them)."""
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
                    hit = draws[j] == 0
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
            if over[b]:
                ends += 1
                continue  # (the actor stays the mover; `_end_rounds` ends the round)
        speaker = _next_speaker(actor, place, st[b, IT], st[b, LIVING], said, X, n)
        st[b, PHASE] = REACT  # (unless no cog reacts: then the next IT's turn starts)
        mover[b] = speaker if speaker >= 0 else _start_turn(st, turns, nturns, b, k + 1, c[TALK])
        legal[b] = _options(st, cogs, b, mover[b], c)
    return ends


@kernel
def _end_rounds(over, paid, legal, mover, st, cogs, cards, points, turns, nturns, c):
    """Each cog's points of a round `over`, paid: 3 standing, 1 for a standing
    FRIEND, its ENEMY kills; `over` then 2 where that was the match's last."""
    for b in range(len(over)):
        if not over[b]:
            continue
        r, living = st[b, ROUND], st[b, LIVING]
        for q in range(c[COGS]):
            got = rules.SURVIVOR_POINTS * ((living >> q) & 1) + cogs[b, q, KILLS]
            got += rules.FRIEND_POINTS * ((living >> cards[b, r, q, 0]) & 1)
            points[b, r, q], paid[b, q] = got, got
            cogs[b, q, TOTAL] += got
        last = r + 1 == c[ROUNDS]
        over[b] += last
        st[b, PHASE], st[b, ROUND] = OVER, r + (not last)


@kernel
def _deal_rows(rows, outcomes, legal, mover, st, cogs, cards, points, turns, nturns, c):
    """Each row's round starts with chance's `outcomes`: every cog's deal, then
    the cog that wakes up IT, whose turn starts."""
    n = c[COGS]
    for i in range(len(rows)):
        b, r = rows[i], st[rows[i], ROUND]
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
def _encode_rows(
    out, seats, shown, done, at, recall, legal, mover, st, cogs, cards, points, turns, nturns, c
):
    """Row b of `out` made cog seats[b]'s tensor (zeros where -1), as
    ParleyEncoder.encode does: with perfect recall every round's cards, turns
    and points, else this round's cards, its latest turn and the totals; then
    the status. A view is written whole. An information state goes on from
    what the row showed at its last read, cog shown[b]'s (or BLANK, STALE) when
    the turn done[b] (r * max_turns + k) was under way: the public pieces are
    written from that turn on (it may have gained a shot or reactions since)
    and, where the cog changed, the private ones (player, cards, own shots)
    swapped over every turn; a finished row is cleared once."""
    n, E, X = c[COGS], c[MAX_TURNS], c[MAX_X]
    for b in range(len(seats)):
        p, was, now = seats[b], shown[b], st[b, ROUND]
        if not recall or was == STALE or p < 0 and was != BLANK:
            out[b, :] = 0
            was, done[b] = BLANK, 0
        shown[b] = p  # (BLANK where -1)
        if p < 0:
            continue
        seen = done[b]  # (a local: numba reloads an array's entry after each store)
        first = seen if was == p else 0  # (the first turn to visit)
        if was >= 0:
            out[b, at[PLAYER] + was] = 0
        out[b, at[PLAYER] + p] = 1
        for r in range(first // E if recall else now, now + 1):
            base = at[CARDS] + (r * 2 * n if recall else 0)
            if was >= 0:
                out[b, base + cards[b, r, was, 0]] = out[b, base + n + cards[b, r, was, 1]] = 0
            out[b, base + cards[b, r, p, 0]] = out[b, base + n + cards[b, r, p, 1]] = 1
            if recall and (r < now or st[b, PHASE] == OVER):
                for q in range(n):
                    out[b, at[POINTS] + r * n + q] = points[b, r, q]
            k0 = (first % E if r == first // E else 0) if recall else nturns[b, r] - 1
            for k in range(k0, nturns[b, r]):
                row = r * E + k if recall else 0
                it, act = turns[b, r, k, T_IT], turns[b, r, k, T_ACT]
                if (it == p or it == was) and 0 <= act <= 4 * n:  # a cog's own shot:
                    shot = at[SHOTS] + row * (2 + n)  # its aim (head, hip), then its target
                    out[b, shot + (act > 3 * n)] = out[b, shot + 2 + (act - 1) % n] = it == p
                if row >= seen:  # (else its public pieces are written already)
                    _put_turn(out, b, at, row, turns, r, k, n, X)
        for q in range(0 if recall else n):
            out[b, at[POINTS] + q] = cogs[b, q, TOTAL]
        phase = st[b, PHASE]
        out[b, at[S_ROUND] :] = 0
        out[b, at[S_ROUND] + st[b, ROUND]] = 1
        if phase != OVER:
            out[b, at[S_MOVER] + mover[b]] = 1
        out[b, at[S_PHASE] + phase] = 1
        out[b, at[S_IT] + st[b, IT]] = 1
        for q in range(n):
            out[b, at[S_HP] + q * (c[HP0] + 1) + cogs[b, q, HP]] = 1
            out[b, at[S_PASSES] + q * (c[PASSES] + 1) + c[PASSES] - cogs[b, q, USED]] = 1
        out[b, at[S_MISSES] + st[b, MISSES]] = 1
        done[b] = now * E + nturns[b, now] - 1


@kernel
def _put_turn(out, b, at, row, turns, r, k, n, X) -> None:
    """Turn k of round r's public record at its row of the turn pieces: IT,
    its line, its pass or its shot's target and result (the table learns a
    shot with its result), and the reactions said (speaker, then line)."""
    act, line = turns[b, r, k, T_ACT], turns[b, r, k, T_LINE]
    out[b, at[P_IT] + row * n + turns[b, r, k, T_IT]] = 1
    if line >= 0:
        out[b, at[P_LINE] + row * (1 + 2 * n) + line] = 1
    if act == 4 * n + 1:
        out[b, at[P_PASS] + row] = 1
    elif act >= 0:
        out[b, at[P_TARGET] + row * n + (act - 1) % n] = 1
        out[b, at[P_RESULT] + row * 2 + turns[b, r, k, T_RESULT]] = 1
    for x in range(turns[b, r, k, T_SAID]):
        said = at[P_REACT] + (row * X + x) * (1 + 3 * n)
        out[b, said + turns[b, r, k, T_SPEAKERS + x]] = 1
        out[b, said + n + turns[b, r, k, T_SPEAKERS + X + x]] = 1
