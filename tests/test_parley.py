"""Parley (docs/parley.md): every scoring rule, talk and reactions, passes,
the hip limit, rewards, the information boundaries, the resampler, the
review and the parameters."""

from __future__ import annotations

import collections
import itertools
import json
import math
import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games.core.review import ReviewError
from fogboard_games.core.testing import every_view, piece
from fogboard_games.core.testing import legal_names as names
from fogboard_games.parley import rules
from fogboard_games.parley.review import truth_replay

SHORT = "fogboard_parley"


def game_of(**params):
    base = {"players": 3, "hp": 1, "rounds": 1, "passes": 0, "talk": False, "hip_limit": 0}
    base.update(params)
    return pyspiel.load_game(SHORT, base)


def deals(*cards):
    """Deal strings for cogs in seat order: cards are (friend, enemy) pairs."""
    return [f"deal C{c}: friend C{f} enemy C{e}" for c, (f, e) in enumerate(cards)]


def play(where, moves):
    """Apply action strings to a state (changed in place) or to a new state of a game."""
    state = where.new_initial_state() if isinstance(where, pyspiel.Game) else where
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


# ---- scoring --------------------------------------------------------------------------


def test_survivor_scores_3_enemy_kill_1_and_friend_of_the_survivor_1_even_when_out():
    game = game_of()
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0"])
    assert names(state) == ["shoot C1 head", "shoot C2 head"]  # hip_limit 0: no hip
    play(state, ["shoot C2 head"])  # C2 is C0's ENEMY: OUT, C0 keeps the gun
    assert state.current_player() == 0 and state.rewards() == [0.0, 0.0, 0.0]
    play(state, ["shoot C1 head"])  # the round ends with C0 standing
    # C0: 3 standing + 1 enemy kill (C1, its friend, is OUT); C1 and C2: OUT,
    # each scores 1 because its FRIEND C0 survived.
    assert state.is_terminal()
    assert state.returns() == [4.0, 1.0, 1.0] == state.rewards()


def test_only_a_fatal_shot_at_the_enemy_scores():
    game = game_of(hp=2)
    state = play(game, deals((1, 2), (2, 0), (1, 0)) + ["IT C0"])
    # C0 hits its ENEMY C2 but does not kill it: no point; C2 becomes IT.
    play(state, ["shoot C2 head"])
    assert state.current_player() == 2
    play(state, ["shoot C0 head", "shoot C1 head"])  # C0 hp 1, then C1 hp 1; C1 is IT
    play(state, ["shoot C0 head"])  # C1 kills its ENEMY C0 and keeps the gun
    assert state.current_player() == 1
    play(state, ["shoot C2 head"])
    # C1: 3 + enemy kill; C0 and C2: their FRIEND C1 survived.
    assert state.returns() == [1.0, 4.0, 1.0]


def test_two_survivors_a_survivor_can_score_5():
    game = game_of(players=4, survivors=2)
    cards = [(1, 2), (0, 3), (3, 1), (1, 0)]
    state = play(game, deals(*cards) + ["IT C0", "shoot C2 head", "shoot C3 head"])
    # C0 and C1 stand. C0: 3 + friend C1 + enemy C2 = 5; C1: 3 + friend C0 = 4;
    # C2: friend C3 is OUT = 0; C3: friend C1 stands = 1.
    assert state.is_terminal() and state.returns() == [5.0, 4.0, 0.0, 1.0]


def test_points_paid_at_the_round_end_stay_until_the_next_decision():
    game = game_of(rounds=2)
    first = deals((1, 2), (0, 2), (0, 1))
    state = play(game, first + ["IT C0", "shoot C2 head", "shoot C1 head"])
    assert state.is_chance_node() and state.rewards() == [4.0, 1.0, 1.0]
    assert state.returns() == [4.0, 1.0, 1.0]
    play(state, deals((2, 1), (2, 0), (1, 0)))
    assert state.rewards() == [4.0, 1.0, 1.0]  # still there through the chance nodes
    play(state, ["IT C1"])
    assert state.current_player() == 1 and state.rewards() == [4.0, 1.0, 1.0]
    play(state, ["shoot C0 head"])  # the decision after them: paid and gone
    assert state.rewards() == [0.0, 0.0, 0.0]
    play(state, ["shoot C2 head"])
    # Round 2: C1 stands (3) and killed its ENEMY C0 (1); C0 and C2 have FRIEND C2 / C1.
    assert state.rewards() == [0.0, 4.0, 1.0]
    assert state.returns() == [4.0, 5.0, 2.0]


