"""fogboard_games.batch plays Parley as the pyspiel game does, move for move.

Batches of random matches are played beside one pyspiel state per row: after
each step the pyspiel state takes the row's action and then the chance
outcomes the row drew after it (read from the row's history: a hip-shot's
result, the next round's deal and wake), and at every step and in every row
the current player, the legal mask, both tensors (information state,
observation) of every seat and the mover's, the rewards and in the end the returns must agree;
`to_pyspiel(row)` must rebuild the same history (docs/batch.md).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import (
    arrays,
    assert_unchanged,
    expect_rows,
    mover_views_read_now_and_then,
    play_checked,
    random_draw,
)

from fogboard_games import batch
from fogboard_games.__main__ import main
from fogboard_games.bench import random_actions

# Edge values of every parameter (docs/parley.md#parameters): 3 and 8 cogs,
# 1 and 9 hp, 1 and 10 rounds, 0 and 9 passes, 1 to 7 survivors, talk on and
# off, 0 to 7 reactions, hip_limit 0 to 100.
CONFIGURATIONS = [
    "fogboard_parley(players=3,hp=1,rounds=2,passes=0,hip_limit=0)",
    "fogboard_parley(players=8,hp=1,rounds=1,passes=0,max_reactions=7,hip_limit=3)",
    "fogboard_parley(players=8,survivors=7,rounds=2,talk=false,hip_limit=2)",
    "fogboard_parley(players=4,hp=3,rounds=2,max_reactions=0,passes=1,hip_limit=5)",
    "fogboard_parley(players=5,survivors=2,rounds=2,passes=1,hip_limit=4)",
    "fogboard_parley(players=3,hp=1,rounds=1,passes=9,hip_limit=100)",
    "fogboard_parley(players=7,rounds=1,max_reactions=1,hip_limit=1,passes=2)",
    "fogboard_parley(players=3,hp=9,rounds=1,passes=0,talk=false,hip_limit=0)",
    "fogboard_parley(players=4,hp=1,rounds=10,passes=0,talk=false,hip_limit=1)",
    "fogboard_parley(players=6,hp=1,rounds=2,survivors=5,max_reactions=7,passes=1,hip_limit=2)",
]


def crosscheck(
    game,
    rows,
    seed=0,
    steps=None,
    restart=False,
    first_read=0,
    read_every=1,
    dtype=None,
    form="information_state",
):
    """Random batched play beside pyspiel (batch_checks.play_checked: the
    rounds' points paid as pyspiel pays them), tensors first read at step
    `first_read` (before it nothing builds them), then every `read_every`
    steps, in `dtype`, State.observation in `form`; `restart` restarts finished
    rows, as the benchmark does. Returns the environment and the number of steps."""
    env = batch.make(game, batch_size=rows, seed=seed, dtype=dtype, observation=form)
    want = np.dtype(np.float32 if dtype is None else dtype)

    def read(step):
        return step >= first_read and (step - first_read) % read_every == 0

    def at_step(step, s, tensors):
        if tensors is not None:
            assert tensors["observation"][0].dtype == want and s.observation.dtype == want
            assert not s.observation.flags.writeable

    def on_end(r, state):
        assert np.array_equal(env.totals[r], state.returns())

    rng = np.random.default_rng(seed + 100)
    return env, play_checked(env, random_draw, rng, steps, restart, read, at_step, on_end=on_end)


@pytest.mark.parametrize("form", ["information_state", "observation"])
@pytest.mark.parametrize("dtype", [None, "uint8"])
@pytest.mark.parametrize("preset, rows", [("parley-tiny", 64), ("parley", 6)])
def test_presets_agree_with_pyspiel(preset, rows, dtype, form):
    # (both seats' tensors of both forms at every step; State.observation in `form`)
    env, steps = crosscheck(preset, rows, dtype=dtype, form=form)
    assert steps > 0
    returns = np.array([env.to_pyspiel(r).returns() for r in range(rows)])
    assert returns.any()


@pytest.mark.parametrize("game_string", CONFIGURATIONS)
def test_other_configurations_agree_with_pyspiel(game_string):
    i = CONFIGURATIONS.index(game_string)
    dtype = (None, "uint8")[i % 2]  # (each in turn, State.observation in either form)
    form = ("information_state", "observation")[(i // 2) % 2]
    crosscheck(pyspiel.load_game(game_string), rows=12, seed=1, dtype=dtype, form=form)


@pytest.mark.parametrize(
    "game_string, first_read, read_every",
    [
        ("fogboard_parley(players=4,hp=1,rounds=3,passes=1,hip_limit=3)", 9, 1),
        ("fogboard_parley(players=5,rounds=2,passes=1,hip_limit=4,survivors=2)", 25, 3),
        ("fogboard_parley(players=3,rounds=4,talk=false,hip_limit=2)", 0, 2),
    ],
)
def test_tensors_first_read_late_and_rows_restarted(game_string, first_read, read_every):
    """The replay route (tensors first built mid-game from the histories, chance
    read back from them) and the benchmark's restarts of finished rows."""
    game = pyspiel.load_game(game_string)
    crosscheck(game, 16, seed=2, steps=70, restart=True, first_read=first_read, read_every=1)
    crosscheck(
        game,
        16,
        seed=3,
        steps=60,
        restart=True,
        first_read=first_read,
        read_every=read_every,
        dtype="uint8",
        form="observation",
    )


@pytest.mark.parametrize("preset, rows, steps", [("parley", 6, 70), ("parley-tiny", 24, 60)])
def test_the_movers_tensor_read_now_and_then_with_some_rows_restarted(preset, rows, steps):
    """State.observation alone, read after gaps of several steps: the public
    turn record replayed into whichever seat each row shows, a seat change's
    private columns (`parley`: only up to the turn under way), the status block
    copied from the values written, endings and restarts of some rows."""
    env = batch.make(preset, batch_size=rows, seed=5)
    draw = lambda rng, s: random_actions(rng, s.legal_action_mask)  # noqa: E731
    assert mover_views_read_now_and_then(env, draw, steps, seed=6) > steps // 4


@pytest.mark.parametrize("read", [False, True])
def test_an_illegal_action_is_refused_and_no_row_changes(read):
    env = batch.make("parley", batch_size=8, seed=0)
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(5):
        s = env.step(random_actions(rng, s.legal_action_mask))
    if read:
        s.observation  # noqa: B018  (tensors tracked from here: they must not change either)
        env.observation_tensor(0)  # (the observation's store too)
    history = [env.history_of(r) for r in range(8)]
    acts = random_actions(rng, s.legal_action_mask)
    row = 5
    bad = int(np.flatnonzero(~s.legal_action_mask[row])[0])
    acts[row] = bad
    before = arrays(env)
    legal = np.flatnonzero(s.legal_action_mask[row]).tolist()
    with pytest.raises(ValueError, match=rf"illegal action {bad} in row {row} .*{legal}"):
        env.step(acts)
    for wrong in (env.num_actions, -1, 10_000):  # out of range: refused the same way
        acts[row] = wrong
        with pytest.raises(ValueError, match=rf"illegal action {wrong} in row {row}"):
            env.step(acts)
    with pytest.raises(ValueError, match="one integer action per row"):
        env.step(acts[:-1])
    assert_unchanged(env, before)
    assert [env.history_of(r) for r in range(8)] == history
    acts[row] = legal[0]
    s = env.step(acts)  # and the batch plays on, as pyspiel does
    expect_rows(env, s)


def test_reset_of_rows_restarts_only_those_and_finished_rows_stay_finished():
    """Restarting some rows, finished and running, while other finished rows stay
    finished (their action ignored, zero rewards): every row agrees with pyspiel."""
    env = batch.make("parley-tiny", batch_size=24, seed=4)
    rng = np.random.default_rng(4)
    s = env.reset()
    s.observation  # noqa: B018  (tracked: the restarts blank the rows' tensors)
    while np.count_nonzero(s.terminated) < 6:
        s = env.step(random_actions(rng, s.legal_action_mask))
    finished = np.flatnonzero(s.terminated)
    running = np.flatnonzero(~s.terminated)
    rows = np.zeros(24, bool)
    rows[finished[:3]] = True
    rows[running[:2]] = True
    kept = {r: env.history_of(r) for r in range(24) if not rows[r]}
    s = env.reset(rows)
    for r, history in kept.items():
        assert env.history_of(r) == history
    for r in np.flatnonzero(rows):
        assert len(env.history_of(int(r))) == 4  # the deal and the wake
    expect_rows(env, s)
    for _ in range(3):
        acts = random_actions(rng, s.legal_action_mask)
        acts[finished[3:]] = 10_000  # ignored
        s = env.step(acts)
        assert s.terminated[finished[3:]].all() and not s.rewards[finished[3:]].any()
        expect_rows(env, s)


def test_chance_is_drawn_with_the_pyspiel_odds():
    """The deals (each of the (n-1)(n-2) ordered pairs), the wake (each cog) and
    a hip-shot's result (hit 1/3) come as often as pyspiel's odds say, over
    many rows (a fixed seed: the counts are the same at every run)."""
    game = pyspiel.load_game("fogboard_parley(players=4,hp=1,rounds=1,passes=0,talk=false)")
    setup = game.setup
    env = batch.make(game, batch_size=6000, seed=11)
    s = env.reset()
    rng = np.random.default_rng(0)
    results = []
    for _ in range(3):  # the first acts: some hip-shots among them
        hip_rows = ~s.terminated
        acts = random_actions(rng, s.legal_action_mask)
        before = env.history_len.copy()
        hipped = hip_rows & (acts >= setup.hip) & (acts < setup.pass_action)
        s = env.step(acts)
        results += [env.history_of(int(r))[before[r] + 1] for r in np.flatnonzero(hipped)]
    starts = np.array([env.history_of(r)[:5] for r in range(env.batch_size)])

    def close(counts, p):
        total = counts.sum()
        return np.all(np.abs(counts / total - p) < 4 * np.sqrt(p * (1 - p) / total))

    for c in range(4):
        deal = np.unique(starts[:, c], return_counts=True)
        assert deal[0].tolist() == setup.deal_options[c]
        assert close(deal[1], 1 / 6)
    wake = np.bincount(starts[:, 4] - setup.it_base, minlength=4)
    assert len(wake) == 4 and close(wake, 1 / 4)
    results = np.array(results)
    assert len(results) > 4000 and set(results.tolist()) == {setup.hit, setup.miss}
    assert close(np.bincount(results == setup.hit), np.array([2 / 3, 1 / 3]))  # miss, hit


def test_the_same_seed_gives_the_same_matches():
    def play(seed):
        env = batch.make("parley", batch_size=16, seed=seed)
        rng = np.random.default_rng(0)
        s = env.reset()
        for _ in range(40):
            s = env.step(random_actions(rng, s.legal_action_mask))
        return [env.history_of(r) for r in range(16)]

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_bench_batch_pairs_parley_with_our_pyspiel_loop(capsys):
    args = ["bench", "--batch", "--rounds", "1", "--seconds", "0.01", "--batch-size", "16"]
    main([*args, "--only", "parley"])
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines() if line.startswith("parley "))
    assert row[1:3] == ["ours:", "parley"]
    assert float(row[4]) > 0 and float(row[5]) > 0  # our loop's rate, and the ratio


def test_forms_and_dtypes_are_checked():
    """Either form in float32 or uint8; bool is refused (a round's points go up
    to 5, the totals of the observation to 5 a round), naming the form;
    State.observation is a read-only view."""
    with pytest.raises(ValueError, match="dtype bool cannot hold.*state tensor.* up to 5; use"):
        batch.make("parley-tiny", batch_size=2, dtype=bool)
    with pytest.raises(ValueError, match="dtype bool cannot hold.*observation tensor.* up to 15"):
        batch.make("parley", batch_size=2, observation="observation", dtype=bool)
    env = batch.make("parley-tiny", batch_size=2, dtype="uint8", observation="observation")
    assert env.observation_tensor(0).shape == (2, env.game.observation_tensor_size())
    s = env.reset()
    assert s.observation.dtype == np.uint8
    with pytest.raises(ValueError, match="read-only"):
        s.observation[0, 0] = 1
