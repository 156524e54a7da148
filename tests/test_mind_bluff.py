"""Mind Bluff (docs/mind_bluff.md): every rule, the information boundaries,
the resampler, the review and the parameters."""

from __future__ import annotations

import json
import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games.core.observer import all_obs_types
from fogboard_games.core.review import ReviewError
from fogboard_games.core.testing import every_view, piece, play
from fogboard_games.core.testing import legal_names as names
from fogboard_games.mind_bluff import rules
from fogboard_games.mind_bluff.review import truth_replay

TINY = "fogboard_mind_bluff(start=6,max_eat=3)"


# ---- the rules ------------------------------------------------------------------


def test_action_strings_and_every_eat_always_legal():
    state = play(TINY)
    assert names(state) == ["eat 1", "eat 2", "eat 3", "all done"]
    state = play(TINY, ["eat 3", "claim 1", "believe", "eat 2", "claim 1", "believe"])
    # One dango is left, yet every eat stays legal: the mover cannot know.
    assert state.truth.remaining == 1
    assert names(state) == ["eat 1", "eat 2", "eat 3", "all done"]
    assert names(play(TINY, ["eat 2"])) == ["claim 1", "claim 2", "claim 3"]
    assert names(play(TINY, ["eat 2", "claim 1"])) == ["believe", "doubt"]


def test_all_done_wins_only_at_exactly_one_left():
    win = play(TINY, ["eat 3", "claim 3", "believe", "eat 2", "claim 2", "believe", "all done"])
    assert win.is_terminal() and win.returns() == [1.0, -1.0]
    assert win.review()["end_reason"] == "all-done-win"
    loss = play(TINY, ["eat 3", "claim 3", "believe", "eat 1", "claim 1", "believe", "all done"])
    assert loss.returns() == [-1.0, 1.0]  # P1 said all done at 2 left: P2 wins
    assert loss.review()["end_reason"] == "all-done-loss"
    assert loss.review()["turns"][-1]["remaining_after"] == 2  # unchanged by all done


def test_eating_the_last_dango_loses_before_any_claim_and_keeps_the_debt():
    state = play(TINY, ["eat 3", "claim 1", "doubt"])  # BLUFF: P1 owes one
    assert state.truth.debts == (1, 0)
    state = play(TINY, ["eat 3", "claim 1", "doubt", "eat 1", "claim 1", "believe", "eat 2"])
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]
    review = state.review()
    assert review["end_reason"] == "last-dango" and review["winner"] == 1
    last = review["turns"][-1]
    assert last["claim"] is None and last["remaining_after"] == 0
    assert last["debts_after"] == [1, 0]  # not consumed
    # Eating exactly the count left also loses.
    exact = play(TINY, ["eat 3", "claim 3", "believe", "eat 3"])
    assert exact.is_terminal() and exact.returns() == [1.0, -1.0]


def test_forced_honest_claim_is_the_only_legal_one_and_pays_one_debt():
    state = play(TINY, ["eat 1", "claim 2", "doubt", "eat 1", "claim 1", "believe", "eat 2"])
    assert state.truth.debts == (1, 0)
    assert names(state) == ["claim 2"]  # the truth only
    assert "(forced honest)" in state.information_state_string(1)
    assert piece(state, 1, "forced_now") == [1.0]
    with pytest.raises(ValueError, match="honesty_debt"):
        state.apply_action(6)  # claim 3 refused
    state.apply_action(state.string_to_action("claim 2"))
    assert state.truth.debts == (0, 0)  # dropped when the claim was made, before the response
    assert state.truth.turns[-1].forced is True
    assert "claim 2 forced" in state.information_state_string(1)
    assert piece(state, 1, "forced")[2] == 1.0


