"""solve.Treeplex: each seat's infosets and sequences of a board game, and
the compiled walk of its histories (docs/solving.md#the-3x3-boards).

The proof that the treeplex is the game: on every board solve.Tree holds it
has the Tree's infosets (strings, legal actions, parent sequences, tensors),
its walk counts the Tree's histories, and every value (best responses,
expected values, exploitability, NashConv, CFR's regrets) is the Tree's to
1e-9 for the uniform policy and for a function of the tensors. On the 3x3
boards (too big for a Tree) the infoset counts are the published ones, random
games played through pyspiel meet the treeplex's infosets (strings, tensors,
legal actions) at every decision, and the walk from random positions late in
a game finds every history and return that a walk through the rules finds.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time

import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games import solve
from fogboard_games.__main__ import main
from fogboard_games.boards import rules
from fogboard_games.core.contract import TERMINAL

SMALL = [
    "fogboard_dark_hex(board_size=2)",
    "fogboard_dark_hex(board_size=2,abrupt=true)",
    "fogboard_dark_hex(num_rows=2,num_cols=3)",
    "fogboard_dark_hex(num_rows=2,num_cols=3,abrupt=true)",
    "fogboard_dark_hex(num_rows=3,num_cols=2)",
    "fogboard_dark_hex(num_rows=3,num_cols=2,abrupt=true)",
]
# Infosets per seat of the 3x3 boards, as counted by the 2025 paper's tool.
THREE = {
    "fogboard_dark_hex(board_size=3)": [3720850, 2352067],
    "fogboard_phantom_ttt": [3683314, 2307355],
    "fogboard_dark_hex(board_size=3,abrupt=true)": [16497034, 10828243],
    "fogboard_phantom_ttt(abrupt=true)": [14482810, 8827459],
}


def network(game, seed=0):
    """A fixed softmax over a linear function of the tensor: a stand-in for
    a neural policy."""
    weights = np.random.default_rng(seed).normal(
        size=(game.information_state_tensor_size(), game.num_distinct_actions())
    )

    def policy(seat, tensors, legal):
        logits = np.where(legal, tensors @ weights, -np.inf)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return policy


@pytest.fixture(scope="module", params=SMALL)
def pair(request):
    game = pyspiel.load_game(request.param)
    return solve.Tree(game), solve.Treeplex(game, workers=2)


def matching(tree, treeplex):
    """Per treeplex infoset, the tree's infoset with its string (and per
    treeplex sequence, the tree's)."""
    infosets = np.array(
        [tree.lookup[int(s)][k] for s, k in zip(treeplex.infoset_seat, treeplex.infoset_string)]
    )
    sequences = np.concatenate(
        [np.arange(tree.seq_start[i], tree.seq_start[i + 1]) for i in infosets]
    )
    return infosets, sequences


def test_the_treeplex_has_the_trees_infosets_and_histories(pair):
    tree, treeplex = pair
    assert treeplex.num_infostates == tree.num_infostates
    assert treeplex.num_sequences == tree.num_sequences
    infosets, sequences = matching(tree, treeplex)
    assert sorted(infosets) == list(range(len(tree.infoset_seat)))  # one to one
    assert np.array_equal(tree.infoset_seat[infosets], treeplex.infoset_seat)
    assert np.array_equal(tree.seq_action[sequences], treeplex.seq_action)
    assert np.array_equal(tree.legal_mask[infosets], treeplex.legal_mask)
    # The same parent sequence (the tree's infoset_parent_seq, through the matching).
    parent = treeplex.infoset_parent_seq
    mapped = np.where(parent >= 0, sequences[np.maximum(parent, 0)], -1)
    assert np.array_equal(tree.infoset_parent_seq[infosets], mapped)
    for seat in (0, 1):
        lo = tree.infoset_range[seat]
        ours = treeplex.info_state_tensors(seat)
        theirs = tree.info_state_tensors(seat, infosets[infosets >= lo][: len(ours)])
        assert np.array_equal(ours, theirs)
    assert treeplex.count_histories() == tree.num_histories
    # Every string leads back to its infoset; a string of the other seat does not.
    for i in range(0, len(infosets), 7):
        seat = int(treeplex.infoset_seat[i])
        assert treeplex.lookup[seat][treeplex.infoset_string[i]] == i
        assert treeplex.lookup[1 - seat].get(treeplex.infoset_string[i]) is None


