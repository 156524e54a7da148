"""The batched bots of fogboard_games.batch.bots (docs/batch.md#batched-bots).

The batched heuristic against the scalar one: random batches, and at every
step in every running row its action is the scalar `heuristic` bot's on
`env.to_pyspiel(row)` for the mover, or, where the scalar bot breaks a tie
at random, one of the actions the scalar bot plays there under other seeds.
The random bot's actions are legal, cover a fixed position's legal set
about evenly, and are 0 in finished rows. make_bot refuses by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from fogboard_games import batch
from fogboard_games.batch import bots as batch_bots
from fogboard_games.bots import make_bot
from fogboard_games.mind_bluff.bots import BLUFF_RATE

VECTORIZED = [
    p
    for p in batch.COVERED_PRESETS
    if "heuristic" in batch_bots.kinds_for(batch.make(p, batch_size=1, seed=0))
]

# (game, rows, steps, observation form, dtype): beyond the presets.
CONFIGS = [
    ("fogboard_liars_dice(players=3,numdice=2)", 16, 40, "information_state", None),
    ("fogboard_liars_dice(numdice=2,rerolls=2,dice_sides=4)", 16, 40, "observation", "uint8"),
    ("fogboard_liars_dice(players=3,numdice=2,mode=dice,rerolls=1)", 12, 60, "observation", None),
    ("fogboard_liars_dice(numdice=3,mode=dice,wild=highest)", 12, 60, "information_state", "uint8"),
    ("fogboard_liars_dice(players=4,numdice=1,allow_pass=true)", 16, 40, "observation", "bool"),
    ("fogboard_liars_dice(players=3,numdice=1,dice_sides=3,prophecy_payout=3)", 24, 30, "observation", None),
    ("fogboard_liars_dice(numdice=2,dice_sides=2,wild=none,allow_pass=true)", 16, 30, "information_state", None),
    # one unseen die of two faces: odds of exactly 1/2, on the edges of `< 0.5`
    ("fogboard_liars_dice(numdice=1,dice_sides=2,wild=none,allow_pass=true)", 16, 20, "observation", "bool"),
    ("fogboard_mind_bluff(start=14,start_spread=4,first_player=-1)", 16, 40, "observation", None),
    ("fogboard_mind_bluff(max_eat=2,start=11,start_spread=3)", 16, 40, "information_state", "uint8"),
    ("fogboard_mind_bluff(max_eat=1,start=9,first_player=1)", 16, 30, "observation", "uint8"),
    ("fogboard_mind_bluff(start=45)", 8, 60, "information_state", None),
    ("fogboard_mind_bluff_series(max_eat=2)", 8, 120, "observation", None),
    # on to the third game, whose secret start is 29, 30 or 31
    ("fogboard_mind_bluff_series()", 4, 180, "information_state", "uint8"),
]  # fmt: skip


def scalar_choices(game, state, seat, first, seeds=400):
    """The scalar heuristic's action at `state` with seed 0, and when `first`
    differs from it, the actions it plays there under seeds 1, 2, ... until
    `first` is among them (or `seeds` were tried): a tie broken at random,
    or Mind Bluff's seeded bluff, shows as more than one."""
    seen = {make_bot("heuristic", game, seat, 0).step(state)}
    for seed in range(1, seeds):
        if first in seen:
            break
        seen.add(make_bot("heuristic", game, seat, seed).step(state))
    return seen


def crosscheck(game, rows, steps, form="information_state", dtype=None, seed=0):
    env = batch.make(game, batch_size=rows, seed=seed, observation=form, dtype=dtype)
    bot = batch_bots.make_bot("heuristic", env, seed=seed)
    s = env.reset()
    decisions = ties = 0
    for _ in range(steps):
        acts = bot.actions(s)
        assert acts.dtype == np.int64 and acts.shape == (rows,)
        assert (acts[s.terminated] == 0).all()
        for row in np.flatnonzero(~s.terminated).tolist():
            state = env.to_pyspiel(row)
            seat = state.current_player()
            assert seat == s.current_player[row]
            choices = scalar_choices(env.game, state, seat, int(acts[row]))
            assert int(acts[row]) in choices, (game, row, env.history_of(row), choices)
            ties += len(choices) > 1
            decisions += 1
        s = env.step(acts)
        if s.terminated.any():
            s = env.reset(s.terminated)
    return decisions, ties


@pytest.mark.parametrize("preset", VECTORIZED)
def test_heuristic_matches_the_scalar_bot_on_every_preset(preset):
    decisions, _ = crosscheck(preset, rows=16, steps=30)
    assert decisions >= 16 * 30 * 0.9  # (nearly every row plays at every step)


@pytest.mark.parametrize("game,rows,steps,form,dtype", CONFIGS)
def test_heuristic_matches_the_scalar_bot(game, rows, steps, form, dtype):
    crosscheck(game, rows, steps, form, dtype)


