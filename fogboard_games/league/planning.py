"""The league's request and its jobs (docs/league.md#what-is-played).

`plan` turns the presets and bot kinds asked for into jobs in a fixed
order, each with the seed of every game it plays (`episode_seed`): the
order and the seeds alone fix the table, whichever backend plays the jobs.
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Sequence

from fogboard_games import bots as bot_kinds
from fogboard_games.core.named import load_named
from fogboard_games.core.params import is_int
from fogboard_games.core.review import seat_kind_problem

# Games per seat assignment, at most. The whole plan is built before the
# first game (a resume compares it with the journal, the table is made
# from every game), so 10**30 would exhaust memory long before it played;
# this is far above any league run here (the README's plays 50) and keeps
# the plan to a few thousand jobs per assignment.
MAX_EPISODES = 100_000


class LeagueError(ValueError):
    """A league request that cannot run (an unknown preset or bot, a bad count)."""


class Interrupted(KeyboardInterrupt):
    """A league stopped by Ctrl-C mid-run: `played` of its `total` games
    were finished, and are in its journal when `journaled` (docs/league.md)."""

    def __init__(self, played: int, total: int, journaled: bool):
        super().__init__(f"interrupted after {played} of {total} games")
        self.played, self.total, self.journaled = played, total, journaled


@dataclasses.dataclass(frozen=True)
class Job:
    """Games of one preset with one assignment of bot kinds to seats."""

    preset: str
    kinds: tuple[str, ...]  # one bot kind per seat
    focal: tuple[int, ...]  # the seats whose scores the table reports
    first: int  # the first episode's index
    count: int  # episodes
    seed: int  # the league's seed
    reviews: bool = False  # bring back each game's review (--save-games)


@dataclasses.dataclass
class Outcome:
    """One game: every seat's return, the decisions played, extra metrics per seat."""

    returns: list[float]
    length: int
    metrics: list[dict]
    review: dict | None = None  # state.review(), when the job asked for it


def waits(kind: str) -> bool:
    """Whether a kind's bots wait on the network (bots/llm.py `llm:NAME`): the
    league plays their games on threads of its own process, one game a job."""
    return bool(getattr(bot_kinds.BOT_KINDS.get(kind), "threads", False))


def episode_seed(seed: int, preset: str, kinds: Sequence[str], episode: int) -> int:
    """A stable seed per game (Python's hash() of a str varies between processes)."""
    key = f"{seed}|{preset}|{','.join(kinds)}|{episode}"
    return zlib.crc32(key.encode()) & 0x7FFFFFFF


def parse_list(text: str, what: str) -> list[str]:
    """The names of a comma-separated list; a comma inside parentheses is a
    load string's own (`fogboard_dark_hex(num_rows=3,num_cols=4)`)."""
    items, depth, start = [], 0, 0
    for at, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth <= 0:
            items.append(text[start:at])
            start = at + 1
    items = [t.strip() for t in [*items, text[start:]]]
    if not text.strip() or any(not t for t in items):
        raise LeagueError(f"--{what} takes a comma-separated list, got {text!r}")
    _once(items, what)
    return items


def _once(items: Sequence[str], what: str) -> None:
    """A name listed twice would play (and count) its games twice."""
    if len(set(items)) != len(items):
        raise LeagueError(
            f"--{what} names {sorted(t for t in items if items.count(t) > 1)[0]!r} twice"
        )


def plan(
    games: Sequence[str],
    kinds: Sequence[str],
    episodes: int,
    seed: int,
    chunk: int = 10,
    reviews: bool = False,
):
    """The jobs of a league, in a fixed order, and the matchups each game has.

    Refuses an unknown preset (or a bad load string) or bot kind, a count below 1 or above
    MAX_EPISODES, and a game no listed kind can play; a kind that does not play a game (the boards'
    probe at Liar's Dice) sits that game out.
    """
    if not is_int(episodes) or episodes < 1:
        raise LeagueError(f"--episodes must be a positive int, got {episodes!r}")
    if episodes > MAX_EPISODES:
        # (str() of a 5,000-digit int raises: its size is told from its bits)
        shown = (
            episodes if episodes < 10**12 else f"about 10**{int(episodes.bit_length() * 0.30103)}"
        )
        raise LeagueError(
            f"--episodes is at most {MAX_EPISODES:,} per seat assignment, got {shown}"
        )
    _once(games, "games")
    _once(kinds, "bots")
    loaded = {}
    for name in games:
        try:
            loaded[name] = load_named(name)  # a preset, or a load string
        except ValueError as e:
            raise LeagueError(str(e)) from None
    known = sorted(k for k, f in bot_kinds.BOT_KINDS.items() if not getattr(f, "requires", ()))
    for kind in kinds:
        if kind not in bot_kinds.BOT_KINDS:
            raise LeagueError(f"unknown bot kind {kind!r}; kinds: {', '.join(known)}")
        problem = seat_kind_problem(kind) if reviews else None
        if problem:  # (a saved review names every seat's kind)
            raise LeagueError(
                f"--save-games: bot kind {kind!r} cannot be named in a review: it {problem}"
            )
        needs = getattr(bot_kinds.BOT_KINDS[kind], "requires", ())
        if needs:  # the text seat: a league cannot give it a model
            raise LeagueError(
                f"bot kind {kind!r} needs options ({', '.join(needs)}) a league cannot give; "
                f"kinds: {', '.join(known)}"
            )
    jobs, skipped = [], []
    for name in games:
        game = loaded[name]
        playing = [k for k in kinds if k in bot_kinds.kinds_for(game)]
        skipped += [(name, k) for k in kinds if k not in playing]
        if not playing:
            raise LeagueError(f"no bot kind of {', '.join(kinds)} plays {name}")
        n = game.num_players()
        # Each kind in each seat against each other kind in the other seats. With
        # two seats, (x, y) is both x in seat 0 against y and y in seat 1 against
        # x: one set of games reports both, so assignments are merged.
        focal: dict[tuple[str, ...], list[int]] = {}
        for kind in playing:
            for other in [k for k in playing if k != kind] or [kind]:
                for seat in range(n):
                    seats = tuple(kind if s == seat else other for s in range(n))
                    focal.setdefault(seats, []).append(seat)
        for seats, watched in focal.items():
            # A language model's game takes seconds a move and may cost money:
            # one game a job, so each is journaled as it finishes and the
            # threads share the games out one by one.
            size = 1 if any(waits(k) for k in seats) else chunk
            for first in range(0, episodes, size):
                count = min(size, episodes - first)
                jobs.append(Job(name, seats, tuple(sorted(watched)), first, count, seed, reviews))
    return jobs, skipped
