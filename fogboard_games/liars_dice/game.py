"""pyspiel glue for Liar's Dice (SPEC.md sections 0 and 4).

Registers `fogboard_liars_dice`. Only translation lives here: actions <->
rules.Match moves, observers, the review. The rules are in `rules.py`, the
encodings in `observer.py`.

Speed notes, as for the boards: OpenSpiel's Python-game clone calls
`new_initial_state()` and then deep-copies every attribute, so the state
keeps exactly one attribute, a `rules.Match` with a fast `__deepcopy__`; a
fresh state shares the game's template match and copies it on first write.
`legal_actions`, `current_player`, `is_terminal`, `is_chance_node`,
`chance_outcomes` and the information-state/observation methods are plain
Python methods, which serves Python callers without a round trip through
C++; C++ callers reach the same code through `_legal_actions` and the
observer, and a test checks that both routes give the same answers.
"""

from __future__ import annotations

import pyspiel

from fogboard_games.core import registry
from fogboard_games.core.glue import ObservedGame, ObservedState, game_type
from fogboard_games.core.observer import INFO_STATE, OBSERVATION
from fogboard_games.core.params import Param, ParamSpec
from fogboard_games.liars_dice import observer as obs
from fogboard_games.liars_dice import rules
from fogboard_games.liars_dice.observer import encode
from fogboard_games.liars_dice.rules import BIDDING, CHOOSING, OVER, REROLLING

SHORT_NAME = "fogboard_liars_dice"
# Plain ints: the C++ route converts these return values on every apply_action.
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
CHANCE = int(pyspiel.PlayerId.CHANCE)
# Match.mover holds these outside decisions, so current_player reads one attribute.
assert (rules.CHANCE_TURN, rules.GAME_OVER) == (CHANCE, TERMINAL)

SPEC = ParamSpec(
    SHORT_NAME,
    [
        Param("players", 2, "seats", 2, 6),
        Param("numdice", 5, "dice per seat at the start", 1, 5),
        Param("dice_sides", 6, "faces per die", 2, 6),
        Param(
            "wild",
            "one",
            "wild face: 1, the highest face (as OpenSpiel), or none",
            choices=rules.WILDS,
        ),
        Param("prophecy", True, "`prophecy QxF` (exact count) is allowed"),
        Param("prophecy_payout", 1, "what an exact prophecy wins", 1, 5),
        Param("allow_pass", False, "`pass` is allowed"),
        Param("rerolls", 0, "rerolls per seat per round", 0, 3),
        Param(
            "mode",
            "chips",
            "chips: one round, loser pays 1; dice: loser loses a die",
            choices=rules.MODES,
        ),
    ],
)

GAME_TYPE = game_type(
    SHORT_NAME, "Fogboard Liar's Dice", SPEC.defaults(), chance=True, max_players=6
)


class LiarsDiceGame(ObservedGame, pyspiel.Game):
    """Liar's Dice, configured by its parameters."""

    def __init__(self, params=None):
        p = SPEC.resolve(params)
        self.setup = rules.Setup(
            p["players"],
            p["numdice"],
            p["dice_sides"],
            p["wild"],
            p["prophecy"],
            p["prophecy_payout"],
            p["allow_pass"],
            p["rerolls"],
            p["mode"],
        )
        setup = self.setup
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.num_actions,
            max_chance_outcomes=setup.sides,
            num_players=setup.players,
            min_utility=setup.min_utility,
            max_utility=setup.max_utility,
            utility_sum=0.0,
            max_game_length=setup.max_game_length,
        )
        super().__init__(GAME_TYPE, info, p)
        self.resolved_params = p
        setup.game = self  # lets states reach their game without crossing into C++
        self._template = rules.Match(setup)
        self._template.shared = True  # every fresh state starts from it
        # "P1 bid 3x4" per seat and action, for the information-state strings.
        self.action_texts = [
            [obs.action_text(setup, seat, a) for a in range(setup.num_actions)]
            for seat in range(setup.players)
        ]
        self.info_layout = self.layout(INFO_STATE)
        self.obs_layout = self.layout(OBSERVATION)
        # The Python route's tensors (observer.InfoStateView), reached from a match.
        setup.info_state_tensor = obs.InfoStateView(setup, self.info_layout).tensor

    def _make_layout(self, key):
        return obs.make_layout(self.setup, key)

    def new_initial_state(self):
        return LiarsDiceState(self, self._template)


