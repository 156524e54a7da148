"""fogboard_games.boards.openspiel_map against OpenSpiel's C++ phantom_ttt and
dark_hex (docs/boards.md#openspiels-phantom_ttt-and-dark_hex).

Dark hex on 2 x 2, 2 x 3 and 3 x 2 boards is walked whole, ours and
OpenSpiel's in lock step through the action map: at every node the legal
sets map onto each other, and per seat OpenSpiel's information-state string
names exactly one of our information states (its partition refines ours),
at the seat's decisions and at every running node; the string alone finds
that information state again. Phantom tic-tac-toe, 3 x 3 only and too big to
walk, gets the same checks on thousands of random histories. Policies over
OpenSpiel's strings come over when they agree within each of our
information states and are refused, naming two strings, when they do not.
"""

from __future__ import annotations

import collections
import functools
import pathlib
import random
import re

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy

import fogboard_games  # noqa: F401  (registers the games)
from fogboard_games.boards import openspiel_map
from fogboard_games.boards.openspiel_map import TOLERANCE, Twin

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "boards.md"
OBSTYPES = ("reveal-nothing", "reveal-numturns")


def hex_load(rows: int, cols: int, abrupt: bool, obstype: str, recall: bool = False) -> str:
    flag = {False: "false", True: "true"}
    return (
        f"fogboard_dark_hex(num_rows={rows},num_cols={cols},abrupt={flag[abrupt]},"
        f"obstype={obstype},imperfect_recall={flag[recall]})"
    )


def ttt_load(abrupt: bool, obstype: str, recall: bool = False) -> str:
    flag = {False: "false", True: "true"}
    return (
        f"fogboard_phantom_ttt(abrupt={flag[abrupt]},obstype={obstype},"
        f"imperfect_recall={flag[recall]})"
    )


# ---- actions -------------------------------------------------------------------


def test_action_maps_are_inverse_permutations_of_the_same_cells():
    """Every board both sides have: the maps are inverse bijections, and the
    cell they name is the same cell, read from OpenSpiel's own action names
    (its dark_hex names a cell by its column letter and row number, so ours
    come out transposed: our c1, file c rank 1, is its row 2 column 0, "a3")."""
    letters = "abcdefghijk"
    boards = [("ttt", 3, 3)] + [("hex", r, c) for r in range(2, 12) for c in range(2, 12)]
    for kind, rows, cols in boards:
        theirs = pyspiel.load_game(
            "phantom_ttt" if kind == "ttt" else f"dark_hex(num_rows={rows},num_cols={cols})"
        )
        out, back = openspiel_map.action_maps(theirs)
        cells = rows * cols
        assert sorted(out.tolist()) == list(range(cells))
        assert (back[out] == np.arange(cells)).all() and (out[back] == np.arange(cells)).all()
        state = theirs.new_initial_state()
        for a in range(cells):
            if kind == "ttt":
                rank, file = divmod(a, 3)  # our a1 is rank 0, file 0
                assert state.action_to_string(0, int(out[a])) == f"x({2 - rank},{file})"
            else:
                rank, file = divmod(a, rows)  # our cell: rank * files + file
                assert state.action_to_string(0, int(out[a])) == f"{letters[rank]}{file + 1}"
    ttt = pyspiel.load_game("fogboard_phantom_ttt()")
    assert openspiel_map.to_openspiel_action(ttt, 0) == 6  # our a1: OpenSpiel's bottom-left
    assert openspiel_map.to_our_action(ttt, 0) == 6  # OpenSpiel's top-left: our a3
    with pytest.raises(ValueError, match=r"^our action must be in 0\.\.8, got 9$"):
        openspiel_map.to_openspiel_action(ttt, 9)
    with pytest.raises(ValueError, match="OpenSpiel's action must be an int"):
        openspiel_map.to_our_action(ttt, "a1")


# ---- games -----------------------------------------------------------------------

