"""`bench --batch`: `fogboard_games.batch` beside the C++ loop
(docs/batch.md, docs/performance.md).

The batch carries on from slice to slice (`BatchPlay`), as a training loop
would, and plays actions drawn from the legal mask by `random_actions`,
vectorized so that the draw stays a small part of a step.
"""

from __future__ import annotations

import time

import numpy as np
import pyspiel

from fogboard_games.bench.options import DEFAULT_BATCH_SIZE, check_options
from fogboard_games.bench.playouts import SLICES, interleaved, playout_rate
from fogboard_games.bench.report import cell
from fogboard_games.core.registry import BENCH_PAIRS

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
          (parley, which OpenSpiel lacks: beside our own pyspiel game in that loop)
bytes/row the batch environment's numpy arrays per row (history, tensors and the kept
          observation buffers included)"""

# Games OpenSpiel lacks, timed beside our own pyspiel game in the same loop.
OWN_LOOP = {"parley": "fogboard_parley()"}


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
    rounds: int = 3, seconds: float = 0.4, only=None, batch_size: int = DEFAULT_BATCH_SIZE
) -> list[dict]:
    """`bench --batch`: batched plies per second beside the C++ loop, and a table
    (BenchError, before anything runs, for an option it cannot take)."""
    from fogboard_games import batch

    counterpart = dict(BENCH_PAIRS) | OWN_LOOP
    from fogboard_games.batch import COVERED_PRESETS

    check_options("bench --batch", rounds, seconds, only, COVERED_PRESETS, batch_size)
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
            f"{cell(row['plain_cpp'], 10, 0)}{cell(plain_ratio, 7, 1)}"
            f"{row['tensor_batch']:>13.0f}{cell(row['tensor_cpp'], 10, 0)}"
            f"{cell(tensor_ratio, 7, 1)}{row['bytes_per_row']:>10}",
            flush=True,
        )
    print(BATCH_LEGEND)
    return results
