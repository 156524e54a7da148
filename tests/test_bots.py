"""The bot plumbing every game shares (fogboard_games.bots)."""

from __future__ import annotations

import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games import bots
from fogboard_games.core import testing


@pytest.mark.parametrize(
    "preset", ["phantom-ttt-3", "recon-hex-5", "liars-dice", "liars-dice-table"]
)
def test_random_bot_plays_every_game_deterministically(preset):
    game = fogboard_games.load(preset)
    n = game.num_players()
    results = []
    for _ in range(2):
        players = [bots.make_bot("random", game, p, seed=7) for p in range(n)]
        results.append(bots.evaluate_bots(game.new_initial_state(), players, 3))
    assert results[0] == results[1]
    assert len(results[0]) == n


def test_random_bot_decides_from_the_information_state_only():
    """Twin states whose hidden dice differ but whose seat-0 information states
    are equal get the same move; pyspiel's whispers change nothing."""
    game = fogboard_games.load("liars-dice")
    a = testing.play(game, [f"roll {f}" for f in (1, 2, 3, 4, 5, 6, 6, 6, 6, 6)])
    b = testing.play(game, [f"roll {f}" for f in (1, 2, 3, 4, 5, 1, 1, 2, 2, 3)])
    assert a.information_state_string(0) == b.information_state_string(0)
    bot = bots.make_bot("random", game, 0, seed=11)
    for action in b.history():
        bot.inform_action(b, 1, action)  # hidden dice whispered: must be ignored
    assert bot.step(a) == bot.step(b)
    # And the seed matters: some seed chooses differently.
    moves = {bots.make_bot("random", game, 0, seed=s).step(a) for s in range(20)}
    assert len(moves) > 1


def test_bad_bots_are_refused_before_pyspiel_sees_them():
    game = fogboard_games.load("liars-dice-table")  # four seats
    state = game.new_initial_state()
    two = [bots.make_bot("random", game, p) for p in range(2)]
    with pytest.raises(ValueError, match="needs 4 bots, one per seat; got 2"):
        bots.evaluate_bots(state, two, 0)
    shuffled = [bots.make_bot("random", game, p) for p in (1, 0, 2, 3)]
    with pytest.raises(ValueError, match="seat order"):
        bots.evaluate_bots(state, shuffled, 0)
    with pytest.raises(ValueError, match="not a pyspiel.Bot"):
        bots.evaluate_bots(state, [object()] * 4, 0)


def test_make_bot_names_the_kinds_that_play_a_game():
    dice = fogboard_games.load("liars-dice")
    with pytest.raises(
        ValueError, match="kinds for fogboard_liars_dice: heuristic, ismcts, mcts, random$"
    ):
        bots.make_bot("probe-ish", dice, 0)
    with pytest.raises(
        ValueError,
        match="kinds for fogboard_dark_hex: heuristic, ismcts, mcts, probe, random, sweep$",
    ):
        bots.make_bot("greedy", fogboard_games.load("dark-hex-4"), 0)
    # cfr plays the small presets only: listed for liars-dice-1, not liars-dice.
    with pytest.raises(ValueError, match="kinds for fogboard_liars_dice: cfr, heuristic"):
        bots.make_bot("probe-ish", fogboard_games.load("liars-dice-1"), 0)
    with pytest.raises(ValueError, match="plays fogboard_phantom_ttt"):
        bots.make_bot("probe", dice, 0)
    for bad in (4, -1, True, 0.0):
        with pytest.raises(ValueError, match="seat 0..3"):
            bots.make_bot("random", fogboard_games.load("liars-dice-table"), bad)
    with pytest.raises(ValueError, match="seed must be an int"):
        bots.make_bot("random", dice, 0, seed="1")


def test_a_seat_bot_refuses_to_move_out_of_turn_and_after_the_end():
    game = fogboard_games.load("phantom-ttt-3")
    bot = bots.make_bot("random", game, 1)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="seat 0 is to move"):
        bot.step(state)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="game is over"):
        bot.step(state)


def test_evaluate_bots_from_a_started_state_restarts_the_bots():
    game = fogboard_games.load("dark-hex-4")
    state = testing.play(game, ["b2", "c3"])
    players = [bots.make_bot("probe", game, 0, 1), bots.make_bot("random", game, 1, 1)]
    returns = bots.evaluate_bots(state, players, 0)
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    assert all(p._games == 1 for p in players)  # restart_at was called
    assert isinstance(players[0], pyspiel.Bot)


KIND_OPTIONS = {
    "random": (),
    "heuristic": (),
    "probe": (),
    "sweep": (),
    "mcts": ("simulations", "rollouts", "uct_c"),
    "ismcts": ("simulations", "rollouts", "uct_c"),
    "cfr": ("iterations",),
    "text": ("ask", "fallback", "timeout_s"),
    "llm": (
        "base_url",
        "model",
        "api_key_env",
        "persona",
        "temperature",
        "max_tokens",
        "timeout_s",
        "max_retries",
        "fallback",
        "record",
        "replay",
    ),
}


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice-1", "parley"])
def test_an_unknown_option_is_a_value_error_naming_it_and_the_kinds_options(preset):
    """docs/bots.md promises a ValueError; the factories raised TypeError."""
    game = fogboard_games.load(preset)
    assert sorted(KIND_OPTIONS) == sorted(bots.BOT_KINDS)
    for kind, options in KIND_OPTIONS.items():
        assert bots.base.kind_options(kind, game) == options
        allowed = ", ".join(options) or "none"
        with pytest.raises(
            ValueError,
            match=rf"^unknown option 'bogus' for the {kind} bot; its options: {allowed}$",
        ):
            bots.make_bot(kind, game, 0, bogus=1)
        with pytest.raises(ValueError, match=r"^unknown options 'depth', 'width' for"):
            bots.make_bot(kind, game, 0, depth=2, width=0.5)
    # The options named are the ones taken.
    assert bots.make_bot("ismcts", game, 0, simulations=5, rollouts=2, uct_c=1.0).simulations == 5
    text = bots.make_bot("text", game, 0, ask=lambda p: "", fallback="random", timeout_s=1)
    assert text.timeout_s == 1


def test_an_option_of_another_kind_is_refused_by_name():
    game = fogboard_games.load("dark-hex-4")
    with pytest.raises(ValueError, match="unknown option 'simulations' for the random bot"):
        bots.make_bot("random", game, 0, simulations=10)
    with pytest.raises(ValueError, match="unknown option 'iterations' for the heuristic bot"):
        bots.make_bot("heuristic", game, 1, iterations=3)


def test_a_kind_that_takes_any_option_is_not_second_guessed():
    """A registered factory taking **options checks them itself."""
    seen = {}

    def factory(game, player, seed=0, **options):
        seen.update(options)
        return bots.RandomBot(game, player, seed)

    bots.register_kind("test-any-options", factory)
    try:
        game = fogboard_games.load("phantom-ttt-3")
        assert bots.base.kind_options("test-any-options", game) is None
        bots.make_bot("test-any-options", game, 0, whatever=1)
        assert seen == {"whatever": 1}
    finally:
        del bots.BOT_KINDS["test-any-options"]


def test_a_kind_that_is_not_a_name_is_unknown():
    game = fogboard_games.load("phantom-ttt-3")
    with pytest.raises(ValueError, match=r"^unknown bot kind \['random'\]; kinds for"):
        bots.make_bot(["random"], game, 0)
