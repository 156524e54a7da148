"""`batch.Env.step(actions, rows)`: the running rows outside `rows` sit the
step out, exactly as they were (docs/batch.md#interface).

Random batches where a random part of the rows sits out at every step (with
garbage actions, never checked), every row checked against pyspiel at every
step (current player, legal actions, the mover's tensor, every seat's tensors
of both forms, the returns at a game's end); the rows sitting out unchanged
bit for bit; an illegal action where a row plays, or a malformed mask,
refused with nothing changed.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import expect_row, pyspiel_tensor, seat_tensors, state_after

from fogboard_games import batch
from fogboard_games.bench import random_actions
from fogboard_games.core import registry

EXTRAS = [
    "fogboard_dark_hex(board_size=3,abrupt=true)",
    "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)",
    "fogboard_recon_hex(board_size=4,sense=2)",
    "fogboard_recon_hex(board_size=3,sense=1,obstype=reveal-numturns,max_plies=6)",
    "fogboard_dark_hex(num_rows=4,num_cols=3,abrupt=true)",
    "fogboard_dark_hex(board_size=9,abrupt=true)",
    "fogboard_liars_dice(players=3,numdice=2,dice_sides=3,rerolls=1,mode=dice)",
    "fogboard_phantom_ttt(abrupt=true,imperfect_recall=true)",
    "fogboard_dark_hex(board_size=3,imperfect_recall=true)",
]
CONFIGS = list(batch.COVERED_PRESETS) + EXTRAS
GARBAGE = -7  # the action of half the rows sitting out: never checked
# Long games (a few hundred steps a game, with rows sitting out): fewer rows, more steps.
LONG = {
    "parley": (3, 320),
    "liars-dice-table": (3, 320),
    "fogboard_dark_hex(board_size=9,abrupt=true)": (3, 60),
}


def load(name):
    return name if name in batch.COVERED_PRESETS else pyspiel.load_game(name)


@pytest.mark.parametrize("i", range(len(CONFIGS)), ids=CONFIGS)
def test_rows_sitting_out_stay_as_they_were(i):
    name = CONFIGS[i]
    big = "board_size=9" in name  # (games longer than the test: none may end)
    B, steps = LONG.get(name, (5, 150))
    form = batch.FORMS[i % 2]  # (both mirrors' forms, and both dtypes, across the configs)
    dtype = "uint8" if i % 4 >= 2 else None
    env = batch.make(load(name), batch_size=B, seed=i, observation=form, dtype=dtype)
    game = env.game
    rng = np.random.default_rng(100 + i)
    s = env.reset()
    states = [state_after(game, env.history_of(r)) for r in range(B)]
    paid = np.zeros((B, env.num_players))
    tensors = seat_tensors(env)
    for r in range(B):
        expect_row(env, states[r], s, r, tensors)
    sat = ended = 0
    for _ in range(steps):
        rows = rng.random(B) < 0.6
        actions = random_actions(rng, s.legal_action_mask)  # (legal, ignored where sitting)
        actions[~rows & (rng.random(B) < 0.5)] = GARBAGE
        before = [env.history_of(r) for r in range(B)]
        mover_view = s.observation.copy()
        old_tensors = {f: [t.copy() for t in seats] for f, seats in tensors.items()}
        old_mask, old_player = s.legal_action_mask.copy(), s.current_player.copy()
        s = env.step(actions, rows=rows)
        tensors = seat_tensors(env)
        sitting = ~rows & ~s.terminated
        for r in np.flatnonzero(~rows).tolist():
            # Sitting out (or finished): nothing changed, bit for bit, and nothing paid.
            assert env.history_of(r) == before[r]
            assert not s.rewards[r].any()
            assert np.array_equal(s.legal_action_mask[r], old_mask[r])
            assert s.current_player[r] == old_player[r]
            assert np.array_equal(s.observation[r], mover_view[r]), (name, r)
            for f, seats in tensors.items():
                for p, seat in enumerate(seats):
                    assert np.array_equal(seat[r], old_tensors[f][p][r]), (name, r, f, p)
        sat += int(np.count_nonzero(sitting))
        for r in range(B):
            history = env.history_of(r)
            for a in history[len(states[r].history()) :]:
                states[r].apply_action(a)
            assert states[r].history() == history
            paid[r] += s.rewards[r]
            expect_row(env, states[r], s, r, tensors)
            if states[r].is_terminal():
                assert np.allclose(paid[r], states[r].returns()), (name, r, history)
                assert env.to_pyspiel(r).history() == history
        if s.terminated.any():
            done = s.terminated.copy()
            ended += int(np.count_nonzero(done))
            s = env.reset(done)
            tensors = seat_tensors(env)
            for r in np.flatnonzero(done).tolist():
                states[r] = state_after(game, env.history_of(r))
                paid[r] = 0
                expect_row(env, states[r], s, r, tensors)
    assert sat > steps  # (rows did sit out)
    assert ended or big  # (and games ended on the way)


@pytest.mark.parametrize(
    "name",
    [
        "phantom-ttt-3",
        "dark-hex-5",
        "recon-hex-5",
        "mind-bluff-series",
        "parley-tiny",
        "liars-dice-table",
    ],
)
def test_illegal_action_where_a_row_plays_changes_nothing(name):
    B = 4
    env = batch.make(name, batch_size=B, seed=3)
    rng = np.random.default_rng(3)
    s = env.reset()
    for _ in range(3):  # a few plies in, the tensors kept from the first read on
        _ = s.observation
        s = env.step(random_actions(rng, s.legal_action_mask))
        s = env.reset(s.terminated)
    rows = np.array([True, False, True, False])
    actions = random_actions(rng, s.legal_action_mask)
    actions[1] = actions[3] = GARBAGE
    illegal = (
        int(np.flatnonzero(~s.legal_action_mask[2])[0]) if not s.legal_action_mask[2].all() else -1
    )
    actions[2] = illegal
    view = s.observation.copy()
    histories = [env.history_of(r) for r in range(B)]
    tensors = {p: env.information_state_tensor(p) for p in range(env.num_players)}
    with pytest.raises(
        ValueError, match=rf"illegal action {illegal} in row 2 .* no row was changed"
    ):
        env.step(actions, rows=rows)
    assert [env.history_of(r) for r in range(B)] == histories
    for p in range(env.num_players):
        assert np.array_equal(env.information_state_tensor(p), tensors[p])
    assert np.array_equal(s.observation, view)  # (the state is still current)
    # A malformed mask is refused the same way, naming what is allowed.
    for bad in (np.ones(B, np.int64), np.ones(B + 1, bool), [True] * (B - 1)):
        with pytest.raises(ValueError, match=rf"boolean mask of shape \({B},\)"):
            env.step(actions, rows=bad)
    assert [env.history_of(r) for r in range(B)] == histories
    # The same step with the illegal row sitting out plays the others.
    s = env.step(actions, rows=np.array([True, False, False, False]))
    assert env.history_of(2) == histories[2] and env.history_of(0) != histories[0]
    assert s.observation.shape == view.shape


def test_rows_covering_every_running_row_is_a_plain_step():
    """A mask of every row, or of every running row, plays as `step(actions)`."""
    one, two = (batch.make("dark-hex-5", batch_size=6, seed=1) for _ in range(2))
    rng = np.random.default_rng(1)
    s1, s2 = one.reset(), two.reset()
    for _ in range(30):
        a = random_actions(rng, s1.legal_action_mask)
        s1 = one.step(a)
        s2 = two.step(a, rows=np.ones(6, bool) if _ % 2 else ~s2.terminated)
        assert np.array_equal(s1.observation, s2.observation)
        assert np.array_equal(s1.rewards, s2.rewards)
    assert all(one.history_of(r) == two.history_of(r) for r in range(6))


@pytest.mark.parametrize(
    "name",
    [
        "phantom-ttt-3",
        "dark-hex-5",
        "recon-hex-5",
        "fogboard_dark_hex(board_size=9,abrupt=true)",
        "mind-bluff-series",
        "parley-tiny",
        "liars-dice-table",
    ],
)
def test_tensors_first_read_after_rows_sat_out(name):
    """The stores are built at the first read by replaying the histories: rows
    that sat out logged nothing, so the replay ends where every row is."""
    B = 4
    for form in batch.FORMS:
        env = batch.make(load(name), batch_size=B, seed=5, observation=form)
        rng = np.random.default_rng(5)
        s = env.reset()
        for _ in range(25):
            rows = rng.random(B) < 0.5
            s = env.step(random_actions(rng, s.legal_action_mask), rows=rows)
            s = env.reset(s.terminated)
        tensors = seat_tensors(env)
        for r in range(B):
            expect_row(env, state_after(env.game, env.history_of(r)), s, r, tensors)


@pytest.mark.parametrize("name", registry.PRESETS)
def test_a_step_where_no_row_plays_changes_nothing(name):
    B = 3
    env = batch.make(name, batch_size=B, seed=0)
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(3):
        s = env.step(random_actions(rng, s.legal_action_mask))
        s = env.reset(s.terminated)
    view, mask = s.observation.copy(), s.legal_action_mask.copy()
    histories = [env.history_of(r) for r in range(B)]
    tensors = [env.information_state_tensor(p) for p in range(env.num_players)]
    s = env.step(np.full(B, GARBAGE), rows=np.zeros(B, bool))
    assert np.array_equal(s.observation, view) and np.array_equal(s.legal_action_mask, mask)
    assert [env.history_of(r) for r in range(B)] == histories and not s.rewards.any()
    for p, seat in enumerate(tensors):
        assert np.array_equal(env.information_state_tensor(p), seat)


def _mover_views_match(env, state):
    """Every row's State.observation is pyspiel's tensor of its mover (zeros
    where the row finished)."""
    obs = state.observation
    for r in range(env.batch_size):
        game_state = state_after(env.game, env.history_of(r))
        if game_state.is_terminal():
            assert not obs[r].any(), r
        else:
            want = pyspiel_tensor(game_state, env.form)
            assert np.array_equal(obs[r], want), (r, game_state.history())


@pytest.mark.parametrize(
    "name",
    ["fogboard_dark_hex(board_size=3,abrupt=true)", "fogboard_phantom_ttt(abrupt=true)"],
)
def test_the_first_read_after_sit_outs_shows_each_rows_mover(name):
    """Under the abrupt rule the movers' tensors are one slot, renamed every
    ply; the first read builds the stores by replaying the histories, which
    names the slots anew: the rows it shows are read after that (an earlier
    read of them showed the other seat's tensors)."""
    env = batch.make(pyspiel.load_game(name), batch_size=2, seed=0)
    env.reset()
    env.step(np.array([0, 1]), rows=np.array([False, True]))
    state = env.step(np.array([2, 3]), rows=np.array([True, False]))
    _mover_views_match(env, state)
    # Without sitting out: a game played to its end, a restart, a ply, the first read.
    env = batch.make(pyspiel.load_game(name), batch_size=1, seed=1)
    rng = np.random.default_rng(0)
    state = env.reset()
    while not state.terminated.all():
        state = env.step(random_actions(rng, state.legal_action_mask))
    env.reset()
    state = env.step(random_actions(rng, env.reset().legal_action_mask))
    _mover_views_match(env, state)


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-4", "dark-hex-5"])
def test_a_row_that_finished_again_between_reads_shows_zeros(preset):
    """A row finished at one read, restarted and played to its end again
    before the next: its handed-out row is zeros, not the blank start."""
    env = batch.make(preset, batch_size=2, seed=3)
    rng = np.random.default_rng(3)
    state = env.reset()
    only_row_0 = np.array([True, False])
    while not state.terminated[0]:
        state = env.step(random_actions(rng, state.legal_action_mask), rows=only_row_0)
        _mover_views_match(env, state)
    state = env.reset(only_row_0)
    while not state.terminated[0]:  # (no read)
        state = env.step(random_actions(rng, state.legal_action_mask), rows=only_row_0)
    _mover_views_match(env, state)
