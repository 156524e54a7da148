"""fogboard_games.batch agrees with the registered pyspiel games, move for move.

Batches of random games are played beside one pyspiel state per row, driven
by the same actions and the same chance outcomes (read from the row's
history): at every step and in every row the current player, the legal
mask, the mover's tensor, both seats' tensors, the rewards and the end must
agree, and `to_pyspiel(row)` must rebuild the same history; in both
observation forms (information state, observation) and both dtypes (float32
and the compact one).
"""

from __future__ import annotations

import copy
import re

import numpy as np
import pyspiel
import pytest
from batch_checks import (
    arrays,
    assert_unchanged,
    expect_rows,
    joined,
    play_checked,
    pyspiel_tensor,
    random_draw,
)

import fogboard_games
from fogboard_games import batch
from fogboard_games.__main__ import main
from fogboard_games.batch import env as batch_env
from fogboard_games.bench import random_actions

EXTRAS = [
    "fogboard_phantom_ttt(abrupt=true)",
    "fogboard_phantom_ttt(obstype=reveal-numturns)",
    "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns,max_plies=7)",
    "fogboard_dark_hex(board_size=2)",
    "fogboard_dark_hex(board_size=3,abrupt=false)",
    "fogboard_dark_hex(board_size=3,abrupt=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=3,max_plies=6)",
    "fogboard_dark_hex(board_size=4,abrupt=true,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=6,abrupt=true)",
    "fogboard_recon_hex(board_size=3,sense=1)",
    "fogboard_recon_hex(board_size=3,sense=3,obstype=reveal-numturns,max_plies=8)",
    "fogboard_recon_hex(board_size=4,sense=2,obstype=reveal-numturns)",
    "fogboard_liars_dice(numdice=1,dice_sides=3,wild=none,prophecy_payout=2)",
    "fogboard_liars_dice(numdice=5,dice_sides=2,wild=highest,prophecy=false)",
    "fogboard_liars_dice(players=3,numdice=1,dice_sides=3,allow_pass=true)",
    "fogboard_liars_dice(players=4,numdice=5,dice_sides=2)",
    "fogboard_liars_dice(players=6,numdice=2,dice_sides=4,wild=highest,allow_pass=true,prophecy_payout=3)",
]


def compact(game, form="information_state"):
    """The compact dtype of a game's form: bool where it can hold the values, else uint8."""
    game = game if game in batch.COVERED_PRESETS else pyspiel.load_game(str(game))
    return "bool" if batch.make(game, batch_size=1)._max_value(form) == 1 else "uint8"


def crosscheck(
    game,
    rows=24,
    seed=0,
    steps=None,
    restart=False,
    first_read=0,
    read_every=1,
    form="information_state",
    dtype=None,
):
    """Random batched play against pyspiel (batch_checks.play_checked); `restart`
    restarts finished rows (as the benchmark does); tensors are first read at
    step `first_read` (before it, plies only go to the log), then every
    `read_every` steps; State.observation in the form and dtype given. Returns
    the environment and the number of steps."""
    env = batch.make(game, batch_size=rows, seed=seed, observation=form, dtype=dtype)
    want_dtype = np.dtype(dtype or np.float32)

    def read(step):
        return step >= first_read and (step - first_read) % read_every == 0

    def at_step(step, s, tensors):
        if tensors is not None:
            assert s.observation.dtype == want_dtype and not s.observation.flags.writeable
            assert all(t.dtype == want_dtype for seats in tensors.values() for t in seats)

    rng = np.random.default_rng(seed + 100)
    return env, play_checked(env, random_draw, rng, steps, restart, read, at_step)


# (Parley, long and paying mid-game, has its own file: tests/test_batch_parley.py.)
@pytest.mark.parametrize("preset", [p for p in batch.COVERED_PRESETS if "parley" not in p])
def test_presets_agree_with_pyspiel(preset):
    if preset == "liars-dice-table":  # (thousands of decisions: a slice of play)
        assert crosscheck(preset, rows=8, steps=40, restart=True)[1] > 0
        return
    assert crosscheck(preset, rows=64)[1] > 0


# The mover's observation tensor as State.observation, and the compact dtype
# (the seats' tensors of both forms are read in every crosscheck).
OTHER_READS = [("information_state", "compact"), ("observation", None), ("observation", "compact")]


