"""Batched Liar's Dice in every mode (docs/liars_dice.md#rules) as compiled
per-row kernels (fogboard_games.jit, docs/batch.md#observations).

A row keeps what rules.Match keeps (`row`, `seats`, `hands`); `_play_rows` does for
each row what Match.play does for a decision, `_restart_rows` and `_roll_rows` for the
dice, drawn in Python from the env's Generator and logged after the decision that called
for them, as pyspiel's history holds them. Tensors cost nothing until read: the first
read of an information state plays every row again with the writes on (`_replay_rows`),
then the steps write every seat's (`info`, row b * P + p) and the movers' hand-out.
Observations are encoded from the rows at each read, for the seat read (or the movers).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.jit import kernel

# The game's facts and tensor offsets (I_: information state, O_: observation;
# -1 where absent), a tuple of ints `g`: the kernels' helpers take only numbers
# (a numba function passed an array pays reference counts at every call).
(PLAYERS, SIDES, NUMDICE, NUM_BIDS, HANDS, REROLLS, LIAR, PROPHECY, PASS, KEEP, WILD, PAYOUT,
 CHIPS, I_SEAT, I_HANDS, I_COUNTS, I_REROLLED, I_KEPT, I_BIDS, I_PASSES, I_LIAR, I_PROPHECIES,
 I_SHOWN, O_SEAT, O_HAND, O_COUNTS, O_USED, O_BID, O_HOLDER, O_MOVE, O_SHOWN) = range(31)  # fmt: skip
PIECES = ("seat hands dice_counts rerolled kept bids passes liar prophecies shown",
          "seat hand dice_counts rerolls_used standing_bid holder to_move last_shown")  # fmt: skip
# The rows, (9, B) int64. ROLLING: the roll it waits for within a step (-1 none,
# a seat's reroll, P every seat's dice at a round's start); ALIVE: bit s, seat s has dice.
MOVER, BID, HOLDER, ROUND, IN_PLAY, OPENER, CHOOSING, ROLLING, ALIVE = range(9)
DICE, USED = 0, 1  # a seat's, (B, P, 2)
NOW, SHOWN = 0, 1  # dice per face, (B, 2, P, 6): six faces whatever S (restarts write all)
# What the steps write, t = (info, hand, hand_seat), each with no rows until kept.
NOTHING = (np.zeros((0, 0), np.uint8), np.zeros((0, 0), np.float32), np.zeros(0, np.int64))


class LiarsDice(Env):
    """A batch of one fogboard_liars_dice game, any parameters."""

    TABLES = ("round_rows",)

    def _configure(self, game) -> None:
        setup = self.setup = game.setup
        self.num_players, self.num_actions = setup.players, setup.num_actions
        self.keep, self.reroll = setup.keep, setup.reroll
        # Chance: every round rolls at most T dice, every reroll at most D.
        rolls = setup.max_rounds * (setup.total + setup.players * setup.rerolls * setup.numdice)
        self.max_history = setup.max_game_length + rolls
        self.tensor_size, self.obs_size = game.info_layout.size, game.obs_layout.size

    def _build(self) -> None:
        s, B, P = self.setup, self.batch_size, self.num_players
        info, obs = self.game.info_layout.offset, self.game.obs_layout.offset
        facts = [P, s.sides, s.numdice, s.num_bids, s.hands_per_round, s.rerolls, s.liar]
        facts += [s.prophecy_base, s.pass_action, s.keep, s.wild_face, s.payout, s.chips]
        facts += [at.get(p, -1) for at, names in zip((info, obs), PIECES) for p in names.split()]
        self.g = tuple(int(x) for x in facts)
        self.round_rows = np.array(s.round_rows, np.int64)  # K_r: round r's first bid row
        # A seat's own columns of its information state (its one-hot, its hands)
        # come first: where the turn passes, the hand-out copies those alone.
        self.own = info["hands"] + s.max_rounds * s.hands_per_round * s.sides
        assert info["seat"] == 0 and all(v >= self.own for v in info.values() if v > info["hands"])
        assert s.num_bids < 256 and s.numdice <= 5 and s.sides <= 6  # (counts kept in bytes)
        self.row = np.zeros((9, B), np.int64)
        self.seats = np.zeros((B, P, 2), np.int8)
        self.hands = np.zeros((B, 2, P, 6), np.int8)
        self.mover, self.round = self.row[MOVER], self.row[ROUND]
        self.first = True  # (the first restart sets every row whole)
        self.info, self.hand, self.tensors = None, None, NOTHING
        self.view = (self.row, self.seats, self.hands, self.terminated, self.g)  # (_observe's)
        # The dtype today's games drew their first roll in (a seed plays the same games).
        one_round = s.chips and not s.rerolls and not s.allow_pass
        self.draw = np.int16 if one_round else np.int64

    def _restart(self, rows: np.ndarray) -> None:
        # Every seat rolls its D dice, seat by seat: face - 1, as pyspiel logs them.
        P, D = self.num_players, self.setup.numdice
        faces = self.rng.integers(0, self.setup.sides, (len(rows), P * D), self.draw)
        self._log(rows, faces)
        state = (self.row, self.seats, self.hands, self.g, self.tensors)
        _restart_rows(rows, faces, *state, self.first)
        self.first = False

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _mask_rows(mask.view(np.uint8), self.row, self.terminated, self.g)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B, P = self.batch_size, self.num_players
        ended, rewards = np.zeros(B, bool), np.zeros((B, P), np.float32)
        state = (self.row, self.seats, self.hands, self.g, self.round_rows, self.tensors)
        rolls, calls = _play_rows(acts, active, *state, ended, rewards)
        if rolls:
            self._roll()
        return (ended, rewards) if calls else (None, None)  # (only a call ends a game)

    def _roll(self) -> None:
        """The dice the step's decisions call for, the rerolls' then the rounds' (`_roll_rows`)."""
        P, D, rolling = self.num_players, self.setup.numdice, self.row[ROLLING]
        rerolls, rounds = (rolling >= 0) & (rolling < P), rolling == P  # (before any is rolled)
        state = (self.row, self.seats, self.hands, self.g, self.tensors)
        for rows, width in (np.flatnonzero(rerolls), D), (np.flatnonzero(rounds), P * D):
            if len(rows):
                faces = self.rng.integers(0, self.setup.sides, size=(len(rows), width))
                real, at = np.empty(faces.shape, bool), np.empty(0, np.int64)  # (at: a history's)
                _roll_rows(rows, faces.reshape(-1), at, *state, real.reshape(-1))
                self._log_later(rows, faces, real)

    # ---- the tensors ----------------------------------------------------------------

    def _track(self) -> None:
        """Keep every seat's information state from now on (once: `_replay_rows`)."""
        if self.info is not None:
            return
        self.info = np.zeros((self.batch_size * self.num_players, self.tensor_size), np.uint8)
        self.tensors = (self.info, *NOTHING[1:])
        state = (self.row, self.seats, self.hands, self.g, self.round_rows, self.tensors)
        _replay_rows(self.history.reshape(-1), self.hstart, self.hpos, *state)

    def _seat_tensors(self, form: str, seats: np.ndarray) -> np.ndarray:
        if form == "observation":
            out = np.zeros((self.batch_size, self.obs_size), np.uint8)
            _observe(out, seats, *self.view)
            return out
        self._track()
        return self.info.take(self.rows * self.num_players + seats, axis=0)

    def _mover_tensor(self) -> np.ndarray:
        if self.hand is None:
            size = self.tensor_size if self.form == "information_state" else self.obs_size
            self.hand = np.zeros((self.batch_size, size), self.dtype)
            self.hand_view = self.hand[:]
            self.hand_view.flags.writeable = False
            self.out = self.hand.view(np.uint8) if self.dtype == np.bool_ else self.hand
            if self.form == "information_state":
                self._track()
                self.hand_seat = np.full(self.batch_size, -1, np.int64)  # (copied whole)
                self.tensors = (self.info, self.out, self.hand_seat)  # (the steps write it too)
        if self.form == "observation":
            _observe(self.out, np.where(self.terminated, -1, self.mover), *self.view)
        else:
            _hand_out(self.out, self.info, self.hand_seat, self.row, self.terminated, self.own)
        return self.hand_view


