"""`bench --workloads`: the string workload, random playouts reading the
mover's information-state string at every decision (the key of a search's
tables), beside the C++ game (docs/performance.md), then the search
workloads (bench.search).

The presets are named here, one per ruleset family (the cost is in the
string); the C++ game each is measured beside is its registered bench pair.
"""

from __future__ import annotations

import pyspiel

import fogboard_games
from fogboard_games.bench.options import check_options
from fogboard_games.bench.playouts import SLICES, counterparts, interleaved, playout_rate
from fogboard_games.bench.report import cell
from fogboard_games.bench.search import SEARCH_PRESETS, run_search_workloads

# The string workload's cost is in information_state_string, so one preset
# per ruleset family is enough.
WORKLOAD_PRESETS = ("dark-hex-5", "phantom-ttt-3", "liars-dice-classic-1")
# Presets with no C++ counterpart, measured alone (- for C++ and the ratio).
WORKLOAD_ALONE = ("parley",)
WORKLOAD_TARGET = 0.5  # ours / C++ for the string workload (the target)


def run_workloads(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    """Measure the string workload of every WORKLOAD_PRESETS preset beside its
    C++ game, in rounds of alternating slices (best kept), then of every WORKLOAD_ALONE
    preset alone, and print a table.

    Each round plays other playouts (its own seed): replaying the same ones
    would find every believed distToWin of the boards already memoised.
    BenchError, before anything runs, for an option it cannot take.
    """
    covered = tuple(dict.fromkeys((*WORKLOAD_PRESETS, *WORKLOAD_ALONE, *SEARCH_PRESETS)))
    check_options("bench --workloads", rounds, seconds, only, covered)
    pairs = [*counterparts(WORKLOAD_PRESETS), *((p, None) for p in WORKLOAD_ALONE)]
    pairs = [(p, cpp) for p, cpp in pairs if only is None or p in only]
    print(
        f"string workload: random playouts reading information_state_string(current_player()) "
        f"at every decision; best of {rounds} rounds of {seconds}s, each in {SLICES} slices "
        f"alternating with C++; steps/s"
    )
    print(f"{'preset':<22}{'C++ game':<40}{'ours':>9}{'C++':>9}{'ratio':>7}")
    results = []
    for preset, cpp in pairs:
        games = {"ours": fogboard_games.load(preset)}
        if cpp:
            games["cpp"] = pyspiel.load_game(cpp)
        best = dict.fromkeys(games, 0.0)
        for r in range(rounds):
            rates = interleaved(
                [
                    lambda k, g=game, r=r: playout_rate(
                        g, seconds / SLICES, "string", seed=r * 97 + k
                    )
                    for game in games.values()
                ],
                SLICES,
            )
            for label, rate in zip(games, rates):
                best[label] = max(best[label], rate)
        ratio = best["ours"] / best["cpp"] if cpp else None
        # "ours" and "cpp" are the rates (best's keys), "cpp_game" the C++ game.
        results.append({"preset": preset, "cpp_game": cpp, **best, "ratio": ratio})
        print(
            f"{preset:<22}{cpp or '-':<40}{best['ours']:>9.0f}{cell(best.get('cpp'), 9, 0)}"
            f"{cell(ratio, 7, 2)}",
            flush=True,
        )
    paired = [r for r in results if r["cpp_game"]]
    if paired:
        worst = min(paired, key=lambda r: r["ratio"])
        print(
            f"worst string-workload ratio {worst['ratio']:.2f} ({worst['preset']}); "
            f"target >= {WORKLOAD_TARGET}"
        )
    searched = None if only is None else [p for p in only if p in SEARCH_PRESETS]
    if searched != []:
        # A search move takes a good part of a second: measure for longer.
        results += run_search_workloads(rounds, 4 * seconds, searched)
    return results