def test_every_cog_revived_each_round_and_a_new_it_drawn():
    game = game_of(rounds=2, hp=2, passes=1)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C2", "pass", "shoot C0 head"])
    play(state, ["shoot C1 head", "shoot C0 head", "shoot C2 head", "shoot C1 head"])
    assert state.is_chance_node()
    m = state.truth
    assert m.round == 1 and m.hp == (2, 2, 2) and m.passes_used == (0, 0, 0)
    outcomes = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert outcomes == ["deal C0: friend C1 enemy C2", "deal C0: friend C2 enemy C1"]
    play(state, deals((2, 1), (2, 0), (0, 1)))
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "IT C0",
        "IT C1",
        "IT C2",
    ]


# ---- shots, passes and the hip limit ------------------------------------------------------


def test_hip_shot_is_chance_hit_one_in_three_and_the_target_becomes_it():
    game = game_of(hp=2, hip_limit=3)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "shoot C1 hip"])
    assert state.is_chance_node()
    odds = {state.action_to_string(a): p for a, p in state.chance_outcomes()}
    assert odds == {"hit": pytest.approx(1 / 3), "miss": pytest.approx(2 / 3)}
    missed = play(state.clone(), ["miss"])
    assert missed.current_player() == 1 and missed.truth.hp == (2, 2, 2)
    assert missed.truth.misses == 1
    hit = play(state.clone(), ["hit"])
    assert hit.current_player() == 1 and hit.truth.hp == (2, 1, 2) and hit.truth.misses == 0


def test_hip_limit_counts_missed_shots_and_then_only_head_and_pass_remain():
    game = game_of(hp=3, hip_limit=2, passes=1)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "shoot C1 hip", "hit"])
    # A hip hit is not a miss: hip-shots stay legal.
    assert "shoot C0 hip" in names(state)
    play(state, ["shoot C0 hip", "miss", "shoot C2 hip", "miss"])
    assert state.current_player() == 2
    assert names(state) == ["shoot C0 head", "shoot C1 head", "pass"]
    with pytest.raises(ValueError, match="hip-shots are over after 2 misses"):
        state.apply_action(state.truth.setup.hip + 1)  # shoot C1 hip


def test_passes_are_counted_per_cog_per_round():
    game = game_of(hp=2, passes=2, hip_limit=5)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "pass", "pass"])
    assert state.current_player() == 0 and "pass" not in names(state)
    with pytest.raises(ValueError, match="C0 has no passes left this round"):
        state.apply_action(state.truth.setup.pass_action)
    play(state, ["shoot C1 hip", "miss"])
    assert "pass" in names(state)  # C1 has its own passes
    assert piece(state, 2, "passes_left", pyspiel.IIGObservationType(perfect_recall=False)) == [
        [1, 0, 0],
        [0, 0, 1],
        [0, 0, 1],
    ]


def test_out_cogs_are_never_targets_and_never_speak():
    game = game_of(players=4, talk=True, max_reactions=3)
    state = play(game, deals((1, 2), (0, 2), (0, 1), (0, 1)) + ["IT C0", "silent"])
    play(state, ["shoot C1 head"])  # C1 OUT; C0 keeps the gun
    # Reactions: after C0 in seat order, living, not the next IT (C0): C2, C3.
    assert state.current_player() == 2
    assert names(state) == ["silent", "accuse C0", "accuse C3", "vouch C0", "vouch C3"]
    play(state, ["accuse C0"])
    assert state.current_player() == 3
    play(state, ["vouch C2"])
    assert state.current_player() == 0  # IT's line
    assert names(state) == ["silent", "accuse C2", "accuse C3", "vouch C2", "vouch C3"]
    play(state, ["accuse C2"])
    assert names(state) == ["shoot C2 head", "shoot C3 head"]


