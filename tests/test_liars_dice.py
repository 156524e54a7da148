"""Liar's Dice rules, observers, review and resampling (docs/liars_dice.md)."""

from __future__ import annotations

import json
import random

import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games.core import testing
from fogboard_games.core.observer import all_obs_types, piece_table
from fogboard_games.core.registry import CONFORMANCE_EXTRAS, PRESETS
from fogboard_games.core.review import ReviewError
from fogboard_games.liars_dice import rules

NAME = "fogboard_liars_dice"


def load(**params):
    return pyspiel.load_game(NAME, params)


def play(game, *texts):
    """The state after the given action strings (chance's `roll F` included)."""
    return testing.play(game, texts)


def rolls(*faces):
    return [f"roll {f}" for f in faces]


def random_state(game, rng, stop=1.0):
    """A random history; stops early with probability 1 - stop per step."""
    state = game.new_initial_state()
    while not state.is_terminal() and rng.random() < stop:
        if state.is_chance_node():
            state.apply_action(rng.randrange(game.max_chance_outcomes()))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def every_config():
    configs = [p.params for p in PRESETS.values() if p.short_name == NAME]
    return configs + CONFORMANCE_EXTRAS[NAME]


# ---- parameters -----------------------------------------------------------


def test_defaults_match_spec():
    game = load()
    assert game.get_parameters() == {
        "players": 2,
        "numdice": 5,
        "dice_sides": 6,
        "wild": "one",
        "prophecy": True,
        "prophecy_payout": 1,
        "allow_pass": False,
        "rerolls": 0,
        "mode": "chips",
    }
    assert game.num_players() == 2
    assert game.max_chance_outcomes() == 6
    # 60 bids, liar, 60 prophecies.
    assert game.num_distinct_actions() == 121


@pytest.mark.parametrize(
    "params, word",
    [
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"numdice": 0}, "numdice"),
        ({"numdice": 6}, "numdice"),
        ({"dice_sides": 7}, "dice_sides"),
        ({"wild": "two"}, "wild"),
        ({"prophecy_payout": 0}, "prophecy_payout"),
        ({"rerolls": 4}, "rerolls"),
        ({"mode": "coins"}, "mode"),
        ({"allow_pass": 1}, "allow_pass"),
        ({"bidding_rule": "reset-face"}, "bidding_rule"),
    ],
)
def test_bad_parameters_are_refused_by_name(params, word):
    with pytest.raises((ValueError, pyspiel.SpielError), match=word):
        load(**params)


def test_presets_exist():
    for name in ("liars-dice", "liars-dice-1", "liars-dice-classic", "liars-dice-classic-1"):
        assert fogboard_games.load(name).get_type().short_name == NAME
    assert fogboard_games.load("liars-dice-1").get_parameters()["numdice"] == 1


# ---- action ids and strings ---------------------------------------------------------


def test_action_ids_follow_spec():
    game = load(players=3, numdice=2, prophecy=True, allow_pass=True, rerolls=1)
    s = game.new_initial_state()
    total, sides = 6, 6
    # Each id is asked where it is legal: keep and reroll once the dice are
    # rolled, bids before the opening bid, the calls on a standing bid.
    choosing = play(game, *rolls(1, 2, 3, 4, 5, 6))
    assert choosing.string_to_action("keep") == 2 * total * sides + 2
    assert choosing.string_to_action("reroll") == 2 * total * sides + 3
    opening = play(game, *rolls(1, 2, 3, 4, 5, 6), "keep", "keep", "keep")
    assert opening.string_to_action("bid 1x1") == 0
    assert opening.string_to_action("bid 3x4") == 2 * sides + 3
    standing = play(game, *rolls(1, 2, 3, 4, 5, 6), "keep", "keep", "keep", "bid 1x1")
    assert standing.string_to_action("liar") == total * sides
    # prophecy 1x1 never raises a standing bid, so no node names it: its id is read back.
    assert standing.action_to_string(1, total * sides + 1) == "prophecy 1x1"
    assert standing.string_to_action("prophecy 1x2") == total * sides + 2
    assert standing.string_to_action("prophecy 6x6") == 2 * total * sides
    assert standing.string_to_action("pass") == 2 * total * sides + 1
    assert game.num_distinct_actions() == 2 * total * sides + 4
    # Between them the three nodes make every other id legal, each named back to itself.
    named = set()
    for node in (choosing, opening, standing):
        for a in node.legal_actions():
            assert node.string_to_action(node.action_to_string(node.current_player(), a)) == a
            named.add(a)
    assert named == set(range(game.num_distinct_actions())) - {total * sides + 1}
    assert s.string_to_action("roll 5") == 4  # the root is a chance node
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "roll 5"
    for bad in ("bid 7x1", "bid 1x7", "bid 0x1", "prophecy", "fold"):
        with pytest.raises(ValueError):
            standing.string_to_action(bad)
    # string_to_action names the actions of the node it is asked at, no others.
    for bad in ("roll 7", "roll 0", "bid 1x1", "liar", "roll \u0665", "5"):
        with pytest.raises(ValueError, match="legal: roll 1, roll 2, "):
            s.string_to_action(bad)
    s = play(game, *rolls(1, 2, 3, 4, 5, 6), "keep", "keep", "keep")
    assert s.string_to_action(" BID  3x4 ") == 2 * sides + 3
    for bad in ("roll 3", "bid \u0661x\u0662", "bid 7x1", "pass", "keep", "bid 3 x 4"):
        with pytest.raises(ValueError, match="not a legal action of seat 0 here; legal: bid 1x1, "):
            s.string_to_action(bad)


