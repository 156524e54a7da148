"""`python -m fogboard_games bench`: the playouts table, every preset beside
its registered C++ counterpart (docs/performance.md#results).

The pairs are the registry's (`registry.add_bench_pair` in each ruleset's
game.py), so a new preset is measured, and a new pair compared, the day it
is registered; a preset with no pair is measured alone.
"""

from __future__ import annotations

from fogboard_games.bench.options import check_options
from fogboard_games.bench.playouts import SLICES, measure
from fogboard_games.core.registry import BENCH_PAIRS, PRESETS

LEGEND = """\
plain     random playouts (legal_actions + apply_action at every step, chance steps
          included): steps per second
tensor    the same playouts, also reading the mover's tensor at every decision as
          information_state_tensor(current_player()): steps per second
tensor()  the same, as information_state_tensor() with no player (the mover)
clone us  microseconds per state.clone() of a mid-game state (lower is better)
ratio     ours / C++, both measured in this run: higher is better, above 1 ours is
          faster; -: no C++ counterpart (an original variant or rule set)
A tensor ratio can be above 1: C++ rebuilds its tensor on every call, while ours
resumes a per-state cache and writes only what happened since the last read, so on
larger boards ours is cheaper."""


def cell(value: float | None, width: int, digits: int) -> str:
    """A right-aligned figure of a table, or "-" for none (no C++ counterpart)."""
    return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"


def run(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    """Measure every preset (beside its C++ counterpart, if any) and print a table
    (BenchError, before anything runs, for an option it cannot take)."""
    check_options("bench", rounds, seconds, only, tuple(sorted(PRESETS)))
    counterpart = dict(BENCH_PAIRS)
    presets = [p for p in sorted(PRESETS) if only is None or p in only]
    print(
        f"random playouts, best of {rounds} rounds of {seconds}s, each in {SLICES} slices "
        f"alternating with C++; steps/s"
    )
    print(
        f"{'preset':<22}{'C++ game':<40}{'plain ours':>11}{'C++':>9}{'ratio':>7}"
        f"{'tensor ours':>12}{'C++':>9}{'ratio':>7}{'tensor() ours':>14}{'C++':>9}{'ratio':>7}"
        f"{'clone us':>9}{'C++':>6}"
    )
    results = []
    for preset in presets:
        cpp = counterpart.get(preset)
        r = measure(preset, cpp, rounds, seconds)
        results.append(r)
        plain_ratio = r["plain_ours"] / r["plain_cpp"] if cpp else None
        tensor_ratio = r["tensor_ours"] / r["tensor_cpp"] if cpp else None
        tensor0_ratio = r["tensor0_ours"] / r["tensor0_cpp"] if cpp else None
        print(
            f"{preset:<22}{cpp or '-':<40}{r['plain_ours']:>11.0f}"
            f"{cell(r.get('plain_cpp'), 9, 0)}{cell(plain_ratio, 7, 2)}"
            f"{r['tensor_ours']:>12.0f}{cell(r.get('tensor_cpp'), 9, 0)}"
            f"{cell(tensor_ratio, 7, 2)}{r['tensor0_ours']:>14.0f}"
            f"{cell(r.get('tensor0_cpp'), 9, 0)}{cell(tensor0_ratio, 7, 2)}"
            f"{r['clone_ours_us']:>9.2f}"
            f"{cell(r.get('clone_cpp_us'), 6, 2)}",
            flush=True,
        )
    print(LEGEND)
    paired = [r for r in results if r["cpp"]]
    if paired:
        worst_plain = min(paired, key=lambda r: r["plain_ours"] / r["plain_cpp"])
        worst_tensor = min(
            paired,
            key=lambda r: min(
                r["tensor_ours"] / r["tensor_cpp"], r["tensor0_ours"] / r["tensor0_cpp"]
            ),
        )
        slowest = max(results, key=lambda r: r["clone_ours_us"])
        print(
            f"worst plain ratio {worst_plain['plain_ours'] / worst_plain['plain_cpp']:.2f} "
            f"({worst_plain['preset']}), worst tensor ratio "
            f"{min(worst_tensor['tensor_ours'] / worst_tensor['tensor_cpp'], worst_tensor['tensor0_ours'] / worst_tensor['tensor0_cpp']):.2f} "
            f"({worst_tensor['preset']}), slowest clone {slowest['clone_ours_us']:.2f} us "
            f"({slowest['preset']})"
        )
    return results