def test_reaction_order_starts_after_the_actor_and_skips_the_next_it():
    game = game_of(players=5, hp=2, talk=True, max_reactions=2, hip_limit=5, passes=1)
    cards = [(1, 2), (0, 2), (0, 1), (0, 1), (0, 1)]
    state = play(game, deals(*cards) + ["IT C3", "silent", "shoot C4 hip", "miss"])
    # C3 acted, C4 is the next IT: C0 then C1 react (C4 skipped), max 2.
    movers = []
    for _ in range(2):
        movers.append(state.current_player())
        play(state, ["silent"])
    assert movers == [0, 1] and state.current_player() == 4
    play(state, ["vouch C3", "pass"])  # a pass: C4 keeps the gun; C0 and C1 react
    movers = []
    for _ in range(2):
        movers.append(state.current_player())
        play(state, ["silent"])
    assert movers == [0, 1]
    play(state, ["silent", "shoot C3 head"])  # C3 is hit, becomes IT: C0, C1 react
    assert state.current_player() == 0
    play(state, ["silent", "silent", "silent", "shoot C4 head"])  # C3 hits C4: C4 IT
    # After C3: C4 is the next IT, so C0, C1 react.
    assert state.current_player() == 0
    turn = state.truth.turns[-1]
    assert (turn.it, turn.result, turn.hp) == (3, rules.HIT, (2, 2, 2, 1, 1))


def test_the_actor_reacts_last_when_the_table_is_small():
    game = game_of(players=3, hp=2, talk=True, max_reactions=2, hip_limit=5)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "silent", "shoot C1 hip", "miss"])
    # After C0: C1 (the next IT, skipped), C2, then C0 itself.
    movers = []
    for _ in range(2):
        movers.append(state.current_player())
        play(state, ["silent"])
    assert movers == [2, 0] and state.current_player() == 1


def test_no_reactions_after_the_round_ending_kill():
    game = game_of(talk=True, max_reactions=2)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "silent", "shoot C1 head"])
    play(state, ["silent"])  # one reactor: C2 (C0 is the next IT, C1 is OUT)
    play(state, ["accuse C2", "shoot C2 head"])
    assert state.is_terminal()


def test_talk_off_means_no_lines():
    game = game_of(hp=2, talk=False, max_reactions=2)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C1"])
    assert names(state) == ["shoot C0 head", "shoot C2 head"]


# ---- game facts ---------------------------------------------------------------------------


def longest_match(setup: rules.Setup) -> int:
    """The most decisions any match of `setup` has, by exhaustive search.
    What may follow depends on phase, hp, passes, misses, who holds the gun
    and who is to react, never on cards or on what a line said: the memo key."""
    memo: dict = {}

    def go(m) -> int:
        if m.mover == rules.TERMINAL:
            return 0
        key = (m.phase, m.round, m.hp, m.passes_used, m.misses, m.it, m.reactors, m.mover)
        key += (len(m.deals[-1]),)
        if key not in memo:
            best = 0
            for a in m.options:
                child = m.copy()
                assert child.play(a)
                best = max(best, go(child) + (m.mover >= 0))
            memo[key] = best
        return memo[key]

    return go(setup.new_match())


@pytest.mark.parametrize(
    "players,hp,passes,survivors,talk,reactions,hip_limit",
    [
        (3, 2, 0, 1, False, 0, 1),  # parley-tiny
        (3, 1, 2, 1, True, 2, 0),  # hp 1, no misses: only the first IT ever passes
        (3, 1, 1, 1, True, 1, 1),  # one miss hands the gun on once
        (4, 1, 1, 2, True, 3, 2),
        (4, 2, 1, 1, True, 2, 1),
        (3, 3, 1, 2, False, 0, 2),
    ],
)
def test_max_game_length_is_the_longest_match(
    players, hp, passes, survivors, talk, reactions, hip_limit
):
    setup = rules.Setup(players, hp, 1, passes, survivors, talk, reactions, hip_limit)
    assert longest_match(setup) == setup.max_game_length


def walk(game, visit):
    """Every node of the game tree, depth first; visit(state) at each."""

    def go(state):
        visit(state)
        if state.is_terminal():
            return
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            actions = state.legal_actions()
        for a in actions:
            go(state.child(a))

    go(game.new_initial_state())


