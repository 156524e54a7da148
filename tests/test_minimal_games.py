"""The minimal games of tests/minimal_games.py (the worked example of
docs/adding_a_game.md): the conformance suite on both, `fogboard_test_kuhn`
against OpenSpiel's C++ `kuhn_poker` node for node, what each seat may know,
and the intermediate rewards of `fogboard_test_kuhn_rounds`."""

import itertools
import json
import pathlib
import random
import re

import minimal_games  # registers the test games
import pyspiel
import pytest
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability

import fogboard_games
from fogboard_games.core import registry, testing
from fogboard_games.core.observer import all_obs_types
from fogboard_games.core.review import ReviewError

KUHN = "fogboard_test_kuhn"
ROUNDS = "fogboard_test_kuhn_rounds"
CONFIGS = [(KUHN, {}), (ROUNDS, {"hands": 1}), (ROUNDS, {}), (ROUNDS, {"hands": 3})]
DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "adding_a_game.md"


def label(config):
    name, params = config
    return name + "".join(f"-{k}{v}" for k, v in params.items())


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda c: c.__name__[6:])
@pytest.mark.parametrize("config", CONFIGS, ids=label)
def test_conformance(config, check):
    check(pyspiel.load_game(*config), seed=7)


def test_registered_without_presets_or_extras():
    # The library's own tests iterate over these tables: test games stay out.
    for name in (KUHN, ROUNDS):
        assert name in fogboard_games.GAMES
        assert name not in registry.CONFORMANCE_EXTRAS
        assert all(p.short_name != name for p in fogboard_games.PRESETS.values())


# ---- fogboard_test_kuhn is OpenSpiel's kuhn_poker ------------------------------


def lockstep(ours, theirs, seen):
    """Walk both game trees from these states, with the same action ids,
    asserting they agree; collect (seat, kind, our string, C++ string)."""
    history = ours.history()
    assert history == theirs.history()
    assert ours.current_player() == theirs.current_player(), history
    assert ours.is_terminal() == theirs.is_terminal(), history
    assert ours.is_chance_node() == theirs.is_chance_node(), history
    for p in (0, 1):
        # The pieces mirror OpenSpiel's, so the default tensors are equal too.
        assert ours.information_state_tensor(p) == theirs.information_state_tensor(p), history
        assert ours.observation_tensor(p) == theirs.observation_tensor(p), history
        seen.append(
            (p, "info", ours.information_state_string(p), theirs.information_state_string(p))
        )
        seen.append((p, "obs", ours.observation_string(p), theirs.observation_string(p)))
    if ours.is_terminal():
        assert ours.returns() == theirs.returns(), history
        return
    if ours.is_chance_node():
        mine, cpp = ours.chance_outcomes(), theirs.chance_outcomes()
        assert [a for a, _ in mine] == [a for a, _ in cpp], history
        assert [pr for _, pr in mine] == pytest.approx([pr for _, pr in cpp], abs=1e-12)
        actions = [a for a, _ in mine]
    else:
        actions = ours.legal_actions()
        assert actions == theirs.legal_actions(), history
        assert ours.legal_actions_mask() == theirs.legal_actions_mask(), history
    player = ours.current_player()
    for a in actions:
        # Same action, readable words: "deal K" for C++ "Deal:2", "bet" for "Bet".
        word = ours.action_to_string(player, a)
        assert not word.isdigit()
        cpp_word = theirs.action_to_string(player, a).lower()
        assert word == cpp_word or word == "deal " + "JQK"[int(cpp_word.split(":")[1])]
        lockstep(ours.child(a), theirs.child(a), seen)