class LiarsDiceState(ObservedState):
    """A Liar's Dice position. All changing data lives in `self._m`."""

    # ---- fast Python-side queries (same answers as the C++ route) -----------

    def current_player(self) -> int:
        return self._m.mover  # a seat, or pyspiel's chance / terminal id

    def is_terminal(self) -> bool:
        return self._m.phase == OVER

    def is_chance_node(self) -> bool:
        return self._m.phase <= REROLLING  # ROLLING or REROLLING

    def is_player_node(self) -> bool:
        phase = self._m.phase
        return phase == BIDDING or phase == CHOOSING

    def chance_outcomes(self) -> list[tuple[int, float]]:
        m = self._m
        if m.phase <= REROLLING:
            return m.setup.chance_outcomes[:]
        return []

    def legal_actions(self, player=None) -> list[int]:
        m = self._m
        if m.phase == BIDDING and (player is None or player == m.mover):
            # Match.bidding_actions' cache, read inline: the hottest query of
            # every search. A miss builds the list there.
            actions = m.setup.legal_lists[m.in_play][2 * m.bid + 2 + (m.holder == m.mover)]
            return (actions or m.bidding_actions())[:]
        if m.phase <= REROLLING:  # chance
            if player is None or player == CHANCE:
                return m.setup.faces[:]
            return []
        if player is not None and player != m.mover:
            return []
        return m.legal_actions()

    def information_state_tensor(self, player=None) -> list[float]:
        m = self._m
        if type(player) is not int or not 0 <= player < m.setup.players:
            player = self._player(player)  # None: the mover; else a clear error
        # A shared match (the template, a clone's) never changes while shared,
        # so its tensor cache is as good as any other.
        return m.setup.info_state_tensor(m, player)

    # ---- hooks of core.glue.ObservedState -------------------------------------

    def _game(self) -> LiarsDiceGame:
        return self._m.setup.game

    def _encode(self, buf, layout, player: int, private: str) -> None:
        encode(buf, layout, self._m, player, private)

    def _describe(self, player: int, key) -> str:
        return obs.describe(self._m, player, key)

    def _player(self, player) -> int:
        m = self._m
        if player is None:
            player = m.mover if self.is_player_node() else -1
        if not isinstance(player, int) or not 0 <= player < m.setup.players:
            raise ValueError(f"player must be a seat 0..{m.setup.players - 1}, got {player!r}")
        return player

    # ---- moves ------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        m = self._m
        if m.phase <= REROLLING:  # a chance node: the hottest case
            if type(action) is not int or not 0 <= action < m.setup.sides:
                raise ValueError(self._illegal_message(action))
            if m.shared:
                m = self._m = m.copy()
            m.roll(action)
            return
        if m.shared:
            m = self._m = m.copy()
        if not m.play(action):
            raise ValueError(self._illegal_message(action))

    def _illegal_message(self, action) -> str:
        m = self._m
        setup = m.setup
        if m.phase == OVER:
            return f"action {action!r} refused: the game is over"
        if self.is_chance_node():
            return (
                f"illegal chance outcome {action!r} for the die of seat {m.roller}: "
                f"legal: roll 1..roll {setup.sides} (ids 0..{setup.sides - 1})"
            )
        try:
            what = setup.action_name(action)
        except (ValueError, TypeError):
            what = "out of range"
        legal = ", ".join(setup.action_name(a) for a in m.legal_actions())
        if m.phase == CHOOSING:
            why = "the seat must choose keep or reroll"
        elif m.bid < 0:
            why = "no standing bid yet: only an opening bid is legal"
        elif m.holder == m.mover:
            why = "every other seat passed: the holder must raise"
        else:
            why = f"the standing bid is {setup.bid_name(m.bid)} by P{m.holder}"
        return f"illegal action {action!r} ({what}) for seat {m.mover}: {why}; legal: {legal}"

    def _action_to_string(self, player, action) -> str:
        setup = self._m.setup
        if player == CHANCE:
            if 0 <= action < setup.sides:
                return f"roll {action + 1}"
            raise ValueError(f"chance outcome {action} is out of range 0..{setup.sides - 1}")
        return setup.action_name(action)

    def string_to_action(self, *args) -> int:
        """Action id of `bid 3x4`, `liar`, `prophecy 3x4`, `pass`, `keep`,
        `reroll`, or chance's `roll 5` (at a chance node)."""
        text = args[-1]
        setup = self._m.setup
        key = " ".join(str(text).strip().lower().split())
        if key.startswith("roll "):
            face = key[5:]
            if face.isdigit() and 1 <= int(face) <= setup.sides:
                return int(face) - 1
            raise ValueError(f"{text!r}: a die shows roll 1..roll {setup.sides}")
        return setup.parse_action(key)

    def returns(self) -> list[float]:
        return self._m.returns()

    def rewards(self) -> list[float]:
        return self._m.returns()

    def __str__(self) -> str:
        m = self._m
        hands = " ".join(f"P{s}:{obs.hand_text(h)}" for s, h in enumerate(m.hands))
        log = " ".join(obs.action_text(m.setup, e[1], e[2]) for e in m.events if e[0] == rules.ACT)
        dice = " ".join(map(str, m.dice))
        return f"round {m.round + 1} dice {dice} hands {hands} | {log or '-'}"

    # ---- research extras ------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler=None):
        from fogboard_games.liars_dice.resample import resample

        return resample(self, player, sampler)

    def review(self) -> dict:
        from fogboard_games.liars_dice.review import review

        return review(self)


