"""`bench --workloads`, its second table: OpenSpiel's Python searches, ours
beside the C++ game (docs/performance.md#search-workloads).

Outcome-sampling MCCFR on Liar's Dice and ISMCTSBot on the boards, each
preset beside its registered bench pair, in alternating slices.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pyspiel

import fogboard_games
from fogboard_games.bench.options import check_options
from fogboard_games.bench.playouts import SLICES, counterparts, interleaved

# The presets searched, each beside the C++ game registered with it.
SEARCH_PRESETS = ("liars-dice-classic-1", "dark-hex-5", "phantom-ttt-3")
SEARCH_TARGET = 0.8  # ours / C++ for MCCFR and IS-MCTS (the target)


def mccfr_rate(game, seconds: float, seed: int = 0) -> float:
    """Iterations per second of open_spiel's Python outcome-sampling MCCFR."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    np.random.seed(seed)  # the solver samples from numpy's global generator
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(50):
            solver.iteration()
        done += 50
    return done / (time.perf_counter() - start)


def ismcts_rate(
    game, seconds: float, resample: bool, seed: int = 0, simulations: int = 100
) -> float:
    """Opening moves per second of open_spiel's Python ISMCTSBot: worlds drawn
    by our resample_from_infostate, or (a C++ game, which has none) clones."""
    from open_spiel.python.algorithms import ismcts, mcts

    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        rs = np.random.RandomState(seed * 10007 + done)
        rng = random.Random(seed * 10007 + done)
        evaluator = mcts.RandomRolloutEvaluator(1, rs)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rs)
        if resample:
            bot.set_resampler(lambda s, p, draw=rng.random: s.resample_from_infostate(p, draw))
        else:
            bot.set_resampler(lambda s, p: s.clone())
        bot.step(game.new_initial_state())
        done += 1
    return done / (time.perf_counter() - start)


def run_search_workloads(rounds: int, seconds: float, only=None) -> list[dict]:
    """Python MCCFR on the Liar's Dice pair and IS-MCTS on the board pairs,
    ours beside C++ in slices alternating within each round (best round
    kept), and print a table (BenchError, before anything runs, for an option
    it cannot take)."""
    check_options("bench --workloads' search", rounds, seconds, only, SEARCH_PRESETS)
    print(
        f"search workloads: open_spiel's Python outcome-sampling MCCFR (iterations/s) and "
        f"ISMCTSBot, 100 simulations, opening move (moves/s); best of {rounds} rounds of "
        f"{seconds}s, each in {SLICES} slices alternating with C++"
    )
    print(f"{'workload':<30}{'C++ game':<40}{'ours':>9}{'C++':>9}{'ratio':>7}")
    results = []
    for preset, cpp in counterparts(SEARCH_PRESETS):
        if only is not None and preset not in only:
            continue
        ours, theirs = fogboard_games.load(preset), pyspiel.load_game(cpp)
        if preset.startswith("liars"):
            name, measure = f"mccfr {preset}", (mccfr_rate, mccfr_rate)
            args = ((ours, seconds / SLICES), (theirs, seconds / SLICES))
        else:
            name, measure = f"ismcts {preset}", (ismcts_rate, ismcts_rate)
            args = ((ours, seconds / SLICES, True), (theirs, seconds / SLICES, False))
        best = [0.0, 0.0]
        for r in range(rounds):
            rates = interleaved(
                [
                    lambda k, f=f, a=a, r=r: f(*a, seed=r * SLICES + k)
                    for f, a in zip(measure, args)
                ],
                SLICES,
            )
            best = [max(b, rate) for b, rate in zip(best, rates)]
        ratio = best[0] / best[1]
        results.append(
            {"workload": name, "cpp_game": cpp, "ours": best[0], "cpp": best[1], "ratio": ratio}
        )
        print(f"{name:<30}{cpp:<40}{best[0]:>9.1f}{best[1]:>9.1f}{ratio:>7.2f}", flush=True)
    if results:
        worst = min(results, key=lambda r: r["ratio"])
        print(
            f"worst search ratio {worst['ratio']:.2f} ({worst['workload']}); target >= {SEARCH_TARGET}"
        )
    return results
