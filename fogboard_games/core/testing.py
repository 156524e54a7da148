"""The conformance suite every fogboard game must pass (docs/adding_a_game.md).

Each `check_*` function takes a loaded pyspiel game and a seed, plays seeded
random histories, and raises AssertionError naming the game, the history
and what broke. `CHECKS` lists them; tests/test_conformance.py runs every
check over every preset and every extra configuration a ruleset registers
in `registry.CONFORMANCE_EXTRAS`, so a new game is covered the day it is
registered. Researchers can run the suite on their own configurations:

    from fogboard_games.core import testing
    testing.check_all(pyspiel.load_game("fogboard_dark_hex(board_size=3)"))

`check_all` prints one line per check passed (pass `report=None` for
silence) and raises at the first failure. `check_batched` crosschecks a
game's batched engine (Ruleset.batched) against pyspiel, move for move
(core.batched_testing); the suite runs it on every preset whose ruleset
declares one, and `check_all` on any game that does.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random

import numpy as np
import pyspiel

from fogboard_games.core.observer import all_obs_types, obs_type_key
from fogboard_games.core.params import is_int
from fogboard_games.core.review import load_review
from fogboard_games.core.sampling import chance_outcome


def play(game, moves=()):
    """A state after `moves` (action strings), from a game or a game string."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def legal_names(state) -> list[str]:
    """The mover's legal actions, as strings."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def piece(state, player: int, name: str, obs_type=None) -> list:
    """One named piece of `player`'s tensor (the information state unless
    `obs_type` says otherwise), as nested lists."""
    game = state.get_game()
    observer = game.make_py_observer(obs_type or pyspiel.IIGObservationType(perfect_recall=True))
    observer.set_from(state, player)
    return observer.dict[name].tolist()


def every_view(state, player: int, include_all: bool = False) -> list[tuple[str, bytes]]:
    """Every observer's (string, tensor bytes) for `player`: what a twin test
    compares. All-players observers are left out unless asked for, since
    they show every seat's private facts by design."""
    out = []
    game = state.get_game()
    for obs_type in all_obs_types():
        if obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS and not include_all:
            continue
        observer = game.make_py_observer(obs_type)
        observer.set_from(state, player)
        out.append((observer.string_from(state, player), observer.tensor.tobytes()))
    return out


def _legal(state) -> list[int]:
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return state.legal_actions()