def test_actions_of_rules_that_are_off_do_not_exist():
    game = load(prophecy=False)
    s = game.new_initial_state()
    assert game.num_distinct_actions() == 61
    for text in ("prophecy 1x1", "pass", "keep", "reroll"):
        with pytest.raises(ValueError):
            s.string_to_action(text)


# ---- rolling ----------------------------------------------------------------------


def test_dice_rolled_in_seat_order_one_per_chance_node():
    game = load(players=3, numdice=2)
    s = game.new_initial_state()
    for _ in range(6):
        assert s.is_chance_node()
        assert s.chance_outcomes() == [(f, 1 / 6) for f in range(6)]
        s.apply_action(s.string_to_action("roll 3"))
    assert s.current_player() == 0
    s = play(game, *rolls(1, 2, 3, 4, 5, 6))
    assert s.truth.hands == [(1, 2), (3, 4), (5, 6)]
    assert s.information_state_string(1).startswith("seat 1 | round 1: hand 34")


# ---- counting and the liar call ------------------------------------------------------


def test_wild_one_counts_toward_a_bid_on_threes():
    game = load(numdice=2, wild="one")
    # Seat 0 holds 1 and 3, seat 1 holds 1 and 5: three dice count as 3s.
    s = play(game, *rolls(1, 3, 1, 5), "bid 3x3", "liar")
    assert s.returns() == [1.0, -1.0]  # bid good: the caller pays
    s = play(game, *rolls(1, 3, 1, 5), "bid 4x3", "liar")
    assert s.returns() == [-1.0, 1.0]
    assert s.review()["rounds"][0]["showdown"]["count"] == 3


def test_a_bid_on_ones_counts_only_ones():
    game = load(numdice=2, wild="one")
    s = play(game, *rolls(1, 3, 1, 5), "bid 3x1", "liar")
    assert s.review()["rounds"][0]["showdown"]["count"] == 2
    assert s.returns() == [-1.0, 1.0]


def test_wild_highest_and_none():
    s = play(load(numdice=2, wild="highest"), *rolls(6, 3, 1, 3), "bid 3x3", "liar")
    assert s.returns() == [1.0, -1.0]  # 3, 3 and the wild 6
    s = play(load(numdice=2, wild="highest"), *rolls(6, 3, 6, 3), "bid 3x6", "liar")
    assert s.returns() == [-1.0, 1.0]  # only the two 6s count for 6s
    s = play(load(numdice=2, wild="none"), *rolls(1, 3, 1, 3), "bid 3x3", "liar")
    assert s.returns() == [-1.0, 1.0]  # no wilds: two 3s


def test_raise_rule():
    game = load(numdice=2)
    s = play(game, *rolls(2, 2, 2, 2), "bid 2x4")
    legal = [s.action_to_string(1, a) for a in s.legal_actions()]
    bids = [t for t in legal if t.startswith("bid")]
    assert bids[:2] == ["bid 2x5", "bid 2x6"]
    assert "bid 2x4" not in bids and "bid 2x3" not in bids
    assert "bid 3x1" in bids and bids[-1] == "bid 4x6"
    assert "liar" in legal
    with pytest.raises(ValueError, match="bid 2x3"):
        s.apply_action(s.string_to_action("bid 2x3"))


def test_opening_move_is_a_bid():
    s = play(load(numdice=2), *rolls(2, 2, 2, 2))
    texts = [s.action_to_string(0, a) for a in s.legal_actions()]
    assert all(t.startswith("bid") for t in texts) and len(texts) == 24


# ---- prophecy ------------------------------------------------------------------------


def test_exact_prophecy_wins_the_payout_from_the_holder():
    game = load(players=3, numdice=1, prophecy_payout=3)
    # Faces 2, 1, 2: with 1s wild there are exactly three 2s.
    s = play(game, *rolls(2, 1, 2), "bid 1x2", "bid 2x2", "prophecy 3x2")
    assert s.is_terminal()
    assert s.returns() == [0.0, -3.0, 3.0]  # seat 1 held the standing bid
    show = s.review()["rounds"][0]["showdown"]
    assert show["paid"] == {"payer": 1, "payee": 2, "amount": 3}
    assert show["call"] == "prophecy" and show["prophecy"] == "3x2" and show["count"] == 3