@pytest.mark.parametrize("form, dtype", OTHER_READS)
@pytest.mark.parametrize("preset", [p for p in batch.COVERED_PRESETS if "parley" not in p])
def test_presets_agree_with_pyspiel_in_every_form_and_dtype(preset, form, dtype):
    dtype = compact(preset, form) if dtype == "compact" else dtype
    rows = 6 if preset == "liars-dice-table" else 32  # (15,988 floats a tensor)
    assert crosscheck(preset, rows=rows, steps=30, restart=True, form=form, dtype=dtype)[1] > 0


@pytest.mark.parametrize("game_string", EXTRAS)
def test_other_configurations_agree_with_pyspiel(game_string):
    # Each configuration in one of the four reads, in turn.
    form, dtype = [("information_state", None), *OTHER_READS][EXTRAS.index(game_string) % 4]
    game = pyspiel.load_game(game_string)
    dtype = compact(game_string, form) if dtype == "compact" else dtype
    crosscheck(game, rows=48, seed=1, form=form, dtype=dtype)


# Imperfect recall (docs/boards.md#imperfect-recall): the information state is
# the seat's believed board alone, served from the observation store.
FORGETFUL = [
    f"{name}({size}abrupt={abrupt},obstype={obstype},imperfect_recall=true)"
    for name, size in [("fogboard_phantom_ttt", "")]
    + [("fogboard_dark_hex", f"board_size={n},") for n in (3, 4, 5)]
    for abrupt in ("false", "true")
    for obstype in ("reveal-nothing", "reveal-numturns")
]


@pytest.mark.parametrize("game_string", FORGETFUL)
def test_imperfect_recall_agrees_with_pyspiel_in_every_form_and_dtype(game_string):
    game = pyspiel.load_game(game_string)
    cells = game.setup.cells
    for i, (form, dtype) in enumerate([("information_state", None), *OTHER_READS]):
        dtype = compact(game_string, form) if dtype == "compact" else dtype
        # Half the reads from the first step, half first read mid-game (the replay).
        env, _ = crosscheck(
            game, rows=12, seed=i, steps=24, restart=True, first_read=5 * (i % 2), form=form,
            dtype=dtype,
        )  # fmt: skip
        assert env.tensor_size == 3 * cells and env.kept[0] is None  # (no log of plies kept)


@pytest.mark.parametrize("read_every", [1, 2, 3])
@pytest.mark.parametrize(
    "game, form",
    [
        ("dark-hex-5", "information_state"),
        ("dark-hex-5", "observation"),
        ("fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)", "information_state"),
        ("phantom-ttt-3", "observation"),
        ("liars-dice", "observation"),
        ("recon-hex-5", "observation"),  # (its sense ages: a block of columns)
    ],
)
def test_views_brought_up_to_date_agree(game, form, read_every):
    """A read brings the handed-out array up to date from what changed since the
    last read of it (batch.observations): read at every step or only some,
    with rows restarted or left finished, it agrees with pyspiel."""
    game = game if game in batch.COVERED_PRESETS else pyspiel.load_game(game)
    for restart in (True, False):
        crosscheck(
            game,
            rows=32,
            seed=3,
            steps=40 if restart else None,
            restart=restart,
            read_every=read_every,
            form=form,
            dtype="uint8",
        )


@pytest.mark.parametrize(
    "preset",
    ["phantom-ttt-3", "dark-hex-5", "recon-hex-5", "liars-dice", "liars-dice-1"]
    # Abrupt, so every ply passes and rows of different lengths need their
    # seats mended after the replay; 3x3 ends within the first 7 steps.
    + ["fogboard_phantom_ttt(abrupt=true)"],
)
def test_tensors_first_read_late_and_rows_restarted(preset):
    """The log route (tensors first read mid-game) and the benchmark's restarts."""
    game = preset if preset in batch.COVERED_PRESETS else pyspiel.load_game(preset)
    crosscheck(game, rows=24, seed=2, steps=40, restart=True, first_read=7)


