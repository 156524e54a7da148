"""fogboard_games.solve: the tree's figures are OpenSpiel's, its solvers
follow OpenSpiel's schedule to the last digits, and bad policies are refused."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import cfr as python_cfr
from open_spiel.python.algorithms import discounted_cfr

import fogboard_games
from fogboard_games import solve

# Small enough for pyspiel's own exploitability in about a second each.
SMALL = [
    "fogboard_dark_hex(board_size=2)",
    "fogboard_dark_hex(board_size=2,abrupt=true)",
    "fogboard_dark_hex(board_size=2,abrupt=true,obstype=reveal-numturns)",
    "fogboard_liars_dice(numdice=1,dice_sides=3,prophecy=false,wild=highest)",
    "fogboard_mind_bluff(start=4,max_eat=2)",
    "fogboard_parley(players=3,hp=1,rounds=1,passes=0,talk=false,hip_limit=1)",
]

_TREES: dict[str, solve.Tree] = {}


def tree_of(name: str) -> solve.Tree:
    if name not in _TREES:
        game = fogboard_games.load(name) if "(" not in name else pyspiel.load_game(name)
        _TREES[name] = solve.Tree(game)
    return _TREES[name]


def to_pyspiel(policy: solve.Policy):
    return openspiel_policy.python_policy_to_pyspiel_policy(policy.to_tabular())


def distance(tree, policy) -> float:
    if tree.num_players > 2:
        return solve.nash_conv(tree, policy)
    return solve.exploitability(tree, policy)


def pyspiel_distance(game, policy) -> float:
    if game.num_players() > 2:
        return pyspiel.nash_conv(game, policy)
    return pyspiel.exploitability(game, policy)


@pytest.mark.parametrize("name", SMALL)
def test_uniform_exploitability_and_values_are_pyspiels(name):
    tree = tree_of(name)
    uniform = solve.uniform(tree)
    exported = to_pyspiel(uniform)
    assert distance(tree, uniform) == pytest.approx(pyspiel_distance(tree.game, exported), abs=1e-9)
    values = pyspiel.expected_returns(tree.game.new_initial_state(), exported, -1, True)
    np.testing.assert_allclose(solve.expected_values(tree, uniform), values, atol=1e-9)


def test_tree_counts_every_history_and_infostate():
    tree = tree_of("fogboard_dark_hex(board_size=2)")
    counts = {"nodes": 0, "infostates": [set(), set()]}

    def walk(state):
        counts["nodes"] += 1
        if state.is_terminal():
            return
        if not state.is_chance_node():
            seat = state.current_player()
            counts["infostates"][seat].add(state.information_state_string(seat))
        for a in state.legal_actions():
            walk(state.child(a))

    walk(tree.game.new_initial_state())
    assert tree.num_histories == counts["nodes"]
    assert tree.num_infostates == [len(s) for s in counts["infostates"]]
    for i in range(len(tree.infoset_string)):
        state = tree.state(int(tree.infoset_node[i]))
        seat = int(tree.infoset_seat[i])
        assert state.information_state_string(seat) == tree.infoset_string[i]
        assert tuple(state.legal_actions()) == tree.infoset_legal[i]


ITERATIONS = 7


@pytest.mark.parametrize(
    "name,ours,openspiel",
    [
        ("fogboard_dark_hex(board_size=2)", solve.CFR, python_cfr.CFRSolver),
        ("fogboard_dark_hex(board_size=2)", solve.CFRPlus, python_cfr.CFRPlusSolver),
        ("fogboard_dark_hex(board_size=2)", solve.LinearCFR, discounted_cfr.LCFRSolver),
        ("fogboard_dark_hex(board_size=2)", solve.DCFR, discounted_cfr.DCFRSolver),
        ("fogboard_dark_hex(board_size=2,abrupt=true)", solve.CFR, python_cfr.CFRSolver),
        ("fogboard_dark_hex(board_size=2,abrupt=true)", solve.CFRPlus, python_cfr.CFRPlusSolver),
        ("fogboard_mind_bluff(start=4,max_eat=2)", solve.CFRPlus, python_cfr.CFRPlusSolver),
        (
            "fogboard_parley(players=3,hp=1,rounds=1,passes=0,talk=false,hip_limit=1)",
            solve.CFR,
            python_cfr.CFRSolver,
        ),
    ],
)
def test_average_policy_is_openspiels_after_n_iterations(name, ours, openspiel):
    tree = tree_of(name)
    solver = ours(tree).run(ITERATIONS)
    reference = openspiel(tree.game)
    for _ in range(ITERATIONS):
        reference.evaluate_and_update_policy()
    theirs = solve.Policy.from_tabular(tree, reference.average_policy())
    np.testing.assert_allclose(solver.average_policy().probs, theirs.probs, atol=1e-9)
    # (the policy moved: a solver that did nothing would fail above)
    assert np.abs(solver.average_policy().probs - solve.uniform(tree).probs).max() > 1e-3


def test_cfr_plus_matches_the_cpp_solver_too():
    tree = tree_of("fogboard_dark_hex(board_size=2)")
    ours = solve.CFRPlus(tree).run(ITERATIONS).average_policy()
    cpp = pyspiel.CFRPlusSolver(tree.game)
    for _ in range(ITERATIONS):
        cpp.evaluate_and_update_policy()
    theirs = cpp.average_policy()
    for i, node in enumerate(tree.infoset_node):
        probs = theirs.action_probabilities(tree.state(int(node)))
        mine = ours.action_probabilities(int(tree.infoset_seat[i]), tree.infoset_string[i])
        for action, p in mine.items():
            assert p == pytest.approx(probs[action], abs=1e-9)


@pytest.mark.parametrize("name", ["fogboard_mind_bluff(start=4,max_eat=2)", SMALL[-1]])
def test_an_exported_policy_keeps_its_exploitability_and_round_trips(name):
    tree = tree_of(name)
    policy = solve.CFRPlus(tree).run(20).average_policy()
    tabular = policy.to_tabular()
    exported = openspiel_policy.python_policy_to_pyspiel_policy(tabular)
    assert distance(tree, policy) == pytest.approx(pyspiel_distance(tree.game, exported), abs=1e-9)
    values = pyspiel.expected_returns(tree.game.new_initial_state(), exported, -1, True)
    np.testing.assert_allclose(solve.expected_values(tree, policy), values, atol=1e-9)
    back = solve.Policy.from_tabular(tree, tabular)
    np.testing.assert_array_equal(back.probs, policy.probs)


def test_the_value_of_liars_dice_classic_1_is_minus_7_over_258():
    """Neller and Lanctot's value. With exploitability e, a profile's value
    is within the NashConv 2e of the game's (each seat's best response gains
    at most that over it), so the check is exact up to the solver's gap."""
    tree = tree_of("liars-dice-classic-1")
    assert tree.num_histories == 294883  # as OpenSpiel's liars_dice(numdice=1)
    policy = solve.CFRPlus(tree).run(100).average_policy()
    gap = solve.exploitability(tree, policy)
    assert gap < 6e-3
    value = solve.expected_values(tree, policy)[0]
    assert abs(value - (-7 / 258)) <= 2 * gap
    assert abs(value - (-7 / 258)) < 1e-3


