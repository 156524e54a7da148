"""Ratings of the bot kinds from the league's games (docs/league.md#ratings).

Both ratings read one set of head-to-head results: a game between two
kinds is won by a kind when every best-scoring seat is its own, and drawn
when both kinds have a best-scoring seat (a kind alone at a game tells
nothing and is left out). Elo is OpenSpiel's own fit (`pyspiel.elo`, a
Bradley-Terry maximum-likelihood fit on the Elo scale) with 95% intervals
from a bootstrap over the games. alpha-rank, in the infinite-alpha limit,
of the symmetric meta-game whose payoff is a kind's score share against
another, is computed here: OpenSpiel's `open_spiel.python.egt.alpharank`
imports its plotting module (matplotlib, networkx) on import, which a bare
install does not have, and the limit is a small Markov chain; the tests
check it equals OpenSpiel's `alpharank.compute(..., use_inf_alpha=True)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from fogboard_games.league.planning import Job, Outcome, episode_seed

# Bootstrap resamples of the games per preset (an Elo fit takes microseconds).
RESAMPLES = 500


def head_to_head(jobs: Sequence[Job], results: Sequence[list[Outcome]]) -> dict:
    """Per preset, (kinds in first-played order, games as (winner, loser, drawn) indices)."""
    out: dict[str, tuple[list[str], list[tuple[int, int, bool]]]] = {}
    for job, outcomes in zip(jobs, results):
        kinds, games = out.setdefault(job.preset, ([], []))
        for k in job.kinds:
            if k not in kinds:
                kinds.append(k)
        present = sorted(set(job.kinds), key=kinds.index)
        if len(present) != 2:
            continue  # a kind alone: nothing compared
        for o in outcomes:
            best = max(o.returns)
            sides = {job.kinds[s] for s, r in enumerate(o.returns) if r == best}
            if len(sides) == 1:
                (winner,) = sides
                loser = present[1] if winner == present[0] else present[0]
                games.append((kinds.index(winner), kinds.index(loser), False))
            else:
                games.append((kinds.index(present[0]), kinds.index(present[1]), True))
    return out


def _matrices(n: int, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Win and draw count matrices (win[i][j]: i beat j) of games rows (i, j, drawn)."""
    win = np.zeros((n, n), dtype=np.int64)
    draw = np.zeros((n, n), dtype=np.int64)
    decisive, drawn = games[games[:, 2] == 0], games[games[:, 2] == 1]
    np.add.at(win, (decisive[:, 0], decisive[:, 1]), 1)
    np.add.at(draw, (drawn[:, 0], drawn[:, 1]), 1)
    draw = draw + draw.T
    return win, draw


def _groups(win: np.ndarray, draw: np.ndarray) -> tuple[bool, np.ndarray, np.ndarray]:
    """(whether the maximum-likelihood fit exists, which kinds are above
    the rest, which below). It exists when every kind reaches every other
    through "scored against" (a win or a draw); otherwise a group of kinds
    that no kind outside it ever scored against is infinitely above the rest
    (`top`), one that never scored against a kind outside it infinitely below
    (`bottom`), and a group between two such, or compared with nothing,
    is neither."""
    n = len(win)
    reach = ((win + draw) > 0) | np.eye(n, dtype=bool)
    for k in range(n):  # (transitive closure: n is a handful of kinds)
        reach = reach | (reach[:, [k]] & reach[[k], :])
    same = reach & reach.T
    outside = ~same
    source = ~(reach.T & outside).any(axis=1)  # no kind outside reaches it
    sink = ~(reach & outside).any(axis=1)  # it reaches no kind outside
    return bool(same.all()), source & ~sink, sink & ~source


def _names(kinds: Sequence[str], which: np.ndarray) -> str:
    return " and ".join(k for k, chosen in zip(kinds, which) if chosen)


def _sweep(kinds: Sequence[str], win: np.ndarray, draw: np.ndarray) -> str | None:
    """Why the maximum-likelihood Elo does not exist (a group of kinds won
    every game against the rest), or None when it does."""
    fits, top, bottom = _groups(win, draw)
    if fits:
        return None
    if not top.any():  # (not in a league, where every two kinds meet)
        return "some kinds never met the others: nothing puts them on one scale"
    games = int(win[np.ix_(top, ~top)].sum())
    # (OpenSpiel's smoothed fit would give an arbitrary large number, and
    # its bootstrap an interval of no width: every resample is a sweep.)
    return (
        f"{_names(kinds, top)} won all {games} games against {_names(kinds, ~top)}: "
        "the maximum-likelihood Elo difference is infinite"
    )


def _elo(win: np.ndarray, draw: np.ndarray) -> np.ndarray:
    """OpenSpiel's Elo fit, centred so the kinds' mean is 0 (its own anchor is the weakest at 0)."""
    import pyspiel

    ratings = np.array(pyspiel.elo.compute_ratings_from_matrices(win.tolist(), draw.tolist()))
    return ratings - ratings.mean()


# alpha-rank's noise in the infinite-alpha limit (OpenSpiel's default `inf_alpha_eps`).
ALPHARANK_EPS = 0.01


