"""Files written whole and refused before the work (core/files.py), the cfr
cache that uses them (docs/bots.md#cfr), and the command line's refusals of
a path it cannot write (docs/league.md#the-table)."""

from __future__ import annotations

import os
import pathlib
import runpy
import stat
import subprocess
import sys
import textwrap
import threading
import warnings

import pytest

import fogboard_games
from fogboard_games import bots
from fogboard_games.__main__ import main
from fogboard_games.bots import cfr
from fogboard_games.core import files

# Subprocesses import this checkout's package, wherever pytest is started.
ROOT = str(pathlib.Path(__file__).resolve().parent.parent)
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")])),
}


def leftovers(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- write_atomically -------------------------------------------------------


def test_a_file_is_written_whole_and_an_old_one_keeps_its_mode(tmp_path):
    target = tmp_path / "out.json"
    files.write_atomically(str(target), "first\n")
    assert target.read_text() == "first\n" and leftovers(tmp_path) == []
    target.chmod(0o640)
    files.write_atomically(str(target), "second é\n")
    assert target.read_text(encoding="utf-8") == "second é\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640 and leftovers(tmp_path) == []


def test_a_symlink_is_kept_and_its_file_replaced(tmp_path):
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old")
    link.symlink_to(real)
    files.write_atomically(str(link), "new")
    assert link.is_symlink() and real.read_text() == "new" and leftovers(tmp_path) == []


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failure_mid_write_leaves_the_old_file_whole_and_no_temporary(
    tmp_path, monkeypatch, step, error
):
    target = tmp_path / "out.json"
    target.write_text("the old file, whole")
    seen = []

    def fail(*args, **kwargs):
        seen.append(leftovers(tmp_path))  # the temporary file exists by now
        raise error

    if step == "write":
        real_fdopen = os.fdopen

        def fdopen(*args, **kwargs):
            f = real_fdopen(*args, **kwargs)
            f.write = fail
            return f

        monkeypatch.setattr(files.os, "fdopen", fdopen)
    else:
        monkeypatch.setattr(files.os, step, fail)
    with pytest.raises(type(error)):
        files.write_atomically(str(target), "the new file" * 1000)
    monkeypatch.undo()
    assert len(seen) == 1 and len(seen[0]) == 1
    assert target.read_text() == "the old file, whole" and leftovers(tmp_path) == []


def test_a_process_killed_mid_write_leaves_the_old_file_whole(tmp_path):
    """A real death (os._exit after half the text is on disk, before the rename)."""
    target = tmp_path / "out.json"
    target.write_text("the old file, whole")
    child = textwrap.dedent(
        f"""
        import os
        from fogboard_games.core import files
        real_fdopen = os.fdopen
        def fdopen(*args, **kwargs):
            f = real_fdopen(*args, **kwargs)
            def write(text):
                f.buffer.write(text[: len(text) // 2].encode())
                f.buffer.flush()
                os._exit(9)
            f.write = write
            return f
        files.os.fdopen = fdopen
        files.write_atomically({str(target)!r}, "x" * 100000)
        """
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, timeout=60, env=ENV)
    assert done.returncode == 9, done.stderr
    assert target.read_text() == "the old file, whole"
    # What a hard kill leaves: half the new text in a hidden temporary beside it.
    (tmp,) = leftovers(tmp_path)
    assert tmp.startswith(".out.json.") and (tmp_path / tmp).stat().st_size == 50000


@pytest.mark.parametrize("bad", ["/dev/full", "folder", "folder/"])
def test_write_atomically_never_replaces_a_folder_or_a_device(tmp_path, bad):
    (tmp_path / "folder").mkdir()
    path = bad if bad.startswith("/") else str(tmp_path / bad)
    before = os.stat(path)
    with pytest.raises(OSError):
        files.write_atomically(path, "x")
    after = os.stat(path)
    assert (after.st_ino, after.st_mode, after.st_rdev) == (
        before.st_ino,
        before.st_mode,
        before.st_rdev,
    )
    assert leftovers(tmp_path) == [] and leftovers(tmp_path / "folder") == []


# -- check_writable ---------------------------------------------------------


@pytest.mark.parametrize(
    "bad,why",
    [
        ("{tmp}", "is a directory, not a file"),
        ("{tmp}/", "names a directory, not a file"),
        ("/dev/full", "exists and is not a regular file"),
        ("/dev/null", "exists and is not a regular file"),
        ("{tmp}/missing/out.json", "its directory does not exist"),
        ("{tmp}/a-file/out.json", "a part of its directory is a file"),
        ("{tmp}/" + "n" * 300, "its name is longer than the 255 bytes"),
        ("", "is empty"),
    ],
    ids=["folder", "slash", "dev-full", "dev-null", "missing", "under-a-file", "long", "empty"],
)
def test_check_writable_refuses_each_kind_of_bad_path_in_one_line(tmp_path, bad, why):
    (tmp_path / "a-file").write_text("")
    path = bad.format(tmp=tmp_path)
    with pytest.raises(ValueError) as e:
        files.check_writable(path, "--out")
    message = str(e.value)
    assert message.startswith(f"--out {path!r}: {why}") and "\n" not in message
    assert message.endswith(files.WANTED)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # nothing made


def test_check_writable_refuses_a_folder_no_file_can_be_created_in(tmp_path, monkeypatch):
    """Tried for real: a read-only folder (root writes there all the same), then a
    folder whose every create fails as a read-only file system's would."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        if os.geteuid() == 0:
            files.check_writable(str(folder / "out.json"), "--out")
        else:
            with pytest.raises(ValueError, match="cannot create a file in its directory"):
                files.check_writable(str(folder / "out.json"), "--out")
    finally:
        folder.chmod(0o755)

    def read_only(path, *args, **kwargs):
        raise OSError(30, "Read-only file system", path)

    monkeypatch.setattr(files.os, "open", read_only)
    with pytest.raises(ValueError) as e:
        files.check_writable(str(tmp_path / "out.json"), "--save")
    assert f"--save '{tmp_path}/out.json': cannot create a file in its directory " in str(e.value)
    assert "(Read-only file system)" in str(e.value)


def test_check_writable_accepts_a_new_or_existing_file_and_touches_neither(tmp_path):
    files.check_writable(str(tmp_path / "new.json"), "--out")
    old = tmp_path / "old.json"
    old.write_text("kept")
    files.check_writable(str(old), "--out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]
    assert old.read_text() == "kept"


def test_check_writable_refuses_a_read_only_file_a_rename_would_overwrite(tmp_path, monkeypatch):
    old = tmp_path / "old.json"
    old.write_text("kept")
    old.chmod(0o444)
    if os.access(old, os.W_OK):  # root may write any file: then it is accepted
        files.check_writable(str(old), "--out")
        # ... and a user who may not is refused: seen as such a user sees it.
        monkeypatch.setattr(files.os, "access", lambda path, mode, **kw: False)
    with pytest.raises(ValueError, match="exists and is read-only"):
        files.check_writable(str(old), "--out")
    assert old.read_text() == "kept"


# -- the cfr cache ----------------------------------------------------------

GAME = "mind-bluff-tiny"
ITERATIONS = 2  # ~1 s to solve on two cores


@pytest.fixture(scope="module")
def solved():
    return cfr.solve(fogboard_games.load(GAME), ITERATIONS)


@pytest.fixture
def cache(tmp_path, monkeypatch, solved):
    """An empty cache folder, a fresh process's memory, and a count of the solves."""
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))
    monkeypatch.setattr(cfr, "_SOLVED", {})
    monkeypatch.setattr(cfr, "_WARNED", set())
    solves = []

    def solve(game, iterations):
        solves.append(str(game))
        return solved

    monkeypatch.setattr(cfr, "solve", solve)
    return tmp_path, solves


