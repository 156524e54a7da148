"""One-round Liar's Dice's factored tree (liars_dice.tree, docs/solving.md#the-factored-road)
is the generic walk's to the last array, string and solver result, and every
configuration it does not cover is walked."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games import solve
from fogboard_games.liars_dice import tree as liars_dice_tree

# One-round chips games small enough to walk in a test: one and two dice,
# 2 to 6 sides, two and three seats, every wild rule, prophecy off and on at
# payouts 1 to 3, pass off and on.
FACTORED = [
    "players=2,numdice=1,dice_sides=2,wild=one",
    "players=2,numdice=1,dice_sides=3,wild=none,prophecy=false",
    "players=2,numdice=1,dice_sides=3,wild=highest,prophecy_payout=2,allow_pass=true",
    "players=2,numdice=1,dice_sides=3,wild=one,prophecy=false,allow_pass=true",
    "players=2,numdice=1,dice_sides=4,wild=highest,prophecy_payout=3",
    "players=2,numdice=1,dice_sides=5,wild=none,prophecy=false",
    "players=2,numdice=2,dice_sides=2,wild=none",
    "players=2,numdice=2,dice_sides=2,wild=one,prophecy_payout=2",
    "players=2,numdice=2,dice_sides=2,wild=highest,prophecy=false,allow_pass=true",
    "players=3,numdice=1,dice_sides=2,wild=one",
    "players=3,numdice=1,dice_sides=2,wild=none,prophecy_payout=2,allow_pass=true",
    "players=3,numdice=1,dice_sides=2,wild=highest,prophecy=false,allow_pass=true",
    "players=3,numdice=1,dice_sides=3,wild=highest,prophecy=false",
]
# Rerolls and dice mode: chance after a decision, the tree does not factor.
WALKED = [
    "players=2,numdice=1,dice_sides=2,rerolls=1",
    "players=2,numdice=1,dice_sides=3,prophecy=false,mode=dice",
]


def load(params: str):
    if params.startswith("liars-dice"):
        return fogboard_games.load(params)
    return pyspiel.load_game(f"fogboard_liars_dice({params})")


def assert_same_tree(ours: solve.Tree, walked: solve.Tree) -> None:
    """Every attribute of the two trees is equal, arrays in dtype and shape too."""
    mine, theirs = vars(ours), vars(walked)
    assert set(mine) == set(theirs)
    for key in sorted(mine):
        a, b = mine[key], theirs[key]
        if key in ("road", "_strings", "_lookup", "game"):
            continue  # (the strings are compared below, through their properties)
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape, key
            assert np.array_equal(a, b), key
        elif key == "seat_edges":
            assert len(a) == len(b)
            for x, y in zip(a, b):
                assert x.dtype == y.dtype and np.array_equal(x, y), key
        elif key == "levels":
            assert len(a) == len(b)
            for x, y in zip(a, b):
                assert x[:2] == y[:2], key
                for u, v in zip(x[2:], y[2:]):
                    assert u.dtype == v.dtype and np.array_equal(u, v), key
        else:
            assert type(a) is type(b) and a == b, key
    assert ours.infoset_string == walked.infoset_string
    assert ours.lookup == walked.lookup


def assert_same_results(ours: solve.Tree, walked: solve.Tree) -> None:
    """Uniform's distance from equilibrium and a few CFR+ iterations agree
    exactly (the same arrays give the same floats)."""
    distance = solve.exploitability if ours.num_players == 2 else solve.nash_conv
    assert distance(ours, solve.uniform(ours)) == distance(walked, solve.uniform(walked))
    mine = solve.CFRPlus(ours).run(3).average_policy()
    theirs = solve.CFRPlus(walked).run(3).average_policy()
    assert np.array_equal(mine.probs, theirs.probs)
    assert distance(ours, mine) == distance(walked, theirs)
    assert np.array_equal(solve.expected_values(ours, mine), solve.expected_values(walked, theirs))


@pytest.mark.parametrize("params", [*FACTORED, "liars-dice-classic-1"])
def test_factored_tree_is_the_walks(params):
    game = load(params)
    ours = solve.Tree(game)
    walked = solve.Tree(game, factored=False)
    assert (ours.road, walked.road) == ("factored", "walk")
    assert_same_tree(ours, walked)
    assert_same_results(ours, walked)


def test_classic_one_die_has_its_published_size():
    tree = solve.Tree(load("liars-dice-classic-1"))
    assert tree.road == "factored"
    assert tree.num_histories == 294883
    assert tree.num_infostates == [12288, 12288]


@pytest.mark.parametrize("params", WALKED)
def test_what_does_not_factor_is_walked(params):
    game = load(params)
    assert liars_dice_tree.tree_arrays(game.setup, 10**9) is None
    tree = solve.Tree(game)
    assert tree.road == "walk"
    assert_same_tree(tree, solve.Tree(game, factored=False))


def test_factored_road_refuses_past_the_bound_with_the_count():
    # The estimate (about 140,000) passes a bound of 200,000 histories; the
    # factored road counts 36 deals of 13,671 bidding histories and refuses.
    game = load("liars-dice-classic-1")
    with pytest.raises(ValueError, match=r"liars_dice.*more than 2e\+05 histories \(36 deals"):
        solve.Tree(game, max_bytes=200_000 * solve.tree.BUILD_BYTES_PER_NODE)
    with pytest.raises(ValueError, match=r"more than 2e\+05 histories \(the estimate"):
        solve.Tree(game, max_bytes=200_000 * solve.tree.BUILD_BYTES_PER_NODE, factored=False)


def test_factored_must_be_a_bool():
    game = load("players=2,numdice=1,dice_sides=2,wild=one")
    with pytest.raises(ValueError, match="factored must be True or False, got 'no'"):
        solve.Tree(game, factored="no")
