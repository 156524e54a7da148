"""The command line: bench and tour run and report every preset they are asked for.

These check what the commands print and return, never how fast anything
is: speed is measured by `python -m fogboard_games bench`, not by tests.
Every refusal of a bad argument or file is one line on stderr and exit
status 2; --help shows the defaults; the usage line names the command as
it was run (`fogboard`, the console script, or `python -m fogboard_games`).
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

import fogboard_games
from fogboard_games.__main__ import build_parser, main
from fogboard_games.bench import run


def test_bench_measures_ours_beside_cpp(capsys):
    results = run(rounds=1, seconds=0.02, only=["phantom-ttt-3", "recon-hex-5"])
    by_preset = {r["preset"]: r for r in results}
    assert set(by_preset) == {"phantom-ttt-3", "recon-hex-5"}
    ttt = by_preset["phantom-ttt-3"]
    assert ttt["cpp"] == "phantom_ttt"
    assert ttt["plain_ours"] > 0 and ttt["plain_cpp"] > 0 and ttt["clone_ours_us"] > 0
    assert by_preset["recon-hex-5"]["cpp"] is None  # an original variant: no C++ twin
    out = capsys.readouterr().out
    assert "worst plain ratio" in out and "recon-hex-5" in out


def test_tour_plays_every_preset(capsys):
    assert main(["tour"]) == 0
    out = capsys.readouterr().out
    for name in fogboard_games.PRESETS:
        assert name in out


def test_bench_workloads_flag_measures_the_string_workload(capsys):
    assert main(["bench", "--workloads", "--rounds", "1", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    for preset in ("dark-hex-5", "phantom-ttt-3", "liars-dice-classic-1"):
        assert preset in out
    assert "worst string-workload ratio" in out
    # parley has no C++ counterpart: measured alone, - for C++ and the ratio.
    [row] = [line.split() for line in out.splitlines() if line.startswith("parley ")]
    assert row[1] == "-" and float(row[2]) > 0 and row[3:] == ["-", "-"], out
    # Then MCCFR and IS-MCTS, ours beside C++.
    for workload in ("mccfr liars-dice-classic-1", "ismcts dark-hex-5", "ismcts phantom-ttt-3"):
        [line] = [line for line in out.splitlines() if line.startswith(workload)]
        assert float(line.split()[-1]) > 0, line
    assert "worst search ratio" in out


def test_workload_slices_alternate_ours_and_cpp():
    from fogboard_games.bench import interleaved

    calls = []

    def measure(label, rates):
        def rate(k):
            calls.append((label, k))
            return rates[k]

        return rate

    means = interleaved([measure("ours", [1.0, 3.0, 5.0]), measure("cpp", [2.0, 2.0, 8.0])], 3)
    assert means == [3.0, 4.0]
    # Slice by slice, so both meet the machine in the same state.
    assert calls == [("ours", 0), ("cpp", 0), ("ours", 1), ("cpp", 1), ("ours", 2), ("cpp", 2)]


# Refused before anything runs; were a refusal missed, as short a run as can be.
QUICK = ["--rounds", "1", "--seconds", "0.01"]
LEAGUE = ["league", "--games", "parley-tiny", "--bots", "random", "--episodes", "1"]


def refusal(argv, capsys) -> str:
    """What main(argv) printed on refusing: exit status 2, one line on stderr,
    nothing on stdout, no traceback."""
    try:
        status = main(argv)
    except SystemExit as e:  # the parser's own refusals exit
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2, (status, err)
    assert out == "" and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "Error" not in err, err
    return err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["bench", "--rounds", "0"], "bench: --rounds must be a positive int, got 0"),
        (["bench", "--rounds", "x"], "argument --rounds: 'x' is not an int of at most 64 bits"),
        (["bench", "--rounds", "1_0"], "argument --rounds: '1_0' is not an int"),
        (["bench", "--seconds", "0"], "bench: --seconds must be a number of at least 0.01"),
        (["bench", "--seconds", "-1"], "bench: --seconds must be a number of at least 0.01"),
        (["bench", "--seconds", "nan"], "argument --seconds: 'nan' is not a finite decimal"),
        (["bench", "--seconds", "inf"], "argument --seconds: 'inf' is not a finite decimal"),
        (["bench", "--batch", "--batch-size", "0"], "--batch-size must be an int from 1 to 65536"),
        (["bench", "--batch", "--batch-size", "70000"], "--batch-size must be an int from 1 to"),
        (["bench", "--batch-size", "32"], "--batch-size is an option of bench --batch only"),
        (["bench", "--workloads", "--batch"], "--batch: not allowed with argument --workloads"),
        (
            ["bench", "--only", "nope"],
            "--only: 'nope' is not a preset bench measures; it measures dark-hex-4, dark-hex-5,",
        ),
        (["bench", "--only", "dark-hex-5,"], "--only: '' is not a preset bench measures"),
        # (an empty --only was taken for none: the whole bench ran; a short one if it does)
        (["bench", "--only", "", *QUICK], "--only: '' is not a preset bench measures"),
        (["bench", "--solve", "--only", "", *QUICK], "'' is not a preset bench --solve measures"),
        (["bench", "--batch", "--only", "", *QUICK], "'' is not a preset bench --batch measures"),
        # (an empty path was taken for none, the league played)
        ([*LEAGUE, "--out", ""], "league: --out '': is empty; want the path of a regular file"),
        ([*LEAGUE, "--html", ""], "league: --html '': is empty; want the path of a regular file"),
        ([*LEAGUE, "--address", "ray://head:10001"], "--address is an option of --backend ray"),
        ([*LEAGUE, "--backend", "ray", "--address", ""], "--address '' is empty; want a Ray"),
        (["review", "x.json", "--html", ""], "review: --html '': is empty; want the path"),
        (["bench", "--only", "dark-hex-5, nope"], "--only: 'nope' is not a preset bench"),
        (
            ["bench", "--batch", "--only", "nope"],
            "'nope' is not a preset bench --batch measures; it measures phantom-ttt-3, ",
        ),
        (
            ["bench", "--workloads", "--only", "dark-hex-4"],
            "'dark-hex-4' is not a preset bench --workloads measures; it measures dark-hex-5, ",
        ),
        (["play"], "play: the following arguments are required: preset"),
        (["play", "nope"], "play: unknown preset 'nope'; presets: dark-hex-4, "),
        (["play", "dark-hex-4", "--seat", "x"], "argument --seat: 'x' is not an int"),
        (["play", "dark-hex-4", "--seat", "2"], "--seat must be a seat 0..1 of dark-hex-4, got 2"),
        (["play", "dark-hex-4", "--seat", "-1"], "--seat must be a seat 0..1 of dark-hex-4"),
        (["play", "dark-hex-4", "--seed", "1.5"], "argument --seed: '1.5' is not an int"),
        (["play", "dark-hex-4", "--seed", "9" * 5000], "argument --seed: '999"),
        (["play", "dark-hex-4", "--opponent", "nope"], "--opponent 'nope' does not play"),
        (["league", "--workers", "x"], "argument --workers: 'x' is not an int of at most 64 bits"),
        (["league", "--workers", "-1"], "--workers must be a positive int, got -1"),
        ([], "the following arguments are required: COMMAND"),
        (["nope"], "invalid choice: 'nope' (choose from 'bench', 'tour', 'league', 'play'"),
        (["tour", "--fast"], "unrecognized arguments: --fast"),
        (["x" * 5000], "invalid choice: 'xxx"),
        (["play", "x" * 5000], "play: unknown preset 'xxx"),
    ],
)
def test_every_bad_argument_is_refused_in_one_line(argv, message, capsys):
    err = refusal(argv, capsys)
    assert message in err, err
    assert len(err) < 400  # a quoted hostile value is cut short


@pytest.mark.parametrize("command", ["play", "league"])
def test_an_unknown_preset_is_refused_listing_every_preset_whole(command, capsys):
    # A name long enough to push the list past the cut of a long message.
    argv = [command, "dark-hex-4-with-a-longer-name"] if command == "play" else []
    argv = argv or ["league", "--games", "dark-hex-4-with-a-longer-name"]
    err = refusal(argv, capsys)
    assert " ... " not in err  # (the mark of a message cut in the middle)
    listed = err.split("; presets: ", 1)[1].split("; or a load string", 1)[0].split(", ")
    assert listed == sorted(fogboard_games.PRESETS)


def test_an_unknown_opponent_is_said_to_be_no_bot_kind(capsys):
    err = refusal(["play", "dark-hex-4", "--opponent", "alphazero"], capsys)
    assert "there is no bot kind 'alphazero'; known kinds: cfr, heuristic, ismcts, mcts, " in err
    # A kind that plays other games only is named as one.
    err = refusal(["play", "liars-dice", "--opponent", "probe"], capsys)
    assert "no bot kind" not in err
    assert err.strip().endswith("kinds that play it: heuristic, ismcts, mcts, random")


BAD_REVIEWS = {
    "deep": ("[" * 100000, "nests deeper than 32 levels at char 32; a review nests a few"),
    "huge int": ('{"a": ' + "9" * 5000 + "}", "an int of 5000 digits; a review's ints have at"),
    "long negative int": ('{"a": -' + "9" * 30 + "}", "an int of 30 digits"),
    "not UTF-8": (b'{"format": "\xff"}', "byte 12 (0xff) is not UTF-8; a review is UTF-8 JSON"),
    "not UTF-8 after a BOM": (b'\xef\xbb\xbf{"a": "\xff"}', "byte 10 (0xff) is not UTF-8"),
    "not JSON": ("nope", "not JSON (Expecting value: line 1 column 1 (char 0)); a review is a"),
    "not an object": ("[1]", "a review is a JSON object (dict), got [1]"),
    "too large": ("x" * 101, "larger than 100 bytes; a review is a few kB"),
}


@pytest.mark.parametrize("name", BAD_REVIEWS)
def test_review_refuses_every_bad_file_in_one_line(name, tmp_path, capsys, monkeypatch):
    from fogboard_games import saved_review

    content, message = BAD_REVIEWS[name]
    if name == "too large":
        monkeypatch.setattr(saved_review, "MAX_REVIEW_BYTES", 100)  # (the bound is 16 MiB)
    path = tmp_path / "bad.json"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    err = refusal(["review", str(path)], capsys)
    assert err.startswith("review: ") and str(path) in err and message in err, err


def test_review_reads_a_review_saved_with_a_byte_order_mark(tmp_path, capsys):
    import random

    state = fogboard_games.load("dark-hex-4").new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(state.review()).encode())
    assert main(["review", str(path)]) == 0
    assert capsys.readouterr().out.startswith("fogboard_dark_hex(")


def test_review_refuses_a_key_given_twice_as_the_engine_log_reader_does(tmp_path, capsys):
    """json.loads keeps the last of two keys: a file could show `review` one game
    and another reader another. Both readers refuse it by the one parse_json."""
    from fogboard_games.boards import engine_log
    from fogboard_games.core.testing import finished_game

    game = fogboard_games.load("dark-hex-4")
    review = finished_game(game, 3).review()
    other = finished_game(game, 4).review()
    # One object holding both games' keys: json.loads would read the second game.
    path = tmp_path / "twice.json"
    path.write_text(json.dumps(review)[:-1] + ", " + json.dumps(other)[1:])
    assert json.loads(path.read_text()) == other and fogboard_games.load_review(other)
    err = refusal(["review", str(path)], capsys)
    assert "duplicate JSON key 'format'; each key is given once" in err, err
    state = finished_game(game, 3)
    twice = engine_log.dumps(state).replace('"protocol":', '"protocol": 2, "protocol":', 1)
    with pytest.raises(
        engine_log.EngineLogError, match="duplicate JSON key 'protocol'; each key is"
    ):
        engine_log.loads(twice)


def test_review_refuses_a_missing_file_and_a_folder(tmp_path, capsys):
    err = refusal(["review", str(tmp_path / "missing.json")], capsys)
    assert "cannot read a review from" in err and "No such file or directory" in err, err
    err = refusal(["review", str(tmp_path)], capsys)
    assert "cannot read a review from" in err and "a directory, not a regular file" in err, err


@pytest.mark.parametrize("kind", ["a named pipe (FIFO)", "a character device"])
def test_review_refuses_a_pipe_or_a_device_without_waiting(kind, tmp_path):
    """A FIFO's open waits for a writer forever, /dev/zero never ends: refused
    from what they are, in a subprocess so that a wait fails the test, not hangs it."""
    path = tmp_path / "fifo"
    if kind.startswith("a named pipe"):
        os.mkfifo(path)
    else:
        path = "/dev/zero"
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "review", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=pathlib.Path(fogboard_games.__file__).resolve().parent.parent,  # (this checkout's)
    )
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == (
        f"review: cannot read a review from {path}: {kind}, not a regular file; "
        "a review is a file as play --save writes it\n"
    )


def saved_review(tmp_path) -> pathlib.Path:
    from fogboard_games.core.testing import finished_game

    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_game(fogboard_games.load("dark-hex-4"), 3).review()))
    return path


def test_review_never_writes_its_page_over_the_review(tmp_path, capsys):
    review = saved_review(tmp_path)
    text = review.read_bytes()
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.json").symlink_to(review)
    os.link(review, tmp_path / "hard.json")
    for read, out in [
        (review, review),
        (review, tmp_path / "sub" / ".." / "game.json"),  # another spelling
        (review, tmp_path / "link.json"),  # through a symlink
        (tmp_path / "link.json", review),
        (review, tmp_path / "hard.json"),  # a hard link: one file, two names
    ]:
        err = refusal(["review", str(read), "--html", str(out)], capsys)
        assert err == (
            f"review: --html {str(out)!r} is the same file as the review {str(read)!r}, which "
            "it would write over; give --html a path of its own\n"
        )
        assert review.read_bytes() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game.json",
        "hard.json",
        "link.json",
        "sub",
    ]
    assert main(["review", str(review), "--html", str(tmp_path / "page.html")]) == 0


def test_league_never_writes_one_of_its_files_over_another(tmp_path, capsys):
    out, html = tmp_path / "table.json", tmp_path / "table.html"
    for args, clash in [
        (["--out", str(out), "--html", str(out)], f"--html {str(out)!r} is the same file as --out"),
        (
            ["--out", str(out), "--html", f"{out}.journal"],
            f"--html '{out}.journal' is the same file as --out's journal '{out}.journal'",
        ),
    ]:
        err = refusal([*LEAGUE, *args], capsys)
        assert err.startswith(f"league: {clash}") and "give --html a path of its own" in err, err
        assert list(tmp_path.iterdir()) == []  # nothing played, nothing written
    # --resume reads the journal: a page written over it would lose the games it keeps.
    journal = pathlib.Path(f"{out}.journal")
    journal.write_text("kept\n")
    err = refusal([*LEAGUE, "--out", str(out), "--html", str(journal), "--resume"], capsys)
    assert "is the same file as --out's journal" in err and journal.read_text() == "kept\n"
    journal.unlink()
    assert main([*LEAGUE, "--out", str(out), "--html", str(html)]) == 0
    assert out.exists() and html.exists()


def test_bench_python_calls_refuse_before_measuring(capsys):
    from fogboard_games.bench import BenchError, run, run_batch, run_workloads

    with pytest.raises(BenchError, match="--rounds must be a positive int, got 0"):
        run(rounds=0)
    with pytest.raises(BenchError, match=r"--only takes preset names \(a list of str"):
        run_batch(only="phantom-ttt-3")  # a str: `in` would match substrings
    with pytest.raises(BenchError, match="--only: no preset; it measures"):
        run(only=[])
    assert capsys.readouterr().out == ""
    # parley has no search workload: the search table is not asked for it.
    [row] = run_workloads(rounds=1, seconds=0.01, only=["parley"])
    assert row["preset"] == "parley"


@pytest.mark.parametrize("command", [["bench"], ["bench", "--batch"], ["tour"]])
def test_ctrl_c_ends_bench_and_tour_in_one_line(command, capsys, monkeypatch):
    import fogboard_games.bench
    import fogboard_games.tour

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    for module, name in [(fogboard_games.bench, "run"), (fogboard_games.bench, "run_batch")]:
        monkeypatch.setattr(module, name, interrupted)
    monkeypatch.setattr(fogboard_games.tour, "tour", interrupted)
    assert main(command) == 130
    assert capsys.readouterr().err == f"\n{command[0]}: interrupted\n"


def test_help_shows_every_default_of_every_command():
    parser = build_parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(commands.choices) == {"bench", "tour", "league", "play", "review", "solve"}
    for name, sub in commands.choices.items():
        text = " ".join(sub.format_help().split())  # (unwrapped)
        assert text.startswith(f"usage: fogboard {name} "), text
        for action in sub._actions:
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                assert f"(default: {action.default})" in text, (name, action.dest, text)
    # The fixed choices are named: the league's backends (checked by league.run,
    # whose refusal the league tests pin) and bench's modes.
    league = " ".join(commands.choices["league"].format_help().split())
    assert "--backend BACKEND local (processes) or ray (default: local)" in league
    bench = " ".join(commands.choices["bench"].format_help().split())
    assert "[--workloads | --batch | --solve]" in bench and "(default: 4096)" in bench
    assert "(default: all of them)" in bench  # --only: what leaving it out means
    play = " ".join(commands.choices["play"].format_help().split())
    assert "liars-dice-classic-1" in play  # the presets, whole (not split at a hyphen)


def test_the_usage_line_names_the_command_as_it_was_run(capsys):
    refusal(["nope"], capsys)  # called from Python: the installed name
    assert capsys.readouterr() == ("", "")
    with pytest.raises(SystemExit):
        main(["bench", "--rounds", "x"])
    assert capsys.readouterr().err.startswith("fogboard bench: argument --rounds:")
    # The console script pip installs (`pip install .[test]`, as CI does); run
    # on this checkout's package, whichever copy pip installed.
    script = shutil.which("fogboard")
    assert script, "the fogboard console script is not on PATH: pip install '.[test]'"
    root = pathlib.Path(fogboard_games.__file__).resolve().parent.parent
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    runs = {
        "fogboard": [script],
        "python -m fogboard_games": [sys.executable, "-m", "fogboard_games"],
    }
    for name, command in runs.items():
        done = subprocess.run(
            [*command, "bench", "--rounds", "x"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 2 and done.stdout == "", done
        assert done.stderr.startswith(f"{name} bench: argument --rounds: 'x' is not an int")
        assert done.stderr.endswith(f"see {name} bench --help\n") and done.stderr.count("\n") == 1
    done = subprocess.run([script, "--help"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("usage: fogboard [-h] COMMAND"), done


def test_a_reader_gone_away_stops_the_command_quietly():
    # `fogboard tour | head -1`: the pipe closes before the table is written.
    root = pathlib.Path(fogboard_games.__file__).resolve().parent.parent
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])
    )
    child = subprocess.Popen(
        [sys.executable, "-m", "fogboard_games", "tour"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
        env=env,
    )
    child.stdout.close()  # the reader is gone before anything is printed
    _, err = child.communicate(timeout=120)
    assert child.returncode == 141, err
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err
