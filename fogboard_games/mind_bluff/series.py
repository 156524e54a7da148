"""A best-of-3 series of Mind Bluff (docs/mind_bluff.md#the-series): `fogboard_mind_bluff_series`.

First to 2 game wins, at most 3 games, each played by the rules of
`rules.py` with `max_eat` (the one parameter). Game 1: P1 first, 30
dango. Game 2: P2 first, 30 dango. Game 3, only at 1-1: a public fair coin
for the first seat (`P1 first` / `P2 first`), then a secret uniform start
of 29, 30 or 31 (`start 29` ..). Honesty debt and the turn log start
afresh each game. When a game ends its full review (every eat, the start)
becomes known to both seats, and their information states keep every
finished review; resampling never alters a finished game. A finished game is reviewable
while the series runs: `game_review(state, k)`, its review as a single
Mind Bluff game (`state.review()` waits for the series). Returns: +1 the
series winner, -1 the loser (terminal rewards). `max_game_length` = 88 +
88 + 91 = 267 decisions.

Tensors and strings: `score` and `game` (public), then per game g a
`review{g}` piece (public, perfect recall: the finished game as an
observer of every seat sees it, zeros before it ends) and a `game{g}`
piece (that game as the Mind Bluff observer of the same kind sees it,
zeros before it starts; for a current view only the game under way).
"""

from __future__ import annotations

import random
import re

import numpy as np
import pyspiel

from fogboard_games.core import contract, registry
from fogboard_games.core.contract import NO_OPTIONS, TERMINAL, Ruleset
from fogboard_games.core.guards import describe
from fogboard_games.core.observer import Layout, ObsKey, PieceList
from fogboard_games.core.params import Param, ParamSpec
from fogboard_games.mind_bluff import observer, person, resample, review, rules
from fogboard_games.mind_bluff.game import BATCHED
from fogboard_games.mind_bluff.rules import SEAT_NAMES

SHORT_NAME = "fogboard_mind_bluff_series"
MIND_BLUFF = "fogboard_mind_bluff"  # the single game each game of the series is
# (start, start_spread, first_player) of games 1, 2 and 3.
GAMES = ((30, 0, 0), (30, 0, 1), (30, 1, -1))
REVIEW_KEY = (True, True, "all")  # a finished game: everything shown to everyone


class SeriesSetup(contract.Setup):
    def __init__(self, max_eat: int):
        self.built_from = (max_eat,)
        self.max_eat = max_eat
        self.games = tuple(rules.Setup(s, sp, f, max_eat) for s, sp, f in GAMES)
        self.num_players = 2
        self.num_actions = self.games[0].num_actions
        self.max_chance_outcomes = self.games[2].max_chance_outcomes  # coin 0, 1; starts 29..31
        self.min_utility, self.max_utility = -1.0, 1.0
        self.utility_sum = 0.0
        self.max_game_length = sum(g.max_game_length for g in self.games)  # 88 + 88 + 91

    def new_match(self) -> SeriesMatch:
        return SeriesMatch(self)

    def action_name(self, player: int, action: int) -> str:
        return self.games[2].action_name(player, action)


class SeriesMatch(contract.Match):
    """The finished games (immutable once over, so shared by copies) and the
    game under way (copied)."""

    __slots__ = ("past", "now", "score")

    def __init__(self, setup: SeriesSetup):
        self.setup = setup
        self.past = ()
        self.now = setup.games[0].new_match()
        self.score = (0, 0)
        self.shared = False
        self.cache = None
        self._mirror()

    def _mirror(self):
        now = self.now
        self.mover, self.options, self.odds = now.mover, now.options, now.odds

    def copy(self) -> SeriesMatch:
        m = SeriesMatch.__new__(SeriesMatch)
        m.setup = self.setup
        m.past, m.score = self.past, self.score
        m.now = self.now.copy() if self.now is not None else None
        m.mover, m.options, m.odds = self.mover, self.options, self.odds
        m.shared = False
        m.cache = None
        return m

    def games(self) -> tuple[rules.Match, ...]:
        """Every game started: the finished ones, then the one under way."""
        return self.past + ((self.now,) if self.now is not None else ())

    def play(self, action: int) -> bool:
        if self.now is None or not self.now.play(action):
            return False
        if self.now.mover != TERMINAL:
            self._mirror()
            return True
        w = self.now.winner
        self.score = (self.score[0] + (w == 0), self.score[1] + (w == 1))
        self.past += (self.now,)
        if max(self.score) == 2:
            self.now = None
            self.mover, self.options, self.odds = TERMINAL, NO_OPTIONS, contract.NO_ODDS
        else:
            self.now = self.setup.games[len(self.past)].new_match()
            self._mirror()
        return True

    def returns(self) -> tuple[float, float]:
        if self.now is not None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.score[0] == 2 else (-1.0, 1.0)

    def why_illegal(self, action) -> str:
        if self.now is None:
            return "the series is over"
        return self.now.why_illegal(action)


