"""Information boundaries of the Fog-of-War boards (docs/boards.md).

What seat p may know: its own attempts in order with their results, its
sense results (recon hex), under `reveal-numturns` who made each ply, and,
at the end, the result. Never the opponent's attempts, never the
opponent's collisions on p's stones, never where the opponent sensed, never
(under reveal-nothing) how many plies the opponent made, and, under
reveal-nothing classical, not whose turn it is.

`knowledge(state, p)` writes that definition down from the true ply log;
the tests check that every seat-p output of our games (information state
string and tensor, observation string and tensor, and every single-seat
observer) is a function of it, and that the information state determines it
back (perfect recall, nothing lost). Histories come from bounded DFS and
seeded random playouts, plus pairs built on purpose: the same knowledge for
p reached with different opponent moves (a search over opponent moves that
keeps p's moves and p's observations), and the same opponent moves with a
different move by p.
"""

from __future__ import annotations

import collections
import random
import zlib

import pyspiel
import pytest
from open_spiel.python.observation import make_observation

import fogboard_games  # noqa: F401  (registers the games)
from fogboard_games.core.testing import play

SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
NONE = pyspiel.PrivateInfoType.NONE

CONFIGS = [
    "fogboard_phantom_ttt",
    "fogboard_phantom_ttt(abrupt=true)",
    "fogboard_phantom_ttt(obstype=reveal-numturns)",
    "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns,max_plies=7)",
    "fogboard_dark_hex(board_size=2)",
    "fogboard_dark_hex(board_size=3)",
    "fogboard_dark_hex(board_size=3,abrupt=true)",
    "fogboard_dark_hex(board_size=3,obstype=reveal-numturns)",
    "fogboard_dark_hex(board_size=4,abrupt=true,obstype=reveal-numturns,max_plies=9)",
    "fogboard_dark_hex(board_size=4)",
    "fogboard_dark_hex(board_size=5,abrupt=true)",
    "fogboard_recon_hex(board_size=2,sense=1)",
    "fogboard_recon_hex(board_size=3,sense=1)",
    "fogboard_recon_hex(board_size=3,sense=2)",
    "fogboard_recon_hex(board_size=3,sense=2,obstype=reveal-numturns)",
    "fogboard_recon_hex(board_size=3,sense=3,max_plies=7)",
    "fogboard_recon_hex",
]


def numturns(game) -> bool:
    return game.get_parameters()["obstype"] == "reveal-numturns"


def classical(game) -> bool:
    p = game.get_parameters()
    return "sense" not in p and not p["abrupt"]


# ---- what a seat may know, from the true ply log -----------------------------


def trace(state, p) -> list:
    """Seat p's own observations, in order: its senses and attempts with results."""
    m = state.truth
    out = []
    for who, anchor, seen, cell, result in m.plies:
        if who == p:
            if anchor >= 0:
                out.append(("sense", anchor, seen))
            out.append(("attempt", cell, result))
    if m.sensed is not None and m.mover == p and m.ending is None:
        out.append(("sense",) + tuple(m.sensed))
    return out


def knowledge(state, p) -> tuple:
    """Everything seat p may know at this state (docs/boards.md#what-each-seat-knows)."""
    m = state.truth
    movers = tuple(ply[0] for ply in m.plies) if numturns(state.get_game()) else None
    outcome = (m.ending, m.winner) if m.ending is not None else None
    return (tuple(trace(state, p)), movers, outcome)


def public_knowledge(state) -> tuple:
    m = state.truth
    movers = tuple(ply[0] for ply in m.plies) if numturns(state.get_game()) else None
    outcome = (m.ending, m.winner) if m.ending is not None else None
    return (movers, outcome)


