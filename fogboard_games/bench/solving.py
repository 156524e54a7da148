"""`bench --solve`: fogboard_games.solve beside OpenSpiel's solvers, in one
run (docs/solving.md#bench).

On each preset: our tree build beside `cached_tree` (its build is what
`pyspiel.CFRPlusSolver` pays on construction: the walk of every node);
one iteration of each of our algorithms beside `pyspiel.CFRPlusSolver` on
the cached tree and on the registered C++ twin; one exploitability beside
`pyspiel.exploitability` on both. Beside the build, its floor: a bare
depth-first walk through the contract (copy, play, returns; then once more
with the information-state strings) recording nothing, the work no build
through the rules can avoid, so the table shows how far the build is from
it and what ratio against cached_tree the floor itself allows. Times are the best of `rounds`, in CPU
seconds of this process (time.process_time: both sides run single-threaded
in it), so that the load of a shared machine weighs on the ratios less than
on wall-clock times.
"""

from __future__ import annotations

import gc
import sys
import time

import pyspiel

import fogboard_games
from fogboard_games import solve
from fogboard_games.bench.options import check_options
from fogboard_games.bench.report import cell
from fogboard_games.core.contract import CHANCE, TERMINAL
from fogboard_games.core.registry import BENCH_PAIRS

SOLVE_PRESETS = ("liars-dice-classic-1", "mind-bluff-tiny")
# The targets: ours / OpenSpiel's speed, each at least.
SOLVE_TARGETS = {"build": 20.0, "cfr+": 5.0, "exploitability": 5.0}


def _best(rounds: int, call) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        call()
        best = min(best, time.process_time() - start)
    return best


def bare_walk(game, strings: bool) -> int:
    """Walk every history of `game` depth first through the contract as
    solve.Tree does (the last child played on the match itself), asking each
    end its returns and, with `strings`, each decision its mover's
    information-state string, and record nothing; returns the histories."""
    info_string = game.setup.encoder.info_state_string
    count = [0]

    def visit(m):
        count[0] += 1
        mover = m.mover
        if mover == TERMINAL:
            m.returns()
            return
        if mover == CHANCE:
            actions = [a for a, _ in m.odds]
        else:
            actions = m.options
            if strings:
                info_string(m, mover)
        last = actions[-1]
        for a in actions[:-1]:  # (a slice: a copy, as playing may change the list)
            c = m.copy()
            c.play(a)
            visit(c)
        m.play(last)
        visit(m)

    rejoin = sys.getrecursionlimit()
    sys.setrecursionlimit(max(rejoin, 4 * game.max_game_length() + 100))
    try:
        visit(game.new_initial_state().writable_truth())
    finally:
        sys.setrecursionlimit(rejoin)
    return count[0]