def test_debt_stacks_and_forces_one_claim_per_debt():
    game = "fogboard_mind_bluff(start=20)"
    moves = ["eat 1", "claim 2", "doubt"]  # BLUFF: P1 owes one
    moves += ["eat 1", "claim 1", "doubt"]  # TRUE: P1, the challenger, owes another
    assert play(game, moves).truth.debts == (2, 0)
    assert names(play(game, moves + ["eat 3"])) == ["claim 3"]
    moves += ["eat 3", "claim 3", "believe"]
    assert play(game, moves).truth.debts == (1, 0)  # one paid back
    moves += ["eat 1", "claim 2", "believe"]
    assert names(play(game, moves + ["eat 1"])) == ["claim 1"]  # the second debt forces again
    moves += ["eat 1", "claim 1", "believe"]
    assert play(game, moves).truth.debts == (0, 0)
    assert names(play(game, moves + ["eat 2"])) == ["claim 1", "claim 2", "claim 3"]  # P2 free
    moves += ["eat 2", "claim 3", "believe"]
    assert names(play(game, moves + ["eat 1"])) == ["claim 1", "claim 2", "claim 3"]  # P1 free


def test_verdicts_charge_the_right_seat():
    true = play(TINY, ["eat 2", "claim 2", "doubt"])
    assert true.truth.debts == (0, 1)  # TRUE: the challenger (P2) owes
    assert true.truth.turns[-1].verdict is True
    bluff = play(TINY, ["eat 2", "claim 1", "doubt"])
    assert bluff.truth.debts == (1, 0)  # BLUFF: the claimant owes
    assert bluff.truth.turns[-1].verdict is False
    believed = play(TINY, ["eat 2", "claim 1", "believe"])
    assert believed.truth.debts == (0, 0) and believed.truth.turns[-1].verdict is None


def test_doubting_a_forced_claim_is_legal_and_always_true():
    state = play(TINY, ["eat 1", "claim 2", "doubt", "eat 1", "claim 1", "believe", "eat 1"])
    assert names(state) == ["claim 1"]
    state = play(TINY, ["eat 1", "claim 2", "doubt", "eat 1", "claim 1", "believe"])
    state.apply_action(state.string_to_action("eat 1"))
    state.apply_action(state.string_to_action("claim 1"))
    assert names(state) == ["believe", "doubt"]
    state.apply_action(state.string_to_action("doubt"))
    assert state.truth.turns[-1].verdict is True
    assert state.truth.debts == (0, 1)  # paid by P1's claim, charged to P2


def test_all_done_is_legal_in_debt_and_pays_no_debt():
    state = play(TINY, ["eat 2", "claim 1", "doubt", "eat 1", "claim 1", "believe"])
    assert state.truth.debts == (1, 0) and "all done" in names(state)
    state.apply_action(state.string_to_action("all done"))
    assert state.review()["turns"][-1]["debts_after"] == [1, 0]
    assert state.returns() == [-1.0, 1.0]  # 3 were left


def test_game_facts_are_exact():
    game = pyspiel.load_game(TINY)
    assert game.max_game_length() == 3 * 5 + 1
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_distinct_actions() == 9
    assert fogboard_games.load("mind-bluff").max_game_length() == 88
    spread = pyspiel.load_game("fogboard_mind_bluff(start=30,start_spread=1)")
    assert spread.max_game_length() == 91
    # The longest game reaches the bound: eat 1 every turn, then all done.
    state = play(TINY, ["eat 1", "claim 1", "believe"] * 5 + ["all done"])
    assert state.is_terminal() and len(state.history()) == game.max_game_length()
    assert state.returns() == [-1.0, 1.0]  # P2 said all done with 1 left: P2 wins
    assert state.review()["winner"] == 1


def test_chance_coin_and_secret_start():
    game = pyspiel.load_game("fogboard_mind_bluff(start=29,start_spread=2,first_player=-1)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "P1 first",
        "P2 first",
    ]
    state.apply_action(state.string_to_action("P2 first"))
    assert state.is_chance_node()
    odds = state.chance_outcomes()
    assert [a for a, _ in odds] == [27, 28, 29, 30, 31]
    assert all(abs(p - 0.2) < 1e-12 for _, p in odds)
    state.apply_action(state.string_to_action("start 28"))
    assert state.current_player() == 1
    for p in (0, 1):
        assert "28" not in state.information_state_string(p)
    assert state.observation_string(0).endswith("{27, 28, 29, 30, 31} | P2 to eat | debts 0 0")


