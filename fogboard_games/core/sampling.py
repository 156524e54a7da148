"""One chance outcome drawn by its odds: the sampler every loop of ours uses
(docs/performance.md#the-chance-sampler).

The tour, the league, terminal play, the conformance suite, the PettingZoo
environment and the bench each play chance nodes; drawing them here, in
one way, keeps them from drifting apart (the bench once drew uniformly).
The draw is the one `random.Random.choices(outcomes, odds)` makes, written
out so that it costs little inside the bench's timed loop.
"""

from __future__ import annotations


def chance_outcome(state, rng) -> int:
    """A chance outcome of `state` (a chance node), drawn by its odds.

    `rng` is a random.Random or a numpy Generator: one `rng.random()` per
    draw. With a random.Random the draw is exactly
    `rng.choices(outcomes, odds)[0]`, the same outcome from the same state
    of the generator: a point u * total on the running sums of the odds
    (total their sum, as floats add them), the first outcome whose running
    sum passes it, or the last one if rounding leaves it past them all.
    """
    outcomes = state.chance_outcomes()
    u = rng.random()
    total = 0.0
    for _, odds in outcomes:
        total += odds
    point = u * total
    below = 0.0
    for outcome, odds in outcomes:
        below += odds
        if point < below:
            return outcome
    return outcomes[-1][0]
