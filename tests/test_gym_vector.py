"""The vector environment (fogboard_games.gym.make_vec, docs/gym.md#the-vector-environment):
every preset, every row replayed in pyspiel at every step, the vector API's
contract (by hand: gymnasium's env_checker has no check of a VectorEnv),
refusals."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils import env_checker, passive_env_checker  # noqa: E402

import fogboard_games  # noqa: E402
from fogboard_games import gym as fogboard_gym  # noqa: E402
from fogboard_games.batch import env as batch_env  # noqa: E402
from fogboard_games.core import registry  # noqa: E402

PRESETS = list(registry.PRESETS)  # (batch.make covers every one)
# Long games: fewer steps would end none; their rows stay few.
STEPS = {"parley": 60, "liars-dice-table": 70, "recon-hex-5": 45}


def _masked(rng, mask):
    """A random legal action per row (0 where the row has none)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


@pytest.mark.parametrize("preset", PRESETS)
def test_every_row_is_the_pyspiel_game_with_the_agents_moves(preset):
    """The first and the last seat (Liar's Dice's four: seat 3; Parley's five: 4)."""
    rows_replayed(preset)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_row_of_the_compact_observation_is_the_seats_observation_tensor(preset):
    """docs/gym.md#compact-observations: the seat's observation tensor in uint8."""
    rows_replayed(preset, observation="observation", dtype="uint8")


def rows_replayed(preset, observation="information_state", dtype=None):
    """Every row replayed in pyspiel at every step, for the first and the last seat."""
    game = registry.load(preset)
    for seat in (0, game.num_players() - 1):
        env = fogboard_gym.make_vec(
            preset, 4, seat=seat, seed=seat, observation=observation, dtype=dtype
        )
        assert env.engine.form == observation
        obs, info = env.reset()
        rng = np.random.default_rng(seat)
        mine = [[] for _ in range(env.num_envs)]  # the agent's actions this episode, by row
        total = np.zeros(env.num_envs)
        episodes = 0
        for _ in range(STEPS.get(preset, 30)):
            assert obs in env.observation_space
            for row in range(env.num_envs):
                state = env.engine.to_pyspiel(row)
                if observation == "observation":
                    assert np.array_equal(obs[row], state.observation_tensor(seat))
                else:
                    assert np.array_equal(obs[row], state.information_state_tensor(seat))
                mask = info["action_mask"][row]
                if state.is_terminal():
                    assert not mask.any()
                else:
                    assert state.current_player() == seat
                    assert np.flatnonzero(mask).tolist() == state.legal_actions()
                # The agent's actions are the seat's decisions in the row's history.
                replay = env.game.new_initial_state()
                played = []
                for action in env.engine.history_of(row):
                    if replay.current_player() == seat:
                        played.append(action)
                    replay.apply_action(action)
                assert played == mine[row]
            actions = _masked(rng, info["action_mask"])
            over = env._autoreset.copy()
            deciding = info["action_mask"].any(axis=1)
            obs, reward, terminated, truncated, info = env.step(actions)
            assert not truncated.any()
            for row in range(env.num_envs):
                if over[row]:  # restarted: the action was ignored
                    assert reward[row] == 0 and not terminated[row]
                    mine[row], total[row] = [], 0.0
                    continue
                if deciding[row]:  # (else over before the seat's first decision)
                    mine[row].append(int(actions[row]))
                total[row] += reward[row]
                if terminated[row]:
                    # (the engine pays float32: Liar's Dice's thirds to float32's precision)
                    returns = env.engine.to_pyspiel(row).returns()[seat]
                    assert total[row] == pytest.approx(returns, rel=1e-6, abs=1e-6)
                    episodes += 1
        assert episodes >= 1, (preset, seat)


