"""A game named on the command line: a preset's name (`dark-hex-4`) or the
load string of a fogboard game (`fogboard_dark_hex(board_size=3)`), for
`play` and `league` (docs/bots.md#terminal-play, docs/league.md).

A load string is read here, not by pyspiel's parser, which prints its
refusals to stderr before raising and takes a parameter named twice (the
last one wins); here every refusal is one line naming what is wrong:
the game, a parameter, a value, or the string's shape. The values are
checked by the game's own parameter spec, as every load checks them.
"""

from __future__ import annotations

import re

import pyspiel

from fogboard_games.core.guards import quoted
from fogboard_games.core.registry import GAMES, PRESETS, load, param_spec

EXAMPLE = "fogboard_dark_hex(board_size=3)"
SHAPE = re.compile(r"([a-z][a-z0-9_]*)(?:\((.*)\))?", re.DOTALL)
INT = re.compile(r"[+-]?[0-9]{1,19}")


def game_params(name: str) -> tuple[str, dict]:
    """(the registered short name, the parameters) a preset or load string
    names; ValueError, one line, naming what is wrong."""
    if name in PRESETS:
        preset = PRESETS[name]
        return preset.short_name, dict(preset.params)
    shape = SHAPE.fullmatch(name)
    where = f"load string {quoted(name, 80)}"
    if shape is None and "(" in name:
        raise ValueError(f"{where}: want NAME(key=value,...), such as {EXAMPLE}")
    if shape is None or (shape.group(1) not in GAMES and "(" not in name):
        # (the name cut shorter than most: the list of presets is the long part)
        raise ValueError(
            f"unknown preset {quoted(name, 24)}; presets: {', '.join(sorted(PRESETS))}; "
            f"or a load string such as {EXAMPLE}"
        )
    short_name, body = shape.groups()
    if short_name not in GAMES:
        raise ValueError(
            f"{where}: {short_name!r} is not a fogboard game; games: {', '.join(sorted(GAMES))}"
        )
    spec = param_spec(short_name)
    params: dict = {}
    for part in body.split(",") if body and body.strip() else []:
        key, equals, text = (s.strip() for s in part.partition("="))
        if not equals or not key or not text or set("()=") & set(text):
            raise ValueError(f"{where}: {quoted(part.strip())} is not key=value")
        if key not in spec.params:
            raise ValueError(
                f"{where}: {short_name} has no parameter {quoted(key)}; "
                f"its parameters: {', '.join(sorted(spec.params))}"
            )
        if key in params:
            raise ValueError(f"{where}: names {key} twice")
        params[key] = _value(where, spec.params[key], text)
    try:
        spec.resolve(params)  # (ranges, choices and the bounds between parameters)
    except ValueError as e:  # (a ParamError among them)
        raise ValueError(f"{where}: {e}") from None
    return short_name, params


def _value(where: str, param, text: str):
    """A parameter's value as the load string spells it: an int, true or false, or a word."""
    if isinstance(param.default, bool):
        if text not in ("true", "false"):
            raise ValueError(f"{where}: {param.name} must be true or false, got {quoted(text)}")
        return text == "true"
    if isinstance(param.default, int):
        if not INT.fullmatch(text):
            raise ValueError(f"{where}: {param.name} must be {param.allowed()}, got {quoted(text)}")
        return int(text)
    return text


def load_named(name: str) -> pyspiel.Game:
    """The game a preset's name or a fogboard load string names (ValueError, one line, if none)."""
    if name in PRESETS:
        return load(name)
    short_name, params = game_params(name)
    return pyspiel.load_game(short_name, params)
