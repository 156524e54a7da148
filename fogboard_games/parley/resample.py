"""Worlds a Parley cog cannot tell from the true one (docs/parley.md#resampling).

A cog knows its own cards and aims and the public record. What it does
not know: the other cogs' cards, and the aim of every hit another cog
made (a miss can only be a hip-shot). Each other cog's cards are dealt
independently and uniformly, and the only public fact they touch is its
points in a finished round (3 if it survived, 1 if its FRIEND survived,
1 if it fatally shot its ENEMY), so each is drawn uniformly among the
ordered pairs that give the points the table saw; in the round under way
every pair is possible. The aim of an unseen hit is drawn in proportion
to the shooter having chosen it (uniform over its aims) and the shot then
hitting: head 1, hip 1/3 (3:1), head only once hip-shots are over. A hip-
shot still waiting for its result gets a target drawn uniformly among the
cogs it could have aimed at. Every world so drawn replays the same lines,
targets, results and legal sets.
"""

from __future__ import annotations

import random

from fogboard_games.parley import rules
from fogboard_games.parley.rules import HIT, MISS


def victims(match: rules.Match, r: int, shooter: int) -> set[int]:
    """The cogs `shooter` put OUT in round r."""
    s = match.setup
    out = set()
    for t in match.turns:
        if t.round == r and t.it == shooter and t.result == HIT:
            target = s.target_of(t.act)
            if t.hp[target] == 0:
                out.add(target)
    return out


def consistent_cards(match: rules.Match, r: int, c: int) -> list[tuple[int, int]]:
    """The (friend, enemy) pairs of cog c in round r the public record allows."""
    s = match.setup
    n = s.players
    pairs = [(f, e) for f in range(n) for e in range(n) if len({c, f, e}) == 3]
    if r >= len(match.points):  # the round under way: nothing shown yet
        return pairs
    standing = set(match.survivors_of(r))
    killed = victims(match, r, c)
    points = match.points[r][c]
    base = rules.SURVIVOR_POINTS * (c in standing)
    return [
        (f, e)
        for f, e in pairs
        if base + rules.FRIEND_POINTS * (f in standing) + rules.ENEMY_KILL_POINTS * (e in killed)
        == points
    ]


def resample(match: rules.Match, player: int, rng: random.Random) -> list[int]:
    """The actions of a history `player` cannot tell from the true one."""
    s = match.setup
    n = s.players
    actions: list[int] = []
    turns_of: dict[int, list[rules.Turn]] = {}
    for t in match.turns:
        turns_of.setdefault(t.round, []).append(t)
    for r, dealt in enumerate(match.deals):
        for c, cards in enumerate(dealt):
            if c != player:
                pairs = consistent_cards(match, r, c)
                cards = pairs[rng.randrange(len(pairs))]  # the true pair is among them
            actions.append(s.deal_outcome(c, *cards))
        turns = turns_of.get(r, [])
        if turns:
            actions.append(s.it_base + turns[0].it)
        hp, misses = list(s.full_hp), 0
        for t in turns:
            if t.line is not None:
                actions.append(t.line)
            if t.act is None:
                break
            living = [c for c in range(n) if hp[c] > 0]
            if t.act == s.pass_action or t.it == player:
                actions.append(t.act)
                if s.aim_of(t.act) == rules.HIP and t.result is not None:
                    actions.append(s.hit if t.result == HIT else s.miss)
            elif t.result is None:  # a hip-shot pending: the target is not shown yet
                targets = [c for c in living if c != t.it]
                actions.append(s.hip + targets[rng.randrange(len(targets))])
            else:
                target = s.target_of(t.act)
                hip_ok = misses < s.hip_limit
                # head : hip = 1 : 1/3 for a hit; a miss was a hip-shot
                hip = t.result == MISS or (hip_ok and rng.randrange(4) == 0)
                if hip:
                    actions += [s.hip + target, s.hit if t.result == HIT else s.miss]
                else:
                    actions.append(s.head + target)
            if t.result == MISS:
                misses += 1
            elif t.result == HIT:
                hp[s.target_of(t.act)] -= 1
            actions += [line for _, line in t.reactions]
    return actions