def test_every_value_is_the_trees(pair):
    tree, treeplex = pair
    _, sequences = matching(tree, treeplex)
    policies = [
        (solve.uniform(tree), solve.uniform(treeplex)),
        (
            solve.Policy.from_batch(tree, network(tree.game)),
            solve.Policy.from_batch(treeplex, network(tree.game), chunk=100),
        ),
    ]
    for theirs, ours in policies:
        assert np.allclose(ours.probs, theirs.probs[sequences], atol=1e-12)
        for measure in (solve.best_response_values, solve.expected_values):
            assert np.allclose(measure(treeplex, ours), measure(tree, theirs), atol=1e-9)
        for measure in (solve.exploitability, solve.nash_conv):
            assert abs(measure(treeplex, ours) - measure(tree, theirs)) < 1e-9
        # A best response is worth its value, on either.
        for seat in (0, 1):
            for t, p in ((tree, theirs), (treeplex, ours)):
                best = solve.best_response(t, p, seat)
                value = solve.expected_values(t, best)[seat]
                assert abs(value - solve.best_response_values(t, p)[seat]) < 1e-9


def test_cfrs_regrets_are_the_trees_under_any_policy(pair):
    tree, treeplex = pair
    _, sequences = matching(tree, treeplex)
    ours, theirs = solve.CFR(treeplex), solve.CFR(tree)
    profile = solve.Policy.from_batch(treeplex, network(tree.game, seed=1)).probs
    ours.current = profile.copy()
    theirs.current[sequences] = profile
    for seat in (0, 1):
        lo, hi = treeplex.seat_seq_range[seat], treeplex.seat_seq_range[seat + 1]
        at = sequences[lo:hi] - tree.seat_seq_range[seat]
        regret, weight = ours._regrets(seat)
        expected_regret, expected_weight = theirs._regrets(seat)
        assert np.allclose(regret, expected_regret[at], atol=1e-12)
        # The average's weights differ by the histories of each infoset, a
        # constant per infoset: the same once normalized.
        infoset = treeplex.seq_infoset[lo:hi]
        ratio = expected_weight[at] / np.where(weight > 0, weight, 1)
        first = treeplex.seq_start[infoset]
        assert np.allclose(ratio[weight > 0], ratio[first - lo][weight > 0], rtol=1e-9)


@pytest.mark.parametrize("name", ["fogboard_dark_hex(board_size=2)", SMALL[2]])
def test_cfr_plus_on_a_treeplex_follows_the_tree(name):
    # (two boards where no regret is zero in exact arithmetic: elsewhere
    # float rounding breaks such ties apart, docs/solving.md#algorithms)
    game = pyspiel.load_game(name)
    tree, treeplex = solve.Tree(game), solve.Treeplex(game, workers=2)
    ours, theirs = solve.CFRPlus(treeplex), solve.CFRPlus(tree)
    for _ in range(12):
        ours.iterate()
        theirs.iterate()
        gap = solve.exploitability(treeplex, ours.average_policy())
        assert abs(gap - solve.exploitability(tree, theirs.average_policy())) < 1e-9
    assert gap < 0.02


