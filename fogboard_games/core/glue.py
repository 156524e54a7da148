"""The pyspiel Game and State of every fogboard game, written once.

A ruleset declares a `core.contract.Ruleset` (its Setup, Match, Encoder,
resampler and review); `core.registry.register` makes a `Game` subclass
bound to it and registers it with pyspiel. Everything pyspiel asks of a
game or a state is answered here, from the match's `mover`, `options` and
methods and from the encoder (docs/adding_a_game.md).

Speed notes (docs/performance.md). OpenSpiel's Python-game clone calls
`new_initial_state()` and then deep-copies every attribute, so a State
keeps exactly one attribute, its match, whose deep copy is free (copy on
write, core.sharing). `legal_actions`, `current_player`, `is_terminal`,
`is_chance_node`, `chance_outcomes` and the information-state/observation
methods are plain Python methods here, which serves Python callers without
a round trip through C++; C++ callers reach the same code through
`_legal_actions` and the observers, and the conformance suite checks that
both routes give the same answers.
"""

from __future__ import annotations

import operator
import random
import string

import pyspiel

from fogboard_games.core import guards
from fogboard_games.core.contract import (
    CHANCE,
    CORE_REVIEW_FIELDS,
    REVIEW_FORMAT,
    TERMINAL,
    Match,
    Ruleset,
)
from fogboard_games.core.observer import INFO_STATE, OBSERVATION, PieceObserver, obs_type_key

# Match.mover holds these outside decisions, so current_player is one attribute.
assert (CHANCE, TERMINAL) == (int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL))

_UTILITY = {
    "zero-sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant-sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general-sum": pyspiel.GameType.Utility.GENERAL_SUM,
}
_REWARDS = {
    "terminal": pyspiel.GameType.RewardModel.TERMINAL,
    "rewards": pyspiel.GameType.RewardModel.REWARDS,
}


class SeatError(ValueError, pyspiel.SpielError):
    """A player that is not a seat of the game, or no player where nobody is
    to move. Both a ValueError and a pyspiel.SpielError, so callers written
    for either catch it."""


def game_type(ruleset: Ruleset) -> pyspiel.GameType:
    """The pyspiel GameType a ruleset declares: sequential, imperfect
    information, every string and tensor provided."""
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=ruleset.short_name,
        long_name=ruleset.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if ruleset.chance else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[ruleset.utility],
        reward_model=_REWARDS[ruleset.reward_model],
        max_num_players=ruleset.max_players,
        min_num_players=ruleset.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=ruleset.params.defaults(),
    )


class Game(pyspiel.Game):
    """A fogboard game: `register` makes one subclass per ruleset, with `ruleset` set."""

    ruleset: Ruleset
    short_name = ""
    state_class: type[State]

    def __init__(self, params=None):
        ruleset = self.ruleset
        p = ruleset.params.resolve(params)
        setup = ruleset.setup(**p)  # the Setup takes the parameters by name
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.num_actions,
            max_chance_outcomes=setup.max_chance_outcomes,
            num_players=setup.num_players,
            min_utility=float(setup.min_utility),
            max_utility=float(setup.max_utility),
            utility_sum=setup.utility_sum,
            max_game_length=setup.max_game_length,
        )
        pyspiel.Game.__init__(self, self.game_type, info, p)
        self.resolved_params = p
        self.setup = setup
        setup.game = self  # lets states reach their game without crossing into C++
        self.encoder = setup.encoder = ruleset.encoder(setup)
        self.info_layout = self.encoder.layout(INFO_STATE)
        self.obs_layout = self.encoder.layout(OBSERVATION)
        self._template = setup.new_match()
        self._template.shared = True  # every fresh state starts from it

    def __reduce__(self):
        # pybind pickles a Game as its C++ object and never runs __init__, so
        # an unpickled game had none of its Python attributes. States reach
        # their game through their match, and state.serialize() /
        # pyspiel.deserialize_game_and_state pickle the state's attributes,
        # so every deserialized state failed on its first call. Rebuild the
        # game by loading it again from its resolved parameters instead.
        return (pyspiel.load_game, (self.short_name, dict(self.resolved_params)))

    def new_initial_state(self) -> State:
        return self.state_class(self, self._template)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(
                f"{self.short_name}: observer parameters are not supported, got {params}"
            )
        key = obs_type_key(iig_obs_type)
        return PieceObserver(key, self.encoder.layout(key), self.encoder, observed)


