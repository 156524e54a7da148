"""What the batched engines' crosschecks share (tests/test_batch*.py): a
pyspiel state rebuilt from a row's history, and its tensors as the engine
hands them out."""

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