def test_parley_tiny_tree_legal_actions_are_a_function_of_the_information_state():
    game = fogboard_games.load("parley-tiny")
    counts = collections.Counter()
    legal: dict = {}
    lo = [math.inf] * 3
    hi = [-math.inf] * 3

    def visit(state):
        counts["histories"] += 1
        if state.is_terminal():
            r = state.returns()
            for i in range(3):
                lo[i], hi[i] = min(lo[i], r[i]), max(hi[i], r[i])
        elif not state.is_chance_node():
            p = state.current_player()
            key = (p, state.information_state_string(p))
            value = (tuple(state.legal_actions()), tuple(state.information_state_tensor(p)))
            assert legal.setdefault(key, value) == value, key

    walk(game, visit)
    # The sizes docs/parley.md states.
    assert counts["histories"] == 52167 and len(legal) == 2034
    assert min(lo) == game.min_utility() == 0.0 and max(hi) == game.max_utility() == 4.0


def test_utility_bounds_are_reached_with_two_survivors():
    game = game_of(survivors=2)  # one cog OUT, whose FRIEND always stands: min 1
    seen = set()
    walk(game, lambda s: s.is_terminal() and seen.update(s.returns()))
    assert min(seen) == game.min_utility() == 1.0 and max(seen) == game.max_utility() == 5.0


def test_game_facts():
    game = fogboard_games.load("parley")
    n = 5
    assert game.num_players() == n and game.num_distinct_actions() == 4 * n + 2
    assert game.max_chance_outcomes() == n**3 + n + 2
    t = game.get_type()
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert (t.min_num_players, t.max_num_players) == (3, 8)
    assert game.min_utility() == 0.0 and game.max_utility() == 12.0
    # Per round: 60 turns at a full table (15 passes, 40 misses, 5 hits), each a
    # line, a shot or pass and 2 reactions; then 4 kills with 2, 2, 1, 0 reactions.
    assert game.max_game_length() == 3 * (60 * 4 + 4 + 4 + 3 + 2) == 759


def test_action_strings_name_no_index():
    game = fogboard_games.load("parley")
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0 * 25 + 3 * 5 + 4) == (
        "deal C0: friend C3 enemy C4"
    )
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 125 + 2) == "IT C2"
    assert [state.action_to_string(0, a) for a in (0, 3, 8, 13, 18, 21)] == [
        "silent",
        "accuse C2",
        "vouch C2",
        "shoot C2 head",
        "shoot C2 hip",
        "pass",
    ]
    play(state, deals((1, 2), (2, 3), (3, 4), (4, 0), (0, 1)) + ["IT C2"])
    with pytest.raises(ValueError, match="'shoot C2 head' is not a legal action of seat 2"):
        state.string_to_action("shoot C2 head")


# ---- what each cog knows ---------------------------------------------------------------------

TWIN_CARDS = [(1, 2), (3, 4), (0, 4), (1, 0), (2, 3)]


def twin_game():
    return pyspiel.load_game(SHORT, {"hip_limit": 5})


def test_head_or_hip_hit_differs_only_for_the_shooter():
    game = twin_game()
    start = deals(*TWIN_CARDS) + ["IT C0", "accuse C2"]
    rest = ["silent", "vouch C1", "silent"]
    head = play(game, start + ["shoot C2 head", *rest])
    hip = play(game, start + ["shoot C2 hip", "hit", *rest])
    assert str(head) != str(hip)
    for p in range(1, 5):
        assert every_view(head, p) == every_view(hip, p), p
    assert head.information_state_string(0) != hip.information_state_string(0)
    assert head.information_state_tensor(0) != hip.information_state_tensor(0)
    assert "C0 shoots C2 hip: hit, C2 hp 1" in hip.information_state_string(0)
    assert "C0 shoots C2: hit, C2 hp 1" in hip.information_state_string(3)


def test_a_pending_hip_shot_looks_to_the_table_like_the_decision_before_it():
    game = twin_game()
    before = play(game, deals(*TWIN_CARDS) + ["IT C0", "accuse C2"])
    aimed = play(before.clone(), ["shoot C3 hip"])
    assert aimed.is_chance_node()
    for p in range(1, 5):
        assert every_view(aimed, p) == every_view(before, p), p
    assert every_view(aimed, 0) != every_view(before, 0)
    assert "C0 shoots C3 hip: pending" in aimed.information_state_string(0)


