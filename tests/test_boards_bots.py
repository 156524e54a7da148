"""Baseline bots `probe` and `sweep` (docs/boards_bots_and_engine_logs.md)."""

from __future__ import annotations

import collections
import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games.boards import bots, rules
from fogboard_games.boards.bots import make_bot, path_cells, probe_targets, seat_view, sweep_target

PRESETS = ("phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5")


def play(state, names: tuple[str, str], seeds=(0, 1), game=None):
    """Play to the end; returns the list of (player, action) taken."""
    game = game or state.get_game()
    players = [make_bot(names[p], game, p, seeds[p]) for p in (0, 1)]
    history = []
    while not state.is_terminal():
        p = state.current_player()
        a = players[p].step(state)
        assert isinstance(a, int)
        assert a in state.legal_actions(), (names[p], state.action_to_string(p, a), str(state))
        history.append((p, a))
        state.apply_action(a)
    return history


def apply_strings(state, moves: list[str]):
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


def action_text(state, bot) -> str:
    return state.action_to_string(bot.player, bot.step(state))


# ---- legality, determinism, evaluate_bots ------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("pair", [("probe", "sweep"), ("sweep", "probe"), ("probe", "probe")])
def test_bots_always_play_legal_actions(preset, pair):
    game = fogboard_games.load(preset)
    for seed in range(6):
        play(game.new_initial_state(), pair, seeds=(seed, seed + 100))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("name", bots.BOT_NAMES)
