"""IS-MCTS against a baseline seat, on any two-seat preset.

Uses OpenSpiel's Python ISMCTSBot (the C++ one crashes on Python games),
seeded through `set_resampler` so that runs repeat, and our
`resample_from_infostate` to draw worlds the searching seat cannot rule
out. The opponent is a uniform random seat (`random`, pyspiel's uniform
random bot) or any bot kind of `fogboard_games.bots.make_bot` that plays
the preset (docs/bots.md): `heuristic` on every game, the board baselines
`probe` and `sweep` on the boards only, `cfr` on the small presets; by
default `probe` on the boards and `random` on any other game. Chance moves
(Liar's Dice rolls) are drawn here.

    python examples/ismcts.py --preset dark-hex-4 --games 10
    python examples/ismcts.py --preset dark-hex-5 --opponent sweep --games 10
    python examples/ismcts.py --preset mind-bluff --opponent heuristic --games 10
    python examples/ismcts.py --preset liars-dice-1 --games 40
"""

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import fogboard_games
from fogboard_games.boards.game import SPECS as BOARD_GAMES
from fogboard_games.bots import kinds_for, make_bot
from fogboard_games.core.sampling import chance_outcome

# The opponents: pyspiel's uniform random bot, or a fogboard bot kind. Not
# `ismcts` (the searcher itself), `mcts` (it cheats: it searches the true
# state) or `text` (it needs a callable).
OPPONENTS = ["random", "heuristic", "probe", "sweep", "cfr"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="phantom-ttt-3")
    parser.add_argument(
        "--opponent",
        default=None,
        choices=OPPONENTS,
        help="default: probe on the boards, random on other games",
    )
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--simulations", type=int, default=200)
    args = parser.parse_args()
    game = fogboard_games.load(args.preset)
    if game.num_players() != 2:
        raise SystemExit(f"{args.preset}: this example pits one searcher against one other seat")
    board = game.get_type().short_name in BOARD_GAMES
    if args.opponent is None:
        args.opponent = "probe" if board else "random"
    elif args.opponent in ("probe", "sweep") and not board:
        raise SystemExit(
            f"{args.preset}: --opponent {args.opponent} plays the boards only; "
            "use heuristic or random"
        )
    elif args.opponent != "random" and args.opponent not in kinds_for(game):
        raise SystemExit(f"{args.preset}: no {args.opponent} bot plays it; use heuristic or random")
    rng = random.Random(0)
    score = 0.0
    for g in range(args.games):
        seat = g % 2  # IS-MCTS alternates seats
        searcher = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(g)),
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=np.random.RandomState(g),
        )
        searcher.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
        if args.opponent == "random":
            opponent = pyspiel.make_uniform_random_bot(1 - seat, g)
        else:
            opponent = make_bot(args.opponent, game, 1 - seat, seed=g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng))
            else:
                bot = searcher if state.current_player() == seat else opponent
                state.apply_action(bot.step(state))
        score += state.returns()[seat]
        print(f"game {g + 1}: IS-MCTS as seat {seat} scored {state.returns()[seat]:+.0f}")
    print(f"IS-MCTS mean score against {args.opponent}: {score / args.games:+.2f}")


if __name__ == "__main__":
    main()
