"""The league: every pairing of bot kinds on every preset, in every seat (docs/league.md).

    python -m fogboard_games league --games dark-hex-4,parley-tiny --bots random,heuristic \\
        --episodes 50 --workers 2 --seed 0 --out league.json

For each game the league plays every *assignment* of bot kinds to seats: a
focal kind in each seat against each other kind in every other seat (with
one kind, that kind against itself), `episodes` games each. A row of the
table is one (kind, against) matchup, over all its seats: the focal seat's
mean score with a 95% confidence interval, its wins, draws and losses (a
win is a strictly highest score, a draw a shared highest), the mean number
of decisions, and for the boards the focal seat's mean probes (collisions)
and true distToWin at the end.

Every game is a job with its own seed, derived from the league's seed, the
preset, the assignment and the episode, and results are gathered in job
order: the same seed gives the same table whatever the backend (`local`
processes or `ray` tasks) and however many workers.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import zlib
from collections.abc import Callable, Iterable, Sequence

import fogboard_games
from fogboard_games import bots as bot_kinds

BACKENDS = ("local", "ray")


class LeagueError(ValueError):
    """A league request that cannot run (an unknown preset or bot, a bad count)."""


@dataclasses.dataclass(frozen=True)
class Job:
    """Games of one preset with one assignment of bot kinds to seats."""

    preset: str
    kinds: tuple[str, ...]  # one bot kind per seat
    focal: tuple[int, ...]  # the seats whose scores the table reports
    first: int  # the first episode's index
    count: int  # episodes
    seed: int  # the league's seed


@dataclasses.dataclass
class Outcome:
    """One game: every seat's return, the decisions played, extra metrics per seat."""

    returns: list[float]
    length: int
    metrics: list[dict]


def episode_seed(seed: int, preset: str, kinds: Sequence[str], episode: int) -> int:
    """A stable seed per game (Python's hash() of a str varies between processes)."""
    key = f"{seed}|{preset}|{','.join(kinds)}|{episode}"
    return zlib.crc32(key.encode()) & 0x7FFFFFFF


def board_metrics(state, seat: int) -> dict:
    from fogboard_games.boards import rules

    totals = rules.seat_totals(state.truth, seat)
    return {"probes": totals["probes"], "distToWin": totals["distToWin"]}


# Extra per-seat metrics by game short name: the boards report probes and distToWin.
METRICS: dict[str, Callable] = {
    "fogboard_phantom_ttt": board_metrics,
    "fogboard_dark_hex": board_metrics,
    "fogboard_recon_hex": board_metrics,
}


def play_job(job: Job) -> list[Outcome]:
    """Play the games of one job (in a worker process or a Ray task)."""
    game = fogboard_games.load(job.preset)
    metric = METRICS.get(game.get_type().short_name)
    out = []
    for episode in range(job.first, job.first + job.count):
        seed = episode_seed(job.seed, job.preset, job.kinds, episode)
        seats = [
            bot_kinds.make_bot(kind, game, seat, seed=seed + seat)
            for seat, kind in enumerate(job.kinds)
        ]
        out.append(play_game(game, seats, seed, metric))
    return out