def test_kuhn_walks_the_same_tree_as_openspiel():
    ours, theirs = pyspiel.load_game(KUHN), pyspiel.load_game("kuhn_poker")
    for attribute in (
        "num_players",
        "num_distinct_actions",
        "max_chance_outcomes",
        "min_utility",
        "max_utility",
        "utility_sum",
        "max_game_length",
        "information_state_tensor_shape",
        "observation_tensor_shape",
    ):
        assert getattr(ours, attribute)() == getattr(theirs, attribute)(), attribute
    seen = []
    lockstep(ours.new_initial_state(), theirs.new_initial_state(), seen)
    assert len(seen) == 4 * 58  # 4 chance nodes, then 9 betting nodes for each of 6 deals
    # The same partition: equal strings in ours iff equal strings in C++.
    for seat, kind in itertools.product((0, 1), ("info", "obs")):
        pairs = {(o, t) for p, k, o, t in seen if (p, k) == (seat, kind)}
        assert len(pairs) == len({o for o, _ in pairs}) == len({t for _, t in pairs}), kind


def test_kuhn_uniform_policy_exploitability_is_openspiels():
    values = []
    for name in (KUHN, "kuhn_poker"):
        game = pyspiel.load_game(name)
        values.append(exploitability.exploitability(game, policy.UniformRandomPolicy(game)))
    assert values[0] == pytest.approx(values[1], abs=1e-12)
    assert values[0] == pytest.approx(11 / 24)


def test_kuhn_cfr_converges_to_the_game_value():
    # cached_tree makes the Python game a C++ tree once; CFR then runs in C++.
    values = []
    for name in (f"cached_tree(game={KUHN}())", "kuhn_poker"):
        game = pyspiel.load_game(name)
        solver = pyspiel.CFRSolver(game)
        for _ in range(300):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        values.append(pyspiel.expected_returns(game.new_initial_state(), average, -1, True))
    assert values[0] == pytest.approx(values[1], abs=1e-9)  # the same tree, the same iterates
    assert values[0][0] == pytest.approx(-1 / 18, abs=2e-3)


# ---- what each seat may know ------------------------------------------------------


def deal_and_bet(name, params, deals, bets):
    state = pyspiel.load_game(name, params).new_initial_state()
    for action in [*deals, *bets]:
        state.apply_action(action)
    return state


def views(state, seat):
    """Everything a seat is shown: its information state and observation,
    as strings and tensors, and every single-seat and public observer."""
    out = [
        state.information_state_string(seat),
        state.information_state_tensor(seat),
        state.observation_string(seat),
        state.observation_tensor(seat),
    ]
    game = state.get_game()
    for obs_type in all_obs_types():
        if obs_type.private_info != pyspiel.PrivateInfoType.ALL_PLAYERS:
            observer = game.make_py_observer(obs_type)
            observer.set_from(state, seat)
            out += [observer.string_from(state, seat), observer.tensor.tolist()]
    return out


# Kuhn betting sequences that stop before the end, and every complete one.
PREFIXES = [(), (0,), (1,), (0, 1)]
COMPLETE = [(0, 0), (1, 0), (1, 1), (0, 1, 0), (0, 1, 1)]
PAIRS = [(a, b) for a in range(3) for b in range(3) if a != b]


@pytest.mark.parametrize("bets", PREFIXES + COMPLETE)
def test_kuhn_opponents_card_is_never_shown(bets):
    # Kuhn shows no card at a showdown (as OpenSpiel), so this holds at the end too.
    for seat in (0, 1):
        for mine in range(3):
            looks = set()
            for theirs in (c for c in range(3) if c != mine):
                deal = (mine, theirs) if seat == 0 else (theirs, mine)
                looks.add(repr(views(deal_and_bet(KUHN, {}, deal, bets), seat)))
            assert len(looks) == 1, (seat, mine, bets)
        # Its own card changes what it is shown (the opponent's is (c + 1) % 3).
        own = set()
        for mine in range(3):
            deal = (mine, (mine + 1) % 3)
            own.add(
                repr(views(deal_and_bet(KUHN, {}, deal if seat == 0 else deal[::-1], bets), seat))
            )
        assert len(own) == 3


