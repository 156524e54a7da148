"""The league as a page (docs/league.md#the-page, #ratings, #saved-games): its
numbers are its JSON's, its ratings equal OpenSpiel's, every row links to
its saved games, a resumed league still saves them all, and a hostile bot
kind's name stays text."""

from __future__ import annotations

import json
import os
from urllib.parse import unquote, urlsplit

import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games import bots, league, pages
from fogboard_games.__main__ import main
from fogboard_games.league import ratings, saving

HOSTILE = "<img src=x onerror=window.pwned=1></script><b>"


@pytest.fixture(scope="module")
def hostile_league(tmp_path_factory):
    """A small league with a kind named as markup, written as JSON, page and saved games."""
    saved = dict(bots.BOT_KINDS)
    bots.BOT_KINDS[HOSTILE] = bots.BOT_KINDS["random"]
    try:
        folder = tmp_path_factory.mktemp("league")
        out, page, games = folder / "l.json", folder / "page" / "l.html", folder / "games"
        page.parent.mkdir()
        code = main(
            ["league", "--games", "dark-hex-4,parley-tiny", "--bots", f"heuristic,{HOSTILE}"]
            + ["--episodes", "3", "--out", str(out), "--html", str(page)]
            + ["--save-games", str(games)]
        )
        assert code == 0
    finally:
        bots.BOT_KINDS.clear()
        bots.BOT_KINDS.update(saved)
    return json.loads(out.read_text()), page


def test_the_page_shows_its_json_numbers_and_links_every_row_to_its_reviews(
    hostile_league, watched_page
):
    report, path = hostile_league
    page = watched_page.page
    page.goto(path.as_uri())
    sections = page.query_selector_all("section.game")
    assert [s.get_attribute("data-preset") for s in sections] == list(report["table"])
    swept = []
    for section in sections:
        preset = section.get_attribute("data-preset")
        rows = section.query_selector_all("table.matchups tbody tr")
        assert len(rows) == len(report["table"][preset])
        for tr, row in zip(rows, report["table"][preset]):
            assert tr.query_selector("td.kind").text_content() == row["kind"]
            assert tr.query_selector("td.against").text_content() == row["against"]
            for key, shown in [
                ("games", str(row["games"])),
                ("mean_score", f"{row['mean_score']:+.3f}"),
                ("ci95", f"{row['ci95']:.3f}"),
                ("wins", str(row["wins"])),
                ("losses", str(row["losses"])),
                ("mean_length", f"{row['mean_length']:.1f}"),
            ]:
                cell = tr.query_selector(f"td.{key}")
                assert cell.text_content() == shown, (preset, key)
                assert float(cell.get_attribute("data-value")) == row[key]
            # Every saved game of the row is linked, relative to the page: its
            # review, and its review page drawn from that review.
            games = tr.query_selector_all("td.saved span.game")
            assert len(games) == row["games"]
            here = unquote(urlsplit(page.url).path).rsplit("/", 1)[0] + "/"
            for game in games:
                href = game.query_selector("a.review").get_attribute("href")
                shown = game.query_selector("a.replay").get_attribute("href")
                for link in (href, shown):
                    assert not urlsplit(link).scheme and not link.startswith("/")
                review = json.loads(open(os.path.normpath(here + unquote(href))).read())
                assert fogboard_games.load_review(review).is_terminal()
                replay = open(os.path.normpath(here + unquote(shown))).read()
                assert replay == pages.review_page(review)
        # The plot: one interval per row, mean +- the 95% half-width.
        bars = section.query_selector_all("svg.plot g.interval")
        assert len(bars) == len(rows)
        for bar, row in zip(bars, report["table"][preset]):
            assert float(bar.get_attribute("data-mean")) == row["mean_score"]
            assert float(bar.get_attribute("data-low")) == row["mean_score"] - row["ci95"]
            assert float(bar.get_attribute("data-high")) == row["mean_score"] + row["ci95"]
        rated = report["ratings"][preset]
        cells = section.query_selector_all("table.ratings tbody tr")
        if rated["elo"] is None:  # a sweep: Elo undefined, and the page says why
            swept.append(preset)
            said = section.query_selector("p.elo-undefined").text_content()
            assert said == "Elo undefined: " + rated["elo_undefined"]
            assert len(cells) == len(rated["alpharank"]) == 2
            for tr, alpha in zip(cells, rated["alpharank"]):
                assert tr.query_selector("td.kind").text_content() == alpha["kind"]
                assert tr.query_selector("td.elo").get_attribute("data-value") == "null"
                assert tr.query_selector("td.rank").text_content() == str(alpha["rank"])
            continue
        assert len(cells) == len(rated["elo"]) == 2
        for tr, elo, alpha in zip(cells, rated["elo"], rated["alpharank"]):
            assert tr.query_selector("td.kind").text_content() == elo["kind"]
            assert tr.query_selector("td.elo").text_content() == f"{elo['elo']:+.1f}"
            assert float(tr.query_selector("td.elo").get_attribute("data-value")) == elo["elo"]
            interval = tr.query_selector("td.interval")
            assert interval.text_content() == f"[{elo['low']:+.1f}, {elo['high']:+.1f}]"
            assert float(interval.get_attribute("data-low")) == elo["low"]
            assert float(tr.query_selector("td.mass").get_attribute("data-value")) == alpha["mass"]
            assert tr.query_selector("td.rank").text_content() == str(alpha["rank"])
    assert swept == ["dark-hex-4"]  # (heuristic wins every game there: both cases are shown)
    # The embedded report is the JSON file's, and the hostile name ran nothing.
    embedded = page.evaluate("JSON.parse(document.getElementById('report').textContent)")
    assert embedded == report
    assert page.evaluate("window.pwned") is None
    assert page.query_selector_all("img") == [] and page.query_selector_all("b") == []
    assert HOSTILE in page.text_content("body")