def new_bot():
    cfr._SOLVED.clear()  # as a new process would: from the file
    return bots.make_bot("cfr", fogboard_games.load(GAME), 0, iterations=ITERATIONS)


def cache_file():
    return cfr.policy_path(fogboard_games.load(GAME), ITERATIONS)


def flip_a_digit(text: str) -> str:
    i = text.index("0.", len(text) // 2) + 2  # a probability, the JSON still sound
    return text[:i] + ("1" if text[i] != "1" else "2") + text[i + 1 :]


def spoil(path, damaged):
    if isinstance(damaged, bytes):
        path.write_bytes(damaged)
    else:
        path.write_text(damaged)


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # cut short by a crash
        lambda text: text[:-1],  # one byte short
        lambda text: "",
        flip_a_digit,
        lambda text: text.replace('"sha256"', '"sha2"'),
        lambda text: "[" * 100000,
        lambda text: "[]",
        lambda text: "\ufffd" + text,
        lambda text: b"\xff" + text.encode(),
    ],
    ids=[
        "half",
        "last-byte",
        "empty",
        "a-digit",
        "no-sha256",
        "deep",
        "a-list",
        "not-json",
        "not-utf8",
    ],
)
def test_a_damaged_cache_file_is_reported_once_and_solved_again(cache, solved, damage):
    folder, solves = cache
    bot = new_bot()
    path = cache_file()
    assert solves == [str(fogboard_games.load(GAME))] and bot.policy == solved
    whole = path.read_text()
    spoil(path, damage(whole))
    with pytest.warns(RuntimeWarning) as caught:
        bot = new_bot()
    assert len(caught) == 1 and str(path) in str(caught[0].message)
    assert "solving it again" in str(caught[0].message)
    assert len(solves) == 2 and bot.policy == solved
    # Rewritten whole: the next bot reads it, solving nothing.
    assert path.read_text() == whole and leftovers(folder) == []
    assert new_bot().policy == solved and len(solves) == 2
    # Reported once per file per process: damaged again, solved again, silently.
    spoil(path, damage(whole))
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        assert new_bot().policy == solved
    assert again == [] and len(solves) == 3 and path.read_text() == whole