def test_a_batch_policy_is_called_once_per_seat_and_equals_its_table():
    tree = tree_of("mind-bluff-tiny")
    weights = np.random.default_rng(0).normal(
        size=(tree.game.information_state_tensor_size(), tree.num_actions)
    )
    calls = []

    def network(seat, tensors, legal):
        calls.append((seat, tensors.shape))
        logits = np.where(legal, tensors @ weights, -np.inf)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    policy = solve.Policy.from_batch(tree, network)
    size = tree.game.information_state_tensor_size()
    assert calls == [(seat, (n, size)) for seat, n in enumerate(tree.num_infostates)]
    # The same function, applied state by state through pyspiel.
    table = np.zeros((len(tree.infoset_string), tree.num_actions))
    for i, node in enumerate(tree.infoset_node):
        state, seat = tree.state(int(node)), int(tree.infoset_seat[i])
        tensor = np.array([state.information_state_tensor(seat)])
        legal = np.array([state.legal_actions_mask(seat)], dtype=bool)
        table[i] = network(seat, tensor, legal)[0]
    expected = solve.Policy.from_table(tree, table)
    np.testing.assert_allclose(policy.probs, expected.probs, atol=1e-12)
    np.testing.assert_allclose(
        solve.expected_values(tree, policy), solve.expected_values(tree, expected), atol=1e-12
    )


