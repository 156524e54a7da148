"""Many games advanced together by vectorized numpy (docs/batch.md).

    from fogboard_games import batch
    env = batch.make("dark-hex-5", batch_size=4096, seed=0)
    s = env.reset()                  # every row at its first decision
    s = env.step(actions)            # (B,) ints, one action per row

One `Env` plays `batch_size` independent games of one configured game, one
row per game, with the rules of the registered pyspiel game it was made
from: the same current player, legal actions, information-state tensors
and returns, move for move (tests/test_batch.py checks every step against
pyspiel). Chance (the dice) is drawn inside from a seeded numpy Generator,
so after `reset` every row stands at its first decision; each row keeps
its history of pyspiel action ids, chance outcomes included, so
`env.to_pyspiel(row)` rebuilds the row as a pyspiel state.

The rules live in `boards.py` (phantom tic-tac-toe, dark hex, recon hex)
and `liars_dice.py` (one-round Liar's Dice); this module holds what every
game shares: the State snapshot, the history, the refusal of illegal
actions, and `make`, which says which games are covered.
"""

from __future__ import annotations

import numpy as np
import pyspiel

TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # -4: the current player of a finished row

# The presets `make` accepts by name (each a registered preset of the package).
COVERED_PRESETS = (
    "phantom-ttt-3",
    "dark-hex-4",
    "dark-hex-5",
    "recon-hex-5",
    "liars-dice",
    "liars-dice-1",
    "liars-dice-classic",
    "liars-dice-classic-1",
)
COVERED = (
    "fogboard_phantom_ttt (any parameters); fogboard_dark_hex and fogboard_recon_hex "
    "with board_size 2..8 (any other parameters); fogboard_liars_dice with mode=chips "
    "and rerolls=0 (one round; any players, numdice, dice_sides, wild, prophecy, "
    "prophecy_payout, allow_pass)"
)


