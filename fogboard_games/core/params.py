"""Declare a game's parameters once; validate them at load (docs/adding_a_game.md#parameters).

OpenSpiel hands a Python game a dict holding every declared parameter
(defaults merged in). pyspiel.load_game itself refuses an unknown name or a
value of the wrong type (a SpielError) before the game sees it; we check
ranges, choices and cross-parameter rules here, and names and types again
for callers that pass a dict straight in (fogboard_games.load_review does,
before pyspiel), so a bad value fails at load with a message naming the
parameter and what is allowed, instead of crashing later inside the rules.

Game strings split on commas and need a `.` in floats, so parameters are
ints, bools or comma-free strings only. A bound one parameter takes from
others (survivors fewer than players) is a `Bound`, so every refusal is
spelled here, once, and names its parameter (`ParamError.param`).
`is_int` is the one test of "an int, not a bool" for the counts and seats
callers pass.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import NoReturn

Value = int | bool | str


def is_int(x: object) -> bool:
    """An int that is not a bool (True is an int to Python, never a count or
    a seat here); numpy ints are not ints either, as before."""
    return x.__class__ is int or (isinstance(x, int) and not isinstance(x, bool))


class ParamError(ValueError):
    """A parameter value a game does not allow; `param` names the parameter."""

    def __init__(self, message: str, param: str):
        super().__init__(message)
        self.param = param

    def __reduce__(self):  # pickles whole (a worker's error reaches its parent)
        return (type(self), (str(self), self.param))


@dataclasses.dataclass(frozen=True)
class Bound:
    """An int parameter's highest value when it depends on other parameters.

    `high(params)` computes it from the validated parameters; `why`, formatted
    with them, says where it comes from in the refusal, e.g. "fewer than
    players={players}" gives "must be an int in 1..2 (fewer than players=3)".
    """

    high: Callable[[Mapping[str, Value]], int]
    why: str


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
    # A tighter highest value taken from the other parameters (checked after
    # every parameter's own check); `high` stays the widest, for the tables.
    bound: Bound | None = None

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
            self.refuse(game, f"{self.allowed()}, got {value!r} ({type(value).__name__})")
        if kind is int and value not in self.extra:
            if not self.low <= value <= self.high:
                self.refuse(game, f"{self.allowed()}, got {value}")
        if kind is str and value not in self.choices:
            self.refuse(game, f"{self.allowed()}, got {value!r}")
        return value

    def check_bound(self, game: str, params: Mapping[str, Value]) -> None:
        """Refuse the value in `params` above the highest its `bound` allows there."""
        value = params[self.name]
        high = self.bound.high(params)
        if value > high and value not in self.extra:
            span = f"an int in {self.low}..{high} ({self.bound.why.format(**params)})"
            if self.extra:
                span += " or " + ", ".join(str(e) for e in self.extra)
            self.refuse(game, f"{span}, got {value}")

    def refuse(self, game: str, allowed_got: str) -> NoReturn:
        """Raise the one refusal of this parameter: what is allowed, what came."""
        raise ParamError(f"{game}: parameter {self.name!r} must be {allowed_got}", self.name)


class ParamSpec:
    """The parameters of one game. Cross-parameter rules are `Bound`s on its
    Params; `check(params)` is left for a rule no bound states (none yet)."""

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
        for p in self.params.values():  # declaration order: the first refusal wins
            if p.bound is not None:
                p.check_bound(self.game, out)
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