def test_a_different_card_differs_only_for_its_cog():
    game = twin_game()
    other = list(TWIN_CARDS)
    other[3] = (2, 4)
    moves = ["IT C1", "vouch C4", "shoot C0 hip", "miss", "silent", "silent"]
    a = play(game, deals(*TWIN_CARDS) + moves)
    b = play(game, deals(*other) + moves)
    for p in (0, 1, 2, 4):
        assert every_view(a, p) == every_view(b, p), p
    assert a.information_state_string(3) != b.information_state_string(3)
    assert a.information_state_tensor(3) != b.information_state_tensor(3)
    assert a.observation_tensor(3) != b.observation_tensor(3)
    assert "C3 friend C1 enemy C0" in a.information_state_string(3)


def test_all_players_observers_show_every_card_and_aim():
    game = twin_game()
    state = play(game, deals(*TWIN_CARDS) + ["IT C0", "silent", "shoot C2 head"])
    observer = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        )
    )
    text = observer.string_from(state, 4)
    for c, (f, e) in enumerate(TWIN_CARDS):
        assert f"C{c} friend C{f} enemy C{e}" in text
    assert "C0 shoots C2 head: hit" in text


def test_points_are_public_and_cards_of_earlier_rounds_stay_private():
    game = game_of(rounds=2)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "shoot C2 head", "shoot C1 head"])
    play(state, deals((2, 1), (2, 0), (1, 0)) + ["IT C1"])
    text = state.information_state_string(1)
    assert "R1 C1 friend C0 enemy C2" in text and "points 4 1 1" in text
    assert "C0 friend" not in text and "R2 C1 friend C2 enemy C0" in text
    assert piece(state, 1, "points")[0] == [4.0, 1.0, 1.0]
    assert piece(state, 1, "cards")[0] == [[[1, 0, 0], [0, 0, 1]]]


def test_public_record_pieces_of_a_turn():
    game = twin_game()
    state = play(game, deals(*TWIN_CARDS) + ["IT C0", "accuse C2", "shoot C2 hip", "miss"])
    play(state, ["vouch C0", "silent"])  # C1, then C3 (C2 is the next IT)
    for p in (0, 3):
        assert piece(state, p, "turn_it")[0][0] == [1, 0, 0, 0, 0]
        assert piece(state, p, "turn_line")[0][0][3] == 1  # accuse C2 = 1 + 2
        assert piece(state, p, "turn_target")[0][0] == [0, 0, 1, 0, 0]
        assert piece(state, p, "turn_result")[0][0] == [0, 1]  # miss
        first, second = piece(state, p, "turn_reactions")[0][0]
        assert first[:5] == [0, 1, 0, 0, 0] and first[5 + 6] == 1  # C1: vouch C0
        assert second[:5] == [0, 0, 0, 1, 0] and second[5 + 0] == 1  # C3: silent
    assert piece(state, 0, "shots")[0][0] == [0, 1, 0, 0, 1, 0, 0]  # hip at C2
    assert piece(state, 3, "shots")[0][0] == [0] * 7


def test_turns_of_a_later_round_start_again_at_its_first_row():
    """A turn's row is its index within its round: round 1's turns fill rows
    0 and 1 of round 1 (read through the per-match cache and at the end)."""
    game = game_of(rounds=2)
    state = play(game, deals((1, 2), (0, 2), (0, 1)) + ["IT C0", "shoot C2 head", "shoot C1 head"])
    play(state, deals((2, 1), (2, 0), (1, 0)) + ["IT C1"])
    assert piece(state, 2, "turn_it")[1] == [[0, 1, 0], [0, 0, 0]]  # cached from here on
    play(state, ["shoot C0 head", "shoot C2 head"])
    assert state.is_terminal()
    for p in range(3):
        assert piece(state, p, "turn_it") == [[[1, 0, 0], [1, 0, 0]], [[0, 1, 0], [0, 1, 0]]]
        assert piece(state, p, "turn_target")[1] == [[1, 0, 0], [0, 0, 1]]  # C0, then C2


# ---- the resampler --------------------------------------------------------------------------