def test_bad_policies_are_refused_with_what_is_allowed():
    tree = tree_of("fogboard_dark_hex(board_size=2)")
    good = solve.uniform(tree).probs
    with pytest.raises(ValueError, match="one probability per sequence"):
        solve.Policy(tree, good[:-1])
    negative = good.copy()
    negative[0], negative[1] = -0.1, negative[1] + negative[0] + 0.1
    with pytest.raises(ValueError, match=">= 0"):
        solve.Policy(tree, negative)
    unnormalized = good * 1.5
    with pytest.raises(ValueError, match="sum to 1"):
        solve.Policy(tree, unnormalized)
    table = solve.uniform(tree).table()
    illegal = np.flatnonzero(~tree.legal_mask[-1])[0]
    table[-1, illegal] = 0.5
    with pytest.raises(ValueError, match="illegal actions"):
        solve.Policy.from_table(tree, table)
    with pytest.raises(ValueError, match="shape"):
        solve.Policy.from_table(tree, table[:, :-1])
    other = tree_of("fogboard_dark_hex(board_size=2,abrupt=true)")
    with pytest.raises(ValueError, match="tabular policy is of"):
        solve.Policy.from_tabular(tree, solve.uniform(other).to_tabular())
    with pytest.raises(ValueError, match="another tree"):
        solve.expected_values(tree, solve.uniform(other))
    with pytest.raises(ValueError, match="batch policy must return shape"):
        solve.Policy.from_batch(tree, lambda seat, tensors, legal: legal[:, :-1])


def test_every_entry_point_refuses_what_is_not_a_tree_or_a_policy_by_its_type():
    """A TypeError naming what it takes, not an AttributeError from deep inside."""
    tree = tree_of("fogboard_dark_hex(board_size=2)")
    game = pyspiel.load_game("fogboard_dark_hex(board_size=2)")
    policy = solve.uniform(tree)
    takes_a_tree = {
        "solve.CFR": solve.CFR,
        "solve.CFRPlus": solve.CFRPlus,
        "solve.LinearCFR": solve.LinearCFR,
        "solve.DCFR": solve.DCFR,
        "solve.uniform": solve.uniform,
        "solve.Policy": lambda t: solve.Policy(t, policy.probs),
        "solve.Policy.from_table": lambda t: solve.Policy.from_table(t, policy.table()),
        "solve.Policy.from_tabular": lambda t: solve.Policy.from_tabular(t, policy.to_tabular()),
        "solve.Policy.from_batch": lambda t: solve.Policy.from_batch(t, lambda *a: a[2]),
        "solve.expected_values": lambda t: solve.expected_values(t, policy),
        "solve.best_response_values": lambda t: solve.best_response_values(t, policy),
        "solve.exploitability": lambda t: solve.exploitability(t, policy),
        "solve.nash_conv": lambda t: solve.nash_conv(t, policy),
    }
    for name, call in takes_a_tree.items():
        for bad in (None, game, policy):
            with pytest.raises(TypeError) as e:
                call(bad)
            assert str(e.value) == (
                f"{name} takes a solve.Tree (solve.Tree(fogboard_games.load(preset))) or, "
                f"for a two-player board, a solve.Treeplex, got {type(bad).__name__}"
            )
    for function in (
        solve.expected_values,
        solve.best_response_values,
        solve.exploitability,
        solve.nash_conv,
    ):
        for bad in (None, policy.probs, tree):
            with pytest.raises(TypeError, match=r"takes a solve.Policy of the tree .*, got "):
                function(tree, bad)
    with pytest.raises(TypeError, match="from_batch takes a function"):
        solve.Policy.from_batch(tree, None)
    with pytest.raises(TypeError, match="alpha must be a number, got NoneType"):
        solve.DCFR(tree, alpha=None)
    with pytest.raises(ValueError, match="gamma must be a finite number, got nan"):
        solve.DCFR(tree, gamma=float("nan"))
    seat, key = 0, tree.infoset_string[0]
    assert sum(policy.action_probabilities(seat, key).values()) == pytest.approx(1)
    with pytest.raises(ValueError, match="seat must be an int 0 to 1, got 2"):
        policy.action_probabilities(2, key)
    with pytest.raises(TypeError, match="info_state is an information-state string"):
        policy.action_probabilities(seat, ["x"])


