"""What the batched engines' tests share (tests/test_batch*.py) beside the
library's crosscheck (fogboard_games/core/batched_testing.py, which the
conformance suite runs on every preset with a batched engine): every array
of an environment, a row of a snapshot checked against its rebuilt pyspiel
state, and reads of the mover's view now and then."""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.bots import random_actions
from fogboard_games.core.batched_testing import (  # noqa: F401  (the engines' tests use them)
    expect_row,
    follow,
    forms_of,
    play_checked,
    pyspiel_tensor,
    seat_tensors,
    state_after,
)


def arrays(env):
    """Every array of the environment, those in its tuples included (copies:
    to compare before and after a refused step)."""
    found = {}
    for k, v in vars(env).items():
        if isinstance(v, np.ndarray):
            found[k] = v.copy()
        elif isinstance(v, tuple):
            found.update(
                (f"{k}.{i}", a.copy()) for i, a in enumerate(v) if isinstance(a, np.ndarray)
            )
    return found


def assert_unchanged(env, before):
    """Every array of the environment is as `arrays(env)` found it in `before`."""
    after = arrays(env)
    assert before.keys() == after.keys()
    for name in before:
        assert np.array_equal(before[name], after[name]), name


def expect_rows(env, s):
    """Every row of the current snapshot agrees with its rebuilt pyspiel state."""
    tensors = seat_tensors(env)
    for r in range(env.batch_size):
        expect_row(env, env.to_pyspiel(r), s, r, tensors)


def random_draw(rng, s):
    """Uniformly random legal actions (batch.bots.random_actions)."""
    return random_actions(rng, s.legal_action_mask)


def joined(geo, seat, stones) -> bool:
    """Whether `seat`'s `stones` (a set of cells) join its two edges: a flood
    from its first edge through its stones (the rules' way, cell by cell)."""
    reached = {c for c in stones if geo.edges[seat][c] & 1}
    todo = list(reached)
    while todo:
        for nb in geo.neighbors[todo.pop()]:
            if nb in stones and nb not in reached:
                reached.add(nb)
                todo.append(nb)
    return any(geo.edges[seat][c] & 2 for c in reached)


def mover_views_read_now_and_then(env, draw, steps, seed):
    """Play `steps` random steps (`draw(rng, state)` gives the actions), reading
    only `State.observation` (the handed-out mirror, no seat's tensor) after
    gaps of 1 to 4 steps, and restarting only some of the finished rows, at
    random: at each read every row agrees with pyspiel (the mover's tensor of
    the environment's form, zeros in finished rows). Between reads the mirror
    falls behind by several steps of logged writes, seat changes, endings and
    restarts (docs/batch.md#observations). Returns how many reads it made."""
    rng = np.random.default_rng(seed)
    game = env.game
    s = env.reset()
    states = [state_after(game, env.history_of(r)) for r in range(env.batch_size)]
    reads, next_read = 0, 0
    for step in range(steps + 1):
        if step == next_read or step == steps:
            obs = s.observation
            reads += 1
            for r, state in enumerate(states):
                if state.is_terminal():
                    assert not obs[r].any(), (step, r)
                else:
                    want = pyspiel_tensor(state, env.form)
                    assert np.array_equal(obs[r], want), (step, r, state.history())
            next_read = step + int(rng.integers(1, 5))
        if step == steps:
            break
        before = s.terminated.copy()
        s = env.step(draw(rng, s))
        for r, state in enumerate(states):
            if not before[r]:
                history = env.history_of(r)
                for action in history[len(state.history()) :]:
                    state.apply_action(action)
        pick = s.terminated & (rng.random(env.batch_size) < 0.5)
        if pick.any():
            s = env.reset(pick)
            for r in np.flatnonzero(pick):
                states[r] = state_after(game, env.history_of(int(r)))
    return reads
