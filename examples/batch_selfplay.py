"""Learn a policy by batched self-play with fogboard_games.batch, in numpy.

    python examples/batch_selfplay.py                      # liars-dice-1, under a minute
    python examples/batch_selfplay.py --preset phantom-ttt-3 --iterations 300

A linear softmax policy reads the mover's information-state tensor
(`state.observation`), masks the illegal actions and samples; both seats
play the same policy. Each iteration plays `--batch` whole games at once
and takes one REINFORCE step: every decision's log-probability is pushed
up by what the game paid its mover, less the mean payoff of that seat (the
baseline); with `--mix` that fraction of the games has one seat playing
uniform random, only the policy's seat learning there. Every `--report`
iterations the policy plays `--eval`
games against uniform random (half as seat 0, half as seat 1) and the mean
score is printed: 0 for uniform random against itself, up to the payout
for a policy that always wins. With matplotlib installed the curve is also
saved as a PNG (`--png`, empty to skip).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fogboard_games import batch
from fogboard_games.bench import random_actions


def policy_probs(weights: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax of obs @ weights over the legal actions (zeros elsewhere)."""
    logits = obs @ weights
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample(rng, p: np.ndarray) -> np.ndarray:
    """One action per row drawn from the rows of p."""
    u = rng.random((len(p), 1))
    return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)


def self_play(env, weights, rng, mix: float = 0.0):
    """One batch of whole games, both seats on the policy; the REINFORCE gradient.

    In a fraction `mix` of the rows one seat (alternating) plays uniform
    random instead, and only the policy's seat learns there: pure self-play
    lets a linear policy drift to play that beats itself but not others."""
    s = env.reset()
    B = env.batch_size
    rand_seat = np.full(B, -1)  # the seat playing uniform random in each row, or -1
    if mix:
        chosen = rng.random(B) < mix
        rand_seat[chosen] = (np.arange(B) % env.num_players)[chosen]
    steps = []  # (rows, seat, obs, probs, action) per step
    returns = np.zeros((B, env.num_players))  # what each game paid each seat
    while not s.terminated.all():
        # (no draw without --mix: pure self-play's random stream is as it was)
        acts = random_actions(rng, s.legal_action_mask) if mix else np.zeros(B, np.int64)
        rows = np.flatnonzero(~s.terminated & (s.current_player != rand_seat))
        if len(rows):
            obs = s.observation[rows]
            p = policy_probs(weights, obs, s.legal_action_mask[rows])
            a = sample(rng, p)
            acts[rows] = a
            steps.append((rows, s.current_player[rows], obs, p, a))
        s = env.step(acts)
        returns += s.rewards
    baseline = returns.mean(axis=0)
    grad = np.zeros_like(weights)
    decisions = 0
    for rows, seat, obs, p, a in steps:
        advantage = returns[rows, seat] - baseline[seat]
        push = -p
        push[np.arange(len(a)), a] += 1.0  # d log p(a) / d logits
        grad += obs.T @ (push * advantage[:, None])
        decisions += len(rows)
    return grad / decisions


def score_against_random(env, weights, rng) -> float:
    """Mean score of the policy against uniform random, seats alternating by row
    (the untrained policy is uniform random itself: it scores about 0)."""
    s = env.reset()
    ours = np.arange(env.batch_size) % 2  # the policy's seat in each row
    paid = np.zeros(env.batch_size)
    while not s.terminated.all():
        acts = random_actions(rng, s.legal_action_mask)
        mine = np.flatnonzero(~s.terminated & (s.current_player == ours))
        if len(mine):
            p = policy_probs(weights, s.observation[mine], s.legal_action_mask[mine])
            acts[mine] = sample(rng, p)
        s = env.step(acts)
        paid += s.rewards[np.arange(env.batch_size), ours]
    return float(paid.mean())


def save_curve(path: str, curve: list[tuple[int, float]], preset: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib is not installed: no PNG)")
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([i for i, _ in curve], [v for _, v in curve], marker="o")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("iteration")
    ax.set_ylabel("mean score against uniform random")
    ax.set_title(f"batched self-play, {preset}")
    fig.tight_layout()
    fig.savefig(path)
    print(f"curve saved to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="liars-dice-1")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--batch", type=int, default=1024, help="games per iteration")
    parser.add_argument("--eval", type=int, default=4096, help="games per evaluation")
    parser.add_argument("--report", type=int, default=20, help="iterations between evaluations")
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument(
        "--mix", type=float, default=0.0, help="fraction of training games against uniform random"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--png", default="batch_selfplay.png", help="where to save the curve")
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = batch.make(args.preset, batch_size=args.batch, seed=args.seed)
    judge = batch.make(args.preset, batch_size=args.eval, seed=args.seed + 1)
    weights = np.zeros((env.tensor_size, env.num_actions))
    curve = []
    start = time.perf_counter()
    for it in range(args.iterations + 1):
        if it % args.report == 0 or it == args.iterations:
            score = score_against_random(judge, weights, np.random.default_rng(it))
            curve.append((it, score))
            print(
                f"iteration {it:4d}: mean score against uniform random {score:+.3f} "
                f"({time.perf_counter() - start:.1f}s)",
                flush=True,
            )
        if it < args.iterations:
            weights += args.lr * self_play(env, weights, rng, args.mix)
    print(f"final mean score against uniform random: {curve[-1][1]:+.3f}")
    if args.png:
        save_curve(args.png, curve, args.preset)


if __name__ == "__main__":
    main()
