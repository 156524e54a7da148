"""solve.Policy.from_openspiel with a function over OpenSpiel's own
information-state tensors and action ids (a network trained on OpenSpiel's
C++ phantom_ttt or dark_hex), on a solve.Tree and a solve.Treeplex
(docs/solving.md#policies).

The proof: on every small board both hold, the policy's exploitability and
values equal those of the same function given over our information states
(each infoset's OpenSpiel tensor then made by replaying one of its
histories in OpenSpiel's game) and pyspiel.exploitability of the function
on OpenSpiel's C++ game. That the tensors made from ours are OpenSpiel's at
every history: tests/test_boards_openspiel_map.py (whole small trees, random
3x3 games) and tests/test_treeplex.py (random 3x3 infosets).
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from test_treeplex import SMALL  # (every small board a Tree holds)

import fogboard_games  # noqa: F401  (registers the games)
from fogboard_games import solve
from fogboard_games.boards.openspiel_map import Twin


def network(twin: Twin, seed: int = 0):
    """A softmax over a linear function of OpenSpiel's tensor, over
    OpenSpiel's legal actions: a stand-in for a network trained there."""
    size = twin.openspiel.information_state_tensor_size()
    weights = np.random.default_rng(seed).normal(size=(size, twin.board.cells))

    def policy(seat, tensors, legal):
        logits = np.where(legal, tensors @ weights + seat, -np.inf)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    return policy


def replayed(twin: Twin, tree: solve.Tree, function) -> dict:
    """The function over our information states, {our string: {our action:
    probability}}: each infoset's OpenSpiel tensor and legal actions from a
    history of it replayed in OpenSpiel's game, one infoset at a time."""
    out = {}
    for i, key in enumerate(tree.infoset_string):
        seat = int(tree.infoset_seat[i])
        theirs = twin.openspiel_state(tree.infoset_state(i))
        legal = np.zeros((1, twin.board.cells), dtype=bool)
        legal[0, theirs.legal_actions()] = True
        tensor = np.array([theirs.information_state_tensor(seat)])
        row = function(seat, tensor, legal)[0]
        out[key] = {int(twin.openspiel_to_ours[a]): float(row[a]) for a in theirs.legal_actions()}
    return out


def openspiels_table(twin: Twin, function) -> openspiel_policy.TabularPolicy:
    """The function's policy as OpenSpiel's TabularPolicy of its C++ game."""
    table = openspiel_policy.TabularPolicy(twin.openspiel)
    for row, state in enumerate(table.states):
        seat = state.current_player()
        legal = np.array([table.legal_actions_mask[row]], dtype=bool)
        tensor = np.array([state.information_state_tensor(seat)])
        table.action_probability_array[row] = function(seat, tensor, legal)[0]
    return table


def openspiels_exploitability(twin: Twin, function) -> float:
    """pyspiel.exploitability of the function on OpenSpiel's C++ game."""
    table = openspiels_table(twin, function)
    exported = openspiel_policy.python_policy_to_pyspiel_policy(table)
    return pyspiel.exploitability(twin.openspiel, exported)


@pytest.fixture(scope="module", params=SMALL)
def boards(request):
    twin = Twin(request.param)
    return twin, solve.Tree(twin.ours), solve.Treeplex(twin.ours, workers=2)


def test_a_function_of_openspiels_tensors_is_valued_as_openspiel_values_it(boards):
    twin, tree, treeplex = boards
    function = network(twin)
    given = replayed(twin, tree, function)
    for where in (tree, treeplex):
        theirs = solve.Policy.from_openspiel(where, function, chunk=500)
        ours = solve.Policy.from_info_states(where, given)
        assert np.allclose(theirs.probs, ours.probs, rtol=0, atol=1e-12)
        assert solve.exploitability(where, theirs) == pytest.approx(
            solve.exploitability(where, ours), abs=1e-9
        )
        assert solve.best_response_values(where, theirs) == pytest.approx(
            solve.best_response_values(where, ours), abs=1e-9
        )
        assert solve.expected_values(where, theirs) == pytest.approx(
            solve.expected_values(where, ours), abs=1e-9
        )
    exploitability = solve.exploitability(treeplex, solve.Policy.from_openspiel(treeplex, function))
    openspiels = openspiels_exploitability(twin, function)
    if twin.board.abrupt:
        assert exploitability == pytest.approx(openspiels, abs=1e-9)
    else:
        # OpenSpiel's classical dark_hex string shows the ply count, so its
        # best responder tells apart histories of one information state (the
        # opponent's hidden collisions) and may earn more than the seat can.
        assert openspiels >= exploitability - 1e-12
        if (twin.board.rows, twin.board.cols) == (3, 2):
            assert openspiels - exploitability > 1e-4


