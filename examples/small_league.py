"""A small league from Python: random, heuristic and IS-MCTS on two small presets.

    python examples/small_league.py
    python examples/small_league.py --episodes 50 --simulations 100 --out league.json
    python examples/small_league.py --games dark-hex-4,mind-bluff-tiny --bots random,ismcts

`fogboard_games.league.run(games, kinds, episodes, ...)` plays every kind in
every seat against every other kind, `episodes` games per seat assignment,
and returns the report that `python -m fogboard_games league` prints
(docs/league.md); `league.format_table` renders its table and
`league.write_json` writes it (`--out`). The league makes every bot with
`make_bot(kind, game, seat, seed)`, so a kind's options are its defaults;
IS-MCTS's default 200 simulations a move are slow for a quick look, so this
example registers its own kind, `ismcts-<N>`, that is IS-MCTS with
`--simulations` N. The default run (presets phantom-ttt-3 and
mind-bluff-tiny, 20 episodes, 50 simulations) takes about 15 seconds.
Seeded: the same `--seed` gives the same table.
"""

from __future__ import annotations

import argparse
import functools

from fogboard_games import bots, league


def register_ismcts(simulations: int) -> str:
    """Register IS-MCTS with `simulations` a move as a bot kind; its name."""
    kind = f"ismcts-{simulations}"
    factory = functools.partial(bots.make_bot, "ismcts", simulations=simulations)
    bots.register_kind(kind, lambda game, player, seed=0: factory(game, player, seed))
    return kind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="phantom-ttt-3,mind-bluff-tiny")
    parser.add_argument(
        "--bots", default="random,heuristic,ismcts", help="ismcts plays --simulations"
    )
    parser.add_argument("--episodes", type=int, default=20, help="games per seat assignment")
    parser.add_argument("--simulations", type=int, default=50, help="IS-MCTS simulations a move")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="also write the report as JSON")
    args = parser.parse_args()
    if args.simulations < 1:
        parser.error("--simulations must be at least 1")

    ismcts = register_ismcts(args.simulations)
    try:
        kinds = [ismcts if k == "ismcts" else k for k in league.parse_list(args.bots, "bots")]
        games = league.parse_list(args.games, "games")
        if args.out:
            league.check_writable(args.out, "--out")  # before the games, not after
        report = league.run(games, kinds, args.episodes, seed=args.seed, progress=False)
    except league.LeagueError as e:
        raise SystemExit(f"small_league: {e}") from None
    print(league.format_table(report["table"]))
    for skip in report["skipped"]:
        print(f"{skip['bot']} does not play {skip['game']}: sat it out")
    if args.out:
        league.write_json(report, args.out)
        print(f"report written to {args.out}")


if __name__ == "__main__":
    main()
