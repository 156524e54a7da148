"""`python -m fogboard_games solve PRESET`: one preset solved exactly, with
its size, build, exploitability curve, values, time and memory
(docs/solving.md#medium-games-solved, #the-3x3-boards).

Every row of docs/solving.md's tables of solved games is one run of this
command, so it prints what the row holds and nothing it cannot measure
itself: times are CPU seconds of the process (the machine's load weighs on
them less than on wall-clock times), memory is the tree's arrays and the
process's peak resident size. A board game too big for solve.Tree (the
3x3 boards) is solved on its solve.Treeplex instead, whose iterations are
compiled walks on several threads: there times are wall-clock seconds, one
line an iteration. `--checkpoint DIR` keeps the solver's state after every
iteration, and the same command resumes from it.
"""

from __future__ import annotations

import os
import re
import sys
import time

from fogboard_games.core.params import is_int
from fogboard_games.exploitability import report_points
from fogboard_games.solve import algorithms
from fogboard_games.solve.tree import BUILD_BYTES_PER_NODE, Tree, estimate_histories

ALGORITHMS = {
    "cfr": algorithms.CFR,
    "cfr+": algorithms.CFRPlus,
    "linear": algorithms.LinearCFR,
    "dcfr": algorithms.DCFR,
}
# The checkpoint's file in --checkpoint DIR.
CHECKPOINT = "solve.npz"
# A solver's own bytes a sequence on a treeplex: regrets, average and current
# policy, seat 0's copy of the three while an iteration runs, a regret vector, the
# own reach, the last average policy kept for its evaluation.
SOLVER_BYTES = 8 * 8


class SolveError(ValueError):
    """A request refused before anything is built."""


def peak_rss_mib() -> float | None:
    """The process's peak resident size so far, or None where it is not known."""
    try:
        import resource
    except ImportError:  # (not on Windows)
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # (bytes there, KiB here)


def distance(tree, policy) -> float:
    """Exploitability for two seats (zero-sum), NashConv for more."""
    if tree.num_players == 2:
        return algorithms.exploitability(tree, policy)
    return algorithms.nash_conv(tree, policy)


def load_game(name: str):
    """A preset's game, or a fogboard game given by its load string
    (`fogboard_dark_hex(board_size=3,abrupt=true)`: the 3x3 boards have no
    preset of their own but phantom-ttt-3)."""
    import pyspiel

    import fogboard_games

    if name in fogboard_games.PRESETS:
        return fogboard_games.load(name)
    if isinstance(name, str) and re.fullmatch(r"fogboard_\w+(\(.*\))?", name):
        try:
            return pyspiel.load_game(name)
        except (pyspiel.SpielError, ValueError) as e:
            first = str(e).removeprefix("OpenSpiel exception: ").splitlines()[0]
            raise SolveError(f"cannot load {name!r}: {first}") from None
    raise SolveError(
        f"unknown preset {name!r}; the presets are {', '.join(sorted(fogboard_games.PRESETS))} "
        f"(or a fogboard game's load string, such as fogboard_dark_hex(board_size=3))"
    )