registry.register(GAME_TYPE, LiarsDiceGame, SPEC)

registry.add_preset("liars-dice", SHORT_NAME, {}, "2 seats, 5 dice each, 1s wild, prophecy, chips")
registry.add_preset(
    "liars-dice-1",
    SHORT_NAME,
    {"numdice": 1},
    "2 seats, 1 die each, 1s wild, prophecy (small: exact solving)",
)
registry.add_preset(
    "liars-dice-classic",
    SHORT_NAME,
    {"wild": "highest", "prophecy": False},
    "OpenSpiel's liars_dice(numdice=5): highest face wild, no prophecy",
)
registry.add_preset(
    "liars-dice-classic-1",
    SHORT_NAME,
    {"numdice": 1, "wild": "highest", "prophecy": False},
    "OpenSpiel's liars_dice(numdice=1): its game value is -7/258",
)
registry.add_preset(
    "liars-dice-table",
    SHORT_NAME,
    {"players": 4, "mode": "dice", "allow_pass": True, "rerolls": 1},
    "4 seats, 5 dice each, every rule on: pass, one reroll, lose a die per round",
)
registry.add_bench_pair("liars-dice-classic-1", "liars_dice(numdice=1)")
registry.add_bench_pair("liars-dice-classic", "liars_dice(numdice=5)")
registry.CONFORMANCE_EXTRAS[SHORT_NAME] = [
    {"numdice": 1, "dice_sides": 3, "wild": "none", "prophecy_payout": 2},
    {"players": 3, "numdice": 1, "dice_sides": 3, "allow_pass": True},
    {"players": 4, "numdice": 1, "dice_sides": 2, "allow_pass": True, "mode": "dice"},
    {"numdice": 2, "dice_sides": 3, "rerolls": 2, "prophecy_payout": 3, "mode": "dice"},
    {
        "players": 3,
        "numdice": 2,
        "dice_sides": 4,
        "wild": "highest",
        "rerolls": 1,
        "allow_pass": True,
    },
    {"players": 6, "numdice": 1, "dice_sides": 2, "prophecy": False, "mode": "dice"},
]
