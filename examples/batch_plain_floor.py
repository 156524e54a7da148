"""The floor under batched plain play (docs/batch.md#the-big-boards-plain-step).

    python examples/batch_plain_floor.py --preset dark-hex-11

A step of `fogboard_games.batch` must, whatever its rules, draw one legal
action per row from the (A, B) mask, write it into the rows' history, and
hand out a new legal mask and the mover, terminated and rewards arrays.
This times a step that does only that (no rules: the same mask every
step), beside OpenSpiel's C++ game stepped from a Python loop as `bench
--batch` steps it, best of `--rounds`. The floor's ratio to the C++ loop is
the most plain play could reach with this interface; `bench --batch`'s
plain ratio is what the engine reaches.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

from fogboard_games import batch
from fogboard_games.bench import random_actions
from fogboard_games.bench.batched import EXTRA_PAIRS
from fogboard_games.bench.playouts import playout_rate
from fogboard_games.core.registry import BENCH_PAIRS


def floor_rate(env, seconds: float) -> float:
    """Plies per second of a step that does only what any engine's must."""
    B = env.batch_size
    rng = np.random.default_rng(0)
    kept = env.reset().legal_action_mask.T.copy()  # (A, B): the start's mask, every step
    history = np.zeros(B * env.hstride, np.int16)
    at = np.arange(B) * env.hstride
    mask, mover, terminated = kept.T, np.zeros(B, np.int64), np.zeros(B, bool)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        history[at] = random_actions(rng, mask).astype(np.int16)
        mask = kept.copy().T
        _ = mover.copy(), terminated.copy(), np.zeros((B, env.num_players), np.float32)
        steps += 1
    return steps * B / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="dark-hex-11")
    parser.add_argument("--batch-size", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pairs = dict(BENCH_PAIRS) | {name: cpp for name, _, cpp in EXTRA_PAIRS}
    ours = {name: game for name, game, _ in EXTRA_PAIRS}.get(args.preset, args.preset)
    if pairs.get(args.preset) is None:
        raise SystemExit(f"{args.preset} has no C++ twin to compare with: one of {sorted(pairs)}")
    env = batch.make(ours, batch_size=args.batch_size, seed=0)
    game = pyspiel.load_game(pairs[args.preset])
    best = {"floor": 0.0, "cpp": 0.0}
    for r in range(args.rounds):
        best["floor"] = max(best["floor"], floor_rate(env, args.seconds))
        rate = playout_rate(game, args.seconds, "plain", r, decisions_only=True)
        best["cpp"] = max(best["cpp"], rate)
    cpp = best["cpp"]
    print(f"{args.preset} at batch {args.batch_size}, plies/s, best of {args.rounds}:")
    print(f"floor   {best['floor']:12.0f}  {best['floor'] / cpp:6.1f}x the C++ loop")
    print(f"C++     {cpp:12.0f}  ({pairs[args.preset]})")


if __name__ == "__main__":
    main()
