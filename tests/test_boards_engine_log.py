"""The original engine's logs, `fogboards.replay.v1`: import/export (docs/boards_bots_and_engine_logs.md)."""

from __future__ import annotations

import copy
import json
import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games.boards import engine_log as R
from fogboard_games.boards.bots import make_bot
from fogboard_games.boards.engine_log import EngineLogError

# As the original engine emits it (its own test's "complete/line" game): X
# plays a3 b3 c3, O plays a1 b1. Published engine logs carry no `notes`.
TTT_LINE = r"""
{"protocol": "fogboards.replay.v1",
 "names": ["Sprocket", "Gizmo"],
 "policyNames": ["P1", "P2"],
 "config": {"mode": "phantom-ttt", "size": 3, "abrupt": false, "sense": 0,
            "first": 0, "seed": 0, "maxPlies": 18, "sampled": true},
 "events": [
  {"kind": "start", "round": -1},
  {"kind": "attempt", "round": 0, "seat": 0, "cell": "a3", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "attempt", "round": 1, "seat": 1, "cell": "a1", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "attempt", "round": 2, "seat": 0, "cell": "b3", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "attempt", "round": 3, "seat": 1, "cell": "b1", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "attempt", "round": 4, "seat": 0, "cell": "c3", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "win", "round": 4, "seat": 0, "how": "line", "path": ["a3", "b3", "c3"]},
  {"kind": "end", "round": 4, "reason": "complete", "ending": "line", "scores": [1.0, -1.0]}
 ],
 "results": {"names": ["P1", "P2"], "scores": [1.0, -1.0], "outcome": [1.0, 0.0],
  "stones": [3, 2], "probes": [0, 0], "discovered": [0, 0], "guessesMade": [0, 0],
  "guessAccuracy": [0.0, 0.0], "distToWin": [0, 1], "fallbacks": [0, 0], "plies": 5,
  "maxPlies": 18, "mode": "phantom-ttt", "size": 3, "abrupt": false, "sense": 0,
  "ending": "line", "reason": "complete"}}
"""

# Recon hex 5x5, stopped by the play deadline after 4 plies. O's sense of c2
# proves X's c3; X's sense of c3 proves O's d3. X guessed d3 twice (a hit
# only at ply 2: at ply 0 it was still empty) and b3 once (empty then); O's
# last ply fell back to the baseline. Both seats are 4 cells from winning.
RECON_DEADLINE = r"""
{"protocol": "fogboards.replay.v1",
 "names": ["Sprocket", "Gizmo"],
 "policyNames": ["fog-of-war-boards-cartographer", "Baseline (1)"],
 "config": {"mode": "dark-hex", "size": 5, "abrupt": true, "sense": 2,
            "first": 0, "seed": 118829, "maxPlies": 50, "sampled": true},
 "events": [
  {"kind": "start", "round": -1},
  {"kind": "sense", "round": 0, "seat": 0, "anchor": "b2"},
  {"kind": "attempt", "round": 0, "seat": 0, "cell": "c3", "result": "placed",
   "say": "centre first", "notes": "route a3-e3", "guess": ["d3"], "scripted": false,
   "fellBack": false},
  {"kind": "sense", "round": 1, "seat": 1, "anchor": "c2"},
  {"kind": "attempt", "round": 1, "seat": 1, "cell": "d3", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": false},
  {"kind": "sense", "round": 2, "seat": 0, "anchor": "c3"},
  {"kind": "attempt", "round": 2, "seat": 0, "cell": "d4", "result": "placed",
   "say": "his chain has to cross d3", "guess": ["d3", "b3"], "scripted": false,
   "fellBack": false},
  {"kind": "sense", "round": 3, "seat": 1, "anchor": "a1"},
  {"kind": "attempt", "round": 3, "seat": 1, "cell": "b3", "result": "placed",
   "say": "", "guess": [], "scripted": true, "fellBack": true},
  {"kind": "end", "round": 4, "reason": "deadline", "ending": "wall-clock",
   "scores": [0.0, 0.0]}
 ],
 "results": {"names": ["fog-of-war-boards-cartographer", "Baseline (1)"],
  "scores": [0.0, 0.0], "outcome": [0.5, 0.5], "stones": [2, 2], "probes": [0, 0],
  "discovered": [1, 1], "guessesMade": [3, 0], "guessAccuracy": [0.3333333333333333, 0.0],
  "distToWin": [4, 4], "fallbacks": [0, 1], "plies": 4, "maxPlies": 50, "mode": "dark-hex",
  "size": 5, "abrupt": true, "sense": 2, "ending": "wall-clock", "reason": "deadline"}}
"""


def moves(state, texts):
    for t in texts:
        state.apply_action(state.string_to_action(t))
    return state


