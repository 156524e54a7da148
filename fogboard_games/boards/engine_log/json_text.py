"""An engine log as JSON text: strict parsing, and the text of a written engine log.

Strict JSON only (UTF-8, no NaN or Infinity, no duplicate keys), with the
nesting bounded before the parser recurses and any number literal Python
cannot hold kept as a placeholder every field refuses by name
(docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pyspiel

from fogboard_games.boards.engine_log.read import from_engine_log
from fogboard_games.boards.engine_log.shape import EngineLogError, Unreadable
from fogboard_games.boards.engine_log.write import to_engine_log
from fogboard_games.core.guards import JSONTextError, parse_json


def _no_constant(name: str):
    raise EngineLogError(f"{name} is not JSON (engine logs are strict JSON)")


def _int_literal(text: str) -> Any:
    # Python refuses to read an int of more than 4,300 digits (a plain
    # ValueError); no engine log int has more than 20.
    if len(text) > 40:
        return Unreadable(text, f"an int of {len(text)} characters; engine logs hold 64-bit ints")
    return int(text)


def _float_literal(text: str) -> Any:
    value = float(text)
    # 1e400 reads as Infinity, which strict JSON does not have.
    if not math.isfinite(value):
        return Unreadable(text, "beyond the largest float")
    return value


def parse(text: str | bytes) -> Any:
    """Strict JSON: UTF-8, no NaN/Infinity, and core.guards.parse_json's
    refusals (no duplicate keys, no deep nesting).

    A number literal Python cannot hold as written (an int of hundreds of
    digits, a float past the largest double) parses to a placeholder that
    every field refuses by name.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise EngineLogError(f"engine log bytes are not UTF-8: {e}") from None
    if not isinstance(text, str):
        raise EngineLogError(f"engine log text must be str or bytes, got {type(text).__name__}")
    try:
        return parse_json(
            text,
            "an engine log",
            parse_constant=_no_constant,
            parse_int=_int_literal,
            parse_float=_float_literal,
        )
    except JSONTextError as e:
        raise EngineLogError(f"engine log text: {e}") from None


def dumps(state, **writer_args) -> str:
    """JSON text of `to_engine_log(state, **writer_args)` (UTF-8 safe, strict)."""
    return json.dumps(to_engine_log(state, **writer_args), ensure_ascii=False, allow_nan=False)


def loads(text: str | bytes, obstype: str | None = None) -> pyspiel.State:
    """The finished state of an engine log's JSON text; EngineLogError if malformed or not derived."""
    return from_engine_log(parse(text), obstype)
