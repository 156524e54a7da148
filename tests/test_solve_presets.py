"""The uniform policy's exploitability (NashConv for Parley) on every small
preset and on the rectangular 3 x 2 boards, ours against pyspiel's, to 1e-9
(docs/solving.md#proofs).

Where OpenSpiel has the same game in C++ (liars-dice-classic-1, the
rectangular dark hex boards: the ports are cross-checked move for move,
tests/test_liars_dice_openspiel.py and tests/test_boards_crosscheck.py),
pyspiel's exploitability runs on the C++ twin with its own uniform policy,
which is fast; the others are measured by pyspiel on our pyspiel game, with
the uniform policy exported through TabularPolicy. These are the slow proofs
(a few seconds each); tests/test_solve.py has the quick ones.
"""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy

import fogboard_games
from fogboard_games import solve

TWINS = [
    ("liars-dice-classic-1", "liars_dice(numdice=1)"),
    ("fogboard_dark_hex(num_rows=3,num_cols=2)", "dark_hex(num_rows=3,num_cols=2)"),
    (
        "fogboard_dark_hex(num_rows=2,num_cols=3,abrupt=true)",
        "dark_hex(num_rows=2,num_cols=3,gameversion=adh)",
    ),
]
# The small presets without a C++ twin: pyspiel on our own game. (liars-dice-1
# too, by hand: equal, but pyspiel takes 75 s there, too long for the suite.)
OWN = ["mind-bluff-tiny", "parley-tiny"]


def load(name: str) -> pyspiel.Game:
    return fogboard_games.load(name) if "(" not in name else pyspiel.load_game(name)


def uniform_distance(tree) -> float:
    uniform = solve.uniform(tree)
    if tree.num_players > 2:
        return solve.nash_conv(tree, uniform)
    return solve.exploitability(tree, uniform)


@pytest.mark.parametrize("ours,cpp", TWINS)
def test_uniform_exploitability_equals_pyspiels_on_the_cpp_twin(ours, cpp):
    tree = solve.Tree(load(ours))
    twin = pyspiel.load_game(cpp)
    # (C++'s own uniform policy: a TabularPolicy converted in Python took longer than the walk)
    uniform = pyspiel.UniformRandomPolicy(twin)
    assert uniform_distance(tree) == pytest.approx(pyspiel.exploitability(twin, uniform), abs=1e-9)


@pytest.mark.parametrize("name", OWN)
def test_uniform_distance_equals_pyspiels_on_our_game(name):
    tree = solve.Tree(load(name))
    exported = openspiel_policy.python_policy_to_pyspiel_policy(solve.uniform(tree).to_tabular())
    game = tree.game
    theirs = (
        pyspiel.nash_conv(game, exported)
        if game.num_players() > 2
        else pyspiel.exploitability(game, exported)
    )
    assert uniform_distance(tree) == pytest.approx(theirs, abs=1e-9)
