"""`python -m fogboard_games solve PRESET`: one preset solved exactly, with
its size, build, exploitability curve, values, time and memory
(docs/solving.md#medium-games-solved).

Every row of docs/solving.md's table of solved games is one run of this
command, so it prints what the row holds and nothing it cannot measure
itself: times are CPU seconds of the process (the machine's load weighs on
them less than on wall-clock times), memory is the tree's arrays and the
process's peak resident size.
"""

from __future__ import annotations

import sys
import time

from fogboard_games.core.params import is_int
from fogboard_games.exploitability import report_points
from fogboard_games.solve import algorithms
from fogboard_games.solve.tree import Tree

ALGORITHMS = {
    "cfr": algorithms.CFR,
    "cfr+": algorithms.CFRPlus,
    "linear": algorithms.LinearCFR,
    "dcfr": algorithms.DCFR,
}


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


def solve_preset(
    preset: str,
    iterations: int,
    algorithm: str = "cfr+",
    target: float | None = None,
    max_gib: float = 4.0,
    out=None,
) -> dict:
    """Build `preset`'s tree, run `algorithm` for `iterations` (or until the
    exploitability is at most `target`, checked at the log-spaced report
    points) and print the run; returns what was printed, as numbers."""
    import fogboard_games

    out = out or sys.stdout
    if preset not in fogboard_games.PRESETS:
        raise SolveError(
            f"unknown preset {preset!r}; the presets are {', '.join(sorted(fogboard_games.PRESETS))}"
        )
    if algorithm not in ALGORITHMS:
        raise SolveError(f"unknown algorithm {algorithm!r}; one of {', '.join(ALGORITHMS)}")
    if not is_int(iterations) or iterations < 1:
        raise SolveError(f"--iterations must be an int of at least 1, got {iterations!r}")
    if target is not None and not 0 < target < float("inf"):
        raise SolveError(f"--target must be a positive number, got {target!r}")
    if not 0 < max_gib <= 1024:
        raise SolveError(f"--max-gib must be above 0 and at most 1024, got {max_gib!r}")
    game = fogboard_games.load(preset)
    measure = "exploitability" if game.num_players() == 2 else "NashConv"

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    start = time.process_time()
    try:
        tree = Tree(game, max_bytes=max(1, int(max_gib * 2**30)))
    except ValueError as e:
        # (the preset's name for its long load string: the refusal stays one short line)
        text = str(e).replace(str(game), preset, 1)
        raise SolveError(text.replace("a larger max_bytes", "a larger --max-gib")) from None
    build = time.process_time() - start
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
    say(f"{algorithm:>10} {measure:>15} {'CPU s':>9}")
    solver = ALGORITHMS[algorithm](tree)
    curve = []
    solving = 0.0
    done = 0
    for point in report_points(iterations):
        start = time.process_time()
        solver.run(point - done)
        solving += time.process_time() - start
        done = point
        reached = distance(tree, solver.average_policy())
        curve.append((point, reached))
        say(f"{point:>10} {reached:>15.3e} {solving:>9.2f}")
        if target is not None and reached <= target:
            break
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
    say(
        f"time: build {build:.2f} s, solve {solving:.2f} s CPU ({solving / done * 1000:.1f} ms "
        f"an iteration); memory: arrays {tree.nbytes / 2**20:.1f} MiB, peak RSS "
        + (f"{peak:.0f} MiB" if peak is not None else "unknown")
    )
    return {
        "preset": preset,
        "histories": tree.num_histories,
        "infostates": list(tree.num_infostates),
        "build_seconds": build,
        "solve_seconds": solving,
        "iterations": done,
        "curve": curve,
        "values": values,
        "bounds": bounds,
        "distance": curve[-1][1],
        "tree_bytes": tree.nbytes,
        "peak_rss_mib": peak,
    }
