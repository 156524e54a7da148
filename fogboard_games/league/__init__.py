"""The league: every pairing of bot kinds on every preset, in every seat (docs/league.md).

    python -m fogboard_games league --games dark-hex-4,parley-tiny --bots random,heuristic \\
        --episodes 50 --workers 2 --seed 0 --out league.json

Split by job: `planning` turns the request into jobs, each game with its
own seed; `backends` plays them (in this process, a process pool or Ray
tasks) and gathers the outcomes in job order, so the same seed gives the
same table whatever the backend; `table` makes the report. `run` does all
three; the names of the three modules are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable

from fogboard_games.league.backends import BACKENDS, play_game, play_job, run_jobs
from fogboard_games.league.planning import Job, LeagueError, Outcome, episode_seed, parse_list, plan
from fogboard_games.league.table import check_writable, format_table, summarize, write_json

__all__ = [
    "BACKENDS",
    "Job",
    "LeagueError",
    "Outcome",
    "check_writable",
    "episode_seed",
    "format_table",
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
) -> dict:
    """Plan, play and summarize a league; returns the JSON-ready report."""
    games, kinds = list(games), list(kinds)
    jobs, skipped = plan(games, kinds, episodes, seed)
    results = run_jobs(jobs, workers, backend, address, progress)
    return {
        "games": games,
        "bots": kinds,
        "episodes": episodes,
        "seed": seed,
        "skipped": [{"game": g, "bot": k} for g, k in skipped],
        "table": summarize(jobs, results),
    }
