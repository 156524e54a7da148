"""fogboard_games.pettingzoo (docs/pettingzoo.md): PettingZoo's own API test
on every preset, parameters that survive reset, masks and observations that
are the seat's, rewards that sum to the returns, seeded chance, and clear
refusals."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import fogboard_games

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from fogboard_games.pettingzoo import FogboardAECEnv, env  # noqa: E402

# api_test warns about every dict observation (it whitelists PettingZoo's own
# classic environments by name); any other warning is about our data. These are
# the warnings docs/pettingzoo.md#api_tests-warnings lists, exactly.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def play(aec, seed: int, policy_seed: int | None = None) -> tuple[list, dict]:
    """One whole game from reset(seed) with uniformly random legal actions:
    (agent, action) of every decision, and each agent's rewards summed."""
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    moves, total = [], dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        total[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        moves.append((agent, action))
        aec.step(action)
    return moves, total


@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_pettingzoo_api_test_passes(preset):
    aec = env(preset)
    game = aec.unwrapped.game
    # play_test stops when the game ends: enough cycles to reach the end of
    # the longest game, so every preset finishes one in practice.
    cycles = game.max_game_length() // game.num_players() + 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec, num_cycles=cycles, verbose_progress=False)
    others = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
    assert not others, others
    # Exactly the documented ones, every one of them api_test's own, as UserWarnings.
    assert {str(w.message) for w in caught} == DICT_OBSERVATION_WARNINGS
    assert {w.category for w in caught} == {UserWarning}
    assert {Path(w.filename).parts[-3:] for w in caught} == {("pettingzoo", "test", "api_test.py")}


def test_the_documented_warnings_are_the_ones_the_api_test_asserts():
    page = (Path(__file__).parents[1] / "docs" / "pettingzoo.md").read_text(encoding="utf-8")
    section = page.split("## api_test's warnings", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^- \*\*`([^`]+)`\*\*", section, re.M))
    assert listed == DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_a_whole_game_ends_with_every_agent_gone_and_the_returns_paid(preset):
    aec = env(preset)
    moves, total = play(aec, seed=1)
    state = aec.unwrapped.game_state
    assert state.is_terminal() and moves
    assert aec.agents == [] and aec.rewards == {} and aec.terminations == {}
    assert [total[a] for a in aec.possible_agents] == pytest.approx(state.returns())


def test_names_spaces_and_the_observation_of_each_seat():
    aec = env("liars-dice-table")
    raw = aec.unwrapped
    game = raw.game
    assert aec.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    aec.reset(seed=5)
    space = aec.observation_space("player_2")
    assert space["observation"].shape == (game.information_state_tensor_size(),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (game.num_distinct_actions(),)
    assert space["action_mask"].dtype == np.int8
    assert aec.action_space("player_2").n == game.num_distinct_actions()
    for _ in range(6):
        state = raw.game_state
        mover = state.current_player()
        assert aec.agent_selection == f"player_{mover}"
        for seat, agent in enumerate(aec.possible_agents):
            seen = aec.observe(agent)
            assert seen["observation"].dtype == np.float32
            assert seen["observation"].tolist() == state.information_state_tensor(seat)
            assert seen["action_mask"].dtype == np.int8
            legal = state.legal_actions() if seat == mover else []
            assert np.flatnonzero(seen["action_mask"]).tolist() == legal
        aec.step(state.legal_actions()[0])


def test_a_non_default_preset_keeps_its_parameters_after_reset():
    """dark-hex-5 is 5x5 and abrupt: a collision ends the turn (classical dark
    hex, the default, lets the mover try again)."""
    aec = env("dark-hex-5")
    for seed in (0, 1):
        aec.reset(seed=seed)
        game = aec.unwrapped.game_state.get_game()
        assert game.get_parameters()["board_size"] == 5
        assert game.get_parameters()["abrupt"] is True
        assert aec.action_space("player_0").n == 25
        assert aec.observe("player_0")["observation"].shape == (753,)
        c3 = aec.unwrapped.game_state.string_to_action("c3")
        aec.step(c3)  # X places c3
        aec.step(c3)  # O collides with it...
        assert aec.agent_selection == "player_0"  # ...and, abrupt, O's turn is over


def test_shimmy_reload_pitfall():
    """Why we do not wrap with shimmy: its reset() reloads the game by its short
    name, with default parameters unless they came in `config`."""
    shimmy = pytest.importorskip("shimmy")
    preset = fogboard_games.PRESETS["dark-hex-5"]
    lost = shimmy.OpenSpielCompatibilityV0(env=fogboard_games.load("dark-hex-5"))
    lost.reset(seed=0)
    assert lost.action_space("player_0").n == 16  # silently classical dark hex 4x4
    kept = shimmy.OpenSpielCompatibilityV0(game_name=preset.short_name, config=dict(preset.params))
    kept.reset(seed=0)
    assert kept.action_space("player_0").n == 25


@pytest.mark.parametrize("preset", ["parley", "parley-tiny", "liars-dice", "liars-dice-table"])
def test_rewards_sum_to_the_returns(preset):
    aec = env(preset)
    for seed in range(3):
        _, total = play(aec, seed)
        returns = aec.unwrapped.game_state.returns()
        assert [total[a] for a in aec.possible_agents] == pytest.approx(returns)


def test_parley_pays_round_points_at_round_ends():
    aec = env("parley")  # 3 rounds
    aec.reset(seed=2)
    raw = aec.unwrapped
    rng = np.random.default_rng(2)
    paid_at = []  # the round of every step that paid something
    for _ in aec.agent_iter():
        observation, _, termination, _, _ = aec.last()
        if termination:
            aec.step(None)
            continue
        round_before = raw.game_state.truth.round
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if any(raw.rewards.values()):
            assert raw.game_state.is_terminal() or raw.game_state.truth.round == round_before + 1
            paid_at.append(round_before)
    assert paid_at == [0, 1, 2]  # once a round, at the move that ends it


def test_seeded_chance_is_reproducible():
    aec = env("liars-dice")

    def game(seed: int) -> tuple:
        moves, total = play(aec, seed, policy_seed=0)
        return moves, total, aec.unwrapped.game_state.history()

    first = game(7)
    assert game(7) == first
    rolls = {tuple(game(seed)[2][:10]) for seed in range(4)}  # the ten dice
    assert len(rolls) == 4  # other seeds roll other dice
    # A seed at construction seeds the first reset; later resets go on from it.
    a, b = env("liars-dice", seed=3), env("liars-dice", seed=3)
    for aec in (a, b):
        aec.reset()
    assert a.unwrapped.game_state.history() == b.unwrapped.game_state.history()
    a.reset(), b.reset()
    assert a.unwrapped.game_state.history() == b.unwrapped.game_state.history()


def test_illegal_actions_are_refused_and_change_nothing():
    aec = env("dark-hex-4")
    aec.reset(seed=0)
    state = aec.unwrapped.game_state
    aec.step(state.string_to_action("a1"))
    before = state.history()
    for bad in (16, -1):
        with pytest.raises(ValueError, match=f"player_1: action {bad} is illegal"):
            aec.step(bad)
    for bad in (1.0, "b2", True, None):
        with pytest.raises(TypeError, match="an action is an int action id"):
            aec.step(bad)
    assert state.history() == before and aec.agent_selection == "player_1"
    aec.step(np.int64(state.string_to_action("a1")))  # numpy ints are actions; a collision
    assert aec.agent_selection == "player_1"  # classical: O tries again


def test_a_finished_agent_steps_with_none_only():
    aec = env("liars-dice-1")
    aec.reset(seed=0)
    while not aec.unwrapped.game_state.is_terminal():
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[-1]))
    with pytest.raises(ValueError, match="only valid action is None"):
        aec.step(0)


def test_refusals():
    with pytest.raises(ValueError, match="unknown preset 'dark-hex-9'; known presets: .*parley"):
        env("dark-hex-9")
    with pytest.raises(ValueError, match="not a fogboard game"):
        env(pyspiel.load_game("kuhn_poker"))
    with pytest.raises(ValueError, match="render_mode"):
        env("liars-dice", render_mode="rgb_array")


def test_a_loaded_game_of_ours_is_accepted():
    game = pyspiel.load_game("fogboard_dark_hex(board_size=3)")
    aec = env(game)
    aec.reset(seed=0)
    assert aec.unwrapped.game is game and aec.action_space("player_1").n == 9


def test_render_shows_the_whole_state():
    aec = env("phantom-ttt-3", render_mode="ansi")
    aec.reset(seed=0)
    assert aec.render() == str(aec.unwrapped.game_state)
    assert isinstance(env("phantom-ttt-3").unwrapped, FogboardAECEnv)


def test_our_module_does_not_shadow_pettingzoo_and_says_what_to_install():
    import pettingzoo

    assert "fogboard_games" not in pettingzoo.__file__
    code = (
        "import sys; sys.modules['pettingzoo'] = None\n"
        "try:\n"
        "    import fogboard_games.pettingzoo\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    # (the package is on no index: the extra is installed from the checkout)
    assert 'pip install ".[pettingzoo]"' in out and "fogboard_games[" not in out


# What a hostile caller passes as a seed (tests/test_gym.py's BAD_SEEDS).
BAD_SEEDS = [-1, 1.5, "3", float("nan"), [1], True, np.int64(-1)]


def test_a_bad_seed_is_refused_by_name_and_the_next_reset_is_the_game_it_would_have_been():
    aec, twin = env("liars-dice", seed=5), env("liars-dice", seed=5)
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0, got "):
            env("liars-dice", seed=bad)
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            aec.reset(seed=bad)
    aec.reset(), twin.reset()  # the construction's seed: the same game
    assert aec.unwrapped.game_state.history() == twin.unwrapped.game_state.history()
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            aec.reset(seed=bad)
    aec.reset(), twin.reset()  # the RNG goes on where it was
    assert aec.unwrapped.game_state.history() == twin.unwrapped.game_state.history()
    aec.reset(seed=np.int64(9)), twin.reset(seed=9)  # a numpy int is a seed
    assert aec.unwrapped.game_state.history() == twin.unwrapped.game_state.history()
