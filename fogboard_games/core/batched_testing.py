"""The batched engines' crosscheck against pyspiel (docs/batch.md): every
row of a batched engine (fogboard_games.batch) played beside the pyspiel
state rebuilt from its history, and checked at every step: the mover, the
legal actions, the rewards, both tensor forms of every seat, and at the end
the history, returns and information-state strings of `to_pyspiel`.

`testing.check_batched` runs it on a game whose Ruleset declares a batched
engine (the conformance suite does, on every such preset); the batched
engines' own tests run it with their own draws and reads. It takes the
engine as built and imports nothing above core.
"""

from __future__ import annotations

import numpy as np

# pyspiel's two tensor forms, as the engines name them (batch.FORMS).
FORMS = ("information_state", "observation")


def uniform_draw(rng, state) -> np.ndarray:
    """One uniformly random legal action per row of a batched State (0 where none)."""
    mask = state.legal_action_mask
    counts = mask.sum(axis=1)
    k = (rng.random(len(mask)) * counts).astype(np.int64)
    return np.argmax(mask.cumsum(axis=1) > k[:, None], axis=1).astype(np.int64)


def state_after(game, history):
    """The pyspiel state after a row's history of action ids (chance included)."""
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


def forms_of(env):
    """The forms whose every seat's tensors the environment gives in its dtype
    (recon hex's observation counts past 1: not in bool)."""
    return [f for f in FORMS if env.dtype != bool or env._max_value(f) == 1]


def seat_tensors(env):
    """Every seat's tensors of every form of `forms_of`, read from the environment."""
    read = {
        "information_state": env.information_state_tensor,
        "observation": env.observation_tensor,
    }
    return {form: [read[form](p) for p in range(env.num_players)] for form in forms_of(env)}


def follow(state, history, on_chance=None):
    """Bring the pyspiel state, one decision behind or at a row's history, to
    its end: the row's chance outcomes after its last decision, each one a
    chance outcome of pyspiel's node (`on_chance(state, outcome)`: more checks)."""
    assert history[: len(state.history())] == state.history()
    for outcome in history[len(state.history()) :]:
        assert state.is_chance_node(), (outcome, state.history())
        assert outcome in dict(state.chance_outcomes()), (outcome, state.history())
        if on_chance is not None:
            on_chance(state, outcome)
        state.apply_action(outcome)


def play_checked(
    env, draw, rng, steps=None, restart=False, read=None, at_step=None, on_chance=None, on_end=None
):
    """Play `env` beside pyspiel, every row checked at every step (`expect_row`).

    The actions come from `draw(rng, state)`. The engine pays what pyspiel's
    `rewards()` pays over the step, chance included, and nothing in finished rows.
    Tensors are read at the steps where `read(step)` is true (every step by
    default); `at_step(step, state, tensors)` runs further checks at every step,
    with tensors None where none were read. `restart` restarts finished rows
    (as the benchmark does), for `steps` steps; without `steps` play stops when
    every row has finished. `on_end(r, state)` runs at each game's end. At the
    end every row's `to_pyspiel` has its history, returns and
    information-state strings. Returns the number of steps."""
    game = env.game
    s = env.reset()
    states = [state_after(game, env.history_of(r)) for r in range(env.batch_size)]
    step = 0
    while True:
        tensors = seat_tensors(env) if read is None or read(step) else None
        if at_step is not None:
            at_step(step, s, tensors)
        for r, state in enumerate(states):
            expect_row(env, state, s, r, tensors)
        if steps is None and s.terminated.all() or steps is not None and step == steps:
            break
        acts = draw(rng, s)
        before = s.terminated.copy()
        s = env.step(acts)
        step += 1
        for r, state in enumerate(states):
            if before[r]:
                assert not s.rewards[r].any()
                continue
            state.apply_action(int(acts[r]))
            follow(state, env.history_of(r), on_chance)
            assert len(state.history()) == len(env.history_of(r))
            # (pyspiel shows a round's points from its ending move to the next decision)
            paid = np.array(state.rewards(), np.float32)
            assert np.array_equal(s.rewards[r], paid), (r, state.history())
            if state.is_terminal() and on_end is not None:
                on_end(r, state)
        if restart and s.terminated.any():
            ended = s.terminated.copy()
            for r in np.flatnonzero(ended):
                assert env.to_pyspiel(int(r)).history() == states[r].history()
            s = env.reset(ended)
            for r in np.flatnonzero(ended):
                states[r] = state_after(game, env.history_of(int(r)))
    for r, state in enumerate(states):
        rebuilt = env.to_pyspiel(r)
        assert rebuilt.history() == state.history()
        assert rebuilt.returns() == state.returns()
        for p in range(game.num_players()):
            assert rebuilt.information_state_string(p) == state.information_state_string(p)
    return step


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
