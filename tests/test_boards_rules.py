"""Named rule tests for the Fog-of-War boards (docs/boards.md).

Each test plays a short scripted history through the public pyspiel API
(action strings through `state.string_to_action`) and checks one rule.
"""

from __future__ import annotations

import itertools
import random

import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import fogboard_games
from fogboard_games.boards import rules
from fogboard_games.core import testing
from fogboard_games.core.testing import play

TTT = "fogboard_phantom_ttt"
HEX = "fogboard_dark_hex"
RECON = "fogboard_recon_hex"
OPEN_SPIEL_ERRORS = (ValueError, pyspiel.SpielError)


def legal_names(state) -> set[str]:
    return set(testing.legal_names(state))


def snapshot(state) -> tuple:
    """Everything a refused action must leave unchanged."""
    terminal = state.is_terminal()
    return (
        tuple(state.history()),
        state.current_player(),
        terminal,
        tuple(state.legal_actions()),
        tuple(state.returns()),
        tuple(state.information_state_string(p) for p in (0, 1)),
        tuple(tuple(state.information_state_tensor(p)) for p in (0, 1)),
        tuple(state.observation_string(p) for p in (0, 1)),
        str(state),
    )


# ---- collisions -------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    [TTT, f"{HEX}(board_size=3)", f"{HEX}(board_size=4,obstype=reveal-numturns)"],
)
def test_collision_lets_the_mover_move_again_in_classical(game):
    state = play(game, ["b2"])
    assert state.current_player() == 1
    state.apply_action(state.string_to_action("b2"))  # O hits X's stone
    assert state.current_player() == 1  # classical: O moves again
    assert "b2 occupied" in state.information_state_string(1)
    state.apply_action(state.string_to_action("a1"))
    assert state.current_player() == 0  # a placement passes the turn


@pytest.mark.parametrize(
    "game",
    [f"{TTT}(abrupt=true)", f"{HEX}(board_size=3,abrupt=true)", f"{RECON}(board_size=3,sense=1)"],
)
def test_collision_ends_the_turn_in_abrupt(game):
    recon = game.startswith(RECON)
    moves = (["sense a1"] if recon else []) + ["b2"] + (["sense a1"] if recon else [])
    state = play(game, moves)
    assert state.current_player() == 1
    state.apply_action(state.string_to_action("b2"))  # O hits X's stone
    assert state.current_player() == 0  # abrupt: the turn passes anyway
    assert "b2 occupied" in state.information_state_string(1)


def _believed(game, state, seat) -> list[int]:
    """The seat's believed board from the observer: 0 unknown, 1 own, 2 proven."""
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    observer.set_from(state, seat)
    return [int(row.argmax()) for row in observer.dict["board"][0]]


@pytest.mark.parametrize(
    "game_string", [TTT, f"{HEX}(board_size=3)", f"{HEX}(board_size=3,abrupt=true)"]
)
def test_collision_proves_the_stone_to_the_mover_only(game_string):
    game = pyspiel.load_game(game_string)
    before = play(game, ["b2"])
    assert "b2" in legal_names(before)  # O does not know b2 is taken
    assert _believed(game, before, 1)[4] == 0
    x_seen = [f(before, 0) for f in (_info, _info_tensor, _obs)]
    after = play(game, ["b2", "b2"])
    # O has proven X's stone: its view shows it ...
    assert _believed(game, after, 1)[4] == 2
    assert "b2 occupied" in after.information_state_string(1)
    # ... and it is never legal for O again (O moves now, or after X's reply).
    if after.current_player() != 1:
        after.apply_action(after.string_to_action("a1"))
    assert after.current_player() == 1
    assert "b2" not in legal_names(after)
    # Nothing changed for X: its information state, tensor and observation.
    after = play(game, ["b2", "b2"])
    assert [f(after, 0) for f in (_info, _info_tensor, _obs)] == x_seen
    assert _believed(game, after, 0) == _believed(game, before, 0)


def _info(state, seat):
    return state.information_state_string(seat)


def _info_tensor(state, seat):
    return state.information_state_tensor(seat)