# ---- what each seat knows -----------------------------------------------------------


def test_no_leak_of_the_other_seats_eat():
    rest = ["claim 2", "believe", "eat 1", "claim 3", "doubt"]
    a = play(TINY, ["eat 1", *rest])
    b = play(TINY, ["eat 2", *rest])
    assert str(a) != str(b)
    assert every_view(a, 1) == every_view(b, 1)  # P2 cannot tell
    assert a.information_state_string(0) != b.information_state_string(0)  # P1 can
    assert a.information_state_tensor(0) != b.information_state_tensor(0)


def test_no_leak_of_a_secret_start():
    game = "fogboard_mind_bluff(start=10,start_spread=2)"
    moves = ["eat 2", "claim 2", "believe", "eat 1"]
    a, b = play(game, ["start 9", *moves]), play(game, ["start 12", *moves])
    assert str(a) != str(b)
    for p in (0, 1):
        assert every_view(a, p) == every_view(b, p)
        assert every_view(a, p, include_all=True) == every_view(b, p, include_all=True)
    # At the end the start is shown.
    a = play(game, ["start 9", *moves, "claim 1", "believe", "all done"])
    assert "start 9" in a.information_state_string(1)
    assert piece(a, 1, "start_shown") == [0.0, 1.0, 0.0, 0.0, 0.0]


def test_remaining_in_uses_exactly_what_the_observer_knows():
    state = play(TINY, ["eat 2", "claim 3", "doubt", "eat 1", "claim 2", "believe"])
    # P1 ate 2; P2's eat is 1..3 (believed): 6 - 2 - {1, 2, 3}.
    assert "remaining in {1, 2, 3}" in state.observation_string(0)
    # P2 ate 1; P1's eat is not 3 (BLUFF): 6 - 1 - {1, 2}.
    assert "remaining in {3, 4}" in state.observation_string(1)
    public = state.get_game().make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    # Public facts only: 6 - {1, 2} - {1, 2, 3}.
    assert "remaining in {1, 2, 3, 4}" in public.string_from(state, 0)
    public.set_from(state, 1)
    assert public.dict["remaining_possible"].tolist() == [0, 1, 1, 1, 1, 0, 0]
    # Survival: P2 ate and survived, so P1's first eat left at least 2.
    state = play(TINY, ["eat 3", "claim 3", "believe", "eat 1"])
    assert "remaining in {1, 2}" in state.observation_string(0)
    # P2 knows its own 1; P1's believed 3 could be 1..3.
    assert "remaining in {2, 3, 4}" in state.observation_string(1)
    # A forced-honest claim and a TRUE verdict fix the eat for everyone.
    state = play(TINY, ["eat 2", "claim 2", "doubt"])
    assert "remaining in {4}" in state.observation_string(1)


def test_legal_actions_depend_only_on_the_movers_information_state():
    game = pyspiel.load_game("fogboard_mind_bluff(start=5,max_eat=2,start_spread=1)")
    legal: dict = {}

    def walk(state):
        if state.is_terminal():
            return
        if not state.is_chance_node():
            p = state.current_player()
            key = (p, state.information_state_string(p))
            value = (tuple(state.legal_actions()), tuple(state.information_state_tensor(p)))
            assert legal.setdefault(key, value) == value, key
        actions = state.legal_actions() if not state.is_chance_node() else None
        for a in actions or [a for a, _ in state.chance_outcomes()]:
            walk(state.child(a))

    walk(game.new_initial_state())
    assert len(legal) > 100


# ---- the resampler --------------------------------------------------------------------


def consistent_histories(game, target, player):
    """Every history whose information state for `player` is `target` (brute force)."""
    out = set()

    def walk(state):
        if state.is_terminal():
            return
        if len(state.history()) == len(target.history()):
            if not state.is_chance_node() and state.information_state_string(
                player
            ) == target.information_state_string(player):
                out.add(tuple(state.history()))
            return
        actions = state.legal_actions() if not state.is_chance_node() else None
        for a in actions or [a for a, _ in state.chance_outcomes()]:
            walk(state.child(a))

    walk(game.new_initial_state())
    return out


