"""Solve mind-bluff-tiny two independent ways: CFR+ and a sequence-form LP.

    python examples/mind_bluff_solve.py
    python examples/mind_bluff_solve.py --iterations 1400
    python examples/mind_bluff_solve.py --game kuhn_poker --skip-cfr

1. One walk of the whole game tree counts its histories (every node:
   chance, decision and terminal) and each seat's information states, and
   collects the sequence form the LP needs.
2. OpenSpiel's C++ CFR+ runs on `cached_tree(game=...)` (the cache keeps
   the tree walks in C++ instead of calling back into the Python rules).
   It prints `pyspiel.exploitability` of the average policy and what that
   policy is worth to P1 (seat 0).
3. A sequence-form linear program (Koller, Megiddo and von Stengel 1996),
   solved by HiGHS through `scipy.optimize.linprog`, gives the value of the
   game for P1, exact up to the solver's tolerance (about 1e-7).
4. The two are compared. The best responses to CFR's average policy
   bracket the value: P1's half of the policy guarantees P1 at least
   -BR(P2), and P2's half holds P1 to at most BR(P1), so the LP value must
   lie in [-BR(P2), BR(P1)]. Around the average policy's value v that is
   [v - g2, v + g1], with g1, g2 >= 0 the seats' best-response gains and
   the exploitability (g1 + g2) / 2. So the guarantee is |LP - v| <=
   g1 + g2 (NashConv, twice the exploitability); |LP - v| <= exploitability
   is the stricter rule of thumb, which the script reports as well.

docs/mind_bluff.md ("Presets") quotes what this script prints.
"""

from __future__ import annotations

import argparse
import gc
import time

import numpy as np
import pyspiel
import scipy.sparse as sp
from scipy.optimize import linprog

import fogboard_games  # noqa: F401  (registers the games)

EMPTY = 0  # the id of each seat's empty sequence


class SequenceForm:
    """A two-player zero-sum game with perfect recall in sequence form.

    A sequence of seat p is one of its (information state, action) pairs:
    the last choice p made on the way to a node, which under perfect recall
    determines all of p's earlier choices too. `parent[p]` maps each
    information state of p to the sequence p had played on arriving there;
    `payoff[(s0, s1)]` sums chance probability x P1's return over the
    terminal histories where the seats' last sequences are s0 and s1.
    """

    def __init__(self, game: pyspiel.Game):
        self.sequences: list[dict] = [{(): EMPTY}, {(): EMPTY}]
        self.parent: list[dict] = [{}, {}]
        self.payoff: dict[tuple[int, int], float] = {}
        self.histories = 0
        self.terminals = 0
        self._walk(game.new_initial_state(), (EMPTY, EMPTY), 1.0)

    def _walk(self, state, last: tuple[int, int], chance: float) -> None:
        self.histories += 1
        if state.is_terminal():
            self.terminals += 1
            # Chance multiplies into the payoff entry: x^T A y is then the
            # expected return, with x and y carrying only the seats' own
            # probabilities.
            self.payoff[last] = self.payoff.get(last, 0.0) + chance * state.returns()[0]
            return
        if state.is_chance_node():
            for action, probability in state.chance_outcomes():
                self._walk(state.child(action), last, chance * probability)
            return
        seat = state.current_player()
        info = state.information_state_string(seat)
        parent = self.parent[seat].setdefault(info, last[seat])
        if parent != last[seat]:
            # Two routes into one information state with different earlier
            # choices of its own: the sequence form (and the LP) need
            # perfect recall.
            raise ValueError(f"no perfect recall at seat {seat}'s information state {info!r}")
        for action in state.legal_actions():
            ids = self.sequences[seat]
            sequence = ids.setdefault((info, action), len(ids))
            step = (sequence, last[1]) if seat == 0 else (last[0], sequence)
            self._walk(state.child(action), step, chance)

    def constraints(self, seat: int) -> sp.csr_matrix:
        """E (or F): the realization-plan constraints E x = e, one row per
        information state plus a first row for the empty sequence.

        Row 0 says x[empty] = 1; the row of information state I says the
        probabilities of I's sequences add up to that of I's parent
        sequence: sum_a x[I, a] - x[parent(I)] = 0. The right-hand side e
        is (1, 0, ..., 0).
        """
        row = {info: r for r, info in enumerate(self.parent[seat], start=1)}
        rows, cols, vals = [0], [EMPTY], [1.0]
        for info, parent in self.parent[seat].items():
            rows.append(row[info])
            cols.append(parent)
            vals.append(-1.0)
        for key, sequence in self.sequences[seat].items():
            if key:  # not the empty sequence
                rows.append(row[key[0]])
                cols.append(sequence)
                vals.append(1.0)
        shape = (len(row) + 1, len(self.sequences[seat]))
        return sp.csr_matrix((vals, (rows, cols)), shape=shape)

    def payoff_matrix(self) -> sp.csr_matrix:
        """A: P1's sequences by P2's; P1's expected return is x^T A y."""
        keys = list(self.payoff)
        rows = [k[0] for k in keys]
        cols = [k[1] for k in keys]
        shape = (len(self.sequences[0]), len(self.sequences[1]))
        return sp.csr_matrix(([self.payoff[k] for k in keys], (rows, cols)), shape=shape)


