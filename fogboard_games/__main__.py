"""The command line, installed as `fogboard` (and `python -m fogboard_games`):
league | play | review | bench [--workloads | --batch | --solve] | solve | tour
(README.md, docs/league.md, docs/bots.md#terminal-play,
docs/reviews.md#the-review-command, docs/performance.md#the-bench-command,
docs/solving.md#medium-games-solved).

Built on argparse, with a parser whose refusals are one line (what was
wrong and what is allowed, exit status 2, no usage block) and a help
formatter that shows every option's default, so every subcommand refuses
and explains itself alike.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
import textwrap

from fogboard_games.core.guards import MAX_INT, MIN_INT, quoted, shortened

# The league the README runs: the baselines on the main preset of every
# ruleset (about 6 s on two cores, well under the two minutes allowed).
LEAGUE_GAMES = "phantom-ttt-3,dark-hex-5,recon-hex-5,liars-dice,mind-bluff,parley"
LEAGUE_BOTS = "random,heuristic"


def run_league(args) -> int:
    """The league command; a Ctrl-C at any moment ends it with one line and exit status 130."""
    import signal

    from fogboard_games.core import interrupts

    stage: dict = {"report": None}  # how far it got, for the line a Ctrl-C prints
    try:
        with interrupts.stopping():
            return _league(args, stage)
    except KeyboardInterrupt as e:
        # Nothing is left to stop: a second Ctrl-C must not cut this line short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            lead = "\n" if sys.stderr.isatty() else ""  # (past the ^C the terminal echoed)
            print(f"{lead}league: {_interrupted(args, e, stage)}", file=sys.stderr)
        finally:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        return 130


def _again(args) -> str:
    """The exact command that finishes a league stopped early: its arguments and --resume."""
    import shlex

    return shlex.join(
        ["python", "-m", "fogboard_games", "league", "--games", args.games, "--bots", args.bots]
        + ["--episodes", str(args.episodes), "--seed", str(args.seed)]
        + ["--workers", str(args.workers), "--backend", args.backend]
        + (["--address", args.address] if args.address else [])
        + (["--save-games", args.save_games] if args.save_games else [])
        + (["--html", args.html] if args.html else [])
        + _llm_options(args)
        + ["--out", str(args.out), "--resume"]
    )


def _interrupted(args, e: KeyboardInterrupt, stage: dict) -> str:
    """What a Ctrl-C left, in one line: the games its journal keeps and how to finish."""
    from fogboard_games.league import Interrupted, journal_path

    journal = journal_path(args.out) if args.out else None
    finish = f"finish with: {_again(args)}"
    nothing = "nothing kept (without --out there is no journal)"
    if stage["report"] is not None:  # every game played: only the report was being written
        if journal is None:
            return f"interrupted while writing the report; {nothing}"
        if not os.path.exists(journal):  # (removed once the report was written)
            return f"interrupted after writing {args.out}; the report is complete"
        return f"interrupted; the finished jobs are in {journal} (every game); {finish}"
    if isinstance(e, Interrupted) and e.journaled:
        games = f"{e.played} of {e.total} games"
        return f"interrupted; the finished jobs are in {journal} ({games}); {finish}"
    if isinstance(e, Interrupted) and journal is None:
        return f"interrupted after {e.played} of {e.total} games; {nothing}"
    if args.resume and journal is not None and os.path.exists(journal):
        return f"interrupted before resuming; the finished jobs are in {journal}; {finish}"
    return "interrupted before any game was played; nothing written"


def _league(args, stage: dict) -> int:
    from fogboard_games import league
    from fogboard_games.bots.llm_config import LLMConfigError
    from fogboard_games.core import files, interrupts

    def note(text: str) -> None:
        print(f"league: {text}", file=sys.stderr, flush=True)

    journal = league.journal_path(args.out) if args.out else None
    try:
        if args.resume and not args.out:
            raise league.LeagueError("--resume needs --out: the journal kept beside it")
        games = league.parse_list(args.games, "games")
        kinds = league.parse_list(args.bots, "bots")
        # (`is not None`: an empty path is refused, not taken for no path)
        if args.out is not None:
            league.check_writable(args.out, "--out")  # now, not after the league has run
        if args.html is not None:
            league.check_writable(args.html, "--html")
        if args.address is not None and args.backend != "ray":
            raise league.LeagueError(
                f"--address is an option of --backend ray only (the backend is {args.backend!r})"
            )
        if args.address == "":
            raise league.LeagueError("--address '' is empty; want a Ray cluster's address")
        try:
            files.check_distinct(
                {"--out": args.out, "--out's journal": journal, "--html": args.html}
            )
        except ValueError as e:
            raise league.LeagueError(str(e)) from None
        try:
            llm_seats = prepare_llm(kinds, games, args, "--bots")
        except LLMConfigError as e:
            raise league.LeagueError(str(e)) from None
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
            save_games=args.save_games,
            llm=llm_seats,
        )
    except league.JobsFailed as e:
        kept = f"; the other jobs are in {journal}" if journal else ""
        print(f"league: a job failed: {e}{kept}", file=sys.stderr)
        return 2
    except league.LeagueError as e:
        print(f"league: {e}", file=sys.stderr)
        return 2
    stage["report"] = report
    interrupts.check()  # (a Ctrl-C a library swallowed stops the league here)
    print(
        f"league: {len(games)} games, bots {', '.join(kinds)}, {args.episodes} episodes per "
        f"seat assignment, seed {args.seed}"
    )
    print(league.format_table(report["table"], report["ratings"]))
    for skip in report["skipped"]:
        print(f"({skip['bot']} does not play {skip['game']})")
    if report.get("usage"):
        print(f"\n{league.format_usage(report['usage'])}")
    if args.html:
        from fogboard_games.pages.league import league_page

        page = league_page(report, league.saved_games(report), os.path.dirname(args.html) or ".")
        try:
            files.write_atomically(args.html, page)
        except OSError as e:
            kept = f"; the games are kept in {journal}" if journal else ""
            print(f"league: --html {args.html!r}: {e.strerror or e}{kept}", file=sys.stderr)
            return 2
        print(f"wrote {args.html}")
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


def prepare_llm(kinds, presets, args, option: str) -> dict:
    """Register the language-model kinds among `kinds` from --llm-config (and
    --llm-record / --llm-replay), before any game; their public configs by kind."""
    from fogboard_games.bots import llm

    return llm.prepare(
        kinds, presets, args.llm_config, args.llm_record, args.llm_replay, option=option
    )


def _llm_options(args) -> list[str]:
    """The language-model options as given, to repeat them in a command line."""
    out = []
    for flag, value in (
        ("--llm-config", args.llm_config),
        ("--llm-record", args.llm_record),
        ("--llm-replay", args.llm_replay),
    ):
        out += [flag, value] if value else []
    return out


def add_llm_options(parser, also: str = "") -> None:
    """--llm-config, --llm-record and --llm-replay (docs/bots.md#language-model-seats)."""
    parser.add_argument(
        "--llm-config",
        default=None,
        metavar="FILE",
        help="the seats of the llm:NAME kinds, JSON, one entry per NAME "
        f"(docs/bots.md#language-model-seats){also}",
    )
    parser.add_argument(
        "--llm-record",
        default=None,
        metavar="DIR",
        help="keep every request to the models and its reply in DIR (never the key)",
    )
    parser.add_argument(
        "--llm-replay",
        default=None,
        metavar="DIR",
        help="answer the models' requests from DIR, as --llm-record kept them, without any endpoint",
    )


class Parser(argparse.ArgumentParser):
    """An argparse parser that refuses in one line: `prog: what is wrong; see prog --help`."""

    def error(self, message: str):
        # (shortened: argparse quotes a refused value whole, however long)
        self.exit(2, f"{self.prog}: {shortened(message)}; see {self.prog} --help\n")


class Help(argparse.ArgumentDefaultsHelpFormatter):
    """Shows each option's default, also for options without help text; none
    for a flag (False) or an option whose help says what leaving it out means (None)."""

    def _get_help_string(self, action):
        if action.default is None or action.default is False:
            return action.help
        return super()._get_help_string(action)

    def _split_lines(self, text, width):
        # Only at spaces: a preset name (dark-hex-5) or a list of them stays whole.
        text = self._whitespace_matcher.sub(" ", text).strip()
        return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False)

    def _format_action(self, action):
        if not action.help and action.option_strings and action.default is not None:
            action = copy.copy(action)  # (the parser's own action keeps its help)
            action.help = "(default: %(default)s)"
        return super()._format_action(action)