def _obs(state, seat):
    return state.observation_string(seat)


def test_a_proven_stone_stays_unattemptable_for_the_rest_of_the_game():
    state = play(TTT, ["b2", "b2", "a1", "c3"])  # O proves b2, places a1; X places c3
    assert state.current_player() == 1
    assert legal_names(state) == {"b1", "c1", "a2", "c2", "a3", "b3", "c3"}


def test_own_stones_are_never_legal():
    state = play(f"{HEX}(board_size=3)", ["a1", "b1", "c1"])  # X a1, O b1, X c1
    assert state.current_player() == 1
    assert "b1" not in legal_names(state)
    state.apply_action(state.string_to_action("a3"))
    assert legal_names(state) == {"b1", "a2", "b2", "c2", "a3", "b3", "c3"}


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-4", "dark-hex-5", "recon-hex-5"])
def test_legal_attempts_are_exactly_the_unknown_cells(preset):
    """Random playouts: legal attempts = cells that are neither own nor proven."""
    game = fogboard_games.load(preset)
    n = game.get_parameters().get("board_size", 3)
    cells = n * n
    rng = random.Random(5)
    for _ in range(30):
        state = game.new_initial_state()
        own = [set(), set()]
        proven = [set(), set()]
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if legal[0] >= cells:  # recon sense step: every anchor, no cell
                assert legal == list(range(cells, game.num_distinct_actions()))
                state.apply_action(rng.choice(legal))
                # A sense may prove opponent stones: read them back from the
                # information string's sense result.
                for token in state.information_state_string(seat).split():
                    if token.endswith(":opp") or token.endswith(":opp]"):
                        name = token.strip("[]").split(":")[0]
                        proven[seat].add(game.setup.action_ids[name])
                continue
            expected = sorted(set(range(cells)) - own[seat] - proven[seat])
            assert legal == expected
            action = rng.choice(legal)
            state.apply_action(action)
            last = state.information_state_string(seat).split("log: ")[1].split("\n")[0]
            if last.split()[-1] == "placed":
                own[seat].add(action)
            else:
                proven[seat].add(action)


# ---- recon sensing ------------------------------------------------------------


