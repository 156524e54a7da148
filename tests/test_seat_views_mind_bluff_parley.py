"""The heuristics' seat views of Mind Bluff and Parley, read from the seat's
information-state pieces, equal the views read from the true match the way
the bots read them before (the references below): at every decision of
seeded playouts, for every seat, on every preset and other configurations.
Equal views give equal moves: the bots decide from the view, the legal
actions and the seat's information-state string only."""

from __future__ import annotations

import random

import pyspiel
import pytest

import fogboard_games
from fogboard_games import bots
from fogboard_games.mind_bluff import bots as mind_bots
from fogboard_games.mind_bluff import rules as mind_rules
from fogboard_games.parley import bots as parley_bots


def mind_bluff_reference(state, seat: int) -> mind_bots.SeatView:
    """The Mind Bluff view as the bot read it from the truth."""
    m = mind_bots.current_game(state.truth)
    s = m.setup
    turns = mind_rules.surviving_turns(m)
    cands = tuple(mind_rules.eat_candidates(s, t, (seat,)) for t in turns)
    last = m.turns[-1] if m.turns else None
    claim = last.claim if last is not None else None
    forced = last.forced if last is not None else None
    return mind_bots.SeatView(s, seat, m.phase, cands, claim, forced)


def parley_reference(state, seat: int) -> parley_bots.SeatView:
    """The Parley view as the bot read it from the truth."""
    m = state.truth
    s = m.setup
    friend, enemy = m.deals[m.round][seat]
    accusers = set()
    for t in m.turns:
        if t.round != m.round:
            continue
        lines = ([(t.it, t.line)] if t.line is not None else []) + list(t.reactions)
        for speaker, line in lines:
            if line == s.accuse + seat:
                accusers.add(speaker)
    return parley_bots.SeatView(s, seat, m.phase, friend, enemy, m.hp, frozenset(accusers))