def test_ply_cap_settles_by_true_distance():
    """Capped 3x3 games end by distToWin: some are won, some drawn (checked)."""
    game = pyspiel.load_game("fogboard_dark_hex(board_size=3,max_plies=4)")
    env = batch.make(game, batch_size=64, seed=3)
    s = env.reset()
    rng = np.random.default_rng(0)
    while not s.terminated.all():
        s = env.step(random_actions(rng, s.legal_action_mask))
    returns = np.array([env.to_pyspiel(r).returns() for r in range(64)])
    assert (returns[:, 0] == 0).any() and (returns[:, 0] != 0).any()
    crosscheck(game, rows=32, seed=4)


@pytest.mark.parametrize(
    "preset, form",
    [
        ("phantom-ttt-3", "information_state"),
        ("recon-hex-5", "information_state"),
        ("recon-hex-5", "observation"),  # (its sense ages, rewritten in place)
        ("liars-dice", "information_state"),
    ],
)
def test_an_illegal_action_is_refused_and_no_row_changes(preset, form):
    env = batch.make(preset, batch_size=8, seed=0, observation=form)
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(3):
        s = env.step(random_actions(rng, s.legal_action_mask))
    s.observation  # noqa: B018  (tensors tracked from here: they must not change either)
    acts = random_actions(rng, s.legal_action_mask)
    row = int(np.flatnonzero(~s.terminated)[-1])
    bad = int(np.flatnonzero(~s.legal_action_mask[row])[0])
    acts[row] = bad
    before = arrays(env)
    with pytest.raises(ValueError, match=rf"illegal action {bad} in row {row} .*legal actions"):
        env.step(acts)
    assert_unchanged(env, before)
    acts[row] = env.num_actions  # out of range is refused the same way
    with pytest.raises(ValueError, match=rf"row {row}"):
        env.step(acts)
    with pytest.raises(ValueError, match="one integer action per row"):
        env.step(acts[:-1])
    with pytest.raises(ValueError, match="one integer action per row"):
        env.step(np.ones(env.batch_size, bool))  # (a bool is not an action id)
    acts[row] = int(np.flatnonzero(s.legal_action_mask[row])[0])
    env.step(acts)  # and the batch plays on


def test_unknown_and_uncovered_games_are_refused():
    with pytest.raises(ValueError, match="unknown preset 'dark-hex-9'.*phantom-ttt-3.*liars-dice"):
        batch.make("dark-hex-9")
    # (boards of 9 x 9 to 11 x 11 are covered: tests/test_batch_boards_big.py)
    with pytest.raises(ValueError, match="not covered"):
        batch.make(pyspiel.load_game("phantom_ttt"))


def test_every_preset_is_made_by_name():
    # (the medium presets too, which the crosschecks leave to their smaller sizes)
    for preset in fogboard_games.PRESETS:
        env = batch.make(preset, batch_size=2, seed=0)
        assert env.game == fogboard_games.load(preset), preset
        assert env.reset().legal_action_mask.any(axis=1).all(), preset


def test_loaded_games_and_game_strings_are_accepted():
    env = batch.make(fogboard_games.load("dark-hex-5"), batch_size=4, seed=0)
    assert env.num_actions == 25 and env.reset().observation.shape == (4, 753)
    game = pyspiel.load_game("fogboard_dark_hex(board_size=3,abrupt=false)")
    env = batch.make(game, batch_size=4)
    assert env.reset().legal_action_mask.shape == (4, 9)
    env = batch.make("fogboard_liars_dice(numdice=2)", batch_size=4)
    assert env.reset().rewards.shape == (4, 2)


@pytest.mark.parametrize("preset", ["dark-hex-4", "liars-dice-1"])
def test_reset_of_rows_restarts_only_those_rows(preset):
    env = batch.make(preset, batch_size=16, seed=5)
    rng = np.random.default_rng(5)
    s = env.reset()
    for _ in range(2):
        s = env.step(random_actions(rng, s.legal_action_mask))
    rows = np.zeros(16, bool)
    rows[[1, 4, 9]] = True
    kept = [env.history_of(r) for r in range(16)]
    old = s
    s = env.reset(rows)
    start = env.game.new_initial_state()
    chance = 0
    while start.is_chance_node():
        start.apply_action(0)
        chance += 1
    for r in range(16):
        if rows[r]:
            assert len(env.history_of(r)) == chance
            assert s.current_player[r] == 0 and not s.terminated[r]
            mask = np.zeros(env.num_actions, bool)
            mask[start.legal_actions()] = True
            assert np.array_equal(s.legal_action_mask[r], mask)
        else:
            assert env.history_of(r) == kept[r]
            assert s.current_player[r] == old.current_player[r]
            assert np.array_equal(s.legal_action_mask[r], old.legal_action_mask[r])
    expect_rows(env, s)
    with pytest.raises(ValueError, match="boolean mask"):
        env.reset(np.arange(3))


