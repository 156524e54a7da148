"""fogboard_games.batch's Liar's Dice agrees with the pyspiel game in every mode.

Random batches beside one pyspiel state per row (docs/batch.md): at every
step and in every row the current player, the legal mask, the mover's
tensor, every seat's information-state and observation tensors, the
rewards and the returns agree; chance in the middle of a game (rerolls,
the next round's roll) is read from the row's history and must be what
the pyspiel state asks for next, with its probabilities; `to_pyspiel(row)`
rebuilds the row. Chips and dice mode, 2 to 6 seats, rerolls, pass,
prophecy, every wild face and the edge values of numdice and dice_sides.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from batch_checks import (
    expect_row,
    mover_views_read_now_and_then,
    play_checked,
    random_draw,
    state_after,
)
from test_batch import compact

from fogboard_games import batch
from fogboard_games.bench import random_actions

PRESETS = [p for p in batch.COVERED_PRESETS if p.startswith("liars-dice")]

# (game string, rows, steps or None for every row to its end)
CONFIGS = [
    ("fogboard_liars_dice(numdice=2,mode=dice)", 24, None),
    ("fogboard_liars_dice(numdice=1,mode=dice,prophecy_payout=2)", 24, None),
    ("fogboard_liars_dice(players=3,numdice=2,dice_sides=3,mode=dice,allow_pass=true)", 16, None),
    ("fogboard_liars_dice(players=4,numdice=1,dice_sides=2,mode=dice,wild=highest)", 16, None),
    ("fogboard_liars_dice(players=6,numdice=1,dice_sides=6,mode=dice,wild=none)", 8, None),
    ("fogboard_liars_dice(numdice=1,rerolls=1)", 24, None),
    ("fogboard_liars_dice(numdice=3,dice_sides=2,rerolls=3,wild=none)", 16, None),
    ("fogboard_liars_dice(players=3,numdice=2,rerolls=2,allow_pass=true,prophecy=false)", 16, None),
    (
        "fogboard_liars_dice(players=3,numdice=2,dice_sides=4,mode=dice,rerolls=1,"
        "allow_pass=true,prophecy_payout=3)",
        12,
        None,
    ),
    ("fogboard_liars_dice(numdice=5,dice_sides=6,mode=dice,rerolls=1,wild=highest)", 8, 120),
    ("fogboard_liars_dice(players=5,numdice=1,dice_sides=2,allow_pass=true,wild=one)", 16, None),
    ("fogboard_liars_dice(players=2,numdice=5,dice_sides=2,mode=dice,prophecy_payout=5)", 12, None),
]


def fair_die(state, outcome):
    """A die the row rolled is one of pyspiel's outcomes, each as likely."""
    odds = dict(state.chance_outcomes())
    assert odds[outcome] == pytest.approx(1 / state.get_game().max_chance_outcomes())


def crosscheck(game, rows, seed=0, steps=None, form="information_state", dtype=None):
    """Random batched play against pyspiel (batch_checks.play_checked), every
    seat's tensors read at every step; with `steps`, finished rows restarted
    for that many steps, else until every row finished. Returns the
    environment and the number of steps."""
    env = batch.make(game, batch_size=rows, seed=seed, observation=form, dtype=dtype)
    rng = np.random.default_rng(seed + 100)
    restart = steps is not None
    return env, play_checked(env, random_draw, rng, steps, restart, on_chance=fair_die)


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_agree_with_pyspiel(preset):
    steps = 30 if preset == "liars-dice-table" else None  # (thousands of decisions)
    assert crosscheck(preset, rows=6 if steps else 32, steps=steps)[1] > 0