def test_a_best_response_played_in_pyspiel_earns_its_value():
    game = pyspiel.load_game(SMALL[5])
    treeplex = solve.Treeplex(game, workers=1)
    policy = solve.Policy.from_batch(treeplex, network(game, seed=3))
    rng = np.random.default_rng(0)
    games = 4000
    for seat in (0, 1):
        best = solve.best_response(treeplex, policy, seat)
        value = solve.best_response_values(treeplex, policy)[seat]
        returns = np.empty(games)
        for g in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                mover = state.current_player()
                played = best if mover == seat else policy
                probs = played.action_probabilities(mover, state.information_state_string(mover))
                actions = list(probs)
                state.apply_action(actions[rng.choice(len(actions), p=list(probs.values()))])
            returns[g] = state.returns()[seat]
        error = returns.std() / np.sqrt(games)
        assert abs(returns.mean() - value) < 4 * error + 1e-12, (seat, returns.mean(), value)


def test_an_evaluation_is_the_same_with_any_workers_and_walks_once(monkeypatch):
    game = pyspiel.load_game(SMALL[3])
    policy_of = network(game, seed=2)
    values = {}
    for workers in (1, 2, 3):
        treeplex = solve.Treeplex(game, workers=workers)
        policy = solve.Policy.from_batch(treeplex, policy_of)
        values[workers] = treeplex.walk(treeplex.reach(policy.probs), 1)[0]
        again = treeplex.walk(treeplex.reach(policy.probs), 1)[0]
        assert np.array_equal(values[workers], again)  # the same bits, run after run
    for workers in (2, 3):
        assert np.allclose(values[workers], values[1], atol=1e-12)
    walks = []
    walk = solve.Treeplex.walk
    monkeypatch.setattr(solve.Treeplex, "walk", lambda *a, **k: walks.append(1) or walk(*a, **k))
    solve.exploitability(treeplex, policy)
    solve.expected_values(treeplex, policy)
    solve.best_response(treeplex, policy, 1)
    assert len(walks) == 1
    with pytest.raises(ValueError, match="read-only"):
        policy.probs[0] = 0.5


def test_policies_come_in_by_our_strings_and_go_out_to_openspiel():
    game = pyspiel.load_game(SMALL[0])
    treeplex = solve.Treeplex(game)
    batch = solve.Policy.from_batch(treeplex, network(game))
    table = {k: dict(batch.action_probabilities(int(s), k)) for s, k in
             zip(treeplex.infoset_seat, treeplex.infoset_string)}  # fmt: skip
    assert np.array_equal(solve.Policy.from_info_states(treeplex, table).probs, batch.probs)
    rows = {k: batch.table()[i] for i, k in enumerate(treeplex.infoset_string)}
    assert np.array_equal(solve.Policy.from_info_states(treeplex, rows).probs, batch.probs)
    called = solve.Policy.from_info_states(treeplex, lambda seat, key: table[key])
    assert np.array_equal(called.probs, batch.probs)
    # OpenSpiel's own exploitability of the policy, through its TabularPolicy.
    from open_spiel.python import policy as openspiel_policy

    tabular = batch.to_tabular()
    assert np.array_equal(solve.Policy.from_tabular(treeplex, tabular).probs, batch.probs)
    theirs = pyspiel.exploitability(game, openspiel_policy.python_policy_to_pyspiel_policy(tabular))
    assert abs(theirs - solve.exploitability(treeplex, batch)) < 1e-9
    # Refusals name what is wrong.
    missing = dict(table)
    del missing[treeplex.infoset_string[3]]
    with pytest.raises(ValueError, match="no entry for the information state"):
        solve.Policy.from_info_states(treeplex, missing)
    extra = {**table, "X (seat 0) view: nothing": {0: 1.0}}
    with pytest.raises(ValueError, match="no information state of a decision"):
        solve.Policy.from_info_states(treeplex, extra)
    illegal = dict(table)
    key = treeplex.infoset_string[len(treeplex.infoset_seat) - 1]
    illegal[key] = {**table[key], 99: 0.5}
    with pytest.raises(ValueError, match="illegal actions"):
        solve.Policy.from_info_states(treeplex, illegal)
    with pytest.raises(ValueError, match="takes a mapping"):
        solve.Policy.from_info_states(treeplex, [1, 2])
    with pytest.raises(ValueError, match="chunk must be"):
        solve.Policy.from_batch(treeplex, network(game), chunk=0)


