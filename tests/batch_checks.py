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