def lp_value(form: SequenceForm) -> float:
    """The value of the game for P1, from one linear program.

    P1 picks a realization plan x (E x = e, x >= 0) to maximize
    min_y x^T A y over P2's plans y (F y = f, y >= 0). For fixed x the inner
    minimum is a linear program whose dual is max f^T q s.t. F^T q <= A^T x
    with q free (one q per row of F); by LP duality the two have the same
    optimum. Joining the outer maximum to the dual gives one LP in (x, q):

        maximize f^T q = q[0]  s.t.  E x = e,  F^T q - A^T x <= 0,  x >= 0.
    """
    E, F, A = form.constraints(0), form.constraints(1), form.payoff_matrix()
    nx, nq = E.shape[1], F.shape[0]
    cost = np.zeros(nx + nq)
    cost[nx] = -1.0  # linprog minimizes: minimize -q[0]
    a_ub = sp.hstack([-A.T, F.T]).tocsr()
    a_eq = sp.hstack([E, sp.csr_matrix((E.shape[0], nq))]).tocsr()
    b_eq = np.zeros(E.shape[0])
    b_eq[0] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nq
    result = linprog(
        cost,
        A_ub=a_ub,
        b_ub=np.zeros(a_ub.shape[0]),
        A_eq=a_eq,
        b_eq=b_eq,
        bounds=bounds,
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"linprog failed: {result.message}")
    # + 0.0 turns the -0.0 of a zero-value game into 0.0: same number,
    # but it would print as "-0.000000000" and read as a tiny edge.
    return -result.fun + 0.0


def run_cfr(game_string: str, iterations: int) -> dict:
    """CFR+ on the cached tree; the average policy's exploitability, value
    for P1 and the best-response bracket of the game value."""
    game = pyspiel.load_game(f"cached_tree(game={game_string})")
    # The cached tree keeps every Python state alive; the cyclic garbage
    # collector would rescan them all again and again while the tree grows.
    collecting = gc.isenabled()
    gc.disable()
    try:
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(iterations):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        root = game.new_initial_state()
        value = pyspiel.expected_returns(root, policy, -1, True)[0]
        best = [
            pyspiel.TabularBestResponse(game, p, policy).value(root.history_str()) for p in (0, 1)
        ]
        return {
            "exploitability": pyspiel.exploitability(game, policy),
            "value": value,
            "low": -best[1],
            "high": best[0],
        }
    finally:
        if collecting:
            gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fogboard_mind_bluff(start=6,max_eat=3)")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--skip-lp", action="store_true", help="no linear program")
    parser.add_argument("--skip-cfr", action="store_true", help="no CFR+")
    args = parser.parse_args()

    game = pyspiel.load_game(args.game)
    kind = game.get_type()
    if game.num_players() != 2 or kind.utility != pyspiel.GameType.Utility.ZERO_SUM:
        raise SystemExit(f"{game}: needs a two-player zero-sum game")
    print(game)

    start = time.perf_counter()
    form = SequenceForm(game)
    infos = [len(form.parent[p]) for p in (0, 1)]
    print(
        f"histories {form.histories} ({form.terminals} terminal)  "
        f"information states {sum(infos)} (P1 {infos[0]}, P2 {infos[1]})  "
        f"sequences P1 {len(form.sequences[0])}, P2 {len(form.sequences[1])}  "
        f"({time.perf_counter() - start:.1f} s)",
        flush=True,
    )

    cfr = None
    if not args.skip_cfr:
        start = time.perf_counter()
        cfr = run_cfr(str(game), args.iterations)
        print(
            f"CFR+ {args.iterations} iterations: exploitability {cfr['exploitability']:.6f}  "
            f"average policy value for P1 {cfr['value']:+.6f}  "
            f"value bracket [{cfr['low']:+.6f}, {cfr['high']:+.6f}]  "
            f"({time.perf_counter() - start:.1f} s)",
            flush=True,
        )

    lp = None
    if not args.skip_lp:
        start = time.perf_counter()
        lp = lp_value(form)
        print(f"LP game value for P1 {lp:+.9f}  ({time.perf_counter() - start:.1f} s)")

    if cfr is not None and lp is not None:
        # HiGHS solves to about 1e-7; allow that much on the bracket's edges.
        slack = 1e-6
        inside = cfr["low"] - slack <= lp <= cfr["high"] + slack
        gap = abs(lp - cfr["value"])
        within = gap <= cfr["exploitability"] + slack
        print(
            f"agree: {'yes' if inside else 'NO'} (LP value "
            f"{'inside' if inside else 'OUTSIDE'} the bracket)  "
            f"|LP - CFR| = {gap:.6f}, {'within' if within else 'NOT within'} "
            f"the exploitability {cfr['exploitability']:.6f}"
        )


if __name__ == "__main__":
    main()