class Views:
    """Every seat-p output we promise depends on p's knowledge only."""

    def __init__(self, game):
        self.private = [
            (
                recall,
                public,
                make_observation(
                    game,
                    pyspiel.IIGObservationType(
                        perfect_recall=recall, public_info=public, private_info=SINGLE
                    ),
                ),
            )
            for recall in (False, True)
            for public in (False, True)
        ]
        self.public = [
            make_observation(
                game,
                pyspiel.IIGObservationType(
                    perfect_recall=recall, public_info=True, private_info=NONE
                ),
            )
            for recall in (False, True)
        ]

    def of(self, state, p) -> tuple:
        out = [
            state.information_state_string(p),
            tuple(state.information_state_tensor(p)),
            state.observation_string(p),
            tuple(state.observation_tensor(p)),
        ]
        for _, _, obs in self.private:
            obs.set_from(state, p)
            out.append(obs.tensor.tobytes())
            out.append(obs.string_from(state, p))
        return tuple(out)

    def public_of(self, state, p) -> tuple:
        out = []
        for obs in self.public:
            obs.set_from(state, p)
            out.append(obs.tensor.tobytes())
            out.append(obs.string_from(state, p))
        return tuple(out)


VIEW_NAMES = ["info string", "info tensor", "obs string", "obs tensor"] + [
    f"{kind} recall={r} public={pub}"
    for r in (False, True)
    for pub in (False, True)
    for kind in ("observer tensor", "observer string")
]


def assert_same_views(a, b, what: str) -> None:
    for name, x, y in zip(VIEW_NAMES, a, b, strict=True):
        assert x == y, f"{what}: {name} differs:\n{x!r}\n{y!r}"


# ---- histories ---------------------------------------------------------------


def histories(game, *, depth: int, playouts: int, seed: int):
    """States of a bounded DFS from the root, then of seeded random playouts."""

    def dfs(state, d):
        yield state
        if d and not state.is_terminal():
            for a in state.legal_actions():
                yield from dfs(state.child(a), d - 1)

    yield from dfs(game.new_initial_state(), depth)
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            yield state.clone()


def replay(game, actions):
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


# Bounded DFS depth and random playouts per configuration: small games get
# deep trees, where information states are reached by many histories.
def budget(game) -> tuple[int, int]:
    cells = game.get_parameters().get("board_size", 3) ** 2
    sense = "sense" in game.get_parameters()
    if cells <= 4:
        return (6 if sense else 7), 20
    if cells <= 9:
        return (4 if sense else 3), 40
    return 2, 25


@pytest.mark.parametrize("game_string", CONFIGS)
def test_outputs_are_a_function_of_the_seats_knowledge(game_string):
    """Same knowledge -> same outputs; different knowledge -> different info states."""
    game = pyspiel.load_game(game_string)
    views = Views(game)
    depth, playouts = budget(game)
    by_knowledge = {}  # (p, knowledge) -> (views, first history)
    info_to_knowledge = {}  # (p, info string) -> knowledge
    tensor_to_knowledge = {}  # (p, info tensor) -> knowledge
    shared = collections.Counter()
    movers_seen = collections.defaultdict(set)
    public_by_key = {}
    for state in histories(game, depth=depth, playouts=playouts, seed=3):
        h = tuple(state.history())
        for p in (0, 1):
            k = knowledge(state, p)
            v = views.of(state, p)
            first = by_knowledge.setdefault((p, k), (v, h))
            if first[1] != h:
                assert_same_views(first[0], v, f"seat {p}, histories {first[1]} and {h}")
                shared[p] += 1
            if not state.is_terminal():
                movers_seen[(p, k)].add(state.current_player())
            known = info_to_knowledge.setdefault((p, v[0]), k)
            assert known == k, f"seat {p}: one information string for two knowledges ({h})"
            known = tensor_to_knowledge.setdefault((p, v[1]), k)
            assert known == k, f"seat {p}: one information tensor for two knowledges ({h})"
            # The public-only observers: the same for both seats, and a
            # function of the public knowledge alone.
            pub = views.public_of(state, p)
            assert pub == views.public_of(state, 1 - p)
            first_pub = public_by_key.setdefault(public_knowledge(state), pub)
            assert first_pub == pub, f"public observation depends on more than public info ({h})"
    # The checks above only bite on knowledge reached by several histories.
    assert shared[0] >= 20 and shared[1] >= 20, shared
    if classical(game) and not numturns(game):
        # Reveal-nothing classical: some information state of each seat is
        # shared by a history where it moves and one where the opponent does.
        for p in (0, 1):
            assert any(len(ms) > 1 for (q, _), ms in movers_seen.items() if q == p)


# ---- pairs built on purpose -------------------------------------------------------


