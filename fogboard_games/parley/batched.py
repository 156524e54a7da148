"""Batched Parley: every parameter value of `fogboard_parley` (docs/batch.md),
as compiled per-row kernels (fogboard_games.jit).

A row keeps what a `rules.Match` keeps: the round's phase, IT, living cogs
and misses, each cog's hp, passes used, ENEMY kills and totals, and per
round the cards dealt, the points and the turns (IT, its line, its act and
result, the reactions). `_play_rows` does for each row what `Match.play`
does at a decision and `_deal_rows` starts a round; chance (a hip-shot's
result, the deals and the wake) is drawn from the environment's Generator
between them, in Python, and logged after the decision that brought it, as
pyspiel's chance outcomes. `_encode_row` writes a seat's tensor of either
form from those records, as `observer.ParleyEncoder` does.

Tensors are made only when read: a seat's, or the movers' observation
form, encoded whole at each read; the movers' information states
(State.observation) are kept in place from their first read on, each step
writing its few entries into them and a read swapping the private pieces
where the mover changed and writing the status anew.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env, _is_index
from fogboard_games.jit import kernel
from fogboard_games.parley import rules
from fogboard_games.parley.observer import PHASE_ORDER, SHOWN_PHASE

# Phases as the tensors' `phase` piece numbers them (a row is never at chance).
LINE, ACT, REACT, OVER = (SHOWN_PHASE[p] for p in (rules.LINE, rules.ACT, rules.REACT, rules.OVER))
# A row's state (`st`), each cog's (`cogs`), and the game's sizes (`sizes`).
PHASE, ROUND, IT, LIVING, MISSES = range(5)
HP, USED, KILLS, TOTAL = range(4)
COGS, ROUNDS, MAX_TURNS, MAX_X, HP0, PASSES, SURVIVORS, HIP_LIMIT, TALK, IT_BASE = range(10)
# A turn's record (-1: not yet): IT, its line, its act, the result, the count of
# reactions said, then their speakers and (MAX_X further on) their lines.
T_IT, T_LINE, T_ACT, T_RESULT, T_SAID, T_SPEAKERS = range(6)
# The pieces each form's tensor holds, at the same index in both (-1: absent):
# per round and turn with perfect recall, the round's and its latest turn's in
# the current view.
PIECES = {
    "information_state": (
        "player", "cards", "shots", "turn_it", "turn_line", "turn_target", "turn_pass",
        "turn_result", "turn_reactions", "points", "round",
    ),
    "observation": (
        "player", "cards_now", "shot_now", "last_it", "last_line", "last_target", "last_pass",
        "last_result", "last_reactions", "totals", "round",
    ),
}  # fmt: skip
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
        s, B, n = self.setup, self.batch_size, self.num_players
        self.start_block = None  # (a row starts with the woken IT to move)
        self.sizes = np.array(
            [n, s.rounds, s.max_turns, s.max_reactions, s.hp, s.passes, s.survivors]
            + [s.hip_limit, s.talk, s.it_base],
            np.int64,
        )
        self.at_info, self.at_obs = (
            np.array([layout.offset.get(p, -1) for p in PIECES[form]], np.int64)
            for form, layout in (
                ("information_state", self.game.info_layout),
                ("observation", self.game.obs_layout),
            )
        )
        # A round's chance: a pick in 0..pairs-1 per cog, then one in 0..n-1 (the
        # wake), drawn in one call and mapped to pyspiel's outcome ids by one lookup.
        deals = np.array(s.deal_options, np.int64)  # (n, pairs): cog c's deal outcomes
        pairs = deals.shape[1]
        self.round_outcomes = np.concatenate([deals.reshape(-1), s.it_base + np.arange(n)])
        self.round_highs = np.array([pairs] * n + [n], np.int64)
        self.round_at = np.arange(n + 1) * pairs  # each draw's place in round_outcomes

        self.mover = np.zeros(B, np.int64)
        self.st = np.zeros((B, 5), np.int32)
        self.cogs = np.zeros((B, n, 4), np.int32)
        self.cards = np.zeros((B, s.rounds, n, 2), np.int8)  # (friend, enemy)
        self.points = np.zeros((B, s.rounds, n), np.int8)
        self.turns = np.zeros((B, s.rounds, s.max_turns, T_SPEAKERS + 2 * s.max_reactions), np.int8)
        self.nturns = np.zeros((B, s.rounds), np.int16)  # turns started in each round
        self.every = np.ones(B, bool)  # (the rows that play when every row does)
        # The movers' information states and the seat each row shows, once read
        # (until then empty: the steps write into no row).
        self.hand = np.zeros((0, self.tensor_size), self.dtype)
        self.hand_seat = np.zeros(0, np.int8)
        self.views = None  # the movers' observations, once read

    @property
    def totals(self) -> np.ndarray:
        """(B, P): each cog's points so far (the returns at the end)."""
        return self.cogs[:, :, TOTAL]

    # ---- restarts, chance and the moves ------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self._deal(rows, fresh=True)

    def _deal(self, rows: np.ndarray, fresh: bool) -> None:
        """The rows' round starts: every cog's deal (an ordered pair, uniform),
        then the wake (uniform), logged (after the step's action unless `fresh`,
        a restart)."""
        picks = self.rng.integers(0, self.round_highs, size=(len(rows), self.num_players + 1))
        outcomes = self.round_outcomes.take(picks + self.round_at)
        (self._log if fresh else self._log_later)(rows, outcomes)
        _deal_rows(rows, outcomes, fresh, *self._rows(), self.hand, self.hand_seat, self.at_info)

    def _rows(self) -> tuple:
        return self.mover, self.st, self.cogs, self.cards, self.turns, self.nturns, self.sizes

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (docs/batch.md#interface)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _legal_rows(mask, self.terminated, *self._rows())
        return mask.T

    def _restarted_mask(self, last: np.ndarray, rows: np.ndarray) -> np.ndarray:
        return self._legal_mask()  # (a restarted row starts with the woken IT's own)

    def _play(self, acts: np.ndarray, active):
        B, s = self.batch_size, self.setup
        play = self.every if active is None else active
        ok, hip = np.empty(B, bool), np.empty(B, bool)
        if _check_rows(acts, play, ok, hip, *self._rows()):
            self._refuse(active, acts, ok)
        result = np.zeros(B, np.int8)
        rows = np.flatnonzero(hip)
        if len(rows):  # a hip-shot's result: hit 1/3, miss 2/3
            hit = self.rng.integers(0, 3, size=(len(rows), 1)) == 0
            outcomes = np.where(hit, s.hit, s.miss)
            self._log_later(rows, outcomes)
            result[rows] = outcomes[:, 0] - s.hit  # (rules.HIT, rules.MISS)
        rewards = np.zeros((B, self.num_players), np.float32)
        ended, deal = np.zeros(B, bool), np.zeros(B, bool)
        tensor = (self.hand, self.hand_seat, self.at_info)
        if not _play_rows(
            acts, play, result, *self._rows(), self.points, *tensor, rewards, ended, deal
        ):
            return None, None
        rows = np.flatnonzero(deal)
        if len(rows):
            self._deal(rows, fresh=False)
        return ended, rewards

    # ---- tensors ---------------------------------------------------------------------

    def _store(self, form: str) -> np.ndarray:
        """The movers' tensors of the form, kept in place and brought to the rows
        now (zeros in finished rows): the information states kept from their
        first read (the steps write into them), the observations encoded whole."""
        B = self.batch_size
        records = (*self._rows(), self.points)
        if form == "information_state":
            if not len(self.hand):
                self.hand = np.zeros((B, self.tensor_size), self.dtype)
                self.hand_seat = np.full(B, STALE, np.int8)
            _hand_rows(self.hand, self.hand_seat, self.terminated, self.at_info, *records)
            return self.hand
        if self.views is None:
            self.views = np.zeros((B, self.obs_size), self.dtype)
        seats = np.where(self.terminated, -1, self.mover)
        _encode_rows(self.views, seats, self.at_obs, False, *records)
        return self.views

    def _mover_tensor(self) -> np.ndarray:
        view = self._store(self.form)[:]
        view.flags.writeable = False
        return view

    def _seat_tensor(self, form: str, player) -> np.ndarray:
        # (dtype bool is refused at make: Parley's points count past 1 in either form)
        if not _is_index(player) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be a seat 0..{self.num_players - 1}, got {player!r}")
        info = form == "information_state"
        out = np.empty((self.batch_size, self.tensor_size if info else self.obs_size), self.dtype)
        seats = np.full(self.batch_size, player, np.int64)
        _encode_rows(
            out, seats, self.at_info if info else self.at_obs, info, *self._rows(), self.points
        )
        return out


# The kernels loop over the rows; the helpers they call per row (numba inlines
# them) do for one row what the rules and the encoder do for one state.


@kernel
def _is_legal(a, p, st, cogs, b, c) -> bool:
    """Whether cog p, to move in row b, may play action a (Match.options): a
    line (silent, accuse or vouch another living cog), or IT's act (a
    head-shot at another living cog, a hip-shot while misses allow, a pass
    while it has passes left)."""
    n = c[COGS]
    if st[b, PHASE] == ACT:
        if a == 4 * n + 1:
            return cogs[b, p, USED] < c[PASSES]
        if a < 1 + 2 * n or a > 4 * n or (a > 3 * n and st[b, MISSES] >= c[HIP_LIMIT]):
            return False
    elif a == 0:
        return True
    elif a < 1 or a > 2 * n:
        return False
    j = (a - 1) % n
    return j != p and (st[b, LIVING] >> j) & 1 == 1


@kernel
def _legal_rows(mask, terminated, mover, st, cogs, cards, turns, nturns, c):
    """Each row's legal actions, mask[a, b]; none in finished rows."""
    for b in range(len(mover)):
        for a in range(mask.shape[0]):
            mask[a, b] = not terminated[b] and _is_legal(a, mover[b], st, cogs, b, c)


@kernel
def _check_rows(acts, play, ok, hip, mover, st, cogs, cards, turns, nturns, c):
    """Whether each playing row's action is legal (`ok`, True in rows not
    playing) and a hip-shot (`hip`: chance draws its result next); returns
    how many are illegal."""
    n, bad = c[COGS], 0
    for b in range(len(acts)):
        ok[b], hip[b] = True, False
        if play[b]:
            a = acts[b]
            ok[b] = _is_legal(a, mover[b], st, cogs, b, c)
            bad += not ok[b]
            hip[b] = st[b, PHASE] == ACT and 3 * n < a <= 4 * n
    return bad


@kernel
def _play_rows(
    acts, play, result, mover, st, cogs, cards, turns, nturns, c, points, hand, seat, at,
    rewards, ended, deal,
):  # fmt: skip
    """Each playing row's decision (Match.play): IT's line, its act (a
    hip-shot's `result` drawn), or a reaction, written into the kept
    information state (`hand`, where read). A round that ends pays its points
    (`rewards`) and ends the match (`ended`) or waits for its deal (`deal`).
    Returns how many rounds ended."""
    n, X, paid = c[COGS], c[MAX_X], 0
    for b in range(len(acts)):
        if not play[b]:
            continue
        a, r = acts[b], st[b, ROUND]
        k = nturns[b, r] - 1
        row = r * c[MAX_TURNS] + k
        if st[b, PHASE] == LINE:
            turns[b, r, k, T_LINE] = a
            st[b, PHASE] = ACT
            if len(hand):
                _put_line(hand, b, at, row, a, n)
        elif st[b, PHASE] == REACT:
            x = turns[b, r, k, T_SAID]
            turns[b, r, k, T_SPEAKERS + x] = mover[b]
            turns[b, r, k, T_SPEAKERS + X + x] = a
            turns[b, r, k, T_SAID] = x + 1
            if len(hand):
                _put_reaction(hand, b, at, row, x, mover[b], a, n, X)
            after = (mover[b] - turns[b, r, k, T_IT] - 1 + n) % n + 2  # (the speaker's place + 1)
            _to_reactions(b, after, mover, st, turns, nturns, c, hand, at)
        elif _act(b, a, result[b], mover, st, cogs, cards, turns, nturns, c, hand, seat, at):
            paid += 1
            _end_round(b, st, cogs, cards, points, c, hand, at, rewards, ended, deal)
    return paid


@kernel
def _act(b, a, result, mover, st, cogs, cards, turns, nturns, c, hand, seat, at) -> bool:
    """IT's shot or pass in row b. A hit costs the target 1 hp; at 0 it is
    OUT, the shooter keeps the gun and scores if it was its ENEMY, and the
    round may be over (returns True); otherwise, hit or miss, the target is
    IT (a pass leaves the gun with IT), after the reactions."""
    n, r, it = c[COGS], st[b, ROUND], st[b, IT]
    k = nturns[b, r] - 1
    turns[b, r, k, T_ACT] = a
    target, hit = it, False
    if a == 4 * n + 1:
        cogs[b, it, USED] += 1
    else:
        target = (a - 1) % n
        hit = a <= 3 * n or result == rules.HIT  # (a head-shot always hits)
        turns[b, r, k, T_RESULT] = rules.HIT if hit else rules.MISS
        st[b, MISSES] += not hit
    if len(hand):
        _put_act(hand, b, at, r * c[MAX_TURNS] + k, a, turns[b, r, k, T_RESULT], seat[b] == it, n)
    if hit:
        cogs[b, target, HP] -= 1
        if cogs[b, target, HP] == 0:
            st[b, LIVING] &= ~(1 << target)
            cogs[b, it, KILLS] += cards[b, r, it, 1] == target
            standing = 0
            for q in range(n):
                standing += (st[b, LIVING] >> q) & 1
            if standing == c[SURVIVORS]:
                return True
            target = it
    st[b, IT] = target
    _to_reactions(b, 1, mover, st, turns, nturns, c, hand, at)
    return False


@kernel
def _to_reactions(b, after, mover, st, turns, nturns, c, hand, at) -> None:
    """The next cog to react in row b: in seat order from the actor's next
    (the actor itself last), from place `after` (1: the first), living and
    not the next IT, while fewer than max_reactions have spoken; else the
    next IT's turn."""
    n, r = c[COGS], st[b, ROUND]
    k = nturns[b, r] - 1
    actor = turns[b, r, k, T_IT]
    if turns[b, r, k, T_SAID] < c[MAX_X]:
        for place in range(after, n + 1):
            cog = (actor + place) % n
            if (st[b, LIVING] >> cog) & 1 == 1 and cog != st[b, IT]:
                st[b, PHASE] = REACT
                mover[b] = cog
                return
    _start_turn(b, st[b, IT], mover, st, turns, nturns, c, hand, at)


@kernel
def _start_turn(b, it, mover, st, turns, nturns, c, hand, at) -> None:
    r = st[b, ROUND]
    k = nturns[b, r]
    nturns[b, r] = k + 1
    turns[b, r, k, T_IT] = it
    turns[b, r, k, T_LINE], turns[b, r, k, T_ACT], turns[b, r, k, T_RESULT] = -1, -1, -1
    turns[b, r, k, T_SAID] = 0
    st[b, IT] = it
    st[b, PHASE] = LINE if c[TALK] else ACT
    mover[b] = it
    if len(hand):
        hand[b, at[P_IT] + (r * c[MAX_TURNS] + k) * c[COGS] + it] = 1


@kernel
def _end_round(b, st, cogs, cards, points, c, hand, at, rewards, ended, deal) -> None:
    """Each cog's points: 3 standing, 1 for a standing FRIEND, its ENEMY kills;
    then the match ends or the next round waits for its deal."""
    r, living = st[b, ROUND], st[b, LIVING]
    for q in range(c[COGS]):
        got = rules.SURVIVOR_POINTS * ((living >> q) & 1) + cogs[b, q, KILLS]
        got += rules.FRIEND_POINTS * ((living >> cards[b, r, q, 0]) & 1)
        points[b, r, q] = got
        cogs[b, q, TOTAL] += got
        rewards[b, q] = got
        if len(hand):
            hand[b, at[POINTS] + r * c[COGS] + q] = got
    if r + 1 == c[ROUNDS]:
        st[b, PHASE] = OVER
        ended[b] = True
    else:
        st[b, ROUND] = r + 1
        deal[b] = True


@kernel
def _deal_rows(rows, outcomes, fresh, mover, st, cogs, cards, turns, nturns, c, hand, seat, at):
    """Each row's round starts (the match too where `fresh`) with chance's
    `outcomes`: every cog's deal, then the cog that wakes up IT."""
    n = c[COGS]
    for i in range(len(rows)):
        b = rows[i]
        if fresh:
            st[b, ROUND] = 0
            for q in range(n):
                cogs[b, q, TOTAL] = 0
            if len(hand):
                seat[b] = STALE
        r = st[b, ROUND]
        st[b, LIVING], st[b, MISSES], nturns[b, r] = (1 << n) - 1, 0, 0
        for q in range(n):
            cogs[b, q, HP], cogs[b, q, USED], cogs[b, q, KILLS] = c[HP0], 0, 0
            pair = outcomes[i, q] % (n * n)
            cards[b, r, q, 0], cards[b, r, q, 1] = pair // n, pair % n
        if len(hand) and seat[b] >= 0:
            _put_cards(hand, b, at[CARDS] + r * 2 * n, cards, r, seat[b], n, 1)
        _start_turn(b, outcomes[i, n] - c[IT_BASE], mover, st, turns, nturns, c, hand, at)


# ---- tensors: ParleyEncoder.encode for one row -----------------------------------------


@kernel
def _put_cards(out, b, base, cards, r, p, n, v) -> None:
    out[b, base + cards[b, r, p, 0]] = v
    out[b, base + n + cards[b, r, p, 1]] = v


@kernel
def _put_shot(out, b, base, act, n, v) -> None:
    """A cog's own shot: its aim (head, hip), then its target."""
    out[b, base + (1 if act > 3 * n else 0)] = v
    out[b, base + 2 + (act - 1) % n] = v


@kernel
def _put_line(out, b, at, row, line, n) -> None:
    out[b, at[P_LINE] + row * (1 + 2 * n) + line] = 1


@kernel
def _put_reaction(out, b, at, row, x, speaker, line, n, X) -> None:
    base = at[P_REACT] + (row * X + x) * (1 + 3 * n)  # (speaker one-hot, then the line's)
    out[b, base + speaker] = 1
    out[b, base + n + line] = 1


@kernel
def _put_act(out, b, at, row, act, result, shown, n) -> None:
    """IT's act in turn `row`: a pass, or a shot's target with its result, and
    in IT's own tensor (`shown`) its aim and target."""
    if act == 4 * n + 1:
        out[b, at[P_PASS] + row] = 1
        return
    out[b, at[P_TARGET] + row * n + (act - 1) % n] = 1
    out[b, at[P_RESULT] + row * 2 + result] = 1
    if shown:
        _put_shot(out, b, at[SHOTS] + row * (2 + n), act, n, 1)


@kernel
def _put_turn(out, b, at, row, turns, r, k, p, c) -> None:
    """Turn k of round r as seat p sees it, at turn `row` of the pieces."""
    n, X = c[COGS], c[MAX_X]
    out[b, at[P_IT] + row * n + turns[b, r, k, T_IT]] = 1
    if turns[b, r, k, T_LINE] >= 0:
        _put_line(out, b, at, row, turns[b, r, k, T_LINE], n)
    act = turns[b, r, k, T_ACT]
    if act >= 0:
        _put_act(out, b, at, row, act, turns[b, r, k, T_RESULT], turns[b, r, k, T_IT] == p, n)
    for x in range(turns[b, r, k, T_SAID]):
        line = turns[b, r, k, T_SPEAKERS + X + x]
        _put_reaction(out, b, at, row, x, turns[b, r, k, T_SPEAKERS + x], line, n, X)


@kernel
def _put_status(out, b, base, mover, st, cogs, c) -> None:
    """The status pieces from `base`: round, mover, phase, it, every cog's hp
    and passes left, misses (one-hot each)."""
    n, phase = c[COGS], st[b, PHASE]
    out[b, base + st[b, ROUND]] = 1
    at = base + c[ROUNDS]
    if phase != OVER:
        out[b, at + mover[b]] = 1
    at += n
    out[b, at + phase] = 1
    at += PHASES
    out[b, at + st[b, IT]] = 1
    at += n
    for q in range(n):
        out[b, at + q * (c[HP0] + 1) + cogs[b, q, HP]] = 1
    at += n * (c[HP0] + 1)
    for q in range(n):
        out[b, at + q * (c[PASSES] + 1) + c[PASSES] - cogs[b, q, USED]] = 1
    out[b, at + n * (c[PASSES] + 1) + st[b, MISSES]] = 1


@kernel
def _encode_row(out, b, p, at, recall, mover, st, cogs, cards, turns, nturns, c, points) -> None:
    """Cog p's tensor in row b (out[b] all zeros): with perfect recall every
    round's cards, turns and points, else this round's cards, its latest turn
    and the totals; then the status."""
    n, now = c[COGS], st[b, ROUND]
    out[b, at[PLAYER] + p] = 1
    for r in range(0 if recall else now, now + 1):
        _put_cards(out, b, at[CARDS] + (r * 2 * n if recall else 0), cards, r, p, n, 1)
        for k in range(0 if recall else nturns[b, r] - 1, nturns[b, r]):
            _put_turn(out, b, at, r * c[MAX_TURNS] + k if recall else 0, turns, r, k, p, c)
        if recall and (r < now or st[b, PHASE] == OVER):
            for q in range(n):
                out[b, at[POINTS] + r * n + q] = points[b, r, q]
    if not recall:
        for q in range(n):
            out[b, at[POINTS] + q] = cogs[b, q, TOTAL]
    _put_status(out, b, at[STATUS], mover, st, cogs, c)


@kernel
def _encode_rows(out, seats, at, recall, mover, st, cogs, cards, turns, nturns, c, points):
    """Each row's tensor of cog `seats[b]` (zeros where -1), whole."""
    for b in range(len(seats)):
        out[b, :] = 0
        if seats[b] >= 0:
            _encode_row(
                out, b, seats[b], at, recall, mover, st, cogs, cards, turns, nturns, c, points
            )


@kernel
def _put_private(out, b, p, v, at, st, cards, turns, nturns, c) -> None:
    """Cog p's private pieces (player, its cards, its own shots) set to v."""
    n = c[COGS]
    out[b, at[PLAYER] + p] = v
    for r in range(st[b, ROUND] + 1):
        _put_cards(out, b, at[CARDS] + r * 2 * n, cards, r, p, n, v)
        for k in range(nturns[b, r]):
            act = turns[b, r, k, T_ACT]
            if turns[b, r, k, T_IT] == p and act >= 0 and act != 4 * n + 1:
                _put_shot(out, b, at[SHOTS] + (r * c[MAX_TURNS] + k) * (2 + n), act, n, v)


@kernel
def _hand_rows(hand, seat, terminated, at, mover, st, cogs, cards, turns, nturns, c, points):
    """The kept information states brought to the movers now: the steps wrote
    their entries; where the mover changed, the seats' private pieces are
    swapped; the status is written anew; a finished row is zeros, and one
    restarted (or never read) is encoded whole."""
    status = at[STATUS]
    for b in range(len(seat)):
        p = mover[b]
        if terminated[b] or seat[b] < 0:
            if seat[b] != BLANK:
                hand[b, :] = 0
            seat[b] = BLANK
            if not terminated[b]:
                _encode_row(hand, b, p, at, True, mover, st, cogs, cards, turns, nturns, c, points)
                seat[b] = p
            continue
        if seat[b] != p:
            _put_private(hand, b, seat[b], 0, at, st, cards, turns, nturns, c)
            _put_private(hand, b, p, 1, at, st, cards, turns, nturns, c)
            seat[b] = p
        hand[b, status:] = 0
        _put_status(hand, b, status, mover, st, cogs, c)
