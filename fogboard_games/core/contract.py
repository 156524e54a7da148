"""The contract between core and a ruleset (docs/adding_a_game.md).

A ruleset supplies rules, an encoder and a few hooks; `core.glue` turns them
into a pyspiel Game and State, written once for every game. The parts:

* `Setup`: the fixed facts of one configured game, built from validated
  parameters (no pyspiel): sizes and bounds for pyspiel's GameInfo, the
  action names, and `new_match()`.
* `Match`: everything that changes during a game, in one object (OpenSpiel
  clones states constantly, and a clone deep-copies every attribute of the
  state, so a state keeps exactly one: its match). The glue reads its
  attributes `mover`, `options`, `odds` and `shared` at every call, and
  calls `play`, `copy`, `returns` and `rewards`.
* `Encoder`: the tensor pieces and strings of every IIGObservationType, and
  the string of the true state.
* `Ruleset`: the declaration tying them together, with the game type
  (utility, reward model, chance), the parameters, the resampler and the
  review; `core.registry.register(ruleset)` makes it a pyspiel game.

Nothing here calls pyspiel: a ruleset's rules and encoder can be used and
tested without a pyspiel game.
"""

from __future__ import annotations

import abc
import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal

import numpy as np

from fogboard_games.core.observer import INFO_STATE, Layout, ObsKey, PieceList
from fogboard_games.core.params import ParamSpec
from fogboard_games.core.sharing import HeldByGame, SharedOnClone

# pyspiel's player ids for chance and for the end, as plain ints: a match's
# `mover` holds them outside decisions, so that the glue answers
# current_player, is_terminal and is_chance_node with one attribute read
# (core.glue checks at import that they agree with pyspiel's).
CHANCE = -1
TERMINAL = -4

# The empty option list of a finished game (readers copy options, never change them).
NO_OPTIONS: list[int] = []
NO_ODDS: list[tuple[int, float]] = []  # the odds of a game without chance
# A distance `metrics` reports when no route remains (the boards' distToWin):
# a sentinel, not a distance, which the league leaves out of its means.
NO_ROUTE = 99

# The format every review names, and the fields core writes into every
# review (a ruleset's review adds its own; core.review loads them).
REVIEW_FORMAT = "fogboard_games.review.v1"
CORE_REVIEW_FIELDS = frozenset({"format", "game", "params", "actions", "returns"})

Utility = Literal["zero-sum", "constant-sum", "general-sum"]
RewardModel = Literal["terminal", "rewards"]


class Setup(HeldByGame, metaclass=abc.ABCMeta):
    """The fixed facts of one configured game (pure rules: no pyspiel).

    Subclasses set these attributes in `__init__`; the glue builds pyspiel's
    GameInfo from them. The glue also sets `game` (its game object) and
    `encoder` (the game's Encoder), None when the rules are used alone: a
    state reaches its encoder in two plain attribute reads, without the
    slower attribute lookup of a pybind game object. A pickled Setup is a
    reference to its game, `game.setup` (core.sharing.HeldByGame).
    """

    game: Any = None
    encoder: Encoder | None = None

    num_players: int
    num_actions: int  # pyspiel's num_distinct_actions
    max_chance_outcomes: int  # 0 for a deterministic game
    min_utility: float
    max_utility: float
    utility_sum: float | None  # None for a general-sum game
    max_game_length: int  # most decisions in a game (chance outcomes not counted)

    @abc.abstractmethod
    def new_match(self) -> Match:
        """The match at the start of a game."""

    @abc.abstractmethod
    def action_name(self, player: int, action: int) -> str:
        """The string of `action` taken by `player` (CHANCE for chance).

        Readable and unique among the legal actions of a node; it never
        shows an internal index. ValueError if `action` is out of range.
        """


