"""The league's saved games: every game's review under `--save-games DIR`
(docs/league.md#saved-games).

One folder per table row, `DIR/PRESET/KIND/AGAINST/`, holding the games
that row counts, one review each, `seat{S}-episode{E}.json` (S the seat
the row's kind sat in), naming every seat's kind (`seat_kinds`), with
its review page beside it (`.html`). With two seats a game counts in both its rows and
is kept in both folders. The reviews come back from the workers with
their outcomes and are written here, in the league's own process, before
the job is journaled: a job the journal holds has its games on disk, so
a resumed league writes only the games it plays. Names are percent-encoded
into a path part, so no bot kind's name can reach outside DIR.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from urllib.parse import quote

from fogboard_games.core import files
from fogboard_games.core.review import with_seat_kinds
from fogboard_games.league.planning import Job, LeagueError, Outcome
from fogboard_games.league.table import matchup


def part(name: str) -> str:
    """A name as one path part: percent-encoded, '.' too (no '..', no '/')."""
    return quote(name, safe="").replace(".", "%2E")


def row_folder(save_dir: str, preset: str, kind: str, against: str) -> str:
    return os.path.join(save_dir, part(preset), part(kind), part(against))


def review_path(save_dir: str, job: Job, seat: int, episode: int) -> str:
    """Where the review of `episode` of `job` is kept for the row of `seat`."""
    kind, against = matchup(job, seat)
    return os.path.join(
        row_folder(save_dir, job.preset, kind, against), f"seat{seat}-episode{episode}.json"
    )


def write_review(path: str, review: dict) -> None:
    """One saved review, written whole (core/files.py), and its review page
    beside it (`X.json` and `X.html`, docs/pages.md): the page a table row
    links to, the review what `review FILE` reads."""
    from fogboard_games.pages.review import page_beside, review_page

    files.write_atomically(path, json.dumps(review, indent=1) + "\n")
    files.write_atomically(page_beside(path), review_page(review))


def save_job(save_dir: str, job: Job, outcomes: Sequence[Outcome]) -> None:
    """Write the reviews of a finished job and drop them from its outcomes (LeagueError on a full disk)."""
    for episode, o in zip(range(job.first, job.first + job.count), outcomes):
        for seat in job.focal:
            path = review_path(save_dir, job, seat, episode)
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                # (the folder names the row, not the seats: the review names them)
                write_review(path, with_seat_kinds(o.review, job.kinds))
            except OSError as e:
                raise LeagueError(f"--save-games {path!r}: {e.strerror or e}") from e
        o.review = None  # on disk now: the table needs only the numbers


def saved_games(report: dict) -> dict:
    """Per preset, per (kind, against) row, the paths of the games a report
    saved (none without --save-games), by seat then episode. Read off the
    report alone (no bot kind need be known): a row's kind sat in every seat
    for every episode, so its games are seats x episodes."""
    save_dir = report.get("save_games")
    if save_dir is None:
        return {}
    episodes = report["episodes"]
    out: dict[str, dict[tuple[str, str], list[str]]] = {}
    for preset, rows in report["table"].items():
        for row in rows:
            folder = row_folder(save_dir, preset, row["kind"], row["against"])
            out.setdefault(preset, {})[row["kind"], row["against"]] = [
                os.path.join(folder, f"seat{seat}-episode{e}.json")
                for seat in range(row["games"] // episodes)
                for e in range(episodes)
            ]
    return out


def check_folder(save_dir: str) -> None:
    """LeagueError unless `save_dir` is (or can be made) a folder we can write in, before any game."""
    try:
        os.makedirs(save_dir, exist_ok=True)
    except OSError as e:
        raise LeagueError(
            f"--save-games {save_dir!r}: {e.strerror or e}; want a folder that can be written"
        ) from None
    try:
        files.check_writable(os.path.join(save_dir, "review.json"), "--save-games")
    except ValueError as e:
        raise LeagueError(str(e)) from None