def test_bots_play_legal_actions_against_random(preset, name):
    game = fogboard_games.load(preset)
    for seed in range(10):
        rng = random.Random(seed)
        seat = seed % 2
        bot = make_bot(name, game, seat, seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == seat:
                a = bot.step(state)
                assert a in state.legal_actions()
            else:
                a = rng.choice(state.legal_actions())
            state.apply_action(a)


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_game_and_seeds_vary_probe(preset):
    game = fogboard_games.load(preset)
    runs = [
        play(game.new_initial_state(), ("probe", "probe"), seeds=(s, s)) for s in (7, 7, 8, 9, 10)
    ]
    assert runs[0] == runs[1]
    assert len({tuple(r) for r in runs}) > 1, "probe's seeded tie-breaks never changed a game"


def test_sweep_is_deterministic_whatever_the_seed():
    game = fogboard_games.load("dark-hex-5")
    a = play(game.new_initial_state(), ("sweep", "sweep"), seeds=(1, 2))
    b = play(game.new_initial_state(), ("sweep", "sweep"), seeds=(3, 4))
    assert a == b


def test_step_is_pure_and_restart_varies_ties():
    game = fogboard_games.load("dark-hex-4")
    bot = make_bot("probe", game, 0, 5)
    state = game.new_initial_state()
    first = [bot.step(state) for _ in range(3)]
    assert len(set(first)) == 1, "asking twice at one state gave two answers"
    seen = set(first)
    for _ in range(20):
        bot.restart()
        seen.add(bot.step(state))
    assert len(seen) > 1, "a new game never changed probe's tie-break on the empty board"


@pytest.mark.parametrize("preset", PRESETS)
def test_evaluate_bots_runs_both_bots(preset):
    game = fogboard_games.load(preset)
    for seed in range(4):
        players = [make_bot("probe", game, 0, seed), make_bot("sweep", game, 1, seed)]
        steps = [0, 0]
        for seat, bot in enumerate(players):
            bot.step = _counted(bot.step, steps, seat)
        returns = pyspiel.evaluate_bots(game.new_initial_state(), players, seed)
        assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        assert steps[0] > 0 and steps[1] > 0, steps  # both bots chose moves


def _counted(step, counts, seat):
    def counting(state):
        counts[seat] += 1
        return step(state)

    return counting


def test_evaluate_bots_from_a_started_state_uses_restart_at():
    game = fogboard_games.load("recon-hex-5")
    state = apply_strings(game.new_initial_state(), ["sense a1", "c3"])
    players = [make_bot("sweep", game, 0, 1), make_bot("probe", game, 1, 1)]
    returns = pyspiel.evaluate_bots(state, players, 3)
    assert sum(returns) == 0 and state.is_terminal()


def test_probe_beats_random_on_dark_hex_4():
    game = fogboard_games.load("dark-hex-4")
    wins = 0
    games = 100
    for i in range(games):
        seat = i % 2
        players = [None, None]
        players[seat] = make_bot("probe", game, seat, i)
        players[1 - seat] = pyspiel.make_uniform_random_bot(1 - seat, 1000 + i)
        wins += pyspiel.evaluate_bots(game.new_initial_state(), players, i)[seat] > 0
    # Measured: 97 of 100 (seats alternate); random play is a coin flip.
    assert wins / games >= 0.85, f"probe won only {wins} of {games} against random"


def test_sweep_beats_random_on_dark_hex_4():
    game = fogboard_games.load("dark-hex-4")
    wins = 0
    for i in range(60):
        seat = i % 2
        players = [None, None]
        players[seat] = make_bot("sweep", game, seat, i)
        players[1 - seat] = pyspiel.make_uniform_random_bot(1 - seat, 2000 + i)
        wins += pyspiel.evaluate_bots(game.new_initial_state(), players, i)[seat] > 0
    # Measured: 49 of 60.
    assert wins / 60 >= 0.65, f"sweep won only {wins} of 60 against random"


OPTION_GAMES = [
    "fogboard_dark_hex(num_rows=3,num_cols=5)",
    "fogboard_dark_hex(num_rows=5,num_cols=3,abrupt=true)",
    "fogboard_recon_hex(num_rows=4,num_cols=2,sense=2)",
    "fogboard_recon_hex(num_rows=2,num_cols=5,sense=1,obstype=reveal-numturns)",
    "fogboard_phantom_ttt(imperfect_recall=true)",
    "fogboard_dark_hex(board_size=4,imperfect_recall=true,abrupt=true)",
]


@pytest.mark.parametrize("game_string", OPTION_GAMES)
def test_bots_play_legal_actions_on_rectangular_and_imperfect_recall_games(game_string):
    game = pyspiel.load_game(game_string)
    for seed in range(4):
        for pair in (("probe", "sweep"), ("sweep", "probe")):
            play(game.new_initial_state(), pair, seeds=(seed, seed + 100))


@pytest.mark.parametrize("rows,cols", [(3, 5), (5, 3)])
def test_probe_beats_random_on_rectangular_boards(rows, cols):
    """On a rectangle one seat's edges are nearer: probe still wins from both."""
    game = pyspiel.load_game(f"fogboard_dark_hex(num_rows={rows},num_cols={cols})")
    wins = [0, 0]
    for i in range(40):
        seat = i % 2
        players = [None, None]
        players[seat] = make_bot("probe", game, seat, i)
        players[1 - seat] = pyspiel.make_uniform_random_bot(1 - seat, 1000 + i)
        wins[seat] += pyspiel.evaluate_bots(game.new_initial_state(), players, i)[seat] > 0
    # Measured (of these 20 a seat): 20 as X and 16 as O on 3x5; 17 and 20 on 5x3.
    assert min(wins) >= 14, f"probe won {wins} of 20 a seat against random"


def test_seat_view_under_imperfect_recall_is_the_board_only():
    game = pyspiel.load_game("fogboard_dark_hex(board_size=3,imperfect_recall=true)")
    state = apply_strings(game.new_initial_state(), ["b2", "b2", "a1"])
    view = seat_view(state, 1)
    assert view.log == ()
    assert view.board[4] == rules.PROVEN and view.board[0] == rules.OWN


def test_make_bot_refuses_bad_arguments():
    game = fogboard_games.load("dark-hex-4")
    with pytest.raises(ValueError, match="unknown board bot 'greedy'"):
        make_bot("greedy", game, 0, 0)
    with pytest.raises(ValueError, match="player must be a seat 0..1"):
        make_bot("probe", game, 2, 0)
    with pytest.raises(ValueError, match="not 'kuhn_poker'"):
        make_bot("probe", pyspiel.load_game("kuhn_poker"), 0, 0)
    bot = make_bot("probe", game, 1, 0)
    with pytest.raises(ValueError, match="seat 0 is to move"):
        bot.step(game.new_initial_state())


# ---- the bots read only the seat's information state -------------------------


def infostate_buckets(game, depth: int):
    """Every history of up to `depth` decisions, grouped by (mover, its information state)."""
    buckets = collections.defaultdict(list)
    frontier = [game.new_initial_state()]
    for _ in range(depth + 1):
        nxt = []
        for state in frontier:
            if state.is_terminal():
                continue
            p = state.current_player()
            buckets[(p, state.information_state_string(p))].append(state)
            for a in state.legal_actions():
                child = state.clone()
                child.apply_action(a)
                nxt.append(child)
        frontier = nxt
    return buckets


def first_leak(game, bot_for, buckets) -> str | None:
    """A description of a bucket whose states the bot tells apart, else None."""
    for (p, info), states in buckets.items():
        for seed in (0, 1):
            bot = bot_for(game, p, seed)
            actions = {bot.step(s) for s in states}
            if len(actions) > 1:
                return f"seat {p}, seed {seed}: {len(actions)} actions for one information state\n{info}"
    return None


GAMES_FOR_LEAKS = [
    ("fogboard_phantom_ttt", {}, 4),
    ("fogboard_phantom_ttt", {"abrupt": True, "obstype": "reveal-numturns"}, 3),
    ("fogboard_dark_hex", {"board_size": 3, "abrupt": True}, 4),
    ("fogboard_dark_hex", {"board_size": 3}, 3),
    ("fogboard_recon_hex", {"board_size": 3, "sense": 2}, 4),
    # Rectangular, and imperfect recall: one action per current view.
    ("fogboard_dark_hex", {"num_rows": 2, "num_cols": 4}, 4),
    ("fogboard_dark_hex", {"board_size": 3, "imperfect_recall": True}, 3),
    ("fogboard_phantom_ttt", {"imperfect_recall": True}, 3),
]


@pytest.mark.parametrize("short_name,params,depth", GAMES_FOR_LEAKS)
def test_same_information_state_same_action(short_name, params, depth):
    game = pyspiel.load_game(short_name, params)
    buckets = infostate_buckets(game, depth)
    shared = [b for b in buckets.values() if len({str(s) for s in b}) > 1]
    assert len(shared) >= 10, "too few information states cover two true positions"
    for name in bots.BOT_NAMES:
        assert first_leak(game, lambda g, p, s, name=name: make_bot(name, g, p, s), buckets) is None


class TrueBoardProbe(bots.ProbeBot):
    """A cheating probe that also avoids opponent stones it was never shown."""

    def choose_attempt(self, view):
        board = self._state.truth.board
        safe = [c for c in probe_targets(view) if board[c] == rules.EMPTY]
        return safe[0] if safe else probe_targets(view)[0]

    def step(self, state):
        self._state = state
        return super().step(state)


def test_the_information_check_catches_a_cheating_bot():
    game = pyspiel.load_game("fogboard_dark_hex", {"board_size": 3, "abrupt": True})
    buckets = infostate_buckets(game, 3)
    assert first_leak(game, lambda g, p, s: TrueBoardProbe(g, p, s), buckets) is not None


def test_seat_view_holds_the_seats_own_log_only():
    game = fogboard_games.load("recon-hex-5")
    names = game.setup.names
    state = apply_strings(game.new_initial_state(), ["sense a1", "c3", "sense b2"])
    view = seat_view(state, 1)  # seat 1 has sensed b2..c3 and not yet attempted
    assert view.board[names.index("c3")] == rules.PROVEN
    assert view.sense_now is not None and not view.sensing and view.log == ()
    apply_strings(state, ["d4"])
    own = seat_view(state, 0)
    assert own.log == ((0, (0, 0, 0, 0), names.index("c3"), rules.PLACED),)
    assert own.sensing and own.sense_now is None
    assert [names[c] for c, v in enumerate(own.board) if v != rules.UNKNOWN] == ["c3"]


# ---- probe ------------------------------------------------------------------------


def test_probe_paths_agree_with_believed_dist_to_win():
    for preset in ("dark-hex-4", "dark-hex-5", "recon-hex-5", "phantom-ttt-3"):
        game = fogboard_games.load(preset)
        rng = random.Random(preset)
        for _ in range(15):
            state = game.new_initial_state()
            while not state.is_terminal():
                for seat in (0, 1):
                    view = seat_view(state, seat)
                    cells_of_seat = game.setup.cells
                    # The board rebuilt from the seat's own log is the rules' view.
                    assert view.board == tuple(
                        state.truth.view[seat * cells_of_seat : (seat + 1) * cells_of_seat]
                    )
                    d, cells = path_cells(view, seat)
                    assert d == rules.believed_dist(state.truth, seat)
                    assert all(
                        state.truth.view[seat * game.setup.cells + c] == rules.UNKNOWN
                        for c in cells
                    )
                state.apply_action(rng.choice(state.legal_actions()))


def test_probe_completes_its_line_in_tic_tac_toe():
    game = fogboard_games.load("phantom-ttt-3")
    state = apply_strings(game.new_initial_state(), ["a1", "a3", "b1", "b3"])
    for seed in range(5):
        assert action_text(state, make_bot("probe", game, 0, seed)) == "c1"


def test_probe_prefers_cells_on_both_shortest_paths():
    # Seat 0 holds a3 b3 c3 d3 on 5x5: e2 and e3 finish its chain, and the
    # opponent, walled off along rank 3, must pass e3 (and e2 on its way).
    game = fogboard_games.load("dark-hex-5")
    state = apply_strings(
        game.new_initial_state(), ["a3", "a1", "b3", "b1", "c3", "c1", "d3", "d1"]
    )
    view = seat_view(state, 0)
    names = game.setup.names
    assert sorted(names[c] for c in path_cells(view, 0)[1]) == ["e2", "e3"]
    assert {names[c] for c in probe_targets(view)} == {"e2", "e3"}
    # One stone proven on e3 re-routes the chain to e2 alone.
    state = apply_strings(
        game.new_initial_state(), ["a3", "e3", "b3", "b1", "c3", "c1", "d3", "d1", "e3", "a1"]
    )
    assert [names[c] for c in probe_targets(seat_view(state, 0))] == ["e2"]
    assert action_text(state, make_bot("probe", game, 0, 3)) == "e2"


def test_probe_narrows_ties_to_the_opponents_path():
    # Seat 1 on 4x4 with one stone proven at b2: its own shortest paths run
    # through many cells; only those on seat 0's believed path may be chosen.
    game = fogboard_games.load("dark-hex-4")
    state = apply_strings(game.new_initial_state(), ["b2", "b2", "a1", "d4"])
    view = seat_view(state, 1)
    _, mine = path_cells(view, 1)
    _, theirs = path_cells(view, 0)
    targets = set(probe_targets(view))
    assert targets == (mine & theirs) and targets < mine
    choices = {make_bot("probe", game, 1, s).step(state) for s in range(30)}
    assert choices <= targets and len(choices) > 1


def test_probe_senses_the_block_covering_most_of_its_planned_path():
    game = fogboard_games.load("recon-hex-5")
    state = apply_strings(
        game.new_initial_state(),
        ["sense a1", "a3", "sense a1", "a1", "sense a1", "b3", "sense a1", "b1"]
        + ["sense a1", "c3", "sense a1", "c1", "sense a1", "d3", "sense a1", "d1"],
    )
    for seed in range(5):
        assert action_text(state, make_bot("probe", game, 0, seed)) == "sense d2"


def test_probe_sense_choice_maximises_cover_in_random_positions():
    game = fogboard_games.load("recon-hex-5")
    geo = game.setup
    rng = random.Random(4)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.truth.sensed is None:
                p = state.current_player()
                view = seat_view(state, p)
                planned = set(probe_targets(view))
                cover = [len(planned & set(b)) for b in geo.blocks]
                action = make_bot("probe", game, p, rng.randrange(99)).step(state)
                assert cover[action - geo.cells] == max(cover)
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 50


# ---- sweep -------------------------------------------------------------------------


def test_sweep_seat0_walks_the_middle_rank_left_to_right():
    game = fogboard_games.load("dark-hex-5")
    bot = make_bot("sweep", game, 0, 0)
    state = game.new_initial_state()
    walked = []
    for reply in ["a1", "b1"]:
        walked.append(action_text(state, bot))
        apply_strings(state, [walked[-1], reply])
    walked.append(action_text(state, bot))
    assert walked == ["a3", "b3", "c3"]


def test_sweep_shifts_one_lane_when_blocked_and_keeps_its_offset():
    game = fogboard_games.load("dark-hex-5")  # abrupt: a collision ends the turn
    bot = make_bot("sweep", game, 0, 0)
    state = apply_strings(game.new_initial_state(), ["a3", "c3", "b3", "a1"])
    assert action_text(state, bot) == "c3"
    apply_strings(state, ["c3", "a2"])  # occupied: the lane is blocked at c3
    assert action_text(state, bot) == "c4"
    apply_strings(state, ["c4", "b2"])
    assert action_text(state, bot) == "d4"


def test_sweep_wraps_from_the_last_lane_to_the_first():
    game = fogboard_games.load("dark-hex-4")  # classical: a collision moves again
    bot = make_bot("sweep", game, 0, 0)
    state = apply_strings(game.new_initial_state(), ["d1", "a3", "d2", "a4", "a3", "a4"])
    assert state.current_player() == 0
    assert action_text(state, bot) == "a1"  # rank 3 then rank 4 blocked: wrap to rank 1


def test_sweep_seat1_walks_the_middle_file_bottom_to_top():
    game = fogboard_games.load("dark-hex-4")
    bot = make_bot("sweep", game, 1, 0)
    state = apply_strings(game.new_initial_state(), ["a1"])
    assert action_text(state, bot) == "c1"
    apply_strings(state, ["c1", "a2"])
    assert action_text(state, bot) == "c2"
    apply_strings(state, ["c2", "c3"])  # seat 0 took c3: sweep collides there
    assert action_text(state, bot) == "c3"
    apply_strings(state, ["c3"])  # occupied; classical, so seat 1 moves again
    assert state.current_player() == 1
    assert action_text(state, bot) == "d3"  # next file, same rank offset


def test_sweep_walks_rows_in_tic_tac_toe_for_both_seats():
    game = fogboard_games.load("phantom-ttt-3")
    x, o = make_bot("sweep", game, 0, 0), make_bot("sweep", game, 1, 0)
    state = game.new_initial_state()
    assert action_text(state, x) == "a2"
    apply_strings(state, ["a2"])
    assert action_text(state, o) == "a2"
    apply_strings(state, ["a2"])  # occupied: O moves again, one row up
    assert action_text(state, o) == "a3"
    apply_strings(state, ["a3"])
    assert action_text(state, x) == "b2"


def test_sweep_senses_the_block_just_ahead_in_its_lane():
    game = fogboard_games.load("recon-hex-5")
    x, o = make_bot("sweep", game, 0, 0), make_bot("sweep", game, 1, 0)
    state = game.new_initial_state()
    assert action_text(state, x) == "sense a3"
    apply_strings(state, ["sense a3"])
    assert action_text(state, x) == "a3"
    apply_strings(state, ["a3"])
    assert action_text(state, o) == "sense c1"
    # Near the far edge the block is clamped onto the board.
    state = apply_strings(
        game.new_initial_state(),
        ["sense a1", "a3", "sense a1", "a1", "sense a1", "b3", "sense a1", "b1"]
        + ["sense a1", "c3", "sense a1", "c1", "sense a1", "d3", "sense a1", "d1"],
    )
    assert game.setup.names[sweep_target(seat_view(state, 0))] == "e3"
    assert action_text(state, x) == "sense d3"


def test_sweep_reroutes_after_a_sensed_stone():
    game = fogboard_games.load("recon-hex-5")
    x = make_bot("sweep", game, 0, 0)
    # Seat 1 holds a3; seat 0's sense proves it, so the walk shifts to rank 4.
    state = apply_strings(
        game.new_initial_state(), ["sense a1", "e1", "sense a1", "a3", "sense a3"]
    )
    assert action_text(state, x) == "a4"