def test_a_cache_that_cannot_be_written_warns_and_keeps_the_policy(cache, solved, monkeypatch):
    folder, solves = cache
    (folder / "a-file").write_text("")
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(folder / "a-file" / "cache"))
    with pytest.warns(RuntimeWarning, match="cannot write the cfr cache.*kept in this process"):
        bot = bots.make_bot("cfr", fogboard_games.load(GAME), 1, iterations=ITERATIONS)
    assert bot.policy == solved and len(solves) == 1


CHILD = """
import os, sys, time
import fogboard_games
from fogboard_games import bots
from fogboard_games.bots import cfr

role, me, other = sys.argv[1:4]
game = fogboard_games.load("mind-bluff-tiny")
path = cfr.policy_path(game, 2)
solve = cfr.solve
deadline = time.monotonic() + 60


def solve_then_wait(game, iterations):
    if role == "reader":
        sys.exit("the reader found no cache file and had to solve")
    policy = solve(game, iterations)
    open(me, "w").close()
    while not os.path.exists(other):  # both have solved before either writes
        if time.monotonic() > deadline:
            sys.exit("the other solver never finished")
        time.sleep(0.005)
    return policy


def slow_fsync(fd, fsync=os.fsync):
    time.sleep(0.2)  # a slow disk: both writes are in flight at once
    fsync(fd)


cfr.solve, os.fsync = solve_then_wait, slow_fsync
if role == "reader":  # reads the file the moment it appears
    while not path.exists():
        if time.monotonic() > deadline:
            sys.exit("no cache file appeared")
        time.sleep(0.0005)
bot = bots.make_bot("cfr", game, 0, iterations=2)
print(role, len(bot.policy))
"""


def test_two_processes_filling_the_cache_at_once_both_succeed(tmp_path, solved):
    """Two real processes solve at once and write the same file at once (on a
    disk slowed down so the writes overlap); a third reads it the moment it
    appears. Each gets the policy, none sees a
    damaged file (no warning), and one whole file is left."""
    env = {**ENV, "FOGBOARD_GAMES_CACHE": str(tmp_path / "cache")}
    flags = [str(tmp_path / "a.solved"), str(tmp_path / "b.solved")]
    runs = [("solver", flags[0], flags[1]), ("solver", flags[1], flags[0]), ("reader", "", "")]
    children = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, *run],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for run in runs
    ]
    try:
        outputs = [child.communicate(timeout=120) for child in children]
    finally:
        for child in children:
            child.kill()
    for child, (_, err) in zip(children, outputs):
        assert child.returncode == 0 and "Warning" not in err, err
    assert sorted(out for out, _ in outputs) == ["reader 8143\n"] + ["solver 8143\n"] * 2
    (path,) = (tmp_path / "cache").iterdir()  # no temporary file left
    game = fogboard_games.load(GAME)
    assert path.name == cfr.policy_path(game, ITERATIONS).name
    assert cfr.load_policy(path, game, ITERATIONS) == solved


