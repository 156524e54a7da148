"""`python -m fogboard_games solve PRESET` and bench --solve's floor of the
build (docs/solving.md#medium-games-solved).

The command prints what a row of docs/solving.md's table holds: these
check that what it prints is what the solver computes on the same tree
(sizes, the curve, the values), that --target stops where it says, and that
every bad request is one line on stderr before anything is built. Never how
fast: speed is the bench's.
"""

from __future__ import annotations

import re

import pytest

import fogboard_games
from fogboard_games import solve
from fogboard_games.__main__ import main
from fogboard_games.bench.solving import bare_walk
from fogboard_games.solve.report import solve_preset

TINY = "mind-bluff-tiny"  # 33,500 histories: built in a fraction of a second


@pytest.fixture(scope="module")
def tiny_tree():
    return solve.Tree(fogboard_games.load(TINY))


def curve_of(out: str) -> dict[int, float]:
    return {int(i): float(e) for i, e in re.findall(r"^ +(\d+) +(\S+) +\S+$", out, re.M)}


def test_solve_prints_the_tree_the_curve_and_the_values_the_solver_computes(tiny_tree, capsys):
    assert main(["solve", TINY, "--iterations", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"solve {TINY}: {fogboard_games.load(TINY)}\n")
    assert f"tree: {tiny_tree.num_histories:,} histories" in out
    assert f"infostates {tiny_tree.num_infostates}" in out
    # The same iterations through the API: the same curve and values, to the digits shown.
    cfr = solve.CFRPlus(tiny_tree)
    expected = {}
    for point in (1, 2, 5, 10, 20):
        cfr.run(point - (max(expected) if expected else 0))
        expected[point] = solve.exploitability(tiny_tree, cfr.average_policy())
    assert curve_of(out) == {p: float(f"{e:.3e}") for p, e in expected.items()}
    values = solve.expected_values(tiny_tree, cfr.average_policy())
    assert f"values: seat 0 {values[0]:+.6f}, seat 1 {values[1]:+.6f}\n" in out
    assert "final: 20 iterations of cfr+, exploitability" in out
    # The best responses bracket the game value (from below, seat 1's against
    # seat 0's average; from above, seat 0's), 2 x the exploitability apart.
    best = solve.best_response_values(tiny_tree, cfr.average_policy())
    low, high = map(float, re.findall(r"game value of seat 0: between (\S+) and (\S+)\n", out)[0])
    assert (low, high) == (round(-best[1], 6), round(best[0], 6))
    assert low <= values[0] <= high
    assert high - low == pytest.approx(2 * expected[20], abs=2e-6)
    assert re.search(r"memory: arrays [\d.]+ MiB, peak RSS (\d+ MiB|unknown)\n", out)


def test_target_stops_at_the_first_report_point_that_reaches_it(capsys):
    run = solve_preset(TINY, 1000, "dcfr", target=0.2)
    out = capsys.readouterr().out
    reached = [e for _, e in run["curve"]]
    # Stopped at the first point at or under the target, none before it.
    assert reached[-1] <= 0.2 and all(e > 0.2 for e in reached[:-1])
    assert run["iterations"] == run["curve"][-1][0] < 1000
    assert f"final: {run['iterations']} iterations of dcfr" in out


def test_parley_reports_nash_conv_and_every_seats_value(capsys):
    run = solve_preset("parley-tiny", 2, "cfr")
    out = capsys.readouterr().out
    assert "NashConv" in out and "exploitability" not in out
    assert len(run["values"]) == 3
    assert "values: seat 0 " in out and ", seat 2 " in out
    tree = solve.Tree(fogboard_games.load("parley-tiny"))
    assert run["distance"] == solve.nash_conv(tree, solve.CFR(tree).run(2).average_policy())


@pytest.mark.parametrize(
    "argv,message",
    [
        (["solve", "nope"], "solve: unknown preset 'nope'; the presets are dark-hex-4, "),
        (["solve", TINY, "--iterations", "0"], "must be an int of at least 1, got 0"),
        (["solve", TINY, "--algorithm", "cfr++"], "unknown algorithm 'cfr++'; one of cfr, cfr+, "),
        (["solve", TINY, "--target", "0"], "--target must be a positive number, got 0.0"),
        (["solve", TINY, "--max-gib", "0"], "--max-gib must be above 0 and at most 1024"),
        (["solve", TINY, "--iterations", "x"], "argument --iterations: 'x' is not an int"),
        # Too big: the tree's estimate, and the option that lifts the bound.
        (["solve", "mind-bluff"], "solve: mind-bluff: about "),
        (["solve", "mind-bluff-9", "--max-gib", "0.01"], "pass a larger --max-gib"),
    ],
)
def test_every_bad_request_is_refused_in_one_line_before_anything_runs(argv, message, capsys):
    try:
        status = main(argv)
    except SystemExit as e:  # (the parser's own refusals exit)
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2 and out == "", (status, out)
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err


def test_the_floor_walks_every_history_of_the_tree(tiny_tree):
    game = fogboard_games.load(TINY)
    assert bare_walk(game, strings=False) == tiny_tree.num_histories
    assert bare_walk(game, strings=True) == tiny_tree.num_histories