def test_failed_prophecy_pays_the_holder_one():
    game = load(players=3, numdice=1, prophecy_payout=3)
    s = play(game, *rolls(2, 1, 3), "bid 1x2", "bid 2x2", "prophecy 3x2")
    assert s.returns() == [0.0, 1.0, -1.0]
    assert s.review()["rounds"][0]["showdown"]["count"] == 2


def test_prophecy_needs_a_standing_bid_by_another_seat_and_must_raise():
    game = load(numdice=2)
    s = play(game, *rolls(2, 2, 2, 2))
    assert not any(s.action_to_string(0, a).startswith("prophecy") for a in s.legal_actions())
    s.apply_action(s.string_to_action("bid 2x4"))
    texts = [s.action_to_string(1, a) for a in s.legal_actions()]
    prophecies = [t for t in texts if t.startswith("prophecy")]
    assert prophecies[0] == "prophecy 2x5" and "prophecy 2x4" not in prophecies
    assert len(prophecies) == len([t for t in texts if t.startswith("bid")])


# ---- pass ----------------------------------------------------------------------------


def test_pass_back_to_the_bidder_who_must_raise():
    game = load(players=3, numdice=1, allow_pass=True)
    s = play(game, *rolls(2, 3, 4))
    assert "pass" not in [s.action_to_string(0, a) for a in s.legal_actions()]
    s = play(game, *rolls(2, 3, 4), "bid 1x2", "pass", "pass")
    assert s.current_player() == 0  # back to the holder
    texts = [s.action_to_string(0, a) for a in s.legal_actions()]
    assert all(t.startswith("bid") for t in texts)  # no liar on itself, no pass
    assert texts[0] == "bid 1x3"
    with pytest.raises(ValueError, match="not a legal action of seat 0"):
        s.string_to_action("liar")
    with pytest.raises(ValueError, match="holder must raise"):
        s.apply_action(game.setup.liar)
    # Any non-holder may still call liar after passes.
    s = play(game, *rolls(2, 3, 4), "bid 2x2", "pass", "liar")
    assert s.returns() == [-1.0, 0.0, 1.0]  # one 2 only: the caller, seat 2, wins
    s = play(game, *rolls(2, 1, 4), "bid 2x2", "pass", "liar")
    assert s.returns() == [1.0, 0.0, -1.0]  # a 2 and a wild 1: the holder wins


def test_pass_refused_at_the_highest_bid():
    game = load(numdice=1, allow_pass=True)
    s = play(game, *rolls(2, 3), "bid 2x6")
    texts = [s.action_to_string(1, a) for a in s.legal_actions()]
    assert texts == ["liar"]


# ---- rerolls ---------------------------------------------------------------------------


def test_reroll_is_public_and_its_faces_private():
    game = load(numdice=2, rerolls=2)
    base = play(game, *rolls(3, 4, 5, 6))
    assert base.current_player() == 0
    assert [base.action_to_string(0, a) for a in base.legal_actions()] == ["keep", "reroll"]
    a = play(game, *rolls(3, 4, 5, 6), "reroll", *rolls(2, 2))
    b = play(game, *rolls(3, 4, 5, 6), "reroll", *rolls(1, 6))
    assert a.current_player() == 0  # one reroll left: seat 0 chooses again
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_tensor(1) == b.information_state_tensor(1)
    assert "P0 reroll" in a.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "hand 34, P0 reroll, hand 22" in a.information_state_string(0)
    # The second reroll uses the last one: no third choice.
    c = play(game, *rolls(3, 4, 5, 6), "reroll", *rolls(2, 2), "reroll", *rolls(1, 1))
    assert c.current_player() == 1
    c = play(game, *rolls(3, 4, 5, 6), "reroll", *rolls(2, 2), "reroll", *rolls(1, 1), "keep")
    assert c.current_player() == 0 and c.truth.phase == rules.BIDDING
    c.apply_action(c.string_to_action("bid 3x2"))
    c.apply_action(c.string_to_action("liar"))
    show = c.review()["rounds"][0]
    assert show["hands"][0] == [[3, 4], [2, 2], [1, 1]]
    assert show["showdown"]["count"] == 2 and c.returns() == [-1.0, 1.0]


# ---- dice mode --------------------------------------------------------------------------


