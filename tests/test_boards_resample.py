"""resample_from_infostate reaches every world a seat cannot rule out.

On small boards we enumerate the whole game tree, group histories by the
seat's information state, and check that repeated resampling from one
history produces exactly the histories of its group: every consistent
world, and nothing else.
"""

import collections
import random

import pyspiel
import pytest

import fogboard_games  # noqa: F401

CONFIGS = [
    "fogboard_dark_hex(board_size=2)",
    "fogboard_dark_hex(board_size=2,abrupt=true)",
    "fogboard_dark_hex(board_size=2,obstype=reveal-numturns)",
    "fogboard_recon_hex(board_size=2,sense=1)",
]


def _groups(game):
    """(seat, info string) -> set of histories where that seat is to move."""
    groups = collections.defaultdict(set)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        p = state.current_player()
        groups[(p, state.information_state_string(p))].add(tuple(state.history()))
        for a in state.legal_actions():
            stack.append(state.child(a))
    return groups


@pytest.mark.parametrize("config", CONFIGS)
def test_resample_covers_every_consistent_world(config):
    game = pyspiel.load_game(config)
    groups = _groups(game)
    big = sorted((g for g in groups.values() if len(g) >= 3), key=len, reverse=True)
    assert big, "the tree has no information state with several worlds"
    rng = random.Random(7)
    for worlds in big[:4]:
        history = sorted(worlds)[0]
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        p = state.current_player()
        drawn = collections.Counter()
        for _ in range(60 * len(worlds)):
            drawn[tuple(state.resample_from_infostate(p, rng.random).history())] += 1
        assert set(drawn) == worlds, (
            f"{config}: from {history} resampling drew {len(set(drawn) & worlds)} of "
            f"{len(worlds)} worlds and {len(set(drawn) - worlds)} inconsistent ones"
        )


def test_resample_is_seeded_by_the_sampler():
    game = fogboard_games.load("dark-hex-4")
    state = game.new_initial_state()
    for a in (5, 6, 9, 10, 2):
        if a in state.legal_actions():
            state.apply_action(a)
    p = state.current_player()
    a = random.Random(3)
    b = random.Random(3)
    assert state.resample_from_infostate(p, a.random).history() == (
        state.resample_from_infostate(p, b.random).history()
    )


def test_resample_refuses_a_finished_game():
    game = fogboard_games.load("phantom-ttt-3")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="over"):
        state.resample_from_infostate(0, rng.random)
