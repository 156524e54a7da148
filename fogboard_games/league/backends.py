"""Playing the league's jobs: one game, one job, and every job on a backend
(docs/league.md).

A job plays in a worker process (`local`, a process pool) or a Ray task
(`ray`) with nothing but the job itself: it loads its game and makes its
bots there, and results come back in job order, so the table is the same
whatever the backend and the number of workers.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import fogboard_games
from fogboard_games import bots as bot_kinds
from fogboard_games.core.params import is_int
from fogboard_games.core.sampling import chance_outcome
from fogboard_games.league.planning import Job, LeagueError, Outcome, episode_seed

BACKENDS = ("local", "ray")


def ruleset_metrics(game):
    """The figures the game's ruleset declares for a seat (Ruleset.metrics),
    as metric(state, seat) read from the true match; None if it declares none."""
    metrics = game.ruleset.metrics
    if metrics is None:
        return None
    return lambda state, seat: metrics(state.truth, seat)


def play_job(job: Job) -> list[Outcome]:
    """Play the games of one job (in a worker process or a Ray task)."""
    game = fogboard_games.load(job.preset)
    metric = ruleset_metrics(game)
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
    """One game between `seats` (a bot per seat), chance drawn from `seed`;
    `metric(state, seat)`, if given, a seat's metrics of the final state.

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
            action = chance_outcome(state, rng)
        else:
            length += 1
            action = seats[state.current_player()].step(state)
        state.apply_action(action)
    n = game.num_players()
    metrics = [metric(state, p) if metric else {} for p in range(n)]
    return Outcome(list(state.returns()), length, metrics)


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
    if not is_int(workers) or workers < 1:
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