def test_in_a_narrow_window_the_tables_scroll_and_the_page_does_not(hostile_league, watched_page):
    _, path = hostile_league
    page = watched_page.page
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(path.as_uri())
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways page
    boxes = page.query_selector_all("section.game .scroll")
    tables = page.query_selector_all("section.game table")
    assert tables and all(
        t.evaluate("(t) => t.parentElement.className") == "scroll" for t in tables
    )
    wide = [b for b in boxes if b.evaluate("(b) => b.scrollWidth > b.clientWidth")]
    assert wide  # (the matchups' table is wider than the window: the test shows something)
    for box in wide:
        # Scrolled to its end, the box shows its content's right edge inside the window.
        box.evaluate("(b) => { b.scrollLeft = b.scrollWidth; }")
        right = box.evaluate(
            "(b) => Math.max(...[...b.querySelectorAll('th, td, svg')]"
            ".map((e) => e.getBoundingClientRect().right))"
        )
        assert right <= width + 0.5


def test_the_page_escapes_markup_and_closes_no_script_early(hostile_league):
    _, path = hostile_league
    text = path.read_text()
    assert HOSTILE not in text and "&lt;img src=x" in text
    embedded = text.split('<script type="application/json" id="report">', 1)[1]
    assert "</script>" not in embedded.split("</script>", 1)[0]  # (the first one closes it)
    assert "\\u003c/script>" in embedded


def test_each_row_folder_holds_the_games_the_row_counts(hostile_league):
    report, _ = hostile_league
    saved = saving.saved_games(report)
    for preset, rows in report["table"].items():
        for row in rows:
            folder = saving.row_folder(report["save_games"], preset, row["kind"], row["against"])
            # (a name as markup is one path part: nothing outside the folder)
            assert os.path.dirname(os.path.dirname(os.path.dirname(folder))) == report["save_games"]
            names = sorted(os.listdir(folder))
            files = [n for n in names if n.endswith(".json")]
            # each review with its review page beside it, and nothing else
            assert names == sorted(files + [n[:-5] + ".html" for n in files])
            assert len(files) == row["games"]
            assert (
                sorted(map(os.path.basename, saved[preset][row["kind"], row["against"]])) == files
            )
            scores = []
            for name in files:
                seat = int(name.split("-")[0].removeprefix("seat"))
                review = json.loads(open(os.path.join(folder, name)).read())
                assert review["game"] == fogboard_games.load(preset).get_type().short_name
                # The review names every seat's kind: the row's in its seat.
                kinds = review["seat_kinds"]
                assert kinds[seat] == row["kind"]
                assert set(kinds[:seat] + kinds[seat + 1 :]) == {row["against"]}
                scores.append(review["returns"][seat])
            assert sum(scores) / len(scores) == pytest.approx(row["mean_score"])


