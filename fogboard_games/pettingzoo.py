"""Every fogboard preset as a PettingZoo AEC environment with action masks (docs/pettingzoo.md).

`env("dark-hex-5", seed=42)` gives agents `player_0` .. `player_{n-1}`
observing their information-state tensors and an action mask; chance is
sampled inside, so no chance node reaches an agent. It is our own thin
adapter, not shimmy's, which reloads our games without their parameters.
Needs pettingzoo: `pip install ".[pettingzoo]"` from the checkout; the
module imports the real package absolutely, so it never shadows it.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pyspiel

import fogboard_games
from fogboard_games.core.registry import GAMES
from fogboard_games.core.sampling import chance_outcome

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as error:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "fogboard_games.pettingzoo needs pettingzoo and gymnasium, which are not "
        f'installed ({error}): pip install ".[pettingzoo]" from the fogboard_games checkout'
    ) from error

# (after the check above: fogboard_games.gym needs gymnasium, which the extra brings)
from fogboard_games.gym import check_seed  # noqa: E402

__all__ = ["FogboardAECEnv", "env", "raw_env"]


def _game(preset) -> pyspiel.Game:
    """The pyspiel game of a preset name, or the game itself if it is one of ours."""
    if isinstance(preset, str):
        return fogboard_games.load(preset)  # ValueError listing the presets if unknown
    if isinstance(preset, pyspiel.Game):
        short_name = preset.get_type().short_name
        if short_name in GAMES:
            return preset
        raise ValueError(
            f"{short_name!r} is not a fogboard game; pass a preset name "
            f"({', '.join(sorted(fogboard_games.PRESETS))}) or a game loaded from one of "
            f"{', '.join(sorted(GAMES))}"
        )
    raise TypeError(
        f"env() takes a preset name or a pyspiel game of fogboard_games, got {preset!r}"
    )


class FogboardAECEnv(AECEnv):
    """A fogboard pyspiel game as a PettingZoo AEC environment (see the module docstring).

    `game` is the pyspiel game, `game_state` the pyspiel state of the game
    being played (None before the first reset), `preset` the preset name
    when the environment was made from one.
    """

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "fogboard_games_v0",
        "is_parallelizable": False,
    }

    def __init__(self, preset, render_mode: str | None = None, seed: int | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be None or one of {self.metadata['render_modes']}, "
                f"got {render_mode!r}"
            )
        self.preset = preset if isinstance(preset, str) else None
        self.game = _game(preset)
        self.render_mode = render_mode
        n = self.game.num_players()
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._num_actions = self.game.num_distinct_actions()
        size = self.game.information_state_tensor_size()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self.np_random, self.np_random_seed = seeding.np_random(check_seed(seed))
        self.game_state = None
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. `seed` reseeds the chance RNG; without it the RNG
        goes on from where it was (from `env(..., seed=)` on the first reset)."""
        seed = check_seed(seed)  # (a bad seed is refused before anything changes)
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.game_state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self._skip_agent_selection = None
        self._advance()  # deals, rolls: anything chance does before the first decision
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Play chance nodes until a decision or the end, then pay rewards,
        mark the end and pick the agent to move."""
        state = self.game_state
        while state.is_chance_node():
            state.apply_action(chance_outcome(state, self.np_random))
        # Our games show a step's rewards until the next decision (Parley
        # keeps a round's points through the next deal's chance nodes), as
        # OpenSpiel's own loops read them here.
        paid = state.rewards()
        self.rewards = {agent: float(paid[self._seat[agent]]) for agent in self.agents}
        self._accumulate_rewards()
        if state.is_terminal():
            self.terminations = {agent: True for agent in self.agents}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]

    def step(self, action) -> None:
        """Play `action` (a pyspiel action id: int or numpy integer) for the
        agent to move; a finished agent steps with None and leaves `agents`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # ValueError unless action is None
            return
        state = self.game_state
        if isinstance(action, (bool, np.bool_)) or action is None:
            raise TypeError(f"{agent}: an action is an int action id, got {action!r}")
        try:
            action = operator.index(action)  # ints and numpy integers; not 1.5, not "c3"
        except TypeError:
            raise TypeError(f"{agent}: an action is an int action id, got {action!r}") from None
        legal = state.legal_actions()
        if action not in legal:
            seat = self._seat[agent]
            spelled = ", ".join(f"{a} ({state.action_to_string(seat, a)})" for a in legal[:20])
            more = f", ... ({len(legal)} legal actions in all)" if len(legal) > 20 else ""
            raise ValueError(f"{agent}: action {action} is illegal here; legal: {spelled}{more}")
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(action)
        self._advance()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent) -> dict[str, Any]:
        """The agent's information-state tensor and action mask, now."""
        seat = self._seat[agent]
        state = self.game_state
        mask = np.zeros(self._num_actions, dtype=np.int8)
        if not state.is_terminal() and state.current_player() == seat:
            mask[state.legal_actions()] = 1
        return {
            "observation": np.asarray(state.information_state_tensor(seat), dtype=np.float32),
            "action_mask": mask,
        }

    def render(self) -> str | None:
        """The whole pyspiel state, hidden information included (a debugging
        view, not any seat's): printed for "human", returned for "ansi"."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode: pass render_mode='human' or 'ansi'"
            )
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        text = str(self.game_state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


raw_env = FogboardAECEnv


def env(preset, render_mode: str | None = None, seed: int | None = None):
    """The PettingZoo AEC environment of `preset` (a name in
    fogboard_games.PRESETS, or a pyspiel game of ours), wrapped in
    PettingZoo's OrderEnforcingWrapper (clear errors for a step before
    reset); `.unwrapped` is the FogboardAECEnv. `seed` seeds the chance
    RNG for the first reset (reset(seed=...) reseeds it)."""
    return OrderEnforcingWrapper(FogboardAECEnv(preset, render_mode=render_mode, seed=seed))
