"""`python -m fogboard_games bench`: playout speed beside OpenSpiel's C++ games.

For every registered bench pair (a preset and the OpenSpiel C++ game whose
rules it matches) the same Python loop plays random playouts of both games,
in rounds of short slices alternating between the two (`interleaved`),
keeping the best round of each: plain playouts, then
playouts that also read the mover's information-state tensor at every
decision, then the cost of `clone()` on a mid-game state. The ratios
ours / C++ measured in one run are the figures that count; absolute numbers
on a shared machine are noise. `LEGEND` is printed with the table.

`run_workloads` (`bench --workloads`) measures what a search does instead:
random playouts that read the mover's information-state string at every
decision, the key of Python MCCFR's and ISMCTSBot's tables, for the
WORKLOAD_PAIRS beside their C++ games and the WORKLOAD_ALONE presets (no
C++ counterpart) alone; then OpenSpiel's Python outcome-sampling MCCFR and
ISMCTSBot on ours and on the C++ games. Each round of a workload runs in
short slices, ours and C++ alternating (`interleaved`).

`run_batch` (`bench --batch`) measures `fogboard_games.batch` beside the C++
loop, in the same alternating slices; the batch carries on from slice to
slice (`BatchPlay`), as a training loop would.
"""

from __future__ import annotations

import random
import time
import timeit

import numpy as np
import pyspiel

import fogboard_games
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


MODES = ("plain", "tensor", "tensor()")

SLICES = 8  # slices of a round, ours and C++ alternating (see interleaved)


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
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
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


def _cell(value: float | None, width: int, digits: int) -> str:
    return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"


def run(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    """Measure every preset (beside its C++ counterpart, if any) and print a table."""
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
            f"{_cell(r.get('plain_cpp'), 9, 0)}{_cell(plain_ratio, 7, 2)}"
            f"{r['tensor_ours']:>12.0f}{_cell(r.get('tensor_cpp'), 9, 0)}"
            f"{_cell(tensor_ratio, 7, 2)}{r['tensor0_ours']:>14.0f}"
            f"{_cell(r.get('tensor0_cpp'), 9, 0)}{_cell(tensor0_ratio, 7, 2)}"
            f"{r['clone_ours_us']:>9.2f}"
            f"{_cell(r.get('clone_cpp_us'), 6, 2)}",
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


# Workloads: (preset, the C++ game measured beside it). The string workload's
# cost is in information_state_string, so one pair per ruleset family is enough.
WORKLOAD_PAIRS = (
    ("dark-hex-5", "dark_hex(board_size=5,gameversion=adh)"),
    ("phantom-ttt-3", "phantom_ttt"),
    ("liars-dice-classic-1", "liars_dice(numdice=1)"),
)
# Presets with no C++ counterpart, measured alone (- for C++ and the ratio).
WORKLOAD_ALONE = ("parley",)
WORKLOAD_TARGET = 0.5  # ours / C++ for the string workload (the target)


def run_workloads(rounds: int = 3, seconds: float = 0.4, only=None) -> list[dict]:
    """Measure the string workload of every WORKLOAD_PAIRS preset beside its
    C++ game, in rounds of alternating slices (best kept), then of every WORKLOAD_ALONE
    preset alone, and print a table.

    Each round plays other playouts (its own seed): replaying the same ones
    would find every believed distToWin of the boards already memoised.
    """
    pairs = [*WORKLOAD_PAIRS, *((p, None) for p in WORKLOAD_ALONE)]
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
            f"{preset:<22}{cpp or '-':<40}{best['ours']:>9.0f}{_cell(best.get('cpp'), 9, 0)}"
            f"{_cell(ratio, 7, 2)}",
            flush=True,
        )
    paired = [r for r in results if r["cpp_game"]]
    if paired:
        worst = min(paired, key=lambda r: r["ratio"])
        print(
            f"worst string-workload ratio {worst['ratio']:.2f} ({worst['preset']}); "
            f"target >= {WORKLOAD_TARGET}"
        )
    if only is None or any(p in only for p, _ in SEARCH_PAIRS):
        # A search move takes a good part of a second: measure for longer.
        results += run_search_workloads(rounds, 4 * seconds, only)
    return results


# Search workloads: OpenSpiel's Python solvers and bots on ours and on the C++ game.
SEARCH_PAIRS = (
    ("liars-dice-classic-1", "liars_dice(numdice=1)"),
    ("dark-hex-5", "dark_hex(board_size=5,gameversion=adh)"),
    ("phantom-ttt-3", "phantom_ttt"),
)
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
    kept), and print a table."""
    print(
        f"search workloads: open_spiel's Python outcome-sampling MCCFR (iterations/s) and "
        f"ISMCTSBot, 100 simulations, opening move (moves/s); best of {rounds} rounds of "
        f"{seconds}s, each in {SLICES} slices alternating with C++"
    )
    print(f"{'workload':<30}{'C++ game':<40}{'ours':>9}{'C++':>9}{'ratio':>7}")
    results = []
    for preset, cpp in SEARCH_PAIRS:
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


# ---- bench --batch -----------------------------------------------------------

BATCH_LEGEND = """\
batch     fogboard_games.batch at the batch size shown: every row plays uniformly random
          legal actions (drawn from the mask, vectorized: random_actions), finished rows
          restarted at once; plies (decisions) per second over all rows, chance drawn
          inside
C++ loop  OpenSpiel's C++ game stepped one state at a time from a Python loop, random
          legal actions; plies (decisions) per second, chance steps played, not counted
plain     no tensor read; tensor: the mover's information-state tensor read at every
          ply (batch: state.observation, (B, D) float32; C++: information_state_tensor())