class State:
    """One snapshot of every row, as numpy arrays (row b is game b).

    current_player     (B,) int64: the seat to move; TERMINAL (-4) in finished rows
    legal_action_mask  (B, A) bool: the mover's legal actions; all False when finished
    observation        (B, D) float32: the mover's information-state tensor, zeros
                       in finished rows; computed when first read
    rewards            (B, P) float32: what the step that made this state paid each seat
    terminated         (B,) bool

    The observation is made on first access, from the environment as it is
    when this state is current: read it before the next `step` or `reset`
    (once read it is kept). A snapshot's arrays are its own: later steps
    never change them.
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
            self._observation = self._env._mover_tensor()
        return self._observation


class Env:
    """What every batched game shares (a subclass supplies the rules).

    A subclass sets `num_players`, `num_actions`, `tensor_size`, `max_history`
    and `mover` (B,) int64 (a seat in every row: finished rows are told by
    `terminated`), and implements `_restart(rows)` (rows: an int
    index array; chance is drawn there and logged with `_log`), `_legal_mask()`, `_start_mask()` (the legal actions at a game's start),
    `_check(rows, actions)` (a bool per row: legal), `_apply(rows, actions)`
    (returns (rows, returns) of the rows that finished) and `_tensors()`
    (every seat's tensor, (B, P, D) uint8, brought up to date).
    """

    num_players: int
    num_actions: int
    tensor_size: int
    max_history: int

    def __init__(self, game: pyspiel.Game, batch_size: int, seed):
        if not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        self.game = game
        self.batch_size = B = int(batch_size)
        self.rng = np.random.default_rng(seed)
        self.history = np.zeros((B, self.max_history), np.int16)
        self.history_len = np.zeros(B, np.int64)
        self.terminated = np.zeros(B, bool)
        self.rows = np.arange(B)
        self._stamp = 0  # bumped at every step and reset (stale lazy observations)
        self._state: State | None = None

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
            index = np.flatnonzero(mask)
        if len(index):
            self.history_len[index] = 0
            self.terminated[index] = False
            self._restart(index)
        self._stamp += 1
        rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        last = self._state
        if rows is None or last is None or last._stamp != self._stamp - 1:
            self._state = self._snapshot(rewards)
        else:
            # Only the restarted rows changed: patch them into the last snapshot's
            # arrays (copies) rather than rebuild every row.
            player = last.current_player.copy()
            player[index] = 0
            legal = last.legal_action_mask.copy(order="K")
            legal[index] = self._start_mask()
            terminated = last.terminated.copy()
            terminated[index] = False
            self._state = State(self, player, legal, rewards, terminated)
        return self._state

    def step(self, actions) -> State:
        """One action per row; finished rows ignore theirs (and pay nothing).

        An illegal action in any running row raises ValueError naming the
        row, the action and the legal ones, and changes no row.
        """
        a = np.asarray(actions)
        if a.shape != (self.batch_size,) or not (
            np.issubdtype(a.dtype, np.integer) or a.dtype == bool
        ):
            raise ValueError(
                f"step takes one integer action per row, shape ({self.batch_size},); "
                f"got dtype {a.dtype} and shape {a.shape}"
            )
        a = a.astype(np.int64)
        running = ~self.terminated
        rows = self.rows if running.all() else np.flatnonzero(running)
        acts = a if len(rows) == self.batch_size else a[rows]
        ok = self._check(rows, acts)
        if not ok.all():
            self._refuse(rows, acts, ok)
        sel = slice(None) if len(rows) == self.batch_size else rows
        h = self.history_len[sel]
        self.history.reshape(-1)[rows * self.max_history + h] = acts
        self.history_len[sel] = h + 1
        done, returns = self._apply(rows, acts)
        rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        if len(done):
            rewards[done] = returns
            self.terminated[done] = True
        self._stamp += 1
        self._state = self._snapshot(rewards)
        return self._state

    def information_state_tensor(self, player: int) -> np.ndarray:
        """(B, D) float32: seat `player`'s information-state tensor in every row."""
        if not isinstance(player, (int, np.integer)) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be a seat 0..{self.num_players - 1}, got {player!r}")
        return self._tensors()[:, int(player)].astype(np.float32)

    def to_pyspiel(self, row: int) -> pyspiel.State:
        """The registered pyspiel game's state with row `row`'s history (chance included)."""
        if not isinstance(row, (int, np.integer)) or not 0 <= row < self.batch_size:
            raise ValueError(f"row must be an int in 0..{self.batch_size - 1}, got {row!r}")
        state = self.game.new_initial_state()
        for action in self.history[row, : self.history_len[row]]:
            state.apply_action(int(action))
        return state

    def history_of(self, row: int) -> list[int]:
        """Row `row`'s pyspiel action ids so far, chance outcomes included."""
        return self.history[row, : self.history_len[row]].tolist()

    def memory_per_row(self) -> int:
        """Bytes of numpy arrays per row (every array of the environment)."""
        total = sum(v.nbytes for v in vars(self).values() if isinstance(v, np.ndarray))
        return total // self.batch_size

    # ---- shared machinery -----------------------------------------------------

    def _log(self, rows: np.ndarray, outcomes: np.ndarray) -> None:
        """Append chance outcomes (rows, k) to the rows' histories."""
        h = self.history_len[rows]
        k = outcomes.shape[1]
        cols = h[:, None] + np.arange(k)
        self.history[rows[:, None], cols] = outcomes
        self.history_len[rows] = h + k

    def _snapshot(self, rewards: np.ndarray) -> State:
        player = np.where(self.terminated, TERMINAL, self.mover)
        return State(self, player, self._legal_mask(), rewards, self.terminated.copy())

    def _mover_tensor(self) -> np.ndarray:
        tensors = self._tensors()
        seat = np.where(self.terminated, 0, self.mover)
        rows = tensors.reshape(-1, self.tensor_size).take(self.rows * self.num_players + seat, 0)
        if self.terminated.any():
            rows[self.terminated] = 0
        return rows.astype(np.float32)

    def _refuse(self, rows: np.ndarray, acts: np.ndarray, ok: np.ndarray) -> None:
        i = int(np.flatnonzero(~ok)[0])
        row, action = int(rows[i]), int(acts[i])
        legal = np.flatnonzero(self._legal_mask()[row]).tolist()
        seat = int(self.mover[row])
        count = int((~ok).sum())
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

    def _start_mask(self) -> np.ndarray:
        raise NotImplementedError

    def _check(self, rows: np.ndarray, acts: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _apply(self, rows: np.ndarray, acts: np.ndarray):
        raise NotImplementedError

    def _tensors(self) -> np.ndarray:
        raise NotImplementedError


def make(game, batch_size: int = 1024, seed=None) -> Env:
    """A batched environment of a covered preset name or loaded pyspiel game.

    `game` is a preset name ("dark-hex-5"), a game string
    ("fogboard_dark_hex(board_size=3)") or a pyspiel game of this package
    with parameters in the covered family (`COVERED`); anything else is
    refused with a ValueError saying what is covered.
    """
    import fogboard_games
    from fogboard_games.batch import boards, liars_dice

    if isinstance(game, str):
        name = game
        if name in COVERED_PRESETS:
            game = fogboard_games.load(name)
        elif name.startswith("fogboard_"):
            game = pyspiel.load_game(name)
        elif name in fogboard_games.PRESETS:
            raise ValueError(
                f"preset {name!r} is not covered by fogboard_games.batch; covered presets: "
                f"{', '.join(COVERED_PRESETS)} (and games of {COVERED})"
            )
        else:
            raise ValueError(
                f"unknown preset {name!r}; covered presets: {', '.join(COVERED_PRESETS)}"
            )
    if not isinstance(game, pyspiel.Game):
        raise ValueError(f"make takes a preset name or a pyspiel game, got {type(game).__name__}")
    short = game.get_type().short_name
    params = game.get_parameters()
    refusal = None
    if short in ("fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_recon_hex"):
        if params.get("board_size", 3) > boards.MAX_SIZE:
            refusal = f"board_size {params['board_size']} (at most {boards.MAX_SIZE})"
        else:
            return boards.Boards(game, batch_size, seed)
    elif short == "fogboard_liars_dice":
        if params["mode"] != "chips" or params["rerolls"] != 0:
            refusal = f"mode={params['mode']}, rerolls={params['rerolls']}"
        else:
            return liars_dice.LiarsDice(game, batch_size, seed)
    else:
        refusal = f"game {short}"
    raise ValueError(
        f"{game} is not covered by fogboard_games.batch ({refusal}); covered: {COVERED}"
    )


__all__ = ["COVERED", "COVERED_PRESETS", "Env", "State", "TERMINAL", "make"]
