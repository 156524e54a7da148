"""The league: every pairing of bot kinds on every preset, in every seat (docs/league.md).

    python -m fogboard_games league --games dark-hex-4,parley-tiny --bots random,heuristic \\
        --episodes 50 --workers 2 --seed 0 --out league.json

Split by job: `planning` turns the request into jobs, each game with its
own seed; `backends` plays them (in this process, a process pool or Ray
tasks) and gathers the outcomes in job order, so the same seed gives the
same table whatever the backend; `table` makes the report; `journal`
keeps each finished job on disk so a stopped league resumes. `run` does
it all, `ratings` rates the kinds from the games and `saving` keeps each
game's review (`--save-games`); the names of the modules are re-exported here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from fogboard_games.core.interrupts import check, held
from fogboard_games.league.backends import (
    BACKENDS,
    JobsFailed,
    check_backend,
    play_game,
    play_job,
    run_jobs,
)
from fogboard_games.league.journal import Journal, journal_path
from fogboard_games.league.planning import (
    MAX_EPISODES,
    Interrupted,
    Job,
    LeagueError,
    Outcome,
    episode_seed,
    parse_list,
    plan,
)
from fogboard_games.league.ratings import rate_league
from fogboard_games.league.saving import check_folder, save_job, saved_games, write_review
from fogboard_games.league.table import check_writable, format_table, summarize, write_json
from fogboard_games.league.usage import format_usage, seats_played, usage_by_kind

__all__ = [
    "BACKENDS",
    "MAX_EPISODES",
    "Interrupted",
    "Job",
    "JobsFailed",
    "Journal",
    "LeagueError",
    "Outcome",
    "check_backend",
    "check_folder",
    "check_writable",
    "episode_seed",
    "format_table",
    "format_usage",
    "journal_path",
    "parse_list",
    "plan",
    "rate_league",
    "play_game",
    "play_job",
    "run",
    "run_jobs",
    "save_job",
    "saved_games",
    "summarize",
    "usage_by_kind",
    "write_json",
    "write_review",
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
    save_games: str | None = None,
    llm: dict | None = None,
) -> dict:
    """Plan, play and summarize a league; returns the JSON-ready report.

    With `journal` (a path), every finished job is appended there as it
    finishes; `resume` reads it back and plays only the jobs it lacks, so
    the report is the one an uninterrupted run gives. `note` is told what
    a resume found. The journal is left for the caller to remove once the
    report is safe, as the command line does once it has written the JSON.
    With `save_games` (a folder), every game's review is written there as
    its job finishes, before the journal records the job (league/saving.py).
    `llm`, the language-model kinds' public configs by kind (what
    `bots.llm.prepare` returns, with those kinds registered), is kept in
    the report (`llm`), gives it its `usage` (league/usage.py), and what
    makes their games what they are is kept in the request (`llm-config`):
    a resume with another model or persona is refused, one with another URL
    or timeout is not.
    """
    games, kinds = list(games), list(kinds)
    check_backend(backend, workers)  # (before a journal is opened or a game played)
    jobs, skipped = plan(games, kinds, episodes, seed, reviews=save_games is not None)
    request = {"games": games, "bots": kinds, "episodes": episodes, "seed": seed}
    if save_games is not None:
        # (in the journal's request: a resume writes its games to the same folder)
        request["save_games"] = save_games
        check_folder(save_games)
    if llm:
        request["llm-config"] = seats_played(llm)

    def saved(i: int, outcomes: list) -> None:
        if save_games is not None:
            save_job(save_games, jobs[i], outcomes)

    results: list = [None] * len(jobs)
    total = sum(job.count for job in jobs)
    kept = {"games": 0, "journaled": False}  # what a Ctrl-C leaves finished, and where

    def done(i: int, outcomes: list, book: Journal | None = None) -> None:
        saved(i, outcomes)
        with held():  # (journaled and counted, or neither)
            if book is not None:
                book.record(i, jobs[i], outcomes)
            kept["games"] += jobs[i].count
        check()  # (a Ctrl-C a bot's library swallowed stops the league here)

    try:
        if journal is None:
            results = run_jobs(jobs, workers, backend, address, progress, on_done=done)
        else:
            with held():  # (a journal on disk is one this league's Ctrl-C names)
                book = Journal.open(journal, request, jobs, resume, note)
                kept["journaled"] = True
            try:
                if resume:
                    note(f"resuming {journal}: {len(book.done)} of {len(jobs)} jobs done")
                for i, outcomes in book.done.items():
                    results[i] = outcomes
                    kept["games"] += jobs[i].count
                todo = [i for i in range(len(jobs)) if i not in book.done]
                played = run_jobs(
                    [jobs[i] for i in todo],
                    workers,
                    backend,
                    address,
                    progress,
                    on_done=lambda k, outcomes: done(todo[k], outcomes, book),
                )
                for i, outcomes in zip(todo, played):
                    results[i] = outcomes
            finally:
                book.close()
        check()
        # Held: the ratings' first call imports scipy and more, where a Ctrl-C
        # can be swallowed or leave Python exiting by SIGINT whatever the exit
        # status; held, it stops the league once they are done (a second or two).
        with held():
            table, rated = summarize(jobs, results), rate_league(jobs, results, seed)
    except KeyboardInterrupt:
        # (past the journal's opening, what it holds is this league's: resumable)
        raise Interrupted(kept["games"], total, kept["journaled"]) from None
    report = {
        **request,
        "skipped": [{"game": g, "bot": k} for g, k in skipped],
        "table": table,
        "ratings": rated,
    }
    if llm:
        report["llm"] = llm
        report["usage"] = usage_by_kind(report["table"], llm)
    return report
