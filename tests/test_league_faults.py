"""The league keeps what it has played (docs/league.md#the-journal-and---resume):
killed with SIGKILL or stopped with Ctrl-C mid-run it resumes to the report
of an uninterrupted run; a local worker that dies is named by its job while
the others are kept; a Ray worker killed mid-run is retried.

The fault bots are test-only kinds registered by tests/league_fault_bots.py,
which the subprocess leagues register before the command line runs.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shlex
import signal
import subprocess
import sys
import time

import league_fault_bots
import pytest

from fogboard_games import league
from fogboard_games.bots import base

TESTS = pathlib.Path(__file__).resolve().parent
ROOT = TESTS.parent
LAUNCH = (
    "import sys, league_fault_bots; league_fault_bots.register(); "
    "from fogboard_games.__main__ import main; sys.exit(main(sys.argv[1:]))"
)
# 6 jobs of 10 games; `slow` makes each job take about a second, so a
# signal lands mid-run, and playing as `random` its games do not depend on it.
ARGS = ["--games", "dark-hex-4", "--bots", "random,slow", "--episodes", "30", "--seed", "4"]
JOBS = 6


def command(*args: str) -> list[str]:
    return [sys.executable, "-c", LAUNCH, "league", *args]


def environment(slow: float = 0.0) -> dict:
    env = dict(os.environ, FOGBOARD_TEST_SLOW=str(slow))
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT), env.get("PYTHONPATH", "")])
    return env


def run(*args: str, slow: float = 0.0):
    return subprocess.run(
        command(*args), cwd=ROOT, env=environment(slow), capture_output=True, text=True, timeout=120
    )


def table_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if not line.startswith("wrote ")]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "league.json"
    done = run(*ARGS, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert not os.path.exists(league.journal_path(str(out)))  # removed once the report is written
    return json.loads(out.read_text()), table_lines(done.stdout)


def journal_lines(path: pathlib.Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize(
    "sig,workers", [(signal.SIGKILL, "1"), (signal.SIGINT, "1"), (signal.SIGINT, "2")]
)
def test_a_signalled_league_resumes_to_the_uninterrupted_report(
    tmp_path, uninterrupted, sig, workers
):
    out = tmp_path / "league.json"
    journal = pathlib.Path(league.journal_path(str(out)))
    args = [*ARGS, "--workers", workers, "--out", str(out)]
    with open(tmp_path / "stderr", "w+") as err:
        # Output to a file, not a pipe: after SIGKILL, nothing waits for the
        # pipe's other holders.
        proc = subprocess.Popen(
            command(*args),
            cwd=ROOT,
            env=environment(slow=0.01),
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        try:
            deadline = time.monotonic() + 60
            while journal_lines(journal) < 2:  # the header and one finished job
                assert proc.poll() is None and time.monotonic() < deadline, "no job finished"
                time.sleep(0.02)
            proc.send_signal(sig)
            code = proc.wait(timeout=30)
        finally:
            proc.kill()
            proc.wait(timeout=30)
        err.seek(0)
        stderr = err.read()
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL
        again = [*args, "--resume"]
    else:
        assert code == 130, stderr
        message = stderr.strip().splitlines()[-1]
        assert "league: interrupted; the finished jobs are in" in message
        assert "Traceback" not in stderr
        # The message names the exact command that finishes the league.
        again = shlex.split(message.split("finish with: ", 1)[1])
        assert again[:4] == ["python", "-m", "fogboard_games", "league"]
        again = again[4:]
        assert again[-1] == "--resume"
    kept = journal_lines(journal) - 1
    assert 1 <= kept < JOBS  # stopped mid-run, with what it had finished
    done = run(*again)
    assert done.returncode == 0, done.stderr
    assert f"resuming {journal}: {kept} of {JOBS} jobs done" in done.stderr
    report, table = uninterrupted
    assert json.loads(out.read_text()) == report
    assert table_lines(done.stdout) == table
    assert not journal.exists()


def test_a_line_cut_off_mid_write_is_dropped_with_a_note(tmp_path):
    path = str(tmp_path / "league.json.journal")
    args = (["dark-hex-4"], ["random", "probe"], 25)
    whole = league.run(*args, seed=2, progress=False, journal=path)
    lines = open(path, "rb").read().split(b"\n")
    assert len(lines) == 1 + 6 + 1  # header, 6 jobs, "" after the last newline
    # A kill mid-write: two jobs lost, the second cut off.
    with open(path, "wb") as f:
        f.write(b"\n".join(lines[:5]) + b"\n" + lines[5][:30])
    notes = []
    again = league.run(*args, seed=2, progress=False, journal=path, resume=True, note=notes.append)
    assert again == whole
    assert notes[0].endswith("dropped a last line cut off mid-write; its job is played again")
    assert notes[1] == f"resuming {path}: 4 of 6 jobs done"
    # The cut line was removed before the replayed jobs were appended.
    assert open(path, "rb").read().split(b"\n")[:5] == lines[:5]
    notes.clear()
    assert league.run(*args, seed=2, progress=False, journal=path, resume=True, note=notes.append)
    assert notes == [f"resuming {path}: 6 of 6 jobs done"]


@pytest.mark.parametrize(
    "line,message",
    [
        (b'{"job": 1, "pres', "line 3 is not JSON"),
        (b"[" * 100_000, "line 3 is not JSON (nested too deep)"),
        (b'{"job": 9}', "line 3: not a job of this league (jobs 0 to 1)"),
        (b'{"job": 1, "preset": "dark-hex-4"}', "line 3: job 1 is not the one this league plans"),
    ],
)
def test_a_damaged_journal_line_is_refused_naming_it(tmp_path, line, message):
    path = str(tmp_path / "league.json.journal")
    args = (["dark-hex-4"], ["random", "probe"], 3)
    league.run(*args, progress=False, journal=path)
    lines = open(path, "rb").read().split(b"\n")
    lines[2] = line  # not the last line: not a write cut off by a kill
    open(path, "wb").write(b"\n".join(lines))
    with pytest.raises(league.LeagueError, match=re.escape(message)):
        league.run(*args, progress=False, journal=path, resume=True)


@pytest.mark.parametrize(
    "damage",
    [
        lambda metrics: metrics[0].update(probes="x"),  # not a number
        lambda metrics: metrics[0].pop("probes"),  # the seats' names differ
    ],
    ids=["not-a-number", "names-differ"],
)
def test_a_journal_line_with_bad_metrics_is_refused_not_summed(tmp_path, damage):
    # The table sums the metrics: a hand-edited one was a TypeError or KeyError there.
    path = str(tmp_path / "league.json.journal")
    args = (["dark-hex-4"], ["random", "probe"], 3)
    league.run(*args, progress=False, journal=path)
    lines = open(path, encoding="utf-8").read().split("\n")
    job = json.loads(lines[2])
    damage(job["outcomes"][0][2])
    lines[2] = json.dumps(job)
    open(path, "w", encoding="utf-8").write("\n".join(lines))
    message = "line 3: job 1 has a game that is not [returns, length, metrics]"
    with pytest.raises(league.LeagueError, match=re.escape(message)):
        league.run(*args, progress=False, journal=path, resume=True)


@pytest.mark.parametrize(
    "extra,message",
    [
        # Other arguments than the journal's league: refused, nothing played.
        (["--episodes", "4", "--resume"], "is a league of other arguments (--episodes 3)"),
        (["--episodes", "3", "--seed", "9", "--resume"], "of other arguments (--seed 0)"),
        # Without --resume, a journal is never overwritten.
        (
            ["--episodes", "3"],
            "holds the finished jobs of an unfinished league: pass --resume to finish it",
        ),
    ],
)
def test_a_journal_is_never_mixed_with_another_league_or_overwritten(tmp_path, extra, message):
    out = tmp_path / "league.json"
    path = league.journal_path(str(out))
    league.run(["dark-hex-4"], ["random"], 3, progress=False, journal=path)
    before = open(path, "rb").read()
    done = run("--games", "dark-hex-4", "--bots", "random", "--out", str(out), *extra)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [done.stderr.strip()]
    assert message in done.stderr and "Traceback" not in done.stderr
    assert open(path, "rb").read() == before and not out.exists()


def test_resume_without_a_journal_is_refused(tmp_path):
    done = run("--games", "dark-hex-4", "--out", str(tmp_path / "r.json"), "--resume")
    assert done.returncode == 2 and "--resume: no journal" in done.stderr
    done = run("--games", "dark-hex-4", "--resume")
    assert done.returncode == 2 and "--resume needs --out" in done.stderr


@pytest.mark.parametrize(
    "kind,reason",
    [
        ("exiter", "its worker died (exit code 3)"),
        ("segv", "its worker died (SIGSEGV)"),
        # A bot that raises: the same report, its message on the one line.
        ("raiser", "raised RuntimeError: a bot's bug on two lines"),
    ],
)
def test_a_local_worker_that_dies_is_named_and_the_other_jobs_are_kept(tmp_path, kind, reason):
    out = tmp_path / "league.json"
    # The fault kinds play phantom tic-tac-toe only: dark-hex-4 is random
    # against itself, one job that must survive the deaths.
    done = run(
        "--games",
        "phantom-ttt-3,dark-hex-4",
        "--bots",
        f"random,{kind}",
        "--episodes",
        "5",
        "--workers",
        "2",
        "--out",
        str(out),
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("league: a job failed: phantom-ttt-3 with ")
    assert f"{kind}" in line and "(by seat), episode 0 (game seed " in line
    assert f"league seed 0: {reason} (and 1 more)" in line
    journal = league.journal_path(str(out))
    assert line.endswith(f"the other jobs are in {journal}")
    (header, job) = [json.loads(x) for x in open(journal, encoding="utf-8").read().splitlines()]
    assert job["preset"] == "dark-hex-4" and job["kinds"] == ["random", "random"]
    assert not out.exists()


def test_a_ray_worker_killed_mid_run_is_retried_and_the_table_is_unchanged(tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    # Here for this test only (the fault-free run in this process); the
    # marker's variable is set in the Ray workers alone.
    monkeypatch.setitem(base.BOT_KINDS, "kill_once", league_fault_bots.KillOnce)
    args = (["dark-hex-4"], ["random", "kill_once"], 4)
    fault_free = league.run(*args, seed=1, progress=False)
    mark = tmp_path / "killed"
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={
            "worker_process_setup_hook": "league_fault_bots.register",
            # In the workers only: the first to play kill_once kills itself.
            "env_vars": {
                "PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT}",
                "FOGBOARD_TEST_KILL_ONCE": str(mark),
            },
        },
    )
    try:
        report = league.run(*args, backend="ray", workers=2, seed=1, progress=False)
    finally:
        ray.shutdown()
    assert mark.exists()  # a worker was killed
    assert report == fault_free


def test_a_raising_job_is_named_in_one_line_in_process_and_on_ray(tmp_path, monkeypatch):
    # The in-process and Ray backends name a job whose bot raised, as the
    # local workers do, instead of handing the user a traceback.
    ray = pytest.importorskip("ray")
    monkeypatch.setitem(base.BOT_KINDS, "raiser", league_fault_bots.Raiser)
    args = (["phantom-ttt-3", "dark-hex-4"], ["random", "raiser"], 2)
    with pytest.raises(league.JobsFailed) as in_process:
        league.run(*args, progress=False, journal=str(tmp_path / "a.journal"))
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={
            "worker_process_setup_hook": "league_fault_bots.register",
            "env_vars": {"PYTHONPATH": f"{TESTS}{os.pathsep}{ROOT}"},
        },
    )
    try:
        with pytest.raises(league.JobsFailed) as on_ray:
            league.run(*args, backend="ray", workers=2, progress=False)
    finally:
        ray.shutdown()
    for failed in (in_process.value, on_ray.value):
        text = str(failed)
        assert "\n" not in text and text.startswith("phantom-ttt-3 with "), text
        assert "raised RuntimeError: a bot's bug on two lines" in text, text
        assert "(and 1 more)" in text, text  # both seat orders of the matchup
    # The job without the raiser was played and kept.
    lines = open(tmp_path / "a.journal", encoding="utf-8").read().splitlines()
    assert [json.loads(x)["preset"] for x in lines[1:]] == ["dark-hex-4"]


# ---- Ctrl-C at any moment (docs/league.md#the-journal-and---resume) ----------------------------


def until(ready, proc, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None and time.monotonic() < deadline, f"never {what}"
        time.sleep(0.001)


def pyspiel_loaded(pid: int) -> bool:
    """Whether the process has mapped OpenSpiel's module: the package is loading."""
    try:
        return "pyspiel" in pathlib.Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def ctrl_c(argv: list[str], env: dict, cwd, ready) -> tuple[int, str]:
    """Run argv, then Ctrl-C (SIGINT to its whole process group, workers too,
    as a terminal sends it) once `ready(proc)`: (exit code, stderr)."""
    with open(pathlib.Path(cwd) / "stderr", "w+") as err:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True
        )
        try:
            until(lambda: ready(proc), proc, "ready for the Ctrl-C")
            os.killpg(proc.pid, signal.SIGINT)
            code = proc.wait(timeout=60)
        finally:
            proc.kill()
            proc.wait(timeout=30)
        err.seek(0)
        return code, err.read()