def test_dice_mode_across_rounds():
    game = load(players=3, numdice=1, dice_sides=2, mode="dice", prophecy=False)
    # Round 1: seat 0 bids 3x2 on 1/1/2 with 1s wild... 1s are wild here:
    s = play(game, *rolls(2, 2, 1), "bid 3x2", "liar")
    # Three dice count as 2s (2, 2, wild 1): the caller, seat 1, loses its die.
    assert s.truth.dice == (1, 0, 1)
    assert s.is_chance_node()
    s.apply_action(s.string_to_action("roll 2"))  # seat 0
    s.apply_action(s.string_to_action("roll 2"))  # seat 2; seat 1 is skipped
    assert s.current_player() == 2  # the loser is out: the next seat with dice opens
    assert "round 2 dice 1 0 1" in s.information_state_string(0)
    assert "show P0:2 P1:2 P2:1" in s.information_state_string(0)
    s.apply_action(s.string_to_action("bid 1x1"))
    assert s.current_player() == 0  # seat 1 has no dice: skipped
    s.apply_action(s.string_to_action("liar"))
    assert s.is_terminal()
    # No 1s among 2, 2: seat 2 loses its last die; seat 0 is the last with dice.
    assert s.returns() == [1.0, -0.5, -0.5]
    review = s.review()
    assert review["winner"] == 0 and review["dice_left"] == [1, 0, 0]
    assert [r["opener"] for r in review["rounds"]] == [0, 2]


def test_dice_mode_loser_opens_next_round():
    game = load(numdice=2, dice_sides=3, mode="dice", prophecy=False)
    s = play(game, *rolls(1, 2, 3, 3), "bid 4x3", "liar")
    assert s.truth.dice == (1, 2) and s.truth.opener == 0
    s = play(game, *rolls(1, 2, 3, 3), "bid 1x3", "liar")
    assert s.truth.dice == (2, 1) and s.truth.opener == 1
    s.apply_action(0)
    s.apply_action(0)
    s.apply_action(0)
    assert s.current_player() == 1
    # Q is at most the dice in play: three dice now.
    assert max(s.legal_actions()) == 3 * 3 - 1


def test_exact_prophecy_in_dice_mode_costs_up_to_the_payout():
    game = load(numdice=3, dice_sides=2, mode="dice", prophecy_payout=2)
    s = play(game, *rolls(2, 2, 2, 2, 2, 2), "bid 1x2", "prophecy 6x2")
    assert s.truth.dice == (1, 3)
    # Play the match out at random to its end and check the review's dice.
    rng = random.Random(0)
    while not s.is_terminal():
        s.apply_action(rng.randrange(2) if s.is_chance_node() else rng.choice(s.legal_actions()))
    review = s.review()
    assert review["rounds"][0]["showdown"]["dice_lost"] == {"seat": 0, "dice": 2}
    assert sorted(s.returns()) == [-1.0, 1.0]


# ---- returns, bounds, lengths ----------------------------------------------------------------


@pytest.mark.parametrize("params", every_config())
def test_returns_within_bounds_and_zero_sum(params):
    game = load(**params)
    rng = random.Random(7)
    n = game.num_players()
    for _ in range(30):
        s = random_state(game, rng)
        assert s.is_terminal()
        ret = s.returns()
        assert abs(sum(ret)) < 1e-12
        assert all(game.min_utility() <= r <= game.max_utility() for r in ret)
        winners = [p for p in range(n) if ret[p] > 0]
        assert len(winners) == 1
        if params.get("mode", "chips") == "chips":
            # Only the winner and the loser are paid.
            assert sum(1 for r in ret if r != 0) == 2
        else:
            assert sorted(ret)[:-1] == [-1.0 / (n - 1)] * (n - 1)
        assert len(s.history()) - chance_count(s) <= game.max_game_length()


def chance_count(state):
    return sum(1 for e in state.truth.events if e[0] == rules.ROLL)


def test_utility_bounds():
    assert (load(prophecy_payout=3).min_utility(), load(prophecy_payout=3).max_utility()) == (-3, 3)
    g = load(players=4, mode="dice")
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1 / 3, 1.0, 0.0)


def longest(state, memo) -> int:
    """Most decisions from `state` to the end (exhaustive search).

    The future depends on the past only through the dice counts, the hands
    and the round's bidding position, so positions are memoised on those.
    """
    if state.is_terminal():
        return 0
    m = state.truth
    key = (
        tuple(m.dice),
        tuple(map(tuple, m.hands)),
        m.phase,
        m.bid,
        m.holder,
        m.mover,
        m.opener,
        m.roller,
        tuple(m.rerolls_used),
    )
    if key not in memo:
        if state.is_chance_node():
            memo[key] = max(longest(state.child(a), memo) for a, _ in state.chance_outcomes())
        else:
            memo[key] = max(1 + longest(state.child(a), memo) for a in state.legal_actions())
    return memo[key]