def test_kuhn_rounds_information_boundary():
    # Hand 1 ends in a fold (hidden cards) or a showdown (both cards public).
    params = {"hands": 2}
    for first_bets, shown in (((1, 0), False), ((0, 0), True)):
        for seat, mine in itertools.product((0, 1), range(3)):
            looks = set()
            for theirs in (c for c in range(3) if c != mine):
                hand1 = (mine, theirs) if seat == 0 else (theirs, mine)
                state = deal_and_bet(ROUNDS, params, (*hand1, 2, 0), (*first_bets, 1))
                looks.add(repr(views(state, seat)))
            assert len(looks) == (2 if shown else 1), (first_bets, seat, mine)
    # Before its hand starts, nobody sees a card of hand 2, not even its own.
    for seat in (0, 1):
        looks = {
            repr(views(deal_and_bet(ROUNDS, params, (0, 1, *hand2), (1,)), seat)) for hand2 in PAIRS
        }
        assert len(looks) == 1
        # Once it starts, the seat's own card of hand 2 shows, the opponent's does not.
        looks = {
            repr(views(deal_and_bet(ROUNDS, params, (0, 1, *hand2), (1, 0)), seat))
            for hand2 in PAIRS
        }
        assert len(looks) == 3


def test_resample_redraws_only_what_the_seat_cannot_see():
    rng = random.Random(3)
    # Rounds: hand 1 a showdown (J vs K), hand 2 under way (seat 0 holds Q),
    # hand 3 not started. Seat 1's card of hand 2 may be J or K; nobody has
    # seen hand 3's cards; the showdown, seat 0's card and the bets stay.
    state = deal_and_bet(ROUNDS, {"hands": 3}, (0, 2, 1, 0, 2, 1), (0, 0, 1))
    worlds = {tuple(state.resample_from_infostate(0, rng.random).history()) for _ in range(100)}
    assert {w[:3] + w[6:] for w in worlds} == {(0, 2, 1, 0, 0, 1)}
    assert {w[3] for w in worlds} == {0, 2}
    assert {w[4:6] for w in worlds} == set(PAIRS)
    # Kuhn: seat 1 holding Q cannot tell J from K.
    state = deal_and_bet(KUHN, {}, (0, 1), (1,))
    worlds = {tuple(state.resample_from_infostate(1, rng.random).history()) for _ in range(40)}
    assert worlds == {(0, 1, 1), (2, 1, 1)}


# ---- rules, strings, rewards -------------------------------------------------------


def test_kuhn_payoffs_and_words():
    cases = {
        # (cards, bets): returns
        ((2, 0), (0, 0)): [1.0, -1.0],
        ((0, 2), (1, 0)): [1.0, -1.0],  # seat 1 folds to a bet
        ((0, 2), (1, 1)): [-2.0, 2.0],
        ((2, 1), (0, 1, 0)): [-1.0, 1.0],  # seat 0 folds
        ((2, 1), (0, 1, 1)): [2.0, -2.0],
    }
    for (deal, bets), returns in cases.items():
        state = deal_and_bet(KUHN, {}, deal, bets)
        assert state.is_terminal() and state.returns() == returns
    state = deal_and_bet(KUHN, {}, (2, 1), (0, 1))
    assert state.information_state_string(0) == "seat 0 | card K | betting pass bet"
    assert state.information_state_string(1) == "seat 1 | card Q | betting pass bet"
    assert state.observation_string(0) == "seat 0 | card K | pot 1 2"
    assert str(state) == "cards P0:K P1:Q | betting pass bet"
    assert [state.action_to_string(0, a) for a in (0, 1)] == ["pass", "bet"]
    with pytest.raises(ValueError, match=r"illegal action 5 .*legal: pass, bet"):
        state.apply_action(5)
    state = deal_and_bet(KUHN, {}, (1,), ())
    assert state.legal_actions() == [0, 2]
    with pytest.raises(ValueError, match=r"deal Q.*cards left \(J, K\).*legal: deal J, deal K"):
        state.apply_action(1)


