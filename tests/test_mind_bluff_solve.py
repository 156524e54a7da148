"""examples/mind_bluff_solve.py: its LP is right on a game with a known
value, and on mind-bluff-tiny its LP and CFR+ agree and its counts are the
ones docs/mind_bluff.md quotes."""

import pathlib
import re
import runpy
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "examples" / "mind_bluff_solve.py"
NUMBER = r"([-+]?\d+(?:\.\d+)?)"


def _run(args, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [SCRIPT.name, *args])
    runpy.run_path(str(SCRIPT), run_name="__main__")
    return capsys.readouterr().out


def _number(pattern, out):
    match = re.search(pattern.replace("#", NUMBER), out)
    assert match, (pattern, out)
    return [float(g) for g in match.groups()] if len(match.groups()) > 1 else float(match[1])


def test_lp_gives_kuhn_pokers_value(monkeypatch, capsys):
    """Kuhn poker is worth -1/18 to the first seat: a check of the LP itself
    (constraints, chance in the payoffs, signs) on a game with a known value."""
    out = _run(["--game", "kuhn_poker", "--skip-cfr"], monkeypatch, capsys)
    assert "histories 58 (30 terminal)" in out
    assert "information states 12 (P1 6, P2 6)" in out
    assert _number(r"LP game value for P1 #", out) == pytest.approx(-1 / 18, abs=1e-6)
    assert "CFR+" not in out and "agree" not in out


def test_cfr_and_lp_agree_on_mind_bluff_tiny(monkeypatch, capsys):
    out = _run(["--iterations", "30"], monkeypatch, capsys)
    assert "histories 33500 (22849 terminal)" in out
    assert "information states 8143 (P1 3718, P2 4425)" in out
    assert "sequences P1 11501, P2 14127" in out
    expl = _number(r"exploitability #", out)
    value = _number(r"average policy value for P1 #", out)
    low, high = _number(r"value bracket \[#, #\]", out)
    lp = _number(r"LP game value for P1 #", out)
    assert 0 < expl < 0.1, out  # 30 iterations: converging, not converged
    assert abs(lp - value) <= expl, out
    # The guarantee behind the comparison: the best responses to CFR's
    # average policy bracket the true value, NashConv (twice the
    # exploitability) wide.
    assert low <= lp <= high, out
    assert high - low == pytest.approx(2 * expl, abs=1e-5), out
    assert lp == pytest.approx(0.0, abs=1e-6), out
    assert "agree: yes" in out


def test_skip_lp_runs_cfr_only(monkeypatch, capsys):
    out = _run(["--game", "kuhn_poker", "--skip-lp", "--iterations", "50"], monkeypatch, capsys)
    assert "CFR+ 50 iterations" in out
    assert "LP game value" not in out and "agree" not in out


def test_refuses_a_game_that_is_not_two_player_zero_sum(monkeypatch, capsys):
    with pytest.raises(SystemExit, match="two-player zero-sum"):
        _run(["--game", "kuhn_poker(players=3)"], monkeypatch, capsys)