def test_sensed_opponent_stone_becomes_unattemptable():
    game = f"{RECON}(board_size=3,sense=2)"
    state = play(game, ["sense a1", "b2"])  # X senses, places b2
    assert state.current_player() == 1
    state.apply_action(state.string_to_action("sense b1"))  # O: b1 c1 b2 c2
    assert state.current_player() == 1
    assert "sense b1 [b1:empty c1:empty b2:opp c2:empty]" in state.information_state_string(1)
    assert "b2" not in legal_names(state)
    assert legal_names(state) == {"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}
    # The stone is in O's view from now on, as if proven by a collision.
    assert "\n 2  . x .\n" in state.observation_string(1)
    # Without the sense the same attempt would have been legal (and collided).
    other = play(game, ["sense a1", "b2", "sense a2"])
    assert "b2" not in legal_names(other)  # a2 block a2 b2 a3 b3 also holds b2
    other = play(game, ["sense a1", "b2", "sense a1"])  # a1 block a1 b1 a2 b2
    assert "b2" not in legal_names(other)
    blind = play(f"{RECON}(board_size=3,sense=1)", ["sense a1", "b2", "sense a1"])
    assert "b2" in legal_names(blind)


def test_sense_shows_own_stones_and_empties():
    state = play(f"{RECON}(board_size=3,sense=2)", ["sense b2", "a1", "sense b1", "c3"])
    assert state.current_player() == 0
    state.apply_action(state.string_to_action("sense a1"))
    info = state.information_state_string(0)
    assert "2.sense a1 [a1:own b1:empty a2:empty b2:empty]" in info
    assert "1.sense b2 [b2:empty c2:empty b3:empty c3:empty] a1 placed" in info


def test_seen_empty_record_uses_the_seats_own_ply_count():
    game = pyspiel.load_game(f"{RECON}(board_size=3,sense=1)")
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    state = play(game, ["sense a1", "c3", "sense a1", "a3"])
    # O saw a1 empty during its first ply: its own ply count was 0, while one
    # global ply (X's) had already been made.
    assert state.truth.seen_empty_at[9 + 0] == 0
    assert state.truth.seen_empty_at[0] == 0  # X saw a1 empty at its own ply 0
    assert "seen empty (own plies ago): a1(1)" in state.observation_string(1)
    state = play(game, ["sense a1", "c3", "sense a1", "a3", "sense c1", "b1", "sense b2", "c2"])
    # Two own plies later for O (four global plies later): age 2, not 4.
    assert state.truth.seen_empty_at[9 + 0] == 0
    assert state.truth.seen_empty_at[9 + 4] == 1  # b2 seen at O's own ply 1
    assert "seen empty (own plies ago): a1(2) b2(1)" in state.observation_string(1)
    observer.set_from(state, 1)
    ages = observer.dict["seen_empty_age"][0]
    assert ages[0] == 3.0 and ages[4] == 2.0  # 1 + own plies since seen
    assert sum(1 for v in ages if v) == 2
    # X's record: a1 at its ply 0, c1 at its ply 1 (not global plies 0 and 2).
    assert state.truth.seen_empty_at[0] == 0 and state.truth.seen_empty_at[2] == 1
    assert "seen empty (own plies ago): a1(2) c1(1)" in state.observation_string(0)


def test_seen_empty_is_forgotten_once_the_cell_is_known():
    game = pyspiel.load_game(f"{RECON}(board_size=3,sense=1)")
    state = play(game, ["sense a1", "a1"])  # seen empty, then placed
    assert "seen empty (own plies ago): -" in state.observation_string(0)
    state = play(game, ["sense a1", "b2", "sense b2", "a1"])  # O sees X's stone
    assert "seen empty (own plies ago): -" in state.observation_string(1)


# ---- wins and endings ---------------------------------------------------------


def _ending(state):
    return state.truth.ending


def test_hex_seat0_wins_by_joining_file_a_to_the_last_file():
    # a3 - b2 - c1 are neighbours along (r-1, f+1): file a to file c.
    state = play(f"{HEX}(board_size=3)", ["a3", "a1", "b2", "b1"])
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("c1"))
    assert state.is_terminal() and _ending(state) == "connection"
    assert state.returns() == [1.0, -1.0]


def test_hex_seat1_wins_by_joining_rank_1_to_the_last_rank():
    # b1 - a2 - a3: (r+1, f-1) is a neighbour, rank 1 to rank 3.
    state = play(f"{HEX}(board_size=3)", ["c3", "b1", "c2", "a2"])
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("c1"))  # X: c1 c2 c3 is one file, no win
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("a3"))
    assert state.is_terminal() and _ending(state) == "connection"
    assert state.returns() == [-1.0, 1.0]


def test_hex_other_diagonal_is_not_adjacent():
    # a1 - b2 - c3 do not touch: no connection for seat 0.
    state = play(f"{HEX}(board_size=3)", ["a1", "a3", "b2", "b3", "c3"])
    assert not state.is_terminal()
    # A seat-1 chain across ranks is not a seat-0 win and vice versa.
    state = play(f"{HEX}(board_size=3)", ["a1", "c1", "a2", "c2", "b1"])  # X a1 a2 b1
    assert not state.is_terminal()


def test_hex_win_on_4x4_through_a_collision():
    # X walks rank 2 from a2 to d2; O collides once on the way (classical).
    moves = ["a2", "a1", "b2", "b2", "b1", "c2", "c1", "d2"]
    state = play(f"{HEX}(board_size=4)", moves)
    assert state.is_terminal() and _ending(state) == "connection"
    assert state.returns() == [1.0, -1.0]


