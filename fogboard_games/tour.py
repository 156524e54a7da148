"""`python -m fogboard_games tour`: play every preset once at random."""

from __future__ import annotations

import random

import fogboard_games
from fogboard_games.core.sampling import chance_outcome


def tour(seed: int = 0) -> None:
    rng = random.Random(seed)
    print(f"{'preset':<22}{'game':<26}{'decisions':>10}  returns")
    for name in sorted(fogboard_games.PRESETS):
        game = fogboard_games.load(name)
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(chance_outcome(state, rng))
            else:
                decisions += 1
                state.apply_action(rng.choice(state.legal_actions()))
        short = game.get_type().short_name
        print(f"{name:<22}{short:<26}{decisions:>10}  {state.returns()}")
