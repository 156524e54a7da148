"""The league (docs/league.md): the plan of seat assignments, the table, the
same results whatever the backend, and one-line refusals."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from fogboard_games import league


def test_plan_puts_each_kind_in_each_seat_against_each_other_kind():
    jobs, skipped = league.plan(["parley-tiny", "dark-hex-4"], ["random", "probe"], 25, seed=1)
    assert skipped == [("parley-tiny", "probe")]  # probe plays the boards only
    parley = {(j.kinds, j.focal) for j in jobs if j.preset == "parley-tiny"}
    # One kind plays parley-tiny: itself in every seat, every seat reported.
    assert parley == {(("random",) * 3, (0, 1, 2))}
    hex4 = {(j.kinds, j.focal) for j in jobs if j.preset == "dark-hex-4"}
    # Two seats: one set of games per seat order reports both kinds.
    assert hex4 == {(("random", "probe"), (0, 1)), (("probe", "random"), (0, 1))}
    # 25 episodes per assignment, in chunks that cover them exactly once.
    for key in hex4:
        chunks = [j for j in jobs if (j.kinds, j.focal) == key and j.preset == "dark-hex-4"]
        covered = [e for j in chunks for e in range(j.first, j.first + j.count)]
        assert covered == list(range(25))


def test_more_than_two_players_each_kind_in_each_seat_against_the_others():
    jobs, _ = league.plan(["parley-tiny"], ["random", "heuristic"], 3, seed=0)
    seen = {(j.kinds, j.focal) for j in jobs}
    assert (("heuristic", "random", "random"), (0,)) in seen
    assert (("random", "heuristic", "random"), (1,)) in seen
    assert (("heuristic", "random", "heuristic"), (1,)) in seen  # random in seat 1
    assert len(seen) == 6


@pytest.mark.parametrize(
    "games,bots,episodes,named",
    [
        (["dark-hex-9"], ["random"], 5, "unknown preset 'dark-hex-9'; presets: dark-hex-4"),
        (["dark-hex-4"], ["genius"], 5, "unknown bot kind 'genius'; kinds: "),
        (["dark-hex-4"], ["random"], 0, "--episodes must be a positive int, got 0"),
        # The plan is built whole before the first game: refused, not out of memory.
        (["dark-hex-4"], ["random"], 10**30, r"--episodes is at most 100,000 .*got about 10\*\*30"),
        (["dark-hex-4"], ["random"], league.MAX_EPISODES + 1, "got 100001"),
        (["liars-dice-1"], ["probe"], 5, "no bot kind of probe plays liars-dice-1"),
        # Named twice, a kind or game would play and count its games twice.
        (["dark-hex-4"], ["random", "random"], 5, "--bots names 'random' twice"),
        (["dark-hex-4", "dark-hex-4"], ["random"], 5, "--games names 'dark-hex-4' twice"),
    ],
)
def test_bad_requests_are_refused_naming_the_value(games, bots, episodes, named):
    with pytest.raises(league.LeagueError, match=named):
        league.plan(games, bots, episodes, seed=0)


def test_table_rows_add_up():
    report = league.run(["dark-hex-4", "parley-tiny"], ["random", "probe"], 6, progress=False)
    rows = {(r["kind"], r["against"]): r for r in report["table"]["dark-hex-4"]}
    assert set(rows) == {("random", "probe"), ("probe", "random")}
    for r in rows.values():
        assert r["games"] == 12 == r["wins"] + r["draws"] + r["losses"]
        # (board games score +1, 0 or -1: the mean is the wins' share less the losses')
        assert r["mean_score"] == pytest.approx((r["wins"] - r["losses"]) / r["games"])
        assert r["ci95"] >= 0
        assert "mean_probes" in r and "mean_distToWin" in r
    # Zero-sum, every game counted once from each side.
    assert rows[("probe", "random")]["wins"] == rows[("random", "probe")]["losses"]
    assert rows[("probe", "random")]["mean_score"] == pytest.approx(
        -rows[("random", "probe")]["mean_score"]
    )
    (parley,) = report["table"]["parley-tiny"]
    assert parley["games"] == 18 and "mean_probes" not in parley


def test_the_ruleset_declares_the_metrics_the_league_reports(monkeypatch):
    """The league reports what a ruleset's `metrics` gives a seat, read from
    the true match; a ruleset without them gets no extra columns."""
    import dataclasses

    import fogboard_games
    from fogboard_games.boards import rules
    from fogboard_games.core.contract import Match
    from fogboard_games.core.registry import GAMES

    board = fogboard_games.load("dark-hex-4")
    state = board.new_initial_state()
    for move in ["a1", "b2", "a2"]:
        state.apply_action(state.string_to_action(move))
    assert board.ruleset.metrics(state.truth, 0) == {
        "probes": 0,
        "distToWin": rules.true_dist(state.truth, 0),
    }
    assert fogboard_games.load("liars-dice-1").ruleset.metrics is None

    seen = []

    def metrics(match, seat):
        seen.append(isinstance(match, Match))
        return {"seat": seat, "paid": match.returns()[seat]}

    dice = GAMES["fogboard_liars_dice"]
    monkeypatch.setattr(dice, "ruleset", dataclasses.replace(dice.ruleset, metrics=metrics))
    report = league.run(["liars-dice-1", "parley-tiny"], ["random"], 3, progress=False)
    (row,) = report["table"]["liars-dice-1"]
    # Over both seats (random against itself), from the end of each game.
    assert row["mean_seat"] == 0.5 and row["mean_paid"] == row["mean_score"]
    assert seen and all(seen)
    (parley,) = report["table"]["parley-tiny"]
    assert set(parley) == set(row) - {"mean_seat", "mean_paid"}


def test_summary_statistics():
    job = league.Job("parley-tiny", ("random",) * 3, (1,), 0, 4, 0)
    outcomes = [
        league.Outcome([4.0, 1.0, 0.0], 6, [{}] * 3),
        league.Outcome([1.0, 4.0, 1.0], 5, [{}] * 3),
        league.Outcome([2.0, 2.0, 0.0], 4, [{}] * 3),
        league.Outcome([0.0, 3.0, 3.0], 6, [{}] * 3),
    ]
    (row,) = league.summarize([job], [outcomes])["parley-tiny"]
    scores = [1.0, 4.0, 2.0, 3.0]
    mean = sum(scores) / 4
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / 3)
    assert row["mean_score"] == mean and row["ci95"] == pytest.approx(1.96 * sd / 2)
    assert (row["wins"], row["draws"], row["losses"]) == (1, 2, 1)
    assert row["mean_length"] == 5.25


def test_dist_to_win_leaves_the_no_route_sentinel_out_of_its_mean():
    """distToWin is 99 when no route remains: counted apart, not averaged in."""
    job = league.Job("dark-hex-4", ("random", "probe"), (0, 1), 0, 3, 0)
    outcomes = [
        league.Outcome(
            [-1.0, 1.0], 9, [{"probes": 1, "distToWin": 99}, {"probes": 0, "distToWin": 0}]
        ),
        league.Outcome(
            [1.0, -1.0], 9, [{"probes": 0, "distToWin": 0}, {"probes": 2, "distToWin": 99}]
        ),
        league.Outcome(
            [-1.0, 1.0], 9, [{"probes": 2, "distToWin": 3}, {"probes": 0, "distToWin": 0}]
        ),
    ]
    table = league.summarize([job], [outcomes])
    random, probe = table["dark-hex-4"]
    assert (random["mean_distToWin"], random["no_route"]) == (1.5, 1)
    assert (probe["mean_distToWin"], probe["no_route"]) == (0.0, 1)
    assert random["mean_probes"] == 1.0
    # No route in any game: no mean to show.
    lost = [
        league.Outcome(
            [-1.0, 1.0], 9, [{"probes": 0, "distToWin": 99}, {"probes": 0, "distToWin": 0}]
        )
    ]
    job = league.Job("dark-hex-4", ("random", "probe"), (0,), 0, 1, 0)
    (row,) = league.summarize([job], [lost])["dark-hex-4"]
    assert row["mean_distToWin"] is None and row["no_route"] == 1
    printed = league.format_table({"dark-hex-4": [row]}).splitlines()
    assert printed[1].endswith("distToWin noRoute") and printed[2].endswith("-       1")


def test_same_seed_same_table_with_workers_and_other_seed_differs():
    args = (["phantom-ttt-3", "liars-dice-1"], ["random", "heuristic"], 8)
    one = league.run(*args, workers=1, seed=3, progress=False)
    two = league.run(*args, workers=2, seed=3, progress=False)
    assert one == two
    other = league.run(*args, workers=1, seed=4, progress=False)
    assert other["table"] != one["table"]


def test_ray_backend_gives_the_local_table():
    pytest.importorskip("ray")  # the test extra installs it; this guards a bare install
    args = (["dark-hex-4", "parley-tiny"], ["random", "heuristic"], 4)
    local = league.run(*args, seed=5, progress=False)
    ray_report = league.run(*args, backend="ray", workers=2, seed=5, progress=False)
    assert ray_report == local


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "fogboard_games", "league", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_cli_prints_the_table_and_writes_json(tmp_path):
    out = tmp_path / "league.json"
    done = run_cli("--games", "dark-hex-4", "--bots", "random,probe", "--episodes", "3")
    assert done.returncode == 0, done.stderr
    assert "dark-hex-4" in done.stdout and "mean score" in done.stdout
    done = run_cli("--games", "dark-hex-4", "--bots", "probe", "--episodes", "2", "--out", str(out))
    report = json.loads(out.read_text())
    assert report["table"]["dark-hex-4"][0]["games"] == 4 and report["bots"] == ["probe"]


def test_the_printed_table_has_the_ratings_and_a_legend_under_the_boards_columns(tmp_path):
    done = run_cli("--games", "dark-hex-4,liars-dice-1")  # (random and heuristic)
    assert done.returncode == 0, done.stderr
    hex_part, dice_part = done.stdout.split("\n\nliars-dice-1\n")
    hex_lines = hex_part.splitlines()
    head = hex_lines.index(next(line for line in hex_lines if line.startswith("bot ")))
    # The legend right under the two rows, naming every board column; none for dice.
    legend = hex_lines[head + 3]
    assert legend == league.table.BOARDS_LEGEND
    assert all(f"{name}:" in legend for name in ("probes", "distToWin", "noRoute"))
    assert "probes:" not in dice_part
    # The ratings the report has, as the page shows them.
    report = league.run(["dark-hex-4", "liars-dice-1"], ["random", "heuristic"], 50, progress=False)
    for part, preset in ((hex_part, "dark-hex-4"), (dice_part, "liars-dice-1")):
        for line in league.table.format_ratings(report["ratings"][preset]):
            assert line in part.splitlines(), line
    rated = report["ratings"]["dark-hex-4"]
    assert f"ratings from {rated['games']} games between kinds" in hex_part
    for elo in rated["elo"]:  # (an unbounded end shown as infinite)
        shown = league.table.interval_text(elo["low"], elo["high"])
        assert any(line.startswith(elo["kind"]) and shown in line for line in hex_lines)


def test_a_league_takes_load_strings_among_its_games(tmp_path):
    games = league.parse_list("fogboard_dark_hex(num_rows=3,num_cols=4), liars-dice-1", "games")
    assert games == ["fogboard_dark_hex(num_rows=3,num_cols=4)", "liars-dice-1"]
    report = league.run(games, ["random", "heuristic"], 2, progress=False, workers=2)
    assert list(report["table"]) == games
    (row, _) = report["table"][games[0]]
    assert row["games"] == 4 and "mean_probes" in row  # (a board: its metrics)
    done = run_cli("--games", "liars-dice-1,fogboard_dark_hex(board_size=1)")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "league: load string 'fogboard_dark_hex(board_size=1)': fogboard_dark_hex: "
        "parameter 'board_size' must be an int in 2..11, got 1"
    )


def test_a_kind_a_saved_review_cannot_name_is_refused_before_any_game(tmp_path):
    from fogboard_games import bots

    bots.register_kind("two\nlines", bots.BOT_KINDS["random"])  # (put back after the test)
    with pytest.raises(league.LeagueError, match=r"--save-games: bot kind 'two\\nlines' cannot"):
        league.run(["dark-hex-4"], ["two\nlines"], 1, progress=False, save_games=str(tmp_path))
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "args,message",
    [
        (["--games", "nope"], "league: unknown preset 'nope'"),
        (["--bots", "random,random"], "league: --bots names 'random' twice"),
        (["--episodes", "-3"], "league: --episodes must be a positive int, got -3"),
        (["--episodes", "100001"], "league: --episodes is at most 100,000 per seat"),
        (
            ["--episodes", "1" + "0" * 30],
            "argument --episodes: '1000000000000000000000000000000' is not an int of at most 64 bits",
        ),
        (["--seed", "1_0"], "argument --seed: '1_0' is not an int of at most 64 bits"),
        (["--workers", "0"], "league: --workers must be a positive int, got 0"),
        (["--backend", "spark"], "league: --backend must be one of local, ray, got 'spark'"),
        (["--bots", "random,text"], "league: bot kind 'text' needs options (ask) a league"),
        (["--out", "/nonexistent/r.json"], "league: --out '/nonexistent/r.json': its directory"),
    ],
)
def test_cli_refusals_are_one_line_not_a_traceback(args, message):
    done = run_cli(*args)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]  # one line
    assert message in done.stderr and "Traceback" not in done.stderr
