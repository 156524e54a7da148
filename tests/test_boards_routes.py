"""The fast Python-side State methods agree with the C++ route.

docs/performance.md: our State (core.glue) defines `legal_actions`,
`current_player`, `is_terminal`, the tensors and strings as plain Python
methods for Python callers, while C++ callers (and `pyspiel.State.<method>`
called on our state) go through `_legal_actions` and the observer built by
`make_py_observer`. Both routes must give identical answers; this file
walks random histories of every preset and a few extra configurations and
compares them at every node, terminal nodes included.
"""

from __future__ import annotations

import pickle
import random
import zlib

import pyspiel
import pytest

import fogboard_games
from fogboard_games.core import registry

CPP = pyspiel.State  # the C++ route: unbound methods of the pybind base class

EXTRA = [
    "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=2,abrupt=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=6,obstype=reveal-numturns,max_plies=20)",
    "fogboard_dark_hex(board_size=11,abrupt=true,max_plies=40)",
    "fogboard_recon_hex(board_size=2,sense=2)",
    "fogboard_recon_hex(board_size=4,sense=4,obstype=reveal-numturns)",
    "fogboard_recon_hex(board_size=5,sense=1,obstype=reveal-numturns,max_plies=13)",
]


def _configs() -> list[str]:
    out = [p.game_string() for name, p in sorted(registry.PRESETS.items()) if name in BOARD_PRESETS]
    for short in ("fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_recon_hex"):
        for params in registry.CONFORMANCE_EXTRAS.get(short, []):
            body = ",".join(f"{k}={str(v).lower()}" for k, v in sorted(params.items()))
            out.append(f"{short}({body})")
    return out + EXTRA


BOARD_PRESETS = ("phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5", "dark-hex-rect-3x4")
CONFIGS = _configs()


def compare_routes(state) -> None:
    """Every query, asked the fast way and the C++ way."""
    h = state.history()
    assert CPP.current_player(state) == state.current_player(), h
    assert CPP.is_terminal(state) == state.is_terminal(), h
    assert CPP.is_chance_node(state) == state.is_chance_node() is False, h
    assert CPP.is_simultaneous_node(state) == state.is_simultaneous_node() is False, h
    assert CPP.is_player_node(state) == state.is_player_node() == (not state.is_terminal()), h
    assert CPP.legal_actions(state) == state.legal_actions(), h
    assert CPP.legal_actions_mask(state) == state.legal_actions_mask(), h
    assert CPP.returns(state) == state.returns(), h
    assert CPP.rewards(state) == state.rewards(), h
    for p in (0, 1):
        assert CPP.legal_actions(state, p) == state.legal_actions(p), (h, p)
        assert CPP.legal_actions_mask(state, p) == state.legal_actions_mask(p), (h, p)
        assert CPP.information_state_tensor(state, p) == state.information_state_tensor(p), (h, p)
        assert CPP.observation_tensor(state, p) == state.observation_tensor(p), (h, p)
        assert CPP.information_state_string(state, p) == state.information_state_string(p), (h, p)
        assert CPP.observation_string(state, p) == state.observation_string(p), (h, p)
        assert CPP.player_return(state, p) == state.player_return(p) == state.returns()[p], (h, p)
    if not state.is_terminal():
        # Without a player both routes mean the player to move.
        mover = state.current_player()
        assert CPP.information_state_tensor(state) == state.information_state_tensor(mover), h
        assert CPP.observation_tensor(state) == state.observation_tensor(mover), h
        assert CPP.information_state_string(state) == state.information_state_string(mover), h
        assert CPP.observation_string(state) == state.observation_string(mover), h
        mask = state.legal_actions_mask()
        assert [a for a, bit in enumerate(mask) if bit] == state.legal_actions(), h
        for a in state.legal_actions():
            assert CPP.action_to_string(state, mover, a) == state.action_to_string(mover, a)


def _seed(text: str) -> int:
    return zlib.crc32(text.encode())