@kernel
def _next_seat(alive, s, P):
    """The next seat after s that has dice (Match.next_with_dice), without a
    branch: the lowest of the seats' bits after s, wrapped round (P <= 6)."""
    after = (alive | alive << P) >> (s + 1)
    low = after & -after
    step = 1 + (low > 1) + (low > 2) + (low > 4) + (low > 8) + (low > 16)
    return s + step - P * (s + step >= P)


@kernel
def _restart_rows(rows, faces, row, seats, hands, g, t, first):
    """The rows at their game's start: the roll `faces` (every seat's D dice,
    seat by seat) counted; their tensors blank but for it. (A loop
    for each part: one loop doing all keeps fewer of its values in registers.)"""
    P, D, S = g[PLAYERS], g[NUMDICE], g[SIDES]
    for i, b in enumerate(rows):
        row[MOVER, b], row[BID, b], row[HOLDER, b] = 0, -1, -1
        for s in range(P):
            count = 0  # a byte a face, in loops of the most dice and faces (unrolled)
            for j in range(5):
                count += 1 << 8 * faces[i, s * D + j] if j < D else 0
            for f in range(6):
                hands[b, NOW, s, f] = count >> 8 * f & 255
    whole = not g[CHIPS] or g[REROLLS] or first  # (else never changed since the first)
    for b in rows if whole else rows[:0]:
        row[ROUND, b], row[IN_PLAY, b], row[OPENER, b] = 0, P * D, 0
        row[CHOOSING, b], row[ROLLING, b], row[ALIVE, b] = g[REROLLS] > 0, -1, (1 << P) - 1
        seats[b, :, DICE], seats[b, :, USED] = D, 0
    info, hand, hand_seat = t
    for b in rows if len(info) else rows[:0]:
        info[b * P : b * P + P] = 0
        for s in range(P):
            info[b * P + s, g[I_SEAT] + s] = 1
            for f in range(S):
                info[b * P + s, g[I_HANDS] + f] = hands[b, NOW, s, f]
            for p in range(P if g[I_COUNTS] >= 0 else 0):  # every seat has D dice
                info[b * P + p, g[I_COUNTS] + s * (D + 1) + D] = 1
        if len(hand):
            hand_seat[b] = -1  # (copied whole at the next read)