@pytest.mark.parametrize(
    "params",
    [
        {"numdice": 1, "dice_sides": 2, "prophecy": False},
        {"players": 3, "numdice": 1, "dice_sides": 2, "allow_pass": True, "prophecy": False},
        {"numdice": 1, "dice_sides": 2, "rerolls": 2, "prophecy": False, "allow_pass": True},
        {"numdice": 2, "dice_sides": 2, "mode": "dice", "prophecy": False},
        {"players": 3, "numdice": 1, "dice_sides": 2, "mode": "dice", "allow_pass": True},
        # Two sides with a wild face: a bid on the other face can never fail,
        # which shapes who can lose a round.
        {"players": 3, "numdice": 1, "dice_sides": 2, "prophecy": False, "mode": "dice"},
        {"numdice": 2, "dice_sides": 2, "wild": "highest", "prophecy_payout": 2, "mode": "dice"},
        {"numdice": 2, "dice_sides": 2, "wild": "none", "prophecy_payout": 2, "mode": "dice"},
        {"players": 3, "numdice": 1, "dice_sides": 3, "wild": "none", "prophecy": True},
    ],
)
def test_max_game_length_is_exact(params):
    game = load(**params)
    assert longest(game.new_initial_state(), {}) == game.max_game_length()


def test_max_game_length_matches_openspiel():
    for numdice in (1, 5):
        ours = load(numdice=numdice, wild="highest", prophecy=False)
        theirs = pyspiel.load_game(f"liars_dice(numdice={numdice})")
        assert ours.max_game_length() == theirs.max_game_length()


# ---- illegal actions ------------------------------------------------------------------------


def test_illegal_actions_are_refused_and_the_state_kept():
    game = load(numdice=1)
    s = play(game, *rolls(2, 3), "bid 1x4")
    before = (s.information_state_string(0), s.history(), s.legal_actions())
    for bad in (0, 3, game.num_distinct_actions(), 10**6):
        with pytest.raises(ValueError) as err:
            s.apply_action(bad)
        assert "seat 1" in str(err.value) and "legal:" in str(err.value)
    with pytest.raises(pyspiel.SpielError):  # pyspiel itself refuses kInvalidAction
        s.apply_action(-1)
    assert (s.information_state_string(0), s.history(), s.legal_actions()) == before
    s.apply_action(s.string_to_action("liar"))
    with pytest.raises(ValueError, match="over"):
        s.apply_action(0)
    c = game.new_initial_state()
    with pytest.raises(ValueError, match="chance outcome"):
        c.apply_action(6)


# ---- information ---------------------------------------------------------------------------


def test_info_state_holds_own_dice_and_nothing_of_others_until_the_showdown():
    game = load(numdice=2)
    a = play(game, *rolls(3, 4, 5, 6), "bid 2x3")
    b = play(game, *rolls(3, 4, 1, 1), "bid 2x3")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_string(0) == "seat 0 | round 1: hand 34, P0 bid 2x3"
    a.apply_action(a.string_to_action("liar"))
    b.apply_action(b.string_to_action("liar"))
    # The showdown shows every die.
    assert a.information_state_string(0) != b.information_state_string(0)
    assert "P1:56" in a.information_state_string(0)


@pytest.mark.parametrize("params", every_config())
def test_python_and_cpp_routes_agree(params):
    game = load(**params)
    rng = random.Random(3)
    for _ in range(15):
        s = random_state(game, rng, stop=0.97)
        assert pyspiel.State.legal_actions(s) == s.legal_actions()
        assert pyspiel.State.current_player(s) == s.current_player()
        assert pyspiel.State.is_terminal(s) == s.is_terminal()
        assert pyspiel.State.is_chance_node(s) == s.is_chance_node()
        if s.is_chance_node():
            assert pyspiel.State.chance_outcomes(s) == s.chance_outcomes()
        if s.is_player_node():
            p = s.current_player()
            assert pyspiel.State.legal_actions(s, p) == s.legal_actions(p)
            assert pyspiel.State.legal_actions_mask(s, p) == s.legal_actions_mask(p)
        for p in range(game.num_players()):
            assert pyspiel.State.information_state_tensor(s, p) == s.information_state_tensor(p)
            assert pyspiel.State.information_state_string(s, p) == s.information_state_string(p)
            assert pyspiel.State.observation_tensor(s, p) == s.observation_tensor(p)
            assert pyspiel.State.observation_string(s, p) == s.observation_string(p)


