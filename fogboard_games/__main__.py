"""Command line: `python -m fogboard_games bench [--workloads | --batch] | tour`."""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fogboard_games")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="playout speed beside OpenSpiel's C++ games")
    bench.add_argument("--rounds", type=int, default=3, help="alternating rounds (best is kept)")
    bench.add_argument("--seconds", type=float, default=0.4, help="time per measurement")
    bench.add_argument("--only", default=None, help="comma-separated preset names")
    bench.add_argument(
        "--workloads",
        action="store_true",
        help="instead, random playouts reading the mover's information-state string",
    )
    bench.add_argument(
        "--batch",
        action="store_true",
        help="instead, fogboard_games.batch's batched plies/s beside the C++ loop",
    )
    bench.add_argument(
        "--batch-size", type=int, default=4096, help="rows of the --batch environments"
    )
    sub.add_parser("tour", help="play every preset once at random and print a table")
    args = parser.parse_args(argv)
    if args.command == "bench":
        from fogboard_games.bench import run, run_batch, run_workloads

        only = args.only.split(",") if args.only else None
        if args.batch:
            run_batch(args.rounds, args.seconds, only, batch_size=args.batch_size)
        else:
            measure = run_workloads if args.workloads else run
            measure(rounds=args.rounds, seconds=args.seconds, only=only)
    else:
        from fogboard_games.tour import tour

        tour()
    return 0


if __name__ == "__main__":
    sys.exit(main())
