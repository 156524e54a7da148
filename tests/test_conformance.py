"""Every registered game and preset passes the shared conformance suite."""

import pyspiel
import pytest

import fogboard_games
from fogboard_games import batch
from fogboard_games.core import batched_testing, testing

CONFIGS = testing.conformance_configs()
BATCHED = testing.batched_configs()


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda c: c.__name__[6:])
@pytest.mark.parametrize("label,short_name,params", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_conformance(label, short_name, params, check):
    check(pyspiel.load_game(short_name, params), seed=len(label))


@pytest.mark.parametrize("label,short_name,params", BATCHED, ids=[c[0] for c in BATCHED])
def test_batched_engine_agrees_with_pyspiel(label, short_name, params):
    testing.check_batched(pyspiel.load_game(short_name, params), seed=len(label))


def test_every_game_shipped_with_a_batched_engine_is_crosschecked():
    # (a new engine is checked the day its ruleset declares it)
    declared = {n for n, cls in fogboard_games.GAMES.items() if cls.ruleset.batched is not None}
    assert {"fogboard_dark_hex", "fogboard_mind_bluff", "fogboard_parley"} <= declared
    assert {c[1] for c in BATCHED} == declared
    assert batch.FORMS == batched_testing.FORMS


def test_the_batched_check_fails_on_an_engine_that_breaks_the_rules(monkeypatch):
    # An engine whose legal mask forgets an action is caught at the first step.
    engine = type(batch.make("phantom-ttt-3", batch_size=1))
    legal = engine._legal_mask

    def forgetful(self):
        mask = legal(self).copy()
        mask[:, 4] = False
        return mask

    monkeypatch.setattr(engine, "_legal_mask", forgetful)
    with pytest.raises(AssertionError):
        testing.check_batched(fogboard_games.load("phantom-ttt-3"))


def test_every_registered_game_has_a_preset():
    """Every game the library ships (not the test games of tests/minimal_games.py)."""
    covered = {p.short_name for p in fogboard_games.PRESETS.values()}
    shipped = {
        name
        for name, cls in fogboard_games.GAMES.items()
        if cls.ruleset.setup.__module__.startswith("fogboard_games.")
    }
    assert shipped >= {"fogboard_phantom_ttt", "fogboard_dark_hex", "fogboard_liars_dice"}
    assert shipped <= covered


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(ValueError, match="dark-hex-5"):
        fogboard_games.load("dark-hex-9")
