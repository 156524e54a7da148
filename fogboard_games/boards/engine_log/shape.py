"""The fogboards.replay.v1 format's names and the shape checks of its fields.

Every check refuses with an `EngineLogError` naming the field and what it
allows, on the guards reviews use (core/guards.py), so hostile JSON gets
that refusal and nothing else (docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fogboard_games.boards import rules
from fogboard_games.core.guards import clip, describe, is_int64, is_number, quoted
from fogboard_games.core.notation import parse_cell

PROTOCOL = "fogboards.replay.v1"
MODES = ("phantom-ttt", "dark-hex")
KINDS = ("start", "sense", "attempt", "win", "end")
REASONS = ("complete", "deadline")
WIN_ENDINGS = ("line", "connection")
DEADLINE_ENDING = "wall-clock"

TOP_KEYS = ("protocol", "names", "policyNames", "config", "events", "results")
CONFIG_KEYS = ("mode", "size", "abrupt", "sense", "first", "seed", "maxPlies", "sampled")
# A rectangular dark hex board's ranks (docs/boards_bots_and_engine_logs.md): written
# only when they differ from `size`, its files, so square boards read as before.
CONFIG_OPTIONAL = ("ranks",)
EVENT_KEYS = {
    "start": ((), ()),
    "sense": (("seat", "anchor"), ()),
    "attempt": (("seat", "cell", "result", "say", "guess", "scripted", "fellBack"), ("notes",)),
    "win": (("seat", "how", "path"), ()),
    "end": (("reason", "ending", "scores"), ()),
}
RESULT_KEYS = (
    "names",
    "scores",
    "outcome",
    "stones",
    "probes",
    "discovered",
    "guessesMade",
    "guessAccuracy",
    "distToWin",
    "fallbacks",
    "plies",
    "maxPlies",
    "mode",
    "size",
    "abrupt",
    "sense",
    "ending",
    "reason",
)
# What the engine's seat may say alongside an attempt; never read by the rules.
ATTEMPT_EXTRAS = ("say", "notes", "guess", "scripted", "fellBack")
DEFAULT_NAMES = ("seat 0", "seat 1")


class EngineLogError(ValueError):
    """An engine log that is malformed or that the rules do not reproduce."""


class Unreadable:
    """A JSON number literal Python would not hold as written: an int of
    hundreds of digits, or a float beyond the largest double (1e400 parses
    as Infinity). Parsing keeps it in place so the field it sits in refuses
    it by name; no field accepts one."""

    def __init__(self, literal: str, why: str):
        self.shown = f"{clip(literal, 20)} ({why})"


def show(v: Any) -> str:
    """`describe`, and an unreadable literal as what it was."""
    if isinstance(v, Unreadable):
        return v.shown
    return describe(v)


def is_text(v: Any) -> bool:
    """A str that is UTF-8 text: a lone surrogate (JSON's "\\ud800") is not,
    and would make the written engine log impossible to save as UTF-8."""
    if not isinstance(v, str):
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


KIND_TEXT = {
    "int": "an int (64-bit)",
    "bool": "a bool (true or false)",
    "str": "a str (UTF-8 text)",
    "list": "a list",
    "object": "an object",
    "number": "a number (finite)",
}


def check_type(where: str, v: Any, kind: str) -> None:
    ok = {
        "int": is_int64,
        "bool": lambda x: isinstance(x, bool),
        "str": is_text,
        "list": lambda x: isinstance(x, list),
        "object": lambda x: isinstance(x, dict),
        "number": is_number,
    }[kind](v)
    if not ok:
        raise EngineLogError(f"{where} must be {KIND_TEXT[kind]}, got {show(v)}")


def check_keys(
    where: str, obj: dict, required: Sequence[str], optional: Sequence[str] = ()
) -> None:
    for k in obj:
        if not isinstance(k, str):
            raise EngineLogError(f"{where}: key {show(k)} is not a string (JSON keys are strings)")
    for k in required:
        if k not in obj:
            raise EngineLogError(f"{where}: missing key {k!r}")
    for k in obj:
        if k not in required and k not in optional:
            allowed = ", ".join(tuple(required) + tuple(optional)) or "none"
            raise EngineLogError(f"{where}: unknown key {quoted(k)} (allowed: {allowed})")


def pair_of(where: str, v: Any, kind: str) -> list:
    check_type(where, v, "list")
    if len(v) != 2:
        raise EngineLogError(f"{where} must hold 2 entries (one per seat), got {len(v)}")
    for i, x in enumerate(v):
        check_type(f"{where}[{i}]", x, kind)
    return v


def cell_of(where: str, text: Any, geo: rules.Geometry) -> int:
    """The cell a name is, written exactly as the engine writes it.

    `C3` or `c03` would read as c3 and be written back as `c3`: a field
    that does not survive the round trip, so it is refused.
    """
    check_type(where, text, "str")
    cell = geo.action_ids.get(text)
    if cell is not None and cell < geo.cells:
        return cell
    board = f"a {geo.size}x{geo.ranks} board (a1..{geo.names[-1]})"
    if len(text) <= 8:  # parse_cell reads the rank as an int: keep it short
        try:
            name = geo.names[parse_cell(text, geo.size, geo.ranks)]
        except ValueError:
            pass
        else:
            raise EngineLogError(f"{where}: {quoted(text)} must be written {name!r}, as on {board}")
    raise EngineLogError(f"{where}: {quoted(text)} is not a cell of {board}")