@pytest.mark.parametrize("name", THREE)
def test_the_3x3_boards_have_the_published_infoset_counts(name):
    size = solve.Treeplex.measure(pyspiel.load_game(name), workers=2)
    assert size.num_infostates == THREE[name]
    assert size.bytes < 4.5 * 2**30  # what docs/solving.md says it needs


@pytest.fixture(scope="module", params=list(THREE))
def three(request):
    game = pyspiel.load_game(request.param)
    return game, solve.Treeplex(game, workers=2)


def follow(treeplex, seat, plies):
    """The seat's infoset after its `plies` (rules.Ply), by the child table,
    and its last sequence (the empty one, num_sequences + seat, before any)."""
    i = int(treeplex.infoset_range[seat])
    last = treeplex.num_sequences + seat
    for ply in plies:
        if ply.seat != seat:
            continue
        lo, hi = treeplex.seq_start[i], treeplex.seq_start[i + 1]
        last = int(lo + np.flatnonzero(treeplex.seq_action[lo:hi] == ply.cell)[0])
        i = int(treeplex.child[last, ply.result])
    return i, last


def test_random_3x3_games_meet_the_treeplexs_infosets(three):
    game, treeplex = three
    rng = np.random.default_rng(0)
    win = treeplex.win
    for _ in range(150):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            i, _ = follow(treeplex, seat, state.truth.plies)
            key = state.information_state_string(seat)
            assert i >= 0 and treeplex.infoset_string[i] == key
            assert treeplex.lookup[seat][key] == i
            assert treeplex.legal_masks([i])[0].tolist() == state.legal_actions_mask(seat)
            tensor = treeplex.info_state_tensors(seat, [i])[0]
            assert tensor.tolist() == state.information_state_tensor(seat)
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
        # The end is the win table's (or tic-tac-toe's full board).
        board = state.truth.board
        stones = [sum(1 << c for c, v in enumerate(board) if v == seat + 1) for seat in (0, 1)]
        returns = state.returns()
        for seat in (0, 1):
            assert bool(win[seat, stones[seat]]) == (returns[seat] == 1)
        if returns == [0.0, 0.0]:
            assert stones[0] | stones[1] == treeplex.full


def test_random_3x3_infosets_give_openspiels_tensors(three):
    """What solve.Policy.from_openspiel hands a function of OpenSpiel's
    tensors, made from the treeplex's records alone, is the tensor
    OpenSpiel's C++ game gives at a history of the infoset."""
    from fogboard_games.boards.openspiel_map import Twin

    game, treeplex = three
    twin = Twin(game)
    rng = np.random.default_rng(4)
    for seat in (0, 1):
        lo, hi = int(treeplex.infoset_range[seat]), int(treeplex.infoset_range[seat + 1])
        ids = np.sort(rng.choice(np.arange(lo, hi), 300, replace=False))
        got = twin.openspiel_tensors(seat, treeplex.info_state_tensors(seat, ids))
        want = [twin.openspiel_information_state(treeplex.history(i), seat)[1] for i in ids]
        assert np.array_equal(got, np.array(want))


def walk_through_the_rules(treeplex, match, values, counts):
    """Every history below `match` through the contract: counts the nodes
    and adds each end's returns into each seat's last sequence (the
    sequence found from the seat's information-state string)."""
    counts[0] += 1
    if match.mover == TERMINAL:
        returns = match.returns()
        for seat in (0, 1):
            values[follow(treeplex, seat, match.plies)[1]] += returns[seat]
        return
    for a in match.options:
        c = match.copy()
        c.play(a)
        walk_through_the_rules(treeplex, c, values, counts)