class SeriesEncoder(contract.Encoder):
    def __init__(self, setup: SeriesSetup):
        super().__init__(setup)
        self.inner = [observer.MindBluffEncoder(g) for g in setup.games]

    def pieces(self, key: ObsKey) -> PieceList:
        recall, public, private = key
        out = []
        if private == "single":
            out.append(("player", (2,)))
        if public:
            out += [("score", (2,)), ("game", (3,))]
        for g, enc in enumerate(self.inner, 1):
            if recall and public:
                out.append((f"review{g}", (enc.layout(REVIEW_KEY).size,)))
            size = enc.layout(key).size
            if size:
                out.append((f"game{g}", (size,)))
        return out

    def counts(self) -> dict[str, int]:
        return {"score": 2}  # games won

    def bounds(self, key: ObsKey) -> tuple[np.ndarray, np.ndarray]:
        """The games' tensors whole, each piece with its game's own bounds."""
        low, high = super().bounds(key)
        layout = self.layout(key)
        for g, inner in enumerate(self.inner, 1):
            for name, inner_key in ((f"game{g}", key), (f"review{g}", REVIEW_KEY)):
                if name in layout.offset:
                    part = slice(layout.offset[name], layout.offset[name] + layout.shape[name][0])
                    low[part], high[part] = inner.bounds(inner_key)
        return low, high

    def encode(self, buf, layout: Layout, match: SeriesMatch, player: int, private: str) -> None:
        at = layout.offset
        key = layout.key
        recall, _, _ = key
        if "player" in at:
            buf[at["player"] + player] = 1.0
        if "score" in at:
            buf[at["score"]], buf[at["score"] + 1] = float(match.score[0]), float(match.score[1])
            if match.now is not None:
                buf[at["game"] + len(match.past)] = 1.0
        for g, m in enumerate(match.games()):
            enc = self.inner[g]
            shown = [(f"game{g + 1}", key)]
            if m.mover == TERMINAL:
                shown.append((f"review{g + 1}", REVIEW_KEY))
            if not recall and m is not match.now:
                shown = []  # a current view shows the game under way only
            for name, inner_key in shown:
                if name in at:
                    start = at[name]
                    for i, x in self._nonzero(enc, m, player, inner_key):
                        buf[start + i] = x

    @staticmethod
    def _nonzero(enc, m: rules.Match, player: int, key: ObsKey) -> list[tuple[int, float]]:
        """(index, value) of every nonzero entry of game `m` as `enc` encodes it.

        A finished game never changes and every copy of the series shares
        it, so its entries are kept in its own `cache` slot (the Mind Bluff
        encoder uses no cache); the game under way is encoded afresh."""
        cache = m.cache if m.mover == TERMINAL else None
        if cache is not None and (player, key) in cache:
            return cache[player, key]
        layout = enc.layout(key)
        tmp = [0.0] * layout.size
        _, _, private = key
        enc.encode(tmp, layout, m, player, private)
        entries = [(i, x) for i, x in enumerate(tmp) if x]
        if m.mover == TERMINAL:
            if m.cache is None:
                m.cache = {}
            m.cache[player, key] = entries
        return entries

    def describe(self, match: SeriesMatch, player: int, key: ObsKey) -> str:
        recall, public, private = key
        parts = [SEAT_NAMES[player]] if private == "single" else []
        if public:
            parts.append(f"score {match.score[0]} {match.score[1]}")
        for g, m in enumerate(match.games()):
            enc = self.inner[g]
            if not recall and m is not match.now:
                continue
            words = []
            if recall and public and m.mover == TERMINAL:
                words.append("review: " + enc.describe(m, player, REVIEW_KEY))
            if enc.layout(key).size:
                words.append(enc.describe(m, player, key))
            if words:
                parts.append(f"game {g + 1}: " + " / ".join(words))
        if public and match.now is None:
            parts.append(f"series over, {SEAT_NAMES[0 if match.score[0] == 2 else 1]} wins")
        return " || ".join(parts) or "-"

    def true_text(self, match: SeriesMatch) -> str:
        parts = [f"score {match.score[0]} {match.score[1]}"]
        for g, m in enumerate(match.games()):
            parts.append(f"game {g + 1}: " + self.inner[g].true_text(m))
        return " || ".join(parts)


