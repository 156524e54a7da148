"""fogboard_games.solving: the best responses built once give pyspiel's figures."""

from __future__ import annotations

import pyspiel
import pytest

from fogboard_games.solving import Distance, report_points


@pytest.mark.parametrize(
    "name,measure,reference",
    [
        ("kuhn_poker", "exploitability", pyspiel.exploitability),
        ("kuhn_poker(players=3)", "NashConv", pyspiel.nash_conv),
    ],
)
def test_distance_is_pyspiels_for_every_later_policy(name, measure, reference):
    game = pyspiel.load_game(name)
    # (an average policy reads the solver's live tables: keep the solver, and
    # measure each policy before the next iteration)
    solver = pyspiel.CFRSolver(game)
    distance, values = None, []
    for _ in range(6):
        solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        distance = distance or Distance(game, policy)
        values.append(distance(policy))
        assert values[-1] == pytest.approx(reference(game, policy), abs=1e-9)
    assert distance.name == measure
    assert values[0] != pytest.approx(values[-1])  # the policies differ: so do the values


def test_report_points_are_log_spaced_and_end_at_the_last():
    assert report_points(1) == [1]
    assert report_points(7) == [1, 2, 5, 7]
    assert report_points(300) == [1, 2, 5, 10, 20, 50, 100, 200, 300]
    assert report_points(100) == [1, 2, 5, 10, 20, 50, 100]
