"""The examples run end to end (tiny settings) and report what they claim."""

import os
import pathlib
import runpy
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def _run(script, args, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [script, *args])
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    return capsys.readouterr().out


def test_cfr_example_converges_on_2x2_abrupt_dark_hex(monkeypatch, capsys):
    out = _run("cfr_small_boards.py", ["--iterations", "50"], monkeypatch, capsys)
    lines = [line for line in out.splitlines() if line.startswith("iteration")]
    first = float(lines[0].split("NashConv")[1].split()[0])
    last = float(lines[-1].split("NashConv")[1].split()[0])
    assert last < first / 10, out
    assert "value of the average policy for seat 0" in out


@pytest.mark.parametrize(
    "preset, opponent",
    [("phantom-ttt-3", "probe"), ("recon-hex-5", "probe"), ("liars-dice", "random")],
)
def test_ismcts_example_plays_whole_games(preset, opponent, monkeypatch, capsys):
    """With no --opponent the example picks one the preset can play against."""
    args = ["--preset", preset, "--games", "2", "--simulations", "10"]
    out = _run("ismcts.py", args, monkeypatch, capsys)
    assert out.count("IS-MCTS as seat") == 2
    assert f"mean score against {opponent}:" in out


def test_ismcts_example_refuses_a_board_bot_off_the_boards(monkeypatch, capsys):
    args = ["--preset", "liars-dice-1", "--opponent", "probe", "--games", "1"]
    with pytest.raises(SystemExit, match="plays the boards only"):
        _run("ismcts.py", args, monkeypatch, capsys)


def test_ismcts_beats_uniform_random_at_liars_dice(monkeypatch, capsys):
    args = ["--preset", "liars-dice-1", "--opponent", "random", "--games", "100"]
    out = _run("ismcts.py", args + ["--simulations", "100"], monkeypatch, capsys)
    assert out.count("IS-MCTS as seat") == 100
    mean = float(out.rsplit("against random:", 1)[1])
    # Random against random scores 0; a search that reads its own die and
    # the bids does far better (seeded, so the run repeats exactly).
    assert mean > 0.4, out


def test_parley_tiny_cfr_example_lowers_nash_conv(monkeypatch, capsys):
    out = _run("parley_tiny_cfr.py", ["--iterations", "30"], monkeypatch, capsys)
    lines = [line for line in out.splitlines() if line.startswith("iteration")]
    assert [int(line.split()[1]) for line in lines] == [1, 2, 5, 10, 20, 30], out
    nash_conv = [float(line.split("NashConv")[1].split()[0]) for line in lines]
    # Three cogs, general-sum: nothing guarantees this, but on parley-tiny
    # CFR's average policy gets closer to an equilibrium at every report.
    assert all(later < earlier for earlier, later in zip(nash_conv, nash_conv[1:])), out
    assert nash_conv[-1] < nash_conv[0] / 10, out
    points = out.split("expected points under the average policy:")[1].split()
    assert points[::2] == ["C0", "C1", "C2"], out
    assert all(0 < float(p) < 6 for p in points[1::2]), out


@pytest.mark.parametrize("preset", ["parley", "mind-bluff"])
def test_text_seat_example_shows_retries_and_fallbacks(preset, monkeypatch, capsys):
    args = ["--preset", preset, "--games", "2", "--fallback", "random", "--show-prompt"]
    out = _run("text_seat.py", args, monkeypatch, capsys)
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(games) == 2, out
    assert all(" decisions, " in line and "fell back to random" in line for line in games)
    assert "(retried)" in out or "(fell back)" in out, out
    assert "problem: " in out
    assert "WHAT YOU KNOW (your information state, verbatim)" in out
    seat = "You are C0." if preset == "parley" else "You are P1 (seat 0)."
    assert seat in out


def _curves(out):
    """{game: [(iteration, value), ...]} from cfr_tiny_presets.py's output."""
    curves, game = {}, None
    for line in out.splitlines():
        if ": CFR+ on cached_tree(" in line:
            game = line.split(":")[0]
            curves[game] = []
        elif line.startswith("  iteration"):
            words = line.split()
            curves[game].append((int(words[1]), float(words[3])))
    return curves


def test_cfr_tiny_presets_curves_fall_and_are_plotted(tmp_path, monkeypatch, capsys):
    png = tmp_path / "c.png"
    args = ["--games", "mind-bluff-tiny,parley-tiny", "--iterations", "10", "--plot", str(png)]
    out = _run("cfr_tiny_presets.py", args, monkeypatch, capsys)
    curves = _curves(out)
    assert list(curves) == ["mind-bluff-tiny", "parley-tiny"], out
    for game, rows in curves.items():
        assert [i for i, _ in rows] == [1, 2, 5, 10], out
        assert rows[-1][1] < rows[0][1], (game, out)
    assert "mind-bluff-tiny: exploitability" in out and "parley-tiny: NashConv" in out
    assert png.read_bytes().startswith(b"\x89PNG"), out


def test_cfr_tiny_presets_measure_is_pyspiels_and_needs_no_matplotlib(
    tmp_path, monkeypatch, capsys
):
    import pyspiel

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    png = tmp_path / "c.png"
    args = ["--games", "dark-hex-2", "--iterations", "5", "--plot", str(png)]
    out = _run("cfr_tiny_presets.py", args, monkeypatch, capsys)
    assert "no plot: matplotlib is not installed" in out and not png.exists(), out
    # The best responses built once give what pyspiel computes from scratch.
    game = pyspiel.load_game("cached_tree(game=fogboard_dark_hex(board_size=2,abrupt=true))")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(5):
        solver.evaluate_and_update_policy()
    expected = pyspiel.exploitability(game, solver.average_policy())
    assert _curves(out)["dark-hex-2"][-1] == (5, pytest.approx(expected, abs=1e-6)), out