def integer(text: str) -> int:
    """A 64-bit int written in ASCII digits (int() alone takes "1_0", "٣" and 4,300 digits)."""
    if not re.fullmatch(r"[+-]?[0-9]{1,19}", text.strip()) or not (MIN_INT <= int(text) <= MAX_INT):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not an int of at most 64 bits")
    return int(text)


def number(text: str) -> float:
    """A float written as one: ASCII digits, no "nan" or "inf" (float() takes both)."""
    if not re.fullmatch(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?", text.strip()):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a finite decimal number")
    return float(text)


def invoked_as(argv) -> str:
    """The name usage lines give the command: how it was run (`fogboard`, the
    console script; `python -m fogboard_games`, run as a module), or `fogboard`
    when called from Python with an argument list."""
    if argv is not None:
        return "fogboard"
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if name in ("", "-c", "__main__.py"):  # (-m: sys.argv[0] is this file's path)
        return "python -m fogboard_games"
    return name.removesuffix(".exe")  # (the script pip writes on Windows)


def build_parser(prog: str = "fogboard") -> Parser:
    """The command line's parser, every subcommand's options with their defaults."""
    from fogboard_games import PRESETS
    from fogboard_games.bench import DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE, MIN_SECONDS

    parser = Parser(
        prog=prog,
        formatter_class=Help,
        epilog="Each command's options: COMMAND --help.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench = sub.add_parser(
        "bench", help="playout speed beside OpenSpiel's C++ games", formatter_class=Help
    )
    bench.add_argument(
        "--rounds", type=integer, default=3, help="rounds, ours and C++ alternating (best is kept)"
    )
    bench.add_argument(
        "--seconds",
        type=number,
        default=0.4,
        help=f"time per measurement, at least {MIN_SECONDS}",
    )
    bench.add_argument(
        "--only",
        default=None,
        help="comma-separated preset names, of those the mode measures (default: all of them)",
    )
    mode = bench.add_mutually_exclusive_group()
    mode.add_argument(
        "--workloads",
        action="store_true",
        help="instead, random playouts reading the mover's information-state string",
    )
    mode.add_argument(
        "--batch",
        action="store_true",
        help="instead, fogboard_games.batch's batched plies/s beside the C++ loop",
    )
    mode.add_argument(
        "--solve",
        action="store_true",
        help="instead, fogboard_games.solve's tree, iterations and exploitability beside OpenSpiel's",
    )
    bench.add_argument(
        "--batch-size",
        type=integer,
        default=None,
        help=f"rows of the --batch environments, 1 to {MAX_BATCH_SIZE} (default: {DEFAULT_BATCH_SIZE})",
    )
    sub.add_parser(
        "tour", help="play every preset once at random and print a table", formatter_class=Help
    )
    league = sub.add_parser(
        "league", help="every pairing of bot kinds on every preset", formatter_class=Help
    )
    league.add_argument(
        "--games",
        default=LEAGUE_GAMES,
        help="comma-separated presets or load strings (fogboard_dark_hex(board_size=3))",
    )
    league.add_argument("--bots", default=LEAGUE_BOTS, help="comma-separated bot kinds")
    league.add_argument("--episodes", type=integer, default=50, help="games per seat assignment")
    league.add_argument("--workers", type=integer, default=1, help="processes (or Ray CPUs)")
    league.add_argument("--backend", default="local", help="local (processes) or ray")
    league.add_argument("--address", default=None, help="a Ray cluster's address (--backend ray)")
    league.add_argument("--seed", type=integer, default=0)
    league.add_argument(
        "--out",
        default=None,
        help="also write the table as JSON here, keeping each finished job in OUT.journal",
    )
    league.add_argument(
        "--html",
        default=None,
        help="also write the report as one self-contained page here (docs/league.md#the-page)",
    )
    league.add_argument(
        "--save-games",
        default=None,
        metavar="DIR",
        help="keep every game's review in DIR, a folder per table row (default: not kept)",
    )
    league.add_argument(
        "--resume",
        action="store_true",
        help="finish the league whose journal is beside --out, playing only what it lacks",
    )
    add_llm_options(league, "; the league plays their games on --workers threads")
    play = sub.add_parser(
        "play", help="play a preset in the terminal against bots", formatter_class=Help
    )
    play.add_argument(
        "preset",
        help=f"one of {', '.join(sorted(PRESETS))}; or a load string, such as "
        "fogboard_dark_hex(board_size=3)",
    )
    play.add_argument(
        "--opponent",
        default="heuristic",
        help="the bot kind of the other seats (one that plays the preset)",
    )
    play.add_argument(
        "--seat", type=integer, default=0, help="your seat, 0 to the preset's players - 1"
    )
    play.add_argument("--seed", type=integer, default=0, help="the bots' and chance's seed")
    play.add_argument(
        "--save", default=None, help="write the review here at the end (default: not saved)"
    )
    play.add_argument(
        "--web",
        action="store_true",
        help="play in the browser: serve a page on 127.0.0.1 (docs/bots.md#play-in-the-browser)",
    )
    play.add_argument(
        "--port", type=integer, default=None, help="with --web, the port (default: 0, a free one)"
    )
    add_llm_options(play)
    review = sub.add_parser(
        "review", help="the Truth Replay of a saved review", formatter_class=Help
    )
    review.add_argument("file", help="a review, as play --save writes it (JSON)")
    review.add_argument(
        "--html",
        default=None,
        metavar="OUT",
        help="write the review page (one self-contained HTML file) here instead",
    )
    solve = sub.add_parser(
        "solve",
        help="solve a preset exactly: its tree, an exploitability curve, values (docs/solving.md)",
        formatter_class=Help,
    )
    solve.add_argument("preset", help=f"one of {', '.join(sorted(PRESETS))}")
    solve.add_argument("--iterations", type=integer, default=1000, help="iterations, at least 1")
    solve.add_argument("--algorithm", default="cfr+", help="cfr, cfr+, linear (linear CFR) or dcfr")
    solve.add_argument(
        "--target",
        type=number,
        default=None,
        help="stop at the first report point whose exploitability (NashConv past two seats) "
        "is at most this (default: run every iteration)",
    )
    solve.add_argument(
        "--max-gib", type=number, default=4.0, help="the tree's memory bound while built, in GiB"
    )
    solve.add_argument(
        "--checkpoint",
        default=None,
        metavar="DIR",
        help="keep the solver's state in DIR after every iteration, and resume from it "
        "(the same command continues a stopped run; default: not kept)",
    )
    solve.add_argument(
        "--treeplex",
        action="store_true",
        help="solve on the game's treeplex (docs/solving.md#the-3x3-boards) even if its tree "
        "fits; a board game too big for a tree is solved on it anyway",
    )
    solve.add_argument(
        "--workers",
        type=integer,
        default=None,
        help="threads of a treeplex's walks (default: this machine's cores; a resumed run "
        "keeps its own)",
    )
    return parser


