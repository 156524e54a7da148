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
from fogboard_games.liars_dice.bots import LiarsDiceHeuristic, SeatView

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


class _Ties:
    """Stands in for the scalar bot's RNG while a table entry is filled:
    records the set it was asked to choose from."""

    def __init__(self):
        self.tied = None

    def choice(self, options):
        self.tied = tuple(options)
        return self.tied[0]


class LiarsDiceBatchBot(BatchBot):
    """The Liar's Dice heuristic, read from a table filled by the scalar bot.

    A row's key is one int64: hand code (dice per face, radix D + 1), dice
    in play, standing bid + 1, then three bits: choosing keep or reroll, a
    reroll legal, the mover holds the standing bid. The first three are
    linear in the observation tensor's entries, so one float64 product
    (exact: every key is below 2^53) gives them for every row; the table is
    a sorted array of the keys met, read with `searchsorted`, and a key not
    met yet is filled once by the scalar bot's decision code.
    """

    kind = "heuristic"

    def __init__(self, env: Env, seed=None):
        super().__init__(env, seed)
        game = env.game
        s = self.setup = game.setup
        self.scalar = LiarsDiceHeuristic(game, 0)  # its decision code, not its state
        P, S, D, T, NB = s.players, s.sides, s.numdice, s.total, s.num_bids
        obs = game.obs_layout
        hand = obs.offset["hand"] + np.arange(S)
        bid = obs.offset["standing_bid"] + np.arange(NB)
        holder = obs.offset["holder"] + np.arange(P)
        cols = [hand, bid, holder]
        if not s.chips:
            cols.append(obs.offset["dice_counts"] + np.arange(P * (D + 1)))
        self.cols = np.concatenate(cols)
        self.radix = (D + 1, T + 1, NB + 1)
        # weights[:, 0]: ((hand code * (T + 1)) + in play) * (NB + 1) + bid + 1;
        # weights[:, 1]: the holder + 1 (0 before the opening bid).
        w = np.zeros((len(self.cols), 2))
        at = 0
        w[at : at + S, 0] = (D + 1) ** np.arange(S, dtype=np.float64) * (T + 1) * (NB + 1)
        at += S
        w[at : at + NB, 0] = np.arange(1, NB + 1)
        at += NB
        w[at : at + P, 1] = np.arange(1, P + 1)
        at += P
        if not s.chips:  # dice each seat has: one-hot over 0..D
            w[at:, 0] = np.tile(np.arange(D + 1), P) * (NB + 1)
        self.weights = w
        self.fixed_in_play = T * (NB + 1) if s.chips else 0  # every die in play
        self.keys = np.zeros(0, np.int64)  # sorted keys met so far
        self.entry = np.zeros(0, np.int64)  # their rows of `options`
        self.options = np.zeros((0, 1), np.int64)  # per entry: its action or tied set
        self.sizes = np.zeros(0, np.int64)
        self.ties = False  # some entry holds a tied set

    def actions(self, state) -> np.ndarray:
        env = self.env
        running = ~state.terminated
        if not running.any():
            return np.zeros(env.batch_size, np.int64)
        mover = state.current_player
        if env.form == "observation":
            lin = state.observation[:, self.cols].astype(np.float64) @ self.weights
        else:
            lin = np.zeros((env.batch_size, 2))
            for p in range(env.num_players):
                rows = (mover == p).nonzero()[0]
                if len(rows):
                    seat = env.observation_tensor(p)[rows[:, None], self.cols]
                    lin[rows] = seat.astype(np.float64) @ self.weights
        key = (lin[:, 0] + self.fixed_in_play).astype(np.int64) * 8
        mask = state.legal_action_mask
        s = self.setup
        if s.rerolls:
            key += mask[:, s.keep] * 4 + mask[:, s.reroll] * 2
        key += lin[:, 1].astype(np.int64) == mover + 1
        at = self._find(key)
        missing = running & (at < 0)
        if missing.any():
            self._fill(key, missing, mask, mover)
            at = self._find(key)
        at = self.entry[np.maximum(at, 0)]
        acts = self.options[at, 0]
        if self.ties:
            size = self.sizes[at]
            tied = (size > 1).nonzero()[0]
            if len(tied):
                pick = (self.rng.random(len(tied)) * size[tied]).astype(np.int64)
                acts[tied] = self.options[at[tied], pick]
        acts[~running] = 0
        return acts

    def _find(self, key: np.ndarray) -> np.ndarray:
        """Each key's index in `self.keys`, -1 where it is not there."""
        if not len(self.keys):
            return np.full(len(key), -1, np.int64)
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        return np.where(self.keys[at] == key, at, -1)

    def _fill(self, key, missing, mask, mover) -> None:
        """Table the scalar bot's decision for every key of the `missing` rows."""
        s = self.setup
        D1, T1, NB1 = self.radix
        new, first = np.unique(key[missing], return_index=True)
        rows = missing.nonzero()[0][first]
        found = []
        for k, row in zip(new.tolist(), rows.tolist()):
            choosing, rest = k >> 2 & 1, k >> 3  # (bits 0, 1 are in the mask's legal set)
            bid = rest % NB1 - 1
            in_play = rest // NB1 % T1
            code = rest // NB1 // T1
            counts = [code // D1**f % D1 for f in range(s.sides)]
            hand = tuple(f for f, c in enumerate(counts, 1) for _ in range(c))
            phase = dice_rules.CHOOSING if choosing else dice_rules.BIDDING
            view = SeatView(s, int(mover[row]), phase, hand, in_play, bid)
            # The legal set is the mover's mask: the rules make it a function of
            # the key (dice in play, standing bid, holds; or the choice and a
            # reroll left), so any row with this key has the same one.
            legal = np.flatnonzero(mask[row]).tolist()
            if choosing:
                found.append((self.scalar.choose_reroll(view, legal),))
            else:
                ties = _Ties()
                action = self.scalar.choose_bidding(view, legal, ties)
                found.append(ties.tied if ties.tied is not None else (action,))
        width = max(self.options.shape[1], *map(len, found))
        options = np.zeros((len(self.options) + len(found), width), np.int64)
        options[: len(self.options), : self.options.shape[1]] = self.options
        for i, choice in enumerate(found, len(self.options)):
            options[i, : len(choice)] = choice
        self.options = options
        self.sizes = np.concatenate([self.sizes, [len(c) for c in found]])
        self.ties = bool((self.sizes > 1).any())
        keys = np.concatenate([self.keys, new])
        entry = np.concatenate([self.entry, np.arange(len(self.entry), len(keys))])
        order = np.argsort(keys, kind="stable")
        self.keys, self.entry = keys[order], entry[order]


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