def decisions(game, playouts: int, seed: int):
    """Every decision state of seeded playouts, each move the heuristic's or
    a uniform legal one (half and half, by seat and playout), chance by its odds."""
    rng = random.Random(seed)
    n = game.num_players()
    for g in range(playouts):
        heuristic = [bots.make_bot("heuristic", game, p, seed=g) for p in range(n)]
        guided = [rng.random() < 0.5 for _ in range(n)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, odds)[0])
                continue
            yield state
            p = state.current_player()
            if guided[p]:
                state.apply_action(heuristic[p].step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def assert_views_match(game, view, reference, playouts: int, seed: int = 0) -> int:
    """Every seat's view equals the reference at every decision; the count compared."""
    compared = 0
    for state in decisions(game, playouts, seed):
        for seat in range(game.num_players()):
            want = reference(state, seat)
            assert view(state, seat) == want, (str(game), state.history(), seat)
            compared += 1
    return compared


def presets(short: str) -> list[str]:
    return sorted(n for n, p in fogboard_games.PRESETS.items() if p.short_name == short)


MIND_BLUFF = [
    *presets("fogboard_mind_bluff"),
    *presets("fogboard_mind_bluff_series"),
    "fogboard_mind_bluff(start=9,start_spread=3,max_eat=1)",
    "fogboard_mind_bluff(start=7,start_spread=2,max_eat=2,first_player=-1)",
    "fogboard_mind_bluff(start=12,start_spread=5,max_eat=3,first_player=1)",
    "fogboard_mind_bluff(start=2,max_eat=3)",
    "fogboard_mind_bluff(start=5,first_player=-1,max_eat=2)",
    "fogboard_mind_bluff_series(max_eat=1)",
    "fogboard_mind_bluff_series(max_eat=2)",
]

PARLEY = [
    *presets("fogboard_parley"),
    "fogboard_parley(players=3,hp=3,passes=9,rounds=2)",
    "fogboard_parley(players=4,hp=1,rounds=2,passes=1,hip_limit=2)",
    "fogboard_parley(players=4,rounds=3,talk=False,hip_limit=3)",
    "fogboard_parley(players=5,survivors=2,rounds=2,passes=1,hip_limit=4)",
    "fogboard_parley(players=6,survivors=3,rounds=2,passes=2,max_reactions=5)",
    "fogboard_parley(players=7,hp=1,rounds=2,passes=0,max_reactions=0)",
    "fogboard_parley(players=8,hp=1,rounds=1,passes=0,max_reactions=3,hip_limit=3)",
    "fogboard_parley(players=8,hp=2,rounds=2,survivors=7,max_reactions=7)",
    "fogboard_parley(players=3,hp=3,rounds=2,survivors=2,max_reactions=0,hip_limit=0)",
]


def load(name: str):
    return fogboard_games.load(name) if name in fogboard_games.PRESETS else pyspiel.load_game(name)


@pytest.mark.parametrize("name", MIND_BLUFF)
def test_mind_bluff_view_is_the_view_from_the_truth(name):
    game = load(name)
    playouts = 6 if "series" in name else 20
    assert assert_views_match(game, mind_bots.seat_view, mind_bluff_reference, playouts) > 50


@pytest.mark.parametrize("name", PARLEY)
def test_parley_view_is_the_view_from_the_truth(name):
    game = load(name)
    assert assert_views_match(game, parley_bots.seat_view, parley_reference, 4) > 50


def test_the_configurations_reach_what_the_views_read():
    """The playouts above meet the facts each view reads: every kind of
    knowledge of another seat's eat, and accusations by lines and reactions."""
    seen = set()
    for name in MIND_BLUFF:
        game = load(name)
        for state in decisions(game, 6 if "series" in name else 20, 0):
            turns = mind_rules.surviving_turns(mind_bots.current_game(state.truth))
            for seat in (0, 1):
                view = mind_bots.seat_view(state, seat)
                # Another seat's eats only: the seat's own are always known.
                seen.update(
                    ("fixed" if len(c) == 1 else "narrowed" if len(c) < view.max_eat else "open")
                    for c, turn in zip(view.cands, turns)
                    if turn.actor != seat
                )
                seen.add(("phase", view.phase))
                seen.add(("forced", view.forced))
                if "series" in name:
                    seen.add(("series game", len(state.truth.past) + 1))
    assert {"fixed", "narrowed", "open", ("forced", True), ("forced", False)} <= seen
    assert {("phase", p) for p in (mind_rules.EAT, mind_rules.CLAIM, mind_rules.RESPOND)} <= seen
    assert {("series game", g) for g in (1, 2, 3)} <= seen
    accused = set()
    for name in PARLEY:
        game = load(name)
        for state in decisions(game, 4, 0):
            m = state.truth
            view = parley_bots.seat_view(state, m.mover)
            accused.add((view.phase, bool(view.accusers)))
            accusation = m.setup.accuse + m.mover
            by_reaction = {
                speaker
                for t in m.turns
                if t.round == m.round
                for speaker, line in t.reactions
                if line == accusation
            }
            if by_reaction:  # the mover was accused in a reaction this round
                accused.add(("by reaction", by_reaction <= view.accusers))
    assert {(parley_bots.rules.LINE, True), (parley_bots.rules.ACT, True)} <= accused
    assert {(parley_bots.rules.REACT, True), ("by reaction", True)} <= accused


def wrong_eats(state, seat: int) -> mind_bots.SeatView:
    """A view that counts a BLUFF verdict as fixing the eat (a wrong reading)."""
    view = mind_bots.seat_view(state, seat)
    m = mind_bots.current_game(state.truth)
    cands = list(view.cands)
    for t, turn in enumerate(mind_rules.surviving_turns(m)):
        if turn.actor != seat and turn.verdict is False:
            cands[t] = (turn.claim,)
    return mind_bots.SeatView(view.setup, seat, view.phase, tuple(cands), view.claim, view.forced)


def last_round_accusers(state, seat: int) -> parley_bots.SeatView:
    """A view that keeps the accusers of every round (a wrong reading)."""
    view = parley_bots.seat_view(state, seat)
    m = state.truth
    accusers = set(view.accusers)
    for t in m.turns:
        for speaker, line in ([(t.it, t.line)] if t.line is not None else []) + list(t.reactions):
            if line == m.setup.accuse + seat:
                accusers.add(speaker)
    return parley_bots.SeatView(
        view.setup, seat, view.phase, view.friend, view.enemy, view.hp, frozenset(accusers)
    )


def test_the_comparison_catches_a_wrong_view():
    with pytest.raises(AssertionError):
        assert_views_match(load("mind-bluff"), wrong_eats, mind_bluff_reference, 20)
    with pytest.raises(AssertionError):
        assert_views_match(load("parley"), last_round_accusers, parley_reference, 4)