@pytest.mark.parametrize("i", range(len(CONFIGS)))
def test_configurations_agree_with_pyspiel(i):
    game_string, rows, steps = CONFIGS[i]
    # Each configuration in one of the four reads of State.observation, in turn.
    form = ("information_state", "observation")[i % 2]
    dtype = compact(game_string) if i // 2 % 2 else None
    env, n = crosscheck(game_string, rows, seed=i, steps=steps, form=form, dtype=dtype)
    assert n > 0
    if steps is None and "mode=dice" in game_string and env.setup.total > 2:
        assert env.round.max() > 0  # some row played more than one round


def test_a_dice_game_goes_many_rounds_and_pays_the_last_seat():
    env, _ = crosscheck("fogboard_liars_dice(players=3,numdice=2,mode=dice)", rows=16, seed=3)
    assert env.round.min() >= 1  # 6 dice: at least 2 rounds each (a seat out needs 2 losses)
    final = np.array([env.to_pyspiel(r).returns() for r in range(16)])
    assert np.allclose(np.sort(final, 1), [[-0.5, -0.5, 1.0]] * 16)


def test_tensors_first_read_late_agree():
    # Every decision of many steps written at the first read, in one go.
    game = "fogboard_liars_dice(players=3,numdice=2,mode=dice,rerolls=1,allow_pass=true)"
    env = batch.make(game, batch_size=16, seed=5)
    s = env.reset()
    rng = np.random.default_rng(5)
    for _ in range(25):
        s = env.step(random_actions(rng, s.legal_action_mask))
    for r in range(16):
        state = env.to_pyspiel(r)
        for p in range(3):
            for read, want in (
                (env.information_state_tensor, state.information_state_tensor),
                (env.observation_tensor, state.observation_tensor),
            ):
                assert np.array_equal(read(p)[r], np.array(want(p), np.float32)), (r, p)


def test_an_illegal_action_is_refused_and_nothing_changes():
    env = batch.make("liars-dice-table", batch_size=6, seed=2)
    s = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(5):
        s = env.step(random_actions(rng, s.legal_action_mask))
    before = {k: np.copy(v) for k, v in vars(env).items() if isinstance(v, np.ndarray)}
    draw = env.rng.bit_generator.state
    acts = random_actions(rng, s.legal_action_mask)
    wrong = int(np.flatnonzero(~s.legal_action_mask[4])[0])
    acts[4] = wrong
    with pytest.raises(ValueError, match=f"illegal action {wrong} in row 4 .*legal actions"):
        env.step(acts)
    for k, v in vars(env).items():
        if k in before:
            assert np.array_equal(v, before[k]), k
    assert env.rng.bit_generator.state == draw  # no die was rolled
    acts[4] = env.num_actions  # out of range
    with pytest.raises(ValueError, match="illegal action"):
        env.step(acts)


def test_the_table_preset_is_covered_with_its_chance_mid_game():
    env = batch.make("liars-dice-table", batch_size=4, seed=0)
    assert isinstance(env.game, pyspiel.Game) and env.num_players == 4
    s = env.reset()
    assert s.legal_action_mask[:, [env.keep, env.reroll]].all()  # rerolls first
    s = env.step(np.full(4, env.reroll))
    assert all(len(env.history_of(r)) == 20 + 1 + 5 for r in range(4))  # reroll, 5 dice


def test_bench_measures_the_dice_mode_table_beside_our_own_loop():
    from fogboard_games.bench.batched import run_batch

    (row,) = run_batch(rounds=1, seconds=0.01, only=["liars-dice-table"], batch_size=8)
    assert row["cpp"] == "ours: liars-dice-table"
    assert row["plain_cpp"] > 0 and row["tensor_cpp"] > 0 and row["plain_ratio"] > 0


