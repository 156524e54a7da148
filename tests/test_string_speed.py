"""Cached and incremental strings answer exactly what a cold state answers.

The boards and Liar's Dice keep their strings per match and extend them as
moves are applied (docs/performance.md#strings), so a repeated read is a
lookup and a first read after a move writes only what the move added. The
reference here is the same encoder asked on a state with cold caches: a
fresh `new_initial_state()` replaying the history. The original is read in
random orders (every IIGObservationType, every seat, the glue's own
methods), cloned, and its clones moved on while the original is read again,
so caches are shared copy-on-write, resumed across several moves, and left
behind by copies.
"""

from __future__ import annotations

import random
import zlib

import pyspiel
import pytest

from fogboard_games.core import registry
from fogboard_games.core.observer import INFO_STATE, all_obs_types, obs_type_key

BOARD_PRESETS = ("phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5")
DICE_PRESETS = ("liars-dice", "liars-dice-1", "liars-dice-classic", "liars-dice-classic-1",
                "liars-dice-table")  # fmt: skip
EXTRA = [
    "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=3,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=6,abrupt=true,max_plies=20)",
    "fogboard_recon_hex(board_size=4,sense=4,obstype=reveal-numturns)",
    "fogboard_recon_hex(board_size=5,sense=1,obstype=reveal-numturns,max_plies=13)",
    "fogboard_liars_dice(players=3,mode=dice,numdice=2,rerolls=2,allow_pass=true)",
    "fogboard_liars_dice(numdice=2,dice_sides=3,rerolls=1,prophecy=true)",
    "fogboard_liars_dice(players=3,mode=dice,numdice=1,wild=highest,prophecy=false)",
]
CONFIGS = [registry.PRESETS[name].game_string() for name in BOARD_PRESETS + DICE_PRESETS] + EXTRA


class Reader:
    """Every string of a state, by (reader index, seat); index -1 and -2 are
    the state's own information_state_string and observation_string."""

    def __init__(self, game):
        self.game = game
        self.observers = [game.make_py_observer(t) for t in all_obs_types()]
        self.seats = range(game.num_players())
        self.kinds = [-2, -1, *range(len(self.observers))]
        # information_state_string may take a shorter road than the observer
        # of its key (the encoder's info_state_string): the observer's answer
        # on a cold state is its reference too.
        self.info_observer = next(
            o for o, t in zip(self.observers, all_obs_types()) if obs_type_key(t) == INFO_STATE
        )

    def read(self, state, kind: int, seat: int) -> str:
        if kind == -1:
            return state.information_state_string(seat)
        if kind == -2:
            return state.observation_string(seat)
        return self.observers[kind].string_from(state, seat)

    def cold(self, history: list[int]):
        """A state with the same history and no cache yet (nothing read)."""
        state = self.game.new_initial_state()
        for action in history:
            state.apply_action(action)
        return state

    def check(self, state, rng: random.Random, reads: int) -> int:
        """Read `reads` random strings of `state` (repeats likely) against a
        cold replay of its history; return how many were compared."""
        reference = self.cold(state.history())
        expected = {}
        for _ in range(reads):
            kind, seat = rng.choice(self.kinds), rng.choice(self.seats)
            if (kind, seat) not in expected:
                # A cold answer for each pair: the cold state warms as it is
                # read, so a fresh one answers every first question.
                expected[kind, seat] = self.read(self.cold(state.history()), kind, seat)
                assert self.read(reference, kind, seat) == expected[kind, seat]
                if kind == -1:
                    cold = self.cold(state.history())
                    assert self.info_observer.string_from(cold, seat) == expected[kind, seat]
            got = self.read(state, kind, seat)
            assert got == expected[kind, seat], (state.history(), kind, seat)
        return reads


def _random_action(state, rng: random.Random) -> int:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return outcomes[rng.randrange(len(outcomes))][0]
    return rng.choice(state.legal_actions())