@kernel
def _roll_rows(rows, faces, at, row, seats, hands, g, t, real):
    """The roll each of `rows` waits for, its faces (face - 1) read on from faces[at[b]]:
    a seat's whole hand again, or every seat's dice, seat by seat. With `real` (a flag
    per face), the faces are drawn D a seat, row i's from i * (D a seat rolling), and
    `real` marks those kept (as many as the seat has dice); else (`real` empty: a
    history) only those kept, and at[b] is moved on past them."""
    P, S, D = g[PLAYERS], g[SIDES], g[NUMDICE]
    info, hand, hand_seat = t
    drawn = len(real) > 0
    for i, b in enumerate(rows):
        r = row[ROLLING, b]
        at_b = i * len(faces) // len(rows) if drawn else at[b]
        for s in range(0 if r == P else r, P if r == P else r + 1):
            h = 0 if r == P else seats[b, s, USED]  # the seat's hand h of the round
            col, dice, count = g[I_HANDS] + (row[ROUND, b] * g[HANDS] + h) * S, seats[b, s, DICE], 0
            for j in range(D if drawn else dice):
                if drawn:
                    real[at_b] = j < dice
                count += (j < dice) * (1 << 8 * faces[at_b])  # a byte a face
                at_b += 1
            for f in range(S):
                hands[b, NOW, s, f] = dice_f = count >> 8 * f & 255
                if len(info):  # (the hand's columns: a new hand's, zeros before)
                    info[b * P + s, col + f] = dice_f
                if len(hand) and hand_seat[b] == s:
                    hand[b, col + f] = dice_f
        row[ROLLING, b] = -1
        if not drawn:
            at[b] = at_b


