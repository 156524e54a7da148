"""Worlds a Mind Bluff seat cannot tell from the true one (docs/mind_bluff.md#resampling).

A seat knows its own eats, every public fact (claims, responses, verdicts,
forced marks, debts, the coin) and, unless it was drawn in secret, the
start. What it does not know: each eat of the other seat not fixed by a
forced-honest claim or a TRUE verdict (a BLUFF verdict leaves the eats
other than the claim), and a secret start. Every choice of those is a
consistent world exactly when all surviving eats sum to at most start - 1
(docs/mind_bluff.md#what-each-seat-knows), and every consistent world
replays the same claims, responses and verdicts, so the same debts and
legal actions.

`resample` draws one uniformly among the consistent worlds, without
rejection: `completions[i][b]` counts the choices of turns i.. whose eats
total at most b; the start is drawn with weight `completions[0][v - 1]`,
then each turn's eat in proportion to the completions it leaves.
"""

from __future__ import annotations

import random

from fogboard_games.mind_bluff import rules


def completions(cands: list[tuple[int, ...]], budget: int) -> list[list[int]]:
    """table[i][b]: how many choices of an eat from each of cands[i:] total at most b."""
    n = len(cands)
    table = [[0] * (budget + 1) for _ in range(n + 1)]
    table[n] = [1] * (budget + 1)
    for i in range(n - 1, -1, -1):
        nxt, row = table[i + 1], table[i]
        for b in range(budget + 1):
            row[b] = sum(nxt[b - k] for k in cands[i] if k <= b)
    return table


def draw_world(match: rules.Match, player: int, rng: random.Random) -> tuple[int, list[int]]:
    """A consistent (start, eats of every surviving turn), uniform over them."""
    s = match.setup
    starts = s.starts  # (start,) unless drawn in secret
    turns = rules.surviving_turns(match)
    cands = [rules.eat_candidates(s, t, (player,)) for t in turns]
    table = completions(cands, max(starts) - 1)
    weights = [table[0][v - 1] for v in starts]
    # The true world is consistent, so some weight is positive.
    start = starts[_pick(weights, rng)]
    budget, eats = start - 1, []
    for i, c in enumerate(cands):
        options = [k for k in c if k <= budget]
        k = options[_pick([table[i + 1][budget - k] for k in options], rng)]
        eats.append(k)
        budget -= k
    return start, eats


def _pick(weights: list[int], rng: random.Random) -> int:
    """An index drawn in proportion to the (exact, integer) weights."""
    x = rng.randrange(sum(weights))
    for i, w in enumerate(weights):
        if x < w:
            return i
        x -= w
    raise AssertionError("unreachable")


def actions_of(match: rules.Match, start: int | None, eats: list[int | None]) -> list[int]:
    """The actions of `match`'s history with the start and the eats given
    (None for all done): its coin, its draw, then every turn's eat, claim
    and response."""
    s = match.setup
    actions = []
    if s.first_player == -1 and match.first is not None:
        actions.append(match.first)
    if s.spread and start is not None:
        actions.append(start)
    for turn, eat in zip(match.turns, eats):
        actions.append(s.all_done if eat is None else eat - 1)
        if turn.claim is not None:
            actions.append(s.max_eat + turn.claim)
        if turn.response is not None:
            actions.append(s.believe if turn.response == rules.BELIEVE else s.doubt)
    return actions


def resample(match: rules.Match, player: int, rng: random.Random) -> list[int]:
    """The actions of a history `player` cannot tell from the true one."""
    if match.start is None:  # before the secret draw (or the coin): nothing hidden yet
        return actions_of(match, None, [])
    start, eats = draw_world(match, player, rng)
    return actions_of(match, start, eats)
