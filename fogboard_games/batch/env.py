"""What every batched game shares: the State snapshot, the history, the
refusal of illegal actions, the observation forms and dtypes (docs/batch.md).

Each game's rules live in its own package (e.g.
fogboard_games/boards/batched.py), which derives its engine from `Env`;
`fogboard_games.batch.make` builds the one a game's Ruleset declares.
"""

from __future__ import annotations

import os

import numpy as np
import pyspiel

from fogboard_games.batch.draw import random_actions
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.jit import inline, kernel

TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # -4: the current player of a finished row
# What State.observation is: the mover's information-state tensor (OpenSpiel's
# rl_environment convention) or its observation tensor (the seat's view now).
FORMS = ("information_state", "observation")
DTYPES = ("float32", "uint8", "bool")  # bool only where every value is 0 or 1
# A batch too big for the machine is refused before numpy would run out of
# memory part way (docs/batch.md#memory-per-row): what a row takes is measured
# on two probes of this many rows and twice as many (their difference is what
# each further row adds: the fixed tables and per-batch arrays cancel out).
PROBE_ROWS = 16
_ROW_BYTES: dict = {}  # (class, game, form, dtype, seat read) -> bytes a row, measured once


def available_memory() -> int | None:
    """Bytes of memory the machine has available for new allocations: Linux's
    MemAvailable (/proc/meminfo), else its physical memory (os.sysconf),
    else None (no bound known: nothing is refused)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_rows(name: str, rows: int, per_row: int, what: str) -> None:
    """Refuse `rows` rows of `per_row` bytes each (`what` says what is
    counted) with a one-line ValueError naming the bytes and the bound, when
    they exceed the memory available (`available_memory`)."""
    bound = available_memory()
    need = rows * per_row
    if bound is not None and need > bound:
        raise ValueError(
            f"a {name} of {_count(rows)} rows would take {_count(need)} bytes ({per_row:,} a "
            f"row {what}), more than the {bound:,} bytes of memory available on this machine: "
            f"at most {bound // per_row:,} rows fit in it"
        )


def _count(n: int) -> str:
    # (digits of an int past 64 bits say nothing more, and past 4,300 Python refuses them)
    return f"{n:,}" if n.bit_length() <= 64 else f"more than 2**{n.bit_length() - 1}"


class State:
    """One snapshot of every row, as numpy arrays (row b is game b).

    current_player     (B,) int64: the seat to move; TERMINAL (-4) in finished rows
    legal_action_mask  (B, A) bool: the mover's legal actions; all False when
                       finished; read-only
    observation        (B, D) in the environment's dtype: the mover's
                       information-state tensor (or observation tensor, by the
                       environment's form), zeros in finished rows; read-only
    rewards            (B, P) float32: what the step that made this state paid each seat
    terminated         (B,) bool

    The observation is made on first access, from the environment as it is
    when this state is current: read it before the next `step` or `reset`.
    It is a read-only view of the environment's array, valid until the next
    step or reset, which write over it in place (copy it to keep it). The
    other arrays are the snapshot's own: later steps never change them. The
    legal mask too is made at its first access, whenever that is (the
    environment keeps what it needs): a loop that restarts finished rows
    after a step never pays for the mask of the state it does not read.
    """

    __slots__ = (
        "current_player", "rewards", "terminated", "_env", "_stamp", "_mask", "_after", "_observation"
    )  # fmt: skip

    def __init__(self, env, current_player, terminated, rewards):
        self.current_player = current_player
        self.rewards = rewards
        self.terminated = terminated
        self._env = env
        self._stamp = env._stamp
        self._mask = None  # (made at first access: legal_action_mask)
        self._after = None  # (the state a restart made next, and the rows it restarted)
        self._observation = None

    @property
    def legal_action_mask(self) -> np.ndarray:
        if self._mask is None:
            if self._after is not None:
                # Restarted rows were finished here (all False); the others are as
                # the next state shows them: `reset(rows)` changes no other row.
                later, rows = self._after
                mask = later.legal_action_mask.T.copy().T  # (its (A, B) layout kept)
                mask[rows] = False
                self._after = None
            else:
                mask = self._env._legal_mask()  # (the environment is as this state was made)
            mask.flags.writeable = False
            self._mask = mask
        return self._mask

    @property
    def observation(self) -> np.ndarray:
        if self._observation is None:
            if self._stamp != self._env._stamp:
                raise RuntimeError(
                    "this state's observation was never read and the environment has "
                    "stepped since: read state.observation before the next step or reset"
                )
            self._observation = self._env._mover_tensor()
        return self._observation


class Env:
    """What every batched game shares (a subclass supplies the rules).

    `__init__` is the base's alone (a subclass defining one is refused when
    its class is made). It calls the subclass's hooks in turn (HOOKS, each
    checked to exist when the class is made):

    - `_configure(game)`: the fixed facts, CONFIGURED (checked on return);
    - `_build()`: the per-row arrays and tables, and `mover` (B,) int64, a
      seat in every row (finished rows are told by `terminated`); then every
      row is reset;
    - `_restart(rows)` (an int index array): the rows at their start; chance
      is drawn there and logged with `_log` or `_log_later` (a reset logs it);
    - `_legal_mask()`: (B, A) bool, the movers' legal actions now;
    - `_play(actions, active)`: every row's action, (B,) int64, and the (B,)
      bool mask of the rows that play (read-only; one array, all True, when
      every row plays). The others' actions are garbage to ignore: the
      finished rows, and those sitting out (`step(actions, rows)`), which
      `_sitting` tells: then a row that does not play is not always finished
      and must end the step exactly as it was (`_sitting` is False outside a
      step, so a replay with a mask of its own never sees it). The playing
      rows' actions are legal: `step` checked them against the last state's
      mask and refused any illegal one first. Chance it draws goes through
      `_log_later` (logged after the step's action, as pyspiel's history
      orders it). It returns (ended, rewards): None, None when no row ended
      and none was paid, else the rows that ended, a (B,) bool mask (or ints,
      nonzero where ended), and the (B, P) float32 rewards (zeros but in the rows paid);
    - `_mover_tensor()`: what `State.observation` hands out, the movers'
      tensors of the environment's form, (B, D) in its dtype, zeros in
      finished rows, read-only, valid until the next step or reset (an
      engine keeps the array and brings it up to date);
    - `_seat_tensors(form, seats)`: row b of seat seats[b]'s tensor of the
      form ((B,) int64 seats), a new (B, D) array in any dtype that holds them
      (the interface checks the seats and hands it out in the environment's
      dtype: `_tensors_of`).

    Each engine keeps its tensors as its game needs (docs/batch.md#observations),
    built at their first read, so play that never reads one pays nothing for
    it. The step works on whole rows, with masks for the rows that sit out:
    at a few thousand rows a numpy call costs about as much as its work, so
    compacting the running rows first would cost more calls than it saves.
    """

    TABLES: tuple = ()  # attributes holding the game's fixed tables (memory_per_row)
    num_players: int
    num_actions: int
    tensor_size: int
    max_history: int
    mover: np.ndarray
    # What `_configure` and `_build` must set, and the hooks a subclass fills.
    CONFIGURED = ("num_players", "num_actions", "tensor_size", "max_history")
    BUILT = ("mover",)
    HOOKS = (
        "_configure", "_build", "_restart", "_legal_mask", "_play", "_mover_tensor", "_seat_tensors"
    )  # fmt: skip

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__:
            raise TypeError(
                f"{cls.__name__} defines __init__: a batched engine fills _configure(game) "
                f"(sets {', '.join(Env.CONFIGURED)}) and _build() (the arrays, "
                f"{', '.join(Env.BUILT)}), which Env.__init__ calls in turn"
            )
        missing = [h for h in Env.HOOKS if not callable(getattr(cls, h, None))]
        if missing:
            raise TypeError(f"{cls.__name__} does not implement {', '.join(missing)} (Env)")

    def __init__(
        self, game: pyspiel.Game, batch_size: int, seed, observation="information_state", dtype=None
    ):
        if not _is_index(batch_size) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.game = game
        self._configure(game)
        self._check_set(self.CONFIGURED, "_configure")
        self.form, self.dtype = self._check_form(game, observation, dtype)
        if batch_size > 2 * PROBE_ROWS:  # (the probes themselves are not checked)
            per_row = type(self).row_bytes(game, self.form, self.dtype)
            check_rows("batch_size", int(batch_size), per_row, "before any tensor is read")
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
        self._everyone = np.ones(B, bool)  # (`active` when every row plays)
        self._everyone.flags.writeable = False
        self._finished = 0  # count of terminated rows (0: every row plays)
        self._stamp = 0  # bumped at every step and reset (stale lazy observations)
        self._sitting = False  # in a step: some running row sits it out (see _play)
        self._later: list = []  # chance drawn by a step's play, logged after it (_log_later)
        self._state: State | None = None
        self._stepped = False  # (the current state came from a step: see reset)
        self._build()
        self._check_set(self.BUILT, "_build")
        self.reset()

    def _check_set(self, names, hook: str) -> None:
        unset = [n for n in names if not hasattr(self, n)]
        if unset:
            raise TypeError(f"{type(self).__name__}.{hook} did not set {', '.join(unset)} (Env)")

    @property
    def history_len(self) -> np.ndarray:
        """(B,) int64: entries in each row's history."""
        return self.hpos - self.hstart

    # ---- the interface -------------------------------------------------------

    def reset(self, rows=None) -> State:
        """Restart the rows of a boolean mask (every row when omitted)."""
        restart = self._everyone if rows is None else self._row_mask(rows, "reset(rows)")
        index, finished_only = _rows_of(restart, self.terminated)
        before = self._state
        # The last state's legal mask, if never read, is read off the next one's
        # when the restarted rows had all finished (theirs were all False) and that
        # state came from a step (a chain of restarts is never longer than one);
        # otherwise it is made now, from the rows as that state saw them.
        later = before is not None and before._mask is None
        if later and not (finished_only and self._stepped):
            before.legal_action_mask  # noqa: B018  (made before any row changes)
            later = False
        if len(index):
            _clear(index, self.hpos, self.hstart, self.terminated)
            self._restart(index)
            self._log_drawn()  # (a restart's chance, drawn by the rules' own functions)
        self._stamp += 1
        self._state = self._snapshot(np.zeros((self.batch_size, self.num_players), np.float32))
        self._stepped = False
        if later:
            before._after = (self._state, index)
        return self._state

    def step(self, actions, rows=None) -> State:
        """One action per row; finished rows ignore theirs (and pay nothing).

        `rows`, a (B,) boolean mask, picks the rows that play this step (every
        row when omitted): the running rows outside it sit out, their actions
        ignored (not even checked), and stay exactly as they were (history,
        mover, legal actions, every seat's tensors), paid nothing and not
        terminated. A malformed `rows` raises ValueError and changes nothing.
        An illegal action in any row that plays raises ValueError naming the
        row, the action and the legal ones, and changes no row.
        """
        a = np.asarray(actions)
        if a.shape != (self.batch_size,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"step takes one integer action per row, shape ({self.batch_size},); "
                f"got dtype {a.dtype} and shape {a.shape}"
            )
        if a.dtype != np.int64:
            a = a.astype(np.int64)
        if rows is None:
            active = ~self.terminated if self._finished else self._everyone
        else:
            active = self._row_mask(rows, "step(actions, rows)") & ~self.terminated
            if np.count_nonzero(active) == self.batch_size - self._finished:
                active = ~self.terminated if self._finished else self._everyone  # (none sits out)
            else:
                self._sitting = True  # (engines then mask what they do in every row)
        # The last state's legal mask, made now if never read (before any row
        # changes), is what every engine's actions are checked against.
        mask = self._state.legal_action_mask
        if _illegal(mask.T, a, active):
            self._refuse(active, a, mask)
        try:
            ended, rewards = self._play(a, active)
        except BaseException:
            self._later.clear()  # (a refusal draws nothing; nothing is left to log)
            raise
        finally:
            self._sitting = False
        if ended is None:
            rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        self._finished, player, done = _advance(
            self.history.reshape(-1), self.hpos, a, active, ended, self.terminated, self.mover
        )
        self._log_drawn()  # the chance the actions led to, after them
        self._stamp += 1
        self._state = State(self, player, done, rewards)
        self._stepped = True
        return self._state

    def information_state_tensor(self, player: int) -> np.ndarray:
        """(B, D) in the environment's dtype, a new array: seat `player`'s
        information-state tensor in every row (finished rows: the final one)."""
        return self._seat_tensor("information_state", player)

    def observation_tensor(self, player: int) -> np.ndarray:
        """(B, D) in the environment's dtype, a new array: seat `player`'s
        observation tensor (its view now) in every row."""
        return self._seat_tensor("observation", player)

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

    def memory_per_row(self, tables: bool = False) -> int:
        """Bytes per row of everything the rows keep: the environment's numpy
        arrays (its kept tensors and handed-out arrays among them, and those
        in its lists and tuples), each memory block once (views share one).
        With `tables`, the game's fixed tables too (`TABLES`: the same
        whatever the batch size, shared by every row), divided among the
        rows."""
        found = []
        for name, v in vars(self).items():
            if name in self.TABLES and not tables:
                continue
            if isinstance(v, (list, tuple)):
                found += [x for item in v for x in (item if isinstance(item, tuple) else (item,))]
            else:
                found.append(v)
        blocks = {}
        for a in found:
            if isinstance(a, np.ndarray):
                while isinstance(a.base, np.ndarray):
                    a = a.base
                blocks[id(a)] = a
        return -(-sum(a.nbytes for a in blocks.values()) // self.batch_size)

    @classmethod
    def row_bytes(cls, game, observation="information_state", dtype=None, seat=None) -> int:
        """Bytes each row of this engine adds (`memory_per_row` without the
        per-batch share): measured once per game, form and dtype on two small
        probes, each played to the end of its games (what a step makes on
        first use, at a row's first pay or end, counted too). With `seat`,
        after a read of that seat's tensor of the form too (its store made
        and filled), as a caller reading it keeps."""

        dt = np.dtype(np.float32 if dtype is None else dtype)
        key = (cls, str(game), observation, dt.name, seat)
        if key not in _ROW_BYTES:
            kept = []
            for rows in (PROBE_ROWS, 2 * PROBE_ROWS):
                probe = cls(game, rows, 0, observation, dt)
                state = probe.reset()
                while not state.terminated.all():  # (every game has a bounded length)
                    state = probe.step(random_actions(probe.rng, state.legal_action_mask))
                if seat is not None:
                    probe._seat_tensor(observation, seat)
                kept.append(probe.memory_per_row() * rows)
            _ROW_BYTES[key] = max(1, -(-(kept[1] - kept[0]) // PROBE_ROWS))
        return _ROW_BYTES[key]

    # ---- shared machinery -----------------------------------------------------

    def _row_mask(self, rows, call: str) -> np.ndarray:
        """`rows` as a (B,) bool mask, or a ValueError naming `call` and the shape."""
        mask = np.asarray(rows)
        if mask.dtype != bool or mask.shape != (self.batch_size,):
            raise ValueError(
                f"{call} takes a boolean mask of shape ({self.batch_size},), "
                f"got dtype {mask.dtype} and shape {mask.shape}"
            )
        return mask

    def _log(self, rows: np.ndarray, outcomes: np.ndarray, real=None) -> None:
        """Append chance outcomes (rows, k) to the rows' histories (with `real`,
        a (rows, k) bool mask, only those, in order)."""
        if real is None:
            real = np.ones(outcomes.shape, bool)
        _append(self.history.reshape(-1), self.hpos, rows, outcomes, real)

    def _log_later(self, rows: np.ndarray, outcomes: np.ndarray, real=None) -> None:
        """Chance drawn while a step plays (a round's deal, a reroll, the next
        game's coin), logged as `_log` does after the step's action, in the
        order drawn: pyspiel's history holds the decision, then the chance it
        leads to."""
        self._later.append((rows, outcomes, real))

    def _log_drawn(self) -> None:
        for rows, outcomes, real in self._later:
            self._log(rows, outcomes, real)
        self._later.clear()

    def _snapshot(self, rewards: np.ndarray) -> State:
        self._finished, player, done = _seen(self.mover, self.terminated)
        return State(self, player, done, rewards)

    def _check_form(self, game, observation, dtype):
        """The observation form and numpy dtype asked for, or a ValueError
        naming what is allowed; the dtype must hold every value of the form."""
        if not isinstance(observation, str) or observation not in FORMS:
            raise ValueError(
                f"observation must be one of {', '.join(map(repr, FORMS))}, got {observation!r}"
            )
        try:
            dt = np.dtype(np.float32 if dtype is None else dtype)
        except TypeError:
            dt = None
        if dt is None or dt.name not in DTYPES:
            raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
        self._check_holds(dt, observation, "use float32 or uint8")
        return observation, dt

    def _check_holds(self, dt, form: str, allowed: str) -> None:
        """A ValueError where bool cannot hold the form's tensor (recon hex's view)."""
        top = self._max_value(form)
        if dt == np.bool_ and top > 1:
            raise ValueError(
                f"dtype bool cannot hold this game's {form} tensor, whose values go up "
                f"to {top}; {allowed}"
            )

    def _seat_tensor(self, form: str, player) -> np.ndarray:
        if not _is_index(player) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be a seat 0..{self.num_players - 1}, got {player!r}")
        return self._tensors_of(form, np.full(self.batch_size, int(player)))

    def _tensors_of(self, form: str, seats: np.ndarray) -> np.ndarray:
        """(B, D) in the environment's dtype, a new array: row b of seat seats[b]'s
        tensor of the form, every row in one pass (a batched bot reads its movers')."""
        self._check_holds(self.dtype, form, "make the environment with float32 or uint8")
        return self._seat_tensors(form, seats).astype(self.dtype, copy=False)

    def _refuse(self, active, acts: np.ndarray, mask: np.ndarray) -> None:
        """Raise for the first playing row whose action is not legal by `mask`."""
        inside = (acts >= 0) & (acts < self.num_actions)
        bad = active & ~(inside & mask[self.rows, np.where(inside, acts, 0)])
        row = int(np.flatnonzero(bad)[0])
        action = int(acts[row])
        legal = np.flatnonzero(mask[row]).tolist()
        seat = int(self.mover[row])
        count = int(np.count_nonzero(bad))
        more = f" ({count - 1} other rows are illegal too)" if count > 1 else ""
        raise ValueError(
            f"illegal action {action} in row {row} (seat {seat} to move); legal actions "
            f"there: {legal}{more}; no row was changed"
        )

    def _max_value(self, form: str) -> int:
        """The most any entry of the form's tensor holds, as the game's encoder
        bounds it (`Encoder.high`: what a compact dtype must hold)."""
        key = INFO_STATE if form == "information_state" else OBSERVATION
        return int(self.game.setup.encoder.high(key).max())


def _is_index(x) -> bool:
    """A count, seat or row: an int or a numpy int, never a bool (an int to
    isinstance, which would read True as 1)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


@kernel
def _append(history, hpos, rows, outcomes, real):
    """Env._log, a row at a time (numpy's fancy indexing of the same costs
    several times more at a step's few thousand rows)."""
    for i in range(len(rows)):
        at = hpos[rows[i]]
        for j in range(outcomes.shape[1]):
            if real[i, j]:
                history[at] = outcomes[i, j]
                at += 1
        hpos[rows[i]] = at


@kernel
def _rows_of(restart, terminated):
    """The rows of a restart mask, and whether every one of them had finished."""
    index, n, finished_only = np.empty(len(restart), np.int64), 0, True
    for b in range(len(restart)):  # (no branch: on tic-tac-toe one measured slower)
        index[n], n = b, n + restart[b]
        finished_only &= terminated[b] >= restart[b]  # (finished, or not restarted)
    return index[:n], finished_only


@kernel
def _clear(index, hpos, hstart, terminated) -> None:
    """The rows' histories emptied and their ends undone."""
    for b in index:
        hpos[b], terminated[b] = hstart[b], False


@kernel
def _advance(history, hpos, actions, active, ended, terminated, mover):
    """Every row's action written at its history's next entry (a row that did not
    play writes past its end: garbage, overwritten when it plays), the entry kept
    where it played; the rows that ended marked; then `_seen`."""
    for b in range(len(actions)):
        history[hpos[b]] = actions[b]
    for b in range(len(actions)):  # (a pass of its own, which numba vectorizes)
        hpos[b] += active[b]
    if ended is not None:
        for b in range(len(actions)):
            terminated[b] |= ended[b] != 0
    return _seen(mover, terminated)


@inline
def _seen(mover, terminated):
    """The count of rows finished, and a snapshot's own current player (TERMINAL
    where finished) and terminated."""
    player, ended, count = np.empty_like(mover), np.empty_like(terminated), 0
    for b in range(len(mover)):
        ended[b] = terminated[b]
        player[b] = TERMINAL if ended[b] else mover[b]
        count += ended[b]
    return count, player, ended


@kernel
def _illegal(by_action, actions, active) -> int:
    """The count of playing rows whose action is not legal by the (A, B) mask (a
    pass along the rows with no branch: numba runs it on many rows at once)."""
    A, bad = by_action.shape[0], 0
    for b in range(len(actions)):
        a = actions[b]
        inside = (a >= 0) & (a < A)
        bad += active[b] & ~(inside & by_action[a if inside else 0, b])
    return bad
