"""The league's journal: every finished job, one JSON line each, written as
it finishes, so a killed or interrupted league resumes where it stopped
(docs/league.md#the-journal-and---resume).

A line is flushed and fsynced before the next job is reported, so a crash
loses only the jobs in flight; the first line records the request, so a
resume with other arguments is refused rather than mixed into the table.
JSON, never pickle: a journal is a file anyone may have edited.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence

from fogboard_games.core import files, guards
from fogboard_games.core.interrupts import held
from fogboard_games.core.params import is_int
from fogboard_games.league.planning import Job, LeagueError, Outcome

SUFFIX = ".journal"
FORMAT = "fogboard_games league journal 1"


def journal_path(out: str) -> str:
    """The journal kept beside the report `out`."""
    return out + SUFFIX


class Journal:
    """An open journal: `done` holds the jobs it already has, by job index."""

    def __init__(self, path: str, file, done: dict[int, list[Outcome]]):
        self.path = path
        self.file = file
        self.done = done

    @classmethod
    def open(
        cls,
        path: str,
        request: dict,
        jobs: Sequence[Job],
        resume: bool,
        note: Callable[[str], None] = lambda text: None,
    ) -> Journal:
        """A new journal (`resume` False) or the one at `path` read back.

        A new league never overwrites a journal: it holds finished games.
        """
        exists = os.path.exists(path)
        if resume and not exists:
            raise LeagueError(
                f"--resume: no journal {path!r} (a league that finished removes it); "
                "run without --resume to start one"
            )
        if not resume and exists:
            raise LeagueError(
                f"{path!r} holds the finished jobs of an unfinished league: "
                "pass --resume to finish it, or delete it to start again"
            )
        try:
            if not resume:
                # (held: a Ctrl-C leaves the journal with its header or no journal)
                with held():
                    f = open(path, "xb")
                    try:
                        _append(f, {"journal": FORMAT, "request": request})
                        files.sync_dir(path)
                    except OSError:
                        # No header on disk (a full disk): leave no journal that
                        # would refuse the next run as an unfinished league.
                        f.close()
                        os.unlink(path)
                        raise
                return cls(path, f, {})
            with open(path, "rb") as f:
                data = f.read()
            done, keep = _read(path, data, request, jobs, note)
            f = open(path, "r+b")
        except OSError as e:
            raise LeagueError(f"journal {path!r}: {e.strerror or e}") from e
        with held():
            f.truncate(keep)  # drop a line cut off mid-write before appending
            f.seek(keep)
        return cls(path, f, done)

    def record(self, index: int, job: Job, outcomes: Sequence[Outcome]) -> None:
        """Append one finished job, on disk before this returns."""
        try:
            with held():  # (a Ctrl-C lets the line be written whole)
                self._append_job(index, job, outcomes)
        except OSError as e:  # a full disk: stop now, with the lines written so far
            raise LeagueError(f"journal {self.path!r}: {e.strerror or e}") from e

    def _append_job(self, index: int, job: Job, outcomes: Sequence[Outcome]) -> None:
        _append(
            self.file,
            {
                "job": index,
                "preset": job.preset,
                "kinds": list(job.kinds),
                "first": job.first,
                "count": job.count,
                "outcomes": [[o.returns, o.length, o.metrics] for o in outcomes],
            },
        )

    def close(self) -> None:
        self.file.close()


def _append(f, record: dict) -> None:
    # One write per line: a kill leaves at most the last line cut short.
    f.write((json.dumps(record, separators=(",", ":")) + "\n").encode())
    f.flush()
    os.fsync(f.fileno())


def _read(path, data: bytes, request: dict, jobs: Sequence[Job], note):
    """(the finished jobs by index, the length of the lines kept)."""
    lines = data.split(b"\n")
    tail = lines.pop()  # after the last newline: empty, or a line cut off
    keep = len(data) - len(tail)
    if tail:
        note(f"{path}: dropped a last line cut off mid-write; its job is played again")
    if not lines:
        raise LeagueError(f"journal {path!r} is empty: delete it to start again")
    head = _line(path, 1, lines[0])
    if not isinstance(head, dict) or head.get("journal") != FORMAT:
        raise LeagueError(f"{path!r} is not a league journal ({FORMAT!r} on its first line)")
    if head.get("request") != request:
        was = head.get("request")
        diff = [k for k in request if not isinstance(was, dict) or was.get(k) != request[k]]
        shown = ", ".join(f"--{k} {_show(was, k)}" for k in diff)
        raise LeagueError(
            f"--resume: {path!r} is a league of other arguments ({shown}); "
            "resume with those, or pass another --out"
        )
    done: dict[int, list[Outcome]] = {}
    for number, raw in enumerate(lines[1:], start=2):
        index, outcomes = _job(path, number, _line(path, number, raw), jobs)
        if index in done:
            raise LeagueError(f"journal {path!r} line {number}: job {index} twice")
        done[index] = outcomes
    return done, keep


def _show(was, key) -> str:
    v = was.get(key) if isinstance(was, dict) else None
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def _line(path, number: int, raw: bytes):
    where = f"journal {path!r} line {number}"
    try:
        text = raw.decode()
        if guards.nesting_too_deep(text) is not None:
            raise ValueError("nested too deep")
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise LeagueError(
            f"{where} is not JSON ({guards.shortened(e)}): delete it to start again"
        ) from e
    problem = guards.json_problem(value, whole="line")
    if problem:
        raise LeagueError(f"{where}: {problem}")
    return value


def _job(path, number: int, line, jobs: Sequence[Job]):
    """A job line checked against the plan, as (index, outcomes)."""
    where = f"journal {path!r} line {number}"
    index = line.get("job") if isinstance(line, dict) else None
    if not is_int(index) or not 0 <= index < len(jobs):
        raise LeagueError(f"{where}: not a job of this league (jobs 0 to {len(jobs) - 1})")
    job = jobs[index]
    same = (line.get("preset"), line.get("kinds"), line.get("first"), line.get("count")) == (
        job.preset,
        list(job.kinds),
        job.first,
        job.count,
    )
    outcomes = line.get("outcomes")
    if not same or not isinstance(outcomes, list) or len(outcomes) != job.count:
        raise LeagueError(f"{where}: job {index} is not the one this league plans")
    n = len(job.kinds)
    out = []
    for o in outcomes:
        ok = (
            isinstance(o, list)
            and len(o) == 3
            and isinstance(o[0], list)
            and len(o[0]) == n
            and all(guards.is_number(x) for x in o[0])
            and is_int(o[1])
            and isinstance(o[2], list)
            and len(o[2]) == n
            and all(isinstance(m, dict) for m in o[2])
            # a metric is a number under a name, the same names for every seat
            and all(isinstance(k, str) and guards.is_number(v) for m in o[2] for k, v in m.items())
            and len({tuple(sorted(m)) for m in o[2]}) <= 1
        )
        if not ok:
            raise LeagueError(
                f"{where}: job {index} has a game that is not [returns, length, metrics]"
            )
        out.append(Outcome([float(x) for x in o[0]], o[1], o[2]))
    return index, out
