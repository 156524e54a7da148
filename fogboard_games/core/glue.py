"""pyspiel glue every fogboard game shares (SPEC.md section 0).

`ObservedGame` caches piece layouts per IIGObservationType and hands out
observers; `ObservedState` answers the observation and helper queries on
the Python side. A ruleset's State keeps its changing data in `self._m`
(a `sharing.SharedOnClone` match, handed to `ObservedState(game, match)`)
and supplies four small hooks:

* `_game()`: its Python game object (reached without crossing into C++);
* `_player(player)`: the seat a query is about, validated (None = mover);
* `_encode(buf, layout, player, private)`: write a layout's pieces;
* `_describe(player, key)`: the string for an observation key.

Plain Python methods here serve Python callers directly; C++ callers reach
the same code through `_legal_actions` and the observer, so both routes
give one answer (the conformance suite checks it for every game).
"""

from __future__ import annotations

import pyspiel

from fogboard_games.core.observer import INFO_STATE, OBSERVATION, PieceObserver, obs_type_key


def game_type(
    short_name: str,
    long_name: str,
    params: dict,
    *,
    chance: bool,
    min_players: int = 2,
    max_players: int = 2,
) -> pyspiel.GameType:
    """The GameType every fogboard game has: sequential, imperfect information,
    zero-sum, terminal rewards, every string and tensor provided."""
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class ObservedGame:
    """Mixin for a pyspiel.Game: layouts per observation key, observers, pickling.

    The game must keep its validated parameters in `resolved_params`.
    """

    def __reduce__(self):
        # pybind pickles a Game as its C++ object and never runs __init__, so
        # an unpickled game had none of its Python attributes. States reach
        # their game through their match, and state.serialize() /
        # pyspiel.deserialize_game_and_state pickle the state's attributes,
        # so every deserialized state failed on its first call. Rebuild the
        # game by loading it again from its resolved parameters instead.
        return (pyspiel.load_game, (self.get_type().short_name, dict(self.resolved_params)))

    def layout(self, key):
        layouts = self.__dict__.setdefault("_layouts", {})
        if key not in layouts:
            layouts[key] = self._make_layout(key)
        return layouts[key]

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(
                f"{self.get_type().short_name}: observer parameters are not supported, got {params}"
            )
        key = obs_type_key(iig_obs_type)
        return PieceObserver(key, self.layout(key))


_STATE_INIT = pyspiel.State.__init__


class ObservedState(pyspiel.State):
    """Base State: observation queries and helpers shared by every ruleset."""

    def __init__(self, game, match):
        # OpenSpiel makes a state (and every clone) through
        # new_initial_state(), so this runs once per clone: one frame, no
        # super() lookup. `match` is the game's template match, shared with
        # every fresh state until the first move copies it; a clone
        # overwrites it with its original's straight away.
        _STATE_INIT(self, game)
        self._m = match

    @property
    def match(self):
        """The ruleset's match behind this state (read it; never write it:
        other states may share it, see core.sharing)."""
        return self._m

    def is_simultaneous_node(self) -> bool:
        return False

    def _legal_actions(self, player) -> list[int]:
        return self.legal_actions(player)

    def legal_actions_mask(self, player=None) -> list[int]:
        mask = [0] * self._game().num_distinct_actions()
        for a in self.legal_actions(player):
            mask[a] = 1
        return mask

    def observation_tensor(self, player=None) -> list[float]:
        player = self._player(player)
        layout = self._game().obs_layout
        buf = [0.0] * layout.size
        self._encode(buf, layout, player, "single")
        return buf

    def information_state_string(self, player=None) -> str:
        return self._describe(self._player(player), INFO_STATE)

    def observation_string(self, player=None) -> str:
        return self._describe(self._player(player), OBSERVATION)