def test_the_vector_api_contract():
    env = fogboard_gym.make_vec("phantom-ttt-3", 5, seed=0)
    single = fogboard_gym.make("phantom-ttt-3")
    assert env.num_envs == 5
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (5, single.observation_space.shape[0])
    assert env.action_space == gymnasium.spaces.MultiDiscrete([9] * 5)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=3)
    first = obs.copy(), info["action_mask"].copy()
    assert obs.dtype == np.float32 and obs in env.observation_space
    assert info["action_mask"].shape == (5, 9) and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    trace = []
    for _ in range(12):
        obs, reward, terminated, truncated, info = env.step(_masked(rng, info["action_mask"]))
        assert obs in env.observation_space
        assert reward.shape == terminated.shape == truncated.shape == (5,)
        assert reward.dtype == np.float64 and terminated.dtype == truncated.dtype == bool
        trace.append((obs.copy(), reward.copy(), terminated.copy(), info["action_mask"].copy()))
    # The same seed and the same actions: the same everything.
    obs, info = env.reset(seed=3)
    assert np.array_equal(obs, first[0]) and np.array_equal(info["action_mask"], first[1])
    rng = np.random.default_rng(0)
    for o, r, t, m in trace:
        obs, reward, terminated, truncated, info = env.step(_masked(rng, info["action_mask"]))
        assert np.array_equal(obs, o) and np.array_equal(reward, r)
        assert np.array_equal(terminated, t) and np.array_equal(info["action_mask"], m)
    assert any(t.any() for _, _, t, _ in trace)  # autoreset was met


