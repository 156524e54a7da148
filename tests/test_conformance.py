"""Every registered game and preset passes the shared conformance suite."""

import pyspiel
import pytest

import fogboard_games
from fogboard_games.core import testing

CONFIGS = testing.conformance_configs()


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda c: c.__name__[6:])
@pytest.mark.parametrize("label,short_name,params", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_conformance(label, short_name, params, check):
    check(pyspiel.load_game(short_name, params), seed=len(label))


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