def test_ctrl_c_while_the_package_loads_is_one_line_and_130(tmp_path):
    # `python -m fogboard_games`: Python imports the package (OpenSpiel,
    # numpy: a good part of a second) before any command's code runs.
    out = tmp_path / "league.json"
    argv = [sys.executable, "-m", "fogboard_games", "league", "--games", "dark-hex-4"]
    code, stderr = ctrl_c(
        [*argv, "--out", str(out)],
        environment(),
        tmp_path,
        lambda proc: pyspiel_loaded(proc.pid),
    )
    assert code == 130, stderr
    assert stderr.strip().splitlines() == [
        "interrupted while starting: nothing was played or written"
    ]
    assert os.listdir(tmp_path) == ["stderr"]  # no journal, no report


@pytest.mark.parametrize("moment", ["journal-opened", "first-job"])
def test_ctrl_c_at_any_moment_of_the_run_is_one_line_130_and_resumable(
    tmp_path, uninterrupted, moment
):
    # With two workers: the Ctrl-C reaches them too, as they start or play.
    out = tmp_path / "league.json"
    journal = pathlib.Path(league.journal_path(str(out)))
    args = [*ARGS, "--workers", "2", "--out", str(out)]
    lines = {"journal-opened": 1, "first-job": 2}[moment]
    code, stderr = ctrl_c(
        command(*args),
        environment(slow=0.01),
        tmp_path,
        lambda proc: journal_lines(journal) >= lines,
    )
    assert code == 130, stderr
    assert "Traceback" not in stderr
    (line,) = stderr.strip().splitlines()
    kept = journal_lines(journal) - 1
    assert kept < JOBS
    games = f"({kept * 10} of {JOBS * 10} games)"  # (jobs of 10 games)
    assert line.startswith(f"league: interrupted; the finished jobs are in {journal} {games}; ")
    again = shlex.split(line.split("finish with: ", 1)[1])[4:]
    done = run(*again)
    assert done.returncode == 0, done.stderr
    report, table = uninterrupted
    assert json.loads(out.read_text()) == report
    assert table_lines(done.stdout) == table