def test_elo_is_openspiels_fit_centred_with_a_bootstrap_interval_and_alpharank_orders():
    # 0 beats 1 seven games of ten, 1 beats 2 as often; two draws between 0 and 2.
    games = [(0, 1, False)] * 7 + [(1, 0, False)] * 3 + [(1, 2, False)] * 7
    games += [(2, 1, False)] * 3 + [(0, 2, True)] * 2
    rated = ratings.rate(["a", "b", "c"], games, seed=3)
    win = [[0, 7, 0], [3, 0, 7], [0, 3, 0]]
    draw = [[0, 0, 2], [0, 0, 0], [2, 0, 0]]
    fit = np.array(pyspiel.elo.compute_ratings_from_matrices(win, draw))
    assert [e["elo"] for e in rated["elo"]] == pytest.approx(list(fit - fit.mean()))
    assert rated["elo"][0]["elo"] > rated["elo"][1]["elo"] > rated["elo"][2]["elo"]
    for e in rated["elo"]:
        assert e["low"] < e["elo"] < e["high"]
    assert [a["rank"] for a in rated["alpharank"]] == [1, 2, 3]
    assert sum(a["mass"] for a in rated["alpharank"]) == pytest.approx(1)
    assert ratings.rate(["a", "b", "c"], games, seed=3) == rated  # seeded: the same report


def test_alpharank_equals_openspiels_in_the_infinite_alpha_limit():
    # Ours is computed without OpenSpiel's module, which imports matplotlib and
    # networkx (the test extra has both); it must give OpenSpiel's numbers.
    import warnings

    from open_spiel.python.egt import alpharank

    rng = np.random.default_rng(7)
    for trial in range(200):
        n = int(rng.integers(2, 7))
        win = rng.integers(0, 6, (n, n))
        if trial % 3 == 0:  # lopsided pairs and ties, where the limit's cases differ
            win[rng.random((n, n)) < 0.5] = 0
        np.fill_diagonal(win, 0)
        draw = np.triu(rng.integers(0, 3, (n, n)), 1)
        draw = draw + draw.T
        played = win + win.T + draw
        share = np.where(played > 0, (win + draw / 2) / np.maximum(played, 1), 0.5)
        np.fill_diagonal(share, 0.5)
        with warnings.catch_warnings():  # (its exp() overflows for lopsided payoffs)
            warnings.simplefilter("ignore", RuntimeWarning)
            pi = alpharank.compute([share], use_inf_alpha=True, verbose=False)[2]
        assert ratings._alpharank(win, draw) == pytest.approx(pi, abs=1e-12)


def test_a_sweep_has_no_elo_and_says_why_and_a_near_sweep_an_open_ended_interval():
    # 10-0: the maximum-likelihood difference is infinite; OpenSpiel's
    # smoothing and a bootstrap of a sweep gave [+600.1, +600.1].
    rated = ratings.rate(["heuristic", "random"], [(0, 1, False)] * 10, seed=0)
    assert rated["elo"] is None and rated["undefined"] is None
    assert rated["elo_undefined"].startswith("heuristic won all 10 games against random: ")
    assert "infinite" in rated["elo_undefined"]
    assert [a["rank"] for a in rated["alpharank"]] == [1, 2]  # alpha-rank still orders them
    printed = league.table.format_ratings(rated)
    assert printed[1] == "Elo undefined: " + rated["elo_undefined"]
    assert [line.split()[:3] for line in printed[3:]] == [
        ["heuristic", "-", "-"],
        ["random", "-", "-"],
    ]
    # A draw is half a win each way: 9 wins and a draw have a finite fit.
    assert ratings.rate(["a", "b"], [(0, 1, False)] * 9 + [(0, 1, True)], 0)["elo"] is not None
    # 39-1: a third of the resamples are sweeps, so the winner's upper end
    # (and the loser's lower) is unbounded; the other end is finite.
    games = [(0, 1, False)] * 39 + [(1, 0, False)]
    top, bottom = ratings.rate(["a", "b"], games, seed=0)["elo"]
    assert top["high"] is None and bottom["low"] is None
    assert 0 < top["low"] < top["elo"] and bottom["elo"] < bottom["high"] < 0
    assert league.table.interval_text(top["low"], None) == f"[{top['low']:+.1f}, +inf]"
    # Three kinds, one sweeping both others: Elo undefined, naming the groups.
    games = [(0, 1, False)] * 5 + [(0, 2, False)] * 5 + [(1, 2, False)] * 3 + [(2, 1, False)] * 3
    rated = ratings.rate(["a", "b", "c"], games, seed=0)
    assert rated["elo_undefined"].startswith("a won all 10 games against b and c: ")