@pytest.mark.parametrize("game_string", CONFIGS)
def test_fast_methods_match_the_cpp_route(game_string):
    game = pyspiel.load_game(game_string)
    info_size = game.information_state_tensor_size()
    obs_size = game.observation_tensor_size()
    rng = random.Random(_seed(game_string))
    nodes = terminals = 0
    playouts = 4 if game.num_distinct_actions() > 50 else 12
    for _ in range(playouts):
        state = game.new_initial_state()
        while True:
            compare_routes(state)
            assert len(state.information_state_tensor(0)) == info_size
            assert len(state.observation_tensor(1)) == obs_size
            nodes += 1
            if state.is_terminal():
                terminals += 1
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert terminals == playouts and nodes > 2 * playouts


@pytest.mark.parametrize("game_string", CONFIGS)
def test_clones_and_children_answer_like_the_original(game_string):
    """C++-made copies (clone, child) carry the whole state across."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(_seed(game_string) + 1)
    state = game.new_initial_state()
    while not state.is_terminal():
        copy = state.clone()
        assert copy.history() == state.history()
        for p in (0, 1):
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.observation_tensor(p) == state.observation_tensor(p)
        assert copy.legal_actions() == state.legal_actions()
        assert str(copy) == str(state)
        action = rng.choice(state.legal_actions())
        child = state.child(action)
        compare_routes(child)
        before = state.information_state_string(0), state.legal_actions()
        copy.apply_action(action)  # moving the copy leaves the original alone
        assert (state.information_state_string(0), state.legal_actions()) == before
        assert copy.history() == child.history()
        assert copy.information_state_tensor(1) == child.information_state_tensor(1)
        state = child
    compare_routes(state)


@pytest.mark.parametrize("game_string", CONFIGS[:4])
def test_without_a_player_at_the_end_both_routes_refuse(game_string):
    """At a terminal state there is no player to default to, on either route."""
    game = pyspiel.load_game(game_string)
    rng = random.Random(_seed(game_string) + 2)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    for name in (
        "information_state_tensor",
        "observation_tensor",
        "information_state_string",
        "observation_string",
    ):
        with pytest.raises(pyspiel.SpielError):
            getattr(CPP, name)(state)
        with pytest.raises(pyspiel.SpielError):
            getattr(state, name)()
        # With a player both routes answer.
        assert getattr(CPP, name)(state, 1) == getattr(state, name)(1)


def test_bad_player_is_refused_on_both_routes():
    state = fogboard_games.load("dark-hex-4").new_initial_state()
    for bad in (2, -1, -4):
        for name in ("information_state_tensor", "information_state_string"):
            with pytest.raises((ValueError, pyspiel.SpielError)):
                getattr(CPP, name)(state, bad)
            with pytest.raises((ValueError, pyspiel.SpielError)):
                getattr(state, name)(bad)


def test_configs_cover_every_board_preset():
    names = {p.short_name for p in registry.PRESETS.values() if p.name in BOARD_PRESETS}
    assert names == {"fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_recon_hex"}
    assert len(CONFIGS) >= len(BOARD_PRESETS) + len(EXTRA)
    # Every registered board preset is one of BOARD_PRESETS, and so in CONFIGS.
    boards = {p.name for p in registry.PRESETS.values() if p.short_name in names}
    assert boards == set(BOARD_PRESETS)
    assert {registry.PRESETS[name].game_string() for name in boards} <= set(CONFIGS)


@pytest.mark.parametrize("game_string", CONFIGS[:4] + EXTRA[-1:])
def test_serialized_states_come_back_whole(game_string):
    """pyspiel's serialize/deserialize and pickle give a working state.

    (Trusted input only: a Python game's serialized state is a pickle.)
    """
    game = pyspiel.load_game(game_string)
    rng = random.Random(_seed(game_string) + 3)
    state = game.new_initial_state()
    for _ in range(9):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    pickled = pickle.loads(pickle.dumps(state))
    for copy in (restored, pickled):
        assert copy.history() == state.history()
        compare_routes(copy)
        for p in (0, 1):
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.information_state_tensor(p) == state.information_state_tensor(p)
        # The copy plays on exactly like the original.
        while not copy.is_terminal():
            action = rng.choice(copy.legal_actions())
            copy.apply_action(action)
            twin = pyspiel.load_game(game_string).new_initial_state()
            for a in copy.history():
                twin.apply_action(a)
            assert copy.information_state_string(0) == twin.information_state_string(0)
        assert copy.returns() == twin.returns()
    regame = pickle.loads(pickle.dumps(game))
    assert regame.get_parameters() == game.get_parameters()
    assert regame.new_initial_state().legal_actions() == game.new_initial_state().legal_actions()


@pytest.mark.parametrize(
    "game_string",
    [
        "fogboard_phantom_ttt()",
        "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)",
        "fogboard_dark_hex(board_size=4)",
        "fogboard_dark_hex(board_size=5,abrupt=true,obstype=reveal-numturns)",
        "fogboard_recon_hex()",
        "fogboard_recon_hex(board_size=3,sense=1,obstype=reveal-numturns,max_plies=9)",
    ],
)
def test_cached_tensor_route_matches_a_fresh_encoding_at_every_step(game_string):
    """The Python route resumes each seat's tensor from a per-match cache.

    Read both seats at every step of whole playouts (so caches resume across
    the opponent's plies, senses under way, copies and the end) and compare
    with the C++ route, which encodes from scratch every time.
    """
    game = pyspiel.load_game(game_string)
    rng = random.Random(11)
    reads = 0
    for _ in range(15):
        state = game.new_initial_state()
        while True:
            for seat in (0, 1):
                if rng.random() < 0.7:  # skip some reads: resume over several plies
                    fast = state.information_state_tensor(seat)
                    assert fast == pyspiel.State.information_state_tensor(state, seat), (
                        f"{game_string} seat {seat} after {state.history()}"
                    )
                    reads += 1
            if state.is_terminal():
                break
            if rng.random() < 0.2:
                state = state.clone()  # a clone shares the match (and its cache) until it moves
            state.apply_action(rng.choice(state.legal_actions()))
    assert reads > 200


def test_believed_distance_memo_agrees_and_never_travels_with_a_state():
    """Strings show believed distToWin from a per-game memo: it must equal a
    fresh computation, and a pickled state carries its game's parameters,
    not the memo."""
    from fogboard_games.boards import rules

    game = fogboard_games.load("dark-hex-5")
    rng = random.Random(11)
    state = game.new_initial_state()
    before = len(pickle.dumps(state))
    for _ in range(30):
        if state.is_terminal():
            break
        for seat in (0, 1):
            m = state.truth
            view = m.view[seat * m.setup.cells : (seat + 1) * m.setup.cells]
            fresh = rules.dist_to_win(m.setup, view, seat, rules.OWN, rules.PROVEN)
            assert f"believed distToWin: {fresh}" in state.information_state_string(seat)
        state.apply_action(rng.choice(state.legal_actions()))
    fresh_state = game.new_initial_state()
    assert len(pickle.dumps(fresh_state)) == before
    # The memo is the encoder's: the rules' fixed facts carry no cache.
    bare = rules.Geometry("hex", 3, True, 0, 99)
    assert not [k for k in vars(bare) if "cache" in k or "memo" in k]
    back = pickle.loads(pickle.dumps(bare))
    assert (back.size, back.abrupt) == (3, True)


def test_believed_distance_memo_holds_memory_flat_over_many_distinct_views(monkeypatch):
    """The memo is bounded: over many games of distinct views, a game's memory
    stops growing once the bound is reached (lowered here so that a few
    games reach it; unbounded, these games add about 100 kB)."""
    import gc
    import tracemalloc

    from fogboard_games.boards import observer

    monkeypatch.setattr(observer, "BELIEVED_MEMO_SIZE", 64)
    game = fogboard_games.load("dark-hex-4")
    rng = random.Random(3)

    def play_and_read(games: int) -> int:
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                for seat in (0, 1):
                    state.information_state_string(seat)
                state.apply_action(rng.choice(state.legal_actions()))
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    tracemalloc.start()
    try:
        warm = play_and_read(30)
        assert play_and_read(120) - warm < 20_000
    finally:
        tracemalloc.stop()