@kernel
def _play_rows(acts, plays, row, seats, hands, g, round_rows, t, ended, rewards):
    """Every playing row's (checked) decision: the bids (`_bid_rows`), then the
    choices, passes, writes and calls. Returns the counts of rows waiting for a
    roll and of calls."""
    P, B = g[PLAYERS], len(acts)
    col, said = _bid_rows(acts, plays, row, g)
    info, hand, _ = t
    calls, n, rolls = np.empty((B, 2), np.int64), 0, 0  # the rows that called
    for b in range(B):
        calls[n, 0], calls[n, 1] = b, said[b]
        n += said[b] >= 0
        a, s, r = acts[b], row[MOVER, b], row[ROUND, b]
        if said[b] == -2 and row[CHOOSING, b]:
            col[b], done = g[I_KEPT] + r * P + s, a == g[KEEP]
            if not done:  # reroll: the same seat chooses again while it has rerolls left
                seats[b, s, USED] += 1
                col[b] = g[I_REROLLED] + (r * P + s) * g[REROLLS] + seats[b, s, USED] - 1
                row[ROLLING, b], done = s, seats[b, s, USED] >= g[REROLLS]
                rolls += 1
            if done:  # after the last seat, the opener bids
                nxt = _next_seat(row[ALIVE, b], s, P)
                row[MOVER, b], row[CHOOSING, b] = nxt, nxt != row[OPENER, b]
        elif said[b] == -2:  # pass
            col[b] = g[I_PASSES] + (round_rows[r] + row[BID, b]) * P + s
            row[MOVER, b] = _next_seat(row[ALIVE, b], s, P)
    for b in range(B if len(info) else 0):  # (a loop of its own: see _restart_rows)
        if plays[b]:
            bid = said[b] != -2 and acts[b] != g[LIAR]
            col[b] += round_rows[row[ROUND, b]] * P if bid else 0  # (a bid's)
            for p in range(P):  # the decision, public
                info[b * P + p, col[b]] = 1
            if len(hand):
                hand[b, col[b]] = 1
    rounds = _settle_rows(calls[:n], row, seats, hands, g, t, ended, rewards)
    return rolls + rounds, n


@kernel
def _bid_rows(acts, plays, row, g):
    """The playing rows' raises and calls, without a branch (vectorized): said[b] is 2 *
    the bid called (+ 1: a prophecy), -1 after a raise or out of play, -2 for a choice
    or a pass (not played here); col[b] the decision's (a bid's less its round's row)."""
    P, col, said = g[PLAYERS], np.empty(len(acts), np.int64), np.empty(len(acts), np.int64)
    for b in range(len(acts)):
        a, s, r, bid, holder = acts[b], row[MOVER, b], row[ROUND, b], row[BID, b], row[HOLDER, b]
        bids = plays[b] & (row[CHOOSING, b] == 0) & (a != g[PASS])
        raised, liar = bids & (a < g[NUM_BIDS]), a == g[LIAR]
        called = a if raised else bid if liar else a - g[PROPHECY]
        at = (g[I_BIDS] if raised else g[I_PROPHECIES]) + called * P
        col[b] = (g[I_LIAR] + r * P if liar else at) + s
        row[BID, b], row[HOLDER, b] = called if raised else bid, s if raised else holder
        row[MOVER, b] = _next_seat(row[ALIVE, b], s, P) if raised else s
        said[b] = -2 if plays[b] & ~bids else -1 if raised | ~bids else 2 * called + (not liar)
    return col, said