def consistent_worlds(game, target_state, player):
    """Every history with `player`'s information state at the same decision,
    with its chance probability times the uniform policy of the cogs (brute
    force). A hip-shot has a chance node a head-shot has not, so histories
    are matched by their number of decisions, not their length."""
    target = target_state.information_state_string(player)
    decisions = len(target_state.history()) - sum(
        1 for _ in chance_steps(game, target_state.history())
    )
    out = {}

    def go(state, made, weight):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                go(state.child(a), made, weight * p)
            return
        if made == decisions:
            if state.information_state_string(player) == target:
                out[tuple(state.history())] = weight
            return
        legal = state.legal_actions()
        for a in legal:
            go(state.child(a), made + 1, weight / len(legal))

    go(game.new_initial_state(), 0, 1.0)
    total = sum(out.values())
    return {h: w / total for h, w in out.items()}


def chance_steps(game, history):
    """The chance outcomes of a history."""
    state = game.new_initial_state()
    for a in history:
        if state.is_chance_node():
            yield a
        state.apply_action(a)


def test_resample_draws_consistent_worlds_in_proportion_to_their_chance():
    game = fogboard_games.load("parley-tiny")
    state = play(game, deals((1, 2), (0, 2), (1, 0)) + ["IT C0", "shoot C1 head", "shoot C2 hip"])
    play(state, ["miss"])
    # C1 sees C0's hit (head or hip), its own miss, its own cards; not C0's or C2's.
    assert state.current_player() == 2
    worlds = consistent_worlds(game, state, 1)
    # 2 x 2 deals of C0 and C2, times head or hip for C0's hit.
    assert len(worlds) == 8
    rng = random.Random(7)
    draws = collections.Counter(
        tuple(state.resample_from_infostate(1, rng.random).history()) for _ in range(4000)
    )
    assert set(draws) == set(worlds)
    for h, p in worlds.items():
        assert abs(draws[h] / 4000 - p) < 0.025, (h, p, draws[h])
    # Head : hip for the unseen hit is 3 : 1 (a hip-shot hits one time in three).
    head = sum(p for h, p in worlds.items() if h[4] == state.truth.setup.head + 1)
    assert head == pytest.approx(0.75)


def test_resample_keeps_cards_the_points_of_a_finished_round_show():
    game = game_of(rounds=2, hp=2)
    cards = [(1, 2), (0, 2), (0, 1)]
    moves = ["IT C0", "shoot C2 head", "shoot C1 head", "shoot C2 head", "shoot C0 head"]
    state = play(game, deals(*cards) + moves + ["shoot C1 head"])
    # C1 put C2 OUT, C0 put C1 OUT and stood: points 3 (C0's ENEMY is not C1),
    # 2 (C1: friend C0 stood, enemy C2 killed), 1 (C2: friend C0 stood).
    assert state.truth.points == ((3, 2, 1),)
    play(state, deals((2, 1), (2, 0), (1, 0)) + ["IT C1"])
    # Those points leave C1 one round-1 deal for each other cog; round 2 shows nothing.
    rng = random.Random(3)
    seen = collections.defaultdict(set)
    for _ in range(200):
        world = state.resample_from_infostate(1, rng.random).truth
        for c in range(3):
            seen[(0, c)].add(world.deals[0][c])
            seen[(1, c)].add(world.deals[1][c])
    assert seen[(0, 0)] == {(1, 2)} and seen[(0, 2)] == {(0, 1)} and seen[(0, 1)] == {(0, 2)}
    assert seen[(1, 0)] == {(1, 2), (2, 1)} and seen[(1, 2)] == {(0, 1), (1, 0)}
    assert seen[(1, 1)] == {(2, 0)}