def play(preset, seed, steps=6):
    env = batch.make(preset, batch_size=32, seed=seed)
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(steps):
        s = env.step(random_actions(rng, s.legal_action_mask))
    return [env.history_of(r) for r in range(32)]


def test_the_same_seed_gives_the_same_games():
    assert play("liars-dice", 7) == play("liars-dice", 7)
    assert play("liars-dice", 7) != play("liars-dice", 8)  # other dice
    assert play("recon-hex-5", 7) == play("recon-hex-5", 7)


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice-1"])
def test_finished_rows_stay_finished_with_zero_rewards(preset):
    env = batch.make(preset, batch_size=16, seed=0)
    rng = np.random.default_rng(0)
    s = env.reset()
    while not s.terminated.any():
        s = env.step(random_actions(rng, s.legal_action_mask))
    assert s.rewards[s.terminated].any()  # the finishing step paid
    finished = s.terminated.copy()
    histories = {r: env.history_of(r) for r in np.flatnonzero(finished)}
    for _ in range(3):
        acts = random_actions(rng, s.legal_action_mask)
        acts[finished] = 10_000  # ignored
        s = env.step(acts)
        assert s.terminated[finished].all()
        assert not s.rewards[finished].any()
        assert (s.current_player[finished] == batch.TERMINAL).all()
        assert not s.legal_action_mask[finished].any()
        assert not s.observation[finished].any()
    for r, history in histories.items():
        assert env.history_of(r) == history


def test_observation_is_lazy_and_must_be_read_before_the_next_step():
    env = batch.make("phantom-ttt-3", batch_size=4, seed=0)
    s = env.reset()
    assert not env.tracking  # nothing read: no tensor made
    t = env.step(np.zeros(4, np.int64))
    assert not env.tracking
    first = t.observation
    assert env.tracking and first.shape == (4, 129)
    env.step(np.ones(4, np.int64))
    assert t.observation is first  # read before the step: kept
    with pytest.raises(RuntimeError, match="read state.observation before the next step"):
        s.observation  # noqa: B018


def test_memory_per_row_counts_the_stores_and_mirrors():
    env = batch.make("dark-hex-5", batch_size=8)
    plain = env.memory_per_row()
    assert plain < 753  # no tensor read: no store made
    env.reset().observation  # noqa: B018
    # both seats' tensors, one byte per entry, and the float32 mirror of the movers'
    assert env.memory_per_row() >= plain + 2 * 753 + 4 * 753
    assert env.memory_per_row(tables=True) > env.memory_per_row()
    env = batch.make("dark-hex-5", batch_size=8, observation="observation", dtype=bool)
    env.reset().observation  # noqa: B018
    # the current view only: both seats' (78 entries) and the bool mirror
    assert plain + 3 * 78 <= env.memory_per_row() < plain + 3 * 78 + 64


def test_forms_and_dtypes_are_checked():
    for bad in ("info", None, 1):
        with pytest.raises(ValueError, match="observation must be one of 'information_state'"):
            batch.make("phantom-ttt-3", observation=bad)
    for bad in ("float64", np.int16, "nonsense", [1]):
        with pytest.raises(ValueError, match="dtype must be one of float32, uint8, bool"):
            batch.make("phantom-ttt-3", dtype=bad)
    with pytest.raises(ValueError, match="dtype bool cannot hold.*up to 5; use float32 or uint8"):
        batch.make("liars-dice", dtype=bool)
    # Recon hex's view counts the plies since a cell was seen empty: past 1.
    with pytest.raises(ValueError, match="bool cannot hold .* observation tensor.* up to 26"):
        batch.make("recon-hex-5", observation="observation", dtype=bool)
    env = batch.make("recon-hex-5", batch_size=2, dtype=bool)
    with pytest.raises(ValueError, match="bool cannot hold .* observation tensor.* up to 26"):
        env.observation_tensor(0)
    with pytest.raises(ValueError, match="player must be a seat 0..1"):
        env.information_state_tensor(2)
    assert batch.make("liars-dice-1", dtype="bool").reset().observation.dtype == bool
    env = batch.make("phantom-ttt-3", batch_size=2, observation="observation", dtype=np.uint8)
    assert env.reset().observation.shape == (2, 30) and env.dtype == np.uint8


