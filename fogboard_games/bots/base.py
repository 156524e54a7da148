"""The bots' shared base: `SeatBot`, the `random` kind, and the table of
kinds that `make_bot` reads (docs/bots.md).

It lives apart from the package's `__init__` so that the bot modules
(`text`, `cfr`, `search`, and each ruleset's `bots`) import it without a
cycle: `__init__` imports them to register their kinds.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Mapping

import numpy as np
import pyspiel

from fogboard_games.core import glue
from fogboard_games.core.observer import INFO_STATE, OBSERVATION, PieceObserver
from fogboard_games.core.params import is_int


def seat_pieces(state, seat: int, recall: bool = True) -> Mapping[str, np.ndarray]:
    """The named pieces of `seat`'s information-state tensor in `state`
    (`recall=False`: of its current view, which is quicker to write where
    the history is long).

    This is all a fair bot reads of a state besides its legal actions and
    its seat's information-state string: the observer writes exactly what
    the seat knows (docs/bots.md#fair-seats). The arrays belong to an
    observer the game keeps and are overwritten by the next call: read
    them before asking again, and copy what must be kept.
    """
    game = state.get_game()
    observers = game.__dict__.setdefault("seat_observers", {})  # kept by the game itself
    observer = observers.get(recall)
    if observer is None:
        key = INFO_STATE if recall else OBSERVATION
        observer = observers[recall] = PieceObserver(
            key, game.encoder.layout(key), game.encoder, glue.observed
        )
    observer.set_from(state, seat)
    return observer.dict


class SeatBot(pyspiel.Bot):
    """A pyspiel.Bot for one seat that reads only that seat's information.

    Subclasses set `kind` (and `games`, the short names they play, or None
    for every game; `requires`, the options `make_bot` must be given) and
    implement `decide(state)`.
    """

    kind = ""
    games: tuple[str, ...] | None = None
    requires: tuple[str, ...] = ()

    def __init__(self, game, player: int, seed: int = 0):
        pyspiel.Bot.__init__(self)
        short = game.get_type().short_name
        if self.games is not None and short not in self.games:
            raise ValueError(f"the {self.kind} bot plays {', '.join(self.games)}, not {short!r}")
        n = game.num_players()
        if not is_int(player) or not 0 <= player < n:
            raise ValueError(f"player must be a seat 0..{n - 1} of {short}, got {player!r}")
        if not is_int(seed):
            raise ValueError(f"seed must be an int, got {seed!r}")
        self.game = game
        self.player = player
        self.seed = seed
        self._games = 0  # games started; varies tie-breaks from game to game

    def restart(self) -> None:
        self._games += 1

    def restart_at(self, state) -> None:
        # evaluate_bots calls this when it starts from a state that is not
        # the initial one; the bot keeps no memory of earlier moves anyway.
        self._games += 1

    def inform_action(self, state, player_id, action) -> None:
        # pyspiel tells every bot every move, hidden ones included; a fair
        # bot reads only its seat's information state.
        pass

    def inform_actions(self, state, actions) -> None:
        pass

    def rng(self, key) -> random.Random:
        """The RNG of one decision: a function of (seed, games started, key)."""
        return random.Random(f"{self.seed}:{self._games}:{key}")

    def step(self, state) -> int:
        if state.is_terminal():
            raise ValueError(f"{self.kind} bot (seat {self.player}): the game is over")
        if state.current_player() != self.player:
            raise ValueError(
                f"{self.kind} bot plays seat {self.player}, "
                f"but seat {state.current_player()} is to move"
            )
        action = int(self.decide(state))
        if action not in state.legal_actions():
            raise RuntimeError(f"{self.kind} bot chose {action}, not a legal action")
        return action

    def decide(self, state) -> int:
        """The action to take; `state` is the live state, simulate on a clone."""
        raise NotImplementedError


class RandomBot(SeatBot):
    """Uniform over the legal actions, seeded by the seat's information state."""

    kind = "random"

    def decide(self, state) -> int:
        key = state.information_state_string(self.player)
        return self.rng(key).choice(state.legal_actions())


BOT_KINDS: dict[str, Callable[..., SeatBot]] = {"random": RandomBot}


def register_kind(kind: str, factory: Callable[..., SeatBot]) -> None:
    """Make `make_bot(kind, ...)` build bots with `factory(game, player, seed, **options)`."""
    BOT_KINDS[kind] = factory


HEURISTICS: dict[str, type[SeatBot]] = {}


def register_heuristic(short_name: str, cls: type[SeatBot]) -> None:
    """Make `cls` the `heuristic` bot of the game `short_name`."""
    HEURISTICS[short_name] = cls


class HeuristicKind:
    """The `heuristic` kind: the bot registered for the game's short name."""

    kind = "heuristic"

    @property
    def games(self) -> tuple[str, ...]:
        # Read when asked, so games registered after this kind count.
        return tuple(sorted(HEURISTICS))

    def options(self, game) -> tuple[str, ...] | None:
        """The options of the game's heuristic (None: no heuristic, which
        `__call__` refuses with its own message)."""
        cls = HEURISTICS.get(game.get_type().short_name)
        return None if cls is None else _signature_options(cls)

    def __call__(self, game, player: int, seed: int = 0, **options) -> SeatBot:
        short = game.get_type().short_name
        cls = HEURISTICS.get(short)
        if cls is None:
            raise ValueError(
                f"no heuristic bot for {short!r}; games with one: {', '.join(self.games)}"
            )
        return cls(game, player, seed, **options)


def kinds_for(game) -> list[str]:
    """The bot kinds that play `game` made from (game, player, seed) alone
    (a kind that `requires` options, such as `text`, is not listed)."""
    short = game.get_type().short_name
    out = []
    for kind, factory in BOT_KINDS.items():
        games = getattr(factory, "games", None)
        if getattr(factory, "requires", ()):
            continue
        plays = getattr(factory, "plays", None)  # a kind for some configurations only
        if (games is None or short in games) and (plays is None or plays(game)):
            out.append(kind)
    return sorted(out)


def _signature_options(factory) -> tuple[str, ...] | None:
    """The keyword options `factory(game, player, seed, **options)` takes, by
    its signature (None when it takes any, `**kwargs`, or has none to read)."""
    try:
        params = list(inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return None
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    positional = [p for p in params if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    # The first three are (game, player, seed), which make_bot passes itself.
    return tuple(p.name for p in params if p.kind in named and p not in positional[:3])


def kind_options(kind: str, game) -> tuple[str, ...] | None:
    """The options `make_bot(kind, game, ...)` takes (docs/bots.md): a kind's
    `options` (a tuple, or a function of the game) or else its signature's
    keyword parameters; None when that cannot be told (a `**kwargs` factory)."""
    factory = BOT_KINDS[kind]
    declared = getattr(factory, "options", None)
    if callable(declared):
        return declared(game)
    if declared is not None:
        return tuple(declared)
    return _signature_options(factory)


def make_bot(kind: str, game, player: int, seed: int = 0, **options) -> SeatBot:
    """A bot of `kind` for `player` in `game` (ValueError naming the kinds, or
    the kind's options, otherwise)."""
    factory = BOT_KINDS.get(kind) if isinstance(kind, str) else None
    if factory is None:
        raise ValueError(
            f"unknown bot kind {kind!r}; kinds for {game.get_type().short_name}: "
            f"{', '.join(kinds_for(game))}"
        )
    if options:
        # Refused here, by name: the factory would raise a TypeError.
        allowed = kind_options(kind, game)
        unknown = [name for name in options if allowed is not None and name not in allowed]
        if unknown:
            raise ValueError(
                f"unknown option{'s' if len(unknown) > 1 else ''} "
                f"{', '.join(map(repr, unknown))} for the {kind} bot; its options: "
                f"{', '.join(allowed) or 'none'}"
            )
    return factory(game, player, seed, **options)


register_kind("heuristic", HeuristicKind())


def evaluate_bots(state, bots, seed: int = 0) -> list[float]:
    """pyspiel.evaluate_bots(state, bots, seed), after checking there is one
    bot per player, in seat order (pyspiel crashes the process otherwise)."""
    n = state.num_players()
    bots = list(bots)
    if len(bots) != n:
        raise ValueError(f"{state.get_game()} needs {n} bots, one per seat; got {len(bots)}")
    for seat, bot in enumerate(bots):
        if not isinstance(bot, pyspiel.Bot):
            raise ValueError(f"bot {seat} is not a pyspiel.Bot: {bot!r}")
        if getattr(bot, "player", seat) != seat:
            raise ValueError(f"bot {seat} plays seat {bot.player}; pass the bots in seat order")
    return pyspiel.evaluate_bots(state, bots, seed)
