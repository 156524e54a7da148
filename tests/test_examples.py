"""The examples run end to end (tiny settings) and report what they claim."""

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