class Match(SharedOnClone, metaclass=abc.ABCMeta):
    """The changing part of a game.

    Attributes the glue reads on every call (keep them current after each move):

    * `mover`: the seat to decide, CHANCE at a chance node, TERMINAL at the end;
    * `options`: the legal actions now, ascending (chance outcomes at a
      chance node, NO_OPTIONS at the end). Readers copy it and never change
      it. A subclass may change it in place only if no other match holds the
      same list: `copy()` must then give the copy a list of its own (the
      boards do), while lists that are never changed may be shared by every
      match (Liar's Dice);
    * `odds`: at a chance node, its (outcome, probability) pairs, in the
      order of `options` (read only there; shared like `options`);
    * `shared`: set when several states hold the match (a fresh state shares
      its game's template, a clone its original's); the glue copies a shared
      match before a move;
    * `setup`: the game's Setup;
    * `cache`: a slot the encoder may use for per-match caches (see
      docs/adding_a_game.md); `copy()` must not carry it over.
    """

    __slots__ = ("setup", "mover", "options", "odds", "shared", "cache")

    @abc.abstractmethod
    def copy(self) -> Match:
        """An independent, unshared copy (the encoder's cache left empty)."""

    @abc.abstractmethod
    def play(self, action: int) -> bool:
        """Apply `action` if it is legal now (True); otherwise change nothing (False).

        `action` is an int (the glue refuses any other type before play), but
        any int: negative, past the actions, illegal here.
        """

    @abc.abstractmethod
    def returns(self) -> Sequence[float]:
        """Each seat's total so far (the final result once the game is over)."""

    def rewards(self) -> Sequence[float]:
        """What each seat was paid since the last decision.

        Terminal-reward games pay everything at the end; a ruleset with the
        `rewards` model overrides this. OpenSpiel's loops read rewards at
        decisions and at the end only, so what a move pays stays here through
        the chance nodes after it until the next decision; rewards read so
        sum to the returns (core.testing checks it).
        """
        if self.mover == TERMINAL:
            return self.returns()
        return [0.0] * self.setup.num_players

    def why_illegal(self, action: int) -> str:
        """A short reason why `action` is refused here (the glue adds the rest)."""
        return "not a legal action here"


class Encoder(metaclass=abc.ABCMeta):
    """Tensor pieces and strings of one configured game (docs/adding_a_game.md).

    `pieces(key)` lists the named pieces of an observation key (perfect
    recall, public info, private info: "none" / "single" / "all"); the same
    `encode` fills the numpy buffer of a pyspiel observer and the plain list
    of the State's Python methods, so the routes cannot drift apart. Caches
    an encoder keeps (plans of offsets, memos of strings) live here or in
    `Match.cache`, never on the Setup.
    """

    # A NamedTuple whose fields name pieces: `plan(layout)` gives their
    # offsets in a layout (None where absent), the encoder's hot-path table.
    Plan: ClassVar[type | None] = None

    def __init__(self, setup: Setup):
        self.setup = setup
        self._layouts: dict[ObsKey, Layout] = {}
        self._plans: dict[ObsKey, tuple] = {}

    def layout(self, key: ObsKey) -> Layout:
        """The Layout of an observation key, built once."""
        layout = self._layouts.get(key)
        if layout is None:
            layout = self._layouts[key] = Layout(self.pieces(key), key)
        return layout

    def plan(self, layout: Layout) -> tuple:
        """The offsets of the pieces `Plan` names in `layout`, built once per key."""
        plan = self._plans.get(layout.key)
        if plan is None:
            fields = self.Plan._fields
            plan = self._plans[layout.key] = self.Plan(*(layout.offset.get(f) for f in fields))
        return plan

    @abc.abstractmethod
    def pieces(self, key: ObsKey) -> PieceList:
        """(name, shape) of every piece an observer of this key shows, in order."""

    def counts(self) -> dict[str, int | tuple[int, int]]:
        """The pieces that count rather than flag, by name: the most each entry
        holds, or (least, most) where it may go below 0; every other piece
        holds flags and one-hots, 0 or 1 (default: no count piece)."""
        return {}

    def bounds(self, key: ObsKey) -> tuple[np.ndarray, np.ndarray]:
        """(low, high), float32: the least and the most each entry of `key`'s
        tensor can hold, from `counts`: a Gymnasium Box's bounds, and what a
        compact dtype of the batched engine must hold (the conformance suite
        checks every observer's tensor against them)."""
        layout = self.layout(key)
        low, high = np.zeros(layout.size, np.float32), np.ones(layout.size, np.float32)
        for name, most in self.counts().items():
            if name in layout.offset:
                start = layout.offset[name]
                part = slice(start, start + int(np.prod(layout.shape[name])))
                low[part], high[part] = most if isinstance(most, tuple) else (0, most)
        return low, high

    def high(self, key: ObsKey) -> np.ndarray:
        """The most each entry of `key`'s tensor can hold (`bounds`)."""
        return self.bounds(key)[1]

    @abc.abstractmethod
    def encode(self, buf, layout: Layout, match: Match, player: int, private: str) -> None:
        """Write `layout`'s pieces for `player` into the zeroed `buf` (a list or
        numpy array). `private` is layout.key[2]: "none", "single" or "all"."""

    @abc.abstractmethod
    def describe(self, match: Match, player: int, key: ObsKey) -> str:
        """The string an observer of `key` shows `player`."""

    def info_state_tensor(self, match: Match, player: int) -> list[float]:
        """The default information-state tensor (the Python route).

        The default encodes from scratch; an encoder may resume a per-match
        cache instead (tests compare the two routes at every step).
        """
        layout = self.layout(INFO_STATE)
        buf = [0.0] * layout.size
        self.encode(buf, layout, match, player, "single")
        return buf

    def info_state_string(self, match: Match, player: int) -> str:
        """The default information-state string (the Python route), the
        string searches key on: `describe` with the default key, unless the
        encoder answers it by a shorter road (tests compare the two)."""
        return self.describe(match, player, INFO_STATE)

    @abc.abstractmethod
    def true_text(self, match: Match) -> str:
        """The whole true state, hidden facts included (`str(state)`)."""