def seat_of(state: State, player) -> int:
    """`player` as a seat of the state's game: ValueError naming the seats if
    it is not one. None means the seat to move (SeatError where nobody is)."""
    m = state._m
    n = m.setup.num_players
    if player is None:
        player = m.mover
        if player < 0:
            where = "the game is over" if player == TERMINAL else "this is a chance node"
            raise SeatError(f"{where}, so there is no player to move: pass a seat 0..{n - 1}")
        return player
    if isinstance(player, bool):
        # True is an int to Python and would read as seat 1: never a seat here.
        raise SeatError(f"player must be a seat 0..{n - 1}, got {player!r} (a bool is not a seat)")
    if not hasattr(player, "__index__"):
        raise SeatError(f"player must be a seat 0..{n - 1}, got {player!r}")
    seat = player.__index__()  # numpy ints are seats too
    if not 0 <= seat < n:
        raise SeatError(f"player must be a seat 0..{n - 1}, got {player!r}")
    return seat


def observed(state: State, player) -> tuple[Match, int]:
    """What an observer encodes: the state's match and `player` as its seat.
    (The match is read here, in the glue, not through `State.truth`.)"""
    return state._m, seat_of(state, player)


def _actor(state: State, player) -> int:
    """`player` as an actor: a seat, or pyspiel's chance or terminal id (an
    int or a numpy int; not a bool, nor a float that equals one)."""
    if not isinstance(player, bool) and hasattr(player, "__index__"):
        actor = player.__index__()
        if actor == CHANCE or actor == TERMINAL:
            return actor
    return seat_of(state, player)


_STATE_INIT = pyspiel.State.__init__