@pytest.mark.parametrize("preset", ["parley", "liars-dice-table", "dark-hex-5"])
def test_a_batch_size_beyond_the_memory_available_is_refused_naming_the_bytes(preset):
    for huge in (10**12, 10**400):
        with pytest.raises(ValueError) as refused:
            batch.make(preset, batch_size=huge)
        message = str(refused.value)
        assert "\n" not in message
        rows = "1,000,000,000,000" if huge == 10**12 else "more than 2\\*\\*1328"
        assert re.fullmatch(
            rf"a batch_size of {rows} rows would take (more than 2\*\*\d+|[\d,]+) bytes "
            r"\([\d,]+ a row before any tensor is read\), more than the [\d,]+ bytes of memory "
            r"available on this machine: at most [\d,]+ rows fit in it",
            message,
        ), message


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "liars-dice", "mind-bluff", "parley-tiny"])
def test_the_bytes_a_row_named_are_what_a_row_takes_and_the_bound_is_the_memory(
    preset, monkeypatch
):
    """The estimate a refusal names is what each further row takes in play
    (memory_per_row, the fixed part shared out cancelled by two sizes), and a
    batch is refused just past the memory available, not before."""
    taken = []
    for rows in (100, 200):
        env = batch.make(preset, batch_size=rows, seed=0)
        state = env.reset()
        rng = np.random.default_rng(0)
        for _ in range(5):
            state = env.step(random_actions(rng, state.legal_action_mask))
        taken.append(env.memory_per_row() * rows)
    per_row = (taken[1] - taken[0]) / 100
    monkeypatch.setattr(batch_env, "available_memory", lambda: 10**6)
    with pytest.raises(ValueError, match=r"before any tensor is read") as refused:
        batch.make(preset, batch_size=10**6)
    named = int(re.search(r"\(([\d,]+) a row", str(refused.value)).group(1).replace(",", ""))
    assert named == pytest.approx(per_row, abs=1)
    monkeypatch.setattr(batch_env, "available_memory", lambda: 100 * named)
    assert batch.make(preset, batch_size=100).batch_size == 100
    with pytest.raises(ValueError, match="at most 100 rows fit"):
        batch.make(preset, batch_size=101)
    monkeypatch.setattr(batch_env, "available_memory", lambda: None)  # no bound known
    assert batch.make(preset, batch_size=101).batch_size == 101


def test_the_memory_available_is_read_from_the_machine():
    available = batch_env.available_memory()
    assert isinstance(available, int) and available > 2**20


def test_bench_batch_runs_on_a_tiny_budget(capsys):
    args = ["bench", "--batch", "--rounds", "1", "--seconds", "0.01", "--batch-size", "32"]
    main([*args, "--only", "phantom-ttt-3,liars-dice-1"])
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()]
    rows = {line[0]: line for line in lines if line and line[0] in batch.COVERED_PRESETS}
    assert set(rows) == {"phantom-ttt-3", "liars-dice-1"}
    assert rows["phantom-ttt-3"][1] == "phantom_ttt" and float(rows["phantom-ttt-3"][2]) > 0
    assert rows["liars-dice-1"][1] == "-"
    assert "bytes/row" in out


def test_bench_batch_notes_pgx_when_it_is_absent(capsys, monkeypatch):
    from fogboard_games.bench import batched

    monkeypatch.setattr(batched, "load_pgx", lambda: None)
    assert batched.run_pgx(1, 0.01, 8) == []
    assert "beside pgx: skipped, pgx is not installed" in capsys.readouterr().out