def test_the_walk_from_late_3x3_positions_finds_what_the_rules_find(three):
    from fogboard_games.solve import kernels

    game, treeplex = three
    n = treeplex.num_sequences
    x = np.ones(n + 2)
    rng = np.random.default_rng(1)
    for _ in range(6):
        match = game.new_initial_state().writable_truth()
        for _ in range(4):  # (the walk from the root takes minutes: start lower)
            options = match.options
            match.play(options[rng.integers(len(options))])
        while True:
            frame = (
                *[sum(1 << c for c, v in enumerate(match.board) if v == s + 1) for s in (0, 1)],
                *(follow(treeplex, s, match.plies)[0] for s in (0, 1)),
                *(follow(treeplex, s, match.plies)[1] for s in (0, 1)),
                match.mover,
            )
            v = np.zeros(n + 2)
            args = (treeplex.seq_start, treeplex.seq_action, treeplex.child, treeplex.win)
            args += (treeplex.full, treeplex.abrupt, *frame)
            nodes, _ = kernels.walk(*args, 2, 0, 1 << 60, True, x, v, kernels.BOTH)
            if nodes < 10000:
                break
            # One ply further, into a position where the game goes on.
            for a in rng.permutation(match.options):
                c = match.copy()
                c.play(int(a))
                if c.mover != TERMINAL:
                    match = c
                    break
        expected, counts = np.zeros(n + 2), [0]
        walk_through_the_rules(treeplex, match, expected, counts)
        assert nodes + 1 == counts[0]
        assert np.array_equal(v, expected)
        # The same split into the decisions two plies down, walked one by one.
        frontier = kernels.walk(*args, 2, 0, 0, True, x, np.zeros(n + 2), kernels.COUNT)[1]
        split = np.zeros(n + 2)
        total = kernels.walk(*args, 2, 0, 0, True, x, split, kernels.BOTH)[0]
        for c in range(frontier):
            total += kernels.walk(*args, 2, c, c + 1, False, x, split, kernels.BOTH)[0]
        assert total == nodes and np.array_equal(split, v)


def test_the_treeplex_refuses_what_it_cannot_lay_out():
    def refused(game, match, **kw):
        with pytest.raises(ValueError, match=match):
            solve.Treeplex(game, **kw)

    refused(fogboard_games.load("liars-dice-classic-1"), "use solve.Tree")
    refused(pyspiel.load_game("fogboard_recon_hex(board_size=3,sense=1)"), "use solve.Tree")
    refused(pyspiel.load_game("kuhn_poker"), "takes a fogboard board game")
    refused(
        pyspiel.load_game("fogboard_phantom_ttt(obstype=reveal-numturns)"),
        "needs obstype=reveal-nothing",
    )
    refused(pyspiel.load_game("fogboard_phantom_ttt(imperfect_recall=true)"), "imperfect_recall")
    refused(pyspiel.load_game("fogboard_dark_hex(board_size=3,max_plies=12)"), "max_plies=18")
    refused(pyspiel.load_game("fogboard_dark_hex(board_size=4)"), "at most 12 cells")
    refused(
        pyspiel.load_game("fogboard_phantom_ttt"),
        r"about \d\.\d GiB; the bound is 0\.5 GiB",
        max_bytes=2**29,
    )
    refused(pyspiel.load_game(SMALL[0]), "workers must be", workers=0)
    refused(pyspiel.load_game(SMALL[0]), "max_bytes must be", max_bytes=-1)


def test_a_stopped_iteration_leaves_the_solver_as_it_was(monkeypatch):
    game = pyspiel.load_game(SMALL[3])
    treeplex = solve.Treeplex(game, workers=2)
    solver = solve.CFRPlus(treeplex).run(2)
    before = [a.copy() for a in (solver.regret, solver.cumulative, solver.current)]
    from fogboard_games.solve import kernels

    calls = []
    walk = kernels.walk

    def stopped(*args):
        calls.append(1)
        if len(calls) > 30:  # inside seat 1's walk
            raise KeyboardInterrupt
        return walk(*args)

    monkeypatch.setattr(kernels, "walk", stopped)
    with pytest.raises(KeyboardInterrupt):
        solver.iterate()
    assert solver.iteration == 2
    for a, b in zip((solver.regret, solver.cumulative, solver.current), before):
        assert np.array_equal(a, b)
    monkeypatch.setattr(kernels, "walk", walk)
    solver.iterate()
    again = solve.CFRPlus(treeplex).run(3)
    assert np.array_equal(solver.cumulative, again.cumulative)