@pytest.mark.parametrize(
    "moves,player,count",
    [
        # P2 to respond. P1's two eats are free (1..3 each), the start is 6,
        # 7 or 8; P2 ate 1, so P1's eats total at most start - 2: 6 + 8 + 9.
        (["eat 2", "claim 3", "believe", "eat 1", "claim 2", "doubt", "eat 1", "claim 2"], 1, 23),
        # P2 to make a forced claim, seen by P1: P2's first eat was not 3
        # (BLUFF), its second is free; P1 ate 2 in all: 3 + 5 + 6 worlds.
        (
            ["eat 1", "claim 1", "believe", "eat 2", "claim 3", "doubt"]
            + ["eat 1", "claim 2", "believe", "eat 1"],
            0,
            14,
        ),
    ],
)
def test_resample_draws_every_consistent_world_and_nothing_else(moves, player, count):
    game = pyspiel.load_game("fogboard_mind_bluff(start=7,start_spread=1,max_eat=3)")
    target = play(game, ["start 8", *moves])
    worlds = consistent_histories(game, target, player)
    assert len(worlds) == count
    rng = random.Random(3)
    drawn = set()
    for _ in range(400):
        world = target.resample_from_infostate(player, rng.random)
        assert tuple(world.history()) in worlds
        drawn.add(tuple(world.history()))
    assert drawn == worlds


def test_resample_keeps_public_facts_and_own_eats_midgame():
    game = fogboard_games.load("mind-bluff")
    rng = random.Random(0)
    state = game.new_initial_state()
    while len(state.history()) < 40:  # eat 1 or 2, never all done: the game runs on
        legal = [a for a in state.legal_actions() if a not in (2, 3)]
        state.apply_action(rng.choice(legal))
    for p in (0, 1):
        for _ in range(20):
            world = state.resample_from_infostate(p, rng.random)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.current_player() == state.current_player()


# ---- the review ---------------------------------------------------------------------


MOVES = ["eat 2", "claim 3", "doubt", "eat 1", "claim 1", "believe", "eat 1", "claim 1", "doubt"]


def test_review_fields_and_round_trip():
    state = play(TINY, MOVES + ["all done"])
    review = json.loads(json.dumps(state.review()))
    assert review["turns"][0] == {
        "actor": 0,
        "action": "eat 2",
        "actual": 2,
        "claim": 3,
        "forced": False,
        "response": "doubt",
        "verdict": "BLUFF",
        "debts_after": [1, 0],
        "remaining_after": 4,
    }
    assert review["turns"][2]["forced"] is True and review["turns"][2]["verdict"] == "TRUE"
    assert review["turns"][3] == {
        "actor": 1,
        "action": "all done",
        "actual": None,
        "claim": None,
        "forced": None,
        "response": None,
        "verdict": None,
        "debts_after": [0, 1],
        "remaining_after": 2,
    }
    assert (review["end_reason"], review["winner"], review["start"]) == ("all-done-loss", 0, 6)
    rebuilt = fogboard_games.load_review(review)
    assert rebuilt.history() == state.history() and rebuilt.returns() == [1.0, -1.0]


def test_review_refuses_tampering_naming_the_field():
    review = json.loads(json.dumps(play(TINY, MOVES + ["all done"]).review()))
    bad = json.loads(json.dumps(review))
    bad["turns"][1]["actual"] = 2
    with pytest.raises(ReviewError, match=r"turns\[1\]\.actual"):
        fogboard_games.load_review(bad)
    bad = json.loads(json.dumps(review))
    bad["end_reason"] = "all-done-win"
    with pytest.raises(ReviewError, match="end_reason"):
        fogboard_games.load_review(bad)
    bad = json.loads(json.dumps(review))
    bad["actions"][2] = "claim 2"
    with pytest.raises(ReviewError, match="action 2"):
        fogboard_games.load_review(bad)


