"""A finished game of a running Mind Bluff series is reviewable on its own
(docs/mind_bluff.md#the-series): `series.game_review(state, k)` gives it as
a single Mind Bluff game's review, which the loader rebuilds; a game still
under way, or not played, is refused with a clear error."""

from __future__ import annotations

import json
import random

import pytest

import fogboard_games
from fogboard_games.core.review import ReviewError
from fogboard_games.core.testing import play
from fogboard_games.mind_bluff.series import game_review

SERIES = "mind-bluff-series"
GAME1 = ["eat 2", "claim 1", "believe", "eat 1", "claim 3", "believe", "all done"]  # P2 wins


def test_a_finished_game_round_trips_through_the_loader_while_the_series_runs():
    series = fogboard_games.load(SERIES)
    state = play(series, GAME1 + ["eat 1", "claim 2"])  # game 2 under way
    with pytest.raises(ValueError, match="only available once the game is over"):
        state.review()  # the series' own review waits for the series
    review = json.loads(json.dumps(game_review(state, 1)))
    assert review["game"] == "fogboard_mind_bluff"
    assert review["params"] == {"start": 30, "start_spread": 0, "first_player": 0, "max_eat": 3}
    assert review["actions"] == GAME1
    assert review["winner"] == 1 and review["returns"] == [-1.0, 1.0]
    assert review["end_reason"] == "all-done-loss" and review["turns"][1]["actual"] == 1
    rebuilt = fogboard_games.load_review(review)
    assert rebuilt.history() == state.history()[: len(GAME1)]
    tampered = json.loads(json.dumps(review))
    tampered["turns"][0]["actual"] = 3
    with pytest.raises(ReviewError, match=r"turns\[0\]\.actual"):
        fogboard_games.load_review(tampered)


def test_a_game_still_under_way_or_not_played_is_refused():
    series = fogboard_games.load(SERIES)
    start = series.new_initial_state()
    with pytest.raises(
        ValueError, match=r"game 1 of the series is still under way.*finished: none"
    ):
        game_review(start, 1)
    between = play(series, GAME1)  # game 2 just started: its first decision
    with pytest.raises(ValueError, match=r"game 2 of the series is still under way.*finished: 1\)"):
        game_review(between, 2)
    with pytest.raises(ValueError, match="game 3 of the series has not started"):
        game_review(between, 3)
    two_nil = play(series, ["eat 2", "claim 1", "doubt", "all done", "all done"])
    assert two_nil.is_terminal()
    with pytest.raises(ValueError, match=r"game 3 of the series was not played.*finished: 1, 2"):
        game_review(two_nil, 3)
    for bad in (0, 4, True, 1.0, "1"):
        with pytest.raises(ValueError, match="game must be 1, 2 or 3"):
            game_review(between, bad)
    game = fogboard_games.load("mind-bluff")
    with pytest.raises(ValueError, match="reads a state of fogboard_mind_bluff_series"):
        game_review(game.new_initial_state(), 1)
    assert between.history() == play(series, GAME1).history()  # nothing changed


def random_series(seed: int):
    rng = random.Random(seed)
    state = fogboard_games.load(SERIES).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, odds)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_review_is_the_series_entry_and_replays_its_own_actions():
    third = 0
    for seed in range(12):
        state = random_series(seed)
        series_review = state.review()
        games = series_review["games"]
        at = 0
        for k, entry in enumerate(games, 1):
            review = json.loads(json.dumps(game_review(state, k)))
            own = {f: v for f, v in review.items() if f not in ("format", "game", "params")}
            assert {f: own[f] for f in entry} == entry  # the series review's games[k-1]
            n = len(review["actions"])
            assert review["actions"] == series_review["actions"][at : at + n]
            at += n
            rebuilt = fogboard_games.load_review(review)
            assert rebuilt.returns() == review["returns"]
            assert review["returns"][entry["winner"]] == 1.0
            if k == 3:
                third += 1
                assert review["params"]["first_player"] == -1
                assert review["params"]["start_spread"] == 1
                assert review["actions"][0] in ("P1 first", "P2 first")
        assert at == len(series_review["actions"])
    assert third  # a game 3 (coin and secret start) was reviewed too