def test_ctrl_c_while_rating_or_writing_keeps_the_journal_and_resumes(
    tmp_path, capsys, monkeypatch
):
    from fogboard_games.__main__ import main

    args = ["league", "--games", "dark-hex-4", "--bots", "random,probe", "--episodes", "2"]
    out, page = tmp_path / "league.json", tmp_path / "league.html"
    journal = league.journal_path(str(out))
    assert main([*args, "--out", str(tmp_path / "whole.json")]) == 0
    whole = json.loads((tmp_path / "whole.json").read_text())
    capsys.readouterr()

    def ctrl_c(*a, **k):
        raise KeyboardInterrupt

    import fogboard_games.pages.league

    for where in ("ratings", "page", "report"):
        with monkeypatch.context() as patch:
            if where == "ratings":
                patch.setattr(league, "rate_league", ctrl_c)
            elif where == "page":
                patch.setattr(fogboard_games.pages.league, "league_page", ctrl_c)
            else:
                patch.setattr(league, "write_json", ctrl_c)
            resume = ["--resume"] if os.path.exists(journal) else []
            code = main([*args, "--out", str(out), "--html", str(page), *resume])
        assert code == 130, where
        *notes, line = capsys.readouterr().err.strip().splitlines()
        assert all(note.startswith("league: resuming ") for note in notes)
        games = "(4 of 4 games)" if where == "ratings" else "(every game)"
        assert line.startswith(f"league: interrupted; the finished jobs are in {journal} {games}")
        assert line.endswith("--resume") and not out.exists()
    assert main([*args, "--out", str(out), "--html", str(page), "--resume"]) == 0
    assert json.loads(out.read_text()) == whole and not os.path.exists(journal)