TWIN_LOADS = [
    ("fogboard_phantom_ttt()", "phantom_ttt(gameversion=classical,obstype=reveal-nothing)"),
    (
        "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)",
        "phantom_ttt(gameversion=abrupt,obstype=reveal-numturns)",
    ),
    (
        "fogboard_phantom_ttt(imperfect_recall=true)",
        "phantom_ttt_ir(gameversion=classical,obstype=reveal-nothing)",
    ),
    ("fogboard_dark_hex()", "dark_hex(board_size=4,gameversion=cdh,obstype=reveal-nothing)"),
    (
        "fogboard_dark_hex(board_size=5,abrupt=true)",
        "dark_hex(board_size=5,gameversion=adh,obstype=reveal-nothing)",
    ),
    (
        "fogboard_dark_hex(num_rows=3,num_cols=4,obstype=reveal-numturns)",
        "dark_hex(gameversion=cdh,num_cols=4,num_rows=3,obstype=reveal-numturns)",
    ),
    (
        "fogboard_dark_hex(num_rows=2,num_cols=3,abrupt=true,imperfect_recall=true)",
        "dark_hex_ir(gameversion=adh,num_cols=3,num_rows=2,obstype=reveal-nothing)",
    ),
]


@pytest.mark.parametrize("ours,theirs", TWIN_LOADS)
def test_games_map_both_ways(ours, theirs):
    game = pyspiel.load_game(ours)
    assert openspiel_map.openspiel_load_string(game) == theirs
    back = openspiel_map.our_game(pyspiel.load_game(theirs))
    assert str(back) == str(game)  # the same resolved parameters
    assert openspiel_map.our_game(theirs).get_parameters() == game.get_parameters()
    twin_a, twin_b = Twin(game), Twin(theirs)
    assert twin_a.board == twin_b.board
    assert (twin_a.ours_to_openspiel == twin_b.ours_to_openspiel).all()
    assert str(twin_a.openspiel) == str(pyspiel.load_game(theirs))
    assert twin_a.ours is game  # the game given is the one used
    assert twin_a.ours.num_distinct_actions() == twin_a.openspiel.num_distinct_actions()
    assert twin_a.ours.max_game_length() == twin_a.openspiel.max_game_length()


@pytest.mark.parametrize(
    "game,message",
    [
        ("fogboard_recon_hex(board_size=3,sense=1)", "has no OpenSpiel twin: recon hex"),
        ("fogboard_phantom_ttt(max_plies=7)", r"max_plies=7 caps the game below 2 x cells = 18"),
        ("fogboard_dark_hex(board_size=3,max_plies=17)", r"max_plies=17 caps .* = 18"),
        ("hex(board_size=3)", "hex.* has no twin: the mapped games are"),
        ("tic_tac_toe", "has no twin"),
        ("fogboard_liars_dice", "has no twin"),
        ("dark_hex(num_rows=1,num_cols=3)", r"no twin of ours: .* this board is 1 x 3"),
        ("dark_hex(board_size=12)", r"this board is 12 x 12"),
    ],
)
def test_a_game_without_a_twin_is_refused_in_one_line(game, message):
    for call in (openspiel_map.openspiel_load_string, openspiel_map.our_load_string, Twin):
        with pytest.raises(ValueError, match=message) as err:
            call(game)
        assert "\n" not in str(err.value)


# ---- whole trees of small dark hex boards ----------------------------------------


class Walk:
    """Per seat, OpenSpiel's information-state string -> our information
    state, at the seat's decisions and at every running node; each a
    function (one of ours per string) or the walk fails."""

    def __init__(self, twin: Twin):
        self.twin = twin
        self.decisions: dict = {}  # (seat, OpenSpiel string) -> our string
        self.running: dict = {}  # (seat, OpenSpiel string) -> our string
        self.tensors: dict = {}  # (seat, OpenSpiel tensor) -> our string, at decisions
        self.ours_by_tensor: dict = {}  # (seat, our string) -> OpenSpiel tensor
        self.our_tensor: dict = {}  # (seat, our string) -> our tensor, at decisions
        self.legal: dict = {}  # OpenSpiel decision string -> our legal actions there
        self.history: dict = {}  # OpenSpiel decision string -> a history of ours with it
        self.nodes = 0

    def add(self, table: dict, key, ours: str, state) -> None:
        seen = table.setdefault(key, ours)
        assert seen == ours, (
            f"seat {key[0]}: one OpenSpiel information state {key[1]!r} is two of ours, "
            f"{seen!r} and {ours!r} (history {state.history()})"
        )

    def visit(self, ours, theirs) -> None:
        twin = self.twin
        self.nodes += 1
        assert ours.is_terminal() == theirs.is_terminal(), ours.history()
        if ours.is_terminal():
            assert ours.returns() == theirs.returns(), ours.history()
            return
        mover = ours.current_player()
        assert mover == theirs.current_player(), ours.history()
        legal = ours.legal_actions()
        mapped = [int(twin.ours_to_openspiel[a]) for a in legal]
        assert sorted(mapped) == theirs.legal_actions(), ours.history()
        for seat in (0, 1):
            mine = ours.information_state_string(seat)
            string = theirs.information_state_string(seat)
            self.add(self.running, (seat, string), mine, ours)
            if seat != mover:
                continue
            self.add(self.decisions, (seat, string), mine, ours)
            if string not in self.legal:
                self.legal[string] = legal
                self.history[string] = ours.history()
            if not twin.board.imperfect_recall:  # (OpenSpiel's _ir tensor is perfect recall)
                tensor = tuple(theirs.information_state_tensor(seat))
                self.add(self.tensors, (seat, tensor), mine, ours)
                # ...and the other way: one tensor per information state of ours.
                known = self.ours_by_tensor.setdefault((seat, mine), tensor)
                assert known == tensor, ours.history()
                self.our_tensor[seat, mine] = ours.information_state_tensor(seat)
        for a, their_a in zip(legal, mapped):
            self.visit(ours.child(a), theirs.child(their_a))

    def classes(self, table: dict) -> collections.Counter:
        """How many OpenSpiel strings each (seat, our information state) has."""
        return collections.Counter((seat, ours) for (seat, _), ours in table.items())


