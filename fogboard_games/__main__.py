"""Command line: `python -m fogboard_games league | play | review | bench [--workloads | --batch] | tour`."""

from __future__ import annotations

import argparse
import sys

# The league the README runs: the baselines on the main preset of every
# ruleset (about 15 s on two cores, well under the two minutes allowed).
LEAGUE_GAMES = "phantom-ttt-3,dark-hex-5,recon-hex-5,liars-dice,mind-bluff,parley"
LEAGUE_BOTS = "random,heuristic"


def run_league(args) -> int:
    import os
    import shlex

    from fogboard_games import league

    def note(text: str) -> None:
        print(f"league: {text}", file=sys.stderr, flush=True)

    journal = league.journal_path(args.out) if args.out else None
    # The exact command that finishes this league, told when it stops early.
    again = shlex.join(
        ["python", "-m", "fogboard_games", "league", "--games", args.games, "--bots", args.bots]
        + ["--episodes", str(args.episodes), "--seed", str(args.seed)]
        + ["--workers", str(args.workers), "--backend", args.backend]
        + (["--address", args.address] if args.address else [])
        + ["--out", str(args.out), "--resume"]
    )
    try:
        if args.resume and not args.out:
            raise league.LeagueError("--resume needs --out: the journal kept beside it")
        games = league.parse_list(args.games, "games")
        kinds = league.parse_list(args.bots, "bots")
        if args.out:
            league.check_writable(args.out, "--out")  # now, not after the league has run
        report = league.run(
            games,
            kinds,
            args.episodes,
            workers=args.workers,
            backend=args.backend,
            seed=args.seed,
            address=args.address,
            journal=journal,
            resume=args.resume,
            note=note,
        )
    except KeyboardInterrupt:
        kept = (
            f"the finished jobs are in {journal}; finish with: {again}"
            if journal
            else "nothing kept (without --out there is no journal)"
        )
        print(f"\nleague: interrupted; {kept}", file=sys.stderr)
        return 130
    except league.JobsFailed as e:
        kept = f"; the other jobs are in {journal}" if journal else ""
        print(f"league: a job failed: {e}{kept}", file=sys.stderr)
        return 2
    except league.LeagueError as e:
        print(f"league: {e}", file=sys.stderr)
        return 2
    print(
        f"league: {len(games)} games, bots {', '.join(kinds)}, {args.episodes} episodes per "
        f"seat assignment, seed {args.seed}"
    )
    print(league.format_table(report["table"]))
    for skip in report["skipped"]:
        print(f"({skip['bot']} does not play {skip['game']})")
    if args.out:
        try:
            league.write_json(report, args.out)
        except OSError as e:
            print(
                f"league: --out {args.out!r}: {e.strerror or e}; the games are kept in {journal}",
                file=sys.stderr,
            )
            return 2
        os.remove(journal)  # the report now holds everything the journal did
        print(f"wrote {args.out}")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fogboard_games")
    sub = parser.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench", help="playout speed beside OpenSpiel's C++ games")
    bench.add_argument(
        "--rounds", type=int, default=3, help="rounds, ours and C++ alternating (best is kept)"
    )
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
    league = sub.add_parser("league", help="every pairing of bot kinds on every preset")
    league.add_argument("--games", default=LEAGUE_GAMES, help="comma-separated presets")
    league.add_argument("--bots", default=LEAGUE_BOTS, help="comma-separated bot kinds")
    league.add_argument("--episodes", type=int, default=50, help="games per seat assignment")
    league.add_argument("--workers", type=int, default=1, help="processes (or Ray CPUs)")
    league.add_argument("--backend", default="local", help="local (processes) or ray")
    league.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    league.add_argument("--seed", type=int, default=0)
    league.add_argument(
        "--out",
        default=None,
        help="also write the table as JSON here, keeping each finished job in OUT.journal",
    )
    league.add_argument(
        "--resume",
        action="store_true",
        help="finish the league whose journal is beside --out, playing only what it lacks",
    )
    play = sub.add_parser("play", help="play a preset in the terminal against bots")
    play.add_argument("preset")
    play.add_argument("--opponent", default="heuristic", help="the bot kind of the other seats")
    play.add_argument("--seat", type=int, default=0, help="your seat")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--save", default=None, help="write the review here at the end")
    review = sub.add_parser("review", help="the Truth Replay of a saved review")
    review.add_argument("file")
    args = parser.parse_args(argv)
    if args.command == "league":
        return run_league(args)
    if args.command in ("play", "review"):
        from fogboard_games import play as terminal

        try:
            if args.command == "review":
                print(terminal.truth_replay(args.file))
                return 0
            return terminal.play(args.preset, args.opponent, args.seat, args.seed, args.save)
        except terminal.PlayError as e:
            print(f"{args.command}: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\ninterrupted: nothing saved", file=sys.stderr)
            return 130
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