def test_the_vectorized_presets_are_liars_dice_and_mind_bluff():
    # Every Liar's Dice and Mind Bluff preset is tabled; the others are refused below.
    assert VECTORIZED == [
        p for p in batch.COVERED_PRESETS if p.startswith(("liars-dice", "mind-bluff"))
    ]


def test_prophecy_ties_are_drawn_from_the_tied_set():
    # One die a seat: a seat holding the wild 1 answers a bid with an exact
    # prophecy, 1xF equally likely for every F it may name (chance 2/3 each).
    # Some of the batched bot's draws differ from the scalar bot's seed-0 one,
    # and every one is in the tied set.
    _, ties = crosscheck("liars-dice-1", rows=64, steps=6, form="observation")
    assert ties > 0


def test_a_tie_is_drawn_evenly_from_the_whole_tied_set():
    # At the reply to the opening bid, every row the seat sees alike (one
    # observation tensor) is one position: where the scalar bot's seeds show a
    # tie, the batched bot's draws over many calls cover the whole tied set,
    # each about as often.
    env = batch.make("liars-dice-1", batch_size=256, seed=4, observation="observation")
    bot = batch_bots.make_bot("heuristic", env, seed=1)
    s = env.step(bot.actions(env.reset()))
    draws = np.stack([bot.actions(s) for _ in range(400)])
    views = {}
    for row in range(256):
        views.setdefault(s.observation[row].tobytes(), row)
    tied = 0
    for row in views.values():
        state = env.to_pyspiel(row)
        choices = scalar_choices(env.game, state, state.current_player(), -1, seeds=40)
        if len(choices) > 1:
            tied += 1
            counts = np.bincount(draws[:, row], minlength=env.num_actions)
            assert set(np.flatnonzero(counts).tolist()) == choices
            expected = 400 / len(choices)
            assert (counts[list(choices)] > 0.6 * expected).all()
    assert tied >= 2


@pytest.mark.parametrize(
    "preset,form", [("liars-dice-table", "observation"), ("mind-bluff-series", "information_state")]
)
def test_heuristic_reads_no_engine_truth(preset, form):
    # In the form whose State.observation is the tensor it decodes, the bot
    # reads only the State (the movers, the mask, the observation): with every
    # array of the engine out of reach it plays exactly as before.
    env = batch.make(preset, batch_size=64, seed=3, observation=form)
    bot = batch_bots.make_bot("heuristic", env, seed=0)
    s = env.reset()
    for _ in range(12):
        s = env.step(bot.actions(s))
        if s.terminated.any():
            s = env.reset(s.terminated)
    assert s.observation.shape[0] == 64  # (read, as a caller would)
    want = bot.actions(s)
    kept = {k: v for k, v in vars(env).items() if isinstance(v, np.ndarray)}
    assert len(kept) > 10
    try:
        for name in kept:
            setattr(env, name, None)
        assert np.array_equal(bot.actions(s), want)
    finally:
        for name, value in kept.items():
            setattr(env, name, value)


def test_mind_bluff_opening_eat_is_drawn_evenly():
    # From 30 every eat of 1..3 survives and none leaves a losing count: the
    # scalar bot draws among the three; so does the batched one, about evenly.
    env = batch.make("mind-bluff", batch_size=4096, seed=0)
    bot = batch_bots.make_bot("heuristic", env, seed=0)
    s = env.reset()
    state = env.to_pyspiel(0)
    assert scalar_choices(env.game, state, state.current_player(), -1, seeds=40) == {0, 1, 2}
    counts = np.bincount(bot.actions(s), minlength=env.num_actions)
    assert counts[3:].sum() == 0 and (np.abs(counts[:3] / 4096 - 1 / 3) < 0.03).all()


def test_mind_bluff_claims_bluff_at_the_scalar_rate():
    # After eats of 1, 2 or 3, a free claim tells the truth but for a bluff
    # with chance BLUFF_RATE, any other eat alike.
    env = batch.make("mind-bluff", batch_size=4096, seed=0)
    bot = batch_bots.make_bot("heuristic", env, seed=2)
    s = env.step(np.arange(4096) % 3)  # eat 1, 2, 3
    m = env.game.setup.max_eat
    claims = np.stack([bot.actions(s) for _ in range(5)]) - m  # the eat claimed
    eaten = np.arange(4096) % 3 + 1
    bluffs = claims != eaten
    assert abs(bluffs.mean() - BLUFF_RATE) < 0.02
    for k in (1, 2, 3):  # a bluff says each other eat about as often
        said = claims[bluffs & (eaten == k)]
        assert set(said.tolist()) == {1, 2, 3} - {k}
        assert abs((said == min({1, 2, 3} - {k})).mean() - 0.5) < 0.1