def test_a_ctrl_c_a_library_swallowed_still_stops_the_league(tmp_path, capsys, monkeypatch):
    # A Ctrl-C landing in a lazy import of numpy's can be lost there; the
    # league remembers it and stops after the job.
    from fogboard_games.__main__ import main

    class Swallows(base.RandomBot):
        def decide(self, state) -> int:
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:
                pass
            return super().decide(state)

    monkeypatch.setitem(base.BOT_KINDS, "swallows", Swallows)
    out = tmp_path / "league.json"
    argv = ["league", "--games", "dark-hex-4", "--bots", "swallows", "--episodes", "30"]
    assert main([*argv, "--out", str(out)]) == 130
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "the finished jobs are in" in line and "(10 of 30 games)" in line


def test_held_defers_a_ctrl_c_to_the_end_of_the_step_and_a_worker_starts_blocked():
    import multiprocessing

    from fogboard_games.core import interrupts

    steps = []
    with pytest.raises(KeyboardInterrupt):
        with interrupts.held():
            signal.raise_signal(signal.SIGINT)
            steps.append("after the Ctrl-C")  # the step goes on to its end
    assert steps == ["after the Ctrl-C"]
    parent, child = multiprocessing.Pipe()
    with interrupts.held():
        worker = multiprocessing.Process(target=_blocked, args=(child,))
        worker.start()
    assert parent.recv() is True  # SIGINT blocked from its first instruction
    worker.join(timeout=30)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def _blocked(conn) -> None:
    conn.send(signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []))