def test_resample_midgame_at_the_default_preset():
    game = fogboard_games.load("parley")
    rng = random.Random(11)
    for _ in range(5):
        state = game.new_initial_state()
        for _ in range(rng.randrange(30, 200)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(*zip(*outcomes))[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        for q in range(5):
            world = state.resample_from_infostate(q, rng.random)
            assert world.information_state_string(q) == state.information_state_string(q)
            assert world.information_state_tensor(q) == state.information_state_tensor(q)
            assert world.legal_actions() == state.legal_actions() and world.current_player() == p


# ---- review ---------------------------------------------------------------------------------

REVIEW_MOVES = deals((1, 2), (2, 0), (1, 0)) + [
    "IT C0",
    "accuse C2",
    "shoot C2 hip",
    "hit",
    "silent",
    "vouch C1",  # C1, then C0 react (C2 is the next IT)
    "silent",
    "pass",
    "accuse C2",
    "silent",
    "silent",
    "shoot C0 head",
    "silent",
    "silent",
    "silent",
    "shoot C2 head",  # C0 kills C2 (its ENEMY) and keeps the gun: C1 reacts
    "silent",
    "silent",
    "shoot C1 head",  # C1 is hit and becomes IT: C0 reacts
    "silent",
    "silent",
    "shoot C0 head",  # C1 kills its ENEMY C0 and stands alone
]
REVIEW_GAME = {"players": 3, "hp": 2, "rounds": 1, "passes": 1, "max_reactions": 2, "hip_limit": 2}


def reviewed():
    state = play(pyspiel.load_game(SHORT, REVIEW_GAME), REVIEW_MOVES)
    assert state.is_terminal()
    return state, json.loads(json.dumps(state.review()))


def test_review_fields_and_round_trip():
    state, review = reviewed()
    (rnd,) = review["rounds"]
    assert rnd["cards"] == [
        {"cog": 0, "friend": 1, "enemy": 2},
        {"cog": 1, "friend": 2, "enemy": 0},
        {"cog": 2, "friend": 1, "enemy": 0},
    ]
    assert rnd["woke_it"] == 0
    assert rnd["turns"][0] == {
        "it": 0,
        "line": "accuse C2",
        "act": "shoot C2 hip",
        "target": 2,
        "aim": "hip",
        "result": "hit",
        "hp_after": [2, 2, 1],
        "reactions": [{"cog": 1, "line": "silent"}, {"cog": 0, "line": "vouch C1"}],
    }
    assert rnd["turns"][1]["act"] == "pass" and rnd["turns"][1]["aim"] is None
    assert rnd["survivors"] == [1] and rnd["points"] == [2, 4, 1]
    assert review["totals"] == [2, 4, 1] and review["returns"] == [2.0, 4.0, 1.0]
    rebuilt = fogboard_games.load_review(review)
    assert rebuilt.history() == state.history() and rebuilt.returns() == state.returns()


@pytest.mark.parametrize(
    "path,value,named",
    [
        (("rounds", 0, "cards", 1, "enemy"), 2, r"rounds\[0\]\.cards\[1\]\.enemy"),
        (("rounds", 0, "turns", 0, "aim"), "head", r"rounds\[0\]\.turns\[0\]\.aim"),
        (("rounds", 0, "turns", 2, "hp_after"), [2, 2, 2], r"turns\[2\]\.hp_after"),
        (("rounds", 0, "points"), [4, 1, 0], r"rounds\[0\]\.points"),
        (("actions", 5), "hit", "action 5"),
    ],
)
def test_review_refuses_tampering_naming_the_step(path, value, named):
    _, review = reviewed()
    target = review
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ReviewError, match=named):
        fogboard_games.load_review(review)


def test_truth_replay_shows_every_card_and_aim():
    _, review = reviewed()
    text = truth_replay(review).splitlines()
    assert text[0] == (
        "Round 1: C0 friend C1 enemy C2, C1 friend C2 enemy C0, C2 friend C1 enemy C0; "
        "C0 wakes up IT"
    )
    assert text[1] == (
        "  T1: C0 says accuse C2, shoots C2 hip: hit | hp 2 2 1 | C1 silent; C0 vouch C1"
    )
    assert text[-2] == "  survivors C1; points 2 4 1"
    assert text[-1] == "totals 2 4 1"


# ---- parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params,named",
    [
        ({"players": 2}, "'players' must be an int in 3..8"),
        ({"players": 9}, "'players' must be an int in 3..8"),
        ({"hp": 0}, "'hp' must be an int in 1..9"),
        ({"rounds": 11}, "'rounds' must be an int in 1..10"),
        ({"passes": 10}, "'passes' must be an int in 0..9"),
        ({"players": 3, "survivors": 3}, "'survivors' must be an int in 1..2"),
        ({"survivors": 0}, "'survivors' must be an int in 1..7"),
        ({"max_reactions": 8}, "'max_reactions' must be an int in 0..7"),
        ({"hip_limit": 101}, "'hip_limit' must be an int in 0..100"),
    ],
)
def test_parameters_refused_with_clear_errors(params, named):
    with pytest.raises((ValueError, pyspiel.SpielError), match=named):
        pyspiel.load_game(SHORT, params)


