"""CFR+ on every small preset, with exploitability curves and a log-log plot.

    python examples/cfr_tiny_presets.py
    python examples/cfr_tiny_presets.py --games mind-bluff-tiny,parley-tiny --iterations 100
    python examples/cfr_tiny_presets.py --no-plot

For each game (by default all four: `dark-hex-2`, the 2x2 abrupt dark hex
`fogboard_dark_hex(board_size=2,abrupt=true)` of examples/cfr_small_boards.py,
which is no preset; and the presets `mind-bluff-tiny`, `parley-tiny` and
`liars-dice-classic-1`) OpenSpiel's C++ CFR+ (`pyspiel.CFRPlusSolver`) runs
on `cached_tree(game=...)`: the first iteration walks the Python rules once
and caches every node, the later ones stay in C++. At iterations 1, 2, 5,
10, 20, 50, ... and at the last it prints how far the average policy is
from an equilibrium, and the time spent so far (solving and measuring);
at the end it plots every curve on log-log axes into `--plot` (a PNG, when
matplotlib is installed: `pip install ".[plot]"` from the checkout).

What the numbers mean:

* Two-player zero-sum games (the dark hex, Mind Bluff, Liar's Dice):
  `pyspiel.exploitability`, the mean over the two seats of what a best
  response against the other seat's half of the policy gains. It is zero
  exactly at a Nash equilibrium, and CFR+ drives it to zero.
* parley-tiny (three cogs, general-sum): `pyspiel.nash_conv`, the sum over
  the cogs of what each would gain by switching to a best response. CFR's
  guarantee does not hold beyond two-player zero-sum games, so this is a
  measure of how far the average policy is from a Nash equilibrium, not a
  proof that CFR gets there.

Both are computed as pyspiel computes them, but with each seat's
`pyspiel.TabularBestResponse` built once per game and only handed the new
policy at each report (`fogboard_games.exploitability.Distance`), which skips
rebuilding their trees (a report on Liar's Dice takes 2.5 s instead of 7;
the values are the same to the last digit). The default 100 iterations of
all four games take about a minute and a half on two shared cores, most of
it liars-dice-classic-1's (setting up its solver alone walks its tree for
about 10 s).
"""

from __future__ import annotations

import argparse
import gc
import time

import pyspiel

import fogboard_games
from fogboard_games.exploitability import Distance, report_points

# name -> load string; every one but the 2x2 board is a preset.
GAMES = {
    "dark-hex-2": "fogboard_dark_hex(board_size=2,abrupt=true)",
    "mind-bluff-tiny": "mind-bluff-tiny",
    "parley-tiny": "parley-tiny",
    "liars-dice-classic-1": "liars-dice-classic-1",
}


def game_string(name: str) -> str:
    """The full load string of the game `name` of GAMES (defaults filled in)."""
    text = GAMES[name]
    game = fogboard_games.load(text) if text in fogboard_games.PRESETS else pyspiel.load_game(text)
    return str(game)


def solve(text: str, iterations: int) -> tuple[str, list[tuple[int, float, float]]]:
    """CFR+ on the game `text` (a load string): its measure's name and
    (iteration, value, seconds) rows."""
    start = time.perf_counter()
    game = pyspiel.load_game(f"cached_tree(game={text})")
    solver = pyspiel.CFRPlusSolver(game)
    points = set(report_points(iterations))
    distance, rows = None, []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in points:
            policy = solver.average_policy()
            distance = distance or Distance(game, policy)
            rows.append((i, distance(policy), time.perf_counter() - start))
            print(
                f"  iteration {i:>5}  {distance.name} {rows[-1][1]:.6f}  ({rows[-1][2]:.1f} s)",
                flush=True,
            )
    return distance.name, rows


def plot(curves: dict[str, tuple[str, list]], path: str) -> None:
    """Every curve on log-log axes, as a PNG at `path` (a note if no matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print('no plot: matplotlib is not installed (pip install ".[plot]" from the checkout)')
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, (measure, rows) in curves.items():
        ax.plot([r[0] for r in rows], [r[1] for r in rows], marker="o", label=f"{name} ({measure})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("exploitability (2 seats) / NashConv (3 cogs)")
    ax.set_title("CFR+ average policy on the small games")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
    print(f"plot written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}"
    )
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--plot", default="cfr_tiny_presets.png", help="the PNG to write")
    parser.add_argument("--no-plot", action="store_true", help="write no plot")
    args = parser.parse_args()
    names = list(dict.fromkeys(n.strip() for n in args.games.split(",")))
    for name in names:
        if name not in GAMES:
            parser.error(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")

    # The cached tree keeps every Python state alive; the cyclic garbage
    # collector would rescan them all again and again while the tree grows.
    collecting = gc.isenabled()
    gc.disable()
    curves = {}
    start = time.perf_counter()
    try:
        for name in names:
            text = game_string(name)
            print(f"{name}: CFR+ on cached_tree(game={text})", flush=True)
            curves[name] = solve(text, args.iterations)
            gc.collect()  # the finished game's tree
    finally:
        if collecting:
            gc.enable()
    for name, (measure, rows) in curves.items():
        print(
            f"{name}: {measure} {rows[0][1]:.6f} -> {rows[-1][1]:.6f} in {rows[-1][0]} iterations"
        )
    print(f"total {time.perf_counter() - start:.1f} s")
    if not args.no_plot:
        plot(curves, args.plot)


if __name__ == "__main__":
    main()
