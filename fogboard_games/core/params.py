"""Declare a game's parameters once; validate them at load (docs/adding_a_game.md#parameters).

OpenSpiel hands a Python game a dict holding every declared parameter
(defaults merged in). pyspiel.load_game itself refuses an unknown name or a
value of the wrong type (a SpielError) before the game sees it; we check
ranges, choices and cross-parameter rules here, and names and types again
for callers that pass a dict straight in (fogboard_games.load_review does,
before pyspiel), so a bad value fails at load with a message naming the
parameter and what is allowed, instead of crashing later inside the rules.

Game strings split on commas and need a `.` in floats, so parameters are
ints, bools or comma-free strings only. `is_int` is the one test of "an int,
not a bool" for the counts and seats callers pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

Value = int | bool | str


def is_int(x: object) -> bool:
    """An int that is not a bool (True is an int to Python, never a count or
    a seat here); numpy ints are not ints either, as before."""
    return x.__class__ is int or (isinstance(x, int) and not isinstance(x, bool))


@dataclasses.dataclass(frozen=True)
class Param:
    """One game parameter: its default, its allowed values and its meaning."""

    name: str
    default: Value
    doc: str
    low: int | None = None  # inclusive bounds for ints
    high: int | None = None
    choices: tuple[str, ...] | None = None  # allowed strings
    extra: tuple[int, ...] = ()  # ints allowed outside [low, high], e.g. -1

    def allowed(self) -> str:
        if isinstance(self.default, bool):
            return "true or false"
        if self.choices is not None:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        span = f"{self.low}..{self.high}"
        if self.extra:
            span += " or " + ", ".join(str(e) for e in self.extra)
        return "an int in " + span

    def check(self, game: str, value: object) -> Value:
        kind = type(self.default)
        # bool is a subclass of int: refuse True where an int is wanted.
        if type(value) is not kind:
            raise ValueError(
                f"{game}: parameter {self.name!r} must be {self.allowed()}, "
                f"got {value!r} ({type(value).__name__})"
            )
        if kind is int and value not in self.extra:
            if not self.low <= value <= self.high:
                raise ValueError(
                    f"{game}: parameter {self.name!r} must be {self.allowed()}, got {value}"
                )
        if kind is str and value not in self.choices:
            raise ValueError(
                f"{game}: parameter {self.name!r} must be {self.allowed()}, got {value!r}"
            )
        return value


class ParamSpec:
    """The parameters of one game, with a cross-parameter check."""

    def __init__(
        self,
        game: str,
        params: Sequence[Param],
        check: Callable[[dict], None] | None = None,
        derive: Callable[[dict], None] | None = None,
    ):
        self.game = game
        self.params = {p.name: p for p in params}
        self._check = check
        # Fills in values a default stands for (e.g. -1 meaning "2 x cells"),
        # after the checks, so that get_parameters shows the number.
        self._derive = derive

    def defaults(self) -> dict[str, Value]:
        return {name: p.default for name, p in self.params.items()}

    def resolve(self, given: Mapping[str, object] | None) -> dict[str, Value]:
        """Validated parameters: defaults overridden by `given`."""
        given = dict(given or {})
        unknown = sorted(set(given) - set(self.params))
        if unknown:
            raise ValueError(
                f"{self.game}: unknown parameter(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(self.params))}"
            )
        out = self.defaults()
        for name, value in given.items():
            out[name] = self.params[name].check(self.game, value)
        if self._check:
            self._check(out)
        if self._derive:
            self._derive(out)
        return out

    def table(self) -> str:
        """A Markdown table of the parameters, for docs generated from code."""
        rows = ["| parameter | default | allowed | meaning |", "|---|---|---|---|"]
        for p in self.params.values():
            default = str(p.default).lower() if isinstance(p.default, bool) else p.default
            rows.append(f"| `{p.name}` | `{default}` | {p.allowed()} | {p.doc} |")
        return "\n".join(rows)
