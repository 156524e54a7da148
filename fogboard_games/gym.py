"""One seat of a fogboard preset as a single-agent Gymnasium environment (docs/gym.md).

`make("dark-hex-5", opponent="random", seat=0, seed=42)`: the agent plays
one seat; bots of one kind (`bots.make_bot`) play every other seat between
its turns, and chance is drawn from the environment's seeded RNG, so a
step runs from one of the agent's decisions to its next one or the end.
The observation is the seat's information-state tensor (or, with
`observation="observation"`, its observation tensor: its view now), in
float32 or uint8 (`dtype`), in a Box whose bounds are the pieces' (flags
0..1, counts up to their rules' most), the action mask is in `info`, and
the reward is what the pyspiel game pays the seat over the step. Every
preset is also registered with Gymnasium
(`gymnasium.make("fogboard_games/dark-hex-5-v0")`).

`make_vec(preset, num_envs, opponent="random", seat=0, seed=...)` is the
same seat in many games at once: a `gymnasium.vector.VectorEnv` stepping
the batched engine (`fogboard_games.batch`) for every game it covers, the
opponents' moves drawn for every row at once, finished rows restarted at
the next step (docs/gym.md#the-vector-environment). Needs gymnasium:
`pip install ".[gym]"` from the checkout.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pyspiel

import fogboard_games
from fogboard_games import batch
from fogboard_games.batch import bots as batch_bots
from fogboard_games.batch.env import FORMS, PROBE_ROWS, check_rows
from fogboard_games.bots import make_bot
from fogboard_games.core.guards import describe, is_number
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.core.registry import GAMES
from fogboard_games.core.sampling import chance_outcome

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        f"fogboard_games.gym needs gymnasium, which is not installed ({error}): "
        'pip install ".[gym]" from the fogboard_games checkout'
    ) from error

__all__ = [
    "DTYPES",
    "FORMS",
    "ILLEGAL_ACTIONS",
    "OPPONENTS",
    "FogboardEnv",
    "FogboardVectorEnv",
    "env_id",
    "make",
    "make_vec",
    "observation_bounds",
    "observation_high",
]

# What an illegal action does (docs/gym.md#illegal-actions): "end" the
# episode with `illegal_reward`, the game untouched (the default: a
# training loop, and check_env's unmasked samples, get a step, not an
# exception), or "raise" a ValueError, the game untouched.
ILLEGAL_ACTIONS = ("end", "raise")
# The observation's dtypes (docs/gym.md#compact-observations): the batched
# engine's names, less its bool, which uint8 matches byte for byte and which
# would not hold the count pieces of most games.
DTYPES = ("float32", "uint8")


def observation_bounds(
    game: pyspiel.Game, observation: str = "information_state"
) -> tuple[np.ndarray, np.ndarray]:
    """(low, high), float32: the bounds of every entry of `game`'s
    information-state tensor (or with `observation="observation"` its
    observation tensor), 0 to 1 for a flag, a count piece's least to its
    most for a count (the game's encoder says which: `Encoder.bounds`, each
    game's page, #tensor-pieces)."""
    return game.setup.encoder.bounds(
        INFO_STATE if observation == "information_state" else OBSERVATION
    )


def observation_high(game: pyspiel.Game, observation: str = "information_state") -> np.ndarray:
    """The upper bound of every entry of `game`'s tensor of the form (`observation_bounds`)."""
    return observation_bounds(game, observation)[1]


def _game(preset) -> pyspiel.Game:
    """The pyspiel game of a preset name, or the game itself if it is one of ours."""
    if isinstance(preset, str):
        return fogboard_games.load(preset)  # ValueError listing the presets if unknown
    if isinstance(preset, pyspiel.Game) and preset.get_type().short_name in GAMES:
        return preset
    raise ValueError(
        f"make() takes a preset name ({', '.join(sorted(fogboard_games.PRESETS))}) or a "
        f"pyspiel game of fogboard_games, got {describe(preset)}"
    )


def _is_int(x) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def check_seed(seed) -> int | None:
    """`seed` as a Python int (gymnasium's seeding takes no numpy int), or
    None; anything else refused before it reseeds or uses up anything."""
    if seed is None:
        return None
    if not _is_int(seed) or seed < 0:
        shown = seed.item() if isinstance(seed, np.generic) else seed  # (numpy's -1 as -1)
        raise ValueError(f"seed must be None or an int >= 0, got {describe(shown)}")
    return int(seed)


def _check_illegal(illegal_action, illegal_reward) -> float:
    """The reward of an illegal action, as a float, after both options are checked."""
    if illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(
            f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {describe(illegal_action)}"
        )
    if not is_number(illegal_reward):  # (no bool, NaN or inf: a reward is paid as given)
        raise ValueError(
            f"illegal_reward must be a number (an int or a finite float), got {describe(illegal_reward)}"
        )
    return float(illegal_reward)


def _observation_space(game: pyspiel.Game, observation, dtype) -> spaces.Box:
    """The Box of the seat's tensor of the form `observation` in `dtype`
    (None: float32), after both are checked (the batched engine's names)."""
    if not isinstance(observation, str) or observation not in FORMS:
        raise ValueError(
            f"observation must be one of {', '.join(FORMS)}, got {describe(observation)}"
        )
    try:
        dt = np.dtype(np.float32 if dtype is None else dtype)
    except (TypeError, ValueError):  # (numpy's words for what it cannot read as a dtype)
        dt = None
    if dt is None or dt.name not in DTYPES:
        raise ValueError(f"dtype must be None or one of {', '.join(DTYPES)}, got {describe(dtype)}")
    low, high = observation_bounds(game, observation)
    return spaces.Box(low.astype(dt), high.astype(dt), low.shape, dt)


class FogboardEnv(gymnasium.Env):
    """One seat of a fogboard game against bots (see the module docstring).

    `game` is the pyspiel game, `seat` the agent's seat, `state` the pyspiel
    state of the episode (None before the first reset; its `review()` once
    the game is over), `opponents` the bots of the other seats.
    """

    # (gymnasium asks every renderer for a frame rate; a text view has none to keep)
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        preset,
        opponent: str = "random",
        seat: int = 0,
        seed: int | None = None,
        *,
        opponent_options: dict | None = None,
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        observation: str = "information_state",
        dtype: str | None = None,
    ):
        self.game = _game(preset)
        n = self.game.num_players()
        if not _is_int(seat) or not 0 <= seat < n:
            raise ValueError(
                f"seat must be an int in 0..{n - 1} (a seat of {self.game}), got {describe(seat)}"
            )
        seed = check_seed(seed)
        self.illegal_reward = _check_illegal(illegal_action, illegal_reward)
        self.observation_space = _observation_space(self.game, observation, dtype)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(self.metadata['render_modes'])}, "
                f"got {describe(render_mode)}"
            )
        if opponent_options is not None and not isinstance(opponent_options, dict):
            raise ValueError(f"opponent_options must be a dict, got {describe(opponent_options)}")
        self.seat = int(seat)
        self.opponent = opponent
        self.opponent_options = dict(opponent_options or {})
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.form, self.dtype = observation, self.observation_space.dtype
        self._num_actions = self.game.num_distinct_actions()
        self.action_space = spaces.Discrete(self._num_actions)
        self.opponents = self._make_opponents(0)  # a bad kind or option is refused here
        self.state = None
        self._pending = 0.0  # paid before the agent's first decision: added to its first step
        self._over = True
        self._first_seed = seed

    def _make_opponents(self, base: int) -> dict[int, Any]:
        return {
            p: make_bot(self.opponent, self.game, p, seed=base + p, **self.opponent_options)
            for p in range(self.game.num_players())
            if p != self.seat
        }

    # ---- the gymnasium interface --------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game, played to the agent's first decision. `seed` reseeds
        the RNG (chance and the opponents' seeds); without it the RNG goes on
        (from `make(..., seed=)` on the first reset)."""
        if options:  # refused before anything changes
            raise ValueError(f"reset takes no options, got {describe(options)}")
        seed = check_seed(seed)
        if seed is None and self._first_seed is not None:
            seed = self._first_seed
        self._first_seed = None
        super().reset(seed=seed)
        # Fresh bots every game, seeded from the RNG: the same seed, the same game.
        self.opponents = self._make_opponents(int(self.np_random.integers(2**31)))
        self.state = self.game.new_initial_state()
        self._over = False
        self._pending = self._advance()
        return self._observation(), self._info()

    def step(self, action):
        if self.state is None or self._over:
            raise RuntimeError("the episode is over (or never started): call reset()")
        if action is None or isinstance(action, (bool, np.bool_)):
            raise TypeError(f"an action is an int action id, got {describe(action)}")
        try:
            action = operator.index(action)  # ints and numpy integers; not 1.5, not "c3"
        except TypeError:
            raise TypeError(f"an action is an int action id, got {describe(action)}") from None
        state = self.state
        reward, self._pending = self._pending, 0.0
        if state.is_terminal():  # the game ended before the agent's first decision
            self._over = True
            return self._observation(), reward, True, False, self._info()
        legal = state.legal_actions()
        if action not in legal:
            why = self._why_illegal(action, legal)
            if self.illegal_action == "raise":
                self._pending = reward
                raise ValueError(why)
            self._over = True
            info = self._info()
            info["illegal_action"] = why
            return self._observation(), reward + self.illegal_reward, True, False, info
        state.apply_action(action)
        reward += self._advance()
        self._over = state.is_terminal()
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> str | None:
        """The agent's seat's information-state string ("ansi"): what it knows."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi'")
            return None
        if self.state is None:
            raise RuntimeError("call reset() before render()")
        return self.state.information_state_string(self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now, as bool (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask().astype(bool)

    # ---- inside --------------------------------------------------------------------

    def _advance(self) -> float:
        """Play chance and the opponents until the agent's decision or the end;
        what the seat was paid on the way, read at every decision and at the
        end, as OpenSpiel's loops read rewards (each node once)."""
        state, seat, paid = self.state, self.seat, 0.0
        while True:
            while state.is_chance_node():
                state.apply_action(chance_outcome(state, self.np_random))
            paid += state.rewards()[seat]
            if state.is_terminal() or state.current_player() == seat:
                return paid
            player = state.current_player()
            state.apply_action(self.opponents[player].step(state))

    def _why_illegal(self, action: int, legal: list[int]) -> str:
        state = self.state
        spelled = ", ".join(f"{a} ({state.action_to_string(self.seat, a)})" for a in legal[:20])
        more = f", ... ({len(legal)} legal actions in all)" if len(legal) > 20 else ""
        return f"seat {self.seat}: action {action} is illegal here; legal: {spelled}{more}"

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self._num_actions, np.int8)
        state = self.state
        if state is not None and not state.is_terminal() and not self._over:
            mask[state.legal_actions()] = 1
        return mask

    def _observation(self) -> np.ndarray:
        if self.form == "observation":
            return np.asarray(self.state.observation_tensor(self.seat), self.dtype)
        return np.asarray(self.state.information_state_tensor(self.seat), self.dtype)

    def _info(self) -> dict:
        return {"action_mask": self._mask()}


def env_id(preset: str) -> str:
    """The Gymnasium id of a preset: `gymnasium.make(env_id("dark-hex-5"), opponent=...)`."""
    return f"fogboard_games/{preset}-v0"


# Every preset is a registered Gymnasium environment too, so that
# gymnasium.make gives it a spec (and its usual wrappers).
for _preset in fogboard_games.PRESETS:
    if env_id(_preset) not in gymnasium.registry:
        gymnasium.register(env_id(_preset), entry_point=FogboardEnv, kwargs={"preset": _preset})


def make(preset, opponent: str = "random", seat: int = 0, seed: int | None = None, **options):
    """The single-agent environment of `seat` in `preset` (a name in
    fogboard_games.PRESETS, or a pyspiel game of ours) against `opponent`
    bots (a kind of `fogboard_games.bots.make_bot`). `seed` seeds the
    first reset; `options`: `opponent_options` (the bots' options),
    `illegal_action` ("end" or "raise"), `illegal_reward` (-1.0),
    `render_mode` ("ansi"), `observation` ("information_state" or
    "observation": the seat's tensor of that form), `dtype` (None: float32,
    or "uint8"). A preset's environment carries its Gymnasium
    spec (as `gymnasium.make` gives it, without its wrappers)."""
    mode = options.get("render_mode")
    if isinstance(preset, str) and env_id(preset) in gymnasium.registry and mode in (None, "ansi"):
        # (another render mode goes to FogboardEnv, which refuses it, by name,
        # before gymnasium.make would warn of it)
        kwargs = dict(opponent=opponent, seat=seat, seed=seed, **options)
        return gymnasium.make(env_id(preset), **kwargs).unwrapped
    return FogboardEnv(preset, opponent, seat, seed, **options)


# ---- the vector environment (docs/gym.md#the-vector-environment) ----------------

# The opponents that play every row at once: the batched bots
# (fogboard_games.batch.bots: random everywhere, heuristic where it
# vectorizes). The other kinds of `bots.make_bot` decide one pyspiel state
# at a time in Python: stepping them row by row would undo the batching.
OPPONENTS = batch_bots.KINDS
# What the memory check of make_vec counts a row (docs/gym.md#memory).
_KEPT = "with the seat's tensor kept and handed out at every step"


class FogboardVectorEnv(VectorEnv):
    """`num_envs` games of one preset, the agent in `seat` of each (see the
    module docstring). `engine` is the batched environment; `engine.to_pyspiel(row)`
    rebuilds row `row`'s game (the one the last step returned) as a pyspiel state.

    Between two of the agent's decisions rows need different numbers of
    opponent moves: each engine ply plays only the rows where an opponent
    is to move (`engine.step(actions, rows=...)`), the others sitting it
    out, until every running row is at the agent's decision or over.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        preset,
        num_envs: int,
        opponent: str = "random",
        seat: int = 0,
        seed: int | None = None,
        *,
        illegal_action: str = "end",
        illegal_reward: float = -1.0,
        observation: str = "information_state",
        dtype: str | None = None,
    ):
        game = _game(preset)
        n = game.num_players()
        if not _is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {describe(num_envs)}")
        if not _is_int(seat) or not 0 <= seat < n:
            raise ValueError(
                f"seat must be an int in 0..{n - 1} (a seat of {game}), got {describe(seat)}"
            )
        seed = check_seed(seed)
        if not isinstance(opponent, str) or opponent not in OPPONENTS:
            raise ValueError(
                f"the vector environment's opponents are one of {', '.join(OPPONENTS)} (batched "
                f"bots, fogboard_games.batch.bots), got {describe(opponent)}; for a bot of "
                "another kind use fogboard_games.gym.make"
            )
        self.illegal_reward = _check_illegal(illegal_action, illegal_reward)
        single = _observation_space(game, observation, dtype)
        if num_envs > 2 * PROBE_ROWS:
            check_rows(
                "num_envs", int(num_envs), self._row_bytes(game, seat, observation, single), _KEPT
            )
        self.engine = batch.make(
            game, batch_size=int(num_envs), seed=seed, observation=observation, dtype=single.dtype
        )
        try:
            self._bot = batch_bots.make_bot(opponent, self.engine)
        except ValueError as error:  # (the heuristics of the boards and Parley)
            raise ValueError(
                f"{error}; fogboard_games.gym.make plays that bot, one game at a time"
            ) from None
        self.game, self.seat, self.opponent = game, int(seat), opponent
        self.illegal_action = illegal_action
        self.num_envs = B = int(num_envs)
        self.form, self.dtype = observation, single.dtype
        A = game.num_distinct_actions()
        self.single_observation_space = single
        self.single_action_space = spaces.Discrete(A)
        self.observation_space = batch_space(self.single_observation_space, B)
        self.action_space = batch_space(self.single_action_space, B)
        self._first_seed = seed
        self._rows = np.arange(B)
        self._state = None  # the engine's last snapshot (every row's mover and legal actions)
        self._paid = np.zeros(B, np.float64)  # paid to the seat since its last step's reward
        self._early = np.zeros(B, bool)  # over before the agent's first decision
        self._autoreset = np.zeros(B, bool)  # reported over: restart at the next step
        self._started = False

    # ---- the gymnasium interface --------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Every row a new game, played to the agent's first decision. `seed`
        reseeds chance and the opponents; without it they go on (from
        `make_vec(..., seed=)` on the first reset)."""
        if options:
            raise ValueError(f"reset takes no options, got {describe(options)}")
        seed = check_seed(seed)
        if seed is None and self._first_seed is not None:
            seed = self._first_seed
        self._first_seed = None
        if seed is not None or self._np_random is None:
            chance, opponents = np.random.SeedSequence(seed).spawn(2)
            self.engine.rng = np.random.default_rng(chance)
            self._np_random = np.random.default_rng(opponents)
            self._np_random_seed = seed
        self._bot.rng = self.np_random  # the opponents' draws and ties (whoever made it)
        everyone = np.ones(self.num_envs, bool)
        self._paid[:] = 0.0
        self._restart(everyone)
        self._started = True
        return self._observation(), self._infos(everyone)

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise TypeError(
                f"step takes one int action id per row, shape ({self.num_envs},); "
                f"got dtype {a.dtype} and shape {a.shape}"
            )
        a = a.astype(np.int64)
        B, A = self.num_envs, self.single_action_space.n
        restart, early = self._autoreset.copy(), self._early & ~self._autoreset
        deciding = ~restart & ~early  # the rows where the agent decides now
        inside = (a >= 0) & (a < A)
        mask = self._state.legal_action_mask
        legal = inside & mask[self._rows, np.where(inside, a, 0)]
        illegal = deciding & ~legal
        if illegal.any():
            row = int(np.flatnonzero(illegal)[0])
            why = self._why_illegal(row, int(a[row]))
            if self.illegal_action == "raise":  # before anything changes
                raise ValueError(why + "; no row was changed")
            deciding &= ~illegal
        # The rows reported over last step restart (their actions are ignored).
        reward = np.zeros(B, np.float64)
        if restart.any():
            self._paid[restart] = 0.0
        if deciding.any():
            self._ply(a, deciding)
        self._advance(illegal | restart)  # (the restarted rows: after their reset)
        if restart.any():
            self._restart(restart)
        # What each reporting row was paid since its last step.
        report = ~restart
        reward[report] = self._paid[report]
        reward[illegal] += self.illegal_reward
        self._paid[report] = 0.0
        terminated = (self.engine.terminated & deciding) | illegal | early
        self._early &= ~early
        self._autoreset = terminated.copy()
        infos = self._infos(~terminated)
        if illegal.any():
            infos["illegal_action"] = illegal
        return (
            self._observation(),
            reward,  # (float64, as SyncVectorEnv's; the engine pays float32)
            terminated,
            np.zeros(B, bool),
            infos,
        )

    # ---- inside --------------------------------------------------------------------

    @staticmethod
    def _row_bytes(game: pyspiel.Game, seat: int, form: str, single: spaces.Box) -> int:
        """Bytes a row takes (`_KEPT`): the engine's with the seat's tensor
        read (`batch.Env.row_bytes`), the observation and the mask a step
        hands out, and this environment's own arrays (two 8-byte, two bool)."""
        # (batch.make picks the engine's class by the game: one row to learn which)
        engine = type(batch.make(game, batch_size=1, observation=form, dtype=single.dtype))
        handed = single.shape[0] * single.dtype.itemsize + game.num_distinct_actions()
        return engine.row_bytes(game, form, single.dtype, seat=int(seat)) + handed + 18

    def _opponent_actions(self, state: batch.State) -> np.ndarray:
        """(B,) int64: the opponents' actions in every row of the engine's
        snapshot `state` (only the rows where an opponent moves are played),
        from the batched bot of `opponent`, for every row at once."""
        return self._bot.actions(state)

    def _restart(self, rows: np.ndarray) -> None:
        """Restart the rows of a bool mask and play them to the agent's decision."""
        engine = self.engine
        self._state = engine.reset(rows)
        self._advance(~rows)
        self._early[rows] = engine.terminated[rows]
        self._autoreset[rows] = False

    def _ply(self, actions: np.ndarray, rows: np.ndarray) -> None:
        """One engine ply in the rows of `rows` (the others sit it out), the
        seat's pay added up (Parley pays rounds during play)."""
        self._state = self.engine.step(actions, rows=rows)
        self._paid += self._state.rewards[:, self.seat]  # (0 in the rows that sat out)

    def _advance(self, waiting: np.ndarray) -> None:
        """Play the opponents in every running row not `waiting` until the agent
        decides or the game is over."""
        while True:
            state = self._state
            opponents = ~waiting & ~state.terminated & (state.current_player != self.seat)
            if not opponents.any():
                return
            self._ply(self._opponent_actions(state), opponents)

    def _observation(self) -> np.ndarray:
        """(B, D): the seat's tensor of the form in every row (a new array)."""
        if self.form == "observation":
            return self.engine.observation_tensor(self.seat)
        return self.engine.information_state_tensor(self.seat)

    def _infos(self, open_rows: np.ndarray) -> dict:
        """The action mask: the seat's legal actions where it decides now, else zeros."""
        state = self._state
        deciding = open_rows & (state.current_player == self.seat)  # (TERMINAL when over)
        return {"action_mask": (state.legal_action_mask & deciding[:, None]).view(np.int8)}

    def _why_illegal(self, row: int, action: int) -> str:
        legal = np.flatnonzero(self._state.legal_action_mask[row]).tolist()
        state = self.engine.to_pyspiel(row)
        spelled = ", ".join(f"{x} ({state.action_to_string(self.seat, x)})" for x in legal[:20])
        more = f", ... ({len(legal)} legal actions in all)" if len(legal) > 20 else ""
        return (
            f"row {row}, seat {self.seat}: action {action} is illegal here; legal: {spelled}{more}"
        )


def make_vec(
    preset,
    num_envs: int,
    opponent: str = "random",
    seat: int = 0,
    seed: int | None = None,
    **options,
) -> FogboardVectorEnv:
    """`num_envs` games of `preset` (a name in fogboard_games.PRESETS, or a
    pyspiel game of ours that `fogboard_games.batch.make` covers), the agent
    in `seat` of each against `opponent` ("random", or "heuristic" where
    fogboard_games.batch.bots has it batched). `options`:
    `illegal_action` ("end" or "raise"), `illegal_reward` (-1.0),
    `observation` ("information_state" or "observation") and `dtype` (None:
    float32, or "uint8") of the observations. A `num_envs` whose rows would
    not fit in the memory available is refused (docs/gym.md#memory)."""
    return FogboardVectorEnv(preset, num_envs, opponent, seat, seed, **options)