def solve_preset(
    preset: str,
    iterations: int,
    algorithm: str = "cfr+",
    target: float | None = None,
    max_gib: float = 4.0,
    out=None,
    checkpoint: str | None = None,
    workers: int | None = None,
    treeplex: bool = False,
) -> dict:
    """Build `preset`'s tree (or, for a board game too big for one or with
    `treeplex`, its treeplex), run `algorithm` for `iterations` (or until
    the exploitability is at most `target`, checked at the log-spaced
    report points) and print the run; returns what was printed, as numbers.
    `checkpoint`: a folder where the solver's state is kept after every
    iteration, and resumed from."""
    out = out or sys.stdout
    if algorithm not in ALGORITHMS:
        raise SolveError(f"unknown algorithm {algorithm!r}; one of {', '.join(ALGORITHMS)}")
    if not is_int(iterations) or iterations < 1:
        raise SolveError(f"--iterations must be an int of at least 1, got {iterations!r}")
    if target is not None and not 0 < target < float("inf"):
        raise SolveError(f"--target must be a positive number, got {target!r}")
    if not 0 < max_gib <= 1024:
        raise SolveError(f"--max-gib must be above 0 and at most 1024, got {max_gib!r}")
    if workers is not None and (not is_int(workers) or not 1 <= workers <= 1024):
        raise SolveError(f"--workers must be an int from 1 to 1024, got {workers!r}")
    game = load_game(preset)
    path = _checkpoint_path(checkpoint) if checkpoint is not None else None
    max_bytes = max(1, int(max_gib * 2**30))
    if treeplex or _too_big_for_a_tree(game, max_bytes):
        return _solve_treeplex(
            preset, game, iterations, algorithm, target, max_bytes, out, path, workers
        )
    if workers is not None:
        raise SolveError(
            "--workers is for a game solved on its treeplex (a 3x3 board, or --treeplex)"
        )
    measure = "exploitability" if game.num_players() == 2 else "NashConv"
    _saved(path, game, algorithm, "Tree")

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    start = time.process_time()
    try:
        tree = Tree(game, max_bytes=max_bytes)
    except ValueError as e:
        # (the preset's name for its long load string: the refusal stays one short line)
        text = str(e).replace(str(game), preset, 1)
        raise SolveError(text.replace("a larger max_bytes", "a larger --max-gib")) from None
    build = time.process_time() - start
    solver = ALGORITHMS[algorithm](tree)
    curve, solving = _resume(solver, path)
    # (said once the tree is built: a refusal leaves stdout empty)
    say(f"solve {preset}: {game}")
    say(
        f"tree: {tree.num_histories:,} histories (estimated {tree.estimate:.3g} before the walk), "
        f"infostates {tree.num_infostates}, {tree.num_sequences:,} sequences"
    )
    say(
        f"build: {build:.2f} s CPU; arrays {tree.nbytes / 2**20:.1f} MiB "
        f"({tree.nbytes / tree.num_histories:.0f} bytes a history)"
    )
    if path is not None:
        say(_resumed(path, solver))
    say(f"{algorithm:>10} {measure:>15} {'CPU s':>9}")
    for point, reached, seconds in curve:
        say(f"{point:>10} {reached:>15.3e} {seconds:>9.2f}")
    reached_target = bool(curve) and target is not None and curve[-1][1] <= target
    for point in report_points(iterations):
        if point <= solver.iteration or reached_target:
            continue
        start = time.process_time()
        while solver.iteration < point:
            solver.iterate()
            if path is not None and solver.iteration < point:
                kept = solving + time.process_time() - start
                solver.save(path, {"curve": curve, "seconds": kept})
        solving += time.process_time() - start
        reached = distance(tree, solver.average_policy())
        curve.append((point, reached, solving))
        if path is not None:
            solver.save(path, {"curve": curve, "seconds": solving})
        say(f"{point:>10} {reached:>15.3e} {solving:>9.2f}")
        reached_target = target is not None and reached <= target
    done = solver.iteration
    policy = solver.average_policy()
    values = [float(v) for v in algorithms.expected_values(tree, policy)]
    peak = peak_rss_mib()
    say(f"final: {done} iterations of {algorithm}, {measure} {curve[-1][1]:.3e}")
    say("values: " + ", ".join(f"seat {p} {v:+.6f}" for p, v in enumerate(values)))
    bounds = None
    if tree.num_players == 2:
        # The game value of seat 0 is at most what a best response to seat 1's
        # average earns, and at least minus what one to seat 0's earns.
        best = algorithms.best_response_values(tree, policy)
        bounds = (-float(best[1]), float(best[0]))
        say(f"game value of seat 0: between {bounds[0]:+.6f} and {bounds[1]:+.6f}")
    timing = f"{solving:.2f} s CPU ({solving / max(done, 1) * 1000:.1f} ms an iteration)"
    return _finished(
        say,
        tree,
        timing,
        peak,
        preset=preset,
        histories=tree.num_histories,
        build_seconds=build,
        solve_seconds=solving,
        iterations=done,
        curve=curve,
        values=values,
        bounds=bounds,
        distance=curve[-1][1],
    )