@dataclasses.dataclass(frozen=True)
class Batched:
    """A ruleset's batched engine (fogboard_games.batch, docs/batch.md), its
    batched bots and what it covers. Each is named by where it lives,
    "package.module:Name", and imported only when first used
    (`registry.resolve`): declaring it imports no engine (nor numba).

    * `engine`: the batch.Env subclass, built as engine(game, batch_size,
      seed, observation, dtype);
    * `covers`: the parameters it takes, as `batch.COVERED` says them
      ("any parameters"); the engine refuses any other;
    * `bots`: (kind, "package.module:Name") pairs, the batched bots beside
      the random one every engine has (a batch.bots.BatchBot subclass
      built as bot(env, seed));
    * `not_vectorized`: why the game's heuristic has no batched form (what
      batch.bots.make_bot's refusal says), "" when it has one.
    """

    engine: str
    covers: str = "any parameters"
    bots: tuple[tuple[str, str], ...] = ()
    not_vectorized: str = ""

    def __post_init__(self):
        for kind, where in self.bots:
            _check_where(f"batched bot {kind!r}", where)
        _check_where("batched engine", self.engine)


def _check_where(what: str, where) -> None:
    module, _, name = where.partition(":") if isinstance(where, str) else ("", "", "")
    if not module or not name.isidentifier():
        raise ValueError(f"a {what} is named as 'package.module:Name', got {where!r}")


