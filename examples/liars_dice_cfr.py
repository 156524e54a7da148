"""Solve small Liar's Dice games with CFR+ and report the first seat's value.

    python examples/liars_dice_cfr.py --params numdice=1,wild=highest,prophecy=false
    python examples/liars_dice_cfr.py --preset liars-dice-1 --iterations 2000

The game is wrapped as `cached_tree(game=...)`: OpenSpiel's C++ CFR+ walks
the whole tree every iteration, and the cache keeps those walks in C++
instead of calling back into our Python rules (docs/liars_dice.md has the
numbers this script produced). Every `--report` iterations it prints the
exploitability of the average policy (`pyspiel.exploitability`: the mean
of what each seat's best response gains, zero at a Nash equilibrium) and
the first seat's expected return under it; the true value lies within the
exploitability of that return.
"""

from __future__ import annotations

import argparse
import gc
import time

import pyspiel

import fogboard_games


def game_string(preset: str | None, params: str) -> str:
    """The full game string of a preset, or of `fogboard_liars_dice(<params>)`
    (pyspiel parses the parameters and fills in the defaults)."""
    if preset:
        return str(fogboard_games.load(preset))
    return str(pyspiel.load_game(f"fogboard_liars_dice({params})"))


def solve(game_string: str, iterations: int, report: int, seconds: float) -> list[tuple]:
    """CFR+ on the cached tree; (iterations, exploitability, value, seconds) rows."""
    game = pyspiel.load_game(f"cached_tree(game={game_string})")
    # The cached tree keeps every Python state alive; the cyclic garbage
    # collector would rescan them all again and again while the tree grows.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _iterate(game, iterations, report, seconds)
    finally:
        if collecting:
            gc.enable()


def _iterate(game, iterations: int, report: int, seconds: float) -> list[tuple]:
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    rows = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        done = time.perf_counter() - start > seconds
        if i % report == 0 or i == iterations or done:
            policy = solver.average_policy()
            expl = pyspiel.exploitability(game, policy)
            value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
            rows.append((i, expl, value, time.perf_counter() - start))
            print(
                f"iter {i:>6}  exploitability {expl:.6f}  value(seat 0) {value:+.6f}  "
                f"{rows[-1][3]:.0f} s",
                flush=True,
            )
        if done:
            break
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default=None, help="a preset name, e.g. liars-dice-1")
    parser.add_argument("--params", default="numdice=1,wild=highest,prophecy=false")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--report", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=3600.0, help="stop after this long")
    args = parser.parse_args()
    text = game_string(args.preset, args.params)
    print(text)
    solve(text, args.iterations, args.report, args.seconds)


if __name__ == "__main__":
    main()