class State(pyspiel.State):
    """A position of any fogboard game. Its one attribute is `_m`, the match."""

    def __init__(self, game: Game, match: Match):
        # OpenSpiel makes a state (and every clone) through
        # new_initial_state(), so this runs once per clone: one frame, no
        # super() lookup. `match` is the game's template match, shared with
        # every fresh state until the first move copies it; a clone
        # overwrites it with its original's straight away.
        _STATE_INIT(self, game)
        self._m = match

    @property
    def truth(self) -> Match:
        """The true match behind this state, every hidden fact included: for
        the glue, reviews, metrics and tests, never for a seat (a bot decides
        from what its seat's observer shows, docs/bots.md#fair-seats). Read
        it, never write it: other states may share it (use
        `writable_truth()` to change it)."""
        return self._m

    def writable_truth(self) -> Match:
        """This state's match, copied first if other states share it."""
        m = self._m
        if m.shared:
            m = self._m = m.copy()
        return m

    # ---- who moves (one attribute each: C++ calls these at every move) ------
    # The literals -4 and -1 are TERMINAL and CHANCE (checked at import):
    # constants, not global lookups, on the hottest calls.

    def current_player(self) -> int:
        return self._m.mover

    def is_terminal(self) -> bool:
        return self._m.mover == -4

    def is_chance_node(self) -> bool:
        return self._m.mover == -1

    def is_player_node(self) -> bool:
        return self._m.mover >= 0

    def is_simultaneous_node(self) -> bool:
        return False

    # ---- what may be done ----------------------------------------------------

    def legal_actions(self, player=None) -> list[int]:
        m = self._m
        if player is None or (type(player) is int and player == m.mover):
            return m.options[:]
        if _actor(self, player) == m.mover:  # e.g. a numpy int; else a clear error
            return m.options[:]
        return []

    def _legal_actions(self, player) -> list[int]:
        return self.legal_actions(player)

    def legal_actions_mask(self, player=None) -> list[int]:
        m = self._m
        actor = m.mover if player is None else _actor(self, player)
        setup = m.setup
        size = setup.max_chance_outcomes if actor == CHANCE else setup.num_actions
        mask = [0] * size
        for a in self.legal_actions(actor):
            mask[a] = 1
        return mask

    def chance_outcomes(self) -> list[tuple[int, float]]:
        m = self._m
        if m.mover == -1:  # CHANCE
            return m.odds[:]
        return []

    # ---- moves ----------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        # The one type check of an action, so a ruleset's play sees ints only.
        # pyspiel's apply_action hands over a Python int (numpy ints included,
        # converted); anything else reached here by a direct call (True, 1.0,
        # "0", None, a numpy int) is refused as an illegal action, as play
        # refused it before. `__class__ is int`: one compare on the fast path.
        if action.__class__ is not int:
            raise ValueError(self._refusal(action))
        m = self._m
        if m.shared:  # writable_truth(), inlined: this runs at every move
            m = self._m = m.copy()
        if not m.play(action):
            raise ValueError(self._refusal(action))

    def _refusal(self, action) -> str:
        m = self._m
        if m.mover == TERMINAL:
            return f"action {action!r} refused: the game is over"
        setup = m.setup
        if m.mover == CHANCE:
            kind, who, size = "chance outcome", "chance", setup.max_chance_outcomes
        else:
            kind, who, size = "action", f"seat {m.mover}", setup.num_actions
        try:
            what = setup.action_name(m.mover, action)
        except (ValueError, TypeError, IndexError):
            what = f"out of range 0..{size - 1}"
        return (
            f"illegal {kind} {action!r} ({what}) for {who}: {m.why_illegal(action)}; "
            f"legal: {self._legal_spellings(m.mover)}"
        )

    def _legal_spellings(self, actor: int) -> str:
        name = self._m.setup.action_name
        return ", ".join(name(actor, a) for a in self.legal_actions(actor)) or "none"

    def _action_to_string(self, player, action) -> str:
        return self._m.setup.action_name(_actor(self, player), action)

    def action_to_string(self, *args) -> str:
        """pyspiel's `action_to_string(action)` (the player to move) or
        `action_to_string(player, action)`, answered in Python: through
        pybind a bool player arrives as the int 1 or 0 and cannot be refused."""
        setup = self._m.setup
        if len(args) == 2:
            actor, action = args
            # (a seat as an int passes with one test, as in player_return)
            if actor.__class__ is not int or actor < 0 or actor >= setup.num_players:
                actor = _actor(self, actor)  # chance, terminal, a numpy int, or refused
        elif len(args) == 1:
            actor, action = self._m.mover, args[0]
        else:
            raise TypeError("action_to_string takes (action) or (player, action)")
        # pybind read the action as an int (numpy ints too); so does index().
        return setup.action_name(actor, operator.index(action))

    def string_to_action(self, *args) -> int:
        """The legal action of this node spelled `text`, as `action_to_string`
        spells it (ASCII case and surrounding or repeated spaces and tabs do
        not matter, see `_spelling`); ValueError listing the legal spellings
        for anything else.

        Called as `string_to_action(text)` (the player to move) or
        `string_to_action(player, text)`, as pyspiel allows.
        """
        if len(args) == 1:
            actor, text = self._m.mover, args[0]
        elif len(args) == 2:
            actor, text = _actor(self, args[0]), args[1]
        else:
            raise TypeError("string_to_action takes (text) or (player, text)")
        m = self._m
        if not isinstance(text, str):
            raise ValueError(f"an action is named by a string, got {type(text).__name__}")
        quoted = guards.quoted(text)
        if m.mover == TERMINAL:
            raise ValueError(f"{quoted} refused: the game is over, no action is legal")
        key = _spelling(text)
        name = m.setup.action_name
        legal = self.legal_actions(actor)
        for a in legal:
            if _spelling(name(actor, a)) == key:
                return a
        who = "chance" if actor == CHANCE else f"seat {actor}"
        if not legal:
            mover = "chance" if m.mover == CHANCE else f"seat {m.mover}"
            raise ValueError(f"{quoted} refused: {who} has no legal action here ({mover} moves)")
        raise ValueError(
            f"{quoted} is not a legal action of {who} here; legal: {self._legal_spellings(actor)}"
        )

    # ---- outcome ------------------------------------------------------------------

    def returns(self) -> list[float]:
        return list(self._m.returns())

    def rewards(self) -> list[float]:
        return list(self._m.rewards())

    def player_return(self, player) -> float:
        # pyspiel's own goes through C++ and back into returns(): 2.3 us
        # against 0.4 for a C++ game, at every terminal node of a search.
        m = self._m
        if player.__class__ is not int or player < 0 or player >= m.setup.num_players:
            player = seat_of(self, player)  # a clear error, or a numpy int
        return float(m.returns()[player])

    def player_reward(self, player) -> float:
        # pyspiel's own would read a bool as a seat (pybind makes it an int).
        return float(self._m.rewards()[seat_of(self, player)])

    # ---- what each seat knows -------------------------------------------------------

    def information_state_tensor(self, player=None) -> list[float]:
        m = self._m
        setup = m.setup
        # (the cheapest test that lets exactly the seats through: measured)
        if player.__class__ is not int or player < 0 or player >= setup.num_players:
            if player is None and m.mover >= 0:
                player = m.mover  # no player: the mover, answered as fast as a seat
            else:
                player = seat_of(self, player)  # a clear error, or a numpy int
        return setup.encoder.info_state_tensor(m, player)

    def observation_tensor(self, player=None) -> list[float]:
        player = seat_of(self, player)
        m = self._m
        encoder = m.setup.encoder
        layout = encoder.layout(OBSERVATION)
        buf = [0.0] * layout.size
        encoder.encode(buf, layout, m, player, "single")
        return buf

    def information_state_string(self, player=None) -> str:
        m = self._m
        setup = m.setup
        # (resolved as information_state_tensor resolves it)
        if player.__class__ is not int or player < 0 or player >= setup.num_players:
            if player is None and m.mover >= 0:
                player = m.mover
            else:
                player = seat_of(self, player)
        return setup.encoder.info_state_string(m, player)

    def observation_string(self, player=None) -> str:
        return self._m.setup.encoder.describe(self._m, seat_of(self, player), OBSERVATION)

    def __str__(self) -> str:
        return self._m.setup.encoder.true_text(self._m)

    # ---- research extras --------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler=None) -> State:
        """A state with the same information state for `player`, drawn by the
        ruleset's resampler with positive probability on every history the
        seat cannot rule out.

        `sampler()` returns a float in [0, 1) (OpenSpiel's convention, e.g.
        `rng.random` or `pyspiel.UniformProbabilitySampler`); it seeds the
        draw, so a seeded sampler gives repeatable worlds. Default: random.
        """
        seat = seat_of(self, player)
        m = self._m
        game = m.setup.game
        if m.mover == TERMINAL:
            raise ValueError("resample_from_infostate needs a running game, this one is over")
        draw_world = game.ruleset.resample
        if draw_world is None:
            raise NotImplementedError(f"{game.short_name} has no resampler")
        seed = int((sampler or random.random)() * 2**53)
        rng = random.Random(seed)
        target = self.information_state_string(seat)
        for _ in range(20):
            world = game.new_initial_state()
            for action in draw_world(m, seat, rng):
                world.apply_action(action)
            # A safety net: the resampler is exact by construction, and the
            # conformance suite checks it; a miss is drawn again.
            if world.information_state_string(seat) == target:
                return world
        raise RuntimeError(
            "resample_from_infostate found no consistent world; please report this history: "
            f"{game} {self.history()}"
        )

    def review(self) -> dict:
        """The end-of-game review: every hidden fact, turn by turn, as JSON-ready
        data that `fogboard_games.load_review` rebuilds (docs/reviews.md)."""
        m = self._m
        if m.mover != TERMINAL:
            raise ValueError("review() is only available once the game is over")
        game = m.setup.game
        body = game.ruleset.review(m)
        clash = sorted(set(body) & CORE_REVIEW_FIELDS)
        if clash:
            raise RuntimeError(f"{game.short_name}'s review redefines core fields {clash}")
        return {
            "format": REVIEW_FORMAT,
            "game": game.short_name,
            "params": dict(game.resolved_params),
            "actions": self.action_strings(),
            **body,
            "returns": list(m.returns()),
        }

    def action_strings(self) -> list[str]:
        """Every action of the history as its string, chance outcomes included."""
        game = self._m.setup.game
        replay = game.new_initial_state()
        out = []
        for action in self.history():
            out.append(replay.action_to_string(replay.current_player(), action))
            replay.apply_action(action)
        return out

    def finish_as_reviewed(self, review: dict) -> None:
        """End a running game as its review records, when it stopped by
        something that is not an action (a board game's wall clock)."""
        m = self._m
        finish = m.setup.game.ruleset.finish_as_reviewed
        if finish is None:
            raise ValueError("the review's actions leave the game running")
        finish(self.writable_truth(), review)