def decisions(game, actions) -> list[tuple[int, int]]:
    """(player, action) for every decision of a history."""
    state = game.new_initial_state()
    out = []
    for a in actions:
        out.append((state.current_player(), a))
        state.apply_action(a)
    return out


def opponent_twin(game, actions, p, rng, node_budget=3000):
    """A different history with the same knowledge for seat p, or None.

    Depth-first search that replays p's own decisions in order and tries the
    opponent's legal moves in random order, pruning as soon as p's
    observations (or, under reveal-numturns, the ply movers) leave those of
    the original; reveal-nothing lets the number of opponent plies vary.
    """
    target_state = replay(game, actions)
    target = knowledge(target_state, p)
    target_trace = list(target[0])
    target_movers = target[1]
    own = [a for who, a in decisions(game, actions) if who == p]
    original = tuple(actions)
    nodes = 0

    def consistent(state) -> bool:
        t = trace(state, p)
        if t != target_trace[: len(t)]:
            return False
        if target_movers is not None:
            movers = tuple(ply[0] for ply in state.truth.plies)
            if movers != target_movers[: len(movers)]:
                return False
        return len(state.history()) <= game.max_game_length()

    def search(state, k, path):
        nonlocal nodes
        nodes += 1
        if nodes > node_budget:
            return None
        if k == len(own) and path != original and knowledge(state, p) == target:
            return path
        if state.is_terminal():
            return None
        if state.current_player() == p:
            if k == len(own) or own[k] not in state.legal_actions():
                return None
            child = state.child(own[k])
            return search(child, k + 1, path + (own[k],)) if consistent(child) else None
        moves = state.legal_actions()
        rng.shuffle(moves)
        for a in moves:
            child = state.child(a)
            if consistent(child):
                found = search(child, k, path + (a,))
                if found is not None:
                    return found
        return None

    return search(game.new_initial_state(), 0, ())


def random_prefix(game, rng):
    """A random non-terminal history of up to about one move per cell."""
    state = game.new_initial_state()
    cells = game.get_parameters().get("board_size", 3) ** 2
    length = rng.randrange(1, min(game.max_game_length(), cells + 2))
    while not state.is_terminal() and len(state.history()) < length:
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        state = replay(game, state.history()[:-1])
    return list(state.history())


@pytest.mark.parametrize("game_string", CONFIGS)
def test_opponent_moves_p_cannot_see_do_not_change_ps_views(game_string):
    game = pyspiel.load_game(game_string)
    views = Views(game)
    rng = random.Random(zlib.crc32(game_string.encode()))
    found = differing_opponent = different_length = hidden_before = 0
    for trial in range(24):
        actions = random_prefix(game, rng)
        p = trial % 2
        twin = opponent_twin(game, actions, p, rng)
        if twin is None:
            continue
        found += 1
        a, b = replay(game, actions), replay(game, twin)
        # The twin differs only in the opponent's decisions.
        mine_a = [x for who, x in decisions(game, actions) if who == p]
        mine_b = [x for who, x in decisions(game, twin) if who == p]
        assert mine_a == mine_b
        if [x for who, x in decisions(game, actions) if who != p] != [
            x for who, x in decisions(game, twin) if who != p
        ]:
            differing_opponent += 1
        different_length += len(actions) != len(twin)
        # The interesting twins change opponent moves made before p's last
        # move, so p's later attempts and senses met a different board.
        hidden_before += _opponent_before_last_own(game, actions, p) != _opponent_before_last_own(
            game, twin, p
        )
        what = f"seat {p}: {actions} vs {twin}"
        assert_same_views(views.of(a, p), views.of(b, p), what)
    assert found >= 12, f"only {found} twins found"
    assert differing_opponent >= 10
    params = game.get_parameters()
    if params.get("sense") != params.get("board_size"):
        # (A sense of the whole board shows every opponent stone: then only
        # the opponent's moves after p's last sense can change unseen.)
        assert hidden_before >= 5
    if classical(game) and not numturns(game):
        assert different_length > 0  # hidden numbers of opponent collisions


def _opponent_before_last_own(game, actions, p) -> list[int]:
    dec = decisions(game, actions)
    last = max((i for i, (who, _) in enumerate(dec) if who == p), default=-1)
    return [a for who, a in dec[:last] if who != p]