def test_ttt_line_win():
    state = play(TTT, ["a1", "a2", "b1", "b2"])
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("c1"))
    assert state.is_terminal() and _ending(state) == "line"
    assert state.returns() == [1.0, -1.0]
    # O wins the anti-diagonal through a collision on the way.
    state = play(TTT, ["a1", "b2", "b1", "b1", "c1", "c3"])  # O hits b1, then c1
    assert not state.is_terminal() and state.current_player() == 1
    state.apply_action(state.string_to_action("a3"))  # c1 b2 a3
    assert state.is_terminal() and _ending(state) == "line"
    assert state.returns() == [-1.0, 1.0]


def test_ttt_board_full_draw():
    # Final board (rank 3 on top): X O X / X O O / O X X, no line anywhere.
    moves = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1"]
    state = play(TTT, moves)
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("c1"))
    assert state.is_terminal() and _ending(state) == "board-full"
    assert state.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    "moves,dists,returns",
    [
        (["b2", "c1", "a2"], (1, 2), [1.0, -1.0]),  # X nearer: X wins
        (["b2", "a1"], (2, 2), [0.0, 0.0]),  # equal: draw
        (["a1", "b2", "c3", "b1"], (2, 1), [-1.0, 1.0]),  # O nearer: O wins
        (["b2", "b2"], (2, 3), [1.0, -1.0]),  # a collision is a ply too
    ],
)
def test_ply_cap_scores_by_true_dist_to_win(moves, dists, returns):
    state = play(f"{HEX}(board_size=3,max_plies={len(moves)})", moves)
    assert state.is_terminal() and _ending(state) == "ply-cap"
    assert (rules.true_dist(state.truth, 0), rules.true_dist(state.truth, 1)) == dists
    assert state.returns() == returns
    shorter = play(f"{HEX}(board_size=3,max_plies={len(moves) + 1})", moves)
    assert not shorter.is_terminal()


def test_ply_cap_uses_the_true_board_not_beliefs():
    # X (a2 b2) believes c2 finishes; O's hidden c1 c2 make it two (b3 c3).
    state = play(f"{HEX}(board_size=3,max_plies=4)", ["a2", "c2", "b2", "c1"])
    assert state.is_terminal() and _ending(state) == "ply-cap"
    m = state.truth
    assert (rules.believed_dist(m, 0), rules.believed_dist(m, 1)) == (1, 1)  # beliefs: a draw
    assert (rules.true_dist(m, 0), rules.true_dist(m, 1)) == (2, 1)
    assert state.returns() == [-1.0, 1.0]


def test_ply_cap_in_recon_counts_sense_and_attempt_as_one_ply():
    state = play(f"{RECON}(board_size=3,max_plies=1)", ["sense a1"])
    assert not state.is_terminal()
    state.apply_action(state.string_to_action("b2"))
    assert state.is_terminal() and _ending(state) == "ply-cap"
    assert state.returns() == [1.0, -1.0]  # X b2: distance 2 against O's 3


def test_ply_cap_in_ttt():
    state = play(f"{TTT}(max_plies=3)", ["b2", "a1", "a2"])
    assert state.is_terminal() and _ending(state) == "ply-cap"
    # X (b2 a2) needs c2: 1; O (a1) needs 2 on rank 1 or file a is blocked.
    assert (rules.true_dist(state.truth, 0), rules.true_dist(state.truth, 1)) == (1, 2)
    assert state.returns() == [1.0, -1.0]


def test_a_win_on_the_cap_ply_is_a_win_not_a_cap():
    state = play(f"{TTT}(max_plies=5)", ["a1", "a2", "b1", "b2", "c1"])
    assert _ending(state) == "line" and state.returns() == [1.0, -1.0]


# ---- distToWin ---------------------------------------------------------------


def _board(geo, x=(), o=()) -> list[int]:
    board = [rules.EMPTY] * geo.cells
    for name in x:
        board[geo.names.index(name)] = rules.X_STONE
    for name in o:
        board[geo.names.index(name)] = rules.O_STONE
    return board


def _dist(geo, board, seat):
    own, opp = (rules.X_STONE, rules.O_STONE) if seat == 0 else (rules.O_STONE, rules.X_STONE)
    return rules.dist_to_win(geo, board, seat, own, opp)