def test_kuhn_rounds_parameters_are_checked():
    assert pyspiel.load_game(ROUNDS).get_parameters() == {"hands": 2}
    for bad in (0, 4):
        with pytest.raises(ValueError, match="'hands' must be an int in 1..3"):
            pyspiel.load_game(ROUNDS, {"hands": bad})
    # pyspiel refuses a parameter the game does not declare before the game sees it.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'hands'"):
        pyspiel.load_game(KUHN, {"hands": 2})


def test_kuhn_rounds_with_one_hand_is_kuhn():
    for deal in PAIRS:
        for bets in COMPLETE:
            one = deal_and_bet(ROUNDS, {"hands": 1}, deal, bets)
            assert one.returns() == deal_and_bet(KUHN, {}, deal, bets).returns()


@pytest.mark.parametrize("hands", [1, 2, 3])
def test_kuhn_rounds_pays_each_hand_at_its_end(hands):
    game = pyspiel.load_game(ROUNDS, {"hands": hands})
    rng = random.Random(hands)
    for _ in range(20):
        state = game.new_initial_state()
        total, paid_at = [0.0, 0.0], []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                hands_before = len(state.truth.past)
                state.apply_action(rng.choice(state.legal_actions()))
                ended = len(state.truth.past) > hands_before
                rewards = state.rewards()
                # Every hand ends with a winner, so its reward is never zero.
                assert any(rewards) == ended, state.history()
                assert sum(rewards) == 0.0
                if ended:
                    paid_at.append(len(state.history()))
                    # The next state is a decision or the end: OpenSpiel reads it there.
                    assert not state.is_chance_node()
            total = [t + r for t, r in zip(total, state.rewards())]
            assert total == state.returns()
        assert len(paid_at) == hands
        review = json.loads(json.dumps(state.review()))
        assert len(review["hands"]) == hands
        assert review["returns"] == state.returns()
        assert sum(h["pot"] for h in review["hands"]) >= 2 * hands
        rebuilt = fogboard_games.load_review(review)
        assert rebuilt.history() == state.history() and rebuilt.returns() == state.returns()


def test_kuhn_review():
    state = deal_and_bet(KUHN, {}, (0, 2), (0, 1, 1))
    review = state.review()
    assert {k: review[k] for k in ("cards", "betting", "showdown", "winner", "pot")} == {
        "cards": ["J", "K"],
        "betting": ["pass", "bet", "bet"],
        "showdown": True,
        "winner": 1,
        "pot": 4,
    }
    assert review["actions"] == ["deal J", "deal K", "pass", "bet", "bet"]
    assert fogboard_games.load_review(json.loads(json.dumps(review))).returns() == [-2.0, 2.0]
    review["winner"] = 0
    with pytest.raises(ReviewError, match="winner"):
        fogboard_games.load_review(review)


# ---- the guide ---------------------------------------------------------------------


def test_guide_excerpts_are_the_real_code():
    # docs/adding_a_game.md quotes tests/minimal_games.py in ```text blocks
    # (excerpts do not run); each must be a verbatim run of lines of it.
    # A ```text block right after a python block that prints is that block's
    # output instead (tests/test_docs.py checks those).
    source = pathlib.Path(minimal_games.__file__).read_text()
    blocks = re.findall(r"```(\w*)\n(.*?)```", DOC.read_text(), re.S)
    excerpts = [
        body
        for i, (tag, body) in enumerate(blocks)
        if tag == "text"
        and not (i and blocks[i - 1][0] == "python" and "print(" in blocks[i - 1][1])
    ]
    assert len(excerpts) >= 8
    for excerpt in excerpts:
        assert excerpt in source, excerpt[:200]


def test_guide_python_blocks_run(monkeypatch, capsys):
    # As a reader runs them: from the repository root, in order, one namespace.
    monkeypatch.chdir(DOC.parent.parent)
    namespace: dict = {}
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S):
        exec(compile(block, str(DOC), "exec"), namespace)  # our own docs, not user data
    out = capsys.readouterr().out
    assert "seat 1 | card Q | betting pass bet" in out
    assert f"all {len(testing.CHECKS)} conformance checks passed" in out
    assert "rewards [1.0, -1.0] returns [1.0, -1.0]" in out