def own_move_variant(game, actions, p, rng):
    """The same history with one of p's decisions changed, replayed on after it."""
    dec = decisions(game, actions)
    mine = [i for i, (who, _) in enumerate(dec) if who == p]
    if not mine:
        return None
    rng.shuffle(mine)
    for i in mine:  # a decision of p's that had an alternative
        state = replay(game, actions[:i])
        others = [a for a in state.legal_actions() if a != actions[i]]
        if others:
            break
    else:
        return None
    state.apply_action(rng.choice(others))
    for a in actions[i + 1 :]:
        if state.is_terminal():
            break
        if a in state.legal_actions():
            state.apply_action(a)
    return list(state.history())


@pytest.mark.parametrize("game_string", CONFIGS)
def test_ps_own_moves_change_ps_information_state(game_string):
    game = pyspiel.load_game(game_string)
    rng = random.Random(len(game_string))
    checked = 0
    for trial in range(40):
        actions = random_prefix(game, rng)
        p = trial % 2
        variant = own_move_variant(game, actions, p, rng)
        if variant is None:
            continue
        a, b = replay(game, actions), replay(game, variant)
        assert knowledge(a, p) != knowledge(b, p)
        assert a.information_state_string(p) != b.information_state_string(p), (actions, variant)
        assert a.information_state_tensor(p) != b.information_state_tensor(p), (actions, variant)
        checked += 1
    assert checked >= 20


# ---- hand-written cases --------------------------------------------------------------


SAME = [
    # (game, seat, history A, history B): seat's views must be identical.
    # The opponent's attempt is hidden.
    ("fogboard_phantom_ttt", 1, ["a1", "b2"], ["c3", "b2"]),
    ("fogboard_dark_hex(board_size=4,abrupt=true)", 1, ["a1", "b2"], ["d4", "b2"]),
    # The opponent's collision on p's stone is hidden (classical, reveal-nothing).
    ("fogboard_phantom_ttt", 0, ["a1", "c3"], ["a1", "a1", "c3"]),
    ("fogboard_dark_hex(board_size=3)", 0, ["b2", "a1"], ["b2", "b2", "a1"]),
    # ... and how many collisions: two against none.
    (
        "fogboard_dark_hex(board_size=3)",
        0,
        ["b2", "a1", "c2", "a3"],
        ["b2", "a1", "c2", "b2", "c2", "a3"],
    ),
    # Abrupt: a collision on p's stone looks like any opponent ply.
    ("fogboard_phantom_ttt(abrupt=true)", 0, ["a1", "a1"], ["a1", "c3"]),
    ("fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns)", 0, ["a1", "a1"], ["a1", "c3"]),
    # Whose turn it is, under reveal-nothing classical: root vs after X's ply for O,
    # and X's view while O is still to move vs after O placed.
    ("fogboard_phantom_ttt", 1, [], ["a1"]),
    ("fogboard_phantom_ttt", 0, ["a1"], ["a1", "b2"]),
    ("fogboard_phantom_ttt", 0, ["a1", "a1"], ["a1", "a1", "b2"]),
    ("fogboard_dark_hex(board_size=3)", 1, ["a1", "b1"], ["a1", "b1", "b1"]),
    # Recon: where the opponent sensed and what it found is hidden.
    (
        "fogboard_recon_hex(board_size=3)",
        0,
        ["sense a1", "a1", "sense a1", "c3"],
        ["sense a1", "a1", "sense b2", "c3"],
    ),
    (
        "fogboard_recon_hex(board_size=3,sense=1,obstype=reveal-numturns)",
        0,
        ["sense a1", "a1", "sense a1", "c3"],
        ["sense a1", "a1", "sense c3", "c3"],
    ),
    # The opponent's sense mid-ply is not a ply: nothing for p yet.
    (
        "fogboard_recon_hex(board_size=3,obstype=reveal-numturns)",
        0,
        ["sense a1", "a1"],
        ["sense a1", "a1", "sense b2"],
    ),
    # The opponent's stone proven by its sense is hidden from the sensed seat.
    (
        "fogboard_recon_hex(board_size=3,sense=1)",
        0,
        ["sense a1", "a1", "sense a1", "b2"],
        ["sense a1", "a1", "sense b1", "b2"],
    ),
    # Recon: the opponent's collision on p's stone is hidden.
    (
        "fogboard_recon_hex(board_size=3,sense=1)",
        0,
        ["sense a1", "a1", "sense c3", "a1"],
        ["sense a1", "a1", "sense c3", "c3"],
    ),
]


