"""Bad calls to the State API raise the documented error (issue 19, section 4):
a bool is never a seat, action strings match by ASCII case and spaces only,
and an unknown preset is a ValueError whatever its type
(docs/adding_a_game.md#players-and-action-strings)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games import batch, bots
from fogboard_games.bots import text as text_seats
from fogboard_games.bots.base import seat_pieces
from fogboard_games.core.contract import CHANCE
from fogboard_games.core.glue import SeatError, _spelling
from fogboard_games.core.observer import all_obs_types
from fogboard_games.core.registry import PRESETS
from fogboard_games.core.sampling import chance_outcome
from fogboard_games.core.testing import play

PRESET_NAMES = sorted(PRESETS)


def states_of(game, seed=0):
    """The states of a random game to try: the start, the middle decision,
    a chance node after the start (where the game has one) and the end."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        seen.append(state.clone())
    decisions = [s for s in seen if s.current_player() >= 0]
    chance = [s for s in seen[1:] if s.is_chance_node()]
    return [seen[0], decisions[len(decisions) // 2], *chance[:1], seen[-1]]


def player_calls(state):
    """(name, call of a player) for every method of ours that takes one."""
    game = state.get_game()
    calls = [
        ("legal_actions", state.legal_actions),
        ("legal_actions_mask", state.legal_actions_mask),
        ("information_state_string", state.information_state_string),
        ("information_state_tensor", state.information_state_tensor),
        ("observation_string", state.observation_string),
        ("observation_tensor", state.observation_tensor),
        ("player_return", state.player_return),
        ("player_reward", state.player_reward),
        ("string_to_action", lambda p: state.string_to_action(p, "a1")),
        ("action_to_string", lambda p: state.action_to_string(p, 0)),
        ("resample_from_infostate", lambda p: state.resample_from_infostate(p, lambda: 0.5)),
        ("seat_pieces", lambda p: seat_pieces(state, p)),
        ("seat_pieces(recall=False)", lambda p: seat_pieces(state, p, recall=False)),
    ]
    for t in all_obs_types():
        observer = game.make_py_observer(t)
        calls.append((f"set_from {t}", lambda p, o=observer: o.set_from(state, p)))
        calls.append((f"string_from {t}", lambda p, o=observer: o.string_from(state, p)))
    return calls


def snapshot(state):
    return state.history(), str(state), state.current_player()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_bool_is_refused_as_a_seat_by_every_state_method(preset):
    game = fogboard_games.load(preset)
    n = game.num_players()
    for state in states_of(game):
        before = snapshot(state)
        for name, call in player_calls(state):
            for seat in (True, False):
                with pytest.raises(SeatError, match=rf"player must be a seat 0\.\.{n - 1}, got"):
                    call(seat)
                assert snapshot(state) == before, f"{name}({seat}) changed the state"
        # And the seats themselves still answer (numpy ints too).
        assert state.action_to_string(0, 0) == state.action_to_string(np.int64(0), 0)


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice-1", "parley-tiny"])
def test_a_bool_is_refused_as_a_seat_by_make_bot_for_every_kind(preset):
    game = fogboard_games.load(preset)
    n = game.num_players()
    options = {"text": {"ask": lambda prompt: "", "fallback": "random"}}
    for kind in [*bots.kinds_for(game), "text"]:
        for seat in (True, False):
            with pytest.raises(ValueError, match=rf"player must be a seat 0\.\.{n - 1}"):
                bots.make_bot(kind, game, seat, **options.get(kind, {}))


def test_a_bool_is_refused_as_a_seat_by_the_batch_env_and_the_text_seat_label():
    env = batch.make("dark-hex-4", batch_size=2, seed=0)
    env.reset()
    game = fogboard_games.load("parley")
    for seat in (True, False):
        with pytest.raises(ValueError, match=r"player must be a seat 0\.\.1, got"):
            env.information_state_tensor(seat)
        with pytest.raises(ValueError, match=r"player must be a seat 0\.\.4, got"):
            text_seats.seat_label(game, seat)
    assert env.information_state_tensor(np.int64(1)).shape[0] == 2
    assert text_seats.seat_label(game, 1) == "C1"
    # A row and a batch size are refused as bools too (True read as 1 before).
    for flag in (True, False):
        with pytest.raises(ValueError, match=r"row must be an int in 0\.\.1, got"):
            env.to_pyspiel(flag)
        with pytest.raises(ValueError, match="batch_size"):
            batch.make("dark-hex-4", batch_size=flag)
    assert env.to_pyspiel(np.int64(1)).history() == env.to_pyspiel(1).history()


def test_the_chance_and_terminal_ids_are_ints_not_floats_or_bools():
    game = fogboard_games.load("liars-dice-1")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.legal_actions(CHANCE) == state.legal_actions()
    assert state.legal_actions(np.int64(CHANCE)) == state.legal_actions()
    assert state.action_to_string(CHANCE, 0) == "roll 1"
    for bad in (-1.0, float(CHANCE), "-1"):
        for call in (state.legal_actions, state.legal_actions_mask):
            with pytest.raises(SeatError, match=r"player must be a seat 0\.\.1"):
                call(bad)
        with pytest.raises(SeatError, match=r"player must be a seat 0\.\.1"):
            state.action_to_string(bad, 0)


def test_action_to_string_keeps_pyspiel_forms_and_refusals():
    game = fogboard_games.load("dark-hex-4")
    state = play(game, ["b2"])
    assert state.action_to_string(3) == pyspiel.State.action_to_string(state, 3) == "d1"
    assert state.action_to_string(1, np.int64(3)) == "d1"
    with pytest.raises(TypeError):
        state.action_to_string(1, 3.0)
    with pytest.raises(TypeError):
        state.action_to_string()
    with pytest.raises(ValueError, match="out of range 0..15"):
        state.action_to_string(1, 16)


def test_pyspiel_own_routes_coerce_a_bool_as_the_docs_say():
    """What docs/adding_a_game.md#players-and-action-strings says we cannot
    refuse: pyspiel's C++ methods, called on the base class, get True as 1
    from pybind. (If pyspiel ever refuses it, update the page.)"""
    game = fogboard_games.load("phantom-ttt-3")
    state = play(game, ["b2"])  # seat 1 to move
    assert pyspiel.State.legal_actions(state, True) == state.legal_actions(1)
    assert pyspiel.State.information_state_string(state, True) == (
        state.information_state_string(1)
    )
    assert pyspiel.State.player_return(state, False) == state.player_return(0)
    assert pyspiel.State.action_to_string(state, True, 0) == state.action_to_string(1, 0)
    assert pyspiel.State.string_to_action(state, True, "a1") == 0


# ---- action strings ------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_action_string_we_write_is_plain_ascii(preset):
    """Every id of every actor (each seat, and chance): printable ASCII, one
    space between words, so reviews and replays, which write these strings,
    read them back whatever the spelling rule (here: ASCII only)."""
    game = fogboard_games.load(preset)
    name = game.setup.action_name
    actors = [(p, game.num_distinct_actions()) for p in range(game.num_players())]
    actors.append((CHANCE, game.max_chance_outcomes()))
    for actor, size in actors:
        for action in range(size):
            text = name(actor, action)
            assert text.isascii() and text.isprintable(), (actor, action, text)
            assert text == " ".join(text.split(" ")) and "  " not in text and text.strip() == text
            assert _spelling(text) == text.lower()


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice", "mind-bluff-series", "parley"])
def test_action_strings_of_played_games_read_back_in_reviews(preset):
    """A review writes the action strings and load_review reads them back
    with string_to_action, as it wrote them."""
    game = fogboard_games.load(preset)
    state = states_of(game, seed=3)[-1]
    review = state.review()
    assert review["actions"] and all(t.isascii() for t in review["actions"])
    assert fogboard_games.load_review(review).history() == state.history()


LOOK_ALIKES = [
    "all\xa0done",  # a no-break space
    "all\u3000done",  # an ideographic space
    "all\u2028done",  # a line separator
    "all\x85done",  # a next-line
    "all\u2009done",  # a thin space
    "all\ndone",  # ASCII, but a line break is not a space here
    "\u0430ll done",  # a Cyrillic a
    "all do\u0274e",  # a small capital N
]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_string_to_action_refuses_unicode_look_alikes_with_the_legal_list(text):
    game = fogboard_games.load("mind-bluff-tiny")
    state = game.new_initial_state()
    before = snapshot(state)
    with pytest.raises(ValueError) as refused:
        state.string_to_action(text)
    message = str(refused.value)
    assert message == (
        f"{ascii(text)} is not a legal action of seat 0 here; legal: eat 1, eat 2, eat 3, all done"
    )
    assert message.isascii()  # the odd character shows as its escape
    assert snapshot(state) == before


def test_string_to_action_folds_ascii_case_and_spaces_only():
    state = fogboard_games.load("mind-bluff-tiny").new_initial_state()
    for text in ("all done", "ALL DONE", "  All \t  Done\t", "\tall\t\tdone"):
        assert state.string_to_action(text) == 3, text
    big = pyspiel.load_game("fogboard_dark_hex(board_size=11)").new_initial_state()
    k11 = big.legal_actions()[-1]
    assert big.action_to_string(0, k11) == "k11"
    assert big.string_to_action("K11") == big.string_to_action(" k11 ") == k11
    for text in ("\u212a11", "k\uff111", "\uff2b11"):  # Kelvin sign, fullwidth 1, fullwidth K
        with pytest.raises(ValueError, match=r"is not a legal action of seat 0 here; legal: a1"):
            big.string_to_action(text)
    dice = fogboard_games.load("liars-dice").new_initial_state()
    with pytest.raises(ValueError, match=r"^'ro\\u0142l 1' is not a legal action of chance"):
        dice.string_to_action("ro\u0142l 1")


# ---- presets ---------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [["parley"], {"parley": 1}, None, 5, b"parley", "Parley"])
def test_an_unknown_preset_of_any_type_is_a_value_error_naming_the_presets(bad):
    with pytest.raises(ValueError, match=r"^unknown preset .*; known presets: dark-hex-4, "):
        fogboard_games.load(bad)


def test_cell_names_are_read_in_ascii_only():
    # str.lower reads the Kelvin sign as k and str.isdigit a superscript as a digit.
    from fogboard_games.core.notation import parse_cell

    assert parse_cell(" K11", 11) == 10 * 11 + 10
    for text in ("\u212a11", "a\u00b2", "a\u0661", "a1\u3000"):
        with pytest.raises(ValueError, match="is not a cell of"):
            parse_cell(text, 11)