@kernel
def _settle_rows(calls, row, seats, hands, g, t, ended, rewards):
    """The rows that called, calls[i] = (b, 2 * the bid called + 1 for a prophecy): every
    hand shown and counted (a wild die counts for every other face), and who pays (chips)
    or loses dice: the loser gives up as many of its dice as it lost (public in the dice
    counts); the last seat with dice wins, else the loser (or the next seat with dice)
    opens the next round, which waits for its roll. Returns the count of rounds begun."""
    P, S, D, wild = g[PLAYERS], g[SIDES], g[NUMDICE], g[WILD] - 1
    info, hand, _ = t
    rounds = 0
    for i in range(len(calls)):
        b, said, prophecy = calls[i, 0], calls[i, 1] >> 1, calls[i, 1] & 1
        quantity, face = said // S + 1, said % S
        w = wild if wild >= 0 else face
        count = 0
        for s in range(P):
            count += hands[b, NOW, s, face] + hands[b, NOW, s, w] * (w != face)
        wins = count == quantity if prophecy else count < quantity  # the caller
        caller, holder = row[MOVER, b], row[HOLDER, b]
        winner, loser = caller if wins else holder, holder if wins else caller
        lost = g[PAYOUT] if prophecy & wins else 1
        at = g[I_SHOWN] + row[ROUND, b] * P * S
        for s in range(P if len(info) or not g[CHIPS] else 0):  # (chips: the last hands)
            for f in range(S):
                hands[b, SHOWN, s, f] = hands[b, NOW, s, f]
                for p in range(P if len(info) else 0):
                    info[b * P + p, at + s * S + f] = hands[b, NOW, s, f]
                if len(hand):
                    hand[b, at + s * S + f] = hands[b, NOW, s, f]
        if g[CHIPS]:
            rewards[b, winner], rewards[b, loser], ended[b] = lost, -lost, True
            continue
        had = seats[b, loser, DICE]
        left = had - min(lost, had)
        seats[b, loser, DICE] = left
        at = g[I_COUNTS] + loser * (D + 1)
        for p in range(P if len(info) else 0):
            info[b * P + p, at + had], info[b * P + p, at + left] = 0, 1
        if len(hand):
            hand[b, at + had], hand[b, at + left] = 0, 1
        row[ALIVE, b] &= ~(1 << loser) if left == 0 else -1
        alive, in_play = row[ALIVE, b], 0
        ended[b] = alive & (alive - 1) == 0  # (one seat left)
        for s in range(P):
            if ended[b]:
                rewards[b, s] = 1.0 if alive >> s & 1 else -1.0 / (P - 1)
            else:
                seats[b, s, USED] = 0
                in_play += seats[b, s, DICE]
        if not ended[b]:
            opener = loser if left else _next_seat(alive, loser, P)
            row[ROUND, b], row[IN_PLAY, b] = row[ROUND, b] + 1, in_play
            row[OPENER, b], row[MOVER, b], row[BID, b], row[HOLDER, b] = opener, opener, -1, -1
            row[CHOOSING, b], row[ROLLING, b] = g[REROLLS] > 0, P
            rounds += 1
    return rounds


@kernel
def _replay_rows(history, hstart, hpos, row, seats, hands, g, round_rows, t):
    """Every row played again from its history (`history` flat, a row's
    entries from hstart to hpos), a decision at a time and the rolls they call for."""
    B, PD = len(hstart), g[PLAYERS] * g[NUMDICE]
    plays, ended = np.zeros(B, np.bool_), np.zeros(B, np.bool_)
    acts, rewards = np.zeros(B, np.int64), np.zeros((B, g[PLAYERS]), np.float32)
    _restart_rows(np.arange(B), history.reshape(B, -1)[:, :PD], row, seats, hands, g, t, True)
    at = hstart + PD
    while True:
        for b in range(B):
            plays[b] = at[b] < hpos[b]
            acts[b] = history[at[b]] if plays[b] else 0
            at[b] += plays[b]
        if not plays.any():
            return
        _play_rows(acts, plays, row, seats, hands, g, round_rows, t, ended, rewards)
        rolls = np.nonzero(row[ROLLING] >= 0)[0]
        _roll_rows(rolls, history, at, row, seats, hands, g, t, np.zeros(0, np.bool_))