def test_truth_replay_shows_every_hidden_count():
    text = truth_replay(play(TINY, MOVES + ["all done"]).review())
    assert text.splitlines() == [
        "start 6, P1 first",
        "T1: 6 -> 4 | P1 ate 2, claimed 3, doubt BLUFF | debts P1 1 P2 0",
        "T2: 4 -> 3 | P2 ate 1, claimed 1, believe | debts P1 1 P2 0",
        "T3: 3 -> 2 | P1 ate 1, claimed 1 (forced honest), doubt TRUE | debts P1 0 P2 1",
        "T4: 2 -> 2 | P2 all done | debts P1 0 P2 1",
        "all-done-loss: P1 wins",
    ]


# ---- parameters -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params,named",
    [
        ({"start": 1}, "'start' must be an int in 2..99"),
        ({"start": 100}, "'start' must be an int in 2..99"),
        ({"start": 6, "start_spread": 5}, "'start_spread' must be an int in 0..4"),
        ({"start_spread": -1}, "'start_spread' must be an int in 0..97"),
        ({"first_player": 2}, "'first_player' must be an int in 0..1 or -1"),
        ({"first_player": -2}, "'first_player' must be an int in 0..1 or -1"),
        ({"max_eat": 0}, "'max_eat' must be an int in 1..3"),
        ({"max_eat": 4}, "'max_eat' must be an int in 1..3"),
    ],
)
def test_parameters_refused_with_clear_errors(params, named):
    with pytest.raises((ValueError, pyspiel.SpielError), match=named):
        pyspiel.load_game("fogboard_mind_bluff", params)


def test_presets():
    assert fogboard_games.PRESETS["mind-bluff-tiny"].params == {"start": 6, "max_eat": 3}
    assert fogboard_games.load("mind-bluff").get_parameters() == {
        "start": 30,
        "start_spread": 0,
        "first_player": 0,
        "max_eat": 3,
    }


def test_rules_run_without_pyspiel():
    match = rules.Setup(6, 0, 0, 3).new_match()
    assert match.play(1) and not match.play(1)  # eat 2, then eat is no claim
    # The glue hands play ints only (tests/test_core_checks.py); any int may come.
    assert not match.play(-1) and not match.play(99)
    assert match.play(4 + 2) and match.mover == 1


def test_docs_tables_match_the_code():
    import pathlib

    from fogboard_games.core.observer import piece_table
    from fogboard_games.mind_bluff.game import SPEC

    path = pathlib.Path(__file__).parent.parent / "docs" / "mind_bluff.md"
    text = path.read_text()
    assert SPEC.table() in text
    from test_docs import anchors  # the docs tests' own heading reader

    cited = {"rules", "parameters", "what-each-seat-knows", "tensor-pieces", "resampling"}
    assert cited | {"review", "presets", "the-series"} <= anchors(path)
    for name in ("mind-bluff", "mind-bluff-series"):
        game = fogboard_games.load(name)
        assert piece_table(game.info_layout) in text and piece_table(game.obs_layout) in text
        assert f"{name}: information state ({game.information_state_tensor_size()} floats)" in text
        assert f"{name}: observation ({game.observation_tensor_size()} floats)" in text


# ---- the series ---------------------------------------------------------------------------

SERIES = "fogboard_mind_bluff_series"


