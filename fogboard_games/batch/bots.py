"""Batched bots for `fogboard_games.batch`: one action per row of a State
(docs/batch.md#batched-bots).

`random` draws uniformly from each row's legal mask (`random_actions`).
`heuristic` is the scalar `heuristic` bot made batched where it vectorizes
exactly: Liar's Dice and Mind Bluff (with its series). Each is a table of
the scalar bot's decisions, keyed by all that its decision reads of the
seat's view (Liar's Dice: the hand multiset, dice in play, standing bid,
whether the mover holds it, the phase; Mind Bluff: a summary of the eats it
cannot rule out turn by turn, which its weights depend on), filled when a
row first meets a key and read for every row at once. The boards' probe
and Parley's heuristic decide from larger views (a path search over the
believed board; every cog's hp, cards and lines) and are refused by name
(`NOT_VECTORIZED`).

Fair seats (docs/bots.md#fair-seats): a key is decoded only from the
mover's tensor as the engine hands it out (Liar's Dice its observation
tensor, Mind Bluff its information-state tensor: `State.observation` in
that form, else `env.observation_tensor(seat)` /
`env.information_state_tensor(seat)`), the mover's legal mask and the
game's Setup, never from the engine's arrays of the truth. Those tensors
are exactly what pyspiel shows the seat, so rows the seat cannot tell apart
get one key, hence one action (or one tied set), as the scalar bot, which
reads the same pieces, gives.

Where the scalar bot breaks a tie at random (`SeatBot.rng`, keyed by the
information-state string: Liar's Dice between equally likely prophecies,
Mind Bluff between equally good eats) the table keeps the whole tied set
and the batched bot draws uniformly among it from its own seeded numpy
Generator: the same set, not the same draw. Mind Bluff's seeded bluff on a
free claim is drawn the same way, at the scalar bot's BLUFF_RATE.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from fogboard_games.batch.env import Env, State
from fogboard_games.core.observer import INFO_STATE
from fogboard_games.liars_dice import rules as ld_rules
from fogboard_games.liars_dice.bots import (
    EPS,
    PROPHECY_AT,
    LiarsDiceHeuristic,
    SeatView,
    at_least,
    exactly,
    face_chance,
)
from fogboard_games.mind_bluff import bots as mb_bots
from fogboard_games.mind_bluff import rules as mb_rules

KINDS = ("random", "heuristic")

# The parts of a Mind Bluff key (MindBluffBatchBot._summary): the game under
# way, the phase, the sum of the eats known, the turns unknown, the turns
# shown BLUFF per claim 1..3, the claim under way and whether it was forced
# honest (at a response), the seat's own eat (at its claim), and a claim
# forced honest.
P_GAME, P_PHASE, P_FIXED, P_FULL = 0, 1, 2, 3  # (P_FULL + c: shown BLUFF on c)
P_CLAIM, P_FORCED, P_OWN, P_ONLY = 7, 8, 9, 10
N_PARTS = 11

# The heuristics left scalar, and why (the message of make_bot's refusal).
_PROBE = "the probe bot searches paths over the seat's believed board"
NOT_VECTORIZED = {
    "fogboard_phantom_ttt": _PROBE,
    "fogboard_dark_hex": _PROBE,
    "fogboard_recon_hex": _PROBE,
    "fogboard_parley": "its view is every cog's hp, its cards and the lines said this round, "
    "with seeded passes and tie-breaks",
}


# Above this many actions the draw finds a row's action block by block (see
# random_actions); at or below it the running count over single actions costs less.
RUNNING_COUNT_UP_TO = 48
BYTE_WEIGHTS = (1 << np.arange(8)).astype(np.uint8)  # bit i of a byte, to pack 8 bools


def _nth_bit_table() -> np.ndarray:
    """table[byte << 3 | r]: the place (0..7, low bit first) of the byte's
    (r + 1)-th set bit; 7 where it has no such bit."""
    table = np.full((256, 8), 7, np.int64)
    for byte in range(256):
        ones = [i for i in range(8) if byte >> i & 1]
        table[byte, : len(ones)] = ones
    table = table.reshape(-1)
    table.flags.writeable = False
    return table


NTH_BIT = _nth_bit_table()


@functools.cache
def _row_index(batch: int) -> np.ndarray:
    rows = np.arange(batch)
    rows.flags.writeable = False  # (shared by every call)
    return rows


def random_actions(rng, mask):
    """One uniformly random legal action per row of a (B, A) mask, vectorized.

    Row b with c legal actions draws k = floor(u * c), u uniform in [0, 1)
    (one float64 per row: uniform over the c actions up to float64 rounding,
    a bias below 1e-15, and k < c always), and plays its (k + 1)-th legal
    action. Rows with no legal action get A - 1. The work runs along the
    mask's transposed (A, B) layout, the one `fogboard_games.batch` hands
    out, across rows in memory order (docs/batch.md#speed):

    - up to RUNNING_COUNT_UP_TO actions, the running count of legal actions
      (A - 1 additions over rows), and the number of actions whose count is
      still at most k;
    - above, the actions in blocks of 8, each a byte of bits per row (one
      einsum over the mask), their counts (popcount) and running counts
      (one addition a block), the block holding the (k + 1)-th legal action
      (the blocks whose running count is at most k), and in its byte the
      place of the right set bit from a table: a fixed number of calls
      over small arrays rather than A calls over the mask.

    Both pick the same action from the same u, so a seeded Generator gives
    the same draws whichever runs.
    """
    by_action = mask.T
    A, B = by_action.shape
    if A <= RUNNING_COUNT_UP_TO:
        return _by_running_count(rng, by_action.view(np.uint8))
    if not by_action.flags.c_contiguous:  # (a row-major mask: one copy)
        by_action = np.ascontiguousarray(by_action)
    count = np.uint8 if A < 256 else np.uint16
    full, rest = divmod(A, 8)
    blocks = full + (rest > 0)
    bits = by_action.view(np.uint8)
    packed = np.empty((blocks, B), np.uint8)  # bit i of packed[j, b]: action 8j + i in row b
    if full:
        block = bits[: 8 * full].reshape(full, 8, B)
        np.einsum("jib,i->jb", block, BYTE_WEIGHTS, out=packed[:full])
    if rest:
        np.einsum("ib,i->b", bits[8 * full :], BYTE_WEIGHTS[:rest], out=packed[full])
    before = np.empty((blocks + 1, B), count)  # before[j]: legal actions in blocks < j
    before[0] = 0
    np.bitwise_count(packed, out=before[1:])
    for j in range(2, blocks + 1):
        np.add(before[j], before[j - 1], out=before[j])
    u = rng.random(B)
    u *= before[blocks]
    k = u.astype(count)
    rows = _row_index(B)
    # The block: how many blocks end at or before the (k + 1)-th legal action.
    passed = np.less_equal(before[1:blocks], k)
    j = np.add.reduce(passed.view(np.uint8), axis=0, dtype=count).astype(np.int64)
    at = j * B
    at += rows
    k -= before.reshape(-1).take(at)  # the legal actions to pass inside block j
    key = packed.reshape(-1).take(at).astype(np.int64)
    key <<= 3
    key |= k
    picked = NTH_BIT.take(key)
    j <<= 3
    picked += j
    if rest:  # (a row with no legal action: past the last action, so A - 1)
        np.minimum(picked, A - 1, out=picked)
    return picked


def _by_running_count(rng, by_action):
    """random_actions on a narrow (A, B) uint8 mask: the (k + 1)-th legal
    action is the number of actions whose running count is still at most k."""
    A, B = by_action.shape
    counts = np.empty((A - 1, B), np.uint8 if A < 256 else np.uint16)
    if A > 1:
        counts[0] = by_action[0]
        for i in range(1, A - 1):
            np.add(counts[i - 1], by_action[i], out=counts[i])
        total = counts[-1] + by_action[-1]
    else:
        total = by_action[0]
    k = (rng.random(B) * total).astype(counts.dtype)
    # The last action needs no count: it is chosen when all the others are passed.
    # (a new array: written over `counts` itself, the compare ran 1.5-5x slower)
    passed = np.less_equal(counts, k)
    return np.add.reduce(passed.view(np.uint8), axis=0, dtype=counts.dtype).astype(np.int64)


class BatchBot:
    """Plays every seat of every running row of one batched environment."""

    kind = ""

    def __init__(self, env: Env, seed=None):
        self.env = env
        self.rng = np.random.default_rng(seed)

    def actions(self, state) -> np.ndarray:
        """(B,) int64: a legal action of the mover in every running row, 0 in finished rows."""
        self._check(state)
        running = ~state.terminated
        if not running.any():
            return np.zeros(self.env.batch_size, np.int64)
        acts = self._choose(state, running)
        acts[~running] = 0
        return acts

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        """(B,) int64: the actions of the running rows (the others' are ignored)."""
        raise NotImplementedError

    def _check(self, state) -> None:
        """Refuse anything but the environment's latest State: a heuristic
        reads seats' tensors from the environment as it stands now."""
        if not isinstance(state, State) or state._env is not self.env:
            raise ValueError(
                f"actions takes a State of this bot's environment (from its reset or "
                f"step), got {type(state).__name__}"
            )
        if state._stamp != self.env._stamp:
            raise ValueError(
                "actions takes the environment's latest State: this one is from before "
                "a later step or reset"
            )


class RandomBatchBot(BatchBot):
    """Uniform over each row's legal actions."""

    kind = "random"

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        return random_actions(self.rng, state.legal_action_mask)


class _Table:
    """A bot's decisions by key: the sorted keys met so far, each one's
    action (or -1 - k for the k-th tied set) and flag (a bot's own use),
    read for a whole batch with `searchsorted`."""

    def __init__(self):
        self.keys = np.zeros(0, np.int64)
        self.value = np.zeros(0, np.int64)
        self.flag = np.zeros(0, bool)
        self.sets = np.zeros((0, 1), np.int64)  # tied sets, padded
        self.sizes = np.zeros(0, np.int64)

    def find(self, key: np.ndarray) -> np.ndarray:
        """Each key's index, -1 where it is not there."""
        if not len(self.keys):
            return np.full(len(key), -1, np.int64)
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        return np.where(self.keys[at] == key, at, -1)

    def add(self, new, value, sets, flag=None) -> None:
        """New keys (sorted, none there yet) with their values, the tied sets
        they name (numbered on from those there) and flags."""
        if sets:
            width = max(self.sets.shape[1], *map(len, sets))
            grown = np.zeros((len(self.sizes) + len(sets), width), np.int64)
            grown[: len(self.sizes), : self.sets.shape[1]] = self.sets
            for i, tie in enumerate(sets, len(self.sizes)):
                grown[i, : len(tie)] = tie
            self.sets = grown
            self.sizes = np.concatenate([self.sizes, list(map(len, sets))])
        at = np.searchsorted(self.keys, new)
        self.keys = np.insert(self.keys, at, new)
        self.value = np.insert(self.value, at, value)
        self.flag = np.insert(self.flag, at, False if flag is None else flag)

    def read(self, at: np.ndarray, rng) -> np.ndarray:
        """The actions of the keys at `at` (-1: any, for rows that play none),
        a tied set's drawn uniformly from `rng`."""
        acts = self.value[np.maximum(at, 0)]
        tied = (acts < 0).nonzero()[0]
        if len(tied):
            ties = -1 - acts[tied]
            pick = (rng.random(len(tied)) * self.sizes[ties]).astype(np.int64)
            acts[tied] = self.sets[ties, pick]
        return acts


class _Ties:
    """Stands in for the scalar bot's RNG while a table entry is filled:
    records the set it was asked to choose from."""

    def __init__(self):
        self.tied = None

    def choice(self, options):
        self.tied = tuple(options)
        return self.tied[0]


class LiarsDiceBatchBot(BatchBot):
    """The Liar's Dice heuristic: a table of its decisions, keyed by the view.

    A row's key is one int64 (`_decode`): hand code (dice per face, radix
    D + 1), dice in play, standing bid + 1, then three bits: choosing keep
    or reroll, a reroll legal, the mover holds the standing bid. The table
    is the sorted array of the keys met, read with `searchsorted`; the keys
    a step meets first are filled then, all at once (`_bids`, and the
    scalar `choose_reroll` for the few keep-or-reroll keys).
    """

    kind = "heuristic"

    def __init__(self, env: Env, seed=None):
        super().__init__(env, seed)
        game = env.game
        s = self.setup = game.setup
        self.scalar = LiarsDiceHeuristic(game, 0)  # its decision code, not its state
        S, D, T, NB = s.sides, s.numdice, s.total, s.num_bids
        obs = game.obs_layout
        self.at_hand, self.at_bid = obs.offset["hand"], obs.offset["standing_bid"]
        self.at_holder = obs.offset["holder"]
        self.at_counts = None if s.chips else obs.offset["dice_counts"]
        self.radix = (D + 1, T + 1, NB + 1)
        self.hand_radix = [(D + 1) ** f for f in range(S)]
        self.table = _Table()
        # The scalar bot's odds, from its own functions (stand_chance and
        # exact_chance read them): [unseen dice, face - 1, Q - own count + D].
        faces = range(1, S + 1)
        needs = range(-D, T + 1)
        self.stand = np.array(
            [
                [[at_least(u, face_chance(s, f), k) for k in needs] for f in faces]
                for u in range(T + 1)
            ]
        )
        self.exact = np.array(
            [
                [[exactly(u, face_chance(s, f), k) for k in needs] for f in faces]
                for u in range(T + 1)
            ]
        )
        self.quantity = np.array(s.bid_quantity, np.int64)
        self.face = np.array(s.bid_face, np.int64) - 1
        # own[f] = counts @ wilds[:, f]: the dice counting for face f + 1.
        self.wilds = np.eye(S, dtype=np.int64)
        if s.wild_face:
            self.wilds[s.wild_face - 1] = 1

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        env = self.env
        mover = state.current_player
        if env.form == "observation":
            key, holder = self._decode(state.observation)
        else:
            key = np.zeros(env.batch_size, np.int64)
            holder = np.zeros(env.batch_size, np.int64)
            for p in range(env.num_players):
                rows = (mover == p).nonzero()[0]
                if len(rows):
                    key[rows], holder[rows] = self._decode(env.observation_tensor(p)[rows])
        mask = state.legal_action_mask
        s = self.setup
        if s.rerolls:
            key += mask[:, s.keep] * 4 + mask[:, s.reroll] * 2
        key += holder == mover
        at = self.table.find(key)
        missing = running & (at < 0)
        if missing.any():
            self._fill(key, missing, mask)
            at = self.table.find(key)
        return self.table.read(at, self.rng)

    def _decode(self, obs):
        """Rows of observation tensors: (R,) int64 keys without their last three
        bits, shifted into place, and the holders of the standing bid (-1 none).

        The hand counts the dice per face; the standing bid, the holder and
        each seat's dice count are one-hot, read by argmax and the value there
        (argmax reads 0 in a row of zeros)."""
        s = self.setup
        D1, T1, NB1 = self.radix
        R = np.arange(len(obs))
        code = np.zeros(len(obs), np.int64)
        for f, r in enumerate(self.hand_radix):
            code += obs[:, self.at_hand + f].astype(np.int64) * r
        if self.at_counts is None:
            in_play = s.total
        else:
            counts = obs[:, self.at_counts : self.at_counts + s.players * D1]
            in_play = counts.reshape(len(obs), s.players, D1).argmax(axis=2).sum(axis=1)
        bids = obs[:, self.at_bid : self.at_bid + s.num_bids]
        bid = bids.argmax(axis=1)
        bid1 = np.where(bids[R, bid] > 0, bid + 1, 0)
        holders = obs[:, self.at_holder : self.at_holder + s.players]
        holder = holders.argmax(axis=1)
        holder = np.where(holders[R, holder] > 0, holder, -1)
        return ((code * T1 + in_play) * NB1 + bid1) * 8, holder

    def _fill(self, key, missing, mask) -> None:
        """Table the decisions of every key of the `missing` rows."""
        s = self.setup
        D1, T1, NB1 = self.radix
        new, first = np.unique(key[missing], return_index=True)
        rows = missing.nonzero()[0][first]
        # The legal set is the mover's mask: the rules make it a function of
        # the key (dice in play, standing bid, holds; or the choice and a
        # reroll left), so any row with this key has the same one.
        legal = np.ascontiguousarray(mask[rows])
        rest = new >> 3
        bid = rest % NB1 - 1
        in_play = rest // NB1 % T1
        counts = rest // NB1 // T1 // D1 ** np.arange(s.sides)[:, None] % D1  # (S, M)
        counts = counts.T
        choosing = (new >> 2 & 1).astype(bool)
        value = np.zeros(len(new), np.int64)
        sets = []
        if (~choosing).any():
            b = ~choosing
            value[b], sets = self._bids(
                counts[b], in_play[b], bid[b], legal[b], len(self.table.sizes)
            )
        for i in np.flatnonzero(choosing).tolist():  # a hand's keep or reroll: few keys
            hand = tuple(f for f, c in enumerate(counts[i].tolist(), 1) for _ in range(c))
            view = SeatView(s, 0, ld_rules.CHOOSING, hand, int(in_play[i]), -1)
            value[i] = self.scalar.choose_reroll(view, np.flatnonzero(legal[i]).tolist())
        self.table.add(new, value, sets)

    def _bids(self, counts, in_play, bid, legal, ties):
        """`LiarsDiceHeuristic.choose_bidding`, step for step, for M views at
        once: (M,) actions (-1 - k for the k-th tied set, counted from `ties`)
        and the tied sets. The odds are the scalar bot's own numbers, so every
        comparison comes out as its does."""
        s = self.setup
        M = len(bid)
        NB, D = s.num_bids, s.numdice
        unseen = in_play - counts.sum(axis=1)
        own = counts @ self.wilds  # (M, S): the seat's dice counting for each face
        need = self.quantity - own[:, self.face] + D  # (M, NB)
        u = unseen[:, None]
        odds = self.stand[u, self.face, need]
        raises = legal[:, :NB]
        has_raise = raises.any(axis=1)
        best = np.where(raises, odds, -np.inf).max(axis=1)
        best = np.where(has_raise, best, -1.0)
        # The highest of the most likely bids.
        top_bids = raises & (odds >= (best - EPS)[:, None])
        best_raise = NB - 1 - top_bids[:, ::-1].argmax(axis=1)
        liar_ok = legal[:, s.liar]
        action = np.where(has_raise, best_raise, legal.argmax(axis=1))
        m = np.arange(M)
        standing = np.maximum(bid, 0)
        stand = odds[m, standing]  # (odds of every bid, the standing one included)
        liar_value = 1 - 2 * stand
        call = liar_ok & (~has_raise | (stand < 0.5) | (1 - stand > best))
        passing = ~call & liar_ok & (best < 0.5)
        if s.allow_pass:
            passing &= legal[:, s.pass_action]
            action = np.where(passing, s.pass_action, action)
        action = np.where(call, s.liar, action)
        sets = []
        if s.prophecy:
            props = legal[:, s.prophecy_base : s.prophecy_base + NB]
            exact = self.exact[u, self.face, need]
            top = np.where(props, exact, -np.inf).max(axis=1)
            prophesy = liar_ok & props.any(axis=1) & (top >= PROPHECY_AT)
            prophesy &= s.payout * top - (1 - top) > liar_value
            for i in np.flatnonzero(prophesy).tolist():
                tie = np.flatnonzero(props[i] & (exact[i] >= top[i] - EPS)) + s.prophecy_base
                if len(tie) == 1:
                    action[i] = tie[0]
                else:
                    action[i] = -1 - ties - len(sets)
                    sets.append(tie.tolist())
        return action, sets


class MindBluffBatchBot(BatchBot):
    """The Mind Bluff (and series) heuristic: a table of its decisions,
    keyed by a summary of the seat's view that its decisions depend on.

    The scalar bot weighs the worlds of the eats it cannot rule out, turn by
    turn (`SeatView.cands`); the weights depend only on their total, so on
    the multiset of the turns' candidate sets: the sum of the eats it knows
    (its own, forced-honest or TRUE claims), the number of turns it knows
    nothing of, and per claim c the number shown BLUFF (anything but c). A
    response also reads the turn under way apart (its claim, and whether it
    was forced), and a claim only the seat's own eat. The key is that
    summary, with the series' game under way, decoded from the mover's
    information-state tensor; a new key is filled by the scalar bot's
    `choose_eat` / `choose_response` on a view with the same candidate
    multiset. A free claim bluffs as the scalar bot does: with chance
    BLUFF_RATE (max_eat > 1), uniformly among the other eats, drawn from
    this bot's Generator.
    """

    kind = "heuristic"
    M = 3  # the most eats a turn may make (max_eat is 1..3)

    def __init__(self, env: Env, seed=None):
        super().__init__(env, seed)
        game = env.game
        setup = game.setup
        series = hasattr(setup, "games")
        self.games = setup.games if series else (setup,)
        outer = game.encoder.layout(INFO_STATE)
        self.at_game = outer.offset["game"] if series else None
        # Per game: its Setup, its turns, and the columns [lo, hi) of the
        # tensor that hold the pieces read, with their offsets from lo.
        self.blocks = []
        for g, s in enumerate(self.games):
            inner = setup.encoder.inner[g].layout(INFO_STATE) if series else outer
            base = outer.offset[f"game{g + 1}"] if series else 0
            turns = inner.shape["claims"][0]
            at = {name: base + inner.offset[name] for name in mb_bots.READ}
            lo = min(at.values())
            hi = max(at[n] + math.prod(inner.shape[n]) for n in mb_bots.READ)
            self.blocks.append((s, turns, {n: a - lo for n, a in at.items()}, lo, hi))
        self.scalar = mb_bots.MindBluffHeuristic(game, 0)  # its decision code, not its state
        T = max(block[1] for block in self.blocks)
        radix = [len(self.games), 4, T * self.M + 1, T + 1, T + 1, T + 1, T + 1]
        radix += [self.M + 1, 2, self.M + 1, 2]  # (in the order of P_*)
        self.place = np.cumprod([1] + radix[:-1]).astype(np.int64)  # (keys < 3e14 at start 196)
        self.table = _Table()

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        env = self.env
        mover = state.current_player
        parts = np.zeros((env.batch_size, N_PARTS), np.int64)
        if env.form == "information_state":
            parts[:] = self._decode(state.observation)
        else:
            for p in range(env.num_players):
                rows = (mover == p).nonzero()[0]
                if len(rows):
                    parts[rows] = self._decode(env.information_state_tensor(p), rows)
        mask = state.legal_action_mask
        parts[:, P_ONLY] = mask.sum(axis=1) == 1  # a forced-honest claim
        key = parts @ self.place
        table = self.table
        at = table.find(key)
        missing = running & (at < 0)
        if missing.any():
            new, first = np.unique(key[missing], return_index=True)
            rows = missing.nonzero()[0][first]
            table.add(new, *self._decisions(parts[rows], mask[rows]))
            at = table.find(key)
        acts = table.read(at, self.rng)
        bluffs = (table.flag[np.maximum(at, 0)] & running).nonzero()[0]
        if len(bluffs):
            self._bluff(acts, bluffs, parts)
        return acts

    def _bluff(self, acts, rows, parts) -> None:
        """A free claim: with chance BLUFF_RATE, another eat than its own."""
        rows = rows[self.rng.random(len(rows)) < mb_bots.BLUFF_RATE]
        if not len(rows):
            return
        m = np.array([s.max_eat for s in self.games])[parts[rows, P_GAME]]
        actual = parts[rows, P_OWN]
        j = (self.rng.random(len(rows)) * (m - 1)).astype(np.int64) + 1  # 1..m-1
        other = j + (j >= actual)  # the j-th of the eats but `actual`
        acts[rows] = m + other

    def _decode(self, x: np.ndarray, rows=None) -> np.ndarray:
        """(R, N_PARTS) int64: the key's parts of the rows `rows` (every row
        when None) of information-state tensors (the mover's own)."""
        if rows is None:
            rows = np.arange(len(x))
        parts = np.zeros((len(rows), N_PARTS), np.int64)
        if self.at_game is None:
            game = np.zeros(len(rows), np.int64)
        else:
            game = x[rows, self.at_game : self.at_game + len(self.games)].argmax(axis=1)
        for g, (s, T, at, lo, hi) in enumerate(self.blocks):
            mine = (game == g).nonzero()[0]
            if len(mine):
                # (a view when every row is read, else only the columns read are copied)
                whole = len(mine) == len(x)
                block = x[:, lo:hi] if whole else x[rows[mine], lo:hi]
                parts[mine] = self._summary(block, s, T, at)
                parts[mine, P_GAME] = g
        return parts

    def _summary(self, x, s, T, at) -> np.ndarray:
        """`mind_bluff.bots.seat_view`'s candidate sets, summed up, for rows of
        one game's pieces (docs/mind_bluff.md#tensor-pieces)."""
        R, m = len(x), s.max_eat
        out = np.zeros((R, N_PARTS), np.int64)

        def piece(name, *shape):
            return x[:, at[name] : at[name] + int(np.prod(shape))].reshape(R, *shape) > 0

        phase = piece("phase", 4).argmax(axis=1)  # eat, claim, respond, over
        claims = piece("claims", T, m)
        said = claims.any(axis=2)
        claim = claims.argmax(axis=2) + 1
        eats = piece("eats", T, m)
        own = eats.any(axis=2)
        eat = eats.argmax(axis=2) + 1
        verdicts = piece("verdicts", T, 2)
        forced = piece("forced", T)
        fixed = forced | verdicts[:, :, 0]
        n_claims = said.sum(axis=1)
        turns = n_claims + (phase == mb_rules.CLAIM - mb_rules.EAT)
        t = np.arange(T)
        live = t < turns[:, None]
        under_way = (t == n_claims[:, None]) & ~own  # (another seat's turn before its claim)
        fixed &= ~own & ~under_way
        bluffed = verdicts[:, :, 1] & ~own & ~under_way & ~fixed
        full = live & ~own & ~fixed & ~bluffed
        known = np.where(own, eat, np.where(fixed, claim, 0))
        responding = phase == mb_rules.RESPOND - mb_rules.EAT
        # A response reads the turn under way (the last) apart from the others.
        last = np.maximum(turns - 1, 0)
        r = np.arange(R)
        before = live & ~(responding[:, None] & (t == last[:, None]))
        out[:, P_FIXED] = (known * before).sum(axis=1)
        out[:, P_FULL] = (full & before).sum(axis=1)
        for c in range(1, m + 1):
            out[:, P_FULL + c] = (bluffed & before & (claim == c)).sum(axis=1)
        out[:, P_CLAIM] = np.where(responding, claim[r, last], 0)
        out[:, P_FORCED] = responding & forced[r, last]
        claiming = phase == mb_rules.CLAIM - mb_rules.EAT
        out[:, P_OWN] = np.where(claiming, eat[r, last], 0)
        out[:, P_PHASE] = phase
        # A claim reads only its own eat; an eat only the candidate sets.
        out[claiming, P_FIXED:P_CLAIM] = 0
        return out

    def _decisions(self, parts, legal):
        """The scalar bot's decision for each new key (its parts, the mask of a
        row that has it): (actions, tied sets, bluffing flags)."""
        value = np.zeros(len(parts), np.int64)
        flag = np.zeros(len(parts), bool)
        sets = []
        for i, p in enumerate(parts.tolist()):
            s = self.games[p[P_GAME]]
            m = s.max_eat
            phase = mb_rules.EAT + p[P_PHASE]
            if phase == mb_rules.CLAIM:
                if p[P_ONLY]:  # forced honest: its one legal action
                    value[i] = int(np.flatnonzero(legal[i])[0])
                else:
                    value[i], flag[i] = m + p[P_OWN], m > 1
                continue
            cands = [(p[P_FIXED],)] if p[P_FIXED] else []
            cands += [s.eats] * p[P_FULL]
            for c in range(1, m + 1):
                cands += [tuple(k for k in s.eats if k != c)] * p[P_FULL + c]
            if phase == mb_rules.RESPOND:
                # The turn under way has no verdict yet: its claim if forced honest.
                cands.append((p[P_CLAIM],) if p[P_FORCED] else s.eats)
                view = mb_bots.SeatView(s, 0, phase, tuple(cands), p[P_CLAIM], bool(p[P_FORCED]))
                value[i] = self.scalar.choose_response(view)
                continue
            view = mb_bots.SeatView(s, 0, phase, tuple(cands), None, None)
            ties = _Ties()
            value[i] = self.scalar.choose_eat(view, ties)
            if ties.tied is not None and len(ties.tied) > 1:
                value[i] = -1 - len(self.table.sizes) - len(sets)
                sets.append([k - 1 for k in ties.tied])
        return value, sets, flag


HEURISTICS = {
    "fogboard_liars_dice": LiarsDiceBatchBot,
    "fogboard_mind_bluff": MindBluffBatchBot,
    "fogboard_mind_bluff_series": MindBluffBatchBot,
}


def _check_env(env) -> str:
    if not isinstance(env, Env):
        raise ValueError(
            f"a batched bot plays a fogboard_games.batch environment (batch.make), "
            f"got {type(env).__name__}"
        )
    return env.game.get_type().short_name


def kinds_for(env) -> tuple[str, ...]:
    """The kinds that vectorize for `env.game`."""
    short = _check_env(env)
    return KINDS if short in HEURISTICS else ("random",)


def make_bot(kind, env, seed=None) -> BatchBot:
    """A batched bot of `kind` for `env` (ValueError naming the kinds available)."""
    short = _check_env(env)
    kinds = kinds_for(env)
    if kind == "heuristic" and short not in HEURISTICS:
        why = NOT_VECTORIZED.get(short, "no batched form of it is built")
        raise ValueError(
            f"the heuristic bot of {short} does not vectorize: {why}; batched kinds for "
            f"{short}: {', '.join(kinds)}; play the scalar heuristic on env.to_pyspiel(row) "
            f"with fogboard_games.bots.make_bot('heuristic', game, player)"
        )
    if not isinstance(kind, str) or kind not in kinds:
        raise ValueError(
            f"unknown batched bot kind {kind!r}; batched kinds for {short}: {', '.join(kinds)}"
        )
    if seed is not None and not (
        isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_))
    ):
        raise ValueError(f"seed must be an int or None, got {seed!r}")
    if kind == "random":
        return RandomBatchBot(env, seed)
    return HEURISTICS[short](env, seed)


__all__ = ["KINDS", "BatchBot", "kinds_for", "make_bot", "random_actions"]