def _alpharank(win: np.ndarray, draw: np.ndarray) -> np.ndarray:
    """alpha-rank's stationary mass per kind; payoff = score share (a draw half), 1/2 against itself.

    In the infinite-alpha limit a population playing kind s is invaded by a
    mutant r (each chosen with chance 1/(n-1)) with chance 1 - eps when r
    scores more against s than s against r, eps when less, 1/2 when equal;
    the mass is that chain's stationary distribution.
    """
    n = len(win)
    played = win + win.T + draw
    share = np.where(played > 0, (win + draw / 2) / np.maximum(played, 1), 0.5)
    np.fill_diagonal(share, 0.5)
    advantage = share.T - share  # [s, r]: r's payoff against s less s's against r
    move = np.where(advantage > 0, 1 - ALPHARANK_EPS, ALPHARANK_EPS)
    move = np.where(np.isclose(advantage, 0, atol=1e-14), 0.5, move) / (n - 1)
    np.fill_diagonal(move, 0)
    np.fill_diagonal(move, 1 - move.sum(axis=1))
    # pi (move - I) = 0 with sum(pi) = 1; the chain is irreducible (eps > 0): one solution.
    system = np.vstack([(move - np.eye(n)).T, np.ones(n)])
    mass = np.linalg.lstsq(system, np.append(np.zeros(n), 1.0), rcond=None)[0]
    return np.clip(mass, 0.0, None) / np.clip(mass, 0.0, None).sum()


def _percentile(values: np.ndarray, q: float) -> float | None:
    """numpy's (linear) percentile of `values`, None when it leans on an infinite one."""
    ordered = np.sort(values)
    at = q / 100 * (len(ordered) - 1)
    below, above = ordered[int(np.floor(at))], ordered[int(np.ceil(at))]
    if np.isinf(below) or np.isinf(above):
        return None
    return float(below + (above - below) * (at - np.floor(at)))


def _elo_with_intervals(kinds, played: np.ndarray, win, draw, seed: int) -> list[dict]:
    """Each kind's Elo and its 95% bootstrap interval; an end is None
    (unbounded) when it falls among the resamples whose fit is infinite for
    the kind: those where it sits in a group that won, or lost, every game
    against the rest (39 wins in 40 games resample as a sweep a third of
    the time, so that kind's upper end is unbounded)."""
    n = len(kinds)
    elo = _elo(win, draw)
    rng = np.random.default_rng(seed)
    lows, highs = np.empty((RESAMPLES, n)), np.empty((RESAMPLES, n))
    for b in range(RESAMPLES):
        sample = played[rng.integers(0, len(played), len(played))]
        w, d = _matrices(n, sample)
        fits, top, bottom = _groups(w, d)
        if fits:
            lows[b] = highs[b] = _elo(w, d)
        else:
            # Above the rest: +inf; below: -inf; any other: anything, so
            # -inf for the low end and +inf for the high one.
            lows[b] = np.where(top, np.inf, -np.inf)
            highs[b] = np.where(bottom, -np.inf, np.inf)
    return [
        {
            "kind": k,
            "elo": float(elo[i]),
            "low": _percentile(lows[:, i], 2.5),
            "high": _percentile(highs[:, i], 97.5),
        }
        for i, k in enumerate(kinds)
    ]


def rate(kinds: Sequence[str], games: Sequence[tuple[int, int, bool]], seed: int) -> dict:
    """The ratings of one preset's kinds (JSON-ready); `undefined` says why
    when they are not, `elo_undefined` why Elo alone is not (a sweep)."""
    n = len(kinds)
    played = np.array(games, dtype=np.int64).reshape(-1, 3)
    out = {"kinds": list(kinds), "games": len(played), "undefined": None, "elo_undefined": None}
    if n < 2 or len(played) == 0:
        out["undefined"] = "one kind played this game: there is no one to rate it against"
    elif not (played[:, 2] == 0).any():
        out["undefined"] = "every game between kinds was drawn: nothing orders the kinds"
    if out["undefined"]:
        out["elo"] = out["alpharank"] = None
        return out
    win, draw = _matrices(n, played)
    out["elo_undefined"] = _sweep(kinds, win, draw)
    if out["elo_undefined"] is None:
        out["elo"] = _elo_with_intervals(kinds, played, win, draw, seed)
    else:
        out["elo"] = None
    mass = _alpharank(win, draw)
    order = sorted(range(n), key=lambda i: (-mass[i], i))
    rank = {i: order.index(i) + 1 for i in range(n)}
    out["alpharank"] = [
        {"kind": k, "mass": float(mass[i]), "rank": rank[i]} for i, k in enumerate(kinds)
    ]
    return out


def rate_league(jobs: Sequence[Job], results: Sequence[list[Outcome]], seed: int) -> dict:
    """Per preset, the ratings of its kinds (`rate`), the bootstrap seeded from the league's seed."""
    return {
        # (a stable seed per preset, as every game's own: numpy wants it non-negative)
        preset: rate(kinds, games, episode_seed(seed, preset, ("ratings",), 0))
        for preset, (kinds, games) in head_to_head(jobs, results).items()
    }