@pytest.mark.parametrize("params", every_config())
def test_every_observer_type(params):
    game = load(**params)
    rng = random.Random(5)
    observers = [(t, game.make_py_observer(t)) for t in all_obs_types()]
    states = [random_state(game, rng, stop=0.95) for _ in range(12)]
    for iig, ob in observers:
        for s in states:
            strings, tensors = [], []
            for p in range(game.num_players()):
                ob.set_from(s, p)
                tensors.append(ob.tensor.copy())
                strings.append(ob.string_from(s, p))
                assert np.all(ob.tensor >= 0)
            if iig.private_info == pyspiel.PrivateInfoType.NONE:
                # Public-only: the same for every seat.
                assert all(t.tolist() == tensors[0].tolist() for t in tensors)
                assert len(set(strings)) == 1
    # Equal information-state strings imply equal tensors and legal actions.
    # Short random histories of the first decisions reach one information
    # state by several histories (other seats' dice, the order of one's own).
    seen, first, repeats = {}, {}, 0
    for _ in range(400):
        s = game.new_initial_state()
        while s.is_chance_node() or (s.is_player_node() and rng.random() < 0.3):
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()] or s.legal_actions()))
        if not s.is_player_node():
            continue
        p = s.current_player()
        key = s.information_state_string(p)
        value = (tuple(s.information_state_tensor(p)), tuple(s.legal_actions()))
        assert seen.setdefault(key, value) == value
        repeats += first.setdefault(key, s.history()) != s.history()
    assert repeats > 0, "no information state reached by two histories: nothing was compared"


def test_public_observer_hides_every_die_before_the_showdown():
    game = load(numdice=2, rerolls=1)
    ob = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    )
    a = play(game, *rolls(3, 4, 5, 6), "reroll", *rolls(1, 1), "keep", "bid 1x2")
    b = play(game, *rolls(1, 2, 2, 2), "reroll", *rolls(6, 6), "keep", "bid 1x2")
    ob.set_from(a, 0)
    ta = ob.tensor.copy()
    ob.set_from(b, 0)
    assert ta.tolist() == ob.tensor.tolist()
    assert ob.string_from(a, 0) == ob.string_from(b, 0) == "round 1: P0 reroll, P1 keep, P0 bid 1x2"


# ---- resample ------------------------------------------------------------------------------


@pytest.mark.parametrize("params", every_config())
def test_resample_keeps_the_information_state(params):
    game = load(**params)
    rng = random.Random(11)
    for _ in range(12):
        s = random_state(game, rng, stop=0.95)
        if s.is_terminal():  # nothing is hidden any more: refused
            with pytest.raises(ValueError, match="running game"):
                s.resample_from_infostate(0, rng.random)
            continue
        for p in range(game.num_players()):
            world = s.resample_from_infostate(p, rng.random)
            assert world.information_state_string(p) == s.information_state_string(p)
            assert world.history()[-len(s.history()) :] != [] or not s.history()
            assert len(world.history()) == len(s.history())
            # Only dice change: every decision, the seat's own hand and the mover stay.
            decisions = [e for e in s.truth.events if e[0] != rules.ROLL]
            assert [e for e in world.truth.events if e[0] != rules.ROLL] == decisions
            assert world.truth.hands[p] == s.truth.hands[p]
            assert world.current_player() == s.current_player()


def test_resample_draws_other_dice_uniformly():
    game = load(numdice=1)
    s = play(game, *rolls(4, 2), "bid 1x3")
    rng = random.Random(2)
    counts = [0] * 6
    for _ in range(3000):
        world = s.resample_from_infostate(0, rng.random)
        assert world.truth.hands[0] == (4,)
        counts[world.truth.hands[1][0] - 1] += 1
    assert all(400 < c < 600 for c in counts)
    # Revealed rounds are never altered.
    game = load(numdice=2, dice_sides=3, mode="dice")
    s = play(game, *rolls(1, 2, 3, 3), "bid 1x3", "liar", *rolls(2, 2, 2))
    for _ in range(50):
        world = s.resample_from_infostate(0, rng.random)
        assert world.truth.showdowns[0] == s.truth.showdowns[0]
        assert world.truth.hands[0] == (2, 2)


def test_resample_with_pyspiel_sampler():
    game = load(numdice=1)
    s = play(game, *rolls(4, 2), "bid 1x3")
    world = s.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.truth.hands[1] == (2,)


# ---- review -----------------------------------------------------------------------------------


def test_review_before_the_end_is_an_error():
    with pytest.raises(ValueError, match="once the game is over"):
        load().new_initial_state().review()


@pytest.mark.parametrize("params", every_config())
def test_review_round_trip(params):
    game = load(**params)
    rng = random.Random(13)
    for _ in range(5):
        s = random_state(game, rng)
        review = json.loads(json.dumps(s.review()))
        back = fogboard_games.load_review(review)
        assert back.history() == s.history()
        assert back.returns() == s.returns()


