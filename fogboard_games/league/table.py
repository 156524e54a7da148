"""The league's report: the table of its outcomes, printed and as JSON
(docs/league.md#the-table).

A row is one (kind, against) matchup over every seat it sat in; the
columns past the length are the means of what the ruleset's `metrics`
gives a seat (the boards' probes and distToWin). distToWin is 99 when no
route remains, a sentinel and not a distance: it is left out of the mean
and counted apart (`no_route`). What a language-model seat spent (its
tokens, its fallbacks: SUMMED) is summed over the row's games instead.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

from fogboard_games.core import files
from fogboard_games.core.contract import NO_ROUTE as UNREACHABLE
from fogboard_games.league.planning import Job, LeagueError, Outcome

# Metrics with a value that means "none": key -> (that value, the count's key).
NO_VALUE = {"distToWin": (UNREACHABLE, "no_route")}
# Metrics a row sums rather than averages, under their own name: what a
# language-model seat spent and how often its fallback decided (bots/llm.py).
SUMMED = ("prompt_tokens", "completion_tokens", "fallbacks")


def matchup(job: Job, seat: int) -> tuple[str, str]:
    """The row a seat's games count in: (its kind, the kind of the other seats)."""
    kind = job.kinds[seat]
    others = [k for s, k in enumerate(job.kinds) if s != seat and k != kind]
    return kind, others[0] if others else kind


def summarize(jobs: Sequence[Job], results: Sequence[list[Outcome]]) -> dict:
    """Per preset, one row per (kind, against) matchup, in the order first played."""
    rows: dict[str, dict[tuple[str, str], dict]] = {}
    for job, outcomes in zip(jobs, results):
        for seat in job.focal:
            kind, against = matchup(job, seat)
            row = rows.setdefault(job.preset, {}).setdefault(
                (kind, against), {"scores": [], "lengths": [], "wdl": [0, 0, 0], "metrics": []}
            )
            for o in outcomes:
                mine = o.returns[seat]
                best = max(o.returns)
                row["scores"].append(mine)
                row["lengths"].append(o.length)
                if mine < best:
                    row["wdl"][2] += 1
                elif o.returns.count(best) > 1:
                    row["wdl"][1] += 1
                else:
                    row["wdl"][0] += 1
                row["metrics"].append(o.metrics[seat])
    table = {}
    for preset, matchups in rows.items():
        out = []
        for (kind, against), r in matchups.items():
            n = len(r["scores"])
            mean = sum(r["scores"]) / n
            var = sum((x - mean) ** 2 for x in r["scores"]) / (n - 1) if n > 1 else 0.0
            entry = {
                "kind": kind,
                "against": against,
                "games": n,
                "mean_score": mean,
                "ci95": 1.96 * math.sqrt(var / n),
                "wins": r["wdl"][0],
                "draws": r["wdl"][1],
                "losses": r["wdl"][2],
                "mean_length": sum(r["lengths"]) / n,
            }
            for key in sorted(set().union(*r["metrics"])):
                values = [m[key] for m in r["metrics"]]
                if key in SUMMED:
                    entry[key] = sum(values)
                    continue
                if key in NO_VALUE:
                    none, count = NO_VALUE[key]
                    values = [v for v in values if v != none]
                    entry[count] = n - len(values)
                # None when no game had a value (every route blocked)
                entry["mean_" + key] = sum(values) / len(values) if values else None
            out.append(entry)
        table[preset] = out
    return table


# Under a table with the boards' columns (their names are the ruleset's own).
BOARDS_LEGEND = (
    "(probes: the bot's collisions per game; distToWin: the cells it still needed to win "
    "at the end, where a route remained; noRoute: the games where none did)"
)


def interval_text(low: float | None, high: float | None) -> str:
    """An Elo interval as shown: an unbounded end (None in the JSON) as -inf or +inf."""
    return f"[{'-inf' if low is None else f'{low:+.1f}'}, {'+inf' if high is None else f'{high:+.1f}'}]"


def format_ratings(rating: dict) -> list[str]:
    """The lines of one game's ratings (docs/league.md#ratings), as the page shows them."""
    if rating["undefined"]:
        return [f"ratings undefined: {rating['undefined']}"]
    lines = [f"ratings from {rating['games']} games between kinds (docs/league.md#ratings)"]
    if rating["elo_undefined"]:
        lines.append(f"Elo undefined: {rating['elo_undefined']}")
    lines.append(f"{'kind':<12}{'Elo':>8}{'95% interval':>18}{'alpha-rank mass':>17}{'rank':>6}")
    elo = rating["elo"] or [None] * len(rating["alpharank"])
    for e, a in zip(elo, rating["alpharank"]):
        shown = (
            ("-", "-") if e is None else (f"{e['elo']:+.1f}", interval_text(e["low"], e["high"]))
        )
        lines.append(f"{a['kind']:<12}{shown[0]:>8}{shown[1]:>18}{a['mass']:>17.3f}{a['rank']:>6}")
    return lines


def format_table(table: dict, ratings: dict | None = None) -> str:
    """The report as printed: per game its table, the legend of the boards'
    columns under a table that has them, and the game's ratings (`ratings`,
    the report's, when given)."""
    lines = []
    for preset, rows in table.items():
        boards = any("mean_probes" in r for r in rows)
        head = (
            f"{'bot':<12}{'against':<12}{'games':>6}{'mean score':>12}{'95% CI':>9}"
            f"{'win':>6}{'draw':>6}{'loss':>6}{'length':>8}"
        )
        if boards:
            head += f"{'probes':>8}{'distToWin':>10}{'noRoute':>8}"
        lines += [preset, head]
        for r in rows:
            line = (
                f"{r['kind']:<12}{r['against']:<12}{r['games']:>6}{r['mean_score']:>+12.3f}"
                f"{r['ci95']:>9.3f}{r['wins']:>6}{r['draws']:>6}{r['losses']:>6}"
                f"{r['mean_length']:>8.1f}"
            )
            if boards:
                dist = r["mean_distToWin"]
                shown = "-" if dist is None else f"{dist:.2f}"
                line += f"{r['mean_probes']:>8.2f}{shown:>10}{r['no_route']:>8}"
            lines.append(line)
        if boards:
            lines.append(BOARDS_LEGEND)
        if ratings and preset in ratings:
            lines += format_ratings(ratings[preset])
        lines.append("")
    return "\n".join(lines).rstrip()


def check_writable(path: str, what: str) -> None:
    """LeagueError unless `path` can be written (checked before a long run, core/files.py)."""
    try:
        files.check_writable(path, what)
    except ValueError as e:
        raise LeagueError(str(e)) from None


def write_json(report: dict, path: str) -> None:
    """The report as JSON at `path`, written whole or not at all (OSError)."""
    files.write_atomically(path, json.dumps(report, indent=1) + "\n")
