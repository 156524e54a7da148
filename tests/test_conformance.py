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
    covered = {p.short_name for p in fogboard_games.PRESETS.values()}
    assert set(fogboard_games.GAMES) <= covered


def test_unknown_preset_lists_the_known_ones():
    with pytest.raises(ValueError, match="dark-hex-5"):
        fogboard_games.load("dark-hex-9")