def random_extras(rng, plies, geo):
    out = []
    for _ in range(plies):
        out.append(
            {
                "say": rng.choice(["", "going for c3", "日本語 🜁"]),
                "notes": rng.choice([None, "", "proven: c2"]),
                "guess": [geo.names[rng.randrange(geo.cells)] for _ in range(rng.randrange(3))],
                "scripted": rng.random() < 0.5,
                "fellBack": rng.random() < 0.2,
            }
        )
    return out


def random_game(game, seed, stop_chance=0.0):
    """A random game; with `stop_chance`, sometimes stopped by the deadline between plies."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    stop = rng.random() < stop_chance
    while not state.is_terminal():
        if stop and state.truth.sensed is None and rng.random() < 0.15:
            R.stop_at_deadline(state)
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state, rng


def finished(preset="dark-hex-4", seed=3):
    game = fogboard_games.load(preset)
    state, _ = random_game(game, seed)
    return R.to_engine_log(state, names=["A", "B"], policy_names=["pa", "pb"], seed=seed)


def refused(log, *fragments):
    with pytest.raises(EngineLogError) as info:
        R.from_engine_log(log)
    for f in fragments:
        assert f in str(info.value), f"{f!r} not in: {info.value}"
    return str(info.value)


def events_of(log, kind):
    return [e for e in log["events"] if e["kind"] == kind]


# ---- hand-written engine logs, as the original engine writes them ------------


def test_hand_written_tic_tac_toe_line_loads():
    state = R.loads(TTT_LINE)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.truth.ending == "line"
    assert [state.truth.setup.names[p[3]] for p in state.truth.plies] == [
        "a3",
        "a1",
        "b3",
        "b1",
        "c3",
    ]
    # Writing it again gives the same object, notes still absent.
    loaded = R.read_engine_log(json.loads(TTT_LINE))
    assert R.to_engine_log(loaded.state, **loaded.writer_args()) == json.loads(TTT_LINE)


def test_hand_written_recon_deadline_loads_and_rewrites():
    loaded = R.read_engine_log(R.parse(RECON_DEADLINE))
    state = loaded.state
    assert state.get_game().get_type().short_name == "fogboard_recon_hex"
    assert state.truth.ending == "wall-clock" and state.returns() == [0.0, 0.0]
    assert loaded.seed == 118829 and loaded.names == ["Sprocket", "Gizmo"]
    assert loaded.extras[0]["notes"] == "route a3-e3" and loaded.extras[1]["notes"] is None
    assert R.to_engine_log(state, **loaded.writer_args()) == json.loads(RECON_DEADLINE)
    assert R.loads(RECON_DEADLINE.encode("utf-8")).returns() == [0.0, 0.0]


def test_config_sampled_survives_the_round_trip():
    r = json.loads(TTT_LINE)
    r["config"]["sampled"] = False
    loaded = R.read_engine_log(r)
    assert loaded.sampled is False
    assert R.to_engine_log(loaded.state, **loaded.writer_args()) == r
    assert json.loads(R.dumps(loaded.state, sampled=False))["config"]["sampled"] is False


def test_derived_floats_are_compared_exactly_and_ints_as_ints():
    r = json.loads(RECON_DEADLINE)
    r["results"]["guessAccuracy"] = [0.333333333333, 0.0]  # would be written back changed
    refused(r, "ply 4:", "results.guessAccuracy says [0.333333333333, 0.0]")
    r = json.loads(RECON_DEADLINE)
    r["results"]["stones"] = [2.0, 2.0]
    refused(r, "results.stones says [2.0, 2.0]", "rules derive [2, 2]")
    r = json.loads(RECON_DEADLINE)
    r["results"]["outcome"] = [True, 0.5]
    refused(r, "results.outcome says [true, 0.5]")


def test_hand_written_engine_logs_refuse_a_tampered_field():
    bad = json.loads(RECON_DEADLINE)
    bad["events"][4]["cell"] = "c3"  # O proved c3 by its sense: not a legal attempt
    refused(bad, "ply 1", "c3 is not a legal attempt for seat 1", "proven")
    bad = json.loads(TTT_LINE)
    bad["results"]["distToWin"] = [0, 2]
    refused(bad, "ply 4", "results.distToWin")


# ---- round trips ------------------------------------------------------------------

ROUND_TRIP_GAMES = [
    ("fogboard_phantom_ttt", {}),
    ("fogboard_phantom_ttt", {"abrupt": True, "max_plies": 7}),
    ("fogboard_dark_hex", {"board_size": 4}),
    ("fogboard_dark_hex", {"board_size": 5, "abrupt": True}),
    ("fogboard_dark_hex", {"board_size": 5, "max_plies": 9}),
    ("fogboard_dark_hex", {"board_size": 3, "abrupt": True, "obstype": "reveal-numturns"}),
    ("fogboard_recon_hex", {"board_size": 5, "sense": 2}),
    ("fogboard_recon_hex", {"board_size": 4, "sense": 1}),
    ("fogboard_recon_hex", {"board_size": 3, "sense": 3, "max_plies": 5}),
    # Rectangular boards (docs/boards.md#rectangular-boards): config.ranks.
    ("fogboard_dark_hex", {"num_rows": 3, "num_cols": 5}),
    ("fogboard_dark_hex", {"num_rows": 4, "num_cols": 2, "abrupt": True, "max_plies": 7}),
    ("fogboard_recon_hex", {"num_rows": 5, "num_cols": 3, "sense": 2}),
]


@pytest.mark.parametrize("short_name,params", ROUND_TRIP_GAMES)
def test_random_games_round_trip_through_json(short_name, params):
    game = pyspiel.load_game(short_name, params)
    endings = set()
    for seed in range(25):
        state, rng = random_game(game, seed, stop_chance=0.3)
        extras = random_extras(rng, len(state.truth.plies), game.setup)
        text = R.dumps(state, names=["X", "O"], policy_names=["px", "po"], seed=seed, extras=extras)
        text.encode("utf-8")  # strict UTF-8
        loaded = R.read_engine_log(R.parse(text), obstype=params.get("obstype"))
        back = loaded.state
        assert back.truth.plies == state.truth.plies
        assert back.truth.ending == state.truth.ending
        assert back.returns() == state.returns()
        assert [back.information_state_string(p) for p in (0, 1)] == [
            state.information_state_string(p) for p in (0, 1)
        ]
        assert R.dumps(back, **loaded.writer_args()) == text
        assert ("ranks" in json.loads(text)["config"]) == (not game.setup.square)
        endings.add(state.truth.ending)
    assert "wall-clock" in endings and len(endings) >= 2


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5"])
def test_bot_games_of_every_preset_round_trip(preset):
    game = fogboard_games.load(preset)
    for seed in range(4):
        players = [make_bot("probe", game, 0, seed), make_bot("sweep", game, 1, seed)]
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, players, seed)
        extras = [{"scripted": True, "notes": None}] * len(state.truth.plies)
        log = R.to_engine_log(state, policy_names=["probe", "sweep"], seed=seed, extras=extras)
        assert log["config"]["maxPlies"] == {"phantom-ttt-3": 18, "dark-hex-4": 32}.get(preset, 50)
        assert R.from_engine_log(json.loads(json.dumps(log))).truth.plies == state.truth.plies


def test_every_event_and_result_field_is_written():
    game = fogboard_games.load("recon-hex-5")
    state, _ = random_game(game, 5)
    log = R.to_engine_log(state)
    assert list(log) == ["protocol", "names", "policyNames", "config", "events", "results"]
    assert list(log["config"]) == list(R.CONFIG_KEYS)
    assert list(log["results"]) == list(R.RESULT_KEYS)
    kinds = [e["kind"] for e in log["events"]]
    assert kinds[0] == "start" and kinds[-2:] == ["win", "end"]
    assert kinds.count("sense") == kinds.count("attempt") == len(state.truth.plies)
    attempt = events_of(log, "attempt")[0]
    assert list(attempt) == [
        "kind",
        "round",
        "seat",
        "cell",
        "result",
        "say",
        "notes",
        "guess",
        "scripted",
        "fellBack",
    ]


def test_ply_cap_end_round_counts_the_plies():
    # The original engine's own ply-cap fixture: 5x5, maxPlies 4.
    game = pyspiel.load_game("fogboard_dark_hex", {"board_size": 5, "abrupt": True, "max_plies": 4})
    state = moves(game.new_initial_state(), ["a1", "b1", "a2", "b2"])
    log = R.to_engine_log(state)
    end = log["events"][-1]
    assert (end["round"], end["reason"], end["ending"]) == (4, "complete", "ply-cap")
    assert R.from_engine_log(log).truth.ending == "ply-cap"


def test_board_full_is_a_draw_at_the_last_ply():
    game = fogboard_games.load("phantom-ttt-3")
    state = moves(game.new_initial_state(), ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"])
    log = R.to_engine_log(state)
    assert log["events"][-1] == {
        "kind": "end",
        "round": 8,
        "reason": "complete",
        "ending": "board-full",
        "scores": [0.0, 0.0],
    }
    assert not events_of(log, "win")
    assert R.from_engine_log(log).returns() == [0.0, 0.0]


def test_hex_win_path_is_the_engines_shortest_chain():
    game = fogboard_games.load("dark-hex-4")
    # X: a2 b2 c2 d2 with a spare b3 and a1; O's stones elsewhere.
    state = moves(
        game.new_initial_state(), ["a1", "a4", "b3", "b4", "a2", "c4", "b2", "d3", "c2", "d1", "d2"]
    )
    win = events_of(R.to_engine_log(state), "win")[0]
    assert win == {
        "kind": "win",
        "round": 10,
        "seat": 0,
        "how": "connection",
        "path": ["a2", "b2", "c2", "d2"],
    }


# ---- deadline stops ----------------------------------------------------------------


def test_deadline_stop_is_scored_by_true_distance_and_reads_back():
    game = fogboard_games.load("dark-hex-4")
    state = moves(game.new_initial_state(), ["a1", "a4", "b1", "a3", "c1"])
    R.stop_at_deadline(state)
    # X needs d1 (1 cell); O, walled off rank 1 but for d1, needs b2 c2 d1 (3).
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    log = R.to_engine_log(state)
    assert log["events"][-1] == {
        "kind": "end",
        "round": 5,
        "reason": "deadline",
        "ending": "wall-clock",
        "scores": [1.0, -1.0],
    }
    assert log["results"]["distToWin"] == [1, 3] and log["results"]["reason"] == "deadline"
    back = R.from_engine_log(json.loads(json.dumps(log)))
    assert back.truth.plies == state.truth.plies and back.truth.ending == "wall-clock"
    assert back.returns() == [1.0, -1.0]


def test_deadline_stop_of_a_fresh_game_leaves_the_game_untouched():
    game = fogboard_games.load("dark-hex-5")
    state = R.stop_at_deadline(game.new_initial_state())
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert not game.new_initial_state().is_terminal()
    log = R.to_engine_log(state)
    assert [e["kind"] for e in log["events"]] == ["start", "end"]
    assert log["events"][-1]["round"] == 0
    assert R.from_engine_log(log).is_terminal()


@pytest.mark.parametrize("stopped_first", [True, False])
def test_a_start_stopped_by_the_clock_has_strings_of_its_own(stopped_first):
    # The strings before the first ply are kept per game; a start ended by the
    # wall clock is another position, and neither may answer for the other.
    game = fogboard_games.load("dark-hex-4")
    fresh, stopped = game.new_initial_state(), R.stop_at_deadline(game.new_initial_state())
    order = [stopped, fresh] if stopped_first else [fresh, stopped]
    texts = {id(s): (s.information_state_string(0), s.observation_string(1)) for s in order}
    assert all("result: draw (wall-clock)" in t for t in texts[id(stopped)])
    assert not any("result" in t for t in texts[id(fresh)])
    assert "result" not in game.new_initial_state().information_state_string(0)


def test_deadline_stop_refuses_mid_ply_and_finished_games():
    game = fogboard_games.load("recon-hex-5")
    state = moves(game.new_initial_state(), ["sense a1"])
    with pytest.raises(ValueError, match="ply 0 is under way"):
        R.stop_at_deadline(state)
    assert not state.is_terminal()
    done, _ = random_game(game, 1)
    with pytest.raises(ValueError, match="already over"):
        R.stop_at_deadline(done)


def test_recorded_deadline_scores_must_match_the_distance():
    game = fogboard_games.load("dark-hex-4")
    state = R.stop_at_deadline(moves(game.new_initial_state(), ["a1", "a4", "b1", "a3", "c1"]))
    log = R.to_engine_log(state)
    log["events"][-1]["scores"] = [-1.0, 1.0]
    refused(log, "ply 5", "end scores [-1.0, 1.0]", "rules score [1.0, -1.0]")
    log = R.to_engine_log(state)
    log["events"][-1]["scores"] = [0.0, 0.0]
    refused(log, "ply 5", "end scores")


def test_to_engine_log_refuses_a_running_game_and_other_games():
    game = fogboard_games.load("dark-hex-4")
    with pytest.raises(ValueError, match="still running"):
        R.to_engine_log(moves(game.new_initial_state(), ["a1"]))
    kuhn = pyspiel.load_game("kuhn_poker").new_initial_state()
    with pytest.raises(ValueError, match="Fog-of-War board games"):
        R.to_engine_log(kuhn)
    with pytest.raises(ValueError, match="Fog-of-War board games"):
        R.stop_at_deadline(kuhn)


# ---- refusals that name the ply -----------------------------------------------------


def test_flipped_attempt_result_is_refused_at_its_ply():
    log = finished()
    attempts = events_of(log, "attempt")
    target = next(e for e in attempts if e["result"] == "placed" and e["round"] > 2)
    target["result"] = "occupied"
    refused(log, f"ply {target['round']}:", "recorded 'occupied'", "rules derive 'placed'")


def test_occupied_flipped_to_placed_is_refused():
    game = fogboard_games.load("dark-hex-5")
    state = moves(game.new_initial_state(), ["c3", "c3", "a1", "e5"])
    log = R.to_engine_log(R.stop_at_deadline(state))
    log["events"][2]["result"] = "placed"
    refused(log, "ply 1:", "recorded 'placed'", "rules derive 'occupied'")


def test_illegal_cells_are_refused_at_their_ply():
    log = finished()
    attempts = events_of(log, "attempt")
    own = next(e for e in attempts if e["result"] == "placed")
    later = next(e for e in attempts if e["seat"] == own["seat"] and e["round"] > own["round"])
    later["cell"] = own["cell"]
    refused(
        copy.deepcopy(log),
        f"ply {later['round']}:",
        f"{own['cell']} is not a legal attempt",
        "own stone",
    )
    later["cell"] = "z9"
    refused(copy.deepcopy(log), f"ply {later['round']}", "'z9' is not a cell of a 4x4 board")
    later["cell"] = "e1"
    refused(copy.deepcopy(log), f"ply {later['round']}", "'e1' is not a cell")


def test_a_cell_swapped_for_another_legal_cell_is_caught_downstream():
    log = finished(seed=8)
    first = events_of(log, "attempt")[0]
    first["cell"] = "d4" if first["cell"] != "d4" else "a4"
    with pytest.raises(EngineLogError, match=r"^ply \d+"):
        R.from_engine_log(log)


def test_attempt_by_the_wrong_seat_is_refused():
    log = finished()
    e = events_of(log, "attempt")[3]
    e["seat"] = 1 - e["seat"]
    refused(log, f"ply {e['round']}:", f"attempt by seat {e['seat']}", "rules give the ply to seat")


def test_round_numbers_are_checked():
    log = finished()
    e = events_of(log, "attempt")[2]
    e["round"] = 7
    refused(log, "ply 2:", "attempt has round 7")


def test_win_tampering_is_refused_at_the_winning_ply():
    base = finished()
    win = events_of(base, "win")[0]
    p, seat = win["round"], win["seat"]

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["seat"] = 1 - seat
    refused(r, f"ply {p}:", f"credited to seat {1 - seat}")

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["how"] = "line"
    refused(r, f"ply {p}:", "'line'", "'connection'")

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["path"] = win["path"][:-1]
    refused(r, f"ply {p}:", "win path", "does not join")

    r = copy.deepcopy(base)
    other = next(
        e["cell"] for e in events_of(r, "attempt") if e["seat"] != seat and e["result"] == "placed"
    )
    events_of(r, "win")[0]["path"] = win["path"] + [other]
    refused(r, f"ply {p}:", f"{other} is not a stone of seat {seat}")

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["path"] = [win["path"][0], win["path"][-1]]
    refused(r, f"ply {p}:", "are not adjacent")

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["path"] = win["path"] + win["path"][-1:]
    refused(r, f"ply {p}:", "repeats a cell")

    r = copy.deepcopy(base)
    events_of(r, "win")[0]["round"] = p - 1
    refused(r, f"ply {p}:", "winning ply is")

    r = copy.deepcopy(base)
    r["events"].remove(events_of(r, "win")[0])
    refused(r, f"ply {p}:", "does not record")


def test_any_connecting_path_of_the_winner_is_accepted():
    game = fogboard_games.load("dark-hex-4")
    state = moves(
        game.new_initial_state(), ["a1", "a4", "b3", "b4", "a2", "c4", "b2", "d3", "c2", "d1", "d2"]
    )
    log = R.to_engine_log(state)
    events_of(log, "win")[0]["path"] = ["d2", "c2", "b2", "a2"]  # far edge first
    assert R.from_engine_log(log).truth.winner == 0
    events_of(log, "win")[0]["path"] = ["a1", "a2", "b2", "c2", "d2"]  # longer, still a chain
    loaded = R.read_engine_log(log)
    assert loaded.state.truth.winner == 0
    # Written again, the engine log keeps the recorded path, not the shortest one.
    assert loaded.win_path == ["a1", "a2", "b2", "c2", "d2"]
    assert R.to_engine_log(loaded.state, **loaded.writer_args()) == log
    with pytest.raises(EngineLogError, match="win_path is not a winning connection"):
        R.to_engine_log(loaded.state, win_path=["a1", "a2"])


def test_tic_tac_toe_win_path_must_be_the_line():
    bad = json.loads(TTT_LINE)
    bad["events"][6]["path"] = ["c3", "a3", "b3"]  # same line, any order
    R.from_engine_log(bad)
    bad["events"][6]["path"] = ["a3", "b3", "a1"]
    refused(bad, "ply 4:", "a1 is not a stone of seat 0")
    bad["events"][6]["path"] = ["a3", "b3"]
    refused(bad, "ply 4:", "not a row, column or diagonal")


def test_win_the_rules_do_not_derive_is_refused():
    log = R.to_engine_log(
        R.stop_at_deadline(moves(fogboard_games.load("dark-hex-4").new_initial_state(), ["a1"]))
    )
    log["events"].insert(
        2, {"kind": "win", "round": 0, "seat": 0, "how": "connection", "path": ["a1"]}
    )
    refused(log, "ply 0:", "a win was recorded that the rules do not derive")


def test_endings_the_rules_do_not_derive_are_refused():
    base = finished()
    end_round = base["events"][-1]["round"]
    for reason, ending in [
        ("complete", "ply-cap"),
        ("deadline", "wall-clock"),
        ("complete", "line"),
    ]:
        r = copy.deepcopy(base)
        r["events"][-1].update(reason=reason, ending=ending)
        refused(
            r, f"ply {end_round}:", f"ends {reason}/{ending}", "rules derive complete/connection"
        )
    # A running game may only be stopped by the deadline.
    state = moves(fogboard_games.load("dark-hex-4").new_initial_state(), ["a1", "b2"])
    r = R.to_engine_log(R.stop_at_deadline(state))
    r["events"][-1].update(reason="complete", ending="ply-cap")
    refused(r, "ply 2:", "rules derive no end", "still running after 2 plies")
    r["events"][-1].update(reason="deadline", ending="connection")
    refused(r, "ply 2:", "ends deadline/connection")
    r["events"][-1].update(reason="timeout", ending="wall-clock")
    refused(r, "end reason must be complete or deadline")


def test_end_scores_round_and_placement_are_checked():
    base = finished()
    r = copy.deepcopy(base)
    r["events"][-1]["scores"] = [0.0, 0.0]
    refused(r, "ply", "end scores [0.0, 0.0]")
    r = copy.deepcopy(base)
    r["events"][-1]["round"] += 1
    refused(r, "the end has round")
    r = copy.deepcopy(base)
    r["events"].pop()
    refused(r, "the engine log has no end event")
    r = copy.deepcopy(base)
    r["events"].append({"kind": "start", "round": -1})
    refused(r, "comes after the end event")
    r = copy.deepcopy(base)
    end = r["events"].pop()
    r["events"].insert(3, end)
    refused(r, "ply")


def test_integer_scores_are_accepted_but_booleans_are_not():
    r = finished()
    r["events"][-1]["scores"] = [int(x) for x in r["events"][-1]["scores"]]
    r["results"]["scores"] = [int(x) for x in r["results"]["scores"]]
    R.from_engine_log(r)
    r["events"][-1]["scores"] = [True, False]
    refused(r, "scores[0] must be a number")


@pytest.mark.parametrize("field", R.RESULT_KEYS)
def test_every_results_field_is_checked(field):
    game = fogboard_games.load("recon-hex-5")
    state, rng = random_game(game, 11)
    extras = random_extras(rng, len(state.truth.plies), game.setup)
    log = R.to_engine_log(state, policy_names=["p", "q"], extras=extras)
    value = log["results"][field]
    if isinstance(value, list):
        tampered = list(reversed(value)) if value[0] != value[1] else [value[0], value[1] + 1]
        if isinstance(value[0], str):
            tampered = [value[0], value[1] + "!"]
    elif isinstance(value, bool):
        tampered = not value
    elif isinstance(value, int):
        tampered = value + 1
    else:
        tampered = value + "x"
    log["results"][field] = tampered
    end_round = log["events"][-1]["round"]
    refused(log, f"ply {end_round}:", f"results.{field} says")


def test_results_fields_are_optional_but_unknown_ones_refused():
    r = finished()
    r["results"] = {"scores": r["results"]["scores"]}
    R.from_engine_log(r)
    r["results"]["elo"] = 1200
    refused(r, "unknown key 'elo'")


def test_guess_and_fallback_tallies_come_from_the_events():
    r = json.loads(RECON_DEADLINE)
    r["events"][2]["guess"] = ["d3", "e5"]  # one more guess, no more hits
    refused(r, "results.guessesMade says [3, 0]", "rules derive [4, 0]")
    r = json.loads(RECON_DEADLINE)
    r["events"][8]["fellBack"] = False
    refused(r, "ply 4:", "results.fallbacks says [0, 1]")


# ---- recon-specific refusals ------------------------------------------------------


def test_recon_plies_need_their_sense():
    r = json.loads(RECON_DEADLINE)
    del r["events"][3]  # O's sense of ply 1
    refused(r, "ply 1:", "an attempt without its sense")
    r = json.loads(RECON_DEADLINE)
    r["events"][3]["anchor"] = "e5"
    refused(r, "ply 1:", "e5 is not a sense anchor")
    r = json.loads(RECON_DEADLINE)
    r["events"].insert(4, {"kind": "sense", "round": 1, "seat": 1, "anchor": "a1"})
    refused(r, "ply 1:", "a second sense")


def test_sense_in_a_game_without_sensing_is_refused():
    r = json.loads(TTT_LINE)
    r["events"].insert(1, {"kind": "sense", "round": 0, "seat": 0, "anchor": "a1"})
    refused(r, "ply 0:", "no sensing")


def test_recon_must_be_abrupt():
    r = json.loads(RECON_DEADLINE)
    r["config"]["abrupt"] = False
    refused(r, "recon hex, which is abrupt only", "abrupt: false")


def test_a_deadline_between_sense_and_attempt_is_refused():
    r = json.loads(RECON_DEADLINE)
    del r["events"][8]  # O's last attempt: the stop now falls after its sense
    r["events"][-1]["round"] = 3
    refused(r, "ply 3:", "after a sense and before its attempt")


# ---- malformed shapes ---------------------------------------------------------------


def shape_cases():
    def mutate(f):
        r = json.loads(TTT_LINE)
        f(r)
        return r

    yield "not an object", [1, 2], "engine log must be an object"
    yield "missing key", mutate(lambda r: r.pop("results")), "missing key 'results'"
    yield "unknown key", mutate(lambda r: r.update(states=[])), "unknown key 'states'"
    yield "protocol", mutate(lambda r: r.update(protocol="fogboards.replay.v2")), "unknown protocol"
    yield (
        "mode",
        mutate(lambda r: r["config"].update(mode="kriegspiel")),
        "unknown mode 'kriegspiel'",
    )
    yield "size type", mutate(lambda r: r["config"].update(size="3")), "config.size must be an int"
    yield (
        "abrupt type",
        mutate(lambda r: r["config"].update(abrupt=0)),
        "config.abrupt must be a bool",
    )
    yield (
        "sense bool",
        mutate(lambda r: r["config"].update(sense=True)),
        "config.sense must be an int",
    )
    yield "config key", mutate(lambda r: r["config"].pop("seed")), "config: missing key 'seed'"
    yield "ttt size", mutate(lambda r: r["config"].update(size=4)), "size must be 3 in phantom-ttt"
    yield "first", mutate(lambda r: r["config"].update(first=1)), "config.first must be 0"
    yield "max plies", mutate(lambda r: r["config"].update(maxPlies=19)), "max_plies"
    yield (
        "max plies -1",
        mutate(lambda r: r["config"].update(maxPlies=-1)),
        "config.maxPlies must be the ply cap, an int in 1..18",
    )
    yield (
        "max plies huge",
        mutate(lambda r: r["config"].update(maxPlies=2**31)),
        "config.maxPlies must be the ply cap",
    )
    yield "size float", mutate(lambda r: r["config"].update(size=3.0)), "config.size must be an int"
    yield "names", mutate(lambda r: r.update(names=["solo"])), "names must hold 2 entries"
    yield (
        "policy names",
        mutate(lambda r: r.update(policyNames=["a", 2])),
        "policyNames[1] must be a str",
    )
    yield "events type", mutate(lambda r: r.update(events={})), "events must be a list"
    yield "empty events", mutate(lambda r: r.update(events=[])), "events: empty"
    yield "first event", mutate(lambda r: r["events"].pop(0)), "events[0] must be start"
    yield (
        "event type",
        mutate(lambda r: r["events"].insert(1, "attempt")),
        "events[1] must be an object",
    )
    yield "kind", mutate(lambda r: r["events"][1].update(kind="resign")), "unknown kind 'resign'"
    yield "no round", mutate(lambda r: r["events"][1].pop("round")), "missing key 'round'"
    yield "round bool", mutate(lambda r: r["events"][1].update(round=False)), "round must be an int"
    yield "no cell", mutate(lambda r: r["events"][1].pop("cell")), "missing key 'cell'"
    yield "cell int", mutate(lambda r: r["events"][1].update(cell=3)), "cell must be a str"
    yield (
        "cell case",
        mutate(lambda r: r["events"][1].update(cell="A3")),
        "ply 0: cell: 'A3' must be written 'a3'",
    )
    yield (
        "round float",
        mutate(lambda r: r["events"][1].update(round=0.0)),
        "round must be an int",
    )
    yield (
        "result",
        mutate(lambda r: r["events"][1].update(result="hit")),
        "result must be 'placed' or 'occupied'",
    )
    yield "guess", mutate(lambda r: r["events"][1].update(guess="b2")), "guess must be a list"
    yield (
        "guess cell",
        mutate(lambda r: r["events"][1].update(guess=["k9"])),
        "guess[0]: 'k9' is not a cell",
    )
    yield "say", mutate(lambda r: r["events"][1].update(say=None)), "say must be a str"
    yield "extra key", mutate(lambda r: r["events"][1].update(ply=0)), "unknown key 'ply'"
    yield (
        "scores",
        mutate(lambda r: r["events"][-1].update(scores=[1.0])),
        "scores must hold 2 entries",
    )
    yield "path", mutate(lambda r: r["events"][6].update(path="a3 b3 c3")), "path must be a list"
    yield "results type", mutate(lambda r: r.update(results=[])), "results must be an object"


@pytest.mark.parametrize(
    "label,log,message", list(shape_cases()), ids=[c[0] for c in shape_cases()]
)
def test_malformed_shapes_are_refused(label, log, message):
    refused(log, message)


def test_malformed_json_text_is_refused():
    for text, message in [
        ("{", "not JSON"),
        ('{"protocol": NaN}', "NaN is not JSON"),
        ('{"a": 1, "a": 2}', "duplicate JSON key 'a'"),
        (b"\xff\xfe", "not UTF-8"),
        (TTT_LINE.replace('"seed": 0', '"seed": 0, "seed": 1'), "duplicate JSON key 'seed'"),
        ("[" * 100000, "nests deeper than 32 levels"),
        (TTT_LINE.replace('"seed": 0', '"seed": ' + "7" * 5000), "config.seed must be an int"),
        (TTT_LINE.replace('"seed": 0', '"seed": 1e400'), "config.seed must be an int"),
    ]:
        with pytest.raises(EngineLogError, match=message):
            R.loads(text)


def test_engine_log_errors_are_value_errors():
    assert issubclass(EngineLogError, ValueError)


def test_writer_checks_its_arguments():
    game = fogboard_games.load("phantom-ttt-3")
    state, _ = random_game(game, 2)
    n = len(state.truth.plies)
    with pytest.raises(ValueError, match="extras: 1 entries"):
        R.to_engine_log(state, extras=[{}])
    with pytest.raises(ValueError, match="unknown key 'mood'"):
        R.to_engine_log(state, extras={0: {"mood": "calm"}})
    with pytest.raises(ValueError, match="not a cell"):
        R.to_engine_log(state, extras={n - 1: {"guess": ["z1"]}})
    with pytest.raises(ValueError, match="names must hold 2 entries"):
        R.to_engine_log(state, names=["only"])
    with pytest.raises(ValueError, match="seed must be an int"):
        R.to_engine_log(state, seed="7")
    with pytest.raises(EngineLogError, match="seed must be an int"):
        R.to_engine_log(state, seed=2**64)  # the reader would refuse it
    with pytest.raises(EngineLogError, match="sampled must be a bool"):
        R.to_engine_log(state, sampled=None)
    with pytest.raises(EngineLogError, match="must be written 'a1'"):
        R.to_engine_log(state, extras={0: {"guess": ["A1"]}})


# ---- rectangular boards (docs/boards_bots_and_engine_logs.md: config.ranks) -----------


def _rect_log():
    game = fogboard_games.load("dark-hex-rect-3x4")
    state, _ = random_game(game, 2)
    return R.to_engine_log(state)


def test_a_rectangular_board_writes_its_ranks_and_reads_back():
    log = _rect_log()
    assert log["config"]["size"] == 3 and log["config"]["ranks"] == 4
    assert log["results"]["ranks"] == 4
    back = R.from_engine_log(json.loads(json.dumps(log)))
    assert back.get_game().get_parameters()["num_cols"] == 4
    assert back.get_game().get_parameters()["num_rows"] == 3


def test_bad_ranks_are_refused_by_name():
    log = _rect_log()
    for value, fragment in [
        (3, "ranks other than size"),  # a square board writes no ranks
        (True, "config.ranks"),
        (12, "config.ranks"),
    ]:
        bad = copy.deepcopy(log)
        bad["config"]["ranks"] = value
        refused(bad, fragment)
    bad = copy.deepcopy(log)
    bad["results"]["ranks"] = 5
    refused(bad, "results.ranks")
    square = R.to_engine_log(random_game(fogboard_games.load("dark-hex-4"), 1)[0])
    square["results"]["ranks"] = 4
    refused(square, "results.ranks", "only for a rectangular board")
    ttt = R.to_engine_log(random_game(fogboard_games.load("phantom-ttt-3"), 1)[0])
    ttt["config"]["ranks"] = 4
    refused(ttt, "config.ranks", "phantom-ttt")


def test_a_cell_off_a_rectangular_board_names_the_board():
    log = _rect_log()
    attempt = events_of(log, "attempt")[0]
    attempt["cell"] = "d1"  # three files: a..c
    refused(log, "'d1' is not a cell of a 3x4 board (a1..c4)")
