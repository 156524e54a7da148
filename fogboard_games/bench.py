"""`python -m fogboard_games bench`: playout speed beside OpenSpiel's C++ games.

For every registered bench pair (a preset and the OpenSpiel C++ game whose
rules it matches) the same Python loop plays random playouts of both games,
in alternating rounds, keeping the best round of each: plain playouts, then
playouts that also read the mover's information-state tensor at every
decision, then the cost of `clone()` on a mid-game state. The ratios
ours / C++ measured in one run are the figures that count; absolute numbers
on a shared machine are noise.
"""

from __future__ import annotations

import random
import time
import timeit

import pyspiel

import fogboard_games
from fogboard_games.core.registry import BENCH_PAIRS


def playout_rate(game, seconds: float, read_tensor: bool, seed: int = 0) -> float:
    """Steps per second of random playouts (chance steps included)."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                if read_tensor:
                    state.information_state_tensor(state.current_player())
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def clone_micros(game, seed: int = 0) -> float:
    """Microseconds per clone() of a state halfway through a random playout."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(game.max_game_length() // 3):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    n = 5000
    return min(timeit.repeat(state.clone, number=n, repeat=3)) / n * 1e6


def measure(preset: str, cpp_name: str, rounds: int, seconds: float) -> dict:
    ours = fogboard_games.load(preset)
    cpp = pyspiel.load_game(cpp_name)
    best = {}
    for _ in range(rounds):
        for mode in (False, True):
            for label, game in (("ours", ours), ("cpp", cpp)):
                key = (label, mode)
                best[key] = max(best.get(key, 0.0), playout_rate(game, seconds, mode))
    return {
        "preset": preset,
        "cpp": cpp_name,
        "plain_ours": best[("ours", False)],
        "plain_cpp": best[("cpp", False)],
        "tensor_ours": best[("ours", True)],
        "tensor_cpp": best[("cpp", True)],
        "clone_ours_us": clone_micros(ours),
        "clone_cpp_us": clone_micros(cpp),
    }


def run(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    pairs = [p for p in BENCH_PAIRS if only is None or p[0] in only]
    print(f"random playouts, best of {rounds} alternating rounds of {seconds}s; steps/s")
    header = (
        f"{'preset':<22}{'C++ game':<42}{'plain ours':>11}{'C++':>11}{'ratio':>7}"
        f"{'tensor ours':>12}{'C++':>11}{'ratio':>7}{'clone us':>9}{'C++':>6}"
    )
    print(header)
    results = []
    for preset, cpp_name in pairs:
        r = measure(preset, cpp_name, rounds, seconds)
        results.append(r)
        print(
            f"{preset:<22}{cpp_name:<42}{r['plain_ours']:>11.0f}{r['plain_cpp']:>11.0f}"
            f"{r['plain_ours'] / r['plain_cpp']:>7.2f}{r['tensor_ours']:>12.0f}"
            f"{r['tensor_cpp']:>11.0f}{r['tensor_ours'] / r['tensor_cpp']:>7.2f}"
            f"{r['clone_ours_us']:>9.2f}{r['clone_cpp_us']:>6.2f}",
            flush=True,
        )
    if results:
        worst_plain = min(results, key=lambda r: r["plain_ours"] / r["plain_cpp"])
        worst_tensor = min(results, key=lambda r: r["tensor_ours"] / r["tensor_cpp"])
        worst_clone = max(results, key=lambda r: r["clone_ours_us"])
        print(
            f"worst plain ratio {worst_plain['plain_ours'] / worst_plain['plain_cpp']:.2f} "
            f"({worst_plain['preset']}), worst tensor ratio "
            f"{worst_tensor['tensor_ours'] / worst_tensor['tensor_cpp']:.2f} "
            f"({worst_tensor['preset']}), slowest clone {worst_clone['clone_ours_us']:.2f} us "
            f"({worst_clone['preset']})"
        )
    return results
