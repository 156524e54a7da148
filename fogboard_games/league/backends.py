"""Playing the league's jobs: one game, one job, and every job on a backend
(docs/league.md).

A job plays in a worker process (`local`) or a Ray task (`ray`) with
nothing but the job itself: it loads its game and makes its bots there,
and results come back in job order, so the table is the same whatever the
backend and the number of workers. Jobs with a language-model seat, which
waits on its endpoint, play on threads of the league's own process
instead (where its client and recording are). Each finished job is handed to
`on_done` as it finishes (the journal). The local workers are our own
processes, each holding one job at a time, so a worker that dies is
known by its job; Ray retries a task whose worker died.
"""

from __future__ import annotations

import random
import signal
from collections import deque
from collections.abc import Callable, Sequence

from fogboard_games import bots as bot_kinds
from fogboard_games.core import guards, interrupts
from fogboard_games.core.named import load_named
from fogboard_games.core.params import is_int
from fogboard_games.core.sampling import chance_outcome
from fogboard_games.league.planning import Job, LeagueError, Outcome, episode_seed, waits

BACKENDS = ("local", "ray")
RAY_MISSING = (
    'the ray backend needs Ray, which is not installed: pip install ".[ray]" from the checkout'
)


def ruleset_metrics(game):
    """The figures the game's ruleset declares for a seat (Ruleset.metrics),
    as metric(state, seat) read from the true match; None if it declares none."""
    metrics = game.ruleset.metrics
    if metrics is None:
        return None
    return lambda state, seat: metrics(state.truth, seat)


class JobsFailed(LeagueError):
    """Jobs whose worker died or whose bots raised; the others were played."""


def play_job(job: Job, on_episode: Callable[[int], None] | None = None) -> list[Outcome]:
    """Play the games of one job (in a worker process or a Ray task);
    `on_episode(episode)` is told each game before it starts."""
    game = load_named(job.preset)  # (a preset, or a load string)
    metric = ruleset_metrics(game)
    out = []
    for episode in range(job.first, job.first + job.count):
        if on_episode is not None:
            on_episode(episode)
        seed = episode_seed(job.seed, job.preset, job.kinds, episode)
        seats = [
            bot_kinds.make_bot(kind, game, seat, seed=seed + seat)
            for seat, kind in enumerate(job.kinds)
        ]
        out.append(play_game(game, seats, seed, metric, review=job.reviews))
    return out


