"""resample_from_infostate for Liar's Dice (docs/liars_dice.md#resampling).

A seat knows its own dice, every decision, and every die shown at a
showdown: each seat's final hand of each finished round. What it cannot
see is every other die of the other seats: all of them in the round under
way, and in finished rounds the hands a seat rerolled away. Those dice are
independent and uniform whatever the seats decided (no rule makes a
decision depend on the dice), so a uniform redraw of each of them, replayed
with every other event unchanged, is a world drawn with its exact chance
probability among the worlds the seat cannot rule out.
"""

from __future__ import annotations

import random

from fogboard_games.liars_dice import rules


def resample(m: rules.Match, player: int, rng: random.Random) -> list[int]:
    """The actions of a history with the same information state for `player`:
    every die the seat has not seen redrawn uniformly, every other event kept."""
    setup = m.setup
    sides = setup.sides
    shown = _shown_rolls(m)
    actions = []
    for i, (kind, seat, what) in enumerate(m.events):
        if kind == rules.ROLL:
            if seat != player and i not in shown:
                what = rng.randrange(sides) + 1
            actions.append(what - 1)
        elif kind == rules.ACT:
            actions.append(what)
    return actions


def _shown_rolls(m: rules.Match) -> set[int]:
    """Indices in m.events of the rolls a showdown showed: in each finished
    round, the last rolls of each seat, as many as its final hand has dice
    (a reroll rolls the whole hand again, so the final hand is rolled last)."""
    shown = set()
    rolls = [[] for _ in range(m.setup.players)]  # per seat: its roll indices this round
    for i, (kind, seat, what) in enumerate(m.events):
        if kind == rules.ROLL:
            rolls[seat].append(i)
        elif kind == rules.SHOW:
            for s, hand in enumerate(m.showdowns[what].hands):
                if hand:
                    shown.update(rolls[s][-len(hand) :])
            rolls = [[] for _ in range(m.setup.players)]
    return shown
