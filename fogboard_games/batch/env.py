"""What every batched game shares: the State snapshot, the history, the
refusal of illegal actions and the array pools (docs/batch.md).

The games' rules live in `boards.py` and `liars_dice.py`, which derive
their engines from `Env`; `fogboard_games.batch.make` chooses one.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel

POOL_SIZE = 2  # arrays kept per kind for reuse (see Env._fresh)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # -4: the current player of a finished row


class State:
    """One snapshot of every row, as numpy arrays (row b is game b).

    current_player     (B,) int64: the seat to move; TERMINAL (-4) in finished rows
    legal_action_mask  (B, A) bool: the mover's legal actions; all False when finished
    observation        (B, D) float32: the mover's information-state tensor, zeros
                       in finished rows; computed when first read; read-only
    rewards            (B, P) float32: what the step that made this state paid each seat
    terminated         (B,) bool

    The observation is made on first access, from the environment as it is
    when this state is current: read it before the next `step` or `reset`
    (once read it is kept). A snapshot's arrays are its own: later steps
    never change them. The observation is read-only (copy it to change it):
    its memory is reused once nothing references it, and what a later step
    brings up to date there must be what the environment wrote.
    """

    __slots__ = (
        "current_player",
        "legal_action_mask",
        "rewards",
        "terminated",
        "_env",
        "_stamp",
        "_observation",
    )

    def __init__(self, env, current_player, legal_action_mask, rewards, terminated):
        self.current_player = current_player
        self.legal_action_mask = legal_action_mask
        self.rewards = rewards
        self.terminated = terminated
        self._env = env
        self._stamp = env._stamp
        self._observation = None

    @property
    def observation(self) -> np.ndarray:
        if self._observation is None:
            if self._stamp != self._env._stamp:
                raise RuntimeError(
                    "this state's observation was never read and the environment has "
                    "stepped since: read state.observation before the next step or reset"
                )
            observation = self._env._mover_tensor().view()
            observation.flags.writeable = False
            self._observation = observation
        return self._observation


class Env:
    """What every batched game shares (a subclass supplies the rules).

    A subclass sets `num_players`, `num_actions`, `tensor_size`, `max_history`,
    `start_block` (lo, hi): the actions legal at a game's start, lo <= a < hi,
    and `mover` (B,) int64 (a seat in every row: finished rows are told by
    `terminated`), and implements `_restart(rows)` (rows: an int index array;
    chance is drawn there and logged with `_log`), `_legal_mask()`,
    `_play(actions, active)` and the tensor reads `_mover_tensor()` and
    `_seat_tensor(p)`.

    `_play` gets every row's action, (B,) int64, and `active`: None when every
    row is running, else the (B,) bool mask of the running rows (finished
    rows' actions are garbage to ignore). It first checks the running rows'
    actions and calls `_refuse` on any illegal one, changing nothing; then it
    applies them and returns (ended, rewards): None, None when no row ended
    and none was paid, else the (B,) bool mask of the rows that ended at this
    step and the (B, P) float32 rewards of the step (zeros but in the rows
    paid: those, and in a game paying during play, such as Parley's rounds,
    rows that go on).
    The step works on whole rows throughout, with masks for the rows that
    sit out, because at a few thousand rows a numpy call costs about as much
    as its work: compacting the running rows first would cost more calls
    than it saves.
    """

    num_players: int
    num_actions: int
    tensor_size: int
    max_history: int
    start_block: tuple[int, int]

    def __init__(self, game: pyspiel.Game, batch_size: int, seed):
        if not _is_index(batch_size) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.game = game
        self.batch_size = B = int(batch_size)
        self.rng = np.random.default_rng(seed)
        # One spare column per row: a step writes every row's action at its
        # row's next position, finished rows too (their position does not
        # advance, so what lands there is past the end of their history).
        self.hstride = H = self.max_history + 1
        self.history = np.zeros((B, H), np.int16)
        self.rows = np.arange(B)
        self.hstart = self.rows * H  # flat index of each row's first entry
        self.hpos = self.hstart.copy()  # flat index of each row's next entry
        self.terminated = np.zeros(B, bool)
        self._finished = 0  # count of terminated rows (0: every row plays)
        self._pools: dict[str, list] = {}  # see _fresh
        self._stamp = 0  # bumped at every step and reset (stale lazy observations)
        self._state: State | None = None

    @property
    def history_len(self) -> np.ndarray:
        """(B,) int64: entries in each row's history."""
        return self.hpos - self.hstart

    # ---- the interface -------------------------------------------------------

    def reset(self, rows=None) -> State:
        """Restart the rows of a boolean mask (every row when omitted)."""
        if rows is None:
            index = self.rows
        else:
            mask = np.asarray(rows)
            if mask.dtype != bool or mask.shape != (self.batch_size,):
                raise ValueError(
                    f"reset(rows) takes a boolean mask of shape ({self.batch_size},), "
                    f"got dtype {mask.dtype} and shape {mask.shape}"
                )
            index = mask.nonzero()[0]
        if len(index):
            self.hpos[index] = self.hstart[index]
            self.terminated[index] = False
            self._finished = int(np.count_nonzero(self.terminated))
            self._restart(index)
        self._stamp += 1
        rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        last = self._state
        if rows is None or last is None or last._stamp != self._stamp - 1:
            self._state = self._snapshot(rewards)
        else:
            # Only the restarted rows changed: patch them into new copies of the last
            # snapshot's arrays rather than rebuild every row.
            if self._finished:
                player = last.current_player.copy()
                player[index] = self.mover[index]  # (the restarted rows' first mover)
                terminated = last.terminated.copy()
                terminated[index] = False
            else:  # every finished row restarted (the usual case)
                player = self.mover.copy()
                terminated = np.zeros(self.batch_size, bool)
            legal = self._restarted_mask(last.legal_action_mask.T, mask)
            self._state = State(self, player, legal, rewards, terminated)
        return self._state

    def step(self, actions) -> State:
        """One action per row; finished rows ignore theirs (and pay nothing).

        An illegal action in any running row raises ValueError naming the
        row, the action and the legal ones, and changes no row.
        """
        a = np.asarray(actions)
        if a.shape != (self.batch_size,) or a.dtype.kind not in "iub":
            raise ValueError(
                f"step takes one integer action per row, shape ({self.batch_size},); "
                f"got dtype {a.dtype} and shape {a.shape}"
            )
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        active = ~self.terminated if self._finished else None
        ended, rewards = self._play(a, active)
        self.history.reshape(-1)[self.hpos] = a.astype(np.int16)  # (finished rows: garbage)
        self.hpos += 1 if active is None else active
        if ended is None:
            rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        else:
            self.terminated |= ended
            self._finished = int(np.count_nonzero(self.terminated))
        self._stamp += 1
        self._state = self._snapshot(rewards)
        return self._state

    def information_state_tensor(self, player: int) -> np.ndarray:
        """(B, D) float32: seat `player`'s information-state tensor in every row."""
        if not _is_index(player) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be a seat 0..{self.num_players - 1}, got {player!r}")
        return self._seat_tensor(int(player))

    def to_pyspiel(self, row: int) -> pyspiel.State:
        """The registered pyspiel game's state with row `row`'s history (chance included)."""
        if not _is_index(row) or not 0 <= row < self.batch_size:
            raise ValueError(f"row must be an int in 0..{self.batch_size - 1}, got {row!r}")
        state = self.game.new_initial_state()
        for action in self.history_of(row):
            state.apply_action(action)
        return state

    def history_of(self, row: int) -> list[int]:
        """Row `row`'s pyspiel action ids so far, chance outcomes included."""
        return self.history[row, : self.hpos[row] - self.hstart[row]].tolist()

    def memory_per_row(self) -> int:
        """Bytes of numpy arrays per row (every array of the environment, the
        observation buffers kept for reuse included)."""
        total = sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))
        total += sum(a.nbytes for pool in self._pools.values() for a in pool)
        observations = getattr(self, "observations", None)  # (batch.observations)
        if observations is not None:
            total += observations.nbytes
        return total // self.batch_size

    # ---- shared machinery -----------------------------------------------------

    def _log(self, rows: np.ndarray, outcomes: np.ndarray) -> None:
        """Append chance outcomes (rows, k) to the rows' histories."""
        at = self.hpos[rows]
        k = outcomes.shape[1]
        self.history.reshape(-1)[at[:, None] + np.arange(k)] = outcomes
        self.hpos[rows] = at + k

    def _snapshot(self, rewards: np.ndarray) -> State:
        if self._finished:
            player = np.where(self.terminated, TERMINAL, self.mover)
        else:
            player = self.mover.copy()
        return State(self, player, self._legal_mask(), rewards, self.terminated.copy())

    def _fresh(self, key: str, shape: tuple, dtype) -> np.ndarray:
        """An array to fill and hand out in a snapshot: one handed out before
        that nothing else references any more (its snapshot is gone, and no
        view of it is left), else a new one. Refilling the same memory is
        faster than a new large array every step (no page faults, no zeroing
        by the kernel), and no one can see it happen."""
        pool = self._pools.setdefault(key, [])
        for arr in pool:
            # References of an unreferenced one: the pool's, `arr`, getrefcount's.
            if sys.getrefcount(arr) == 3:
                return arr
        arr = np.empty(shape, dtype)
        if len(pool) < POOL_SIZE:
            pool.append(arr)
        return arr

    def _restarted_mask(self, last: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The legal mask of the last snapshot (its (A, B) layout) with the rows of
        the bool mask `rows` at the start: a game starts with a block of actions
        [lo, hi) legal (the attempts, the senses, the opening bids). A game whose
        start depends on chance overrides this."""
        lo, hi = self.start_block
        if lo == 0 and hi == self.num_actions:
            return (last | rows).T
        new = np.empty_like(last)
        np.bitwise_or(last[lo:hi], rows, out=new[lo:hi])
        keep = ~rows
        np.bitwise_and(last[:lo], keep, out=new[:lo])
        np.bitwise_and(last[hi:], keep, out=new[hi:])
        return new.T

    def _refuse(self, active, acts: np.ndarray, ok: np.ndarray) -> None:
        """Raise for the first running row whose action is not legal (`ok` False)."""
        bad = ~ok if active is None else ~ok & active
        row = int(np.flatnonzero(bad)[0])
        action = int(acts[row])
        legal = np.flatnonzero(self._state.legal_action_mask[row]).tolist()
        seat = int(self.mover[row])
        count = int(np.count_nonzero(bad))
        more = f" ({count - 1} other rows are illegal too)" if count > 1 else ""
        raise ValueError(
            f"illegal action {action} in row {row} (seat {seat} to move); legal actions "
            f"there: {legal}{more}; no row was changed"
        )

    # Subclass hooks.
    def _restart(self, rows: np.ndarray) -> None:
        raise NotImplementedError

    def _legal_mask(self) -> np.ndarray:
        raise NotImplementedError

    def _play(self, acts: np.ndarray, active):
        raise NotImplementedError

    def _mover_tensor(self) -> np.ndarray:
        raise NotImplementedError

    def _seat_tensor(self, player: int) -> np.ndarray:
        raise NotImplementedError


def _is_index(x) -> bool:
    """A count, seat or row: an int or a numpy int, never a bool (an int to
    isinstance, which would read True as 1)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))
