"""The Liar's Dice ruleset and its registration (docs/liars_dice.md).

Registers `fogboard_liars_dice`: its parameters, and the parts core.glue
makes into a pyspiel game. The rules are in `rules.py`, the encodings in
`observer.py`, the resampler in `resample.py`, the review in `review.py`.
"""

from __future__ import annotations

from fogboard_games.core import registry
from fogboard_games.core.contract import Ruleset
from fogboard_games.core.params import Param, ParamSpec
from fogboard_games.liars_dice import observer, resample, review, rules

SHORT_NAME = "fogboard_liars_dice"

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


def setup(p: dict) -> rules.Setup:
    return rules.Setup(
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


RULESET = Ruleset(
    short_name=SHORT_NAME,
    long_name="Fogboard Liar's Dice",
    docs="docs/liars_dice.md",
    params=SPEC,
    setup=setup,
    encoder=observer.LiarsDiceEncoder,
    review=review.review,
    resample=resample.resample,
    chance=True,
    max_players=6,
)
LiarsDiceGame = registry.register(RULESET)

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