def series_resample(match: SeriesMatch, player: int, rng: random.Random) -> list[int]:
    """Every finished game replayed exactly, the game under way resampled."""
    actions = []
    for m in match.past:
        actions += resample.actions_of(m, m.start, [t.actual for t in m.turns])
    return actions + resample.resample(match.now, player, rng)


def series_review(match: SeriesMatch) -> dict:
    return {
        "games": [review.review(m) for m in match.past],
        "score": list(match.score),
        "winner": 0 if match.score[0] == 2 else 1,
    }


def game_review(state, game: int) -> dict:
    """The review of game `game` (1, 2 or 3) of a series once it is over,
    while the series runs or after it (docs/mind_bluff.md#the-series).

    A game of the series is a Mind Bluff game of its own (game 3: a coin
    and a secret start of 29..31), so its review is that game's: a
    `fogboard_mind_bluff` review, with that game's parameters and actions,
    which `fogboard_games.load_review` rebuilds; its own fields are the
    series review's `games[game - 1]`. ValueError for a game still under
    way or never played.
    """
    match = getattr(state, "truth", None)
    if not isinstance(match, SeriesMatch):
        raise ValueError(f"game_review reads a state of {SHORT_NAME}, got {describe(state)}")
    played = len(match.past)
    finished = ", ".join(map(str, range(1, played + 1))) or "none yet"
    if type(game) is not int or not 1 <= game <= len(GAMES):
        raise ValueError(f"game must be 1, 2 or 3 (an int), got {describe(game)}")
    if game > played:
        if match.now is None:
            why = "was not played (the series is over)"
        else:
            why = "is still under way" if game == played + 1 else "has not started"
        raise ValueError(
            f"game {game} of the series {why}: a game's review is available once it is over "
            f"(finished: {finished})"
        )
    m = match.past[game - 1]
    params = dict(zip(("start", "start_spread", "first_player", "max_eat"), m.setup.built_from))
    single = pyspiel.load_game(MIND_BLUFF, params)
    replay = single.new_initial_state()
    for action in resample.actions_of(m, m.start, [t.actual for t in m.turns]):
        replay.apply_action(action)
    return replay.review()


def truth_replay(series: dict) -> str:
    """The Truth Replay of a series review: every game, every hidden count."""
    out = []
    for g, game in enumerate(series["games"], 1):
        out.append(f"game {g}")
        out.append(review.truth_replay(game))
    a, b = series["score"]
    out.append(f"series {a}-{b}: {SEAT_NAMES[series['winner']]} wins")
    return "\n".join(out)


