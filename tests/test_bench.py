"""The bench's pairs come from the registry and its playouts draw chance by
the odds (docs/performance.md). Speed itself is measured by the bench, not
by tests."""

from __future__ import annotations

from fogboard_games import bench
from fogboard_games.core import registry


class OneDraw:
    """A game of one chance node, outcome 0 far likelier than 1 and 2."""

    ODDS = [(0, 0.98), (1, 0.01), (2, 0.01)]

    def __init__(self):
        self.drawn = []

    def new_initial_state(self):
        return Draw(self.drawn)


class Draw:
    def __init__(self, drawn):
        self.drawn, self.done = drawn, False

    def is_terminal(self):
        return self.done

    def is_chance_node(self):
        return True

    def chance_outcomes(self):
        return OneDraw.ODDS

    def apply_action(self, action):
        self.drawn.append(action)
        self.done = True


def test_playouts_draw_chance_by_the_odds():
    game = OneDraw()
    assert bench.playout_rate(game, 0.05, "plain") > 0
    share = game.drawn.count(0) / len(game.drawn)
    assert len(game.drawn) > 500 and share > 0.95, (len(game.drawn), share)


def test_the_workload_and_search_presets_are_registered_pairs():
    # The rows the bench printed when it spelled these pairs itself, in order.
    assert bench.counterparts(bench.WORKLOAD_PRESETS) == [
        ("dark-hex-5", "dark_hex(board_size=5,gameversion=adh)"),
        ("phantom-ttt-3", "phantom_ttt"),
        ("liars-dice-classic-1", "liars_dice(numdice=1)"),
    ]
    assert [cpp for _, cpp in bench.counterparts(bench.SEARCH_PRESETS)] == [
        "liars_dice(numdice=1)",
        "dark_hex(board_size=5,gameversion=adh)",
        "phantom_ttt",
    ]


def test_the_workloads_measure_the_registered_counterpart(capsys):
    """A preset's C++ game is the one registered with it, in both tables."""
    saved = list(registry.BENCH_PAIRS)
    at = saved.index(("phantom-ttt-3", "phantom_ttt"))
    registry.BENCH_PAIRS[at] = ("phantom-ttt-3", "phantom_ttt(obstype=reveal-numturns)")
    try:
        results = bench.run_workloads(rounds=1, seconds=0.01, only=["phantom-ttt-3"])
    finally:
        registry.BENCH_PAIRS[:] = saved
    assert [r["cpp_game"] for r in results] == ["phantom_ttt(obstype=reveal-numturns)"] * 2
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.startswith(("phantom-ttt-3", "ismcts phantom-ttt-3"))]
    assert len(rows) == 2 and all("phantom_ttt(obstype=reveal-numturns)" in r for r in rows)


def test_the_floor_does_the_hand_out_it_stands_for(capsys):
    """bench --batch's floor (bench.batched.Floor) does, at every ply, the part
    of handing out the movers' tensors it stands for, and each row of the table
    carries it beside the C++ loop (what is checked is the work, not its time)."""
    import numpy as np

    from fogboard_games import batch
    from fogboard_games.bench.batched import Floor, random_actions, run_batch

    B = 6
    env = batch.make("phantom-ttt-3", batch_size=B, seed=0)
    floor = Floor(env)
    assert not floor.blocks
    floor.store[:] = np.arange(2 * B)[:, None]  # stand-in store row r holds r
    rng = np.random.default_rng(0)
    s = env.reset()
    for _ in range(8):  # (collisions keep the turn: the movers differ from row to row)
        out = floor.hand_out(s)
        assert out.dtype == np.float32 and out.shape == (B, env.tensor_size)
        running = ~s.terminated
        movers = s.current_player * B + np.arange(B)  # seat p of row b: store row p * B + b
        assert np.array_equal(out[running], np.repeat(movers[running, None], out.shape[1], 1))
        s = env.step(random_actions(rng, s.legal_action_mask))
    # Abrupt dark hex: every ply passes the turn, so a ply writes its four entries
    # a row into that ply's movers' array, the two arrays taking turns.
    env = batch.make("dark-hex-5", batch_size=B, seed=0)
    floor = Floor(env)
    assert floor.blocks and floor.out.shape == (2, B, env.tensor_size)
    s = env.reset()
    for ply in range(4):
        floor.out[:] = 0
        out = floor.hand_out(s)
        assert np.shares_memory(out, floor.out[ply % 2]) and not floor.out[1 - ply % 2].any()
        written = np.count_nonzero(out, axis=1)
        assert written.min() >= 1 and written.max() <= Floor.ENTRIES
        s = env.step(random_actions(rng, s.legal_action_mask))
    # Rows restarted since the last ply are set afresh in both arrays.
    floor.out[:] = 1
    s = env.reset(np.arange(B) < 2)
    out = floor.hand_out(s)
    other = floor.out[1 - (floor.ply - 1) % 2]  # (the array this ply left alone)
    assert not other[:2].any() and other[2:].all()
    assert np.count_nonzero(out[:2], axis=1).max() <= Floor.ENTRIES
    rows = run_batch(rounds=1, seconds=0.01, only=["phantom-ttt-3", "liars-dice-1"], batch_size=8)
    ttt, dice = rows
    assert ttt["floor_batch"] > 0 and ttt["floor_ratio"] == ttt["floor_batch"] / ttt["tensor_cpp"]
    assert dice["floor_batch"] is None and dice["floor_ratio"] is None  # (no C++ twin)
    # The compact read: bool where the tensor holds only 0 and 1, beside C++'s tensor loop.
    assert ttt["compact_dtype"] == "bool" and dice["compact_dtype"] == "bool"
    assert ttt["compact_ratio"] == ttt["compact_batch"] / ttt["tensor_cpp"] > 0
    assert dice["compact_batch"] > 0 and dice["compact_ratio"] is None
    out = capsys.readouterr().out
    assert "floor     plain play plus only the part of handing out" in out