def test_playing_a_game_never_imports_numba():
    code = """
import sys
import pyspiel, fogboard_games
from fogboard_games import solve
game = pyspiel.load_game("fogboard_phantom_ttt")
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(state.legal_actions()[-1])
    state.information_state_tensor(0)
small = pyspiel.load_game("fogboard_dark_hex(board_size=2)")
tree = solve.Tree(small)
solve.exploitability(tree, solve.uniform(tree))
print("numba" in sys.modules)
treeplex = solve.Treeplex(small)
print("numba" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split() == ["False", "True"]


def test_the_command_lines_parser_never_imports_numba():
    # (every command builds the whole parser, bench's options included: a
    # parser that imported the batched engines would load numba for `play`)
    code = """
import sys
from fogboard_games.__main__ import build_parser
build_parser("fogboard").parse_args(["play", "phantom-ttt-3"])
print("numba" in sys.modules)
from fogboard_games.bench import random_actions
print("numba" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.split() == ["False", "True"]


def test_a_board_rule_change_would_show_in_the_win_table():
    # The win table is the rules' own (rules.dist_bits): a line in
    # tic-tac-toe, a chain between the seat's edges in hex.
    ttt = solve.treeplex.Beliefs(pyspiel.load_game("fogboard_phantom_ttt").setup)
    assert ttt.win[0, 0b000000111] and ttt.win[1, 0b100010001] and not ttt.win[0, 0b000001011]
    hex3 = solve.treeplex.Beliefs(pyspiel.load_game("fogboard_dark_hex(board_size=3)").setup)
    assert hex3.win[0, 0b000000111] and not hex3.win[1, 0b000000111]  # a1 b1 c1 joins files a, c
    assert hex3.win[1, 0b001001001] and not hex3.win[0, 0b001001001]  # a1 a2 a3 joins ranks 1, 3
    assert rules.OCCUPIED == 1 and rules.PLACED == 0  # the child table's columns


# ---- the command: solve on a treeplex, checkpoints ------------------------------

BOARD = "fogboard_dark_hex(num_rows=2,num_cols=3,abrupt=true)"


def rows_of(out: str) -> dict[int, str]:
    """The iteration rows: {iteration: exploitability as printed, or '-'}."""
    return {int(i): e for i, e in re.findall(r"^ +(\d+) +(\S+) +\S+ +\S+$", out, re.M)}


def test_solve_on_a_treeplex_prints_the_solvers_numbers(capsys):
    assert main(["solve", BOARD, "--treeplex", "--iterations", "12", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    treeplex = solve.Treeplex(pyspiel.load_game(BOARD), workers=2)
    assert f"infostates {treeplex.num_infostates}" in out
    solver = solve.CFRPlus(treeplex)
    expected = {}
    for i in range(1, 13):
        solver.iterate()
        gap = solve.exploitability(treeplex, solver.average_policy())
        expected[i] = f"{gap:.3e}" if i in (1, 2, 5, 10, 12) else "-"
    assert rows_of(out) == expected
    values = solve.expected_values(treeplex, solver.average_policy())
    assert f"values: seat 0 {values[0]:+.6f}, seat 1 {values[1]:+.6f}\n" in out
    best = solve.best_response_values(treeplex, solver.average_policy())
    assert f"between {-best[1]:+.6f} and {best[0]:+.6f}\n" in out


def checkpoint_state(folder) -> tuple[int, np.ndarray, np.ndarray]:
    with np.load(os.path.join(folder, "solve.npz"), allow_pickle=False) as saved:
        header = json.loads(saved["header"].tobytes().decode())
        return header["iteration"], saved["regret"], saved["cumulative"]


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "fogboard_games", "solve", *args]


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_a_stopped_run_resumes_with_the_numbers_of_one_never_stopped(tmp_path, how):
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    args = [BOARD, "--treeplex", "--workers", "2", "--checkpoint"]
    run = subprocess.Popen(
        command(*args, str(stopped), "--iterations", "100000"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Stopped as soon as a few iterations are kept (at most two minutes).
        for _ in range(1200):
            if (stopped / "solve.npz").exists() and checkpoint_state(stopped)[0] >= 3:
                break
            time.sleep(0.1)
        run.send_signal(how)
        _, err = run.communicate(timeout=120)
    finally:
        run.kill()
    if how == signal.SIGINT:
        assert run.returncode == 130
        assert f"interrupted; the last iteration is kept in {stopped}" in err
    kept = checkpoint_state(stopped)[0]
    assert 3 <= kept < 100000
    total = str(kept + 4)
    resumed = subprocess.run(
        command(*args, str(stopped), "--iterations", total), capture_output=True, text=True
    )
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed at iteration {kept}" in resumed.stdout
    subprocess.run(
        command(*args, str(whole), "--iterations", total), check=True, capture_output=True
    )
    a, b = checkpoint_state(stopped), checkpoint_state(whole)
    assert a[0] == b[0] == kept + 4
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])  # bit for bit


def test_a_tree_run_resumes_from_its_checkpoint_too(tmp_path, capsys):
    folder = str(tmp_path / "run")
    assert main(["solve", "mind-bluff-tiny", "--iterations", "5", "--checkpoint", folder]) == 0
    assert main(["solve", "mind-bluff-tiny", "--iterations", "20", "--checkpoint", folder]) == 0
    resumed = capsys.readouterr().out.split("solve mind-bluff-tiny")[-1]
    assert "resumed at iteration 5" in resumed
    assert main(["solve", "mind-bluff-tiny", "--iterations", "20"]) == 0
    whole = capsys.readouterr().out

    def curve(out):
        return re.findall(r"^ +(\d+) +(\S+) +\S+$", out, re.M)

    assert curve(resumed) == curve(whole)


def test_solve_refuses_a_bad_checkpoint_in_one_line(tmp_path, capsys):
    def refused(*args, match):
        assert main(["solve", *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and re.search(match, err), err

    folder = str(tmp_path / "run")
    assert main(["solve", BOARD, "--treeplex", "--iterations", "2", "--checkpoint", folder]) == 0
    capsys.readouterr()
    other = "fogboard_dark_hex(num_rows=3,num_cols=2,abrupt=true)"
    refused(other, "--treeplex", "--iterations", "3", "--checkpoint", folder, match="holds a run")
    refused(BOARD, "--iterations", "3", "--checkpoint", folder, "--algorithm", "cfr",
            "--treeplex", match="solver 'CFRPlus', not 'CFR'")  # fmt: skip
    refused(BOARD, "--treeplex", "--iterations", "3", "--checkpoint", folder, "--workers", "3",
            match="resume it with --workers 2")  # fmt: skip
    (tmp_path / "file").write_text("x")
    refused(BOARD, "--treeplex", "--iterations", "3", "--checkpoint", str(tmp_path / "file"),
            match="is a file")  # fmt: skip
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "solve.npz").write_bytes(b"not a zip")
    refused(BOARD, "--treeplex", "--iterations", "3", "--checkpoint", str(tmp_path / "bad"),
            match="not a solver checkpoint")  # fmt: skip
    refused("mind-bluff-tiny", "--iterations", "3", "--workers", "2", match="--workers is for")
    refused("phantom-ttt-3", "--iterations", "1", "--max-gib", "0.5",
            match=r"treeplex and solver need about \d\.\d GiB; the bound is 0\.5 GiB")  # fmt: skip
    refused("fogboard_dark_hex(board_size=30)", "--iterations", "1", match="cannot load")
    refused("no-such-preset", "--iterations", "1", match="unknown preset")
    # The checkpoint a refusal met is untouched.
    assert checkpoint_state(folder)[0] == 2


@pytest.mark.parametrize(
    "ours",
    [
        "fogboard_dark_hex(num_rows=2,num_cols=2)",
        "fogboard_dark_hex(num_rows=3,num_cols=2,abrupt=true)",
    ],
)
def test_a_policy_of_openspiels_own_game_is_valued_as_openspiel_values_it(ours):
    # A policy trained on OpenSpiel's C++ dark_hex, one call away: its exact
    # exploitability here equals pyspiel's on OpenSpiel's game, and its values
    # equal those of the same policy given over our strings.
    from open_spiel.python import policy as openspiel_policy

    from fogboard_games.boards.openspiel_map import Twin

    twin = Twin(ours)
    treeplex = solve.Treeplex(twin.ours)
    rng = np.random.default_rng(5)
    mine: dict = {}  # a random policy over our information states
    table = openspiel_policy.TabularPolicy(twin.openspiel)
    for state in table.states:
        seat = state.current_player()
        ours_now = twin.our_state(state)
        key = ours_now.information_state_string(seat)
        if key not in mine:
            legal = ours_now.legal_actions()
            mine[key] = dict(zip(legal, rng.dirichlet(np.ones(len(legal)))))
        row = table.policy_for_key(state.information_state_string(seat))
        row[:] = 0
        for action, p in mine[key].items():
            row[twin.ours_to_openspiel[action]] = p
    theirs = solve.Policy.from_openspiel(treeplex, table)
    given = solve.Policy.from_info_states(treeplex, mine)
    assert np.array_equal(theirs.probs, given.probs)
    exported = openspiel_policy.python_policy_to_pyspiel_policy(table)
    assert solve.exploitability(treeplex, theirs) == pytest.approx(
        pyspiel.exploitability(twin.openspiel, exported), abs=1e-9
    )
    tree = solve.Tree(twin.ours)
    assert solve.expected_values(treeplex, theirs) == pytest.approx(
        solve.expected_values(tree, solve.Policy.from_info_states(tree, mine)), abs=1e-9
    )


def test_a_second_process_loads_the_kernels_from_numbas_cache(tmp_path):
    code = """
import pyspiel
from fogboard_games import solve
from fogboard_games.solve import kernels
treeplex = solve.Treeplex(pyspiel.load_game("fogboard_dark_hex(board_size=2)"), workers=1)
solve.exploitability(treeplex, solve.uniform(treeplex))
compiled = [kernels.expand, kernels.walk, kernels.realize, kernels.best_response]
print(sum(sum(k.stats.cache_misses.values()) for k in compiled),
      sum(sum(k.stats.cache_hits.values()) for k in compiled))
"""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # (a cache of its own)

    def run():
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env
        )
        assert done.returncode == 0, done.stderr
        return tuple(map(int, done.stdout.split()))

    assert run()[0] >= 4  # compiled, and kept
    assert run() == (0, 4)  # loaded, none compiled


def test_without_numba_the_treeplex_says_how_to_install_it():
    code = """
import importlib.abc, sys

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("numba", "llvmlite"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, NotInstalled())
import pyspiel
from fogboard_games import solve
try:
    solve.Treeplex(pyspiel.load_game("fogboard_dark_hex(board_size=2)"))
except ImportError as e:
    print(e)
from fogboard_games.__main__ import main
sys.exit(main(["solve", "fogboard_dark_hex(board_size=2)", "--treeplex", "--iterations", "1"]))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert "need numba" in done.stdout and "`pip install .`" in done.stdout
    assert done.returncode == 2
    assert (
        done.stderr.count("\n") == 1 and "solve: " in done.stderr and "pip install ." in done.stderr
    )