def _too_big_for_a_tree(game, max_bytes: int) -> bool:
    """A board game the treeplex lays out, which solve.Tree would refuse for its size."""
    from fogboard_games.solve.treeplex import GAMES

    if getattr(type(game), "short_name", None) not in GAMES:
        return False
    return estimate_histories(game) * BUILD_BYTES_PER_NODE > max_bytes


def _checkpoint_path(folder: str) -> str:
    """The checkpoint file in `folder` (made if missing; its parent must exist)."""
    from fogboard_games.core import files

    if not folder:
        raise SolveError("--checkpoint needs a folder")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise SolveError(f"--checkpoint {folder!r} is a file; want a folder (made if missing)")
    if not os.path.isdir(folder):
        try:
            os.mkdir(folder)
        except OSError as e:
            raise SolveError(
                f"--checkpoint {folder!r}: cannot make the folder ({e.strerror or e}); "
                f"want a folder, or a new one in an existing folder"
            ) from None
    path = os.path.join(folder, CHECKPOINT)
    try:
        files.check_writable(path, "--checkpoint")
    except ValueError as e:
        raise SolveError(str(e)) from None
    return path


def _resume(solver, path: str | None) -> tuple[list, float]:
    """The curve so far and the seconds spent, from the checkpoint at `path`
    if there is one (the solver then continues from it)."""
    if path is None or not os.path.exists(path):
        return [], 0.0
    try:
        extra = solver.restore(path)
    except ValueError as e:
        raise SolveError(f"--checkpoint: {e}") from None
    curve = [tuple(point) for point in extra.get("curve", [])]
    return curve, float(extra.get("seconds", 0.0))


def _resumed(path: str, solver) -> str:
    if solver.iteration:
        return f"checkpoint: {path}, resumed at iteration {solver.iteration}"
    return f"checkpoint: {path}, kept after every iteration"


