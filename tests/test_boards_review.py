"""Board reviews: hidden facts shown, and reloaded only as the rules derive them."""

import json
import random

import pytest

import fogboard_games
from fogboard_games.boards import engine_log
from fogboard_games.core.review import ReviewError


def _finished(preset, seed):
    state = fogboard_games.load(preset).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_review_shows_every_ply_and_both_distances():
    state = _finished("recon-hex-5", 4)
    review = state.review()
    assert review["game"] == "fogboard_recon_hex"
    assert len(review["plies"]) == len(state.truth.plies)
    assert all(p["sense"] is not None and len(p["sensed"]) == 4 for p in review["plies"])
    assert review["plies"][-1]["distToWin"][review["winner"]] == 0
    probes = sum(p["result"] == "occupied" for p in review["plies"])
    assert probes == sum(s["probes"] for s in review["seats"])


def test_tampered_review_is_refused_naming_the_field():
    review = json.loads(json.dumps(_finished("dark-hex-4", 1).review()))
    review["seats"][0]["probes"] += 1
    with pytest.raises(ReviewError, match=r"seats\[0\]\.probes"):
        fogboard_games.load_review(review)


def test_review_of_a_wall_clock_stop_reloads():
    state = fogboard_games.load("dark-hex-4").new_initial_state()
    for a in (0, 5, 10):
        state.apply_action(a)
    engine_log.stop_at_deadline(state)
    review = json.loads(json.dumps(state.review()))
    assert review["ending"] == "wall-clock"
    rebuilt = fogboard_games.load_review(review)
    assert rebuilt.returns() == state.returns()
    assert rebuilt.review() == state.review()
    # A running game whose review claims some other ending is refused.
    review["ending"] = "connection"
    with pytest.raises(ReviewError, match="wall-clock"):
        fogboard_games.load_review(review)


def test_review_params_are_checked_by_name_before_the_game_loads():
    review = json.loads(json.dumps(_finished("dark-hex-4", 1).review()))
    for name, value in [("board_size", 4.0), ("max_plies", 2**31), ("abrupt", [1])]:
        tampered = json.loads(json.dumps(review))
        tampered["params"][name] = value
        with pytest.raises(ReviewError, match=rf"params\.{name}"):
            fogboard_games.load_review(tampered)


def test_review_ints_are_ints_and_floats_may_be_ints():
    review = json.loads(json.dumps(_finished("phantom-ttt-3", 2).review()))
    for value in (review["seats"][1]["stones"] + 1e-12, float(review["seats"][1]["stones"])):
        tampered = json.loads(json.dumps(review))
        tampered["seats"][1]["stones"] = value
        with pytest.raises(ReviewError, match=r"seats\[1\]\.stones"):
            fogboard_games.load_review(tampered)
    tampered = json.loads(json.dumps(review))
    tampered["returns"] = [int(r) for r in review["returns"]]
    assert fogboard_games.load_review(tampered).returns() == review["returns"]


def test_wall_clock_review_with_a_non_string_ending_is_refused_by_name():
    state = fogboard_games.load("dark-hex-4").new_initial_state()
    state.apply_action(0)
    engine_log.stop_at_deadline(state)
    review = json.loads(json.dumps(state.review()))
    for value in (1.5, None, ["wall-clock"]):
        review["ending"] = value
        with pytest.raises(ReviewError, match="ending"):
            fogboard_games.load_review(review)
