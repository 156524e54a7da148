"""The Liar's Dice ruleset and its registration (docs/liars_dice.md).

Registers `fogboard_liars_dice`: its parameters, and the parts core.glue
makes into a pyspiel game. The rules are in `rules.py`, the encodings in
`observer.py`, the resampler in `resample.py`, the review in `review.py`,
the one-round game tree solve.Tree lays out in `tree.py`.
"""

from __future__ import annotations

from fogboard_games.core import registry
from fogboard_games.core.contract import Batched, Ruleset
from fogboard_games.core.params import Param, ParamSpec
from fogboard_games.liars_dice import observer, person, resample, review, rules, tree

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


# The rules in brief, for text seats (fogboard_games.bots.text); docs/liars_dice.md has them whole.
BRIEF = """\
Liar's Dice (by default 2 seats, 5 six-sided dice each, 1s wild, one round for a chip).
Every seat's dice are rolled in secret; you see only your own hand. Seats are numbered
0, 1, ...; the record writes seat p as Pp. Seat 0 opens round 1; the turn goes round.
"bid QxF" claims at least Q of all dice in play count as face F. The first bid may be
any bid; every later bid must raise: a higher quantity, or the same quantity and a
higher face. A die counts for F if it shows F or the wild face (1 by default), but a bid
on the wild face counts only the dice showing it.
"liar" (anyone but the holder of the standing bid) ends the round: all dice are shown;
count >= Q and the holder wins, otherwise the caller wins.
"prophecy QxF" (if allowed; not by the holder, and QxF must raise the standing bid) ends
the round: exactly Q and the prophet wins (its payout), any other count and it loses.
"pass" (if allowed) keeps the standing bid and hands the turn on; the holder may not
pass, and when all others have passed the holder must raise.
"keep" / "reroll" (if allowed) come before the bidding: a reroll rolls your whole hand
again in secret; that you rerolled is public.
Chips mode (the default): one round, the loser pays the winner 1 chip (an exact prophecy
pays its payout). Dice mode: each round's loser loses a die and opens the next round;
the last seat with dice scores +1, every other seat -1/(seats - 1).
"""


RULESET = Ruleset(
    short_name=SHORT_NAME,
    long_name="Fogboard Liar's Dice",
    docs="docs/liars_dice.md",
    params=SPEC,
    setup=rules.Setup,  # built from the parameters by name
    encoder=observer.LiarsDiceEncoder,
    review=review.review,
    truth_replay=review.truth_replay,
    resample=resample.resample,
    chance=True,
    max_players=6,
    brief=BRIEF,
    seat_label=person.seat_label,
    for_person=person.for_person,
    record=person.record,
    verdict=person.verdict,
    tree_arrays=tree.tree_arrays,
    batched=Batched(
        engine="fogboard_games.liars_dice.batched:LiarsDice",
        covers="any parameters (players, numdice, dice_sides, wild, prophecy, "
        "prophecy_payout, allow_pass, rerolls, mode chips or dice)",
        bots=(("heuristic", "fogboard_games.liars_dice.batched_bots:LiarsDiceBatchBot"),),
    ),
    drawer="fogboard_games.liars_dice.drawer:DiceDrawer",
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
registry.add_preset(
    "liars-dice-2x3",
    SHORT_NAME,
    {"numdice": 2, "dice_sides": 3},
    "2 seats, 2 three-sided dice each, 1s wild, prophecy (medium: solved in docs/solving.md)",
)
registry.add_bench_pair("liars-dice-classic-1", "liars_dice(numdice=1)")
registry.add_bench_pair("liars-dice-classic", "liars_dice(numdice=5)")
registry.add_conformance_extras(
    SHORT_NAME,
    [
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
    ],
)