def test_presets():
    assert fogboard_games.PRESETS["parley-tiny"].params == {
        "players": 3,
        "hp": 2,
        "rounds": 1,
        "passes": 0,
        "talk": False,
        "hip_limit": 1,
    }
    assert fogboard_games.load("parley").get_parameters() == {
        "players": 5,
        "hp": 2,
        "rounds": 3,
        "passes": 3,
        "survivors": 1,
        "talk": True,
        "max_reactions": 2,
        "hip_limit": 40,
    }


def test_rules_run_without_pyspiel():
    setup = rules.Setup(3, 1, 1, 0, 1, False, 0, 0)
    match = setup.new_match()
    assert not match.play(setup.it_base)  # the deals come first
    for c, (f, e) in enumerate([(1, 2), (0, 2), (0, 1)]):
        assert match.play(setup.deal_outcome(c, f, e))
    assert match.play(setup.it_base + 2) and match.mover == 2
    # The glue hands play ints only (tests/test_core_checks.py); any int may come.
    assert not match.play(setup.head + 2) and not match.play(-1) and not match.play(99)
    assert match.play(setup.head + 0) and match.mover == 2 and match.hp == (0, 1, 1)


def test_docs_tables_match_the_code():
    import pathlib

    from fogboard_games.core.observer import piece_table
    from fogboard_games.parley.game import SPEC

    path = pathlib.Path(__file__).parent.parent / "docs" / "parley.md"
    text = path.read_text()
    assert SPEC.table() in text
    from test_docs import anchors  # the docs tests' own heading reader

    cited = {"rules", "parameters", "what-each-seat-knows", "tensor-pieces", "resampling"}
    assert cited | {"review", "presets", "game-length", "scoring"} <= anchors(path)
    for name in ("parley", "parley-tiny"):
        game = fogboard_games.load(name)
        assert piece_table(game.info_layout) in text and piece_table(game.obs_layout) in text
        assert f"{name}: information state ({game.information_state_tensor_size()} floats)" in text
        assert f"{name}: observation ({game.observation_tensor_size()} floats)" in text


def test_every_configuration_of_a_small_grid_plays_to_the_end():
    rng = random.Random(5)
    for players, talk, hp in itertools.product((3, 6), (False, True), (1, 3)):
        game = pyspiel.load_game(
            SHORT, {"players": players, "talk": talk, "hp": hp, "rounds": 2, "hip_limit": 3}
        )
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(*zip(*outcomes))[0])
            else:
                decisions += 1
                state.apply_action(rng.choice(state.legal_actions()))
        assert decisions <= game.max_game_length()
        # Two rounds scored, and a cog's returns are its points over them.
        points = state.truth.points
        assert len(points) == 2
        assert state.returns() == [float(sum(r[c] for r in points)) for c in range(players)]


@pytest.mark.parametrize("name", ["parley", "parley-tiny"])
def test_cached_strings_and_tensors_equal_a_fresh_encoding_at_every_step(name):
    """The Python route resumes a per-match cache: read at every step of whole
    matches (no clone, so the cache carries on), it must equal the observer's
    encoding from scratch for every cog (a copied match has no cache)."""
    from fogboard_games.core.observer import INFO_STATE

    game = fogboard_games.load(name)
    observer = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(2)
    steps = 0
    for _ in range(3 if name == "parley" else 40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(*zip(*outcomes))[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            seats = range(game.num_players()) if rng.random() < 0.3 else [rng.randrange(3)]
            for p in seats:
                observer.set_from(state, p)
                assert state.information_state_tensor(p) == observer.tensor.tolist()
                fresh = state.truth.copy()
                text = fresh.setup.encoder.describe(fresh, p, INFO_STATE)
                assert state.information_state_string(p) == text
                steps += 1
    assert steps > 100