def test_too_big_a_tree_is_refused_with_its_estimate():
    game = fogboard_games.load("liars-dice-classic-1")
    with pytest.raises(ValueError, match=r"about .* histories .* the bound is"):
        solve.Tree(game, max_bytes=10**6)
    with pytest.raises(ValueError, match="fogboard game"):
        solve.Tree(pyspiel.load_game("kuhn_poker"))


def test_exploitability_is_refused_for_more_than_two_seats():
    tree = tree_of(SMALL[-1])
    with pytest.raises(ValueError, match="nash_conv"):
        solve.exploitability(tree, solve.uniform(tree))


def test_bench_solve_refuses_a_preset_it_does_not_measure():
    from fogboard_games.bench import BenchError, run_solve

    with pytest.raises(BenchError, match="is not a preset bench --solve measures; it measures"):
        run_solve(rounds=1, only=["dark-hex-4"])


def test_a_solver_runs_a_count_of_iterations_only():
    tree = tree_of("fogboard_dark_hex(board_size=2)")
    solver = solve.CFR(tree)
    for bad in (-1, True, 2.0, "3"):
        with pytest.raises(ValueError, match="iterations must be an int >= 0"):
            solver.run(bad)
    assert solver.iteration == 0 and not solver.cumulative.any()  # nothing ran
    assert solver.run(3).iteration == 3


def test_kuhn_through_the_contract_is_openspiels_kuhn_poker():
    """The minimal games' Kuhn poker is OpenSpiel's kuhn_poker action for
    action: the tree's CFR+ policy, exported, has the C++ game's exploitability
    there, and its value tends to Kuhn's -1/18."""
    import minimal_games  # noqa: F401  (registers the test games)

    tree = solve.Tree(pyspiel.load_game("fogboard_test_kuhn"))
    cpp = pyspiel.load_game("kuhn_poker")
    assert tree.num_histories == 58 and tree.num_infostates == [6, 6]
    policy = solve.CFRPlus(tree).run(500).average_policy()
    table = openspiel_policy.TabularPolicy(cpp)
    for i, node in enumerate(tree.infoset_node):
        state = cpp.new_initial_state()  # the same actions in the C++ game
        for action in tree.history(int(node)):
            state.apply_action(action)
        table.policy_for_key(state.information_state_string())[:] = policy.table()[i]
    assert solve.exploitability(tree, policy) == pytest.approx(
        pyspiel.exploitability(cpp, openspiel_policy.python_policy_to_pyspiel_policy(table)),
        abs=1e-9,
    )
    assert solve.expected_values(tree, policy)[0] == pytest.approx(-1 / 18, abs=1e-3)


def test_rewards_paid_on_the_way_add_up_to_pyspiels_returns():
    import minimal_games  # noqa: F401

    game = pyspiel.load_game("fogboard_test_kuhn_rounds")
    tree = solve.Tree(game)
    policy = solve.CFR(tree).run(3).average_policy()
    values = pyspiel.expected_returns(game.new_initial_state(), to_pyspiel(policy), -1, True)
    np.testing.assert_allclose(solve.expected_values(tree, policy), values, atol=1e-9)


def test_a_game_without_perfect_recall_is_refused(monkeypatch):
    import minimal_games  # noqa: F401

    game = pyspiel.load_game("fogboard_test_kuhn")
    # A seat that forgets its own bets: its second decision looks like its first.
    encoder = game.setup.encoder
    monkeypatch.setattr(
        encoder, "info_state_string", lambda match, player: str(match.cards[player])
    )
    with pytest.raises(ValueError, match="lacks perfect recall"):
        solve.Tree(game)
