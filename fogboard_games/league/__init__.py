"""The league: every pairing of bot kinds on every preset, in every seat (docs/league.md).

    python -m fogboard_games league --games dark-hex-4,parley-tiny --bots random,heuristic \\
        --episodes 50 --workers 2 --seed 0 --out league.json

Split by job: `planning` turns the request into jobs, each game with its
own seed; `backends` plays them (in this process, a process pool or Ray
tasks) and gathers the outcomes in job order, so the same seed gives the
same table whatever the backend; `table` makes the report; `journal`
keeps each finished job on disk so a stopped league resumes. `run` does
it all; the names of the modules are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from fogboard_games.league.backends import BACKENDS, JobsFailed, play_game, play_job, run_jobs
from fogboard_games.league.journal import Journal, journal_path
from fogboard_games.league.planning import (
    MAX_EPISODES,
    Job,
    LeagueError,
    Outcome,
    episode_seed,
    parse_list,
    plan,
)
from fogboard_games.league.table import check_writable, format_table, summarize, write_json

__all__ = [
    "BACKENDS",
    "MAX_EPISODES",
    "Job",
    "JobsFailed",
    "Journal",
    "LeagueError",
    "Outcome",
    "check_writable",
    "episode_seed",
    "format_table",
    "journal_path",
    "parse_list",
    "plan",
    "play_game",
    "play_job",
    "run",
    "run_jobs",
    "summarize",
    "write_json",
]


def run(
    games: Iterable[str],
    kinds: Iterable[str],
    episodes: int,
    workers: int = 1,
    backend: str = "local",
    seed: int = 0,
    address=None,
    progress: bool = True,
    journal: str | None = None,
    resume: bool = False,
    note: Callable[[str], None] = lambda text: None,
) -> dict:
    """Plan, play and summarize a league; returns the JSON-ready report.

    With `journal` (a path), every finished job is appended there as it
    finishes; `resume` reads it back and plays only the jobs it lacks, so
    the report is the one an uninterrupted run gives. `note` is told what
    a resume found. The journal is left for the caller to remove once the
    report is safe, as the command line does once it has written the JSON.
    """
    games, kinds = list(games), list(kinds)
    jobs, skipped = plan(games, kinds, episodes, seed)
    request = {"games": games, "bots": kinds, "episodes": episodes, "seed": seed}
    results: list = [None] * len(jobs)
    if journal is None:
        results = run_jobs(jobs, workers, backend, address, progress)
    else:
        book = Journal.open(journal, request, jobs, resume, note)
        try:
            if resume:
                note(f"resuming {journal}: {len(book.done)} of {len(jobs)} jobs done")
            for i, outcomes in book.done.items():
                results[i] = outcomes
            todo = [i for i in range(len(jobs)) if i not in book.done]
            played = run_jobs(
                [jobs[i] for i in todo],
                workers,
                backend,
                address,
                progress,
                on_done=lambda k, outcomes: book.record(todo[k], jobs[todo[k]], outcomes),
            )
            for i, outcomes in zip(todo, played):
                results[i] = outcomes
        finally:
            book.close()
    return {
        **request,
        "skipped": [{"game": g, "bot": k} for g, k in skipped],
        "table": summarize(jobs, results),
    }
