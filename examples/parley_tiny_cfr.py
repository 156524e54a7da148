"""CFR on parley-tiny (three cogs, one round), through OpenSpiel's C++ solver.

    python examples/parley_tiny_cfr.py
    python examples/parley_tiny_cfr.py --solver cfr+ --iterations 100 --count

OpenSpiel's C++ CFR (`pyspiel.CFRSolver`, or `pyspiel.CFRPlusSolver` with
`--solver cfr+`) runs on `cached_tree(game=...)`: the first iteration walks
the Python rules once and caches every node, the later ones stay in C++.
At logarithmically spaced iterations (1, 2, 5, 10, 20, 50, ...) and at the
last one it prints the NashConv of the average policy (the sum over the
cogs of what a best response against the others would gain) and the
solver's own time so far. At the end: iterations per second and each cog's
expected points under the average policy. `--count` first walks the tree
once (a few seconds) and prints its histories and each seat's information
states. The default 300 iterations run at about 9 a second on two shared
cores: under a minute in all, NashConv reports included.

Parley is a three-player general-sum game here. CFR's average policy is
guaranteed to approach a Nash equilibrium only in two-player zero-sum
games; with three cogs it need not, so the NashConv printed is a measure
of how far the average policy is from one, not a proof that CFR gets there.
"""

from __future__ import annotations

import argparse
import gc
import time

import pyspiel

import fogboard_games
from fogboard_games.exploitability import Distance, report_points

SOLVERS = {"cfr": pyspiel.CFRSolver, "cfr+": pyspiel.CFRPlusSolver}


def count(game: pyspiel.Game) -> tuple[int, list[int]]:
    """Histories (every node: chance, decision and terminal) and each seat's
    information states, from one walk of the tree."""
    infos = [set() for _ in range(game.num_players())]
    histories = 0
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            continue
        if not state.is_chance_node():
            seat = state.current_player()
            infos[seat].add(state.information_state_string(seat))
        stack.extend(state.child(action) for action in state.legal_actions())
    return histories, [len(seat) for seat in infos]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="parley-tiny")
    parser.add_argument("--solver", choices=sorted(SOLVERS), default="cfr")
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--count", action="store_true", help="first count the tree")
    args = parser.parse_args()
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")

    game = pyspiel.load_game(f"cached_tree(game={fogboard_games.load(args.preset)})")
    print(game)
    # The cached tree keeps every Python state alive; the cyclic garbage
    # collector would rescan them all again and again while the tree grows.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if args.count:
            start = time.perf_counter()
            histories, infos = count(game)
            seats = ", ".join(f"C{seat} {n}" for seat, n in enumerate(infos))
            print(
                f"histories {histories}  information states {sum(infos)} ({seats})  "
                f"({time.perf_counter() - start:.1f} s)",
                flush=True,
            )
        solver = SOLVERS[args.solver](game)
        points = set(report_points(args.iterations))
        nash_conv = None
        solving = 0.0
        for i in range(1, args.iterations + 1):
            start = time.perf_counter()
            solver.evaluate_and_update_policy()
            solving += time.perf_counter() - start
            if i in points:
                policy = solver.average_policy()
                nash_conv = nash_conv or Distance(game, policy)  # NashConv: 3 cogs
                print(
                    f"iteration {i:>5}  NashConv {nash_conv(policy):.6f}  ({solving:.1f} s)",
                    flush=True,
                )
        policy = solver.average_policy()
        points = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
        print(
            f"{args.solver}: {args.iterations} iterations in {solving:.1f} s, "
            f"{args.iterations / solving:.1f} iterations/s"
        )
        cogs = "  ".join(f"C{seat} {p:.4f}" for seat, p in enumerate(points))
        print(f"expected points under the average policy: {cogs}")
    finally:
        if collecting:
            gc.enable()


if __name__ == "__main__":
    main()
