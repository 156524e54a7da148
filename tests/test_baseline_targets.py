"""The board baselines reach their targets against uniform random on dark-hex-5.

100 games per bot, the seats alternating game by game (the bot is X in the
even games, O in the odd ones); game g is seeded g, its bots g + seat, as
the league seeds them. A score is the bot's return: +1 a win, -1 a loss.
Measured: probe +0.96 (98 wins of 100), sweep +0.68 (84 of 100); the
targets are +0.6 and +0.2. Seeded, so the run repeats exactly (about 2 s).
"""

import pytest

import fogboard_games
from fogboard_games.bots import make_bot
from fogboard_games.league import play_game

GAMES = 100


def mean_score_against_random(kind: str, preset: str = "dark-hex-5") -> float:
    game = fogboard_games.load(preset)
    total = 0.0
    for g in range(GAMES):
        seat = g % 2
        kinds = [kind, "random"] if seat == 0 else ["random", kind]
        seats = [make_bot(k, game, s, seed=g + s) for s, k in enumerate(kinds)]
        total += play_game(game, seats, g).returns[seat]
    return total / GAMES


@pytest.mark.parametrize("kind, target", [("probe", 0.6), ("sweep", 0.2)])
def test_board_baseline_beats_random_on_dark_hex_5(kind, target):
    mean = mean_score_against_random(kind)
    assert mean >= target, f"{kind} scored {mean:+.2f} against random, target {target:+.2f}"