@pytest.mark.parametrize("game_string", CONFIGS)
def test_cached_strings_equal_a_cold_replay(game_string):
    game = pyspiel.load_game(game_string)
    reader = Reader(game)
    rng = random.Random(zlib.crc32(game_string.encode()))
    compared = 0
    # A cold replay costs the whole history: a long game (liars-dice-table,
    # hundreds of steps) gets fewer playouts and reads.
    long = game.max_game_length() > 300
    for _ in range(2 if long else 6):
        state = game.new_initial_state()
        while not state.is_terminal():
            # Read some strings now (or skip: caches must resume over gaps).
            if rng.random() < (0.15 if long else 0.7):
                compared += reader.check(state, rng, rng.randrange(1, 8))
            if rng.random() < 0.3:
                # A clone shares the match and its caches until one moves;
                # move the clone a few steps, reading it, then read the original.
                twin = state.clone()
                for _ in range(rng.randrange(1, 4)):
                    if twin.is_terminal():
                        break
                    twin.apply_action(_random_action(twin, rng))
                    compared += reader.check(twin, rng, 3)
                compared += reader.check(state, rng, 3)
            state.apply_action(_random_action(state, rng))
        compared += reader.check(state, rng, 12)
    assert compared > 100


@pytest.mark.parametrize("game_string", CONFIGS)
def test_every_string_of_every_step_equals_a_cold_replay(game_string):
    """Read every string of both seats at every step (the caches resume one
    move at a time), also through a clone read before its original."""
    game = pyspiel.load_game(game_string)
    reader = Reader(game)
    rng = random.Random(zlib.crc32(game_string.encode()) + 1)
    steps = 150 if game.max_game_length() > 300 else None  # a long game: its first steps
    for _ in range(2):
        state = game.new_initial_state()
        while len(state.history()) != steps:
            twin = state.clone()
            cold = reader.cold(state.history())
            for kind in reader.kinds:
                for seat in reader.seats:
                    want = reader.read(cold, kind, seat)
                    assert reader.read(twin, kind, seat) == want
                    assert reader.read(state, kind, seat) == want, (state.history(), kind)
            if state.is_terminal():
                break
            state.apply_action(_random_action(state, rng))


def test_a_copy_does_not_carry_the_strings_over():
    """A match copied for a move starts with no cache: the copy's strings are
    its own position's, never its original's, and the original's stay right."""
    for game_string, moves in (("fogboard_phantom_ttt", (0, 4, 8)), ("liars-dice-1", None)):
        game = (
            pyspiel.load_game(game_string)
            if game_string.startswith("fogboard")
            else registry.load(game_string)
        )
        state = game.new_initial_state()
        rng = random.Random(3)
        for action in moves or ():
            state.apply_action(action)
        while moves is None and (state.is_chance_node() or len(state.history()) < 3):
            state.apply_action(_random_action(state, rng))
        observers = [game.make_py_observer(t) for t in all_obs_types()]
        before = [o.string_from(state, p) for o in observers for p in (0, 1)]
        assert state.truth.cache is not None  # the reads were cached (not the start)
        twin = state.clone()
        twin.apply_action(_random_action(twin, rng))
        assert twin.truth is not state.truth and twin.truth.cache is None
        after = [o.string_from(state, p) for o in observers for p in (0, 1)]
        assert after == before
        cold = game.new_initial_state()
        for action in twin.history():
            cold.apply_action(action)
        assert [o.string_from(twin, p) for o in observers for p in (0, 1)] == [
            o.string_from(cold, p) for o in observers for p in (0, 1)
        ]


def test_a_wall_clock_stop_is_a_new_position_for_the_strings():
    """A board stopped by its wall clock (an ending that is no move) must not
    answer with the strings cached before the stop."""
    from fogboard_games.boards import review

    game = pyspiel.load_game("fogboard_dark_hex(board_size=3)")
    state = game.new_initial_state()
    for action in (0, 4):
        state.apply_action(action)
    running = [state.information_state_string(p) for p in (0, 1)]
    review.stop_at_wall_clock(state.writable_truth())
    assert state.is_terminal()
    stopped = [state.information_state_string(p) for p in (0, 1)]
    cold = game.new_initial_state()
    for action in state.history():
        cold.apply_action(action)
    review.stop_at_wall_clock(cold.writable_truth())
    assert stopped == [cold.information_state_string(p) for p in (0, 1)]
    assert all("result:" in text for text in stopped) and stopped != running