def test_the_function_is_called_in_chunks_with_openspiels_legal_actions(boards):
    """Per seat, in order, at most `chunk` rows a call; the legal mask is
    OpenSpiel's (its view's empty cells: dark_hex's state 0 is column 4 of
    each cell's 9)."""
    twin, tree, treeplex = boards
    cells = twin.board.cells
    calls = []

    def uniform(seat, tensors, legal):
        calls.append((seat, len(tensors)))
        assert legal.shape == (len(tensors), cells) and legal.dtype == bool
        assert np.array_equal(legal, tensors[:, 4 : 9 * cells : 9] == 1)
        return legal / legal.sum(axis=1, keepdims=True)

    policy = solve.Policy.from_openspiel(treeplex, uniform, chunk=300)
    assert np.array_equal(policy.probs, solve.uniform(treeplex).probs)
    for seat in (0, 1):
        sizes = [n for s, n in calls if s == seat]
        assert sum(sizes) == treeplex.num_infostates[seat]
        assert max(sizes) <= 300 and all(n == 300 for n in sizes[:-1])
    assert [s for s, _ in calls] == sorted(s for s, _ in calls)


def test_phantom_ttt_and_the_other_obstype_on_a_tree():
    """A Tree takes the games the treeplex does not: under reveal-numturns
    OpenSpiel's tensor shows every ply's mover, as ours does."""
    twin = Twin("fogboard_dark_hex(board_size=2,obstype=reveal-numturns)")
    tree = solve.Tree(twin.ours)
    function = network(twin, seed=3)
    theirs = solve.Policy.from_openspiel(tree, function)
    ours = solve.Policy.from_info_states(tree, replayed(twin, tree, function))
    assert np.allclose(theirs.probs, ours.probs, rtol=0, atol=1e-12)
    assert solve.exploitability(tree, theirs) == pytest.approx(
        openspiels_exploitability(twin, function), abs=1e-9
    )


def test_bad_functions_are_refused_naming_the_infoset():
    twin = Twin("fogboard_dark_hex(board_size=2)")
    treeplex = solve.Treeplex(twin.ours, workers=1)

    def corner(seat, tensors, legal):
        out = np.zeros(legal.shape)
        out[:, 0] = 1.0  # OpenSpiel's a1, illegal once tried
        return out

    with pytest.raises(ValueError) as err:
        solve.Policy.from_openspiel(treeplex, corner)
    message = str(err.value)
    assert message.startswith("the function puts mass on OpenSpiel's actions [0], illegal at")
    assert "log: 1.a1 " in message and "(legal: [1, 2, 3])" in message
    assert "\n" not in message.replace("\\n", "")
    cases = [
        (lambda seat, t, legal: np.ones((len(t), 5)) / 5, r"must return shape \(\d+, 4\)"),
        ([0.25] * 4, "takes a dict .* or a function.*got list"),
        (openspiel_policy.UniformRandomPolicy(twin.openspiel), "got UniformRandomPolicy"),
    ]
    for function, match in cases:
        with pytest.raises(ValueError, match=match):
            solve.Policy.from_openspiel(treeplex, function)
    uniform = lambda seat, t, legal: legal / legal.sum(axis=1, keepdims=True)  # noqa: E731
    with pytest.raises(ValueError, match="chunk must be a positive int"):
        solve.Policy.from_openspiel(treeplex, uniform, chunk=0)


def test_on_classical_dark_hex_openspiels_best_responder_reads_the_ply_count():
    """Why pyspiel.exploitability exceeds ours on OpenSpiel's classical
    dark_hex: OpenSpiel's own best response (open_spiel's Python
    BestResponsePolicy) earns pyspiel's values when its infosets are
    OpenSpiel's strings, which show the ply count (the opponent's hidden
    collisions), and exactly our values when they are our information states."""
    from open_spiel.python.algorithms import best_response

    twin = Twin("fogboard_dark_hex(num_rows=2,num_cols=3)")
    function = network(twin, seed=2)
    table = openspiels_table(twin, function)
    ours_of: dict = {}

    def our_string(state, seat):
        key = (tuple(state.history()), seat)
        if key not in ours_of:
            ours_of[key] = twin.our_state(state).information_state_string(seat)
        return ours_of[key]

    class OverOurInformationStates(best_response.BestResponsePolicy):
        def info_sets(self, state):
            infosets: dict = {}
            for s, p in self.decision_nodes(state):
                infosets.setdefault(our_string(s, self._player_id), []).append((s, p))
            return infosets

        def value(self, state):
            if state.is_terminal():
                return state.player_return(self._player_id)
            if state.current_player() == self._player_id:
                action = self.best_response_action(our_string(state, self._player_id))
                return self.q_value(state, action)
            return sum(p * self.q_value(state, a) for a, p in self.transitions(state))

    treeplex = solve.Treeplex(twin.ours, workers=1)
    policy = solve.Policy.from_openspiel(treeplex, function)
    ours = solve.best_response_values(treeplex, policy)
    root = twin.openspiel.new_initial_state()
    theirs = [
        best_response.BestResponsePolicy(twin.openspiel, p, table).value(root) for p in (0, 1)
    ]
    keyed_by_ours = [OverOurInformationStates(twin.openspiel, p, table).value(root) for p in (0, 1)]
    assert keyed_by_ours == pytest.approx(list(ours), abs=1e-9)
    assert theirs[1] - ours[1] > 0.01  # seat 1's best responder gains by the count
    exported = openspiel_policy.python_policy_to_pyspiel_policy(table)
    assert pyspiel.exploitability(twin.openspiel, exported) == pytest.approx(
        sum(theirs) / 2, abs=1e-9
    )
