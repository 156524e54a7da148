"""fogboard_games.batch plays Mind Bluff and its series as the pyspiel games do.

Batches of games are played beside one pyspiel state per row, driven by the
same actions and the row's chance draws (read from its history, the series'
third-game coin and start included): at every step and in every row the
current player, the legal mask, the mover's tensor, both seats' tensors
of both forms (information state, observation), the rewards and the returns must agree, and
`to_pyspiel(row)` must rebuild the row.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import (
    arrays,
    assert_unchanged,
    expect_row,
    mover_views_read_now_and_then,
    play_checked,
    pyspiel_tensor,
    state_after,
)

import fogboard_games
from fogboard_games import batch

PRESETS = ("mind-bluff", "mind-bluff-tiny", "mind-bluff-series")
EXTRAS = [
    "fogboard_mind_bluff(start=2,max_eat=1)",  # the smallest game: one eat or all done
    "fogboard_mind_bluff(start=2,max_eat=3,first_player=1)",
    "fogboard_mind_bluff(start=3,max_eat=2,first_player=-1)",
    "fogboard_mind_bluff(start=4,start_spread=2,max_eat=1)",  # the widest spread of 4: low 2
    "fogboard_mind_bluff(start=6,start_spread=1,first_player=-1,max_eat=2)",
    "fogboard_mind_bluff(start=7,start_spread=2,max_eat=3)",
    "fogboard_mind_bluff(start=12,first_player=1,max_eat=1)",
    "fogboard_mind_bluff(start=40,start_spread=5,first_player=-1,max_eat=3)",
    "fogboard_mind_bluff(start=99,start_spread=97,first_player=-1,max_eat=3)",  # the top
    "fogboard_mind_bluff(start=99,max_eat=2)",
    "fogboard_mind_bluff_series(max_eat=1)",
    "fogboard_mind_bluff_series(max_eat=2)",
]


def load(game):
    return game if game in batch.COVERED_PRESETS else pyspiel.load_game(game)


def draw(rng, mask, max_eat, env=None):
    """Random legal actions: uniform in even rows; in odd rows `all done` is
    rarely chosen, so those games run on to the last dango (and series to a
    third game), except that every fourth row, told the truth by `env`, says
    it with one dango left (a win, rare by chance)."""
    keys = rng.random(mask.shape)
    keys[1::2, max_eat] *= 0.05
    if env is not None:
        keys[3::4, max_eat] += 2.0 * (env.remaining[3::4] == 1)
    return np.where(mask, keys, -1.0).argmax(axis=1)


def crosscheck(
    game,
    rows=16,
    seed=0,
    steps=None,
    restart=False,
    first_read=0,
    dtype=None,
    read_every=1,
    form="information_state",
):
    """Random batched play against pyspiel (batch_checks.play_checked; finished
    rows restarted with `restart`, for `steps` steps), tensors read from step
    `first_read` on, at every `read_every`-th step, in `dtype`, State.observation
    in `form` (before the first read the engine writes none: it builds them
    from the histories); returns the environment and the endings seen
    (pyspiel's end reasons; for a series, every game's)."""
    env = batch.make(game, batch_size=rows, seed=seed, dtype=dtype, observation=form)
    want = np.dtype(np.float32 if dtype is None else dtype)
    endings = []

    def read(step):
        return step >= first_read and (step - first_read) % read_every == 0

    def at_step(step, s, tensors):
        if tensors is not None:
            assert tensors["observation"][0].dtype == want and s.observation.dtype == want
            assert not s.observation.flags.writeable
        assert env.tracking == (step >= first_read)

    def on_end(r, state):
        review = state.review()
        games = review.get("games", [review])
        endings.extend(g["end_reason"] for g in games)
        endings.extend(["game 3"] if len(games) == 3 else [])

    def draw_with_env(rng, s):
        return draw(rng, s.legal_action_mask, env.M, env)

    rng = np.random.default_rng(seed + 100)
    play_checked(env, draw_with_env, rng, steps, restart, read, at_step, on_end=on_end)
    return env, set(endings)


@pytest.mark.parametrize("form", ["information_state", "observation"])
@pytest.mark.parametrize("dtype", [None, "uint8"])
@pytest.mark.parametrize("preset", PRESETS)
def test_presets_agree_with_pyspiel(preset, dtype, form):
    # (both seats' tensors of both forms at every step; State.observation in `form`)
    _, endings = crosscheck(
        preset, rows=24, seed=0, steps=150, restart=True, dtype=dtype, form=form
    )
    assert {"last-dango", "all-done-win", "all-done-loss"} <= endings
    if preset == "mind-bluff-series":
        assert "game 3" in endings  # the coin and the secret start, mid-series


@pytest.mark.parametrize("game_string", EXTRAS)
def test_other_configurations_agree_with_pyspiel(game_string):
    # In float32 and uint8 in turn, read at every step or every second one,
    # State.observation in either form (both seats' of both are read).
    i = EXTRAS.index(game_string)
    dtype, read_every = (None, "uint8")[i % 2], 1 + (i // 2) % 2
    form = ("information_state", "observation")[(i // 4) % 2 ^ i % 2]
    game = pyspiel.load_game(game_string)
    crosscheck(game, rows=12, seed=1, dtype=dtype, read_every=read_every, form=form)


@pytest.mark.parametrize(
    "game, first_read, read_every, form",
    [
        ("mind-bluff", 9, 1, "information_state"),
        ("fogboard_mind_bluff(start=9,start_spread=3,first_player=-1)", 7, 3, "observation"),
        ("mind-bluff-series", 90, 2, "observation"),
    ],
)
def test_tensors_first_read_mid_game_are_built_from_the_histories(
    game, first_read, read_every, form
):
    """Rows at every stage when the first tensor is read: mid-game, finished,
    restarted, in the series' later games (the third one's chance included);
    then read at every step or only some (the handed-out array brought up to
    date after several steps)."""
    _, endings = crosscheck(
        load(game),
        rows=16,
        seed=3,
        steps=first_read + 20,
        restart=True,
        first_read=first_read,
        read_every=read_every,
        form=form,
    )
    if game == "mind-bluff-series":
        assert "game 3" in endings


def test_the_series_movers_tensor_read_now_and_then_with_some_rows_restarted():
    """State.observation alone, read after gaps of several steps, across the
    series' later games: each finished game's review copied into both seats'
    columns, a seat change's private columns up to the game under way, the
    status blocks of every game, endings and restarts of some rows."""
    env = batch.make("mind-bluff-series", batch_size=16, seed=7)
    reads = mover_views_read_now_and_then(
        env, lambda rng, s: draw(rng, s.legal_action_mask, env.M, env), steps=160, seed=8
    )
    assert reads > 40 and env.game_index.max() == 2


@pytest.mark.parametrize(
    # (the second draws its first seat by a coin and its start in secret)
    "game",
    ["mind-bluff", "fogboard_mind_bluff(start=7,start_spread=3,first_player=-1)"],
)
def test_a_single_games_movers_tensor_read_now_and_then_with_some_rows_restarted(game):
    """State.observation alone (no seat's tensor read), read after gaps of
    several steps: the array a read keeps (the turns since the last read,
    the status, the seats' own columns exchanged where a claim passes the
    turn, zeros at an end, a start's whole tensor) shows every row's mover
    as pyspiel does."""
    env = batch.make(load(game), batch_size=16, seed=9)
    reads = mover_views_read_now_and_then(
        env, lambda rng, s: draw(rng, s.legal_action_mask, env.M, env), steps=120, seed=10
    )
    assert reads > 30


@pytest.mark.parametrize(
    "game",
    [
        "mind-bluff",
        "fogboard_mind_bluff(start=5,start_spread=2,first_player=-1,max_eat=2)",
        "mind-bluff-series",
    ],
)
def test_seats_read_after_rows_finished_restarted_and_finished_again(game):
    """The mover's tensor read at every step, each seat's only now and then:
    rows finish and wait unrestarted for a while, some restart and finish
    again before the next seat's read, and at that read every row, finished
    ones included (their final tensors), agrees with pyspiel for both seats."""
    env = batch.make(load(game), batch_size=24, seed=11)
    rng = np.random.default_rng(12)
    s = env.reset()
    s.observation  # noqa: B018  (the handed-out array kept from here on)
    ends = np.zeros(env.batch_size, int)  # per row, since the last seat's read
    twice = 0  # seat reads after a row finished twice
    for step in range(1, 161):
        before = s.terminated.copy()
        s = env.step(draw(rng, s.legal_action_mask, env.M, env))
        ends += s.terminated & ~before
        obs = s.observation
        for r in range(env.batch_size):
            state = state_after(env.game, env.history_of(r))
            if state.is_terminal():
                assert not obs[r].any(), (step, r)
            else:
                assert np.array_equal(obs[r], pyspiel_tensor(state, env.form)), (step, r)
        if step % 7 == 0:
            twice += ends.max() >= 2
            ends[:] = 0
            seats = [env.information_state_tensor(p) for p in range(2)]
            for r in range(env.batch_size):
                state = state_after(env.game, env.history_of(r))
                for p in range(2):
                    want = pyspiel_tensor(state, "information_state", p)
                    assert np.array_equal(seats[p][r], want), (step, r, p, state.history())
        pick = s.terminated & (rng.random(env.batch_size) < 0.3)  # (the others wait)
        if pick.any():
            s = env.reset(pick)
    assert twice >= 3 or env.is_series  # (a series outlasts the gaps between seat reads)


def test_series_plays_to_the_end_and_pays_the_series_winner():
    _, endings = crosscheck("mind-bluff-series", rows=16, seed=2)
    assert "game 3" in endings


def test_chance_is_drawn_from_the_seed_and_covers_every_outcome():
    """Coins and secret starts: every outcome comes up, in the history where
    pyspiel has it; the same seed gives the same games, another seed others."""
    env = batch.make("fogboard_mind_bluff(start=5,start_spread=3,first_player=-1)", 400, seed=4)
    env.reset()
    chance = np.array([env.history_of(r) for r in range(400)])
    assert set(chance[:, 0]) == {0, 1} and set(chance[:, 1]) == set(range(2, 9))

    def series(seed):
        env = batch.make("mind-bluff-series", batch_size=64, seed=seed)
        rng = np.random.default_rng(0)
        s = env.reset()
        while not s.terminated.all():
            s = env.step(draw(rng, s.legal_action_mask, env.M))
        return env, [env.history_of(r) for r in range(64)]

    env, histories = series(5)
    draws = set()
    for r in range(64):
        review = env.to_pyspiel(r).review()
        if len(review["games"]) == 3:
            g3 = review["games"][2]
            draws.add((g3["first_player"], g3["start"]))
    assert {f for f, _ in draws} == {0, 1} and {v for _, v in draws} == {29, 30, 31}
    assert series(5)[1] == histories
    assert series(6)[1] != histories


@pytest.mark.parametrize("preset", ["mind-bluff-tiny", "mind-bluff-series"])
def test_an_illegal_action_is_refused_and_nothing_changes(preset):
    """A lie where the claim is forced honest, an eat out of turn, an id out of
    range: each refused naming the row and the legal actions, with no array
    changed and no chance drawn."""
    env = batch.make(preset, batch_size=16, seed=0)
    rng = np.random.default_rng(0)
    M = env.M
    s = env.reset()

    def at_forced_claims():  # (key 1 + k: the claim is forced to the true eat k)
        return np.flatnonzero((env.key > 1) & (env.key < env.respond_key))

    while not len(at_forced_claims()):
        s = env.step(draw(rng, s.legal_action_mask, M))
        if s.terminated.any():
            s = env.reset(s.terminated)
    s.observation  # noqa: B018
    forced = int(at_forced_claims()[0])
    env.observation_tensor(0)  # (a read of the other form too)
    truth = int(np.flatnonzero(s.legal_action_mask[forced])[0])
    lie = M + 1 if truth != M + 1 else M + 2
    for bad in (lie, 0, env.num_actions, -1):
        acts = draw(rng, s.legal_action_mask, M)
        acts[forced] = bad
        before, generator = arrays(env), env.rng.bit_generator.state
        with pytest.raises(
            ValueError, match=rf"illegal action {bad} in row {forced} .*legal actions there: \["
        ):
            env.step(acts)
        assert_unchanged(env, before)
        assert env.rng.bit_generator.state == generator
    acts[forced] = truth
    env.step(acts)  # and the batch plays on


def test_make_covers_mind_bluff_by_preset_string_and_game():
    assert set(PRESETS) <= set(batch.COVERED_PRESETS)
    assert "fogboard_mind_bluff" in batch.COVERED
    env = batch.make(fogboard_games.load("mind-bluff"), batch_size=4)
    assert env.reset().observation.shape == (4, 377) and env.num_actions == 9
    env = batch.make("fogboard_mind_bluff_series(max_eat=2)", batch_size=4)
    assert env.reset().legal_action_mask.shape == (4, 7) and env.tensor_size > 0


@pytest.mark.parametrize(
    "game_string",
    ["fogboard_mind_bluff(start=5,first_player=1)", "fogboard_mind_bluff(first_player=-1)"],
)
def test_reset_of_some_rows_starts_them_with_their_first_seat(game_string):
    """Rows restarted while others stay finished stand at their first decision,
    with P2 to move where P2 moves first (by the parameter or the coin)."""
    env = batch.make(game_string, batch_size=32, seed=7)
    rng = np.random.default_rng(7)
    s = env.reset()
    while s.terminated.sum() < 4:
        s = env.step(draw(rng, s.legal_action_mask, env.M))
    rows = np.zeros(32, bool)
    rows[np.flatnonzero(s.terminated)[:2]] = True
    rows[np.flatnonzero(~s.terminated)[:2]] = True
    s = env.reset(rows)
    assert s.terminated.any()  # the other finished rows stay finished
    tensors = {form: [env._seat_tensor(form, p) for p in range(2)] for form in batch.FORMS}
    for r in range(32):
        expect_row(env, env.to_pyspiel(r), s, r, tensors)
    assert (s.current_player[rows] == 1).any()


def test_finished_rows_ignore_their_action_and_pay_nothing():
    env = batch.make("mind-bluff-series", batch_size=16, seed=8)
    rng = np.random.default_rng(8)
    s = env.reset()
    while not s.terminated.any():
        s = env.step(draw(rng, s.legal_action_mask, env.M))
    finished = s.terminated.copy()
    histories = {r: env.history_of(r) for r in np.flatnonzero(finished)}
    for _ in range(3):
        acts = draw(rng, s.legal_action_mask, env.M)
        acts[finished] = 10_000
        s = env.step(acts)
        assert s.terminated[finished].all() and not s.rewards[finished].any()
        assert (s.current_player[finished] == batch.TERMINAL).all()
        assert not s.observation[finished].any()
    for r, history in histories.items():
        assert env.history_of(r) == history


def test_forms_and_dtypes_are_checked():
    """Either form in float32 or uint8; bool is refused (the debts and the
    series' score count past 1), naming the form."""
    for preset in ("mind-bluff", "mind-bluff-series"):
        for form in batch.FORMS:
            with pytest.raises(ValueError, match=f"bool cannot hold.*{form}.*float32 or uint8"):
                batch.make(preset, batch_size=2, dtype=bool, observation=form)
        env = batch.make(preset, batch_size=2, dtype="uint8", observation="observation")
        size = env.game.observation_tensor_size()
        assert env.reset().observation.dtype == np.uint8
        assert env.observation_tensor(0).shape == (2, size)