@functools.cache
def walk(load: str) -> Walk:
    twin = Twin(load)
    w = Walk(twin)
    w.visit(twin.ours.new_initial_state(), twin.openspiel.new_initial_state())
    return w


def docs_partition_table() -> dict:
    """The partition table of docs/boards.md, {(board, rule, obstype): counts}."""
    text = DOCS.read_text()
    section = text.split("### Information states", 1)[1].split("\n### ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and re.fullmatch(r"\d+ x \d+", cells[0]):
            rows[cells[0], cells[1], cells[2]] = tuple(int(c.replace(",", "")) for c in cells[3:])
    return rows


WHOLE_TREES = [(2, 2, ab, ob) for ab in (False, True) for ob in OBSTYPES] + [
    (r, c, ab, "reveal-nothing") for r, c in ((2, 3), (3, 2)) for ab in (False, True)
]


@pytest.mark.parametrize("rows,cols,abrupt,obstype", WHOLE_TREES)
def test_openspiel_strings_refine_our_information_states(rows, cols, abrupt, obstype):
    """OpenSpiel's string never joins two of our information states (the walk
    asserts it); it splits ours exactly where it shows the ply count the
    seat cannot see (the classical rule under reveal-nothing), and its
    tensor partitions like ours. The counts are the docs' table."""
    w = walk(hex_load(rows, cols, abrupt, obstype))
    ours_decisions = len(set(w.decisions.values()))
    ours_running = len({(seat, mine) for (seat, _), mine in w.running.items()})
    counts = (ours_decisions, len(w.decisions), ours_running, len(w.running))
    rule = "abrupt" if abrupt else "classical"
    assert docs_partition_table()[f"{rows} x {cols}", rule, obstype] == counts
    assert len(w.tensors) == ours_decisions  # the tensor: one per information state of ours
    split = max(w.classes(w.decisions).values())
    if not abrupt and obstype == "reveal-nothing":
        assert split > 1  # the count of the opponent's hidden collisions splits
    else:
        assert split == 1  # nothing hidden at the seat's decisions: the same partition
    # At the other seat's nodes the count also tells whether the opponent has
    # moved yet, unless reveal-numturns shows every ply anyway.
    assert (max(w.classes(w.running).values()) > 1) == (obstype == "reveal-nothing")
    # A dark hex string (its count) says whose decision it is.
    assert len({s for _, s in w.decisions}) == len(w.decisions)


@pytest.mark.parametrize("rows,cols,abrupt,obstype", WHOLE_TREES)
def test_the_string_alone_finds_our_information_state(rows, cols, abrupt, obstype):
    """Every OpenSpiel string of a seat to move: from it alone (seat read
    from the string where it lists a move), our information state; on
    2 x 2 also every string of every running node, the seat to move or not."""
    w = walk(hex_load(rows, cols, abrupt, obstype))
    twin = w.twin
    for (seat, string), mine in w.decisions.items():
        state = twin.our_state_for_openspiel_string(string, seat, to_move=True)
        assert state.current_player() == seat
        assert state.information_state_string(seat) == mine
        if "," in string:  # it lists a move: the seat need not be given
            assert twin.our_information_state(string) == mine
    if rows * cols == 4:
        for (seat, string), mine in w.running.items():
            assert twin.our_information_state(string, seat) == mine


@pytest.mark.parametrize("rows,cols", [(2, 2), (2, 3)])
@pytest.mark.parametrize("abrupt", [False, True])
def test_imperfect_recall_strings_find_our_views(rows, cols, abrupt):
    """dark_hex_ir's 'P<seat> <view>' is one of ours per seat, and the view
    alone finds it (the order of the seat's attempts is not in it)."""
    twin = Twin(hex_load(rows, cols, abrupt, "reveal-nothing", recall=True))
    w = Walk(twin)
    w.visit(twin.ours.new_initial_state(), twin.openspiel.new_initial_state())
    assert len(w.running) == len({(seat, mine) for (seat, _), mine in w.running.items()})
    for (seat, string), mine in w.running.items():
        assert twin.our_information_state(string) == mine  # the seat read from "P<seat> "
        assert twin.our_information_state(string, seat) == mine


def test_states_replay_both_ways():
    """openspiel_state / our_state replay a history (or a state) on the other
    side; openspiel_information_state is OpenSpiel's string and tensor there."""
    twin = Twin(hex_load(3, 2, False, "reveal-numturns"))
    rng = random.Random(3)
    for _ in range(30):
        ours, theirs = twin.ours.new_initial_state(), twin.openspiel.new_initial_state()
        while not ours.is_terminal():
            a = rng.choice(ours.legal_actions())
            ours.apply_action(a)
            theirs.apply_action(int(twin.ours_to_openspiel[a]))
            seat = rng.randrange(2)
            string, tensor = twin.openspiel_information_state(ours, seat)
            assert string == theirs.information_state_string(seat)
            assert tensor.tolist() == theirs.information_state_tensor(seat)
            assert twin.openspiel_state(ours.history()).history() == theirs.history()
            back = twin.our_state(theirs)
            assert back.history() == ours.history()
            assert back.information_state_string(seat) == ours.information_state_string(seat)
        assert twin.our_state(theirs.history()).returns() == ours.returns()
    with pytest.raises(ValueError, match=r"the state is of fogboard_dark_hex.*expected one of"):
        twin.our_state(ours)  # ours is not OpenSpiel's
    other = pyspiel.load_game("dark_hex(board_size=2)").new_initial_state()
    with pytest.raises(ValueError, match=r"the state is of dark_hex\(board_size=2\)"):
        twin.our_state(other)
    # X places a1, O collides there and moves again, and may not try a1 twice.
    with pytest.raises(ValueError, match=r"^ply 2 of the history: .*a1"):
        twin.our_state([int(twin.ours_to_openspiel[0])] * 3)
    with pytest.raises(ValueError, match=r"our action must be in 0\.\.5, got 6"):
        twin.openspiel_state([6])


@pytest.mark.parametrize(
    "load,string,seat,message",
    [
        ("phantom_ttt", "..\n...\n...\n", 0, r"the view is 3 lines of 3 cells"),
        ("phantom_ttt", "...\n.a.\n...\n", 0, r"the view's cells are '\.', 'x', 'o'"),
        ("phantom_ttt", "...\n...\n...\n0,4", 1, r"its moves are seat 0's, not seat 1's"),
        ("phantom_ttt", "...\n...\n...\n0,9 ", 0, r"cell 9 is off the board"),
        ("phantom_ttt", "...\n...\n...\n0:4 ", 0, r"a move is 'player,cell' or 'player,\?'"),
        ("phantom_ttt", "...\n...\n...\n0,4 1,4 ", 0, r"its moves are of both seats"),
        ("phantom_ttt", "...\n...\n...\n0,4 1,? ", 0, r"\('player,\?'\) are shown under"),
        ("phantom_ttt", "...\n...\n...\n", 2, r"seat must be 0 or 1, got 2"),
        ("dark_hex(board_size=2)", "..\n..\n0,0 ", 0, r"after the view comes the ply count"),
        ("dark_hex_ir(board_size=2)", "x.\n..", 0, r"an _ir string starts with 'P0 ' or 'P1 '"),
        ("dark_hex_ir(board_size=2)", "P1 ..\n..", 0, r"it is seat 1's, not seat 0's"),
        # Well formed, but no running history has it: a view that is not the
        # seat's moves, more plies than the game has, a finished game (X's line).
        ("phantom_ttt", "x..\n...\n...\n", 0, r"^no running history of fogboard_phantom_ttt"),
        ("dark_hex(board_size=2)", "..\n..\n9\n", 1, r"^no running history"),
        ("phantom_ttt", "xxx\n...\n...\n0,0 0,1 0,2 ", 0, r"^no running history"),
        ("dark_hex(board_size=2)", "X.\nX.\n3\n0,0 0,2 ", 0, r"^no running history"),
    ],
)
def test_a_string_that_is_no_information_state_is_refused_in_one_line(load, string, seat, message):
    with pytest.raises(ValueError, match=message) as err:
        Twin(load).our_information_state(string, seat)
    assert "\n" not in str(err.value)


def test_to_move_asks_for_the_seat_to_move_or_not():
    twin = Twin("dark_hex(board_size=2)")
    # At the start X is to move; its string with the count 0 is nobody else's.
    start = "..\n..\n0\n"
    assert twin.our_state_for_openspiel_string(start, 0, to_move=True).history() == []
    with pytest.raises(ValueError, match=r"gives seat 0 .* with the other seat to move$"):
        twin.our_state_for_openspiel_string(start, 0, to_move=False)
    # O after X's a1: O to move (count 1), or not yet (count 0).
    assert twin.our_state_for_openspiel_string("..\n..\n1\n", 1, to_move=True).history() == [0]
    assert twin.our_state_for_openspiel_string("..\n..\n0\n", 1, to_move=False).history() == []
    with pytest.raises(ValueError, match=r"with seat to move$"):
        twin.our_state_for_openspiel_string("..\n..\n0\n", 1, to_move=True)


# ---- phantom tic-tac-toe: random histories ---------------------------------------

TTT_CASES = [(ab, ob, False) for ab in (False, True) for ob in OBSTYPES] + [
    (False, OBSTYPES[0], True)
]


@pytest.mark.parametrize("abrupt,obstype,recall", TTT_CASES)
def test_phantom_ttt_on_random_histories(abrupt, obstype, recall):
    """Thousands of random histories: legal sets map; per seat OpenSpiel's
    string and ours are one-to-one at decisions (no count to hide); the
    empty board's string is both seats' first decision under
    reveal-nothing, and nothing else is shared; the string alone finds
    ours."""
    twin = Twin(ttt_load(abrupt, obstype, recall))
    rng = random.Random(17 + abrupt)
    forth, back = {}, {}
    nodes = 0
    for _ in range(450):
        ours, theirs = twin.ours.new_initial_state(), twin.openspiel.new_initial_state()
        while not ours.is_terminal():
            nodes += 1
            seat = ours.current_player()
            assert seat == theirs.current_player()
            legal = ours.legal_actions()
            assert sorted(int(twin.ours_to_openspiel[a]) for a in legal) == theirs.legal_actions()
            string, mine = (
                theirs.information_state_string(seat),
                ours.information_state_string(seat),
            )
            assert forth.setdefault((seat, string), mine) == mine
            assert back.setdefault((seat, mine), string) == string
            a = rng.choice(legal)
            ours.apply_action(a)
            theirs.apply_action(int(twin.ours_to_openspiel[a]))
        assert ours.returns() == theirs.returns()
    assert nodes > 3000
    shared = {s for (seat, s) in forth if seat == 0} & {s for (seat, s) in forth if seat == 1}
    empty = "...\n...\n...\n"
    assert shared == ({empty} if obstype == "reveal-nothing" and not recall else set())
    for (seat, string), mine in forth.items():
        state = twin.our_state_for_openspiel_string(string, seat, to_move=True)
        assert state.information_state_string(seat) == mine
    if not recall:
        with pytest.raises(ValueError, match="lists no move.*pass seat=0 or seat=1"):
            twin.our_information_state(
                empty if obstype == "reveal-nothing" else "...\n...\n...\n0\n"
            )


# ---- policies ------------------------------------------------------------------------


def probabilities(key: str, actions: list[int]) -> dict[int, float]:
    """A distribution over `actions` that is a function of `key` alone."""
    seed = int.from_bytes(key.encode()[-8:].rjust(8, b"\0"), "big") ^ len(key)
    weights = np.random.default_rng(seed).random(len(actions)) + 0.1
    return dict(zip(actions, (weights / weights.sum()).tolist()))


def their_policy(w: Walk) -> dict:
    """Per OpenSpiel decision string, the distribution of its information
    state of ours, over OpenSpiel's actions: a policy the seats can play."""
    out = {}
    for (_, string), mine in w.decisions.items():
        ours = probabilities(mine, w.legal[string])
        out[string] = {int(w.twin.ours_to_openspiel[a]): p for a, p in ours.items()}
    return out


def expected_ours(w: Walk) -> dict:
    return {mine: probabilities(mine, w.legal[string]) for (_, string), mine in w.decisions.items()}


@pytest.mark.parametrize(
    "rows,cols,abrupt,obstype",
    [(2, 3, False, "reveal-nothing"), (2, 2, False, OBSTYPES[0]), (2, 2, True, OBSTYPES[1])],
)
def test_a_policy_consistent_over_our_information_states_comes_over(rows, cols, abrupt, obstype):
    w = walk(hex_load(rows, cols, abrupt, obstype))
    policy = their_policy(w)
    assert w.twin.policy_to_ours(policy) == expected_ours(w)
    if rows * cols == 4:
        # The same as lists of (action, probability), OpenSpiel's other form.
        pairs = {key: list(probs.items()) for key, probs in policy.items()}
        assert w.twin.policy_to_ours(pairs) == expected_ours(w)


@pytest.mark.parametrize("abrupt", [False, True])
def test_a_tabular_policy_of_openspiels_game_comes_over(abrupt):
    w = walk(hex_load(2, 2, abrupt, "reveal-nothing"))
    twin = w.twin
    tabular = openspiel_policy.TabularPolicy(pyspiel.load_game(str(twin.openspiel)))
    for key, row in tabular.state_lookup.items():
        seat = tabular.states[row].current_player()
        probs = probabilities(w.decisions[seat, key], w.legal[key])
        tabular.action_probability_array[row] = 0.0
        for a, p in probs.items():
            tabular.action_probability_array[row, int(twin.ours_to_openspiel[a])] = p
    assert twin.policy_to_ours(tabular) == expected_ours(w)


def split_class(w: Walk) -> tuple[str, str]:
    """Two OpenSpiel decision strings of one information state of ours."""
    by_ours = collections.defaultdict(list)
    for (_, string), mine in w.decisions.items():
        by_ours[mine].append(string)
    return next(tuple(strings[:2]) for strings in by_ours.values() if len(strings) > 1)


def test_a_policy_that_reads_the_hidden_count_is_refused_naming_two_strings():
    """Two strings of one information state of ours (dark hex, classical,
    reveal-nothing: they differ in the count only) given rows more than
    TOLERANCE apart: refused, naming both and ours; closer: one row."""
    w = walk(hex_load(2, 3, False, "reveal-nothing"))
    policy = their_policy(w)
    first, second = split_class(w)
    assert first.split("\n")[:-2] == second.split("\n")[:-2]  # the same view
    seat, mine = next((k[0], v) for k, v in w.decisions.items() if k[1] == first)
    for shift in (1e-9, TOLERANCE / 10):
        row = dict(policy[second])
        a, b = sorted(row)[:2]
        row[a] += shift
        row[b] -= shift
        pair = {first: policy[first], second: row}
        if shift < TOLERANCE:  # within the tolerance: the first string's row
            assert w.twin.policy_to_ours(pair) == {mine: probabilities(mine, w.legal[first])}
            continue
        with pytest.raises(ValueError) as err:
            w.twin.policy_to_ours(pair)
        message = str(err.value)
        assert "\n" not in message
        assert message.startswith(
            f"the policy differs across OpenSpiel strings of one information state of seat {seat} "
            f"({mine!r}): {first!r} gives "
        )
        assert f"and {second!r} gives" in message


def test_the_empty_board_of_phantom_ttt_serves_both_seats():
    """Under reveal-nothing seat 0's first string is seat 1's first (OpenSpiel's
    TabularPolicy gives them one row): one entry serves both of ours."""
    twin = Twin("phantom_ttt")
    out = twin.policy_to_ours({"...\n...\n...\n": [(a, 1 / 9) for a in range(9)]})
    first = twin.ours.new_initial_state()
    second = first.child(4)  # X placed b2 (OpenSpiel's 4); O has seen nothing
    assert out == {
        first.information_state_string(0): {a: 1 / 9 for a in range(9)},
        second.information_state_string(1): {a: 1 / 9 for a in range(9)},
    }


def test_bad_policies_are_refused_in_one_line():
    w = walk(hex_load(2, 2, False, "reveal-nothing"))
    twin = w.twin
    key = next(s for (seat, s), _ in w.decisions.items() if "0,0" in s)  # X placed on 0
    legal = {int(twin.ours_to_openspiel[a]) for a in w.legal[key]}
    taken = next(a for a in range(4) if a not in legal)
    cases = [
        ({key: {taken: 1.0}}, rf"mass on OpenSpiel's actions \[{taken}\] at .*illegal there"),
        ({"..\n..\n7\n": {0: 1.0}}, r"is no decision of dark_hex"),
        ({"nonsense": {0: 1.0}}, r"not an information-state string of dark_hex"),
        ({key: {min(legal): -0.5}}, r"finite and >= 0"),
        ({key: {min(legal): float("nan")}}, r"finite and >= 0"),
        ({key: {99: 1.0}}, r"OpenSpiel's action must be in 0\.\.3, got 99"),
        ({key: [(1, 0.5), (1, 0.5)]}, r"lists action 1 twice"),
        ({key: 0.5}, r"must be \{action: probability\} or a list"),
        ([(key, {0: 1.0})], r"is a dict \{string: \{action: probability\}\} or an open_spiel"),
        (
            openspiel_policy.TabularPolicy(pyspiel.load_game("dark_hex(num_rows=2,num_cols=3)")),
            r"the tabular policy is of dark_hex\(num_cols=3,num_rows=2\), expected",
        ),
    ]
    for policy, message in cases:
        with pytest.raises(ValueError, match=message) as err:
            twin.policy_to_ours(policy)
        assert "\n" not in str(err.value)


# ---- a function of OpenSpiel's tensors -----------------------------------------------


def test_a_tensor_function_plays_our_states():
    """A function of OpenSpiel's tensors, wrapped: one call on the batch,
    its rows read through the action map. Checked against the tensors the
    lock-step walk saw, on our states and on our histories."""
    w = walk(hex_load(2, 3, False, "reveal-nothing"))
    twin = w.twin
    size = twin.openspiel.information_state_tensor_size()
    weights = np.random.default_rng(5).normal(size=(size, 6))
    calls = []

    def softmax(tensors):
        calls.append(tensors.shape)
        z = np.exp(tensors @ weights)
        return z / z.sum(axis=1, keepdims=True)

    policy = twin.tensor_policy(softmax)
    strings = sorted(w.history)[:300]
    states = [twin.our_state_from_history(w.history[s]) for s in strings]
    rows = policy(states)
    assert calls == [(300, size)]
    for row, state in zip(rows, states):
        seat = state.current_player()
        seen = w.ours_by_tensor[seat, state.information_state_string(seat)]  # by the walk
        want = softmax(np.asarray([seen]))[0]
        assert np.allclose(row, want[twin.ours_to_openspiel], rtol=0, atol=1e-12)
    assert (policy([w.history[s] for s in strings]) == rows).all()  # histories work too
    with pytest.raises(ValueError, match=r"must return shape \(2, 6\)"):
        twin.tensor_policy(lambda t: np.ones((2, 5)))(states[:2])
    with pytest.raises(ValueError, match="2 states but 1 seats"):
        policy(states[:2], seats=[0])


@pytest.mark.parametrize("rows,cols,abrupt,obstype", WHOLE_TREES)
def test_openspiels_tensors_come_from_ours_without_replaying(rows, cols, abrupt, obstype):
    """openspiel_tensors turns our tensor of an information state into the
    one tensor OpenSpiel's game gives at every history of it (the walk
    checked there is one), at every decision of the whole tree."""
    w = walk(hex_load(rows, cols, abrupt, obstype))
    for seat in (0, 1):
        keys = [key for key in w.our_tensor if key[0] == seat]
        assert keys
        got = w.twin.openspiel_tensors(seat, np.array([w.our_tensor[k] for k in keys]))
        want = np.array([w.ours_by_tensor[k] for k in keys])
        assert got.dtype == np.float64
        assert np.array_equal(got, want)


@pytest.mark.parametrize("abrupt,obstype", [(ab, ob) for ab in (False, True) for ob in OBSTYPES])
def test_openspiels_tensors_come_from_ours_on_3x3_boards(abrupt, obstype):
    """The same on random games of phantom tic-tac-toe and 3x3 dark hex,
    both seats at every node, against the tensor of a replayed state."""
    rng = random.Random(3 + abrupt)
    for load in (ttt_load(abrupt, obstype), hex_load(3, 3, abrupt, obstype)):
        twin = Twin(load)
        mine, theirs = [[], []], [[], []]
        for _ in range(40):
            state = twin.ours.new_initial_state()
            while not state.is_terminal():
                for seat in (0, 1):
                    mine[seat].append(state.information_state_tensor(seat))
                    theirs[seat].append(twin.openspiel_information_state(state, seat)[1])
                state.apply_action(rng.choice(state.legal_actions()))
        for seat in (0, 1):
            got = twin.openspiel_tensors(seat, np.array(mine[seat]))
            assert got.shape == (len(theirs[seat]), twin.openspiel.information_state_tensor_size())
            assert np.array_equal(got, np.array(theirs[seat]))


def test_openspiels_tensors_refuse_what_they_cannot_make():
    twin = Twin(hex_load(2, 2, False, "reveal-nothing"))
    with pytest.raises(ValueError, match=r"have shape \(n, 39\), got \(3, 38\)"):
        twin.openspiel_tensors(0, np.zeros((3, 38)))
    with pytest.raises(ValueError, match="seat must be 0 or 1, got 2"):
        twin.openspiel_tensors(2, np.zeros((1, 39)))
    forgetting = Twin(ttt_load(False, "reveal-nothing", recall=True))
    with pytest.raises(ValueError, match="declares no information-state tensor.*forgets") as err:
        forgetting.openspiel_tensors(0, np.zeros((1, 27)))
    assert "\n" not in str(err.value)


def test_a_legal_uniform_tensor_function_is_legal_uniform_over_our_actions():
    """Phantom tic-tac-toe's tensor opens with the view, cell states empty /
    nought / cross per cell: uniform over OpenSpiel's empty cells is
    uniform over our legal actions, once the columns are mapped."""
    twin = Twin("fogboard_phantom_ttt()")

    def uniform_on_empty(tensors):
        empty = tensors[:, :9]  # values[9 * cell_state + cell], empty = 0
        return empty / empty.sum(axis=1, keepdims=True)

    policy = twin.tensor_policy(uniform_on_empty)
    rng = random.Random(2)
    states = []
    for _ in range(60):
        state = twin.ours.new_initial_state()
        while not state.is_terminal():
            states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    rows = policy(states)
    for row, state in zip(rows, states):
        legal = state.legal_actions()
        want = np.zeros(9)
        want[legal] = 1 / len(legal)
        assert np.allclose(row, want, rtol=0, atol=1e-15), state.history()


# ---- the docs' tables ---------------------------------------------------------------


def docs_section() -> str:
    text = DOCS.read_text()
    return text.split("## OpenSpiel's phantom_ttt and dark_hex", 1)[1].split("\n## ", 1)[0]


def test_the_docs_correspondence_table_is_the_map():
    rows = [
        [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        for line in docs_section().splitlines()
        if re.match(r"\| `[abc][123]` \|", line)
    ]
    assert len(rows) == 9
    ttt = openspiel_map.action_maps("phantom_ttt")[0]
    hex3 = openspiel_map.action_maps("dark_hex(board_size=3)")[0]
    names = [pyspiel.load_game("fogboard_dark_hex(board_size=3)").new_initial_state()]
    for name, ours, their_ttt, their_hex in rows:
        a = int(ours)
        assert names[0].action_to_string(0, a) == name
        assert (int(their_ttt), int(their_hex)) == (int(ttt[a]), int(hex3[a]))


def test_the_docs_tensor_sizes_are_the_games():
    found = 0
    for line in docs_section().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("fogboard_"):
            twin = Twin(cells[0])
            assert cells[1] == str(twin.openspiel)
            assert [int(c) for c in cells[2:]] == [
                twin.ours.information_state_tensor_size(),
                twin.openspiel.information_state_tensor_size(),
                twin.ours.observation_tensor_size(),
                twin.openspiel.observation_tensor_size(),
            ]
            found += 1
    assert found >= 6
