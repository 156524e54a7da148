"""The one chance sampler (core.sampling): the draw random.choices makes, by the odds."""

from __future__ import annotations

import random

import numpy as np
import pytest

import fogboard_games
from fogboard_games.core.sampling import chance_outcome


class Chance:
    """A chance node with the given odds, and nothing else."""

    def __init__(self, odds):
        self.odds = list(enumerate(odds))

    def chance_outcomes(self):
        return self.odds


def chance_nodes(preset: str, games: int = 20):
    """Chance nodes along seeded random playouts of a preset."""
    game, rng = fogboard_games.load(preset), random.Random(preset)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                yield state.clone()
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, odds)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("preset", ["liars-dice-1", "mind-bluff-tiny", "parley-tiny"])
def test_the_draw_is_random_choices_by_the_odds(preset):
    # The league's, the tour's and play's tables were drawn so: same seed, same games.
    for i, state in enumerate(chance_nodes(preset)):
        outcomes, odds = zip(*state.chance_outcomes())
        ours, theirs = random.Random(i), random.Random(i)
        for _ in range(5):
            assert chance_outcome(state, ours) == theirs.choices(outcomes, odds)[0]
        assert ours.getstate() == theirs.getstate()  # one draw of the generator each


@pytest.mark.parametrize(
    "odds", [[0.1, 0.2, 0.7], [0.5, 0.0, 0.5], [1 / 3] * 3, [0.7, 0.2, 0.1 - 1e-12], [1.0]]
)
def test_the_draw_at_the_edges_of_the_running_sums(odds):
    """Points on and beside every running sum, and past them all (odds
    summing below 1): the outcome random.choices picks."""
    state = Chance(odds)
    sums, total = [], 0.0
    for p in odds:
        total += p
        sums.append(total)
    for s in sums:
        for u in (s / total, np.nextafter(s / total, 0), np.nextafter(s / total, 2), 0.0):
            u = min(float(u), np.nextafter(1.0, 0))

            class Fixed(random.Random):
                def random(self, u=u):
                    return u

            expected = Fixed().choices(range(len(odds)), odds)[0]
            assert chance_outcome(state, Fixed()) == expected, (odds, u)


def test_a_numpy_generator_draws_by_the_odds_too():
    state, rng = Chance([0.1, 0.6, 0.3]), np.random.default_rng(0)
    draws = np.bincount([chance_outcome(state, rng) for _ in range(20000)], minlength=3)
    assert np.allclose(draws / 20000, [0.1, 0.6, 0.3], atol=0.015), draws
    assert chance_outcome(Chance([0.0, 1.0]), rng) == 1  # never an outcome of odds 0