ratio     batch / C++ loop, both measured in this run; -: no C++ counterpart
bytes/row the batch environment's numpy arrays per row (history, tensors and the kept
          observation buffers included)"""


def random_actions(rng, mask):
    """One uniformly random legal action per row of a (B, A) mask, vectorized.

    Row b with c legal actions draws k = floor(u * c), u uniform in [0, 1)
    (one float64 per row: uniform over the c actions up to float64 rounding,
    a bias below 1e-15, and k < c always), and plays its (k + 1)-th legal
    action: the number of actions whose running count of legal actions is
    still at most k. The running counts are A - 1 vectorized additions over
    rows along the mask's transposed (A, B) layout, the one
    `fogboard_games.batch` hands out; drawing one number per row instead of
    one per action and row keeps the draw a small part of a step. Rows with
    no legal action get A - 1.
    """
    by_action = mask.T.view(np.uint8)
    A, B = by_action.shape
    counts = np.empty((A - 1, B), np.uint8 if A < 256 else np.uint16)
    if A > 1:
        counts[0] = by_action[0]
        for i in range(1, A - 1):
            np.add(counts[i - 1], by_action[i], out=counts[i])
        total = counts[-1] + by_action[-1]
    else:
        total = by_action[0]
    k = (rng.random(B) * total).astype(counts.dtype)
    # The last action needs no count: it is chosen when all the others are passed.
    # (a new array: written over `counts` itself, the compare ran 1.5-5x slower)
    passed = np.less_equal(counts, k)
    return np.add.reduce(passed.view(np.uint8), axis=0, dtype=counts.dtype).astype(np.int64)


class BatchPlay:
    """A batch environment playing random legal actions, restarting rows as they
    finish, reading the observation at every ply if `tensor`: `rate(seconds)`
    plays on for that long from where the last call stopped and returns plies
    (running rows' decisions) per second."""

    def __init__(self, env, tensor: bool, seed: int = 0):
        self.env, self.tensor = env, tensor
        self.rng = np.random.default_rng(seed)
        self.state = env.reset()

    def rate(self, seconds: float) -> float:
        env, rng, state, tensor = self.env, self.rng, self.state, self.tensor
        self.state = None  # (held here, its observation's buffer could not be reused)
        plies = 0
        start = time.perf_counter()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(8):
                if tensor:
                    state.observation  # noqa: B018  (reading it is the workload)
                plies += env.batch_size - np.count_nonzero(state.terminated)
                state = env.step(random_actions(rng, state.legal_action_mask))
                if state.terminated.any():
                    state = env.reset(state.terminated)
        self.state = state
        return plies / (time.perf_counter() - start)


def run_batch(
    rounds: int = 3, seconds: float = 0.4, only=None, batch_size: int = 4096
) -> list[dict]:
    """`bench --batch`: batched plies per second beside the C++ loop, and a table."""
    from fogboard_games import batch

    counterpart = dict(BENCH_PAIRS)
    from fogboard_games.batch import COVERED_PRESETS

    presets = [p for p in COVERED_PRESETS if only is None or p in only]
    print(
        f"batched random play at batch {batch_size} beside the C++ game's Python loop; "
        f"best of {rounds} rounds of {seconds}s, each in {SLICES} slices alternating "
        f"batch and C++; plies/s"
    )
    print(
        f"{'preset':<22}{'C++ game':<40}{'batch':>11}{'C++ loop':>10}{'ratio':>7}"
        f"{'batch tensor':>13}{'C++ loop':>10}{'ratio':>7}{'bytes/row':>10}"
    )
    results = []
    for preset in presets:
        cpp = counterpart.get(preset)
        game = pyspiel.load_game(cpp) if cpp else None
        # One environment per kind of play: the plain one never builds its tensors.
        plays = {
            tensor: BatchPlay(batch.make(preset, batch_size=batch_size, seed=0), tensor)
            for tensor in (False, True)
        }
        for play in plays.values():
            play.rate(seconds / SLICES)  # (warm: the first tensors, the buffers)
        best = {}
        for r in range(rounds):
            for tensor, play in plays.items():
                measures = [lambda k, p=play: p.rate(seconds / SLICES)]
                if game is not None:
                    mode = "tensor()" if tensor else "plain"
                    measures.append(
                        lambda k, g=game, m=mode, r=r: playout_rate(
                            g, seconds / SLICES, m, r * SLICES + k, decisions_only=True
                        )
                    )
                for who, rate in zip(("batch", "cpp"), interleaved(measures, SLICES)):
                    best[who, tensor] = max(best.get((who, tensor), 0.0), rate)
        row = {
            "preset": preset,
            "cpp": cpp,
            "plain_batch": best["batch", False],
            "tensor_batch": best["batch", True],
            "plain_cpp": best.get(("cpp", False)),
            "tensor_cpp": best.get(("cpp", True)),
            "bytes_per_row": plays[True].env.memory_per_row(),
        }
        plain_ratio = row["plain_batch"] / row["plain_cpp"] if cpp else None
        tensor_ratio = row["tensor_batch"] / row["tensor_cpp"] if cpp else None
        row["plain_ratio"], row["tensor_ratio"] = plain_ratio, tensor_ratio
        results.append(row)
        print(
            f"{preset:<22}{cpp or '-':<40}{row['plain_batch']:>11.0f}"
            f"{_cell(row['plain_cpp'], 10, 0)}{_cell(plain_ratio, 7, 1)}"
            f"{row['tensor_batch']:>13.0f}{_cell(row['tensor_cpp'], 10, 0)}"
            f"{_cell(tensor_ratio, 7, 1)}{row['bytes_per_row']:>10}",
            flush=True,
        )
    print(BATCH_LEGEND)
    return results
