"""resample_from_infostate for Liar's Dice (SPEC.md sections 0 and 4).

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


def resample(state, player: int, sampler=None):
    """A new state with the same information state for `player`.

    `sampler()` returns a float in [0, 1) (OpenSpiel's convention, e.g.
    `rng.random` or `pyspiel.UniformProbabilitySampler`); default: random.
    """
    m = state._m
    setup = m.setup
    if not isinstance(player, int) or not 0 <= player < setup.players:
        raise ValueError(f"player must be a seat 0..{setup.players - 1}, got {player!r}")
    draw = sampler if sampler is not None else random.random
    shown = _shown_rolls(m)
    world = setup.game.new_initial_state()
    for i, event in enumerate(m.events):
        kind = event[0]
        if kind == rules.ROLL:
            face = event[2]
            if event[1] != player and i not in shown:
                face = min(int(draw() * setup.sides), setup.sides - 1) + 1
            world.apply_action(face - 1)
        elif kind == rules.ACT:
            world.apply_action(event[2])
    return world


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
            for s, hand in enumerate(m.showdowns[what][rules.SD_HANDS]):
                if hand:
                    shown.update(rolls[s][-len(hand) :])
            rolls = [[] for _ in range(m.setup.players)]
    return shown
