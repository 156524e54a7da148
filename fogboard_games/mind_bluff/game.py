"""The Mind Bluff ruleset and its registration (docs/mind_bluff.md).

Registers `fogboard_mind_bluff` with its parameters (docs/mind_bluff.md#parameters):
`start` (30, 2..99), `start_spread` (0, 0..start-2: a secret uniform start
of start-s .. start+s), `first_player` (0, 1, or -1 for a public fair coin)
and `max_eat` (3, 1..3), and the presets `mind-bluff` and
`mind-bluff-tiny`. The rules are in `rules.py`, the encodings in
`observer.py`, the resampler in `resample.py`, the review in `review.py`.
"""

from __future__ import annotations

from fogboard_games.core import registry
from fogboard_games.core.contract import Batched, Ruleset
from fogboard_games.core.params import Bound, Param, ParamSpec
from fogboard_games.mind_bluff import observer, person, resample, review, rules

SHORT_NAME = "fogboard_mind_bluff"


SPEC = ParamSpec(
    SHORT_NAME,
    [
        Param("start", 30, "dango in the pile at the start (the centre of a secret draw)", 2, 99),
        Param(
            "start_spread",
            0,
            "s > 0: the start is a secret uniform draw of start-s..start+s (at most start-2)",
            0,
            97,
            # The lowest secret start must leave a game to play (at least 2 dango).
            bound=Bound(lambda p: p["start"] - 2, "at most start - 2, start={start}"),
        ),
        Param(
            "first_player",
            0,
            "seat moving first: 0 (P1), 1 (P2) or -1 (a public coin)",
            0,
            1,
            extra=(-1,),
        ),
        Param("max_eat", 3, "most dango one eat takes (and most one claim says)", 1, 3),
    ],
)


# The rules in brief, for text seats (fogboard_games.bots.text); docs/mind_bluff.md has them whole.
BRIEF = """\
Mind Bluff: two seats, P1 (seat 0) and P2 (seat 1), eat from a pile of dango whose
count nobody is shown (30 at the start by default; P1 moves first by default).
On your turn you say "all done" or "eat k" (k from 1 to max_eat, 3 by default).
"all done" ends the game: you win if exactly one dango is left, else you lose.
"eat k" with k at least the count left means you ate the last dango: you lose at once.
After any other eat you "claim k", which may be a lie, unless you owe honesty debt: then
only the true claim is legal (forced honest) and it pays one debt back.
The other seat answers "believe" (nothing is shown) or "doubt": the verdict TRUE (the
claim was the eat) adds one debt to the doubter; BLUFF (it was not) adds one debt to the
claimant, and the real eat stays hidden. Then the other seat eats.
Your record shows every claim, answer, verdict and both debts, your own eats as "ate k"
and the other seat's as "eats". The start may be a secret draw around its centre
(start_spread) and the first mover a public coin (first_player -1).
Work out the dango left from the start, your eats and the claims you can trust.
A win scores +1, a loss -1.
"""


# One batched engine and heuristic for the single game and the series.
BATCHED = Batched(
    engine="fogboard_games.mind_bluff.batched:MindBluff",
    bots=(("heuristic", "fogboard_games.mind_bluff.batched_bots:MindBluffBatchBot"),),
)

RULESET = Ruleset(
    short_name=SHORT_NAME,
    long_name="Fogboard Mind Bluff",
    docs="docs/mind_bluff.md",
    params=SPEC,
    setup=rules.Setup,  # built from the parameters by name
    encoder=observer.MindBluffEncoder,
    review=review.review,
    truth_replay=review.truth_replay,
    resample=resample.resample,
    chance=True,
    brief=BRIEF,
    seat_label=rules.seat_label,
    for_person=person.for_person,
    record=person.record,
    verdict=person.verdict,
    batched=BATCHED,
    drawer="fogboard_games.mind_bluff.drawer:BluffDrawer",
)
MindBluffGame = registry.register(RULESET)

registry.add_preset("mind-bluff", SHORT_NAME, {}, "30 dango, P1 first, eat 1..3")
registry.add_preset(
    "mind-bluff-tiny",
    SHORT_NAME,
    {"start": 6, "max_eat": 3},
    "6 dango, P1 first, eat 1..3 (small: exact solving)",
)
registry.add_preset(
    "mind-bluff-9",
    SHORT_NAME,
    {"start": 9, "max_eat": 3},
    "9 dango, P1 first, eat 1..3 (medium: 4.1e6 histories, solved in docs/solving.md)",
)
registry.add_conformance_extras(
    SHORT_NAME,
    [
        {"start": 7, "start_spread": 2, "max_eat": 3},
        {"start": 8, "first_player": -1, "max_eat": 2},
        {"start": 6, "start_spread": 1, "first_player": -1, "max_eat": 2},
        {"start": 5, "first_player": 1, "max_eat": 2},
    ],
)