def test_series_order_of_games_and_the_third_only_at_one_all():
    game = pyspiel.load_game(SERIES)
    assert game.max_game_length() == 267
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.truth.now.remaining == 30  # game 1: P1 first
    state = play(game, ["eat 2", "claim 1", "doubt", "all done"])  # P2 says all done at 28
    assert state.truth.score == (1, 0) and state.current_player() == 1  # game 2: P2 first
    assert state.truth.now.remaining == 30 and state.truth.now.debts == (0, 0)  # debt reset
    assert "T1" not in state.observation_string(0)
    assert "game 1" not in state.observation_string(0)  # a current view shows game 2 only
    assert "review: first P1 | T1 P1 ate 2" in state.information_state_string(0)
    two_nil = play(game, ["eat 2", "claim 1", "doubt", "all done", "all done"])  # P2 loses again
    assert two_nil.is_terminal() and two_nil.returns() == [1.0, -1.0]
    assert len(two_nil.review()["games"]) == 2
    third = play(game, ["all done", "all done"])  # P1 loses game 1, P2 loses game 2: 1-1
    assert third.truth.score == (1, 1) and third.is_chance_node()
    assert [third.action_to_string(a) for a, _ in third.chance_outcomes()] == [
        "P1 first",
        "P2 first",
    ]
    third.apply_action(third.string_to_action("P2 first"))
    assert [(third.action_to_string(a), p) for a, p in third.chance_outcomes()] == [
        ("start 29", 1 / 3),
        ("start 30", 1 / 3),
        ("start 31", 1 / 3),
    ]
    third.apply_action(third.string_to_action("start 31"))
    assert third.current_player() == 1
    for p in (0, 1):
        assert "31" not in third.information_state_string(p).split("game 3:")[1]
    third.apply_action(third.string_to_action("all done"))
    assert third.is_terminal() and third.returns() == [1.0, -1.0]
    review = json.loads(json.dumps(third.review()))
    assert review["score"] == [2, 1] and review["winner"] == 0
    assert review["games"][2]["start"] == 31 and review["games"][2]["first_player"] == 1
    assert fogboard_games.load_review(review).history() == third.history()
    bad = json.loads(json.dumps(review))
    bad["games"][2]["start"] = 30
    with pytest.raises(ReviewError, match=r"games\[2\]\.start"):
        fogboard_games.load_review(bad)


def test_series_finished_review_known_to_both_and_kept():
    game = pyspiel.load_game(SERIES)
    moves = ["eat 2", "claim 1", "believe", "eat 1", "claim 3", "believe", "all done"]
    state = play(game, moves + ["eat 1"])  # game 2 under way
    for p in (0, 1):
        info = state.information_state_string(p)
        assert "review: first P1 | T1 P1 ate 2 claim 1 believe | T2 P2 ate 1 claim 3" in info
    # P2's eat of game 2 stays hidden from P1.
    twin = play(game, moves + ["eat 2"])
    assert state.information_state_string(0) == twin.information_state_string(0)
    assert state.information_state_tensor(0) == twin.information_state_tensor(0)
    assert state.information_state_string(1) != twin.information_state_string(1)
    # A game 1 eat changed: once reviewed, both seats know it.
    other = play(game, ["eat 1", *moves[1:], "eat 1"])
    for p in (0, 1):
        assert state.information_state_tensor(p) != other.information_state_tensor(p)
        # ...through game 1's review (P1's own eats alone would differ anyway)
        assert piece(state, p, "review1") != piece(other, p, "review1")
    rng = random.Random(5)
    for _ in range(30):
        world = state.resample_from_infostate(0, rng.random)
        assert world.history()[: len(moves)] == state.history()[: len(moves)]


def test_series_parameters():
    assert pyspiel.load_game(SERIES, {"max_eat": 2}).num_distinct_actions() == 7
    for bad in (0, 4):
        with pytest.raises(
            (ValueError, pyspiel.SpielError), match="'max_eat' must be an int in 1..3"
        ):
            pyspiel.load_game(SERIES, {"max_eat": bad})
    with pytest.raises((ValueError, pyspiel.SpielError), match="start"):
        pyspiel.load_game(SERIES, {"start": 30})


def test_series_finished_games_cached_encodings_equal_fresh_ones():
    """A finished game's tensor entries are kept on it; reading them again,
    at every step of whole series, gives what encoding afresh gives."""
    game = pyspiel.load_game(SERIES)
    observers = [
        game.make_py_observer(t)
        for t in all_obs_types()
        if t.perfect_recall and t.private_info != pyspiel.PrivateInfoType.NONE
    ]
    rng = random.Random(4)
    checked = 0
    for _ in range(10):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            if not state.truth.past or rng.random() < 0.7:
                continue
            p = rng.randrange(2)
            cached = [state.information_state_tensor(p)]
            for o in observers:
                o.set_from(state, p)
                cached.append(o.tensor.tolist())
            for past in state.truth.past:
                past.cache = None  # forget: the next reads encode afresh
            fresh = [state.information_state_tensor(p)]
            for o in observers:
                o.set_from(state, p)
                fresh.append(o.tensor.tolist())
            assert cached == fresh
            checked += 1
    assert checked > 20