def _step(state, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_action(chance_outcome(state, rng))
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def finished_game(game, seed: int):
    """One seeded random game of `game` played to its end: every legal action
    and every chance outcome drawn uniformly by `random.Random(seed)` (so a
    seed names one game, whatever the odds): the games the page, review and
    loader tests replay."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def playout_states(game, rng: random.Random, playouts: int, limit: int = 400):
    """States (as independent clones) along `playouts` random playouts.

    Long games are thinned to about `limit` states in all, spread evenly
    over the playouts, so every check stays fast on every game.
    """
    every = max(1, (playouts * game.max_game_length()) // limit)
    for _ in range(playouts):
        state = game.new_initial_state()
        step = 0
        while True:
            if step % every == 0 or state.is_terminal():
                yield state.clone()
            if state.is_terminal():
                break
            _step(state, rng)
            step += 1


def _where(game, state) -> str:
    return f"{game} after history {state.history()}"


def _snapshot(state) -> tuple:
    players = range(state.num_players())
    return (
        tuple(state.history()),
        state.current_player(),
        tuple(_legal(state)) if not state.is_terminal() else (),
        tuple(state.information_state_string(p) for p in players),
        tuple(tuple(state.information_state_tensor(p)) for p in players),
    )


# ---- the checks -----------------------------------------------------------------


def check_random_sim(game, seed: int = 0) -> None:
    """OpenSpiel's own consistency test (clones, returns, legal actions, and
    serialize/deserialize at every step)."""
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def check_serialization(game, seed: int = 0) -> None:
    """pyspiel's serialize/deserialize and pickle give states that know and
    play exactly what the originals do, and a pickled game loads again.

    (Trusted input only: a Python game's serialized state is a pickle.)
    """
    rng = random.Random(seed)
    regame = pickle.loads(pickle.dumps(game))
    assert str(regame) == str(game), f"{game}: pickled game came back as {regame}"
    for state in playout_states(game, rng, 2, limit=12):
        where = _where(game, state)
        _, restored = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        for copy in (restored, pickle.loads(pickle.dumps(state))):
            assert _snapshot(copy) == _snapshot(state), where
            # Both play on alike (the same seeded moves), each on its own match.
            play_seed = rng.random()
            original = state.clone()
            for twin in (copy, original):
                steps = random.Random(play_seed)
                while not twin.is_terminal():
                    _step(twin, steps)
            assert _snapshot(copy) == _snapshot(original), where
            assert copy.returns() == original.returns(), where


def check_shapes(game, seed: int = 0) -> None:
    """Declared tensor shapes equal what the observers and Python route give,
    and every entry lies within the encoder's bounds (`Encoder.bounds`: 0 to
    1, or a count piece's least to its most)."""
    rng = random.Random(seed)
    size_info = game.information_state_tensor_size()
    size_obs = game.observation_tensor_size()
    encoder = game.setup.encoder
    observers = [(t, game.make_py_observer(t)) for t in all_obs_types()]
    for o_type, o in observers:
        pieces = sum(int(np.prod(v.shape)) for v in o.dict.values())
        assert pieces == o.tensor.size, f"{game}: observer {o_type} pieces do not tile its tensor"
    bounds = [encoder.bounds(obs_type_key(t)) for t, _ in observers]
    for state in playout_states(game, rng, 3):
        for p in range(game.num_players()):
            assert len(state.information_state_tensor(p)) == size_info, _where(game, state)
            assert len(state.observation_tensor(p)) == size_obs, _where(game, state)
            for (o_type, o), (low, high) in zip(observers, bounds):
                o.set_from(state, p)
                assert isinstance(o.string_from(state, p), str)
                inside = (o.tensor >= low) & (o.tensor <= high)
                assert inside.all(), (
                    f"{_where(game, state)}: seat {p}'s tensor of key {obs_type_key(o_type)} "
                    "leaves the encoder's "
                    f"bounds at entries {np.flatnonzero(~inside)[:5].tolist()}"
                )


def check_routes_agree(game, seed: int = 0) -> None:
    """Our fast Python methods answer exactly what the C++ route answers."""
    rng = random.Random(seed)
    for state in playout_states(game, rng, 4):
        where = _where(game, state)
        assert pyspiel.State.current_player(state) == state.current_player(), where
        assert pyspiel.State.is_terminal(state) == state.is_terminal(), where
        assert pyspiel.State.is_chance_node(state) == state.is_chance_node(), where
        if not state.is_chance_node():
            assert pyspiel.State.legal_actions(state) == state.legal_actions(), where
            assert pyspiel.State.legal_actions_mask(state) == state.legal_actions_mask(), where
        for p in range(game.num_players()):
            cpp_r, py_r = pyspiel.State.player_return(state, p), state.player_return(p)
            assert cpp_r == py_r == state.returns()[p], (
                f"player_return differs for seat {p}, {where}"
            )
            for kind in ("information_state", "observation"):
                cpp_t = getattr(pyspiel.State, kind + "_tensor")(state, p)
                py_t = getattr(state, kind + "_tensor")(p)
                assert list(cpp_t) == list(py_t), f"{kind} tensor differs for seat {p}, {where}"
                cpp_s = getattr(pyspiel.State, kind + "_string")(state, p)
                py_s = getattr(state, kind + "_string")(p)
                assert cpp_s == py_s, f"{kind} string differs for seat {p}, {where}"


def check_clone_independent(game, seed: int = 0) -> None:
    """Moves on a clone never show on the original, and the other way round."""
    rng = random.Random(seed)
    for state in playout_states(game, rng, 3):
        if state.is_terminal():
            continue
        before = _snapshot(state)
        twin = state.clone()
        assert _snapshot(twin) == before, _where(game, state)
        while not twin.is_terminal():
            _step(twin, rng)
        assert _snapshot(state) == before, f"clone moves leaked into {_where(game, state)}"
        twin = state.clone()
        _step(state, rng)
        assert _snapshot(twin) == before, (
            f"original moves leaked into a clone, {_where(game, twin)}"
        )


def _early_states(game, rng: random.Random, playouts: int, decisions: int):
    """States within the first few decisions, where repeats are most likely."""
    for _ in range(playouts):
        state = game.new_initial_state()
        made = 0
        while not state.is_terminal() and made < decisions:
            if not state.is_chance_node():
                made += 1
                yield state.clone()
            _step(state, rng)


def check_info_states_consistent(game, seed: int = 0) -> None:
    """Equal information-state strings imply equal tensors and legal actions."""
    rng = random.Random(seed)
    seen: dict[tuple, tuple] = {}
    first_history: dict[tuple, tuple] = {}
    repeats = 0  # keys reached again by another history (the same one proves nothing)
    states = itertools.chain(playout_states(game, rng, 40), _early_states(game, rng, 300, 4))
    for state in states:
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        key = (p, state.information_state_string(p))
        value = (tuple(state.information_state_tensor(p)), tuple(state.legal_actions()))
        history = tuple(state.history())
        if key in seen:
            repeats += history != first_history[key]
            assert seen[key] == value, (
                f"{game}: seat {p} has one information-state string but two tensors or "
                f"legal sets; second history {state.history()}"
            )
        else:
            first_history[key] = history
        seen[key] = value
    assert repeats > 0, (
        f"{game}: no information state was reached by two histories; the check tested nothing"
    )


def has_perfect_recall(game) -> bool:
    """Whether `game` declares perfect recall. pyspiel's GameType has no
    field for it (OpenSpiel's phantom_ttt_ir and dark_hex_ir say it in their
    names only), so a game's Setup says it: `perfect_recall`, true unless set."""
    return getattr(getattr(game, "setup", None), "perfect_recall", True)


def check_perfect_recall(game, seed: int = 0) -> None:
    """A seat's information state fixes its past: the information states it
    moved from and the actions it took there, in order. A game that declares
    imperfect recall (`has_perfect_recall`) must show a seat two histories
    with one information state and two such pasts, so the declaration is
    checked too."""
    rng = random.Random(seed)
    pasts: dict[tuple, tuple] = {}
    forgot = None
    players = range(game.num_players())
    # Full playouts, and short ones (where repeats are most likely), each
    # seat's past kept as the playout goes.
    for playout in range(60):
        decisions = 4 if playout % 2 else game.max_game_length()
        state = game.new_initial_state()
        mine: list[tuple] = [() for _ in players]
        made = 0
        while made <= decisions:
            if not state.is_chance_node():
                for p in players:
                    key = (p, state.information_state_string(p))
                    if pasts.setdefault(key, mine[p]) != mine[p] and forgot is None:
                        forgot = (p, state.history())
            if state.is_terminal() or made == decisions:
                break
            if state.is_chance_node():
                _step(state, rng)
                continue
            p = state.current_player()
            action = rng.choice(state.legal_actions())
            mine[p] += ((state.information_state_string(p), action),)
            state.apply_action(action)
            made += 1
    if has_perfect_recall(game):
        assert forgot is None, (
            f"{game}: seat {forgot and forgot[0]} has one information state after two "
            f"different pasts (second history {forgot and forgot[1]}), but the game "
            "declares perfect recall"
        )
    else:
        assert forgot is not None, (
            f"{game}: declares imperfect recall, but no seat forgot its past in the histories tried"
        )


def check_public_observer(game, seed: int = 0) -> None:
    """A public-only observer gives every seat the same string and tensor."""
    rng = random.Random(seed)
    observers = [
        game.make_py_observer(t)
        for t in all_obs_types()
        if t.private_info == pyspiel.PrivateInfoType.NONE
    ]
    for state in playout_states(game, rng, 3):
        for o in observers:
            strings, tensors = set(), set()
            for p in range(game.num_players()):
                o.set_from(state, p)
                tensors.add(o.tensor.tobytes())
                strings.add(o.string_from(state, p))
            assert len(strings) == 1 and len(tensors) == 1, (
                f"public observation differs between seats, {_where(game, state)}: {strings}"
            )


def check_resample(game, seed: int = 0) -> None:
    """resample_from_infostate keeps the seat's information state; a game
    without perfect recall refuses it (ValueError), the state untouched."""
    rng = random.Random(seed)
    checked = 0
    for state in playout_states(game, rng, 3):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        if not has_perfect_recall(game):
            before = state.history()
            try:
                state.resample_from_infostate(p, rng.random)
            except ValueError as e:
                assert "imperfect_recall" in str(e), _where(game, state)
            else:
                raise AssertionError(f"{_where(game, state)}: resampled without perfect recall")
            assert state.history() == before
            checked += 1
            continue
        world = state.resample_from_infostate(p, rng.random)
        assert world.information_state_string(p) == state.information_state_string(p), _where(
            game, state
        )
        assert world.current_player() == p, _where(game, state)
        assert sorted(world.legal_actions()) == sorted(state.legal_actions()), _where(game, state)
        checked += 1
    assert checked > 0


def check_rewards_sum_to_returns(game, seed: int = 0) -> None:
    """Rewards read at each decision and at the end sum to the returns, as
    OpenSpiel's loops read them (rl_environment, random_sim_test): what a
    move pays stays in `rewards()` through chance nodes until the next
    decision. A terminal-reward game pays nothing before its end."""
    rng = random.Random(seed)
    terminal_only = game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    n = game.num_players()
    for _ in range(10):
        state = game.new_initial_state()
        total = [0.0] * n
        while True:
            if not state.is_chance_node():
                rewards = state.rewards()
                assert len(rewards) == n, f"{game}: rewards {rewards} for {n} seats"
                total = [t + r for t, r in zip(total, rewards)]
                returns = state.returns()
                assert all(abs(t - r) < 1e-9 for t, r in zip(total, returns)), (
                    f"{game}: rewards summed to {total}, returns are {returns}, "
                    f"{_where(game, state)}"
                )
                if terminal_only and not state.is_terminal():
                    assert not any(rewards), f"{game}: terminal-reward game paid {rewards} mid-game"
            if state.is_terminal():
                break
            _step(state, rng)


def check_returns_and_length(game, seed: int = 0) -> None:
    """Returns within the declared bounds and sum; length within max_game_length."""
    rng = random.Random(seed)
    lo, hi = game.min_utility(), game.max_utility()
    zero_sum = game.get_type().utility in (
        pyspiel.GameType.Utility.ZERO_SUM,
        pyspiel.GameType.Utility.CONSTANT_SUM,
    )
    for _ in range(30):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            _step(state, rng)
        assert decisions <= game.max_game_length(), (
            f"{game}: {decisions} decisions in {state.history()}"
        )
        r = state.returns()
        assert all(lo - 1e-9 <= x <= hi + 1e-9 for x in r), (
            f"{game}: returns {r} outside [{lo}, {hi}]"
        )
        if zero_sum:
            assert abs(sum(r) - game.utility_sum()) < 1e-9, (
                f"{game}: returns {r} do not sum to {game.utility_sum()}"
            )


def check_illegal_refused(game, seed: int = 0) -> None:
    """Illegal or out-of-range actions raise and leave the state untouched."""
    rng = random.Random(seed)
    n = game.num_distinct_actions()
    # Past every id of both kinds: chance ids may run beyond the player ids.
    beyond = max(n, game.max_chance_outcomes()) + 7
    for state in playout_states(game, rng, 3):
        legal = set(_legal(state))
        candidates = [beyond, 2**40, True, 1.0, "0", None]
        if not state.is_chance_node():
            candidates += [a for a in range(n) if a not in legal][:3]
        before = _snapshot(state)
        for a in [-1, -2, *candidates]:
            try:
                # pyspiel refuses -1 (kInvalidAction) itself, printing to the
                # C++ stderr; the Python refusal of negative ids is tested here.
                if is_int(a) and 0 <= a < 2**31:
                    state.apply_action(a)
                else:
                    state._apply_action(a)
            except (ValueError, pyspiel.SpielError) as e:
                assert str(e), "an illegal action must be refused with a message"
            else:
                raise AssertionError(
                    f"{game}: illegal action {a!r} accepted, {_where(game, state)}"
                )
            assert _snapshot(state) == before, f"refused action {a!r} changed the state"


def check_seats_refused(game, seed: int = 0) -> None:
    """Every entry point that takes a player refuses one that is not a seat
    with a ValueError naming the seats, and changes nothing."""
    rng = random.Random(seed)
    n = game.num_players()
    observers = [game.make_py_observer(t) for t in all_obs_types()]
    bad_seats = [n, n + 7, -2, -5, True, 0.0, "0"]
    for state in playout_states(game, rng, 2, limit=20):
        before = _snapshot(state)
        calls = [
            state.information_state_string,
            state.information_state_tensor,
            state.observation_string,
            state.observation_tensor,
            state.legal_actions,
            state.player_return,
        ]
        calls += [o.string_from for o in observers] + [o.set_from for o in observers]
        for call in calls:
            for seat in bad_seats:
                args = (seat,) if call in calls[:6] else (state, seat)
                try:
                    call(*args)
                except ValueError as e:
                    assert f"0..{n - 1}" in str(e), f"{call.__name__}({seat!r}): {e}"
                else:
                    raise AssertionError(f"{game}: {call.__name__} accepted player {seat!r}")
        if state.current_player() < 0:
            # Nobody is to move: "no player" is refused alike on every game,
            # as a ValueError that is also a pyspiel.SpielError.
            for call in calls[:4]:
                try:
                    call()
                except ValueError as e:
                    assert isinstance(e, pyspiel.SpielError), f"{call.__name__}(): {e!r}"
                    assert "no player to move" in str(e), f"{call.__name__}(): {e}"
                else:
                    raise AssertionError(f"{game}: {call.__name__}() answered where nobody moves")
        if not state.is_terminal():
            try:
                state.resample_from_infostate(n, rng.random)
            except ValueError as e:
                assert f"0..{n - 1}" in str(e)
            else:
                raise AssertionError(f"{game}: resample_from_infostate accepted seat {n}")
        assert _snapshot(state) == before, "a refused seat changed the state"


def check_action_strings(game, seed: int = 0) -> None:
    """Every legal action has a unique string; string_to_action reads exactly
    the spellings action_to_string gives at that node (any case and spacing)
    and refuses every other action's name, listing the legal ones."""
    rng = random.Random(seed)
    for state in playout_states(game, rng, 3):
        if state.is_terminal():
            continue
        p = state.current_player()
        legal = _legal(state)
        strings = [state.action_to_string(p, a) for a in legal]
        assert len(set(strings)) == len(strings), f"duplicate action strings {strings}"
        for a, text in zip(legal, strings):
            assert state.string_to_action(text) == a, f"{text!r} reads back as another action"
            assert state.string_to_action(f"  {text.upper()} ") == a, text
        size = game.max_chance_outcomes() if state.is_chance_node() else game.num_distinct_actions()
        for a in [a for a in range(size) if a not in set(legal)][:5]:
            text = state.action_to_string(p, a)
            if text in strings:
                continue
            try:
                state.string_to_action(text)
            except ValueError as e:
                assert "legal: " in str(e), str(e)
            else:
                raise AssertionError(f"{game}: {text!r} read as an action where it is not legal")
        if state.is_chance_node():
            total = sum(pr for _, pr in state.chance_outcomes())
            assert abs(total - 1.0) < 1e-9, f"chance outcomes sum to {total}"


def check_review_round_trip(game, seed: int = 0) -> None:
    """review() fails before the end; its JSON rebuilds the same game."""
    rng = random.Random(seed)
    for _ in range(3):
        state = game.new_initial_state()
        try:
            state.review()
        except ValueError:
            pass
        else:
            raise AssertionError(f"{game}: review() accepted before the end")
        while not state.is_terminal():
            _step(state, rng)
        review = json.loads(json.dumps(state.review()))
        rebuilt = load_review(review)
        assert rebuilt.history() == state.history(), f"{game}: review rebuilt another game"
        assert rebuilt.returns() == state.returns()


CHECKS = [
    check_random_sim,
    check_serialization,
    check_shapes,
    check_routes_agree,
    check_clone_independent,
    check_info_states_consistent,
    check_perfect_recall,
    check_public_observer,
    check_resample,
    check_rewards_sum_to_returns,
    check_returns_and_length,
    check_illegal_refused,
    check_seats_refused,
    check_action_strings,
    check_review_round_trip,
]


def check_batched(game, seed: int = 0) -> None:
    """The batched engine the game's ruleset declares (Ruleset.batched) plays
    seeded random rows beside pyspiel, move for move (core.batched_testing):
    the mover's information-state tensor in float32 with both forms of every
    seat read at every step, then the observation form in its compact dtype;
    finished rows restart. AssertionError if the game declares none."""
    from fogboard_games.core import batched_testing, registry

    declared = registry.batched(game.get_type().short_name)
    assert declared is not None, f"{game}: its ruleset declares no batched engine"
    engine = registry.resolve(declared.engine)
    rng = np.random.default_rng(seed)
    env = engine(game, 8, seed, "information_state", None)
    batched_testing.play_checked(env, batched_testing.uniform_draw, rng, steps=40, restart=True)
    compact = "bool" if env._max_value("observation") == 1 else "uint8"
    env = engine(game, 4, seed + 1, "observation", compact)
    batched_testing.play_checked(env, batched_testing.uniform_draw, rng, steps=20, restart=True)


def declares_batched(game) -> bool:
    """Whether the game's ruleset declares a batched engine (check_batched runs)."""
    from fogboard_games.core import registry

    return registry.batched(game.get_type().short_name) is not None


def check_all(game, seed: int = 0, report=print) -> None:
    """Run every check on `game`, and check_batched where its ruleset declares
    a batched engine; `report(line)` after each one passed."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    checks = CHECKS + ([check_batched] if declares_batched(game) else [])
    for check in checks:
        check(game, seed)
        if report is not None:
            report(f"ok  {check.__name__}")
    if report is not None:
        report(f"{game}: all {len(checks)} conformance checks passed")


def batched_configs() -> list[tuple[str, str, dict]]:
    """(label, short name, params) of every preset whose ruleset declares a
    batched engine: where the conformance suite runs check_batched."""
    from fogboard_games.core.registry import PRESETS, batched

    return [
        (name, p.short_name, p.params)
        for name, p in sorted(PRESETS.items())
        if batched(p.short_name) is not None
    ]


def conformance_configs() -> list[tuple[str, str, dict]]:
    """(label, short name, params) for every preset and registered extra."""
    from fogboard_games.core.registry import CONFORMANCE_EXTRAS, PRESETS

    out = [(name, p.short_name, p.params) for name, p in sorted(PRESETS.items())]
    for short_name, extras in sorted(CONFORMANCE_EXTRAS.items()):
        for params in extras:
            label = short_name + "(" + ",".join(f"{k}={v}" for k, v in sorted(params.items())) + ")"
            out.append((label, short_name, params))
    return out