def test_the_pgx_peer_plays_random_legal_plies_and_restarts():
    """pgx is an optional benchmark peer (not a dependency): when installed, its
    jitted ply plays legal actions (an illegal one would end pgx's game with a
    penalty, -1 against +1 of no win here: tic-tac-toe pays 0 to both on a draw,
    +-1 on a line) and restarts finished rows; pgx's hex on 8 x 8 starts on
    an 8 x 8 board."""
    pytest.importorskip("pgx")
    from fogboard_games.bench import batched

    play = batched.PgxPlay("tic_tac_toe", None, 64, tensor=True)
    assert play.bytes_per_row == 89
    for _ in range(20):
        assert play.rate(0.001) > 0
        assert not np.asarray(play.state.terminated).any()  # restarted at once
    jax, _ = batched.load_pgx()
    start = batched._sized_hex(jax, 8).init(jax.random.PRNGKey(0))
    assert start.legal_action_mask.shape == (65,) and start.observation.shape[:2] == (8, 8)
    assert int(start.legal_action_mask.sum()) == 64  # no swap before the first stone


@pytest.mark.parametrize(
    "sides", [(n, n) for n in range(2, 12)] + [(2, 3), (3, 2), (4, 7), (8, 3), (5, 8), (11, 4)]
)
def test_hex_wins_agree_with_a_flood(sides):
    """The win check of the batched boards (its bit sets of a seat's chains,
    boards.batched._play_rows), on every square board size make takes and on
    rectangles: random stone sets of both seats placed one at a time, each
    stone's answer against a flood from the first edge, until the seat has
    joined its edges. (The crosschecks above play boards up to 6 x 6.)"""
    files, ranks = sides
    game = pyspiel.load_game(f"fogboard_dark_hex(num_rows={files},num_cols={ranks})")
    env = batch.make(game, batch_size=1)
    geo, rng = env.geo, np.random.default_rng(files * 16 + ranks)
    wins = 0
    for trial in range(400):
        seat = trial % 2
        env.reset()
        stones = set()
        for c in rng.permutation(geo.cells)[: rng.integers(1, geo.cells + 1)].tolist():
            env.mover[0] = seat  # (the seat placing: its stones alone)
            stones.add(c)
            ending, rewards = np.zeros(1, np.int8), np.zeros((1, 2), np.float32)
            env._rules(np.array([c]), np.ones(1, bool), ending, rewards)
            won = ending[0] != 0
            assert won == joined(geo, seat, stones), (trial, sorted(stones))
            if won:
                wins += 1
                break
    assert 0 < wins < 400


def test_random_actions_are_legal_and_uniform():
    rng = np.random.default_rng(0)
    for actions in (1, 2, 9, 25, 127, 128, 300):  # (counts in int8 up to 127 actions)
        mask = rng.random((actions, 500)) < 0.3
        mask[:, :5] = False  # rows with no legal action get A - 1
        picked = random_actions(rng, mask.T)
        legal = mask.any(0)
        assert picked.dtype == np.int64
        assert mask.T[np.flatnonzero(legal), picked[legal]].all()
        assert (picked[~legal] == actions - 1).all()
    # one legal set in every row: each action about a third of the draws
    mask = np.zeros((9, 90_000), bool)
    mask[[0, 4, 8]] = True
    counts = np.bincount(random_actions(rng, mask.T), minlength=9)
    assert counts[[1, 2, 3, 5, 6, 7]].sum() == 0
    assert np.abs(counts[[0, 4, 8]] / 90_000 - 1 / 3).max() < 0.01
    # a row-major mask works too (slower)
    row_major = np.zeros((100, 5), bool)
    row_major[:, 3] = True
    assert (random_actions(rng, row_major) == 3).all()
    wide = np.zeros((3, 2**15 + 1), bool)  # (counts past int16)
    wide[:, [7, 2**15]] = True
    assert set(random_actions(rng, wide)) <= {7, 2**15}


def _kth_legal(u, mask):
    """The documented draw, written plainly: row b with c legal actions plays
    its (floor(u * c) + 1)-th legal action, A - 1 where it has none."""
    counts = mask.sum(axis=1)
    k = (u * counts).astype(np.int64)
    picked = (np.cumsum(mask, axis=1) > k[:, None]).argmax(axis=1)
    return np.where(counts > 0, picked, mask.shape[1] - 1)