@pytest.mark.parametrize("preset", PRESETS)
def test_spaces_shapes_and_dtypes_of_every_preset(preset):
    """What gymnasium's checks of a single env ask, by hand for the batch (its
    env_checker checks no VectorEnv): the spaces valid and the single env's
    batched, what reset and step return in them, with the declared shapes and
    dtypes, in both observation dtypes, and a seeded reset deterministic."""
    for form, dtype in [
        (f, d) for f in ("information_state", "observation") for d in (None, "uint8")
    ]:
        single = fogboard_gym.make(preset, observation=form, dtype=dtype)
        env = fogboard_gym.make_vec(preset, 3, seed=1, observation=form, dtype=dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (gymnasium's checks warn rather than raise)
            for space in (env.single_observation_space, env.observation_space):
                env_checker.check_observation_space(space)
            for space in (env.single_action_space, env.action_space):
                env_checker.check_action_space(space)
            passive_env_checker.check_obs(env.reset(seed=2)[0], env.observation_space, "reset")
        again = fogboard_gym.make_vec(preset, 3, seed=1, observation=form, dtype=dtype)
        assert np.array_equal(again.reset(seed=2)[0], env.reset(seed=2)[0])
        want = np.dtype(np.float32 if dtype is None else dtype)
        space = env.single_observation_space
        assert space.shape == single.observation_space.shape and space.dtype == want
        assert np.array_equal(space.high, single.observation_space.high.astype(want))
        assert space == single.observation_space  # the single environment's, form and dtype
        assert env.single_action_space == single.action_space
        assert env.observation_space == gymnasium.vector.utils.batch_space(space, 3)
        A = env.single_action_space.n
        assert env.action_space == gymnasium.spaces.MultiDiscrete([A] * 3)
        obs, info = env.reset(seed=2)
        rng = np.random.default_rng(2)
        for _ in range(6):
            assert obs.dtype == want and obs in env.observation_space
            assert info["action_mask"].shape == (3, A) and info["action_mask"].dtype == np.int8
            obs, reward, terminated, truncated, info = env.step(_masked(rng, info["action_mask"]))
            assert reward.shape == (3,) and reward.dtype == np.float64
            assert terminated.dtype == truncated.dtype == bool


def test_uint8_observations_hold_the_same_values():
    wide = fogboard_gym.make_vec("dark-hex-4", 4, seed=1)
    narrow = fogboard_gym.make_vec("dark-hex-4", 4, seed=1, dtype="uint8")
    assert narrow.single_observation_space.dtype == np.uint8
    a, _ = wide.reset()
    b, info = narrow.reset()
    assert b.dtype == np.uint8 and np.array_equal(a, b) and b in narrow.observation_space


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-5", "parley-tiny"])
def test_an_illegal_action_ends_the_row_or_raises_changing_nothing(preset):
    env = fogboard_gym.make_vec(preset, 3, seed=0, illegal_reward=-5.0)
    obs, info = env.reset()
    actions = _masked(np.random.default_rng(0), info["action_mask"])
    actions[1] = 99
    history = env.engine.history_of(1)
    before = obs[1].copy()
    obs, reward, terminated, _, info = env.step(actions)
    assert terminated[1] and reward[1] == -5.0 and info["illegal_action"].tolist() == [0, 1, 0]
    assert env.engine.history_of(1) == history and np.array_equal(obs[1], before)
    assert not info["action_mask"][1].any()
    strict = fogboard_gym.make_vec(preset, 3, seed=0, illegal_action="raise")
    obs, info = strict.reset()
    histories = [strict.engine.history_of(r) for r in range(3)]
    actions = _masked(np.random.default_rng(0), info["action_mask"])
    actions[2] = 99
    with pytest.raises(ValueError, match=r"row 2, seat 0: action 99 is illegal here; legal: "):
        strict.step(actions)
    assert [strict.engine.history_of(r) for r in range(3)] == histories
    with pytest.raises(TypeError, match="one int action id per row"):
        strict.step(np.array([0.5, 1, 2]))


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (
            dict(preset="phantom-ttt-3", num_envs=2, opponent="mcts"),
            "opponents are one of random, heuristic",
        ),
        (
            dict(preset="phantom-ttt-3", num_envs=2, opponent="heuristic"),
            r"does not vectorize.*fogboard_games.gym.make plays that bot",
        ),
        (
            dict(preset="parley-tiny", num_envs=2, opponent="heuristic"),
            r"heuristic bot of fogboard_parley does not vectorize",
        ),
        (dict(preset="phantom-ttt-3", num_envs=0), "num_envs must be a positive int"),
        (dict(preset="phantom-ttt-3", num_envs=2, seat=2), "seat must be an int in 0..1"),
        (dict(preset="parley", num_envs=2, seat=5), r"seat must be an int in 0..4"),
        (dict(preset="phantom-ttt-3", num_envs=2, dtype="bool"), "dtype must be None or one of"),
        (dict(preset="phantom-ttt-3", num_envs=2, illegal_action="x"), "illegal_action must be"),
        (dict(preset="phantom-ttt-3", num_envs=2, seed=-1), r"seed must be None or an int >= 0"),
        (dict(preset="phantom-ttt-3", num_envs=2, seed=True), "seed must be None or an int >= 0"),
        (
            dict(preset="phantom-ttt-3", num_envs=2, illegal_reward=float("nan")),
            "illegal_reward must be a number .* got NaN",
        ),
        (
            dict(preset="phantom-ttt-3", num_envs=2, illegal_reward=-float("inf")),
            "illegal_reward must be a number .* got -Infinity",
        ),
        (
            dict(preset="phantom-ttt-3", num_envs=2, observation="view"),
            "observation must be one of information_state, observation",
        ),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs, words):
    with pytest.raises(ValueError, match=words):
        fogboard_gym.make_vec(**kwargs)


@pytest.mark.parametrize("preset", ["liars-dice", "mind-bluff", "mind-bluff-series"])
def test_heuristic_opponents_play_the_scalar_heuristics_moves(preset):
    """Every opponent decision in every row's history is one the scalar
    heuristic plays there (its seed-0 action, or one of its tied actions
    under other seeds: tests/test_batch_bots.py's scalar_choices)."""
    from test_batch_bots import scalar_choices

    env = fogboard_gym.make_vec(preset, 6, opponent="heuristic", seat=1, seed=3)
    obs, info = env.reset()
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(12):
        obs, reward, terminated, truncated, info = env.step(_masked(rng, info["action_mask"]))
        for row in range(env.num_envs):
            replay = env.game.new_initial_state()
            for action in env.engine.history_of(row):
                mover = replay.current_player()
                if mover >= 0 and mover != env.seat:
                    assert action in scalar_choices(env.game, replay, mover, action), (row, action)
                    checked += 1
                replay.apply_action(action)
    assert checked > 50


# What a hostile caller passes as a seed (tests/test_gym.py's BAD_SEEDS).
BAD_SEEDS = [-1, 1.5, "3", float("nan"), [1], True, np.int64(-1)]


def test_a_bad_seed_is_refused_by_name_and_the_next_reset_is_the_games_it_would_have_been():
    env = fogboard_gym.make_vec("liars-dice", 3, seed=5)
    twin = fogboard_gym.make_vec("liars-dice", 3, seed=5)
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0, got "):
            env.reset(seed=bad)
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            fogboard_gym.make_vec("liars-dice", 3, seed=bad)
    # make_vec's seed is not used up by the refusals: the first reset plays its games.
    assert np.array_equal(env.reset()[0], twin.reset()[0])
    histories = [env.engine.history_of(r) for r in range(3)]
    assert histories == [twin.engine.history_of(r) for r in range(3)]
    for bad in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0"):
            env.reset(seed=bad)
    assert [env.engine.history_of(r) for r in range(3)] == histories  # no row changed
    env.reset(), twin.reset()  # the RNGs go on where they were
    assert [env.engine.history_of(r) for r in range(3)] == [
        twin.engine.history_of(r) for r in range(3)
    ]
    env.reset(seed=np.int64(9)), twin.reset(seed=9)  # a numpy int is a seed
    assert [env.engine.history_of(r) for r in range(3)] == [
        twin.engine.history_of(r) for r in range(3)
    ]


def test_a_num_envs_beyond_the_memory_available_is_refused_naming_the_bytes():
    with pytest.raises(ValueError) as refused:
        fogboard_gym.make_vec("parley", 10**12)
    message = str(refused.value)
    assert "\n" not in message
    assert re.fullmatch(
        r"a num_envs of 1,000,000,000,000 rows would take [\d,]+ bytes \([\d,]+ a row with "
        r"the seat's tensor kept and handed out at every step\), more than the [\d,]+ bytes of "
        r"memory available on this machine: at most [\d,]+ rows fit in it",
        message,
    ), message


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice", "parley-tiny"])
@pytest.mark.parametrize("form", ["information_state", "observation"])
def test_the_bytes_a_row_named_are_what_a_row_takes_and_the_bound_is_the_memory(
    preset, form, monkeypatch
):
    """The estimate a refusal names is what each further row takes once stepped
    (the engine's memory_per_row, the observation and mask handed out, the
    environment's own arrays), and a batch is refused just past the bound."""
    taken = []
    for rows in (64, 128):
        env = fogboard_gym.make_vec(preset, rows, seed=0, observation=form)
        obs, info = env.reset()
        rng = np.random.default_rng(0)
        for _ in range(8):
            obs, _, _, _, info = env.step(_masked(rng, info["action_mask"]))
        kept = env.engine.memory_per_row() * rows + obs.nbytes + info["action_mask"].nbytes
        taken.append(
            kept + sum(a.nbytes for a in (env._rows, env._paid, env._early, env._autoreset))
        )
    per_row = (taken[1] - taken[0]) / 64
    monkeypatch.setattr(batch_env, "available_memory", lambda: 100 * 10**6)
    with pytest.raises(ValueError, match=r"would take [\d,]+ bytes") as refused:
        fogboard_gym.make_vec(preset, 10**6, observation=form)
    named = int(re.search(r"\(([\d,]+) a row", str(refused.value)).group(1).replace(",", ""))
    assert named == pytest.approx(per_row, rel=0.03)
    # The bound: exactly the memory available fits, a row more does not.
    monkeypatch.setattr(batch_env, "available_memory", lambda: 100 * named)
    assert fogboard_gym.make_vec(preset, 100, observation=form).num_envs == 100
    with pytest.raises(ValueError, match="at most 100 rows fit"):
        fogboard_gym.make_vec(preset, 101, observation=form)
    monkeypatch.setattr(batch_env, "available_memory", lambda: None)  # no bound known
    assert fogboard_gym.make_vec(preset, 101, observation=form).num_envs == 101


@pytest.mark.parametrize(
    "preset", ["phantom-ttt-3", "liars-dice-2x3", "mind-bluff-tiny", "parley-tiny"]
)
def test_the_docs_table_of_bytes_a_row_is_what_make_vec_counts(preset):
    """docs/gym.md's table of the bytes a row `make_vec` counts (seat 0), by
    observation form and dtype, is the count, measured again (it went stale
    once when the engines changed)."""
    text = (Path(__file__).parent.parent / "docs" / "gym.md").read_text()
    row = re.search(
        rf"^\| `{re.escape(preset)}` \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|$", text, re.M
    )
    assert row, f"{preset} is not in docs/gym.md's table"
    documented = [int(x.replace(",", "")) for x in row.groups()]
    game = fogboard_games.load(preset)
    counted = []
    for form, dtype in (("information_state", "float32"), ("information_state", "uint8"), ("observation", "uint8")):  # fmt: skip
        single = fogboard_gym._observation_space(game, form, dtype)
        counted.append(fogboard_gym.FogboardVectorEnv._row_bytes(game, 0, form, single))
    assert counted == documented
