"""An engine log's `config` and our games: the game a config describes, and back.

`phantom-ttt` is our phantom tic-tac-toe, `dark-hex` our dark hex, or recon
hex when it senses; each config field is checked by our game's own
parameter checks and refused by the name the log gives it
(docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from fogboard_games.boards.engine_log.shape import (
    CONFIG_KEYS,
    CONFIG_OPTIONAL,
    MODES,
    EngineLogError,
    check_keys,
    check_type,
)
from fogboard_games.core.guards import quoted
from fogboard_games.core.registry import param_spec

# Engine log fields -> our game's parameters, to name the field a bad value came from.
CONFIG_FIELD = {
    "board_size": "size",
    "num_cols": "ranks",
    "abrupt": "abrupt",
    "sense": "sense",
    "max_plies": "maxPlies",
}


def game_for_config(config: Any, obstype: str | None = None) -> pyspiel.Game:
    """Our pyspiel game for an engine log `config`; EngineLogError when there is none.

    The engine has one observation rule; `obstype` picks ours
    (`reveal-nothing` by default, or `reveal-numturns`), which changes
    information states only, never the plies.
    """
    check_type("config", config, "object")
    check_keys("config", config, CONFIG_KEYS, CONFIG_OPTIONAL)
    for key, kind in (
        ("mode", "str"),
        ("size", "int"),
        ("abrupt", "bool"),
        ("sense", "int"),
        ("first", "int"),
        ("seed", "int"),
        ("maxPlies", "int"),
        ("sampled", "bool"),
    ):
        check_type(f"config.{key}", config[key], kind)
    mode, size, abrupt, sense = config["mode"], config["size"], config["abrupt"], config["sense"]
    rect = "ranks" in config  # a rectangular dark hex board: `size` files, `ranks` ranks
    if rect:
        check_type("config.ranks", config["ranks"], "int")
    ranks = config["ranks"] if rect else size
    if rect and (mode != "dark-hex" or ranks == size):
        raise EngineLogError(
            "config.ranks is written only for a rectangular dark-hex board (ranks other "
            f"than size), got ranks {ranks} with mode {quoted(mode)} and size {size}"
        )
    if mode not in MODES:
        raise EngineLogError(f"config.mode: unknown mode {quoted(mode)}; known: {', '.join(MODES)}")
    if config["first"] != 0:
        raise EngineLogError(
            f"config.first must be 0 (seat 0 always moves first), got {config['first']}"
        )
    if sense < 0:
        raise EngineLogError(f"config.sense must be 0 (no sensing) or more, got {sense}")
    if mode == "phantom-ttt":
        if size != 3:
            raise EngineLogError(f"config.size must be 3 in phantom-ttt, got {size}")
        if sense:
            raise EngineLogError(f"config.sense must be 0 in phantom-ttt, got {sense}")
        name, params = "fogboard_phantom_ttt", {"abrupt": abrupt}
    elif sense == 0:
        name, params = "fogboard_dark_hex", {"board_size": size, "abrupt": abrupt}
    else:
        if not abrupt:
            raise EngineLogError(
                "config: dark-hex with sense > 0 is recon hex, which is abrupt only "
                "(a collision ends the turn); got abrupt: false"
            )
        name, params = "fogboard_recon_hex", {"board_size": size, "sense": sense}
    if rect:
        params["num_cols"] = ranks  # num_rows is board_size: our files
    # Our parameters are checked here, before pyspiel sees them: pyspiel
    # refuses an int past 32 bits with a RuntimeError that names nothing.
    spec = param_spec(name)
    _check_each(spec, params)
    if sense > min(size, ranks):  # recon hex: the sensed block must fit on the board
        side = f"size ({size})" if not rect else f"min(size, ranks) ({min(size, ranks)})"
        raise EngineLogError(
            f"config.sense must be 0 (dark hex) or 1..{side} (recon hex), got {sense}"
        )
    cap, cells = config["maxPlies"], size * ranks
    # Our max_plies also takes -1 (2 x cells), but the engine writes the
    # number, and -1 read here would be written back as that number.
    if not 1 <= cap <= 2 * cells:
        raise EngineLogError(
            f"config.maxPlies must be the ply cap, an int in 1..{2 * cells} (2 x cells; "
            f"our max_plies), got {cap}"
        )
    params["max_plies"] = cap
    if obstype is not None:
        params["obstype"] = obstype
    _check_each(spec, params)
    try:
        spec.resolve(params)
    except ValueError as e:  # a cross-parameter check the lines above missed
        raise EngineLogError(f"config: {e}") from None
    try:
        return pyspiel.load_game(name, params)
    except (ValueError, pyspiel.SpielError) as e:
        raise EngineLogError(f"config does not describe a playable game: {e}") from None


def _check_each(spec, params: dict) -> None:
    """Our checks of each parameter, refusing by the engine log field it came from."""
    for key, value in params.items():
        try:
            spec.params[key].check(spec.game, value)
        except ValueError as e:
            where = (
                f"config.{CONFIG_FIELD[key]}"
                if key in CONFIG_FIELD
                else f"{key} (an argument of the reader, not an engine log field)"
            )
            raise EngineLogError(f"{where}: {e}") from None


def config_of(game: pyspiel.Game) -> dict:
    """The engine log `config` fields our game fixes (all but seed and sampled)."""
    geo = game.setup
    out = {
        "mode": "phantom-ttt" if geo.kind == "ttt" else "dark-hex",
        "size": geo.size,
        "abrupt": geo.abrupt,
        "sense": geo.sense,
        "first": 0,
    }
    if not geo.square:
        out["ranks"] = geo.ranks
    return out