class _NoChance:
    """State methods of a game without chance: constants, not attribute reads."""

    def is_chance_node(self) -> bool:
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []


def state_class(ruleset: Ruleset, name: str) -> type[State]:
    """The State class of a ruleset's games: State itself, specialised where
    the ruleset allows (a game without chance answers is_chance_node with a
    constant). It is made a name of this module so that pickle finds it."""
    bases = (State,) if ruleset.chance else (_NoChance, State)
    cls = type(name, bases, {"__module__": __name__, "__qualname__": name})
    globals()[name] = cls
    return cls


# A-Z to a-z and a tab to a space, nothing else (see _spelling).
_ASCII_FOLD = str.maketrans(string.ascii_uppercase + "\t", string.ascii_lowercase + " ")


def _spelling(text: str) -> str:
    """An action string with ASCII case and spacing normalised: A-Z read as
    a-z, runs of spaces and tabs as one space, none at either end; every
    other character as it is (docs/adding_a_game.md#players-and-action-strings).

    str.lower() and str.split() are Unicode-aware: they would read the
    Kelvin sign as k and a no-break space or U+2028 as a space, so text
    that only looks like a legal move would play it.
    """
    if text.isascii() and text.isprintable():
        # The common case, three times quicker: in printable ASCII, split()
        # splits at spaces only and lower() folds A-Z only.
        return " ".join(text.split()).lower()
    return " ".join([word for word in text.translate(_ASCII_FOLD).split(" ") if word])
