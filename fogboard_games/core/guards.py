"""What every loader of a stranger's JSON guards against, written once (docs/reviews.md).

Reviews (core/review.py), the boards' engine logs (boards/engine_log/) and the
glue's action strings read values anyone may have written. They parse its
text by `parse_json`, quote what they refuse, bound ints and nesting, and
compare a stated number with the rules' own by the functions here, so a
hostile value meets the same guard whichever loader reads it and no
message ever calls a foreign repr.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from fogboard_games.core.params import is_int

# No review or engine log nests deeper than a handful of levels (a Liar's Dice
# die sits at rounds[i].hands[seat][roll][die]); the bound keeps a hostile
# or cyclic value from exhausting the stack before it is refused.
MAX_DEPTH = 32
# Ints are 64-bit in pyspiel's C++ and in the boards' original engine; a
# wider one could only overflow pyspiel or Python's int-to-string limit.
MAX_INT = 2**63 - 1
MIN_INT = -(2**63)


def clip(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with "..." when it is longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted(text: str, limit: int = 40) -> str:
    """A str as ascii() shows it, cut short: how messages quote a name they
    refuse (a look-alike shows as what it is: the Kelvin sign as its escape)."""
    return ascii(clip(text, limit))


def shortened(message: object) -> str:
    """A message (or an exception's), cut short when it quotes a long hostile value.

    Head and tail survive: the reason usually follows the quoted value.
    """
    text = str(message)
    return text if len(text) <= 300 else text[:140] + " ... " + text[-155:]


def describe(v: Any, depth: int = 0) -> str:
    """A short JSON-style rendering of any value, safe on hostile input.

    Error messages quote what they refuse; this never recurses more than a
    few levels, never turns a huge int into digits (Python refuses past
    4,300 of them) and never calls a foreign object's own repr.
    """
    if v is None or isinstance(v, bool):
        text = {None: "null", True: "true", False: "false"}[v]
    elif isinstance(v, int):
        text = str(v) if abs(v) <= MAX_INT else f"<an int of {v.bit_length()} bits>"
    elif isinstance(v, float):
        # json.dumps writes NaN and Infinity as the literals strict JSON lacks.
        text = json.dumps(v)
    elif isinstance(v, str):
        # ASCII-escaped, so a lone surrogate or a control character shows as \uXXXX.
        text = json.dumps(clip(v, 60))
    elif isinstance(v, (list, tuple, dict)):
        if depth >= 2:
            text = "[...]" if not isinstance(v, dict) else "{...}"
        elif isinstance(v, dict):
            items = [f"{describe(k, 2)}: {describe(x, depth + 1)}" for k, x in list(v.items())[:4]]
            text = "{" + ", ".join(items + ["..."] * (len(v) > 4)) + "}"
        else:
            items = [describe(x, depth + 1) for x in list(v[:4])]
            text = "[" + ", ".join(items + ["..."] * (len(v) > 4)) + "]"
    else:
        text = f"<a {type(v).__name__}>"
    return clip(text, 80)


def is_int64(v: Any) -> bool:
    """A JSON int of at most 64 bits (bool is an int to Python, never to JSON)."""
    return is_int(v) and MIN_INT <= v <= MAX_INT


def is_number(v: Any) -> bool:
    """A JSON number: a 64-bit int or a finite float."""
    return is_int64(v) or (isinstance(v, float) and math.isfinite(v))


def field_path(path: str, key: Any) -> str:
    """`path.key` for a plain key, `path[key]` for an index or any other key."""
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{describe(key)}]"


def json_problem(v: Any, path: str = "", depth: int = 0, whole: str = "review") -> str | None:
    """Path and reason of the first part of `v` that is not plain JSON, or None.

    Plain JSON: dicts with string keys, lists, strings, bools, None, ints of
    at most 64 bits and finite floats. Checked before anything reads the
    value, so later code may format, compare and hand values to pyspiel.
    `whole` names the value in messages (the root's path, "no review field").
    """
    where = path or whole
    if depth > MAX_DEPTH:
        return f"{where}: nested deeper than {MAX_DEPTH} levels (a {whole} needs a few)"
    if isinstance(v, dict):
        for k, x in v.items():
            if not isinstance(k, str):
                return f"{where}: key {describe(k)} is not a string (JSON keys are strings)"
            problem = json_problem(x, field_path(path, k), depth + 1, whole)
            if problem:
                return problem
    elif isinstance(v, list):
        for i, x in enumerate(v):
            problem = json_problem(x, f"{where}[{i}]", depth + 1, whole)
            if problem:
                return problem
    elif isinstance(v, bool) or v is None or isinstance(v, str):
        pass
    elif isinstance(v, int):
        # Symmetric, so MIN_INT (the one 64-bit int without a positive twin,
        # which `describe` shows by its bits) is refused too.
        if abs(v) > MAX_INT:
            return f"{where}: {describe(v)} is beyond 64 bits; no {whole} field holds such an int"
    elif isinstance(v, float):
        if not math.isfinite(v):
            return f"{where}: {describe(v)} is not a JSON number"
    else:
        return f"{where}: a {type(v).__name__} is not a JSON value"
    return None


# JSON strings (whose brackets are text) and brackets, lexed as JSON lexes them.
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def nesting_too_deep(text: str) -> int | None:
    """Where JSON text opens its (MAX_DEPTH + 1)th nested bracket, or None.

    The JSON parser recurses once per bracket and a few thousand "[" would
    exhaust the stack (RecursionError); this scan is a loop, run before it.
    """
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        c = text[token.start()]
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif c in "]}":
            depth -= 1
    return None


def same_fact(stated: Any, derived: Any, within: float = 0.0) -> bool:
    """Whether a stated JSON leaf says what the rules derived.

    Where the rules derive an int, only that int (not 1.0, not true); where
    they derive a float, a number (a 64-bit int or a finite float, never a
    bool) equal to it, or, when `within` is given, closer than `within` to
    it; anything else by exact type and value.

    Exact (`within` 0) is for a value read and written back as the derived
    float (an engine log's round trip); `within` for a value only compared (a
    review, whose JSON writer may differ on the last digit).
    """
    if isinstance(derived, float):
        if not is_number(stated):
            return False
        return abs(stated - derived) < within if within else stated == derived
    return type(stated) is type(derived) and stated == derived


class JSONTextError(ValueError):
    """JSON text refused before any of its values is read; one line."""


def _each_key_once(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:
            raise JSONTextError(f"duplicate JSON key {quoted(key)}; each key is given once")
        out[key] = value
    return out


def parse_json(text: str, what: str, **hooks) -> Any:
    """The value of JSON text, as every loader of a stranger's file reads it.

    Refused (JSONTextError, one line that names `what`, such as "a review"):
    text nested deeper than MAX_DEPTH (found before json's parser recurses
    once per bracket), text that is not JSON, and an object that gives a
    key twice: json.loads would keep the last one silently, and two readers
    of one file (a review read by `review` and by an engine log's reader) must never see
    two different games. `hooks` are json.loads' parse_int, parse_float
    and parse_constant, for a loader's own bounds on numbers.
    """
    at = nesting_too_deep(text)
    if at is not None:
        raise JSONTextError(
            f"nests deeper than {MAX_DEPTH} levels at char {at}; {what} nests a few"
        )
    try:
        return json.loads(text, object_pairs_hook=_each_key_once, **hooks)
    except json.JSONDecodeError as e:
        raise JSONTextError(f"not JSON ({e}); {what} is a JSON object") from None