@pytest.mark.parametrize("actions", [9, 16, 25, 49, 64, 121, 127, 128, 244, 300])
def test_random_actions_is_uniform_per_row_and_the_documented_draw(actions):
    """The draw (its counts in int8 up to 127 actions, int16 above) plays
    uniformly over each row's legal actions, and exactly the (floor(u * c) +
    1)-th legal action of the same float64 u."""
    rng = np.random.default_rng(actions)
    kinds = np.zeros((7, actions), bool)
    kinds[0, actions - 1] = True  # one legal action, the last
    kinds[1] = True  # all legal
    kinds[2, [0, actions // 2, actions - 1]] = True
    kinds[3, rng.permutation(actions)[: actions // 3]] = True
    kinds[4, 8 * (actions // 8) - 1 :] = True  # across the last block's edge
    kinds[5] = rng.random(actions) < 0.9
    # kinds[6]: none legal, A - 1
    tile = 1024  # rows of each kind in a batch
    mask = np.repeat(kinds, tile, axis=0).T.copy().T  # (the (A, B) layout)
    counts = np.zeros((7, actions), np.int64)
    passes = -(-100 * actions // tile)  # about 100 draws an action where all are legal
    for i in range(passes):
        if i < 2:  # the same draws as the plain formula from the same u
            same = copy.deepcopy(rng)
            picked = random_actions(rng, mask)
            assert np.array_equal(picked, _kth_legal(same.random(len(mask)), mask))
        else:
            picked = random_actions(rng, mask)
        for kind in range(7):
            counts[kind] += np.bincount(picked[kind * tile : (kind + 1) * tile], minlength=actions)
    assert (counts[6] == [0] * (actions - 1) + [passes * tile]).all()
    for kind in range(6):
        row = kinds[kind]
        assert counts[kind][~row].sum() == 0  # only legal actions
        expect = passes * tile / np.count_nonzero(row)
        spread = 5 * np.sqrt(expect) + 1  # (five standard deviations: wide bounds)
        assert np.abs(counts[kind][row] - expect).max() < spread, (kind, counts[kind][row])


@pytest.mark.parametrize(
    "bits",
    [np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64, np.random.MT19937],
)
def test_random_actions_draws_rng_random_whatever_the_bit_generator(bits):
    """The draw reads some bit generators' raw words in place of `rng.random`
    (batch.draw.WORDS): it plays what the same u from `rng.random` gives, and
    leaves the generator where `rng.random` would, for those and for others."""
    rng = np.random.Generator(bits(7))
    mask = (rng.random((25, 3000)) < 0.4).T  # (the (A, B) layout)
    for _ in range(3):
        same = copy.deepcopy(rng)
        assert np.array_equal(random_actions(rng, mask), _kth_legal(same.random(len(mask)), mask))
        assert rng.random() == same.random()


@pytest.mark.parametrize(
    "preset, form",
    [(p, f) for p in ("phantom-ttt-3", "dark-hex-5", "liars-dice") for f in batch.FORMS]
    + [("mind-bluff-series", "information_state"), ("parley", "information_state")],
)
def test_a_held_observation_is_read_only_and_shows_the_next_read(preset, form):
    """The documented rule: State.observation is a read-only view of the
    environment's array, valid until the next step; held past it, it shows
    what the next read of the same array wrote there (the movers of a later
    step), whoever holds what: no buffer is reused by reference counts."""
    env = batch.make(preset, batch_size=16, seed=0, observation=form)
    rng = np.random.default_rng(0)
    s = env.reset()
    kept = s.observation
    with pytest.raises(ValueError, match="read-only"):
        kept[0, 0] = 1
    view = kept[3:5]
    assert not view.flags.writeable
    for _ in range(6):
        s = env.step(random_actions(rng, s.legal_action_mask))
        now = s.observation
        if s.terminated.any():
            s = env.reset(s.terminated)
    # Under the abrupt rule the movers alternate between two arrays, one per
    # block of the store: the one held is that of the step six plies on.
    assert np.shares_memory(now, kept)
    assert np.array_equal(kept, now) and np.array_equal(view, now[3:5])
    # What it shows is that step's movers' tensors, as a copy made then would be.
    states = [env.to_pyspiel(r) for r in range(16)]
    fresh = s.observation.copy()
    for r, state in enumerate(states):
        if not state.is_terminal():
            assert np.array_equal(fresh[r], pyspiel_tensor(state, form))
    assert not any("getrefcount" in open(f).read() for f in batch_sources())


@pytest.mark.parametrize(
    "preset", ["phantom-ttt-3", "liars-dice-classic-1", "mind-bluff", "parley-tiny"]
)
def test_a_legal_mask_read_late_is_the_one_its_state_had(preset):
    """State.legal_action_mask is made at its first access (a loop restarting
    finished rows never pays for the step's): read late, after a restart of
    finished rows, of running rows too, or after a step, it is what an
    environment read at once showed; every mask handed out is read-only."""
    eager, late = (batch.make(preset, batch_size=24, seed=3) for _ in range(2))
    rng = np.random.default_rng(0)
    s, t = eager.reset(), late.reset()
    held = []
    for i in range(40):
        actions = random_actions(rng, s.legal_action_mask)
        s, t = eager.step(actions), late.step(actions)
        held.append((s.legal_action_mask.copy(), t))
        if i % 3 == 2:  # some running rows restarted too: the late mask is made first
            rows = s.terminated | (np.arange(24) % 5 == i % 5)
        elif s.terminated.any():
            rows = s.terminated
        else:
            continue
        s, t = eager.reset(rows), late.reset(rows)
        held.append((s.legal_action_mask.copy(), t))
    for i, (mask, state) in enumerate(reversed(held)):  # (the latest first)
        assert np.array_equal(state.legal_action_mask, mask), i
        assert not state.legal_action_mask.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        t.legal_action_mask[0, 0] = True


def batch_sources():
    import pathlib

    return sorted(pathlib.Path(batch.__file__).parent.glob("*.py"))


@pytest.mark.parametrize(
    "preset", ["phantom-ttt-3", "dark-hex-5", "liars-dice", "mind-bluff", "parley-tiny"]
)
def test_memory_stays_bounded_whatever_is_held(preset):
    """Holding observations (or views of some rows) over many steps costs the
    environment nothing: it keeps one array per mirror, updated in place."""
    env = batch.make(preset, batch_size=8, seed=0)
    rng = np.random.default_rng(1)
    s = env.reset()

    def run(steps: int, window: int) -> int:
        nonlocal s
        held = []
        for _ in range(steps):
            obs = s.observation
            held = [obs[2:6] if len(held) % 2 else obs, *held][:window]
            s = env.step(random_actions(rng, s.legal_action_mask))
            if s.terminated.any():
                s = env.reset(s.terminated)
        return env.memory_per_row()

    holding_two = run(12, 2)
    assert run(30, 30) <= 1.05 * holding_two  # (the log of the last step or two varies)


def test_an_engine_cannot_get_the_env_contract_wrong():
    # Env.__init__ is the base's: an engine fills _configure and _build, in that order.
    with pytest.raises(TypeError, match="defines __init__: a batched engine fills _configure"):

        class Early(batch_env.Env):  # the old way: sizes set, then super().__init__
            def __init__(self, game, batch_size, seed=None):
                self.num_players = 2
                super().__init__(game, batch_size, seed)

    with pytest.raises(TypeError, match="does not implement _build, _restart"):

        class Partial(batch_env.Env):
            def _configure(self, game):
                pass

    class Forgetful(type(batch.make("dark-hex-4", batch_size=1))):
        def _configure(self, game):
            super()._configure(game)
            del self.max_history

    with pytest.raises(TypeError, match=r"Forgetful._configure did not set max_history"):
        Forgetful(fogboard_games.load("dark-hex-4"), 4, 0)


@pytest.mark.parametrize(
    "preset", ["phantom-ttt-3", "recon-hex-5", "liars-dice", "mind-bluff-series", "parley-tiny"]
)
def test_a_seats_tensor_is_a_new_array_in_the_environments_dtype(preset):
    """information_state_tensor(p) and observation_tensor(p) hand out arrays
    of their own (engines return fresh arrays and the environment converts
    them only where its dtype differs): writing into one changes no later
    read, nor the handed-out observation."""
    env = batch.make(preset, batch_size=8, seed=1, dtype="uint8")
    rng = np.random.default_rng(1)
    s = env.reset()
    for _ in range(5):
        s = env.step(random_actions(rng, s.legal_action_mask))
    mover = s.observation.copy()
    for read in (env.information_state_tensor, env.observation_tensor):
        first = read(0)
        assert first.dtype == np.uint8 and first.flags.writeable
        again = first.copy()
        first[:] = 7
        assert np.array_equal(read(0), again)
    assert np.array_equal(s.observation, mover)
