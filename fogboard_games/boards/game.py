"""pyspiel glue for the Fog-of-War boards (SPEC.md sections 0 and 1).

Registers `fogboard_phantom_ttt`, `fogboard_dark_hex` and `fogboard_recon_hex`.
Only translation lives here: actions <-> rules.Match moves, observers, the
review. The rules are in `rules.py`, the encodings in `observer.py`.

Speed notes (see docs/performance.md). OpenSpiel's Python-game clone calls
`new_initial_state()` and then deep-copies every attribute, so the state
keeps exactly one attribute, a `rules.Match` with a fast `__deepcopy__`; a
fresh state shares the game's template match and copies it on first write.
`legal_actions`, `current_player`, `is_terminal`, `is_chance_node` and the
information-state/observation methods are plain Python methods here, which
serves Python callers without a round trip through C++; C++ callers reach
the same code through `_legal_actions` and the observer, and a test checks
that both routes give the same answers.
"""

from __future__ import annotations

import pyspiel

from fogboard_games.boards import observer as obs
from fogboard_games.boards import rules
from fogboard_games.core import registry
from fogboard_games.core.glue import ObservedGame, ObservedState, game_type
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.core.params import Param, ParamSpec

# A plain int: the C++ route converts this return value on every apply_action.
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
OBSTYPES = ("reveal-nothing", "reveal-numturns")


def _common() -> list[Param]:
    """The parameters every board game has."""
    return [
        Param(
            "obstype",
            "reveal-nothing",
            "whether ply movers are public (as OpenSpiel)",
            choices=OBSTYPES,
        ),
        Param(
            "max_plies",
            -1,
            "ply cap; -1 means 2 x cells (get_parameters shows the number)",
            1,
            242,
            extra=(-1,),
        ),
    ]


def _check_sense(p: dict) -> None:
    if not 1 <= p["sense"] <= p["board_size"]:
        raise ValueError(
            f"fogboard_recon_hex: parameter 'sense' must be an int in 1..board_size "
            f"({p['board_size']}), got {p['sense']}"
        )


def _check_cap(p: dict, cells: int) -> None:
    if p["max_plies"] > 2 * cells:
        raise ValueError(
            f"parameter 'max_plies' must be -1 or 1..{2 * cells} (2 x cells), got {p['max_plies']}"
        )


SPECS = {
    "fogboard_phantom_ttt": ParamSpec(
        "fogboard_phantom_ttt",
        [Param("abrupt", False, "a collision ends the turn")] + _common(),
        lambda p: _check_cap(p, 9),
    ),
    "fogboard_dark_hex": ParamSpec(
        "fogboard_dark_hex",
        [
            Param("board_size", 4, "cells per side", 2, 11),
            Param("abrupt", False, "a collision ends the turn"),
        ]
        + _common(),
        lambda p: _check_cap(p, p["board_size"] ** 2),
    ),
    "fogboard_recon_hex": ParamSpec(
        "fogboard_recon_hex",
        [
            Param("board_size", 5, "cells per side", 2, 11),
            Param("sense", 2, "side of the sensed block (1..board_size)", 1, 11),
        ]
        + _common(),
        lambda p: (_check_sense(p), _check_cap(p, p["board_size"] ** 2)),
    ),
}
LONG_NAMES = {
    "fogboard_phantom_ttt": "Fogboard Phantom Tic-Tac-Toe",
    "fogboard_dark_hex": "Fogboard Dark Hex",
    "fogboard_recon_hex": "Fogboard Recon Hex (original variant)",
}


def _game_type(short_name: str) -> pyspiel.GameType:
    return game_type(short_name, LONG_NAMES[short_name], SPECS[short_name].defaults(), chance=False)