def main(argv=None, prog: str | None = None) -> int:
    try:
        code = run(argv, prog)
        sys.stdout.flush()  # here, so that a reader gone away is caught below
        return code
    except BrokenPipeError:
        # The reader went away (`fogboard tour | head -1`): stop quietly, as
        # command-line tools do. stdout goes to devnull first, or Python's own
        # flush at exit would raise once more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, what a shell reports for a tool stopped so


def run_review(args) -> int:
    """The review command: a saved review's Truth Replay, or with --html its review page."""
    from fogboard_games import saved_review

    try:
        if args.html is not None:
            print(saved_review.write_page(args.file, args.html))
        else:
            print(saved_review.truth_replay(args.file))
        return 0
    except saved_review.SavedReviewError as e:
        print(f"review: {shortened(e)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: nothing saved", file=sys.stderr)
        return 130


def run(argv=None, prog: str | None = None) -> int:
    """The command line's work; `main` adds the quiet stop of a closed pipe."""
    args = build_parser(prog or invoked_as(argv)).parse_args(argv)
    from fogboard_games.core import interrupts

    interrupts.loaded()  # (from here each command handles Ctrl-C)
    if args.command == "league":
        return run_league(args)
    if args.command == "review":
        return run_review(args)
    if args.command == "play":
        from fogboard_games import play as terminal
        from fogboard_games.bots.llm_config import LLMConfigError, LLMError

        try:
            try:
                prepare_llm([args.opponent], [args.preset], args, "--opponent")
            except LLMConfigError as e:
                raise terminal.PlayError(str(e)) from None
            if args.port is not None and not args.web:
                raise terminal.PlayError("--port is an option of play --web only")
            if args.web:
                from fogboard_games.pages import web_play

                return web_play.serve(
                    args.preset, args.opponent, args.seat, args.seed, args.save, args.port or 0
                )
            return terminal.play(args.preset, args.opponent, args.seat, args.seed, args.save)
        except terminal.PlayError as e:
            # (a message built to be short, a list of presets say, is shown whole)
            print(f"{args.command}: {e if e.whole else shortened(e)}", file=sys.stderr)
            return 2
        except LLMError as e:  # a language-model seat stopped mid-game (a refused key)
            print(f"{args.command}: {shortened(e)}; the game is abandoned", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print("\ninterrupted: nothing saved", file=sys.stderr)
            return 130
    if args.command == "solve":
        from fogboard_games.solve.report import SolveError, solve_preset

        try:
            solve_preset(
                args.preset,
                args.iterations,
                args.algorithm,
                args.target,
                args.max_gib,
                checkpoint=args.checkpoint,
                workers=args.workers,
                treeplex=args.treeplex,
            )
        except SolveError as e:  # (raised before anything is solved)
            print(f"solve: {shortened(e)}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            kept = (
                f"; the last iteration is kept in {args.checkpoint}: run the same command to resume"
                if args.checkpoint
                else ""
            )
            print(f"\nsolve: interrupted{kept}", file=sys.stderr)
            return 130
        return 0
    if args.command == "bench":
        from fogboard_games.bench import (
            DEFAULT_BATCH_SIZE,
            BenchError,
            run,
            run_batch,
            run_solve,
            run_workloads,
        )

        if args.batch_size is not None and not args.batch:
            print("bench: --batch-size is an option of bench --batch only", file=sys.stderr)
            return 2
        # (spaces around a comma allowed, as the league's lists allow them; an
        # empty --only is refused by name, not taken for no --only)
        only = None if args.only is None else [name.strip() for name in args.only.split(",")]
        try:
            if args.batch:
                size = DEFAULT_BATCH_SIZE if args.batch_size is None else args.batch_size
                run_batch(args.rounds, args.seconds, only, batch_size=size)
            elif args.solve:
                run_solve(rounds=args.rounds, seconds=args.seconds, only=only)
            else:
                measure = run_workloads if args.workloads else run
                measure(rounds=args.rounds, seconds=args.seconds, only=only)
        except BenchError as e:  # (raised before anything is measured)
            print(f"bench: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:  # the rows printed so far are the result
            print("\nbench: interrupted", file=sys.stderr)
            return 130
    else:
        from fogboard_games.tour import tour

        try:
            tour()
        except KeyboardInterrupt:
            print("\ntour: interrupted", file=sys.stderr)
            return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(prog="python -m fogboard_games"))