def test_review_shows_dice_bids_count_and_payment():
    game = load(numdice=2, wild="one")
    s = play(game, *rolls(1, 3, 1, 5), "bid 2x5", "bid 3x3", "liar")
    r = s.review()
    assert r["actions"] == rolls(1, 3, 1, 5) + ["bid 2x5", "bid 3x3", "liar"]
    rnd = r["rounds"][0]
    assert rnd["hands"] == [[[1, 3]], [[1, 5]]]
    assert rnd["turns"] == [
        {"seat": 0, "action": "bid 2x5"},
        {"seat": 1, "action": "bid 3x3"},
        {"seat": 0, "action": "liar"},
    ]
    assert rnd["showdown"]["count"] == 3 and rnd["showdown"]["standing_bid"] == "3x3"
    assert rnd["showdown"]["paid"] == {"payer": 0, "payee": 1, "amount": 1}
    tampered = json.loads(json.dumps(r))
    tampered["rounds"][0]["showdown"]["count"] = 2
    with pytest.raises(ReviewError, match="count"):
        fogboard_games.load_review(tampered)
    tampered = json.loads(json.dumps(r))
    tampered["actions"][0] = "roll 6"
    with pytest.raises(ReviewError):
        fogboard_games.load_review(tampered)


# ---- clones -------------------------------------------------------------------------------------


def test_clones_are_independent():
    game = load(numdice=2, rerolls=1, mode="dice")
    s = play(game, *rolls(1, 2, 3, 4))
    c = s.clone()
    c.apply_action(c.string_to_action("reroll"))
    assert s.information_state_string(0) == "seat 0 | round 1 dice 2 2: hand 12"
    assert s.current_player() == 0 and c.is_chance_node()
    fresh = game.new_initial_state()
    fresh.apply_action(0)
    assert game.new_initial_state().is_chance_node()
    assert game.new_initial_state().truth.events == []


def test_bid_rows_of_rounds_never_overlap():
    """Dice mode stacks each round's bids in its own rows: every bid its own cell."""
    game = load(players=3, numdice=2, dice_sides=3, mode="dice", allow_pass=True)
    layout = game.info_layout
    start, (rows, n) = layout.offset["bids"], layout.shape["bids"]
    rng = random.Random(17)
    for _ in range(40):
        s = random_state(game, rng)
        bids = sum(1 for e in s.truth.events if e[0] == rules.ACT and e[2] < game.setup.num_bids)
        piece = s.information_state_tensor(0)[start : start + rows * n]
        assert piece.count(1.0) == bids and sum(piece) == bids
        assert len(s.truth.showdowns) == len(s.review()["rounds"])


@pytest.mark.parametrize("params", every_config())
def test_tensor_read_along_a_playout_matches_a_fresh_encoding(params):
    """The Python route resumes its walk of the log; it must equal a fresh one."""
    game = load(**params)
    rng = random.Random(19)
    for _ in range(4):
        s = game.new_initial_state()
        while not s.is_terminal():
            for p in rng.sample(range(game.num_players()), 2):
                assert s.information_state_tensor(p) == pyspiel.State.information_state_tensor(s, p)
            if rng.random() < 0.1:
                s = s.clone()  # a clone starts without the cache
            if s.is_chance_node():
                s.apply_action(rng.randrange(game.max_chance_outcomes()))
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        for p in range(game.num_players()):
            assert s.information_state_tensor(p) == pyspiel.State.information_state_tensor(s, p)


def test_docs_show_the_tables_the_code_has():
    import pathlib

    from fogboard_games.liars_dice.game import SPEC

    text = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "liars_dice.md").read_text()
    assert SPEC.table() in text
    for name in ("liars-dice", "liars-dice-table"):
        game = fogboard_games.load(name)
        size = game.information_state_tensor_size()
        assert (
            f"{name}: information state ({size} floats)\n\n" + piece_table(game.info_layout) in text
        )
        assert f"| `{name}` |" in text and f"| {game.max_game_length()} | {size} |" in text
    game = fogboard_games.load("liars-dice")
    assert piece_table(game.obs_layout) in text


