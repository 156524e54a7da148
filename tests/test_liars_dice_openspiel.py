"""Cross-check against OpenSpiel's C++ liars_dice (docs/liars_dice.md).

With wild=highest, no prophecy, no pass, no rerolls and mode chips, our game
must be OpenSpiel's `liars_dice` (bidding_rule reset-face, its default):
the same action ids, chance outcomes, histories and returns; with one die
each also the same partition of histories into information states.
"""

from __future__ import annotations

import gc
import random

import pyspiel
import pytest

import fogboard_games  # noqa: F401  (registers fogboard_liars_dice)

NAME = "fogboard_liars_dice"
CLASSIC = {"wild": "highest", "prophecy": False}


def pair(numdice: int, dice_sides: int = 6):
    ours = pyspiel.load_game(NAME, dict(CLASSIC, numdice=numdice, dice_sides=dice_sides))
    theirs = pyspiel.load_game("liars_dice", {"numdice": numdice, "dice_sides": dice_sides})
    return ours, theirs


def same_node(a, b) -> None:
    """The two states agree on everything observable but the information."""
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    if a.is_terminal():
        assert a.returns() == b.returns()
    elif a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    else:
        assert a.legal_actions() == b.legal_actions()
        assert pyspiel.State.legal_actions(a) == b.legal_actions()


class Partition:
    """Checks that two labellings of the same histories induce one partition."""

    def __init__(self):
        self.ours_to_theirs = {}
        self.theirs_to_ours = {}

    def add(self, ours, theirs, both_ways=True) -> None:
        assert self.ours_to_theirs.setdefault(ours, theirs) == theirs, (ours, theirs)
        if both_ways:
            assert self.theirs_to_ours.setdefault(theirs, ours) == ours, (ours, theirs)


@pytest.mark.parametrize("dice_sides", [2, 3, 4])
def test_one_die_lockstep_every_history(dice_sides):
    """Walk both full trees together (one die each): every history agrees.

    (The six-sided tree, 295,000 histories, takes over a minute this way;
    `test_uniform_policy_has_openspiels_exploitability` walks all of it
    through the C++ tree cache instead, and `test_six_sided_one_die_bidding`
    walks every bidding sequence under a few rolls.)

    Information states: at every non-terminal history, for both seats, our
    string partition equals OpenSpiel's string partition and our tensor
    partition equals OpenSpiel's tensor partition. At the end our
    information state also shows the dice (the showdown), so there it
    refines OpenSpiel's, whose terminal information state keeps them hidden.
    """
    ours, theirs = pair(1, dice_sides)
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert ours.max_game_length() == theirs.max_game_length()
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes()
    strings = [Partition(), Partition()]
    tensors = [Partition(), Partition()]
    nodes = 0
    stack = [(ours.new_initial_state(), theirs.new_initial_state())]
    while stack:
        a, b = stack.pop()
        nodes += 1
        same_node(a, b)
        end = a.is_terminal()
        for p in (0, 1):
            strings[p].add(a.information_state_string(p), b.information_state_string(p), not end)
            tensors[p].add(
                tuple(a.information_state_tensor(p)), tuple(b.information_state_tensor(p)), not end
            )
        if end:
            continue
        actions = [o for o, _ in a.chance_outcomes()] if a.is_chance_node() else a.legal_actions()
        for action in actions:
            assert a.action_to_string(a.current_player(), action)
            stack.append((a.child(action), b.child(action)))
    bids = dice_sides * 2
    # Every increasing bid sequence, each ending open or in liar, under
    # every roll (plus the chance nodes).
    assert nodes == 1 + dice_sides + dice_sides**2 * (2 ** (bids + 1) - 1)


def test_six_sided_one_die_bidding():
    """Every bidding sequence of the six-sided one-die game, under three rolls."""
    ours, theirs = pair(1, 6)
    for rolls in ((0, 5), (5, 5), (2, 3)):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        for r in rolls:
            a.apply_action(r)
            b.apply_action(r)
        stack = [(a, b)]
        seen = 0
        while stack:
            a, b = stack.pop()
            same_node(a, b)
            seen += 1
            if not a.is_terminal():
                for action in a.legal_actions():
                    stack.append((a.child(action), b.child(action)))
        assert seen == 2**13 - 1


@pytest.mark.parametrize("numdice, dice_sides", [(5, 6), (2, 6), (3, 4)])
def test_random_playouts_agree(numdice, dice_sides):
    ours, theirs = pair(numdice, dice_sides)
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert ours.max_game_length() == theirs.max_game_length()
    rng = random.Random(numdice * 10 + dice_sides)
    for _ in range(300):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while True:
            same_node(a, b)
            if a.is_terminal():
                break
            if a.is_chance_node():
                action = rng.randrange(dice_sides)
            else:
                legal = a.legal_actions()
                # Favour small raises so that playouts run long.
                action = legal[min(int(rng.expovariate(0.5)), len(legal) - 1)]
            a.apply_action(action)
            b.apply_action(action)
        assert a.history() == b.history()


def test_more_players_keep_the_invariants():
    """OpenSpiel's liars_dice has two seats only; for more, the invariants."""
    rng = random.Random(4)
    for players in (3, 4, 6):
        game = pyspiel.load_game(NAME, dict(CLASSIC, players=players, numdice=2))
        for _ in range(100):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(rng.randrange(6))
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
            ret = s.returns()
            assert sum(ret) == 0
            assert sorted(ret) == [-1.0] + [0.0] * (players - 2) + [1.0]
            show = s.review()["rounds"][0]["showdown"]
            # Only the winner and the loser are paid: the holder and the caller.
            assert {show["winner"], show["loser"]} == {show["holder"], show["caller"]}
            assert ret[show["winner"]] == 1.0 and ret[show["loser"]] == -1.0


def test_uniform_policy_has_openspiels_exploitability():
    ours = pyspiel.load_game(
        "cached_tree(game=fogboard_liars_dice(numdice=1,dice_sides=6,wild=highest,prophecy=false))"
    )
    theirs = pyspiel.load_game("liars_dice(numdice=1)")
    # The cache keeps ~300,000 Python states alive; the cyclic garbage
    # collector would rescan them all again and again while the tree grows.
    gc.disable()
    try:
        mine = pyspiel.exploitability(ours, pyspiel.UniformRandomPolicy(ours))
    finally:
        gc.enable()
    reference = pyspiel.exploitability(theirs, pyspiel.UniformRandomPolicy(theirs))
    assert reference > 0.5
    assert mine == pytest.approx(reference, abs=1e-12)


def test_cpp_cfr_accepts_every_rule():
    """C++ CFR+ needs one legal set per information state and perfect recall.

    Rerolls, pass and prophecy on, two sides: CFR+ on the cached tree runs
    and drives the exploitability down.
    """
    game = pyspiel.load_game(
        "cached_tree(game=fogboard_liars_dice(numdice=1,dice_sides=2,rerolls=2,"
        "allow_pass=true,wild=none,prophecy_payout=2))"
    )
    solver = pyspiel.CFRPlusSolver(game)
    gc.disable()
    try:
        solver.evaluate_and_update_policy()
        first = pyspiel.exploitability(game, solver.average_policy())
        for _ in range(40):
            solver.evaluate_and_update_policy()
        last = pyspiel.exploitability(game, solver.average_policy())
    finally:
        gc.enable()
    assert 0 <= last < first / 5
