"""resample_from_infostate for Liar's Dice (SPEC.md sections 0 and 4).

A seat knows its own dice, every decision, and every die shown at a
showdown. What it cannot see is the dice other seats rolled in the round
under way (the first hand and every rerolled hand). Those dice are
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
    # Events after the last showdown belong to the round whose dice are hidden.
    hidden_from = 0
    for i, event in enumerate(m.events):
        if event[0] == rules.SHOW:
            hidden_from = i + 1
    world = setup.game.new_initial_state()
    for i, event in enumerate(m.events):
        kind = event[0]
        if kind == rules.ROLL:
            face = event[2]
            if i >= hidden_from and event[1] != player:
                face = min(int(draw() * setup.sides), setup.sides - 1) + 1
            world.apply_action(face - 1)
        elif kind == rules.ACT:
            world.apply_action(event[2])
    return world