# The rules in brief, for text seats (fogboard_games.bots.text); docs/mind_bluff.md has them whole.
BRIEF = """\
A best-of-3 series of Mind Bluff: the first seat to win 2 games wins the series (+1, the
other -1). The seats are P1 (seat 0) and P2 (seat 1).
Each game: two seats eat from a pile of dango whose count nobody is shown. On your turn
you say "all done" (you win if exactly one dango is left, else you lose) or "eat k" (k
from 1 to max_eat, 3 by default); eating the last dango loses at once. After any other
eat you "claim k", true or not, unless you owe honesty debt, which forces the true claim
and pays one debt back. The other seat answers "believe" or "doubt": the verdict TRUE
adds one debt to the doubter, BLUFF one to the claimant (the real eat stays hidden).
Game 1: P1 first, 30 dango. Game 2: P2 first, 30 dango. Game 3 (only at 1-1): a public
coin picks the first seat, then the start is a secret draw of 29, 30 or 31.
Debts start afresh each game. When a game ends its whole record (every eat, the start)
is shown to both seats and stays in your record ("review").
Your record shows the score, every claim, answer, verdict and both debts, your own eats
as "ate k" and the other seat's as "eats".
"""

# ---- terminal play (docs/bots.md#terminal-play): the seat's own strings, game by game ----

EATEN = re.compile(r"T\d+ (P[12]) ate (\d+)")  # an eat of a finished game's review
GAME = re.compile(r"game (\d+): (.*)")  # one game's part of a series string
OVER = re.compile(
    r"over ([a-z-]+), (P[12]) wins,(?: start \d+,)? remaining (\d+)"
)  # a finished game's end


def series_for_person(setup: SeriesSetup, observation: str, seat: int) -> str:
    """The score, then the view of the game under way (from the seat's observation)."""
    parts = observation.split(" || ")
    first, second = parts[1].split()[1:]
    lines = [f"score: P1 {first}, P2 {second} (first to 2 wins)"]
    for part in parts[2:]:
        game = GAME.fullmatch(part)
        if game:
            lines += [f"game {game.group(1)}", person.view_text(game.group(2))]
    return "\n".join(lines)


def series_record(setup: SeriesSetup, info_state: str, seat: int) -> list[str]:
    """Each game's record as the seat saw it; a finished game's ending and
    its every eat, which its end shows both seats (its review in the string)."""
    lines = []
    for part in info_state.split(" || ")[2:]:
        game = GAME.fullmatch(part)
        if not game:
            continue
        g, text = game.groups()
        shown, own = "", text
        if text.startswith("review: "):
            shown, _, own = text[len("review: ") :].partition(" / ")
        lines.append(f"game {g}")
        lines += person.record_text(own, seat)
        if shown:
            eats = ", ".join(f"{who} ate {k}" for who, k in EATEN.findall(shown))
            start = re.findall(r"start \d+", shown)
            lines.append(f"game {g} shown whole: " + "; ".join([*start, eats or "no eats"]))
            name, winner, remaining = OVER.search(shown).groups()
            won = SEAT_NAMES.index(winner)
            why = person.ending_text(name, won, int(remaining))
            lines.append(f"game {g} over: {winner} wins: {why}")
    return lines


def series_verdict(match: SeriesMatch) -> str:
    """Who won the series, by how much, and how its last game ended."""
    w = 0 if match.score[0] == 2 else 1
    last = match.past[-1]
    return (
        f"{rules.seat_label(w)} wins the series {match.score[w]}-{match.score[1 - w]}: "
        f"in the last game {person.ending(last)}"
    )


RULESET = Ruleset(
    short_name=SHORT_NAME,
    long_name="Fogboard Mind Bluff series (best of 3)",
    docs="docs/mind_bluff.md",
    params=ParamSpec(
        SHORT_NAME,
        [Param("max_eat", 3, "most dango one eat takes (and most one claim says)", 1, 3)],
    ),
    setup=SeriesSetup,  # built from the parameters by name
    encoder=SeriesEncoder,
    review=series_review,
    truth_replay=truth_replay,
    resample=series_resample,
    chance=True,
    brief=BRIEF,
    seat_label=rules.seat_label,
    for_person=series_for_person,
    record=series_record,
    verdict=series_verdict,
    batched=BATCHED,
    drawer="fogboard_games.mind_bluff.drawer:SeriesDrawer",
)
MindBluffSeriesGame = registry.register(RULESET)

registry.add_preset(
    "mind-bluff-series",
    SHORT_NAME,
    {},
    "best of 3: 30 dango P1 first, 30 P2 first, then a coin and a secret 29..31",
)
registry.add_conformance_extras(SHORT_NAME, [{"max_eat": 2}])