def _solve_treeplex(preset, game, iterations, algorithm, target, max_bytes, out, path, workers):
    """The run on the game's treeplex (solve_preset's arguments): one line an
    iteration with its wall-clock time, the exploitability at the report
    points, the checkpoint after every iteration."""
    from fogboard_games.solve.treeplex import Treeplex

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    try:
        import fogboard_games.jit  # noqa: F401  (the walk's compiler, asked before anything is built)
    except ImportError as e:
        raise SolveError(str(e)) from None
    header = _saved(path, game, algorithm, "Treeplex")
    saved = header["extra"].get("workers") if header is not None else None
    if workers is not None and saved is not None and workers != saved:
        raise SolveError(
            f"--checkpoint {os.path.dirname(path)!r} holds a run on {saved} workers (its sums "
            f"are split that way): resume it with --workers {saved}, or use another folder"
        )
    workers = workers or saved
    try:
        size = Treeplex.measure(game, workers)
    except ValueError as e:
        raise SolveError(str(e).replace(str(game), preset, 1)) from None
    need = size.bytes + SOLVER_BYTES * sum(size.num_sequences)
    if need > max_bytes:
        raise SolveError(
            f"{preset}: its treeplex and solver need about {need / 2**30:.1f} GiB; the bound "
            f"is {max_bytes / 2**30:.1f} GiB: pass a larger --max-gib"
        )
    say(f"solve {preset}: {game}")
    say(
        f"treeplex: infostates {size.num_infostates}, sequences {size.num_sequences}, from "
        f"{size.beliefs:,} belief states; about {need / 2**30:.2f} GiB with the solver "
        f"(bound {max_bytes / 2**30:.1f} GiB)"
    )
    wall = time.perf_counter()
    tree = Treeplex(game, max_bytes=max_bytes, workers=workers)
    build = time.perf_counter() - wall
    say(f"build: {build:.2f} s; arrays {tree.nbytes / 2**20:.1f} MiB; {tree.workers} workers")
    solver = ALGORITHMS[algorithm](tree)
    curve, solving = _resume(solver, path)
    if path is not None:
        say(_resumed(path, solver))
    say(f"{'iteration':>10} {'exploitability':>15} {'seconds':>9} {'total s':>9}")
    for point, reached, seconds in curve:
        say(f"{point:>10} {reached:>15.3e} {'-':>9} {seconds:>9.1f}")
    points = set(report_points(iterations))
    reached_target = bool(curve) and target is not None and curve[-1][1] <= target
    average, average_at = None, -1
    while solver.iteration < iterations and not reached_target:
        start = time.perf_counter()
        solver.iterate()
        took = time.perf_counter() - start
        reached = None
        if solver.iteration in points or solver.iteration == iterations:
            average = solver.average_policy()  # (kept: its evaluation serves the end too)
            reached = algorithms.exploitability(tree, average)
            average_at = solver.iteration
        solving += time.perf_counter() - start
        if reached is not None:
            curve.append((solver.iteration, reached, solving))
            reached_target = target is not None and reached <= target
        if path is not None:
            solver.save(path, {"curve": curve, "seconds": solving, "workers": tree.workers})
        shown = f"{reached:>15.3e}" if reached is not None else f"{'-':>15}"
        say(f"{solver.iteration:>10} {shown} {took:>9.1f} {solving:>9.1f}")
    done = solver.iteration
    if average is None or average_at != done:
        average = solver.average_policy()
    evaluation = tree.evaluate(average)
    values = [float(v) for v in evaluation.expected_values]
    best = evaluation.best_response_values
    bounds = (-float(best[1]), float(best[0]))
    gap = float(best.mean())
    peak = peak_rss_mib()
    say(f"final: {done} iterations of {algorithm}, exploitability {gap:.3e}")
    say("values: " + ", ".join(f"seat {p} {v:+.6f}" for p, v in enumerate(values)))
    say(f"game value of seat 0: between {bounds[0]:+.6f} and {bounds[1]:+.6f}")
    timing = (
        f"{solving:.1f} s wall ({solving / max(done, 1):.1f} s an iteration, with its "
        "exploitability at the report points)"
    )
    return _finished(
        say,
        tree,
        timing,
        peak,
        preset=preset,
        histories=None,
        build_seconds=build,
        solve_seconds=solving,
        iterations=done,
        curve=curve,
        values=values,
        bounds=bounds,
        distance=gap,
    )


def _finished(say, tree, timing: str, peak, **result) -> dict:
    """Say the run's last line (`timing`: how its solve was timed) and return its
    JSON-ready result, alike for a Tree and a Treeplex (which counts no histories)."""
    say(
        f"time: build {result['build_seconds']:.2f} s, solve {timing}; memory: arrays "
        f"{tree.nbytes / 2**20:.1f} MiB, peak RSS "
        + (f"{peak:.0f} MiB" if peak is not None else "unknown")
    )
    result["curve"] = [(p, e) for p, e, _ in result["curve"]]
    return {
        **result,
        "infostates": list(tree.num_infostates),
        "tree_bytes": tree.nbytes,
        "peak_rss_mib": peak,
    }


def _saved(path: str | None, game, algorithm: str, tree: str) -> dict | None:
    """The header of the checkpoint at `path` (None: there is none), checked
    against this run's game, algorithm and kind of tree before anything is
    built or printed (Solver.restore checks the rest)."""
    import json

    import numpy as np

    if path is None or not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            header = json.loads(saved["header"].tobytes().decode("utf-8"))
        header["extra"].get("workers")
    except (OSError, ValueError, KeyError, AttributeError, TypeError, UnicodeDecodeError) as e:
        raise SolveError(f"--checkpoint: {path!r} is not a solver checkpoint ({e})") from None
    wanted = {"game": str(game), "solver": ALGORITHMS[algorithm].__name__, "tree": tree}
    for key, value in wanted.items():
        if header.get(key) != value:
            raise SolveError(
                f"--checkpoint: {path!r} holds a run with {key} {header.get(key)!r}, not "
                f"{value!r}: use another folder to start this one"
            )
    return header