HEX3 = rules.Geometry("hex", 3, False, 0, 18)
HEX4 = rules.Geometry("hex", 4, False, 0, 32)
TTT3 = rules.Geometry("ttt", 3, False, 0, 18)


@pytest.mark.parametrize(
    "geo,x,o,d0,d1",
    [
        (HEX3, (), (), 3, 3),
        (HEX3, ("a2", "b2"), (), 1, 3),
        (HEX3, ("a3", "b2"), (), 1, 3),  # c1 completes the (r-1, f+1) chain
        (HEX3, ("a1", "b2"), (), 2, 3),  # a1 and b2 do not touch
        (HEX3, (), ("b1", "b2", "b3"), 99, 0),  # O's file b walls X off
        (HEX3, ("a2", "b2", "c2"), (), 0, 99),
        (HEX3, ("b2",), ("a1",), 2, 2),
        (HEX4, ("a1", "b1"), ("c1", "c2", "c3"), 4, 1),  # only a4 b4 c4 d4 gets round
        (HEX4, (), (), 4, 4),
        (TTT3, (), (), 3, 3),
        (TTT3, ("a1", "b1"), (), 1, 3),
        (TTT3, ("a1",), ("b2",), 2, 2),
        (TTT3, (), ("a1", "b2", "c3"), 99, 0),  # every line holds an O
        (TTT3, ("b2",), ("a1", "c3"), 2, 2),
        (TTT3, ("a1", "b2", "c3"), (), 0, 99),
    ],
)
def test_dist_to_win_small_boards(geo, x, o, d0, d1):
    board = _board(geo, x, o)
    assert (_dist(geo, board, 0), _dist(geo, board, 1)) == (d0, d1)


def _brute_dist(geo, board, seat) -> int:
    """Least number of empty cells to add for `seat` to win, by enumeration."""
    own = rules.X_STONE if seat == 0 else rules.O_STONE
    empty = [c for c in range(geo.cells) if board[c] == rules.EMPTY]
    for k in range(len(empty) + 1):
        for extra in itertools.combinations(empty, k):
            mine = {c for c in range(geo.cells) if board[c] == own} | set(extra)
            if _wins(geo, mine, seat):
                return k
    return rules.UNREACHABLE