class BoardGame(ObservedGame, pyspiel.Game):
    """One Fog-of-War board game, configured by its short name and parameters."""

    short_name = ""

    def __init__(self, params=None):
        spec = SPECS[self.short_name]
        p = spec.resolve(params)
        size = p.get("board_size", 3)
        cells = size * size
        if p["max_plies"] == -1:
            p["max_plies"] = 2 * cells
        kind = "ttt" if self.short_name == "fogboard_phantom_ttt" else "hex"
        sense = p.get("sense", 0)
        abrupt = True if sense else p["abrupt"]
        self.geo = rules.Geometry(kind, size, abrupt, sense, p["max_plies"])
        self.numturns = p["obstype"] == "reveal-numturns"
        decisions_per_ply = 2 if sense else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.geo.num_actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.geo.max_game_plies * decisions_per_ply,
        )
        super().__init__(_game_type(self.short_name), info, p)
        self.resolved_params = p
        self.geo.game = self  # lets states reach their game without crossing into C++
        self._template = rules.Match(self.geo)
        self._template.shared = True  # every fresh state starts from it
        # The default layouts, looked up on every fast-path tensor call.
        self.info_layout = self.layout(INFO_STATE)
        self.obs_layout = self.layout(OBSERVATION)

    def _make_layout(self, key):
        return obs.make_layout(self.geo, self.numturns, key)

    def new_initial_state(self):
        return BoardState(self, self._template)


class BoardState(ObservedState):
    """A Fog-of-War board position. All changing data lives in `self._m`."""

    # ---- fast Python-side queries (same answers as the C++ route) -----------

    def current_player(self) -> int:
        m = self._m
        return TERMINAL if m.ending is not None else m.mover

    def is_terminal(self) -> bool:
        return self._m.ending is not None

    def is_chance_node(self) -> bool:
        return False

    def is_player_node(self) -> bool:
        return self._m.ending is None

    def legal_actions(self, player=None) -> list[int]:
        m = self._m
        if m.ending is not None or (player is not None and player != m.mover):
            return []
        if m.geo.sense and m.sensed is None:
            return list(range(m.geo.cells, m.geo.num_actions))
        return m.legal[m.mover][:]

    def information_state_tensor(self, player=None) -> list[float]:
        m = self._m
        if player != 0 and player != 1:  # the common case skips a call
            player = self._player(player)
        return obs.info_state_tensor(m, m.geo.game.info_layout, player)

    # ---- hooks of core.glue.ObservedState -------------------------------------

    def _game(self) -> BoardGame:
        # get_game() crosses into C++ and back; the geometry knows its game.
        return self._m.geo.game

    def _encode(self, buf, layout, player: int, private: str) -> None:
        obs.encode(buf, layout, self._m, player, private)

    def _describe(self, player: int, key) -> str:
        return obs.describe(self._m, player, key, self._m.geo.game.numturns)

    def _player(self, player) -> int:
        if player is None:
            # No player means the player to move, as on the C++ route
            # (pyspiel.State.information_state_tensor(s) uses CurrentPlayer()).
            # Once the game is over nobody moves: refuse like C++ does rather
            # than answer with the last mover's private view.
            if self._m.ending is not None:
                raise pyspiel.SpielError(
                    "the game is over, so there is no player to move: "
                    "pass the seat whose view you want"
                )
            player = self._m.mover
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        return player

    # ---- moves ------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        m = self._m
        if m.shared:  # writable_match(), inlined: this runs at every move
            m = self._m = m.copy()
        if not m.play(action):
            raise ValueError(self._illegal_message(action))

    def writable_match(self) -> rules.Match:
        """This state's match, copied first if other states share it."""
        if self._m.shared:
            self._m = self._m.copy()
        return self._m

    def _illegal_message(self, action) -> str:
        m = self._m
        if m.ending is not None:
            return f"action {action!r} refused: the game is over ({m.ending})"
        legal = ", ".join(self._action_to_string(m.mover, a) for a in self.legal_actions())
        what = (
            self._action_to_string(m.mover, action)
            if isinstance(action, int) and 0 <= action < m.geo.num_actions
            else "out of range"
        )
        why = "it is the sense step" if m.sensing else "not a legal attempt for this seat"
        return f"illegal action {action!r} ({what}) for seat {m.mover}: {why}; legal: {legal}"

    def _action_to_string(self, player, action) -> str:
        geo = self._m.geo
        if 0 <= action < geo.cells:
            return geo.names[action]
        if geo.cells <= action < geo.num_actions:
            return "sense " + geo.names[geo.anchors[action - geo.cells]]
        raise ValueError(f"action {action} is out of range 0..{geo.num_actions - 1}")

    def string_to_action(self, *args) -> int:
        """Action id of a string like `c3` or `sense b2` (any seat's form)."""
        text = args[-1]
        geo = self._m.geo
        names = geo.action_ids
        key = " ".join(str(text).strip().lower().split())
        if key not in names:
            raise ValueError(
                f"{text!r} is not an action of this game; actions are cells "
                f"a1..{geo.names[-1]}" + (" and 'sense <anchor>'" if geo.sense else "")
            )
        return names[key]

    def returns(self) -> list[float]:
        return self._m.returns()

    def __str__(self) -> str:
        m = self._m
        geo = m.geo
        log = " ".join(f"{obs.SEAT_NAME[p[0]]}:{obs.ply_text(geo, p)}" for p in m.plies)
        return obs.true_ascii(m) + "\nplies: " + (log or "-")

    # ---- research extras ------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler=None):
        from fogboard_games.boards.resample import resample

        return resample(self, player, sampler)

    def finish_as_reviewed(self, review: dict) -> None:
        """Apply a recorded wall-clock stop (the only ending that is not a move)."""
        if review.get("ending") != "wall-clock":
            raise ValueError(
                f"the actions leave the game running and the review's ending is "
                f"{review.get('ending')!r}, not 'wall-clock'"
            )
        self.stop_at_wall_clock()

    def stop_at_wall_clock(self) -> None:
        """End the running game as a play deadline does (`wall-clock`): between
        plies, scored by true distToWin, smaller wins, equal draws."""
        m = self._m
        if m.ending is not None:
            raise ValueError(f"the game is already over ({m.ending}); nothing to stop")
        if m.sensed is not None:
            raise ValueError(
                f"ply {len(m.plies)} is under way (seat {m.mover} has sensed, not attempted); "
                "a wall-clock stop falls between plies"
            )
        # A fresh or cloned state shares its match: settle a copy of its own.
        self.writable_match().settle_by_distance("wall-clock")

    def review(self) -> dict:
        from fogboard_games.boards.review import review

        return review(self)