def play_game(game, seats, seed: int, metric=None) -> Outcome:
    """One game between `seats` (a bot per seat), chance drawn from `seed`.

    The league's own loop rather than pyspiel.evaluate_bots, which returns
    only the returns: the league also reports the length and the final
    position's metrics. Bots are only asked to step (they read their seat's
    information state), never told the other seats' moves.
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, odds)[0]
        else:
            length += 1
            action = seats[state.current_player()].step(state)
        state.apply_action(action)
    n = game.num_players()
    metrics = [metric(state, p) if metric else {} for p in range(n)]
    return Outcome(list(state.returns()), length, metrics)


# ---- the request ------------------------------------------------------------------


def parse_list(text: str, what: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not text.strip() or any(not t for t in items):
        raise LeagueError(f"--{what} takes a comma-separated list, got {text!r}")
    _once(items, what)
    return items


def _once(items: Sequence[str], what: str) -> None:
    """A name listed twice would play (and count) its games twice."""
    if len(set(items)) != len(items):
        raise LeagueError(
            f"--{what} names {sorted(t for t in items if items.count(t) > 1)[0]!r} twice"
        )


def plan(games: Sequence[str], kinds: Sequence[str], episodes: int, seed: int, chunk: int = 10):
    """The jobs of a league, in a fixed order, and the matchups each game has.

    Refuses an unknown preset or bot kind, a count below 1, and a game no
    listed kind can play; a kind that does not play a game (the boards'
    probe at Liar's Dice) sits that game out.
    """
    if isinstance(episodes, bool) or not isinstance(episodes, int) or episodes < 1:
        raise LeagueError(f"--episodes must be a positive int, got {episodes!r}")
    _once(games, "games")
    _once(kinds, "bots")
    for name in games:
        if name not in fogboard_games.PRESETS:
            raise LeagueError(
                f"unknown preset {name!r}; presets: {', '.join(sorted(fogboard_games.PRESETS))}"
            )
    known = sorted(k for k, f in bot_kinds.BOT_KINDS.items() if not getattr(f, "requires", ()))
    for kind in kinds:
        if kind not in bot_kinds.BOT_KINDS:
            raise LeagueError(f"unknown bot kind {kind!r}; kinds: {', '.join(known)}")
        needs = getattr(bot_kinds.BOT_KINDS[kind], "requires", ())
        if needs:  # the text seat: a league cannot give it a model
            raise LeagueError(
                f"bot kind {kind!r} needs options ({', '.join(needs)}) a league cannot give; "
                f"kinds: {', '.join(known)}"
            )
    jobs, skipped = [], []
    for name in games:
        game = fogboard_games.load(name)
        playing = [k for k in kinds if k in bot_kinds.kinds_for(game)]
        skipped += [(name, k) for k in kinds if k not in playing]
        if not playing:
            raise LeagueError(f"no bot kind of {', '.join(kinds)} plays {name}")
        n = game.num_players()
        # Each kind in each seat against each other kind in the other seats. With
        # two seats, (x, y) is both x in seat 0 against y and y in seat 1 against
        # x: one set of games reports both, so assignments are merged.
        focal: dict[tuple[str, ...], list[int]] = {}
        for kind in playing:
            for other in [k for k in playing if k != kind] or [kind]:
                for seat in range(n):
                    seats = tuple(kind if s == seat else other for s in range(n))
                    focal.setdefault(seats, []).append(seat)
        for seats, watched in focal.items():
            for first in range(0, episodes, chunk):
                count = min(chunk, episodes - first)
                jobs.append(Job(name, seats, tuple(sorted(watched)), first, count, seed))
    return jobs, skipped


# ---- running ------------------------------------------------------------------------


def run_jobs(
    jobs: Sequence[Job],
    workers: int = 1,
    backend: str = "local",
    address=None,
    progress: bool = True,
) -> list[list[Outcome]]:
    """Every job's outcomes, in job order."""
    if backend not in BACKENDS:
        raise LeagueError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise LeagueError(f"--workers must be a positive int, got {workers!r}")
    bar = _progress(sum(j.count for j in jobs), progress)
    try:
        if backend == "ray":
            return _run_ray(jobs, workers, address, bar)
        if workers == 1:
            out = []
            for job in jobs:
                out.append(play_job(job))
                bar.update(job.count)
            return out
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            out = []
            for job, result in zip(jobs, pool.map(play_job, jobs)):
                out.append(result)
                bar.update(job.count)
            return out
    finally:
        bar.close()


def _progress(total: int, show: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc="league", disable=not show, leave=False)


def _run_ray(jobs, workers: int, address, bar):
    try:
        import ray
    except ImportError as e:
        raise LeagueError('the ray backend needs Ray: pip install "fogboard_games[ray]"') from e
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_job)
        refs = [remote.remote(job) for job in jobs]
        by_ref = {ref: i for i, ref in enumerate(refs)}
        out: list = [None] * len(jobs)
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = by_ref[ref]
                out[i] = ray.get(ref)
                bar.update(jobs[i].count)
        return out
    finally:
        if started:
            ray.shutdown()


# ---- the table ---------------------------------------------------------------------------


def summarize(jobs: Sequence[Job], results: Sequence[list[Outcome]]) -> dict:
    """Per preset, one row per (kind, against) matchup, in the order first played."""
    rows: dict[str, dict[tuple[str, str], dict]] = {}
    for job, outcomes in zip(jobs, results):
        for seat in job.focal:
            kind = job.kinds[seat]
            others = [k for s, k in enumerate(job.kinds) if s != seat and k != kind]
            against = others[0] if others else kind
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
                entry["mean_" + key] = sum(m[key] for m in r["metrics"]) / n
            out.append(entry)
        table[preset] = out
    return table


def format_table(table: dict) -> str:
    lines = []
    for preset, rows in table.items():
        boards = any("mean_probes" in r for r in rows)
        head = (
            f"{'bot':<12}{'against':<12}{'games':>6}{'mean score':>12}{'95% CI':>9}"
            f"{'win':>6}{'draw':>6}{'loss':>6}{'length':>8}"
        )
        if boards:
            head += f"{'probes':>8}{'distToWin':>10}"
        lines += [preset, head]
        for r in rows:
            line = (
                f"{r['kind']:<12}{r['against']:<12}{r['games']:>6}{r['mean_score']:>+12.3f}"
                f"{r['ci95']:>9.3f}{r['wins']:>6}{r['draws']:>6}{r['losses']:>6}"
                f"{r['mean_length']:>8.1f}"
            )
            if boards:
                line += f"{r['mean_probes']:>8.2f}{r['mean_distToWin']:>10.2f}"
            lines.append(line)
        lines.append("")
    return "\n".join(lines).rstrip()


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


def check_writable(path: str, what: str) -> None:
    """LeagueError unless `path`'s directory exists (checked before a long run)."""
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise LeagueError(f"{what} {path!r}: its directory does not exist")


def write_json(report: dict, path: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
