"""Parley's spectator and the winners in its review (docs/parley.md#the-spectator,
docs/parley.md#the-winner): a spectator sees every card and no aim; a
review states each round's winners and the match's, and the loader refuses
a review whose winners the rules do not give."""

from __future__ import annotations

import json
import random
import re

import pyspiel
import pytest

import fogboard_games
from fogboard_games.core.review import ReviewError
from fogboard_games.core.testing import legal_names as names
from fogboard_games.parley import observer, rules

SHORT = "fogboard_parley"
# Two rounds, talk, hip-shots allowed: every kind of fact a spectator might see.
GAME = {"players": 4, "hp": 2, "rounds": 2, "passes": 1, "max_reactions": 2, "hip_limit": 4}
PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)
HEADER_CARDS = re.compile(r"C(\d+) friend C(\d+) enemy C(\d+)")


def play(where, moves):
    state = where.new_initial_state() if isinstance(where, pyspiel.Game) else where
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def deals(*cards):
    return [f"deal C{c}: friend C{f} enemy C{e}" for c, (f, e) in enumerate(cards)]


def random_match(game, seed: int) -> list[str]:
    """The action strings of a whole random match."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, odds)[0]
        else:
            action = rng.choice(state.legal_actions())
        out.append(state.action_to_string(state.current_player(), action))
        state.apply_action(action)
    return out


def spectator(state) -> str:
    return state.get_game().ruleset.spectator(state.truth)


def without_cards(text: str) -> str:
    """A spectator string with the cards taken out of its round headers."""
    parts = text.split(" | ")
    return " | ".join(re.sub(r"^(R\d+) C\d+ friend .*", r"\1", p) for p in parts)


# ---- the spectator ------------------------------------------------------------------------


def test_spectator_is_the_public_view_plus_every_card_at_every_step():
    game = pyspiel.load_game(SHORT, GAME)
    public = game.make_py_observer(PUBLIC)
    for seed in range(6):
        state = game.new_initial_state()
        for text in random_match(game, seed):
            seen = spectator(state)
            assert without_cards(seen) == public.string_from(state, 0), seen
            headers = [p for p in seen.split(" | ") if re.match(r"R\d+", p)]
            assert len(headers) == len(state.truth.deals)
            for header, dealt in zip(headers, state.truth.deals):
                shown = [tuple(map(int, c)) for c in HEADER_CARDS.findall(header)]
                assert shown == [(c, f, e) for c, (f, e) in enumerate(dealt)], header
            assert " head" not in seen and " hip" not in seen and "pending" not in seen
            play(state, [text])


def aim_twins(game, actions):
    """Play `actions` and, beside them, the same match with each hit's aim
    swapped (head for a hip-shot that hits, and back) wherever the rules
    allow; yields both states after every step, and the swaps made."""
    a, b = game.new_initial_state(), game.new_initial_state()
    swaps, i = 0, 0
    while i < len(actions):
        text = actions[i]
        shot = re.fullmatch(r"shoot (C\d+) (head|hip)", text)
        if shot and shot[2] == "head" and f"shoot {shot[1]} hip" in names(b):
            play(a, [text])
            play(b, [f"shoot {shot[1]} hip", "hit"])
            swaps, i = swaps + 1, i + 1
        elif shot and shot[2] == "hip" and actions[i + 1] == "hit":
            play(a, [text, "hit"])
            play(b, [f"shoot {shot[1]} head"])
            swaps, i = swaps + 1, i + 2
        else:
            play(a, [text])
            play(b, [text])
            i += 1
        yield a, b, swaps


def test_spectator_never_changes_with_an_aim():
    game = pyspiel.load_game(SHORT, GAME)
    swapped = 0
    for seed in range(6):
        swaps = 0
        for a, b, swaps in aim_twins(game, random_match(game, seed)):  # noqa: B007 (read after)
            assert spectator(a) == spectator(b)
        assert a.is_terminal() and b.is_terminal()
        swapped += swaps
        if swaps:
            assert str(a) != str(b)  # the truth shows the aims: the twins differ
    assert swapped > 10


def test_spectator_changes_with_every_card():
    game = pyspiel.load_game(SHORT, GAME)
    actions = random_match(game, 11)
    base = game.new_initial_state()
    steps = [spectator(base)]
    for text in actions:
        steps.append(spectator(play(base, [text])))
    changed = 0
    for r in range(GAME["rounds"]):
        for c in range(GAME["players"]):
            at = [i for i, t in enumerate(actions) if t.startswith(f"deal C{c}:")][r]
            f, e = map(int, re.findall(r"C(\d+)", actions[at])[1:])
            others = [x for x in range(GAME["players"]) if x != c]
            other = next((x, y) for x in others for y in others if x != y and (x, y) != (f, e))
            twin_actions = list(actions)
            twin_actions[at] = f"deal C{c}: friend C{other[0]} enemy C{other[1]}"
            twin = game.new_initial_state()
            for i, text in enumerate(twin_actions):
                play(twin, [text])
                if i >= at:  # from that deal on, the spectator sees the other card
                    assert spectator(twin) != steps[i + 1], (r, c, i)
            changed += 1
    assert changed == GAME["rounds"] * GAME["players"]


def test_a_hip_shot_waiting_for_its_result_looks_like_it_to_act():
    game = fogboard_games.load("parley-tiny")
    before = play(game, deals((1, 2), (0, 2), (1, 0)) + ["IT C0"])
    aimed = play(before.clone(), ["shoot C1 hip"])
    assert aimed.is_chance_node() and spectator(aimed) == spectator(before)
    assert spectator(before).endswith("| IT C0 | C0 to act")


def test_spectator_from_the_rules_alone_and_only_parley_declares_one():
    setup = rules.Setup(
        players=3, hp=1, rounds=1, passes=0, survivors=1, talk=False, max_reactions=0, hip_limit=0
    )
    match = setup.new_match()
    for outcome in (setup.deal_outcome(0, 1, 2), setup.deal_outcome(1, 2, 0)):
        assert match.play(outcome)
    assert observer.spectator(match) == "R1 C0 friend C1 enemy C2, C1 friend C2 enemy C0 | chance"
    assert fogboard_games.load("parley").ruleset.spectator is observer.spectator
    # The boards, Liar's Dice and Mind Bluff show a spectator the public view.
    for preset in ("phantom-ttt-3", "dark-hex-4", "liars-dice", "mind-bluff", "mind-bluff-series"):
        assert fogboard_games.load(preset).ruleset.spectator is None, preset


# ---- the winners in the review ------------------------------------------------------------


def test_review_states_round_and_match_winners_a_tie_shared():
    two = pyspiel.load_game(
        SHORT,
        {
            "players": 3,
            "hp": 1,
            "rounds": 2,
            "passes": 0,
            "survivors": 2,
            "talk": False,
            "hip_limit": 0,
        },
    )
    # Round 1: C0 puts C2 OUT (its FRIEND): C0 3, C1 3 (its FRIEND C2 is OUT), C2 1.
    # Round 2: C1 puts C0 OUT (its ENEMY): C1 3 + 1 (FRIEND C2) + 1 kill, C2 3, C0 1 (FRIEND C1).
    state = play(two, deals((2, 1), (2, 0), (0, 1)) + ["IT C0", "shoot C2 head"])
    play(state, deals((1, 2), (2, 0), (0, 1)) + ["IT C1", "shoot C0 head"])
    assert state.is_terminal()
    review = json.loads(json.dumps(state.review()))
    assert [r["points"] for r in review["rounds"]] == [[3, 3, 1], [1, 5, 3]]
    assert review["round_winners"] == [[0, 1], [1]]
    assert review["totals"] == [4, 8, 4] and review["match_winners"] == [1]
    assert fogboard_games.load_review(review).history() == state.history()
    tie = play(two, deals((2, 1), (2, 0), (0, 1)) + ["IT C0", "shoot C2 head"])
    play(tie, deals((2, 1), (2, 0), (0, 1)) + ["IT C0", "shoot C2 head"])
    review = tie.review()
    assert review["round_winners"] == [[0, 1], [0, 1]] and review["match_winners"] == [0, 1]
    assert two.ruleset.verdict(tie.truth).startswith("C0 and C1 share the win")


def test_round_winners_are_the_top_scorers_and_among_the_survivors():
    game = fogboard_games.load("parley")
    for seed in range(4):
        state = play(game, random_match(game, seed))
        review = state.review()
        assert len(review["round_winners"]) == len(review["rounds"]) == 3
        for rnd, winners in zip(review["rounds"], review["round_winners"]):
            top = max(rnd["points"])
            assert winners == [c for c, p in enumerate(rnd["points"]) if p == top]
            assert set(winners) <= set(rnd["survivors"])
        top = max(review["totals"])
        assert review["match_winners"] == [c for c, t in enumerate(review["totals"]) if t == top]


@pytest.mark.parametrize(
    "field,value,named",
    [
        ("match_winners", [1], r"match_winners\[0\]: review says 1, rules give 0"),
        ("match_winners", [1, 2], r"match_winners: review has 2 entries"),
        ("match_winners", [], r"match_winners: review has 0 entries"),
        ("round_winners", [[1], [0]], r"round_winners: review has 2 entries"),
        ("round_winners", [[2]], r"round_winners\[0\]\[0\]"),
        ("round_winners", [1], r"round_winners\[0\]"),
        ("match_winners", [True], r"match_winners\[0\]"),
    ],
)
def test_a_review_whose_winners_disagree_with_the_rules_is_refused(field, value, named):
    game = pyspiel.load_game(
        SHORT, {"players": 3, "hp": 1, "rounds": 1, "passes": 0, "talk": False, "hip_limit": 0}
    )
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "shoot C2 head", "shoot C1 head"])
    review = json.loads(json.dumps(state.review()))
    assert review["round_winners"] == [[0]] and review["match_winners"] == [0]
    review[field] = value
    with pytest.raises(ReviewError, match=named):
        fogboard_games.load_review(review)
    del review[field]  # a review may leave a whole field out
    assert fogboard_games.load_review(review).history() == state.history()
