"""IS-MCTS against a uniform random seat in Liar's Dice.

Uses OpenSpiel's Python ISMCTSBot (the C++ one crashes on Python games),
seeded through `set_resampler` so that runs repeat; our
`resample_from_infostate` redraws the dice the searching seat has not
seen, uniformly, consistent with everything shown so far.

    python examples/ismcts_liars_dice.py --preset liars-dice-1 --games 40
"""

import argparse
import random

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import fogboard_games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", default="liars-dice-1")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=200)
    args = parser.parse_args()
    game = fogboard_games.load(args.preset)
    if game.num_players() != 2:
        raise SystemExit(f"{args.preset}: this example pits one searcher against one random seat")
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
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif state.current_player() == seat:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        score += state.returns()[seat]
        print(f"game {g + 1}: IS-MCTS as seat {seat} scored {state.returns()[seat]:+.0f}")
    print(f"IS-MCTS mean score against uniform random: {score / args.games:+.2f}")


if __name__ == "__main__":
    main()