def test_cfr_example_solves_a_tiny_game():
    """examples/liars_dice_cfr.py on two-sided one-die dice: CFR+ converges."""
    import gc
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "liars_dice_cfr.py"
    spec = importlib.util.spec_from_file_location("liars_dice_cfr", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    params = pyspiel.load_game(
        example.game_string(None, "numdice=1,wild=one,prophecy=false")
    ).get_parameters()
    assert {k: params[k] for k in ("numdice", "wild", "prophecy")} == {
        "numdice": 1,
        "wild": "one",
        "prophecy": False,
    }
    assert example.game_string("liars-dice-1", "") == str(fogboard_games.load("liars-dice-1"))
    game = "fogboard_liars_dice(numdice=1,dice_sides=2,prophecy=false,wild=none)"
    rows = example.solve(game, iterations=200, report=100, seconds=60)
    assert gc.isenabled()  # the solver's pause of the collector ends with it
    assert [r[0] for r in rows] == [100, 200]
    assert rows[-1][1] < rows[0][1] < 0.01  # exploitability falls
    assert -1.0 < rows[-1][2] < 1.0


# ---- information boundaries, on random histories ----------------------------------


def _replay_with_other_dice(game, history, seat, rng):
    """The same history with every die of the other seats rolled again.

    Returns the pairs (original state, altered state) at every step up to
    the first showdown.
    """
    sides = game.get_parameters()["dice_sides"]
    a, b = game.new_initial_state(), game.new_initial_state()
    pairs = []
    for action in history:
        if a.truth.showdowns:  # dice shown: the rest may differ, and lawfully
            break
        alt = action
        if a.is_chance_node() and a.truth.roller != seat:
            alt = rng.randrange(sides)
        # Legal decisions depend on public facts only, never on hidden dice.
        assert alt in (b.legal_actions() if not b.is_chance_node() else range(sides))
        a.apply_action(action)
        b.apply_action(alt)
        pairs.append((a.clone(), b.clone()))
    return pairs


@pytest.mark.parametrize("params", every_config())
def test_other_seats_dice_never_reach_a_seat_before_the_showdown(params):
    """Re-rolling only the other seats' dice leaves a seat's information state
    (string and tensor, and its observation) unchanged until dice are shown;
    re-rolling its own dice changes it."""
    game = pyspiel.load_game(NAME, params)
    rng = random.Random(5)
    compared = changed_own = 0
    for _ in range(12):
        state = random_state(game, rng)
        history = state.history()
        seat = rng.randrange(game.num_players())
        for a, b in _replay_with_other_dice(game, history, seat, rng):
            if a.truth.showdowns:  # after a showdown the dice are public
                break
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
            compared += 1
        # The seat's own first die, changed, must show in its information state.
        own = game.new_initial_state()
        for i, action in enumerate(history):
            if own.is_chance_node() and own.truth.roller == seat:
                other = (action + 1) % game.get_parameters()["dice_sides"]
                twin = own.child(other)
                own.apply_action(action)
                assert own.information_state_string(seat) != twin.information_state_string(seat)
                assert own.information_state_tensor(seat) != twin.information_state_tensor(seat)
                changed_own += 1
                break
            own.apply_action(action)
            if i > 40:
                break
    assert compared > 20 and changed_own > 0


def test_a_bare_match_pickles_and_plays_on():
    """Rules without pyspiel pickle too: a Setup with no game is rebuilt
    from its parameters (a game's Setup comes back as its game's)."""
    import pickle

    setup = rules.Setup(2, 1, 6, "one", True, 1, False, 0, "chips")
    m = rules.Match(setup)
    assert m.play(2)
    back = pickle.loads(pickle.dumps(m))
    assert back.hands == m.hands and back.events == m.events
    assert (back.setup.players, back.setup.wild, back.setup.prophecy) == (2, "one", True)
    for match in (m, back):
        assert match.play(4)
        bid = [a for a in match.options if match.setup.action_name(match.mover, a) == "bid 1x3"]
        assert match.play(*bid)
        assert match.play(match.setup.liar)
    assert back.returns() == m.returns() != [0.0, 0.0]


def test_an_exact_prophecy_costs_the_holder_no_more_dice_than_it_has():
    game = load(players=3, numdice=1, dice_sides=2, wild="none", prophecy_payout=3, mode="dice")
    s = play(game, *rolls(1, 1, 1), "bid 1x1", "prophecy 3x1")
    assert s.truth.dice == (0, 1, 1)
    assert "P0 loses 1 die" in s.information_state_string(1)
    assert "loses 3" not in s.information_state_string(1)
    assert "round 2 dice 0 1 1" in s.information_state_string(1)


def test_resample_redraws_hands_rerolled_away_in_finished_rounds():
    """A reroll's discarded hand is never shown, not even at the showdown
    (which shows final hands): resampling must vary it, and keep the shown
    hands and the seat's information state."""
    game = load(numdice=2, dice_sides=3, rerolls=1, mode="dice", prophecy=False)
    s = play(game, *rolls(1, 3, 3, 1), "keep", "reroll", *rolls(2, 3), "bid 1x1", "liar")
    assert s.truth.round == 1 and not s.is_terminal()
    rng = random.Random(4)
    discarded, final = set(), set()
    for _ in range(200):
        world = s.resample_from_infostate(0, rng.random)
        assert world.information_state_string(0) == s.information_state_string(0)
        assert world.information_state_tensor(0) == s.information_state_tensor(0)
        seat1 = [e[2] for e in world.truth.events[:8] if e[0] == rules.ROLL and e[1] == 1]
        discarded.add(tuple(seat1[:2]))
        final.add(tuple(seat1[2:]))
    assert final == {(2, 3)}  # shown at the showdown
    assert len(discarded) == 9  # every hand of two three-sided dice
