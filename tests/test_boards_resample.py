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

import fogboard_games

# (config, depth): the recon tree is walked to 7 decisions only. Under the
# abrupt rule plies alternate, so every history a seat cannot tell apart
# from one of that depth has the same depth, and its group is complete.
CONFIGS = [
    ("fogboard_dark_hex(board_size=2)", 99),
    ("fogboard_dark_hex(board_size=2,abrupt=true)", 99),
    ("fogboard_dark_hex(board_size=2,obstype=reveal-numturns)", 99),
    ("fogboard_recon_hex(board_size=2,sense=1)", 7),
]


def _groups(game, depth):
    """(seat, info string) -> set of histories where that seat is to move."""
    groups = collections.defaultdict(set)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal() or len(state.history()) > depth:
            continue
        p = state.current_player()
        groups[(p, state.information_state_string(p))].add(tuple(state.history()))
        for a in state.legal_actions():
            stack.append(state.child(a))
    return groups


@pytest.mark.parametrize("config,depth", CONFIGS)
def test_resample_covers_every_consistent_world(config, depth):
    game = pyspiel.load_game(config)
    groups = _groups(game, depth)
    # The largest groups of at most 24 worlds: big enough to be telling,
    # small enough that 40 draws per world keep the test quick.
    big = sorted((g for g in groups.values() if 3 <= len(g) <= 24), key=len, reverse=True)
    assert big, "the tree has no information state with several worlds"
    rng = random.Random(7)
    for worlds in big[:3]:
        history = sorted(worlds)[0]
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        p = state.current_player()
        drawn = collections.Counter()
        for _ in range(40 * len(worlds)):
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
    assert state.history() == [5, 6, 9, 10, 2]
    p = state.current_player()
    a = random.Random(3)
    b = random.Random(3)
    assert state.resample_from_infostate(p, a.random).history() == (
        state.resample_from_infostate(p, b.random).history()
    )
    # ...and the sampler is really used: other seeds draw other worlds.
    drawn = {
        tuple(state.resample_from_infostate(p, random.Random(k).random).history()) for k in range(5)
    }
    assert len(drawn) > 1


def test_resample_refuses_a_finished_game():
    game = fogboard_games.load("phantom-ttt-3")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="over"):
        state.resample_from_infostate(0, rng.random)


def _all_groups(game):
    """(seat, info string) -> every non-terminal history with that string for
    that seat, whoever is to move there."""
    groups = collections.defaultdict(set)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        for seat in (0, 1):
            groups[(seat, state.information_state_string(seat))].add(tuple(state.history()))
        for a in state.legal_actions():
            stack.append(state.child(a))
    return groups


@pytest.mark.parametrize("config", [c for c, depth in CONFIGS if depth == 99])
def test_resample_for_the_seat_not_to_move_covers_both_movers(config):
    """A seat that is not to move may not know whose move it is; its worlds
    include those where it moves itself, and none may be ruled out by the
    true player to move (which it cannot see)."""
    game = pyspiel.load_game(config)
    groups = _all_groups(game)
    rng = random.Random(5)
    tried = mixed = 0
    for (seat, _), worlds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        if not 2 <= len(worlds) <= 24:
            continue
        waiting = [h for h in sorted(worlds) if _mover(game, h) != seat]
        if not waiting:
            continue
        state = game.new_initial_state()
        for a in waiting[0]:
            state.apply_action(a)
        drawn = collections.Counter()
        for _ in range(40 * len(worlds)):
            drawn[tuple(state.resample_from_infostate(seat, rng.random).history())] += 1
        assert set(drawn) == worlds, (
            f"{config}: seat {seat} not to move at {waiting[0]}: drew "
            f"{len(set(drawn) & worlds)} of {len(worlds)} worlds and "
            f"{len(set(drawn) - worlds)} inconsistent ones"
        )
        tried += 1
        mixed += len({_mover(game, h) for h in worlds}) == 2
        if tried == 4:
            break
    assert tried == 4 and mixed >= 1, (tried, mixed)


def _mover(game, history):
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state.current_player()