@pytest.mark.parametrize("game_string,seat,a,b", SAME)
def test_hand_written_pairs_look_the_same(game_string, seat, a, b):
    game = pyspiel.load_game(game_string)
    views = Views(game)
    sa, sb = play(game_string, a), play(game_string, b)
    assert sa.history() != sb.history()
    assert_same_views(views.of(sa, seat), views.of(sb, seat), f"seat {seat}: {a} vs {b}")


DIFFERENT = [
    # Reveal-numturns shows the number and order of the opponent's plies.
    ("fogboard_phantom_ttt(obstype=reveal-numturns)", 0, ["a1", "c3"], ["a1", "a1", "c3"]),
    ("fogboard_phantom_ttt(obstype=reveal-numturns)", 1, [], ["a1"]),
    # p's own result: its attempt at b2 placed vs occupied.
    ("fogboard_dark_hex(board_size=3)", 1, ["a1", "b2"], ["b2", "b2"]),
    ("fogboard_dark_hex(board_size=3,abrupt=true)", 1, ["a1", "b2"], ["b2", "b2"]),
    # p's own attempt cell.
    ("fogboard_phantom_ttt", 0, ["a1"], ["b1"]),
    # p's own sense anchor, and its result.
    ("fogboard_recon_hex(board_size=3)", 0, ["sense a1"], ["sense b2"]),
    (
        "fogboard_recon_hex(board_size=3,sense=1)",
        1,
        ["sense a1", "a1", "sense a1"],
        ["sense a1", "b1", "sense a1"],
    ),
    # A sense under way is part of the mover's own knowledge.
    ("fogboard_recon_hex(board_size=3)", 0, [], ["sense a1"]),
]


@pytest.mark.parametrize("game_string,seat,a,b", DIFFERENT)
def test_hand_written_pairs_look_different(game_string, seat, a, b):
    sa, sb = play(game_string, a), play(game_string, b)
    assert sa.information_state_string(seat) != sb.information_state_string(seat)
    assert sa.information_state_tensor(seat) != sb.information_state_tensor(seat)


def test_reveal_nothing_classical_hides_whose_turn_it_is():
    """X's information state is the same while O still moves and once X moves."""
    game_string = "fogboard_dark_hex(board_size=3)"
    waiting = play(game_string, ["a1", "a1"])  # O collided: O to move again
    moving = play(game_string, ["a1", "a1", "b2"])  # O placed: X to move
    assert (waiting.current_player(), moving.current_player()) == (1, 0)
    for f in ("information_state_string", "observation_string"):
        assert getattr(waiting, f)(0) == getattr(moving, f)(0)
    assert waiting.information_state_tensor(0) == moving.information_state_tensor(0)
    assert waiting.observation_tensor(0) == moving.observation_tensor(0)
    # The same pair under reveal-numturns does show the ply count.
    game_string = "fogboard_dark_hex(board_size=3,obstype=reveal-numturns)"
    waiting = play(game_string, ["a1", "a1"])
    moving = play(game_string, ["a1", "a1", "b2"])
    assert waiting.information_state_string(0) != moving.information_state_string(0)


@pytest.mark.parametrize("game_string", CONFIGS)
@pytest.mark.parametrize("recall", [False, True])
def test_public_observer_is_the_same_for_both_seats(game_string, recall):
    game = pyspiel.load_game(game_string)
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=recall, public_info=True, private_info=NONE)
    )
    rng = random.Random(2)
    ends = 0
    for _ in range(15):
        state = game.new_initial_state()
        while True:
            outs = []
            for p in (0, 1):
                public.set_from(state, p)
                outs.append((public.tensor.tobytes(), public.string_from(state, p)))
            assert len(set(outs)) == 1, (state.history(), outs)
            if not numturns(game) and not state.is_terminal():
                # Reveal-nothing: nothing public but the parameters.
                assert not public.tensor.any()
            if state.is_terminal():
                ends += 1
                assert public.tensor.any()  # the result is public at the end
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert ends == 15