def play_game(game, seats, seed: int, metric=None, review: bool = False) -> Outcome:
    """One game between `seats` (a bot per seat), chance drawn from `seed`;
    `metric(state, seat)`, if given, a seat's metrics of the final state;
    with `review`, the outcome carries the game's review (state.review()),
    so that it comes back from a worker process or a Ray task as JSON-ready data.

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
    metrics = with_bot_metrics([metric(state, p) if metric else {} for p in range(n)], seats)
    kept = None
    if review:
        from fogboard_games.play import final_review  # (with what text seats said)

        kept = final_review(state, dict(enumerate(seats)))
    return Outcome(list(state.returns()), length, metrics, kept)


def with_bot_metrics(metrics: list[dict], seats) -> list[dict]:
    """Each seat's metrics with the figures its bot kept of the game (a bot's
    `game_metrics()`: a language-model seat's tokens and fallbacks), every
    seat given every name, 0 where its bot kept none, as the journal wants
    the same names for every seat."""
    kept = []
    for bot in seats:
        figures = getattr(bot, "game_metrics", None)
        kept.append(figures() if callable(figures) else {})
    names = sorted(set().union(*kept))
    if not names:
        return metrics
    return [{**m, **{k: own.get(k, 0) for k in names}} for m, own in zip(metrics, kept)]


def check_backend(backend: str, workers: int) -> None:
    """Refuse, in one line, a backend or worker count that cannot play, Ray
    included when it is not installed: before any game, not when the jobs start."""
    if backend not in BACKENDS:
        raise LeagueError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if not is_int(workers) or workers < 1:
        raise LeagueError(f"--workers must be a positive int, got {workers!r}")
    if backend == "ray":
        try:
            import ray  # noqa: F401  (imported again to play: a second import is free)
        except ImportError:
            raise LeagueError(RAY_MISSING) from None


def run_jobs(
    jobs: Sequence[Job],
    workers: int = 1,
    backend: str = "local",
    address=None,
    progress: bool = True,
    on_done: Callable[[int, list[Outcome]], None] | None = None,
) -> list[list[Outcome]]:
    """Every job's outcomes, in job order; `on_done(index, outcomes)` is
    called in this process as each job finishes, before the next is taken.

    JobsFailed, after every other job has been played, if a local worker
    died or a job raised; KeyboardInterrupt stops the workers and passes on.
    """
    check_backend(backend, workers)
    out: list = [None] * len(jobs)

    def finished(i: int, result: list[Outcome]) -> None:
        out[i] = result
        if on_done is not None:
            on_done(i, result)
        bar.update(jobs[i].count)

    failures: list[str] = []  # one line a failed job, every backend alike
    bar = _progress(sum(j.count for j in jobs), progress)
    # Jobs whose bots wait on the network (language-model seats) play on
    # threads of this process, after the others, on any backend; with one
    # local worker every job plays in this process in turn.
    threaded = [i for i, j in enumerate(jobs) if _waits(j)]
    if backend == "local" and workers == 1:
        threaded = []
    waiting = set(threaded)
    rest = [i for i in range(len(jobs)) if i not in waiting]

    def part(indices: list[int]):
        return [jobs[i] for i in indices], lambda k, result: finished(indices[k], result)

    try:
        if backend == "ray":
            if rest:
                sub, done = part(rest)
                _run_ray(sub, workers, address, done, failures)
        elif workers == 1:
            # In this process: a bot that kills the process ends the league
            # here, with the journal keeping what finished before.
            for i, job in enumerate(jobs):
                try:
                    result = play_job(job)
                except Exception as e:
                    failures.append(f"{describe_job(job, None)}: raised {_raised(e)}")
                else:
                    finished(i, result)
        elif rest:
            sub, done = part(rest)
            _run_local(sub, workers, done, failures)
        if threaded:
            sub, done = part(threaded)
            _run_threads(sub, workers, done, failures)
    finally:
        bar.close()
    if failures:
        more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
        raise JobsFailed(f"{failures[0]}{more}")
    return out


def describe_job(job: Job, episode: int | None) -> str:
    """A job as a failure names it: preset, kinds by seat, episode and seeds."""
    games = (
        f"episode {episode} (game seed {episode_seed(job.seed, job.preset, job.kinds, episode)})"
        if episode is not None
        else f"episodes {job.first}-{job.first + job.count - 1}"
    )
    return f"{job.preset} with {','.join(job.kinds)} (by seat), {games}, league seed {job.seed}"


def _worker(conn) -> None:
    """A local worker: plays the jobs it is sent, one at a time, until told to stop."""
    # Ctrl-C reaches the whole process group: the parent stops the league,
    # the workers are stopped by it rather than each printing a traceback.
    interrupts.worker_ignores()
    try:
        while (msg := conn.recv()) is not None:
            i, job = msg
            try:
                result = play_job(job, lambda e, i=i: conn.send(("episode", i, e)))
            except Exception as e:  # reported by the parent with the job
                conn.send(("raised", i, _raised(e)))
            else:
                conn.send(("done", i, result))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass  # the parent is gone: nothing left to report to


def _raised(e: BaseException) -> str:
    """An exception a job raised, as its failure's one line says it."""
    return f"{type(e).__name__}: {_one_line(e)}"


def _one_line(e: Exception) -> str:
    """An exception's message on one short line, even if its __str__ raises."""
    try:
        text = " ".join(str(e).split())
    except Exception:
        return "(its message could not be shown)"
    return guards.clip(text, 200)


def _exit_reason(code) -> str:
    if code is None:
        return "its worker died"
    if code < 0:
        try:
            return f"its worker died ({signal.Signals(-code).name})"
        except ValueError:
            return f"its worker died (signal {-code})"
    return f"its worker died (exit code {code})"