@pytest.mark.parametrize(
    "game,form,dtype",
    [
        ("liars-dice-table", "information_state", None),
        (
            "fogboard_liars_dice(players=3,numdice=2,dice_sides=3,mode=dice,rerolls=1,"
            "allow_pass=true)",
            "information_state",
            "uint8",
        ),
        ("liars-dice-1", "information_state", "bool"),
        ("liars-dice", "observation", None),
    ],
)
def test_the_movers_tensors_read_now_and_then_agree(game, form, dtype):
    # State.observation is kept in place: the steps write its public entries, a
    # read copies a new mover's own columns, a restarted row whole, zeros where a
    # game ended (and some stay finished); reads skip 0 to 3 steps.
    env = batch.make(game, batch_size=12, seed=4, observation=form, dtype=dtype)
    assert mover_views_read_now_and_then(env, random_draw, 40, seed=4) > 8


# One round in chips mode, no rerolls, no pass: every preset but the table.
ONE_ROUND = [
    "liars-dice-classic-1",
    "liars-dice-classic",
    "liars-dice",
    "fogboard_liars_dice(players=3,numdice=2,dice_sides=3,wild=none,prophecy_payout=2)",
    "fogboard_liars_dice(players=4,numdice=1,dice_sides=2,wild=one)",
    # (1,350 entries: a read where the turn passed copies only the seat's own columns)
    "fogboard_liars_dice(players=6,numdice=3)",
]


@pytest.mark.parametrize("game", ONE_ROUND)
def test_one_round_games_read_now_and_then_agree(game):
    # The tensors are set at the first read from the histories alone, then kept
    # by the steps: rows restarted (some twice, some mid-game), sitting out,
    # finished and left so, between reads.
    rows = 24
    env = batch.make(game, batch_size=rows, seed=7)
    assert env.info is None  # (nothing kept before a read)
    pyspiel_game, players = env.game, env.num_players
    rng = np.random.default_rng(7)
    s = env.reset()
    reads = 0
    for _ in range(90):
        states = [state_after(pyspiel_game, env.history_of(r)) for r in range(rows)]
        tensors = None
        if rng.random() < 0.2:  # a read, after steps without one
            reads += 1
            tensors = {
                form: [read(p) for p in range(players)]
                for form, read in (
                    ("information_state", env.information_state_tensor),
                    ("observation", env.observation_tensor),
                )
            }
        for r, state in enumerate(states):
            expect_row(env, state, s, r, tensors)
        acts = random_actions(rng, s.legal_action_mask)
        plays = rng.random(rows) < 0.7
        acts[~plays | s.terminated] = -7  # (never checked)
        before = s.terminated.copy()
        s = env.step(acts, plays)
        for r in range(rows):
            if s.terminated[r] and not before[r]:
                paid = np.array(env.to_pyspiel(r).returns(), np.float32)
                assert np.array_equal(s.rewards[r], paid), (r, env.history_of(r))
            else:
                assert not s.rewards[r].any()
        again = s.terminated & (rng.random(rows) < 0.5) | (rng.random(rows) < 0.05)
        if again.any():
            s = env.reset(again)
    assert reads > 5


def test_a_one_round_game_refuses_an_illegal_action_and_changes_nothing():
    env = batch.make("liars-dice-classic", batch_size=8, seed=1)
    s = env.reset()
    rng = np.random.default_rng(1)
    sits = np.ones(8, bool)
    sits[5] = False
    # At the start (the first legal key: an out-of-range action there lands in
    # the table's next rows, which allow bids) and after a bid.
    for _ in range(2):
        env.information_state_tensor(0)
        before = {k: np.copy(v) for k, v in vars(env).items() if isinstance(v, np.ndarray)}
        acts = random_actions(rng, s.legal_action_mask)
        for wrong in (-1, env.num_actions, int(np.flatnonzero(~s.legal_action_mask[2])[0])):
            bad = acts.copy()
            bad[2] = wrong
            bad[5] = -3  # (sits out: never checked)
            with pytest.raises(ValueError, match=f"illegal action {wrong} in row 2 "):
                env.step(bad, sits)
            for k, v in vars(env).items():
                if k in before:
                    assert np.array_equal(v, before[k]), k
        acts[5] = -3
        s = env.step(acts, sits)  # (the sitting row's action unchecked)