@pytest.mark.parametrize("preset", batch.COVERED_PRESETS)
def test_random_bot_plays_legal_actions(preset):
    env = batch.make(preset, batch_size=32, seed=1)
    bot = batch_bots.make_bot("random", env, seed=2)
    s = env.reset()
    for _ in range(25):
        acts = bot.actions(s)
        assert acts.dtype == np.int64 and acts.shape == (32,)
        running = ~s.terminated
        assert s.legal_action_mask[running, acts[running]].all()
        assert (acts[~running] == 0).all()
        s = env.step(acts)  # (the engine refuses an illegal action)
        if s.terminated.all():
            s = env.reset()


def test_random_bot_covers_a_position_evenly():
    # Every row at one position after the opening bid 3 (1x4): the same legal
    # set in each; half the rows then end by a call, and play 0.
    rows = 4096
    env = batch.make("liars-dice", batch_size=rows, seed=0)
    s = env.step(np.full(rows, 3))
    legal = np.flatnonzero(s.legal_action_mask[0])
    assert (s.legal_action_mask == s.legal_action_mask[0]).all() and 10 < len(legal) < 120
    bot = batch_bots.make_bot("random", env, seed=5)
    counts = np.zeros(env.num_actions, np.int64)
    for _ in range(25):
        counts += np.bincount(bot.actions(s), minlength=env.num_actions)
    expected = 25 * rows / len(legal)
    assert counts[np.setdiff1d(np.arange(env.num_actions), legal)].sum() == 0
    assert (counts[legal] > 0.8 * expected).all() and (counts[legal] < 1.2 * expected).all()
    ended = env.step(np.where(np.arange(rows) % 2, env.game.setup.liar, 4))
    acts = bot.actions(ended)
    assert ended.terminated[1::2].all() and (acts[1::2] == 0).all()
    assert ended.legal_action_mask[0::2][np.arange(rows // 2), acts[0::2]].all()


def test_the_same_seed_plays_the_same_actions():
    plays = []
    for _ in range(2):
        env = batch.make("liars-dice-table", batch_size=64, seed=0)
        bots = [batch_bots.make_bot(k, env, seed=7) for k in batch_bots.KINDS]
        s = env.reset()
        out = []
        for i in range(20):
            out.append(bots[i % 2].actions(s))
            s = env.step(out[-1])
            if s.terminated.any():
                s = env.reset(s.terminated)
        plays.append(np.stack(out))
    assert np.array_equal(*plays)


@pytest.mark.parametrize(
    "preset,why",
    [
        ("dark-hex-4", "believed board"),
        ("phantom-ttt-3", "believed board"),
        ("recon-hex-5", "believed board"),
        ("parley-tiny", "lines said"),
    ],
)
def test_make_bot_refuses_the_heuristics_that_do_not_vectorize(preset, why):
    env = batch.make(preset, batch_size=2, seed=0)
    assert batch_bots.kinds_for(env) == ("random",)
    short = env.game.get_type().short_name
    with pytest.raises(ValueError) as e:
        batch_bots.make_bot("heuristic", env)
    text = str(e.value)
    assert f"heuristic bot of {short} does not vectorize" in text
    assert why in text and "fogboard_games.bots.make_bot" in text
    assert "batched kinds for " + short + ": random;" in text


def test_make_bot_refusals():
    env = batch.make("liars-dice", batch_size=2, seed=0)
    assert batch_bots.kinds_for(env) == batch_bots.KINDS == ("random", "heuristic")
    with pytest.raises(ValueError, match="unknown batched bot kind 'probe'.*random, heuristic"):
        batch_bots.make_bot("probe", env)
    with pytest.raises(ValueError, match="unknown batched bot kind None"):
        batch_bots.make_bot(None, env)
    with pytest.raises(ValueError, match="seed must be an int or None, got 1.5"):
        batch_bots.make_bot("random", env, seed=1.5)
    with pytest.raises(ValueError, match="seed must be an int or None, got True"):
        batch_bots.make_bot("heuristic", env, seed=True)
    with pytest.raises(ValueError, match=r"environment \(batch.make\), got \w*Game"):
        batch_bots.make_bot("random", env.game)
    with pytest.raises(ValueError, match="batch.make.*got str"):
        batch_bots.kinds_for("liars-dice")


@pytest.mark.parametrize("kind", batch_bots.KINDS)
def test_actions_takes_only_the_latest_state_of_its_environment(kind):
    env = batch.make("mind-bluff-tiny", batch_size=4, seed=0)
    bot = batch_bots.make_bot(kind, env, seed=0)
    old = env.reset()
    new = env.step(bot.actions(old))
    with pytest.raises(ValueError, match="latest State: this one is from before"):
        bot.actions(old)
    other = batch.make("mind-bluff-tiny", batch_size=4, seed=0).reset()
    with pytest.raises(ValueError, match="a State of this bot's environment.*got State"):
        bot.actions(other)
    with pytest.raises(ValueError, match="got ndarray"):
        bot.actions(new.legal_action_mask)
    assert new.legal_action_mask[np.arange(4), bot.actions(new)].all()
