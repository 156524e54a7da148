"""Batched bots for `fogboard_games.batch`: one action per row of a State
(docs/batch.md#batched-bots), and the lookup of a game's from its Ruleset.

`random` draws uniformly from each row's legal mask (`random_actions`).
`heuristic` is the scalar `heuristic` bot made batched where it vectorizes
exactly (Liar's Dice, Mind Bluff: each game's `batched_bots.py`, declared by
its Ruleset's `batched.bots`; the others are refused with the reason its
`batched.not_vectorized` gives): a `Table` of the scalar bot's decisions,
keyed by all that its decision reads of the seat's view, filled when a row
first meets a key and read for every row at once.

Fair seats (docs/bots.md#fair-seats): a key is decoded only from the
mover's tensor as the engine hands it out (`BatchBot._by_mover`), the
mover's legal mask and the game's Setup, never from the engine's arrays of
the truth, so rows the seat cannot tell apart get one key, hence one action
(or one tied set), as the scalar bot, which reads the same pieces, gives.
Where the scalar bot breaks a tie at random (`SeatBot.rng`) the table keeps
the whole tied set (`Ties` records it) and the batched bot draws uniformly
among it from its own seeded numpy Generator: the same set, not the same draw.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.draw import random_actions
from fogboard_games.batch.env import Env, State, _is_index
from fogboard_games.core import registry

KINDS = ("random", "heuristic")


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

    def _by_mover(self, state, form: str) -> np.ndarray:
        """The movers' tensors of `form`, (B, D): State.observation where it is that
        form, else every row's mover's read at once (a finished row's: seat 0's)."""
        if self.env.form == form:
            return state.observation
        return self.env._tensors_of(form, np.where(state.terminated, 0, state.current_player))

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


class Table:
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

    def actions(self, key, running, decide, rng):
        """The actions of the rows' keys (those of the running rows: the others
        read any) and each row's index in the table. The keys met first are
        filled at once: decide(new keys, a row that has each) gives their
        values, tied sets and flags, as `add` takes them."""
        at = self.find(key)
        missing = running & (at < 0)
        if missing.any():
            new, first = np.unique(key[missing], return_index=True)
            self.add(new, *decide(new, missing.nonzero()[0][first]))
            at = self.find(key)
        return self.read(at, rng), at

    def add(self, new, value, sets, flag=None) -> None:
        """New keys (sorted, none there yet) with their values (-1 - k for
        the k-th of the tied `sets`) and flags."""
        value = np.where(value < 0, value - len(self.sizes), value)  # (after those there)
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


class Ties:
    """Stands in for the scalar bot's RNG while a table entry is filled:
    records the set it was asked to choose from."""

    def __init__(self):
        self.tied = None

    def choice(self, options):
        self.tied = tuple(options)
        return self.tied[0]


def _declared(env) -> tuple[str, dict[str, str], object]:
    """The game's short name, the batched bots its Ruleset declares
    (Batched.bots) by kind, and its Batched (None: no batched engine)."""
    if not isinstance(env, Env):
        raise ValueError(
            f"a batched bot plays a fogboard_games.batch environment (batch.make), "
            f"got {type(env).__name__}"
        )
    short = env.game.get_type().short_name
    batched = registry.batched(short)
    return short, dict(batched.bots) if batched is not None else {}, batched


def kinds_for(env) -> tuple[str, ...]:
    """The kinds that vectorize for `env.game`."""
    return ("random", *_declared(env)[1])


def make_bot(kind, env, seed=None) -> BatchBot:
    """A batched bot of `kind` for `env` (ValueError naming the kinds available)."""
    short, declared, batched = _declared(env)
    kinds = ("random", *declared)
    if kind == "heuristic" and kind not in declared:
        why = (batched.not_vectorized if batched else "") or "no batched form of it is built"
        raise ValueError(
            f"the heuristic bot of {short} does not vectorize: {why}; batched kinds for "
            f"{short}: {', '.join(kinds)}; play the scalar heuristic on env.to_pyspiel(row) "
            f"with fogboard_games.bots.make_bot('heuristic', game, player)"
        )
    if not isinstance(kind, str) or kind not in kinds:
        raise ValueError(
            f"unknown batched bot kind {kind!r}; batched kinds for {short}: {', '.join(kinds)}"
        )
    if seed is not None and not _is_index(seed):
        raise ValueError(f"seed must be an int or None, got {seed!r}")
    if kind == "random":
        return RandomBatchBot(env, seed)
    return registry.resolve(declared[kind])(env, seed)


__all__ = ["KINDS", "BatchBot", "Table", "Ties", "kinds_for", "make_bot", "random_actions"]