@pytest.mark.parametrize(
    "kinds,games,why",
    [
        (["a"], [], "one kind played"),
        (["a", "b"], [(0, 1, True)] * 4, "every game between kinds was drawn"),
    ],
)
def test_ratings_are_undefined_with_one_kind_or_draws_only(kinds, games, why):
    rated = ratings.rate(kinds, games, seed=0)
    assert why in rated["undefined"] and rated["elo"] is None and rated["alpharank"] is None


def test_a_game_between_kinds_is_won_by_the_kind_of_every_best_seat():
    job = league.Job("parley-tiny", ("a", "b", "b"), (0,), 0, 3, 0)
    outcomes = [
        league.Outcome([5.0, 1.0, 2.0], 5, [{}] * 3),  # a's seat alone best
        league.Outcome([1.0, 4.0, 4.0], 5, [{}] * 3),  # both b seats best: b
        league.Outcome([4.0, 4.0, 0.0], 5, [{}] * 3),  # a and b share the best: a draw
    ]
    kinds, games = ratings.head_to_head([job], [outcomes])["parley-tiny"]
    assert kinds == ["a", "b"] and games == [(0, 1, False), (1, 0, False), (0, 1, True)]


def test_a_resumed_league_saves_every_game_once_each_job_journaled_has_its_games(
    tmp_path, monkeypatch
):
    games, out = tmp_path / "games", tmp_path / "l.json"
    journal = league.journal_path(str(out))
    recorded = league.Journal.record

    def record(self, index, job, outcomes):
        # The journal holds only jobs whose reviews are on disk already.
        for seat in job.focal:
            for e in range(job.first, job.first + job.count):
                assert os.path.isfile(saving.review_path(str(games), job, seat, e))
        recorded(self, index, job, outcomes)

    monkeypatch.setattr(league.Journal, "record", record)
    failing = {"on": True}
    real = bots.BOT_KINDS["random"]

    def flaky(game, player, seed=0):
        if failing["on"] and "parley" in game.get_type().short_name:
            raise RuntimeError("a bot that fails")
        return real(game, player, seed=seed)

    bots.BOT_KINDS["flaky"] = flaky
    args = (["dark-hex-4", "parley-tiny"], ["flaky"], 2)
    with pytest.raises(league.JobsFailed):
        league.run(*args, progress=False, journal=journal, save_games=str(games))
    assert os.listdir(games) == ["dark-hex-4"]  # the jobs that finished, saved
    failing["on"] = False
    report = league.run(*args, progress=False, journal=journal, resume=True, save_games=str(games))
    for rows in saving.saved_games(report).values():
        for paths in rows.values():
            assert all(os.path.isfile(p) for p in paths)
    whole = league.run(*args, progress=False, save_games=str(tmp_path / "again"))
    assert {k: v for k, v in report.items() if k != "save_games"} == {
        k: v for k, v in whole.items() if k != "save_games"
    }


def test_save_games_refuses_a_file_before_any_game(tmp_path):
    a_file = tmp_path / "f"
    a_file.write_text("")
    with pytest.raises(league.LeagueError, match="--save-games .*want a folder"):
        league.run(["dark-hex-4"], ["random"], 1, progress=False, save_games=str(a_file))


def test_reviews_come_back_from_worker_processes_as_they_are_played_in_process(tmp_path):
    args = (["dark-hex-4", "liars-dice-1"], ["random", "heuristic"], 2)
    here = league.run(*args, progress=False, save_games=str(tmp_path / "here"))
    there = league.run(*args, workers=2, progress=False, save_games=str(tmp_path / "there"))
    assert here["table"] == there["table"] and here["ratings"] == there["ratings"]
    for rows in saving.saved_games(here).values():
        for paths in rows.values():
            for path in paths:
                twin = os.path.join(tmp_path / "there", os.path.relpath(path, tmp_path / "here"))
                assert open(path).read() == open(twin).read()


def test_html_is_refused_before_any_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(league, "run", lambda *a, **k: pytest.fail("a game was played"))
    code = main(["league", "--games", "dark-hex-4", "--html", str(tmp_path)])
    assert code == 2 and "--html" in capsys.readouterr().err