@kernel
def _mask_rows(mask, row, terminated, g):
    """The legal mask (A, B) in bytes (none where finished), by action along the rows
    without a branch (vectorized): bid a is a raise where a - lo, wrapped to a byte,
    is below the row's count of raises (below lo it wraps past: bids stay < 256)."""
    B, base = len(terminated), g[PROPHECY]
    lo, raises, prophecies = np.empty(B, np.uint8), np.empty(B, np.uint8), np.empty(B, np.uint8)
    for b in range(B):
        # The mover's options (Match.bidding_actions): raises lo..top-1; against another's
        # bid, liar, those raises' prophecies and a pass (below the top); keep, reroll.
        choosing, bid, live = row[CHOOSING, b], row[BID, b], not terminated[b]
        top = 0 if choosing else row[IN_PLAY, b] * g[SIDES]
        calls = (bid >= 0) & (row[HOLDER, b] != row[MOVER, b]) & (choosing == 0) & live
        lo[b], raises[b] = bid + 1, max(top - bid - 1, 0) * live
        prophecies[b] = raises[b] * calls
        mask[g[LIAR], b] = calls
        if g[PASS] >= 0:
            mask[g[PASS], b] = calls & (bid < top - 1)
        if g[KEEP] >= 0:
            mask[g[KEEP], b] = mask[g[KEEP] + 1, b] = (choosing != 0) & live
    for a in range(g[NUM_BIDS]):
        for b in range(B):
            mask[a, b] = np.uint8(a - lo[b]) < raises[b]
        for b in range(B if base >= 0 else 0):
            mask[base + a, b] = np.uint8(a - lo[b]) < prophecies[b]


@kernel
def _hand_out(hand, info, hand_seat, row, terminated, own):
    """The movers' information states in `hand`: its own columns where the mover changed
    (`own`: the public ones are alike), whole rows where marked (-1), zeros at the end (-2)."""
    P = info.shape[0] // len(terminated)
    for b in range(len(terminated)):
        s = -2 if terminated[b] else row[MOVER, b]
        if hand_seat[b] == s:
            continue
        width = own if hand_seat[b] >= 0 and s >= 0 else hand.shape[1]
        for c in range(width):
            hand[b, c] = info[b * P + s, c] if s >= 0 else 0
        hand_seat[b] = s


@kernel
def _observe(out, viewers, row, seats, hands, terminated, g):
    """Observation tensors (observer.encode's view now): out row b shows seat
    viewers[b] of row b (zeros where -1)."""
    P, S, D, k = g[PLAYERS], g[SIDES], g[NUMDICE], g[REROLLS]
    out[:] = 0
    for b, p in enumerate(viewers):
        if p < 0:
            continue
        out[b, g[O_SEAT] + p] = 1
        shown = terminated[b] or row[ROUND, b] > 0  # (a showdown has been: in chips mode the end)
        last = NOW if g[CHIPS] else SHOWN
        for s in range(P):
            if g[O_COUNTS] >= 0:
                out[b, g[O_COUNTS] + s * (D + 1) + seats[b, s, DICE]] = 1
            if g[O_USED] >= 0:
                out[b, g[O_USED] + s * (k + 1) + seats[b, s, USED]] = 1
            for f in range(S):
                if s == p:
                    out[b, g[O_HAND] + f] = hands[b, NOW, s, f]
                if shown:
                    out[b, g[O_SHOWN] + s * S + f] = hands[b, last, s, f]
        if row[BID, b] >= 0:
            out[b, g[O_BID] + row[BID, b]] = 1
            out[b, g[O_HOLDER] + row[HOLDER, b]] = 1
        if not terminated[b]:
            out[b, g[O_MOVE] + row[MOVER, b]] = 1
