"""Batched bots for `fogboard_games.batch`: one action per row of a State
(docs/batch.md#batched-bots).

`random` draws uniformly from each row's legal mask (`random_actions`).
`heuristic` is the scalar `heuristic` bot made batched where it vectorizes
exactly, Liar's Dice: the scalar bot's own decision code
(`LiarsDiceHeuristic.choose_bidding`, `choose_reroll`) fills a table once
per key met, keyed by all that decision reads (the mover's hand multiset,
the dice in play, the standing bid, whether the mover holds it, the
keep-or-reroll choice and whether a reroll is left), and every step reads
the table for every row at once. The other rulesets' heuristics decide
from a view that grows with the game, so they are refused by name
(`NOT_VECTORIZED`).

Fair seats (docs/bots.md#fair-seats): the key is decoded from the mover's
observation tensor as the engine hands it out (`State.observation` in the
observation form, else `env.observation_tensor(seat)`), the mover's legal
mask and the game's Setup, never from the engine's arrays of the truth; the
observation tensor is the seat's view as pyspiel writes it, so two rows
the seat cannot tell apart get one key and one action (or one tied set).

Where the scalar bot breaks a tie at random (Liar's Dice: between equally
likely prophecies, drawn from `SeatBot.rng` keyed by the information-state
string) the table keeps the whole tied set, and the batched bot draws
uniformly among it from its own seeded numpy Generator: the same set, not
the same draw.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.liars_dice import rules as dice_rules
from fogboard_games.liars_dice.bots import (
    EPS,
    PROPHECY_AT,
    LiarsDiceHeuristic,
    SeatView,
    at_least,
    exactly,
    face_chance,
)

KINDS = ("random", "heuristic")

# The heuristics left scalar, and why (the message of make_bot's refusal).
NOT_VECTORIZED = {
    "fogboard_phantom_ttt": "the probe bot searches paths over the seat's believed board",
    "fogboard_dark_hex": "the probe bot searches paths over the seat's believed board",
    "fogboard_recon_hex": "the probe bot searches paths over the seat's believed board",
    "fogboard_mind_bluff": "its view is the seat's log of every turn (the eats it cannot rule "
    "out, claims and verdicts), which grows with the game",
    "fogboard_mind_bluff_series": "its view is the seat's log of every turn (the eats it cannot "
    "rule out, claims and verdicts), which grows with the game",
    "fogboard_parley": "its view is every cog's hp, its cards and the lines said this round, "
    "with seeded passes and tie-breaks",
}


def random_actions(rng, mask):
    """One uniformly random legal action per row of a (B, A) mask, vectorized.

    Row b with c legal actions draws k = floor(u * c), u uniform in [0, 1)
    (one float64 per row: uniform over the c actions up to float64 rounding,
    a bias below 1e-15, and k < c always), and plays its (k + 1)-th legal
    action: the number of actions whose running count of legal actions is
    still at most k. The running counts are A - 1 vectorized additions over
    rows along the mask's transposed (A, B) layout, the one
    `fogboard_games.batch` hands out; drawing one number per row instead of
    one per action and row keeps the draw a small part of a step. Rows with
    no legal action get A - 1.
    """
    by_action = mask.T.view(np.uint8)
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
        raise NotImplementedError


class RandomBatchBot(BatchBot):
    """Uniform over each row's legal actions."""

    kind = "random"

    def actions(self, state) -> np.ndarray:
        acts = random_actions(self.rng, state.legal_action_mask)
        if state.terminated.any():
            acts[state.terminated] = 0
        return acts


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
        self.keys = np.zeros(0, np.int64)  # sorted keys met so far
        self.value = np.zeros(0, np.int64)  # per key: its action, or -1 - its tied set
        self.tie_sets = np.zeros((0, 1), np.int64)  # tied sets, padded
        self.tie_sizes = np.zeros(0, np.int64)
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

    def actions(self, state) -> np.ndarray:
        env = self.env
        running = ~state.terminated
        if not running.any():
            return np.zeros(env.batch_size, np.int64)
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
        at = self._find(key)
        missing = running & (at < 0)
        if missing.any():
            self._fill(key, missing, mask)
            at = self._find(key)
        acts = self.value[np.maximum(at, 0)]
        tied = (acts < 0).nonzero()[0]
        if len(tied):
            ties = -1 - acts[tied]
            pick = (self.rng.random(len(tied)) * self.tie_sizes[ties]).astype(np.int64)
            acts[tied] = self.tie_sets[ties, pick]
        acts[~running] = 0
        return acts

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

    def _find(self, key: np.ndarray) -> np.ndarray:
        """Each key's index in `self.keys`, -1 where it is not there."""
        if not len(self.keys):
            return np.full(len(key), -1, np.int64)
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        return np.where(self.keys[at] == key, at, -1)

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
                counts[b], in_play[b], bid[b], legal[b], len(self.tie_sizes)
            )
        for i in np.flatnonzero(choosing).tolist():  # a hand's keep or reroll: few keys
            hand = tuple(f for f, c in enumerate(counts[i].tolist(), 1) for _ in range(c))
            view = SeatView(s, 0, dice_rules.CHOOSING, hand, int(in_play[i]), -1)
            value[i] = self.scalar.choose_reroll(view, np.flatnonzero(legal[i]).tolist())
        if sets:
            width = max(self.tie_sets.shape[1], *map(len, sets))
            grown = np.zeros((len(self.tie_sizes) + len(sets), width), np.int64)
            grown[: len(self.tie_sizes), : self.tie_sets.shape[1]] = self.tie_sets
            for i, tie in enumerate(sets, len(self.tie_sizes)):
                grown[i, : len(tie)] = tie
            self.tie_sets = grown
            self.tie_sizes = np.concatenate([self.tie_sizes, list(map(len, sets))])
        at = np.searchsorted(self.keys, new)
        self.keys = np.insert(self.keys, at, new)
        self.value = np.insert(self.value, at, value)

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


HEURISTICS = {"fogboard_liars_dice": LiarsDiceBatchBot}


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
