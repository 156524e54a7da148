"""The commands work on a bare install (`pip install .`, no extra).

The suite runs with every extra installed, which once hid a league that
crashed at its end on a fresh machine (its ratings imported OpenSpiel's
alpha-rank, whose plotting module needs matplotlib and networkx). Here
each command runs in a process where every module an extra brings is
refused at import, as on a machine that never installed it. `.ci/run`
checks the same in a real fresh virtual environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Top-level modules that only the extras (gym, pettingzoo, ray, plot, llm, test) bring.
EXTRA_MODULES = (
    "gymnasium",
    "pettingzoo",
    "shimmy",
    "ray",
    "matplotlib",
    "networkx",
    "openai",
    "playwright",
    "hypothesis",
    "pytest",
)

BARE = f"""
import importlib.abc, sys

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {EXTRA_MODULES!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)

sys.meta_path.insert(0, NotInstalled())
from fogboard_games.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def bare(*args: str, cwd, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.run(
        [sys.executable, "-c", BARE, *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_blocker_refuses_what_an_extra_brings(tmp_path):
    # Without this, every other test here could pass by never blocking anything.
    probe = BARE.replace("from fogboard_games.__main__ import main", "import matplotlib")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode != 0 and "No module named 'matplotlib'" in done.stderr


@pytest.fixture(scope="module")
def league_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bare")
    done = bare(
        "league",
        "--games",
        "liars-dice-1,phantom-ttt-3",
        "--episodes",
        "3",
        "--out",
        "league.json",
        "--html",
        "league.html",
        "--save-games",
        "games",
        cwd=folder,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return folder, done


def test_a_league_writes_its_table_ratings_and_page_without_any_extra(league_folder):
    folder, done = league_folder
    report = json.loads((folder / "league.json").read_text())
    for preset in ("liars-dice-1", "phantom-ttt-3"):
        rated = report["ratings"][preset]
        assert rated["undefined"] is None, rated
        assert sum(a["mass"] for a in rated["alpharank"]) == pytest.approx(1)
    assert "alpha-rank" in (folder / "league.html").read_text()


def test_a_saved_game_replays_as_a_page_without_any_extra(league_folder):
    folder, _ = league_folder
    review = next((folder / "games").rglob("*.json"))
    done = bare("review", str(review), "--html", "game.html", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert (folder / "game.html").read_text().startswith("<!DOCTYPE html>")


def test_solve_runs_without_any_extra(tmp_path):
    done = bare("solve", "liars-dice-1", "--iterations", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_the_ray_backend_without_ray_is_refused_before_any_game(tmp_path):
    done = bare("league", "--backend", "ray", "--out", "league.json", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        'league: the ray backend needs Ray, which is not installed: pip install ".[ray]" '
        "from the checkout"
    ]
    assert list(tmp_path.iterdir()) == []  # no journal, no table: nothing was started
