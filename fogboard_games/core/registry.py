"""The list of every registered game and every named preset.

Each ruleset registers itself here when imported, through the functions
below (`register`, `add_preset`, `add_conformance_extras`, `add_bench_pair`:
the tables are read, never written, elsewhere); the conformance suite and
the benchmark iterate over these tables, so a new game is tested and
benchmarked the day it lands
(docs/adding_a_game.md#presets-benchmark-pairs-and-conformance-extras).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pyspiel

from fogboard_games.core import glue, guards


@dataclasses.dataclass(frozen=True)
class Preset:
    name: str
    short_name: str
    params: dict
    doc: str

    def game_string(self) -> str:
        if not self.params:
            return self.short_name
        body = ",".join(f"{k}={_fmt(v)}" for k, v in sorted(self.params.items()))
        return f"{self.short_name}({body})"


def _fmt(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


GAMES: dict[str, type] = {}
PRESETS: dict[str, Preset] = {}
# Extra parameter sets the conformance suite also runs (small or unusual
# configurations that presets do not cover).
CONFORMANCE_EXTRAS: dict[str, list[dict]] = {}


# Benchmark pairs: (preset name, OpenSpiel C++ game string it is measured
# beside). `python -m fogboard_games bench` runs every pair.
BENCH_PAIRS: list[tuple[str, str]] = []


def add_bench_pair(preset: str, cpp_game: str) -> None:
    BENCH_PAIRS.append((preset, cpp_game))


def add_conformance_extras(short_name: str, params_list: list[dict]) -> None:
    """More parameter sets of a game for the conformance suite to run."""
    CONFORMANCE_EXTRAS.setdefault(short_name, []).extend(dict(p) for p in params_list)


def register(ruleset) -> type:
    """Make a ruleset (core.contract.Ruleset) a pyspiel game; its Game class.

    The class is one subclass of core.glue.Game per ruleset, bound to it;
    registering a short name twice returns the class made the first time.
    """
    short_name = ruleset.short_name
    if short_name in GAMES:
        return GAMES[short_name]
    _check_setup_takes_params(ruleset)
    gtype = glue.game_type(ruleset)
    stem = "".join(w.capitalize() for w in short_name.split("_"))
    state_cls = glue.state_class(ruleset, stem + "State")
    cls = type(
        stem + "Game",
        (glue.Game,),
        {
            "ruleset": ruleset,
            "game_type": gtype,
            "short_name": short_name,
            "state_class": state_cls,
            "__module__": glue.__name__,
        },
    )
    pyspiel.register_game(gtype, cls)
    GAMES[short_name] = cls
    return cls


def _check_setup_takes_params(ruleset) -> None:
    """Refuse, at registration, a `setup` that cannot take the game's parameters
    by name (the glue calls `setup(**params)` at every load)."""
    names = list(ruleset.params.params)
    try:
        signature = inspect.signature(ruleset.setup)
    except ValueError:  # no signature to read (a builtin): the first load will tell
        return
    try:
        signature.bind(**dict.fromkeys(names))
    except TypeError as e:
        raise TypeError(
            f"{ruleset.short_name}: Ruleset.setup is called as setup(**params), with "
            f"the parameters {names} by name; it cannot be: {e}"
        ) from None


def resolve(where: str):
    """What a declaration names as "package.module:Name" (contract.Batched,
    Ruleset.drawer), imported now: the first use of a batched engine or a
    drawer imports it, never the registration."""
    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def batched(short_name: str):
    """The contract.Batched a registered game declares, None when it has no
    batched engine (or is not registered)."""
    cls = GAMES.get(short_name)
    return None if cls is None else cls.ruleset.batched


def batched_presets() -> tuple[str, ...]:
    """The presets whose game declares a batched engine, in registration order."""
    return tuple(name for name, p in PRESETS.items() if batched(p.short_name) is not None)


def param_spec(short_name: str):
    """The ParamSpec of a registered game (validate parameters before pyspiel sees them)."""
    return GAMES[short_name].ruleset.params


def add_preset(name: str, short_name: str, params: dict, doc: str) -> None:
    PRESETS[name] = Preset(name, short_name, dict(params), doc)


def load(preset: str) -> pyspiel.Game:
    """The pyspiel game of a named preset, e.g. load("dark-hex-5")."""
    # A name that is not a str (a list, a dict) is unknown too: looking it
    # up would raise TypeError for an unhashable one.
    text = isinstance(preset, str)
    p = PRESETS.get(preset) if text else None
    if p is None:
        name = (
            guards.quoted(preset)
            if text
            else f"{guards.describe(preset)} ({type(preset).__name__}, not a str)"
        )
        raise ValueError(f"unknown preset {name}; known presets: {', '.join(sorted(PRESETS))}")
    return pyspiel.load_game(p.short_name, p.params)