def _wins(geo, mine: set, seat: int) -> bool:
    n = geo.size
    if geo.kind == "ttt":
        return any(all(c in mine for c in line) for line in geo.lines)
    # Flood fill over `mine` from the seat's first edge, with the SPEC's
    # adjacency written out again here.
    first = [c for c in mine if (c % n if seat == 0 else c // n) == 0]
    seen, todo = set(first), list(first)
    while todo:
        r, f = divmod(todo.pop(), n)
        for dr, df in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1)):
            rr, ff = r + dr, f + df
            c = rr * n + ff
            if 0 <= rr < n and 0 <= ff < n and c in mine and c not in seen:
                seen.add(c)
                todo.append(c)
    return any((c % n if seat == 0 else c // n) == n - 1 for c in seen)


@pytest.mark.parametrize("geo", [HEX3, TTT3], ids=["hex3", "ttt3"])
def test_dist_to_win_matches_brute_force(geo):
    rng = random.Random(17)
    for _ in range(60):
        board = [rng.choice((0, 0, 1, 2)) for _ in range(geo.cells)]
        for seat in (0, 1):
            assert _dist(geo, board, seat) == _brute_dist(geo, board, seat), (board, seat)


def _bfs_dist(geo, board, seat) -> int:
    """distToWin by a 0-1 BFS over cells (the bots' route search), not bit boards."""
    own = rules.X_STONE if seat == 0 else rules.O_STONE
    cost = [0 if v == own else 1 if v == rules.EMPTY else rules.BLOCKED for v in board]
    edges = geo.edges[seat]
    dist = rules.bfs01(geo, cost, [c for c in range(geo.cells) if edges[c] & 1])
    return min((dist[c] for c in range(geo.cells) if edges[c] & 2), default=rules.UNREACHABLE)


@pytest.mark.parametrize("size", [2, 4, 5, 7, 11])
def test_bit_board_dist_to_win_matches_a_cell_by_cell_search(size):
    # The bit boards pad each rank with a spare bit so that shifts never
    # wrap: boards of every density, on the smallest and the largest size,
    # catch a neighbour that leaks across a rank end.
    geo = rules.Geometry("hex", size, False, 0, 2 * size * size)
    rng = random.Random(size)
    for i in range(400):
        weights = (i % 5 + 1, i % 3, i % 4)  # empty, X, O
        board = rng.choices((0, 1, 2), weights, k=geo.cells)
        for seat in (0, 1):
            assert _dist(geo, board, seat) == _bfs_dist(geo, board, seat), (board, seat)


def test_believed_dist_to_win_uses_own_and_proven_stones_only():
    # O holds b1 b2 b3 in truth; X has proven only b2.
    state = play(f"{HEX}(board_size=3)", ["a1", "b1", "a3", "b2", "b2"])
    assert state.current_player() == 0  # X collided on b2 and moves again
    m = state.truth
    assert rules.believed_dist(m, 0) == 2  # b2 blocked: still via b1 or b3
    assert rules.true_dist(m, 0) == 2
    assert "believed distToWin: 2" in state.observation_string(0)
    state.apply_action(state.string_to_action("b3"))  # placed; O has b1 b2 only
    assert rules.believed_dist(state.truth, 0) == 1


# ---- parameters -----------------------------------------------------------------


@pytest.mark.parametrize(
    "game_string,param",
    [
        (f"{HEX}(board_size=1)", "board_size"),
        (f"{HEX}(board_size=12)", "board_size"),
        (f"{RECON}(board_size=1)", "board_size"),
        (f"{RECON}(board_size=12)", "board_size"),
        (f"{RECON}(sense=0)", "sense"),
        (f"{RECON}(board_size=3,sense=4)", "sense"),
        (f"{RECON}(sense=6)", "sense"),
        (f"{HEX}(max_plies=0)", "max_plies"),
        (f"{HEX}(max_plies=-2)", "max_plies"),
        (f"{HEX}(board_size=4,max_plies=33)", "max_plies"),
        (f"{TTT}(max_plies=19)", "max_plies"),
        (f"{TTT}(max_plies=0)", "max_plies"),
        (f"{RECON}(board_size=3,max_plies=19)", "max_plies"),
        (f"{TTT}(obstype=x)", "obstype"),
        (f"{HEX}(obstype=x)", "obstype"),
        (f"{RECON}(obstype=x)", "obstype"),
        (f"{HEX}(colour=1)", "colour"),
        (f"{TTT}(board_size=3)", "board_size"),  # tic-tac-toe is size 3 only
        (f"{RECON}(abrupt=true)", "abrupt"),  # recon is always abrupt
    ],
)
def test_bad_parameters_fail_at_load_naming_the_parameter(game_string, param):
    with pytest.raises(OPEN_SPIEL_ERRORS) as err:
        pyspiel.load_game(game_string)
    assert param in str(err.value)


@pytest.mark.parametrize(
    "short,params",
    [
        (HEX, {"board_size": 1}),
        (HEX, {"max_plies": -3}),
        (RECON, {"board_size": 4, "sense": 5}),
        (TTT, {"obstype": "x"}),
    ],
)
def test_bad_parameters_by_dict_fail_at_load(short, params):
    with pytest.raises(OPEN_SPIEL_ERRORS) as err:
        pyspiel.load_game(short, params)
    assert next(iter(params)) in str(err.value)


@pytest.mark.parametrize(
    "game_string,max_plies",
    [
        (TTT, 18),
        (f"{TTT}(max_plies=7)", 7),
        (f"{HEX}", 32),
        (f"{HEX}(board_size=2)", 8),
        (f"{HEX}(board_size=11)", 242),
        (f"{HEX}(board_size=5,max_plies=-1)", 50),
        (f"{HEX}(board_size=3,max_plies=18)", 18),
        (RECON, 50),
        (f"{RECON}(board_size=3,sense=3)", 18),
        (f"{RECON}(board_size=4,max_plies=5)", 5),
    ],
)
def test_get_parameters_reports_resolved_max_plies(game_string, max_plies):
    game = pyspiel.load_game(game_string)
    assert game.get_parameters()["max_plies"] == max_plies
    # The reported parameters load the same game again.
    again = pyspiel.load_game(game.get_type().short_name, game.get_parameters())
    assert again.get_parameters() == game.get_parameters()


def test_presets_have_the_spec_parameters():
    expect = {
        "phantom-ttt-3": (TTT, {"abrupt": False, "max_plies": 18}),
        "dark-hex-4": (HEX, {"board_size": 4, "abrupt": False, "max_plies": 32}),
        "dark-hex-5": (HEX, {"board_size": 5, "abrupt": True, "max_plies": 50}),
        "recon-hex-5": (RECON, {"board_size": 5, "sense": 2, "max_plies": 50}),
    }
    for preset, (short, params) in expect.items():
        game = fogboard_games.load(preset)
        assert game.get_type().short_name == short
        got = game.get_parameters()
        assert got["obstype"] == "reveal-nothing"
        for k, v in params.items():
            assert got[k] == v, (preset, k)


@pytest.mark.parametrize(
    "game_string,length",
    [
        (TTT, 17),
        (f"{TTT}(max_plies=7)", 7),
        (f"{HEX}(board_size=3)", 17),
        (f"{HEX}(board_size=3,max_plies=4)", 4),
        (f"{RECON}(board_size=3)", 34),  # two decisions per ply
        (f"{RECON}(board_size=3,max_plies=5)", 10),
    ],
)
def test_max_game_length(game_string, length):
    assert pyspiel.load_game(game_string).max_game_length() == length


# ---- refused actions --------------------------------------------------------


REFUSALS = [
    # (game, moves, refused action strings / ids, words the message must hold)
    (TTT, ["b2"], [9, 10**6, -2], "out of range"),
    (TTT, ["b2", "a1"], ["b2"], "not a legal attempt"),  # X: its own b2
    (TTT, ["b2", "b2"], ["b2"], "not a legal attempt"),  # O: proven b2
    (f"{HEX}(board_size=3)", ["a1"], [9, -5], "out of range"),
    (f"{HEX}(board_size=3)", ["a1", "b1"], ["a1"], "not a legal attempt"),
    (f"{RECON}(board_size=3)", [], ["a1", 0, 8], "sense step"),
    (f"{RECON}(board_size=3)", ["sense a1"], ["sense b1", 9, 12], "not a legal attempt"),
    (f"{RECON}(board_size=3)", ["sense a1", "a1"], [13, -2], "out of range"),
]


@pytest.mark.parametrize("game,moves,refused,why", REFUSALS)
def test_illegal_actions_are_refused_and_leave_the_state_unchanged(game, moves, refused, why):
    state = play(game, moves)
    for action in refused:
        before = snapshot(state)
        if isinstance(action, str):
            # The id of a named cell; string_to_action itself names legal actions only.
            action_id = state.truth.setup.action_ids[action]
        else:
            action_id = action
        with pytest.raises(ValueError) as err:
            state.apply_action(action_id)
        msg = str(err.value)
        assert f"illegal action {action_id}" in msg
        assert f"seat {state.current_player()}" in msg
        assert why in msg
        assert "legal: " in msg
        for name in legal_names(state):
            assert name in msg.split("legal: ")[1]
        assert snapshot(state) == before
    # The state still plays on normally after the refusals.
    state.apply_action(state.legal_actions()[0])


def test_kinvalid_action_is_refused_by_openspiel():
    state = play(TTT, ["b2"])
    before = snapshot(state)
    with pytest.raises(pyspiel.SpielError, match="kInvalidAction"):
        state.apply_action(-1)  # pyspiel's own kInvalidAction check
    assert snapshot(state) == before


def test_moves_after_the_end_are_refused():
    state = play(TTT, ["a1", "a2", "b1", "b2", "c1"])
    assert state.is_terminal()
    before = snapshot(state)
    with pytest.raises(ValueError, match="game is over"):
        state.apply_action(8)
    assert snapshot(state) == before
    assert state.legal_actions() == []


def test_refused_action_on_a_fresh_state_does_not_touch_other_states():
    game = pyspiel.load_game(TTT)
    first = game.new_initial_state()
    with pytest.raises(ValueError):
        first.apply_action(42)
    first.apply_action(4)
    fresh = game.new_initial_state()
    assert fresh.history() == [] and fresh.legal_actions() == list(range(9))
    pristine = pyspiel.load_game(TTT).new_initial_state()
    for seat in (0, 1):
        assert fresh.information_state_string(seat) == pristine.information_state_string(seat)
        assert fresh.observation_string(seat) == pristine.observation_string(seat)
        assert fresh.information_state_tensor(seat) == pristine.information_state_tensor(seat)


# ---- action strings -----------------------------------------------------------


@pytest.mark.parametrize(
    "game_string",
    [TTT, f"{HEX}(board_size=5,abrupt=true)", f"{HEX}(board_size=11)", RECON, f"{RECON}(sense=3)"],
)
def test_action_strings_round_trip(game_string):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    names = set()
    legal = set(state.legal_actions())
    for action in range(game.num_distinct_actions()):
        text = state.action_to_string(0, action)
        assert text == state.action_to_string(1, action)  # same form for both seats
        assert not text.isdigit()
        names.add(text)
        if action in legal:
            assert state.string_to_action(text) == action
            assert state.string_to_action(0, text) == action
            assert state.string_to_action(text.upper()) == action
        else:  # a name of the game, but not an action of this node
            with pytest.raises(ValueError, match="not a legal action of seat 0 here; legal: "):
                state.string_to_action(text)
        with pytest.raises(ValueError, match="seat 1 has no legal action here"):
            state.string_to_action(1, text)
    assert len(names) == game.num_distinct_actions()
    rng = random.Random(3)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            for a in state.legal_actions():
                assert (
                    state.string_to_action(state.action_to_string(state.current_player(), a)) == a
                )
            state.apply_action(rng.choice(state.legal_actions()))


def test_action_string_spellings():
    state = pyspiel.load_game(f"{RECON}(board_size=3)").new_initial_state()
    assert state.action_to_string(0, 0) == "a1"
    assert state.action_to_string(0, 1) == "b1"
    assert state.action_to_string(0, 3) == "a2"
    assert state.action_to_string(0, 9) == "sense a1"
    assert state.action_to_string(0, 12) == "sense b2"
    assert state.string_to_action("  sense   B2 ") == 12
    for bad in ("d1", "a4", "sense c3", "sense", "", "pass", "9", "a1", "sense\u00a0b2x"):
        with pytest.raises(
            ValueError, match="not a legal action of seat 0 here; legal: sense a1, "
        ):
            state.string_to_action(bad)
    state.apply_action(12)
    assert state.string_to_action("A1") == 0
    with pytest.raises(ValueError, match="legal: a1, b1, "):
        state.string_to_action("sense b2")


# ---- returns ------------------------------------------------------------------


@pytest.mark.parametrize(
    "game_string",
    [
        TTT,
        f"{TTT}(abrupt=true,max_plies=6)",
        f"{HEX}(board_size=2)",
        f"{HEX}(board_size=4,abrupt=true,max_plies=9)",
        f"{RECON}(board_size=3,sense=1)",
        f"{RECON}(max_plies=12)",
    ],
)
def test_returns_sum_to_zero_and_are_win_draw_loss(game_string):
    game = pyspiel.load_game(game_string)
    rng = random.Random(8)
    outcomes = set()
    for _ in range(60):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.returns() == [0.0, 0.0]
            state.apply_action(rng.choice(state.legal_actions()))
        r = state.returns()
        assert sum(r) == 0.0 and r[0] in (-1.0, 0.0, 1.0)
        if _ending(state) in ("connection", "line"):
            assert r[state.truth.winner] == 1.0
        assert game.min_utility() <= r[0] <= game.max_utility()
        outcomes.add(tuple(r))
    assert len(outcomes) >= 2
