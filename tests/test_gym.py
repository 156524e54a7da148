"""The single-agent Gymnasium environment (docs/gym.md): check_env for every
preset, the observation and its bounds, the mask, opponents and chance
between the agent's turns, rewards as the game pays them, seeding, and
illegal actions."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env

import fogboard_games
from fogboard_games import gym as fgym
from fogboard_games.core.registry import CONFORMANCE_EXTRAS


def legal_choice(rng, info) -> int:
    """A legal action, drawn uniformly; 0 when there is none (the game ended
    before the agent's first decision: any action ends the episode)."""
    legal = np.flatnonzero(info["action_mask"])
    return int(rng.choice(legal)) if legal.size else 0


def episode(env, seed: int, policy_seed: int = 0):
    """Play one episode with uniformly random legal actions: the
    (observation, reward, terminated) of every step, and the final state."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False)]
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = env.step(legal_choice(rng, info))
        assert truncated is False
        out.append((obs, reward, terminated))
    return out, env.state


@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_check_env_passes_for_every_preset_without_a_warning(preset):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(fgym.env_id(preset), seed=3).unwrapped)
        check_env(fgym.make(preset, seat=fogboard_games.load(preset).num_players() - 1))
    assert not [str(w.message) for w in caught if "gymnasium" in w.filename + str(w.message)]


@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_observation_is_the_seats_information_state_within_its_bounds(preset):
    game = fogboard_games.load(preset)
    env = fgym.make(preset, seat=game.num_players() - 1)
    space = env.observation_space
    assert space.dtype == np.float32 and space.shape == (game.information_state_tensor_size(),)
    assert (space.low == 0).all() and np.isfinite(space.high).all()
    reached = np.zeros(space.shape, np.float32)
    for seed in range(3 if game.max_game_length() < 1000 else 1):
        steps, state = episode(env, seed)
        assert state.is_terminal()
        for obs, _, _ in steps:
            assert obs.dtype == np.float32 and space.contains(obs)
            reached = np.maximum(reached, obs)
        assert (steps[-1][0] == state.information_state_tensor(env.seat)).all()
    # A count piece's bound is above 1 only where a count can pass 1.
    assert (reached <= space.high).all()


def test_count_bounds_are_the_rules_most():
    def high_of(preset, piece):
        game = fogboard_games.load(preset)
        layout = game.setup.encoder.layout(fogboard_games.core.observer.INFO_STATE)
        start = layout.offset[piece]
        return set(fgym.observation_high(game)[start : start + np.prod(layout.shape[piece])])

    assert high_of("parley", "points") == {5.0}  # stand 3, friend 1, enemy 1
    assert high_of("parley", "turn_it") == {1.0}
    assert high_of("liars-dice", "hands") == {5.0}  # five dice a seat
    assert high_of("liars-dice", "bids") == {1.0}
    assert high_of("mind-bluff", "debts") == {30.0}  # a debt a turn at most
    assert set(fgym.observation_high(fogboard_games.load("dark-hex-5"))) == {1.0}
    assert high_of("mind-bluff-series", "score") == {2.0}
    assert high_of("mind-bluff-series", "game3") == {1.0, 31.0}  # its flags and its debts


def test_the_mask_is_in_info_and_the_agent_moves_at_every_step():
    env = fgym.make("parley", opponent="heuristic", seat=3, seed=5)
    obs, info = env.reset()
    mask = info["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (env.action_space.n,)
    rng = np.random.default_rng(1)
    terminated = False
    while not terminated:
        state = env.state
        assert state.current_player() == 3  # opponents and chance played to the agent's turn
        assert np.flatnonzero(info["action_mask"]).tolist() == state.legal_actions()
        assert (env.action_masks() == info["action_mask"].astype(bool)).all()
        obs, _, terminated, _, info = env.step(legal_choice(rng, info))
    assert not info["action_mask"].any() and env.state.is_terminal()
    history = env.state.history()
    # The other seats' decisions were made by the opponents, not the agent.
    replay = env.game.new_initial_state()
    movers = set()
    for action in history:
        if not replay.is_chance_node():
            movers.add(replay.current_player())
        replay.apply_action(action)
    assert movers == set(range(5))


def test_rewards_are_what_the_game_pays_the_seat_and_parley_pays_during_the_game():
    env = fgym.make("parley", seat=1)
    during = 0
    for seed in range(4):
        steps, state = episode(env, seed)
        rewards = [r for _, r, _ in steps]
        assert sum(rewards) == pytest.approx(state.returns()[1])
        during += sum(1 for r in rewards[:-1] if r)  # a round's points, paid before the end
    assert during
    env = fgym.make("dark-hex-4", seat=0)
    for seed in range(3):
        steps, state = episode(env, seed)
        assert [r for _, r, _ in steps[:-1]] == [0.0] * (len(steps) - 1)
        assert steps[-1][1] == state.returns()[0] and steps[-1][2]


def test_same_seed_same_episode_and_another_seed_another():
    def run(seed):
        env = fgym.make("liars-dice", opponent="heuristic", seat=1)
        steps, state = episode(env, seed, policy_seed=4)
        return [(o.tolist(), r, t) for o, r, t in steps], state.history()

    assert run(11) == run(11)
    assert len({tuple(run(s)[1]) for s in range(4)}) > 1
    # make(seed=) seeds the first reset; reset(seed=) reseeds, reset() goes on.
    env = fgym.make("mind-bluff-series", seed=2)
    first = env.reset()[0]
    again = fgym.make("mind-bluff-series")
    assert (again.reset(seed=2)[0] == first).all()
    with pytest.raises(ValueError, match="reset takes no options"):
        env.reset(options={"seat": 1})


def test_game_over_before_the_agents_first_decision_pays_on_its_first_step():
    # One hp, head-shots only: IT keeps the gun and puts every cog OUT, so
    # C2 decides only if chance wakes it up IT.
    game = pyspiel.load_game(
        "fogboard_parley(players=3,hp=1,rounds=1,passes=0,talk=false,hip_limit=0)"
    )
    env = fgym.make(game, seat=2)
    seen = set()
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        if not env.state.is_terminal():
            seen.add("plays")
            continue
        seen.add("over")
        assert not info["action_mask"].any()
        obs, reward, terminated, truncated, info = env.step(0)
        assert terminated and not truncated and reward == env.state.returns()[2]
    assert seen == {"plays", "over"}


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_leaves_the_game():
    env = fgym.make("parley-tiny", seed=0)
    obs, info = env.reset()
    before = env.state.history()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert (terminated, truncated, reward) == (True, False, -1.0)
    assert f"action {illegal} is illegal here; legal: " in info["illegal_action"]
    assert env.state.history() == before and (obs2 == obs).all()
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    for bad in (-1, 10**6):
        env.reset(seed=0)
        assert env.step(bad)[2] is True
    penalised = fgym.make("parley-tiny", illegal_reward=-3.5)
    penalised.reset(seed=0)
    assert penalised.step(illegal)[1] == -3.5


def test_an_illegal_action_can_raise_instead_leaving_the_episode_running():
    env = fgym.make("parley-tiny", illegal_action="raise")
    obs, info = env.reset(seed=0)
    before = env.state.history()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is illegal here; legal: "):
        env.step(illegal)
    assert env.state.history() == before
    for bad in ("c3", 1.5, None, True):
        with pytest.raises(TypeError, match="an action is an int action id"):
            env.step(bad)
    assert env.state.history() == before
    env.step(legal_choice(np.random.default_rng(0), info))  # the episode goes on


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"preset": "no-such-preset"}, "no-such-preset"),
        ({"preset": 3}, "preset name"),
        ({"seat": 2}, r"seat must be an int in 0\.\.1"),
        ({"seat": True}, "seat must be an int"),
        ({"opponent": "nobody"}, "unknown bot kind 'nobody'; kinds for"),
        ({"opponent": "cfr"}, "the cfr bot plays the small presets"),
        ({"opponent_options": {"depth": 3}}, "unknown option 'depth' for the random bot"),
        ({"illegal_action": "ignore"}, "illegal_action must be one of end, raise"),
        ({"illegal_reward": "x"}, "illegal_reward must be a number"),
        ({"render_mode": "human"}, "render_mode must be None or one of ansi"),
        ({"seed": 1.5}, "seed must be None or an int"),
        ({"seed": -1}, "seed must be None or an int >= 0, got -1"),
        ({"seed": True}, "seed must be None or an int >= 0, got true"),
        ({"illegal_reward": float("nan")}, "illegal_reward must be a number .* got NaN"),
        ({"illegal_reward": float("inf")}, "illegal_reward must be a number .* got Infinity"),
        ({"illegal_reward": -float("inf")}, "illegal_reward must be a number .* got -Infinity"),
        ({"illegal_reward": True}, "illegal_reward must be a number .* got true"),
        (
            {"illegal_reward": 10**400},
            "illegal_reward must be a number .* got <an int of 1329 bits>",
        ),
        ({"observation": "view"}, "observation must be one of information_state, observation"),
        ({"dtype": "bool"}, 'dtype must be None or one of float32, uint8, got "bool"'),
        ({"dtype": "float64"}, "dtype must be None or one of float32, uint8"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, message):
    args = {"preset": "dark-hex-4", **kwargs}
    with pytest.raises(ValueError, match=message):
        fgym.make(args.pop("preset"), **args)


def test_opponent_options_reach_the_bots_and_render_shows_the_seats_view():
    env = fgym.make(
        "phantom-ttt-3", opponent="mcts", opponent_options={"simulations": 3}, render_mode="ansi"
    )
    env.reset(seed=0)
    assert {bot.simulations for bot in env.opponents.values()} == {3}
    assert env.render() == env.state.information_state_string(0)


def test_missing_gymnasium_names_the_extra():
    code = (
        "import sys; sys.modules['gymnasium'] = None\n"
        "try:\n"
        "    import fogboard_games.gym\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    # (the package is on no index: the extra is installed from the checkout)
    assert 'pip install ".[gym]"' in out and "fogboard_games[" not in out


def test_bounds_hold_on_the_conformance_configurations_too():
    for short, configs in sorted(CONFORMANCE_EXTRAS.items()):
        for params in configs:
            game = pyspiel.load_game(short, params)
            for seat in (0, game.num_players() - 1):
                env = fgym.make(game, seat=seat)
                steps, _ = episode(env, seed=seat)
                for obs, _, _ in steps:
                    assert env.observation_space.contains(obs), (short, params)


# What a hostile caller passes as a seed: negative, a float, a string, NaN, a
# list, a bool (an int to Python, never a seed here), a negative numpy int.
BAD_SEEDS = [-1, 1.5, "3", float("nan"), [1], True, np.int64(-1)]


def test_a_bad_seed_is_refused_by_name_and_the_next_reset_is_the_game_it_would_have_been():
    env, twin = fgym.make("liars-dice", seed=5), fgym.make("liars-dice", seed=5)
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0, got "):
            env.reset(seed=bad)
    # make's seed is not used up by the refusals: the first reset plays its game.
    assert np.array_equal(env.reset()[0], twin.reset()[0])
    assert env.state.history() == twin.state.history()
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            env.reset(seed=bad)
    env.reset(), twin.reset()  # the RNG goes on where it was
    assert env.state.history() == twin.state.history()
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            fgym.make("liars-dice", seed=bad)
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            gymnasium.make(fgym.env_id("liars-dice"), seed=bad)
    # A numpy int is a seed (gymnasium's seeding takes Python ints only).
    numpy_seeded, plain = fgym.make("liars-dice", seed=np.int64(5)), fgym.make("liars-dice")
    numpy_seeded.reset(), plain.reset(seed=5)
    assert numpy_seeded.state.history() == plain.state.history()
    numpy_seeded.reset(seed=np.uint8(6)), plain.reset(seed=6)
    assert numpy_seeded.state.history() == plain.state.history()


# The compact observations (docs/gym.md#compact-observations): the seat's
# observation tensor, and either tensor in uint8.
COMPACT = [("observation", None), ("observation", "uint8"), ("information_state", "uint8")]


@pytest.mark.parametrize("form, dtype", COMPACT)
@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_a_compact_observation_passes_check_env_and_is_the_seats_tensor(preset, form, dtype):
    game = fogboard_games.load(preset)
    seat = game.num_players() - 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options = dict(observation=form, dtype=dtype)
        check_env(gymnasium.make(fgym.env_id(preset), seed=3, **options).unwrapped)
        check_env(fgym.make(preset, seat=seat, **options))
    assert not [str(w.message) for w in caught if "gymnasium" in w.filename + str(w.message)]
    env = fgym.make(preset, seat=seat, observation=form, dtype=dtype)
    space, want = env.observation_space, np.dtype(dtype or np.float32)
    size = game.observation_tensor_size() if form == "observation" else None
    assert space.shape == (size or game.information_state_tensor_size(),)
    assert space.dtype == want and (env.form, env.dtype) == (form, want)
    low, high = fgym.observation_bounds(game, form)
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    rng = np.random.default_rng(seat)
    obs, info = env.reset(seed=seat)
    terminated, steps = False, 0
    while True:
        state = env.state
        if form == "observation":
            tensor = state.observation_tensor(seat)
        else:
            tensor = state.information_state_tensor(seat)
        assert obs.dtype == want and space.contains(obs)
        assert (obs == np.asarray(tensor)).all()  # every value kept exactly
        if terminated:
            break
        obs, _, terminated, _, info = env.step(legal_choice(rng, info))
        steps += 1
    assert steps and env.state.is_terminal()


def test_the_observation_form_is_the_small_one():
    parley = fogboard_games.load("parley")
    full = fgym.make(parley)
    small = fgym.make(parley, observation="observation", dtype="uint8")
    assert full.observation_space.shape == (parley.information_state_tensor_size(),)
    assert small.observation_space.shape == (parley.observation_tensor_size(),)
    assert small.reset(seed=0)[0].nbytes * 50 < full.reset(seed=0)[0].nbytes
