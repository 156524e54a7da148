"""What the batched engines' crosschecks share (tests/test_batch*.py): a
pyspiel state rebuilt from a row's history, its tensors as the engine hands
them out, and one row of a snapshot checked against it."""

from __future__ import annotations

import numpy as np


def replay(game, history):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def pyspiel_tensor(state, form, player=None):
    """The pyspiel state's tensor of the form (of the mover if player is None)."""
    read = (
        state.information_state_tensor if form == "information_state" else state.observation_tensor
    )
    return np.array(read() if player is None else read(player), np.float32)


def expect_row(env, state, s, r, tensors):
    """Row r of snapshot s agrees with the pyspiel state (`tensors`: per form every
    seat's, read from the environment, or None when not read at this step)."""
    assert bool(s.terminated[r]) == state.is_terminal()
    assert s.current_player[r] == state.current_player(), (r, state.history())
    mask = np.zeros(env.num_actions, bool)
    if not state.is_terminal():
        mask[state.legal_actions()] = True
    assert np.array_equal(s.legal_action_mask[r], mask), (r, state.history())
    if tensors is None:
        return
    if state.is_terminal():
        assert not s.observation[r].any()
    else:
        # (the compact dtype compared by value: uint8 holds every value exactly)
        mover = pyspiel_tensor(state, env.form)
        assert np.array_equal(s.observation[r].astype(np.float32), mover), (r, state.history())
    for form, seats in tensors.items():
        assert len(seats) == state.num_players(), form  # (every seat read)
        for p, seat in enumerate(seats):
            want = pyspiel_tensor(state, form, p)
            assert np.array_equal(seat[r].astype(np.float32), want), (r, p, form, state.history())


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
    states = [replay(game, env.history_of(r)) for r in range(env.batch_size)]
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
                states[r] = replay(game, env.history_of(int(r)))
    return reads
