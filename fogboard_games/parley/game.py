"""The Parley ruleset and its registration (docs/parley.md).

Registers `fogboard_parley` with its parameters (docs/parley.md#parameters):
`players` (5, 3..8), `hp` (2, 1..9), `rounds` (3, 1..10), `passes` (3,
0..9), `survivors` (1, 1..players-1), `talk` (true), `max_reactions` (2,
0..7) and `hip_limit` (40, 0..100), and the presets `parley` and
`parley-tiny`. Parley is general-sum for 3 to 8 players and pays each
round's points as rewards. The rules are in `rules.py`, the encodings in
`observer.py`, the resampler in `resample.py`, the review in `review.py`.
"""

from __future__ import annotations

from fogboard_games.core import registry
from fogboard_games.core.contract import Batched, Ruleset
from fogboard_games.core.params import Bound, Param, ParamSpec
from fogboard_games.parley import observer, person, resample, review, rules

SHORT_NAME = "fogboard_parley"


SPEC = ParamSpec(
    SHORT_NAME,
    [
        Param("players", 5, "cogs at the table", 3, 8),
        Param("hp", 2, "health of every cog at the start of a round", 1, 9),
        Param("rounds", 3, "rounds in a match", 1, 10),
        Param("passes", 3, "passes each cog may make per round", 0, 9),
        Param(
            "survivors",
            1,
            "cogs left standing when a round ends (at most players-1)",
            1,
            7,
            # A round ends when `survivors` cogs are left: at least one cog must go OUT.
            bound=Bound(lambda p: p["players"] - 1, "fewer than players={players}"),
        ),
        Param("talk", True, "IT says a line before it acts, and others react"),
        Param("max_reactions", 2, "most reactions after a shot or pass (with talk)", 0, 7),
        Param("hip_limit", 40, "missed shots in a round after which hip-shots are over", 0, 100),
    ],
)


# The rules in brief, for text seats (fogboard_games.bots.text); docs/parley.md has them whole.
# Cogs have anonymous names only (C0, C1, ...), so the brief names no one else.
BRIEF = """\
Parley: cogs C0, C1, ... (5 by default) sit around a table with one paintgun; a match is
several rounds (3 by default). Each round every cog starts with 2 hp and 3 passes (by
default) and is dealt a secret FRIEND and a secret ENEMY, two different other cogs; you
see only your own cards. Then chance wakes one cog up as IT, holding the gun.
IT first says one public line (if talk is on): "silent", "accuse Cj" or "vouch Cj".
Lines change nothing in the rules.
Then IT acts: "shoot Cj head" (always hits), "shoot Cj hip" (hits one time in three) or
"pass" (a few per round). The aim is secret: the table sees the target and the result.
A hit costs the target 1 hp; at 0 hp it is OUT for the round and IT keeps the gun.
Otherwise, hit or miss, the target becomes IT. After a pass IT keeps the gun.
After a shot or pass, a few other living cogs (2 by default) react with one line each.
After enough missed shots in a round (40 by default) hip-shots are over for the round.
The round ends when one cog is left standing (by default). Points for the round: 3 to
each cog still standing, 1 to each cog whose FRIEND stands, and 1 to a cog whose shot
put its ENEMY OUT. Your score is your points over all rounds; no card is ever shown.
"""


RULESET = Ruleset(
    short_name=SHORT_NAME,
    long_name="Fogboard Parley",
    docs="docs/parley.md",
    params=SPEC,
    setup=rules.Setup,  # built from the parameters by name
    encoder=observer.ParleyEncoder,
    review=review.review,
    truth_replay=review.truth_replay,
    resample=resample.resample,
    utility="general-sum",
    reward_model="rewards",
    chance=True,
    min_players=3,
    max_players=8,
    brief=BRIEF,
    # The cogs carry their anonymous names and no other: a prompt says only C2.
    seat_label=lambda p: f"C{p}",
    for_person=person.for_person,
    record=person.record,
    verdict=person.verdict,
    # A spectator sees every card but no aim (docs/parley.md#the-spectator).
    spectator=observer.spectator,
    batched=Batched(
        engine="fogboard_games.parley.batched:Parley",
        not_vectorized="its view is every cog's hp, its cards and the lines said this round, "
        "with seeded passes and tie-breaks",
    ),
    drawer="fogboard_games.parley.drawer:TableDrawer",
)
ParleyGame = registry.register(RULESET)

TINY = {"players": 3, "hp": 2, "rounds": 1, "passes": 0, "talk": False, "hip_limit": 1}
registry.add_preset("parley", SHORT_NAME, {}, "5 cogs, 2 hp, 3 rounds, 3 passes, talk")
registry.add_preset(
    "parley-tiny", SHORT_NAME, TINY, "3 cogs, 2 hp, 1 round, no passes or talk (exact solving)"
)
registry.add_preset(
    "parley-3-hp3",
    SHORT_NAME,
    {**TINY, "hp": 3},
    "3 cogs, 3 hp, 1 round, no passes or talk (medium: solved in docs/solving.md)",
)
registry.add_conformance_extras(
    SHORT_NAME,
    [
        {"players": 4, "hp": 1, "rounds": 2, "passes": 1, "hip_limit": 2},
        {"players": 8, "hp": 1, "rounds": 1, "passes": 0, "max_reactions": 3, "hip_limit": 3},
        {"players": 4, "rounds": 2, "talk": False, "hip_limit": 3},
        {"players": 5, "survivors": 2, "rounds": 2, "passes": 1, "hip_limit": 4},
        {"players": 3, "hp": 3, "rounds": 2, "survivors": 2, "max_reactions": 0, "hip_limit": 0},
    ],
)