# -- check_distinct and read_regular -------------------------------------------


def test_check_distinct_finds_one_file_under_any_of_its_names(tmp_path):
    real = tmp_path / "game.json"
    real.write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.json").symlink_to(real)
    os.link(real, tmp_path / "hard.json")
    names = [
        real,
        tmp_path / "sub" / ".." / "game.json",
        tmp_path / "link.json",
        tmp_path / "hard.json",
        os.path.relpath(real),
    ]
    for name in names:
        assert files.same_file(str(real), str(name))
        with pytest.raises(ValueError) as e:
            files.check_distinct({"the review": str(real), "--html": str(name), "--out": None})
        assert str(e.value) == (
            f"--html {str(name)!r} is the same file as the review {str(real)!r}, which it "
            "would write over; give --html a path of its own"
        )
    # Files not written yet are compared by their resolved paths.
    new = tmp_path / "new.json"
    assert files.same_file(str(new), str(tmp_path / "sub" / ".." / "new.json"))
    assert not files.same_file(str(new), str(real))
    files.check_distinct({"--out": str(new), "--html": str(tmp_path / "new.html"), "x": None})


def test_read_regular_refuses_what_is_not_a_regular_file_before_reading(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    for path, kind in [
        (fifo, "a named pipe (FIFO)"),
        ("/dev/zero", "a character device"),
        (tmp_path / "folder", "a directory"),
    ]:
        with pytest.raises(OSError) as e:
            files.read_regular(str(path), 10)
        assert e.value.strerror == f"{kind}, not a regular file"
    regular = tmp_path / "game.json"
    regular.write_bytes(b"x" * 100)
    assert files.read_regular(str(regular), 10) == b"x" * 11  # (the caller refuses the 11th)


def test_read_regular_checks_the_file_it_opened_not_only_the_path(tmp_path, monkeypatch):
    """A path replaced by a pipe between the stat and the open (or a stat that
    lied): the open does not wait for a writer, and the open file is refused."""
    regular, fifo = tmp_path / "game.json", tmp_path / "fifo"
    regular.write_text("{}")
    os.mkfifo(fifo)
    real_stat = os.stat
    monkeypatch.setattr(files.os, "stat", lambda path, *a, **k: real_stat(regular))
    got = []

    def read():
        try:
            files.read_regular(str(fifo), 10)
        except OSError as e:
            got.append(e.strerror)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # its open waits for a writer: let it go, and fail
        os.close(os.open(fifo, os.O_WRONLY))
    assert got == ["a named pipe (FIFO), not a regular file"]


# -- the command line refuses before the work --------------------------------

BAD_PATHS = {
    "a folder": "{tmp}",
    "a device": "/dev/full",
    "a missing folder": "{tmp}/missing/out.json",
}


@pytest.mark.parametrize("bad", BAD_PATHS.values(), ids=BAD_PATHS.keys())
def test_league_out_is_refused_before_any_game(tmp_path, capsys, bad):
    path = bad.format(tmp=tmp_path)
    args = ["league", "--games", "parley-tiny", "--bots", "random", "--episodes", "1"]
    assert main([*args, "--out", path]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing played: the table would be printed before the write
    assert err.startswith(f"league: --out {path!r}: ") and err.count("\n") == 1


@pytest.mark.parametrize("bad", BAD_PATHS.values(), ids=BAD_PATHS.keys())
def test_play_save_is_refused_before_the_first_prompt(tmp_path, bad):
    path = bad.format(tmp=tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "play", "phantom-ttt-3", "--save", path],
        input="",  # no move: a game that started would print its header and prompt
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"play: --save {path!r}: ") and done.stderr.count("\n") == 1


def test_the_small_league_example_refuses_its_out_before_any_game(tmp_path, monkeypatch, capsys):
    example = pathlib.Path(__file__).resolve().parent.parent / "examples" / "small_league.py"
    monkeypatch.setattr(sys, "argv", [example.name, "--out", str(tmp_path)])
    with pytest.raises(SystemExit) as e:
        runpy.run_path(str(example), run_name="__main__")
    assert (
        e.value.code
        == f"small_league: --out {str(tmp_path)!r}: is a directory, not a file; {files.WANTED}"
    )
    assert capsys.readouterr().out == ""  # no game played