@dataclasses.dataclass(frozen=True)
class Ruleset:
    """What a ruleset declares; `core.registry.register` does the rest.

    * `setup(**params)` builds the Setup from the validated parameters,
      by name (the ParamSpec's defaults merged in, its checks passed): a
      Setup class whose arguments are the parameters is its own `setup`;
    * `encoder(setup)` builds the Encoder;
    * `resample(match, player, rng)` returns the actions (chance outcomes
      included) of a history the seat cannot tell from the true one, drawn
      with positive probability on every such history; None if the ruleset
      has no resampler;
    * `review(match)` returns the ruleset's fields of the end-of-game review
      (core adds format, game, params, actions and returns);
    * `finish_as_reviewed(match, review)`, optional, ends a running match as
      a review records when the game stopped by something that is not an
      action (a wall clock), or raises ValueError;
    * `brief`, optional, the rules a player needs in 10 to 20 lines of plain
      text, consistent with the `docs` page: what a text seat's prompt
      shows as the rules (fogboard_games.bots.text). It must hold only what
      every seat knows (rules, names, the parameters' defaults), never a
      fact of a particular game; "" when the ruleset has none (a text seat
      is then told to choose from its legal moves);
    * `truth_replay(review)`, optional, renders a review (as `review()`
      gives it) turn by turn with every hidden fact shown: what
      `python -m fogboard_games review FILE` prints;
    * `seat_label(p)`, optional, how the game's own strings name seat p
      (a text seat's prompt tells it who it is so); `seat p` when None;
    * `metrics(match, seat)`, optional, one seat's figures of a finished
      match as {name: number}, read from the true match (part of a review,
      never a seat's decision): the league reports their means beside the
      scores (docs/league.md);
    * `for_person(setup, observation, seat)`, optional, the seat's view now
      laid out for a person (terminal play, docs/bots.md#terminal-play),
      from its observation string and the game's fixed facts: it is handed
      nothing the seat does not know;
    * `record(setup, info_state, seat)`, optional, the seat's record of the
      game so far, one line per event, oldest first, from its
      information-state string: terminal play announces each new line as it
      happens and prints them all for `history`;
    * `verdict(match)`, optional, who won and why, said once the game is
      over, when every seat may know it ("X (seat 0) wins: joined its
      edges"; a tie said as a tie);
    * `spectator(match)`, optional, what a spectator sees now, from the
      true match: every fact the rules show a spectator, for pages and
      reviews; never a seat's input. None where a spectator sees the
      public view (a public-only observer's string);
    * `tree_arrays(setup, limit)`, optional, the raw arrays of the whole
      game tree in the order and numbering of solve.Tree's depth-first walk,
      laid out by the ruleset where its tree factors (one-round Liar's Dice:
      the deals times one bidding tree); None where it does not, and the
      tree walks the game instead; ValueError past `limit` histories
      (docs/solving.md#the-factored-road lists the arrays);
    * `batched`, optional, the batched engine and its bots (`Batched`):
      `batch.make` builds it, `batch.bots.make_bot` its bots, and the
      conformance suite crosschecks it against pyspiel on every preset;
    * `drawer`, optional, "package.module:Name" of the pages.drawers.Drawer
      subclass that draws the true state on the HTML pages, built as
      drawer(game); pages show the strings only without one.
    """

    short_name: str
    long_name: str
    docs: str  # the docs page stating the rules, e.g. "docs/boards.md"
    params: ParamSpec
    setup: Callable[..., Setup]  # called as setup(**params)
    encoder: Callable[[Setup], Encoder]
    review: Callable[[Match], dict]
    resample: Callable[[Match, int, random.Random], list[int]] | None = None
    finish_as_reviewed: Callable[[Match, dict], None] | None = None
    utility: Utility = "zero-sum"
    reward_model: RewardModel = "terminal"
    chance: bool = False  # explicit chance nodes with exact probabilities
    min_players: int = 2
    max_players: int = 2
    brief: str = ""  # the rules in brief, for text seats
    # A review rendered turn by turn with every hidden fact (`review FILE`).
    truth_replay: Callable[[dict], str] | None = None
    seat_label: Callable[[int], str] | None = None  # seat p as the strings name it
    metrics: Callable[[Match, int], dict] | None = None  # a seat's figures at the end
    for_person: Callable[[Setup, str, int], str] | None = None  # a seat's view, for a person
    record: Callable[[Setup, str, int], list[str]] | None = None  # a seat's events so far
    verdict: Callable[[Match], str] | None = None  # who won and why, at the end
    spectator: Callable[[Match], str] | None = None  # a spectator's view now, never a seat's
    # The raw arrays of the whole game tree, laid out by the ruleset (solve.Tree).
    tree_arrays: Callable[[Setup, int], dict | None] | None = None
    batched: Batched | None = None  # the batched engine and its bots (docs/batch.md)
    drawer: str | None = None  # "package.module:Name" of its page drawer (docs/pages.md)

    UTILITIES: ClassVar[tuple[str, ...]] = ("zero-sum", "constant-sum", "general-sum")
    REWARD_MODELS: ClassVar[tuple[str, ...]] = ("terminal", "rewards")

    def __post_init__(self):
        if self.utility not in self.UTILITIES:
            raise ValueError(f"{self.short_name}: utility must be one of {self.UTILITIES}")
        if self.reward_model not in self.REWARD_MODELS:
            raise ValueError(f"{self.short_name}: reward_model must be one of {self.REWARD_MODELS}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.short_name}: need 1 <= min_players <= max_players")
        if self.batched is not None and not isinstance(self.batched, Batched):
            raise ValueError(f"{self.short_name}: batched must be a contract.Batched")
        if self.drawer is not None:
            _check_where("drawer", self.drawer)
        if not isinstance(self.brief, str):
            raise ValueError(f"{self.short_name}: brief must be a str (the rules in brief)")