@pytest.mark.parametrize("preset, opponent", [("mind-bluff", "heuristic"), ("dark-hex-5", "sweep")])
def test_ismcts_example_plays_the_baselines(preset, opponent, monkeypatch, capsys):
    args = ["--preset", preset, "--opponent", opponent, "--games", "2", "--simulations", "10"]
    out = _run("ismcts.py", args, monkeypatch, capsys)
    assert out.count("IS-MCTS as seat") == 2, out
    mean = float(out.rsplit(f"mean score against {opponent}:", 1)[1])
    scores = [float(line.rsplit("scored", 1)[1]) for line in out.splitlines() if "scored" in line]
    assert mean == pytest.approx(sum(scores) / len(scores), abs=0.005), out  # the games' mean


def test_small_league_example_prints_the_table_and_writes_json(tmp_path, monkeypatch, capsys):
    import json

    # (The example registers its IS-MCTS kind; tests/conftest.py takes it out after.)
    path = tmp_path / "league.json"
    args = ["--episodes", "1", "--simulations", "5", "--out", str(path)]
    out = _run("small_league.py", args, monkeypatch, capsys)
    assert "bot         against      games  mean score" in out, out
    report = json.loads(path.read_text())
    assert report["games"] == ["phantom-ttt-3", "mind-bluff-tiny"]
    assert report["bots"] == ["random", "heuristic", "ismcts-5"]
    for preset in report["games"]:
        assert preset in out
        rows = report["table"][preset]
        # Each kind against each other kind, over both seats: 6 rows of 2 games.
        assert len(rows) == 6 and all(r["games"] == 2 for r in rows), rows
        assert {r["kind"] for r in rows} == {"random", "heuristic", "ismcts-5"}


def test_batch_selfplay_beats_uniform_random(monkeypatch, capsys):
    args = ["--iterations", "40", "--report", "20", "--eval", "2048", "--png", ""]
    out = _run("batch_selfplay.py", args, monkeypatch, capsys)
    scores = [
        float(line.split("random")[1].split()[0])
        for line in out.splitlines()
        if line.startswith("iteration")
    ]
    assert len(scores) == 3, out
    # The untrained policy is uniform random (about 0, within the noise of
    # 2,048 games); 40 iterations of self-play already beat it clearly.
    assert abs(scores[0]) < 0.08, out
    assert scores[-1] > 0.15 and scores[-1] > scores[0] + 0.15, out
    assert "final mean score against uniform random" in out


def test_batch_selfplay_learns_on_a_board_and_plots_it(tmp_path, monkeypatch, capsys):
    png = tmp_path / "curve.png"
    args = ["--preset", "dark-hex-4", "--iterations", "20", "--report", "20"]
    args += ["--batch", "256", "--eval", "1024", "--png", str(png)]
    out = _run("batch_selfplay.py", args, monkeypatch, capsys)
    scores = [
        float(line.split("random")[1].split()[0])
        for line in out.splitlines()
        if line.startswith("iteration")
    ]
    assert len(scores) == 2, out
    # Uniform random at first (noise of 1,024 games: about 0.03); 20
    # iterations of 256 games already beat it (about +0.25 to +0.3).
    assert abs(scores[0]) < 0.1, out
    assert scores[-1] > 0.15 and scores[-1] > scores[0] + 0.15, out
    assert png.stat().st_size > 0


def test_screenshots_example_photographs_a_review_page_and_the_league_page(tmp_path):
    import subprocess

    import browser

    browser.skip_or_fail()
    # In a process of its own: playwright's sync driver runs once per process,
    # and the page tests' browser may already hold it here.
    code = (
        "import runpy, sys; shots = runpy.run_path(sys.argv[1]); "
        "shots['main'].__globals__['PRESETS'] = {'phantom-ttt-3': 1}; "  # one replay is enough
        "shots['main'](sys.argv[2])"
    )
    env = {**os.environ, "FOGBOARD_CHROMIUM": browser.chromium_path()}
    script = str(EXAMPLES / "screenshots.py")
    subprocess.run(
        [sys.executable, "-c", code, script, str(tmp_path)], env=env, check=True, timeout=300
    )
    for name in ("replay-phantom-ttt-3.png", "league.png"):
        data = (tmp_path / name).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000, name


def test_batch_plain_floor_example_prints_the_floor_beside_the_cpp_loop(monkeypatch, capsys):
    args = ["--preset", "phantom-ttt-3", "--batch-size", "64", "--seconds", "0.05"]
    out = _run("batch_plain_floor.py", args + ["--rounds", "1"], monkeypatch, capsys)
    floor, cpp = (line.split() for line in out.splitlines()[1:3])
    assert floor[0] == "floor" and abs(float(floor[2][:-1]) - float(floor[1]) / float(cpp[1])) < 0.1
    assert cpp[0] == "C++" and cpp[2] == "(phantom_ttt)"
    with pytest.raises(SystemExit, match="has no C.. twin"):
        _run("batch_plain_floor.py", ["--preset", "parley"], monkeypatch, capsys)