def run_solve(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    """Measure and print the table; `seconds` is unused (every figure is one
    whole build, iteration or evaluation, best of `rounds`)."""
    check_options("bench --solve", rounds, seconds, only, SOLVE_PRESETS)
    twins = dict(BENCH_PAIRS)
    print(f"fogboard_games.solve beside OpenSpiel, best of {rounds}; CPU seconds (lower is better)")
    print(
        f"{'preset':<22}{'measure':<34}{'ours':>10}{'OpenSpiel':>11}{'C++ twin':>10}{'speedup':>9}"
    )
    rows = []
    for preset in SOLVE_PRESETS:
        if only is not None and preset not in only:
            continue
        game = fogboard_games.load(preset)
        collecting = gc.isenabled()
        gc.disable()  # (both builds make millions of small objects)
        try:
            rows += _measure(preset, game, twins.get(preset), rounds)
        finally:
            if collecting:
                gc.enable()
    print(
        "speedup: OpenSpiel's time / ours: the build's against cached_tree (load + "
        "CFRPlusSolver's walk of the tree), the others' against the C++ twin where there is one"
    )
    # The targets are the issue's, on liars-dice-classic-1 (OpenSpiel's
    # liars_dice(numdice=1) is its C++ twin).
    for measure, target in SOLVE_TARGETS.items():
        got = [
            r["speedup"]
            for r in rows
            if r["preset"] == SOLVE_PRESETS[0] and r["measure"].startswith(measure) and r["speedup"]
        ]
        if got:
            print(f"{measure}: speedup {min(got):.1f}, target >= {target}")
    return rows


def _row(rows, preset, measure, ours, openspiel=None, twin=None, against_twin=True) -> None:
    reference = twin if twin is not None and against_twin else openspiel
    speedup = reference / ours if reference else None
    rows.append(
        {
            "preset": preset,
            "measure": measure,
            "ours": ours,
            "openspiel": openspiel,
            "twin": twin,
            "speedup": speedup,
        }
    )
    print(
        f"{preset:<22}{measure:<34}{ours:>10.4f}{cell(openspiel, 11, 4)}{cell(twin, 10, 4)}"
        f"{cell(speedup, 9, 1)}",
        flush=True,
    )


def _measure(preset, game, twin_name, rounds) -> list[dict]:
    rows: list[dict] = []
    trees = [None]

    def build():
        trees[0] = None  # (the last tree freed before the next is built)
        trees[0] = solve.Tree(game)

    ours = _best(rounds, build)
    tree = trees[0]
    cached_solver = []

    def cached_build():
        cached = pyspiel.load_game(f"cached_tree(game={game})")
        cached_solver[:] = [cached, pyspiel.CFRPlusSolver(cached)]

    # (one round only: it takes seconds, and a second gains nothing)
    cached = _best(1, cached_build)
    twin_build = None
    if twin_name:
        twin_build = _best(1, lambda: pyspiel.CFRPlusSolver(pyspiel.load_game(twin_name)))
    # (the target is against cached_tree: the C++ twin's build is shown beside it)
    _row(rows, preset, "build (tree / cached_tree)", ours, cached, twin_build, against_twin=False)
    print(
        f"{'':<22}{'  histories, bytes per node':<34}{tree.num_histories:>10}"
        f"{tree.nbytes / tree.num_histories:>11.0f}"
    )
    if tree.road == "factored":  # (the generic walk of the same game, beside its factored road)
        walked = _best(1, lambda: solve.Tree(game, factored=False))
        _row(rows, preset, "  build by the walk", walked, cached, against_twin=False)
    # The floor: the walk alone, then with the strings; speedup against
    # cached_tree, the most any build through the contract could reach.
    walked = []
    for label, strings in (
        ("floor: walk (copy, play, returns)", False),
        ("  + info-state strings", True),
    ):
        floor = _best(rounds, lambda strings=strings: walked.append(bare_walk(game, strings)))
        _row(rows, preset, label, floor, cached, against_twin=False)
    assert set(walked) == {tree.num_histories}, (walked, tree.num_histories)
    twin = pyspiel.load_game(twin_name) if twin_name else None
    twin_solver = pyspiel.CFRPlusSolver(twin) if twin else None
    openspiel_iteration = _best(1, cached_solver[1].evaluate_and_update_policy)
    twin_iteration = _best(rounds, twin_solver.evaluate_and_update_policy) if twin else None
    for name in ("CFR", "CFRPlus", "LinearCFR", "DCFR"):
        solver = getattr(solve, name)(tree)
        solver.iterate()  # (the first also builds the seat indexes)
        label = "cfr+ iteration" if name == "CFRPlus" else f"{name} iteration"
        if name == "CFRPlus":
            _row(
                rows,
                preset,
                label,
                _best(rounds, solver.iterate),
                openspiel_iteration,
                twin_iteration,
            )
        else:
            _row(rows, preset, label, _best(rounds, solver.iterate))
    policy = solver.average_policy()
    os_policy = cached_solver[1].average_policy()
    ours = _best(
        rounds,
        lambda: (
            solve.nash_conv(tree, policy)
            if tree.num_players > 2
            else solve.exploitability(tree, policy)
        ),
    )
    openspiel = _best(1, lambda: pyspiel.exploitability(cached_solver[0], os_policy))
    twin_time = None
    if twin:
        twin_policy = twin_solver.average_policy()
        twin_time = _best(rounds, lambda: pyspiel.exploitability(twin, twin_policy))
    _row(rows, preset, "exploitability", ours, openspiel, twin_time)
    return rows
