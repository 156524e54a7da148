"""Random playouts timed in alternating slices: the measure under every
table of `python -m fogboard_games bench` (docs/performance.md).

One Python loop plays our games and OpenSpiel's C++ games alike, chance
drawn by its odds (core.sampling), so a ratio ours / C++ compares the games
and not the loops; `interleaved` alternates the two slice by slice, so that
both meet a shared machine in the same state.
"""

from __future__ import annotations

import random
import time
import timeit

import pyspiel

import fogboard_games
from fogboard_games.core.registry import BENCH_PAIRS
from fogboard_games.core.sampling import chance_outcome

MODES = ("plain", "tensor", "tensor()")

SLICES = 8  # slices of a round, ours and C++ alternating (see interleaved)


def counterparts(presets) -> list[tuple[str, str]]:
    """Each preset with the C++ game registered beside it (registry.add_bench_pair)."""
    pairs = dict(BENCH_PAIRS)
    missing = [p for p in presets if p not in pairs]
    if missing:
        raise LookupError(f"no bench pair registered for {', '.join(missing)}")
    return [(p, pairs[p]) for p in presets]


def interleaved(measures, slices: int) -> list[float]:
    """Run each measure(k) (a rate) for k = 0 .. slices - 1, the measures
    alternating slice by slice; return each one's mean rate.

    A shared machine's speed wanders by tens of percent over seconds: measured
    in alternating slices, ours and C++ meet the same conditions, and their
    ratio keeps still where rounds of a second or more apart did not.
    """
    totals = [0.0] * len(measures)
    for k in range(slices):
        for i, measure in enumerate(measures):
            totals[i] += measure(k)
    return [t / slices for t in totals]


def playout_rate(
    game, seconds: float, mode: str, seed: int = 0, decisions_only: bool = False
) -> float:
    """Steps per second of random playouts (chance steps included, unless
    `decisions_only`: then decisions per second, as `bench --batch` counts
    plies); `mode` is one of MODES, or "string" (the --workloads playouts):
    what else is read at every decision."""
    read_tensor = mode in ("tensor", "tensor()")
    no_player = mode == "tensor()"
    read_string = mode == "string"
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = chance_outcome(state, rng)
                steps -= decisions_only
            else:
                legal = state.legal_actions()
                if no_player:
                    state.information_state_tensor()
                elif read_tensor:
                    state.information_state_tensor(state.current_player())
                elif read_string:
                    state.information_state_string(state.current_player())
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            steps += 1
    return steps / (time.perf_counter() - start)


def clone_micros(game, seed: int = 0) -> float:
    """Microseconds per clone() of a mid-game state: max_game_length // 3 random
    steps in (chance takes its first outcome), or the end if the playout is shorter."""
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


def measure(preset: str, cpp_name: str | None, rounds: int, seconds: float) -> dict:
    """Best rates of one preset, and of its C++ counterpart when it has one."""
    games = {"ours": fogboard_games.load(preset)}
    if cpp_name:
        games["cpp"] = pyspiel.load_game(cpp_name)
    best = {}
    for _ in range(rounds):
        for mode in MODES:
            rates = interleaved(
                [
                    lambda k, g=game, m=mode: playout_rate(g, seconds / SLICES, m)
                    for game in games.values()
                ],
                SLICES,
            )
            for label, rate in zip(games, rates):
                best[label, mode] = max(best.get((label, mode), 0.0), rate)
    out = {"preset": preset, "cpp": cpp_name}
    for label, game in games.items():
        out[f"plain_{label}"] = best[(label, "plain")]
        out[f"tensor_{label}"] = best[(label, "tensor")]
        out[f"tensor0_{label}"] = best[(label, "tensor()")]
        out[f"clone_{label}_us"] = clone_micros(game)
    return out