class PhantomTTTGame(BoardGame):
    short_name = "fogboard_phantom_ttt"


class DarkHexGame(BoardGame):
    short_name = "fogboard_dark_hex"


class ReconHexGame(BoardGame):
    short_name = "fogboard_recon_hex"


for _cls in (PhantomTTTGame, DarkHexGame, ReconHexGame):
    registry.register(_game_type(_cls.short_name), _cls, SPECS[_cls.short_name])

registry.add_preset("phantom-ttt-3", "fogboard_phantom_ttt", {}, "phantom tic-tac-toe, classical")
registry.add_preset("dark-hex-4", "fogboard_dark_hex", {"board_size": 4}, "dark hex 4x4, classical")
registry.add_preset(
    "dark-hex-5", "fogboard_dark_hex", {"board_size": 5, "abrupt": True}, "abrupt dark hex 5x5"
)
registry.add_preset(
    "recon-hex-5",
    "fogboard_recon_hex",
    {"board_size": 5, "sense": 2},
    "recon hex 5x5 (original variant)",
)
registry.add_bench_pair("phantom-ttt-3", "phantom_ttt")
registry.add_bench_pair("dark-hex-4", "dark_hex(board_size=4)")
registry.add_bench_pair("dark-hex-5", "dark_hex(board_size=5,gameversion=adh)")
registry.CONFORMANCE_EXTRAS["fogboard_phantom_ttt"] = [
    {"abrupt": True},
    {"obstype": "reveal-numturns"},
    {"abrupt": True, "obstype": "reveal-numturns", "max_plies": 7},
]
registry.CONFORMANCE_EXTRAS["fogboard_dark_hex"] = [
    {"board_size": 2},
    {"board_size": 3, "abrupt": True, "obstype": "reveal-numturns"},
    {"board_size": 3, "max_plies": 6},
]
registry.CONFORMANCE_EXTRAS["fogboard_recon_hex"] = [
    {"board_size": 3, "sense": 1},
    {"board_size": 3, "sense": 3, "obstype": "reveal-numturns", "max_plies": 8},
]