def _run_local(jobs: Sequence[Job], workers: int, finished, failures: list[str]) -> None:
    """The jobs on `workers` processes of ours, each sent one job at a time
    over its own pipe, so the parent always knows which job (and game) a
    worker holds: a death (os._exit, a segfault, the OOM killer) is
    attributed to it, a new worker takes its place and the rest play on."""
    import multiprocessing
    from multiprocessing.connection import wait

    queue = deque(range(len(jobs)))
    slots: dict = {}  # parent end of a worker's pipe -> [process, job index, episode]

    def start() -> None:
        # Held: the worker starts with SIGINT blocked (until it ignores it), so
        # a Ctrl-C as it starts is never its own traceback; and a started
        # worker is always in `slots`, which the parent stops on the way out.
        with interrupts.held():
            parent, child = multiprocessing.Pipe()
            process = multiprocessing.Process(target=_worker, args=(child,), daemon=True)
            process.start()
            child.close()  # so the parent reads EOF when the worker dies
            slots[parent] = [process, None, None]

    try:
        for _ in range(min(workers, len(jobs))):
            start()
        while slots:
            for conn, slot in list(slots.items()):
                if slot[1] is None:
                    if queue:
                        slot[1], slot[2] = queue.popleft(), None
                        try:
                            conn.send((slot[1], jobs[slot[1]]))
                        except OSError:
                            pass  # died between jobs: wait() reads its EOF and reports it
                    else:
                        try:
                            conn.send(None)
                        except OSError:
                            pass  # already gone, with nothing of ours
                        slot[0].join()
                        del slots[conn]
                        conn.close()
            if not slots:
                break  # every worker told to stop: nothing left to wait for
            for conn in wait(list(slots)):
                slot = slots[conn]
                try:
                    kind, i, payload = conn.recv()
                except (EOFError, OSError):
                    slot[0].join(timeout=10)
                    failures.append(
                        f"{describe_job(jobs[slot[1]], slot[2])}: {_exit_reason(slot[0].exitcode)}"
                    )
                    del slots[conn]
                    conn.close()
                    if queue:
                        start()
                    continue
                if kind == "episode":
                    slot[2] = payload
                    continue
                episode, slot[1], slot[2] = slot[2], None, None
                if kind == "done":
                    finished(i, payload)
                else:
                    failures.append(f"{describe_job(jobs[i], episode)}: raised {payload}")
    finally:
        for conn, (process, _, _) in slots.items():
            process.terminate()
            process.join(timeout=10)
            conn.close()


def _waits(job: Job) -> bool:
    return any(waits(kind) for kind in job.kinds)


def _run_threads(jobs: Sequence[Job], workers: int, finished, failures: list[str]) -> None:
    """The jobs on `workers` threads of this process, each taking the next job
    when it is free; outcomes handed to `finished` in this thread, in the
    order they finish (the table orders them by job). For bots that spend
    their time waiting on an endpoint: no process is needed, and the
    endpoint's clients, keys and recordings stay where they were made.

    Daemon threads: a game waiting on a model cannot be stopped, so at
    Ctrl-C or at exit it is dropped with the process, unjournaled."""
    import queue
    import threading

    todo: queue.SimpleQueue = queue.SimpleQueue()
    for i in range(len(jobs)):
        todo.put(i)
    done: queue.SimpleQueue = queue.SimpleQueue()
    playing: dict[int, int] = {}  # job index -> the episode it is playing
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                result = play_job(jobs[i], lambda e, i=i: playing.__setitem__(i, e))
            except BaseException as e:  # (reported by the league's thread, with the job)
                done.put(("raised", i, _raised(e)))
            else:
                done.put(("done", i, result))

    for k in range(min(workers, len(jobs))):
        threading.Thread(target=work, name=f"fogboard-league-{k}", daemon=True).start()
    try:
        for _ in range(len(jobs)):
            kind, i, payload = done.get()  # (Ctrl-C interrupts the wait)
            if kind == "done":
                finished(i, payload)
            else:
                failures.append(f"{describe_job(jobs[i], playing.get(i))}: raised {payload}")
    finally:
        stop.set()  # no new job is taken; the games in flight end with the process


def _progress(total: int, show: bool):
    from tqdm import tqdm

    # disable=None: no bar when stderr is not a terminal (a log, a pipe),
    # where its redraws would bury the one-line messages.
    return tqdm(
        total=total, unit="game", desc="league", disable=None if show else True, leave=False
    )


def _run_ray(jobs, workers: int, address, finished, failures: list[str]) -> None:
    import ray  # (run_jobs' check_backend has refused a machine without it)

    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        # A task whose worker process dies (killed, out of memory, a node
        # lost) is run again, up to 3 times (Ray's own retries); a job is
        # seeded by itself alone, so its retry plays the same games.
        remote = ray.remote(max_retries=3)(play_job)
        refs = [remote.remote(job) for job in jobs]
        by_ref = {ref: i for i, ref in enumerate(refs)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = by_ref[ref]
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    # A job whose bot raised (retries are for dead workers only),
                    # or whose worker died past its retries: named, the rest played.
                    cause = getattr(e, "cause", None) or e
                    failures.append(f"{describe_job(jobs[i], None)}: raised {_raised(cause)}")
                else:
                    finished(i, result)
    finally:
        if started:
            ray.shutdown()
