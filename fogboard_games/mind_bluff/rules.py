"""The rules of Mind Bluff (docs/mind_bluff.md#rules).

Two seats, P1 (seat 0) and P2 (seat 1), share a pile of dango whose count
is never shown before the game ends. On a turn the mover either says
`all done` (it wins if exactly one dango is left, otherwise it loses) or
eats 1..max_eat in secret. Eating the last dango (an eat of at least the
count) loses at once, before any claim. A mover that survives claims how
many it ate; the other seat believes or doubts. A doubt gives the verdict
TRUE (the claim was the truth: the challenger's honesty_debt grows by one)
or BLUFF (the claimant's honesty_debt grows by one). While a seat's
honesty_debt is positive its only legal claim is the truth: the claim is
marked forced-honest and pays back one debt. `all done` is legal in debt
and pays nothing back; eating the last dango pays nothing back. Doubting a
forced-honest claim is legal and always TRUE.

Chance, before the first move: a public fair coin for the first seat when
`first_player` is -1 (`P1 first` / `P2 first`), then, when
`start_spread` s > 0, a secret uniform start of start-s .. start+s
(`start v`). Action ids: `eat k` = k-1, `all done` = max_eat,
`claim k` = max_eat + k, `believe` = 2 max_eat + 1, `doubt` = 2 max_eat + 2.
Chance ids: 0 = `P1 first`, 1 = `P2 first`, v = `start v` (v >= 2, so the
two never clash).

Knowledge (`eat_candidates`, `remaining_set`): the eats of a turn an
observer did not see are fixed by a forced-honest claim or a TRUE verdict,
narrowed by a BLUFF verdict, and bounded by survival: every eat that did
not end the game was smaller than the count then, which over a whole game
is exactly "all surviving eats sum to at most start - 1" (the sums only
grow, so the last one bounds them all).
"""

from __future__ import annotations

from typing import NamedTuple

from fogboard_games.core import contract
from fogboard_games.core.contract import CHANCE, NO_ODDS, NO_OPTIONS, TERMINAL

# Phases: the four a seat's tensor shows (its `phase` piece, one entry each,
# in this order, and the batched engine's numbering) and the two chance
# phases before the first decision, which no piece shows.
EAT, CLAIM, RESPOND, OVER, COIN, DRAW = range(6)
SHOWN_PHASES = 4  # EAT .. OVER

BELIEVE, DOUBT = 0, 1  # responses as stored in a Turn
ENDINGS = ("last-dango", "all-done-win", "all-done-loss")
LAST_DANGO, ALL_DONE_WIN, ALL_DONE_LOSS = range(3)

SEAT_NAMES = ("P1", "P2")
FIRST_NAMES = ("P1 first", "P2 first")


def seat_label(p: int) -> str:
    """Seat p as the strings name it, with its number (a text seat's prompt)."""
    return f"{SEAT_NAMES[p]} (seat {p})"


class Turn(NamedTuple):
    """One turn. `actual` is None for `all done`; the fields after it stay
    None until they happen (and for ever on a game's last turn)."""

    actor: int
    actual: int | None  # dango eaten, None for all done
    claim: int | None = None
    forced: bool | None = None  # the claim was forced-honest
    response: int | None = None  # BELIEVE / DOUBT
    verdict: bool | None = None  # True = TRUE, False = BLUFF (after a doubt)
    debts: tuple[int, int] | None = None  # both honesty_debts after the turn
    remaining: int | None = None  # dango left after the turn


class Setup(contract.Setup):
    """The fixed facts of one configured Mind Bluff game."""

    def __init__(self, start: int, start_spread: int, first_player: int, max_eat: int):
        self.built_from = (start, start_spread, first_player, max_eat)
        self.start, self.spread = start, start_spread
        self.first_player, self.max_eat = first_player, max_eat
        self.low, self.high = start - start_spread, start + start_spread
        m = max_eat
        self.all_done = m
        self.believe, self.doubt = 2 * m + 1, 2 * m + 2
        self.num_players = 2
        self.num_actions = 2 * m + 3
        if start_spread:
            self.max_chance_outcomes = self.high + 1
        else:
            self.max_chance_outcomes = 2 if first_player == -1 else 0
        self.min_utility, self.max_utility = -1.0, 1.0
        self.utility_sum = 0.0
        # Each surviving eat is three decisions (eat, claim, response) and
        # eats at least one dango, so at most high - 1 survive; then one
        # last decision (all done, or the last dango).
        self.max_game_length = 3 * (self.high - 1) + 1
        # The most turns a game has: surviving eats and the last one.
        self.max_turns = self.high
        # Option and odds lists, made once and shared by every match.
        self.eat_options = list(range(m + 1))  # eat 1..m, all done
        self.claim_options = [m + k for k in range(1, m + 1)]
        self.eats = tuple(range(1, m + 1))  # the eats a turn may have made
        self.forced_options = [[m + k] for k in range(m + 1)]  # index = the actual eat
        self.respond_options = [self.believe, self.doubt]
        self.coin_options = [0, 1]
        self.coin_odds = [(0, 0.5), (1, 0.5)]
        self.draw_options = list(range(self.low, self.high + 1))
        self.draw_odds = [(v, 1 / (2 * start_spread + 1)) for v in self.draw_options]
        self.starts = tuple(self.draw_options)  # the starts chance may draw

    def new_match(self) -> Match:
        return Match(self)

    def decision_name(self, action: int) -> str:
        m = self.max_eat
        if type(action) is not int or not 0 <= action < self.num_actions:
            raise ValueError(f"action {action!r} out of range 0..{self.num_actions - 1}")
        if action < m:
            return f"eat {action + 1}"
        if action == m:
            return "all done"
        if action <= 2 * m:
            return f"claim {action - m}"
        return "believe" if action == self.believe else "doubt"

    def chance_name(self, outcome: int) -> str:
        if type(outcome) is not int or not 0 <= outcome < self.max_chance_outcomes:
            raise ValueError(
                f"chance outcome {outcome!r} out of range 0..{self.max_chance_outcomes - 1}"
            )
        # Ids below the lowest start are never legal, but still named.
        return FIRST_NAMES[outcome] if outcome < 2 else f"start {outcome}"

    def action_name(self, player: int, action: int) -> str:
        return self.chance_name(action) if player == CHANCE else self.decision_name(action)


class Match(contract.Match):
    """A game of Mind Bluff. Every slot but the contract's holds an
    immutable value, so `copy()` copies references."""

    __slots__ = (
        "phase",
        "first",  # the seat that moved first (None before the coin)
        "start",  # the starting count (None before a secret draw)
        "remaining",  # dango left (the truth)
        "debts",  # both honesty_debts, a tuple
        "turns",  # every turn so far, the one under way last (a tuple of Turn)
        "ending",  # LAST_DANGO / ALL_DONE_WIN / ALL_DONE_LOSS, None while running
        "winner",
    )

    def __init__(self, setup: Setup):
        self.setup = setup
        self.first = None if setup.first_player == -1 else setup.first_player
        self.start = None if setup.spread else setup.start
        self.remaining = self.start
        self.debts = (0, 0)
        self.turns = ()
        self.ending = self.winner = None
        self.shared = False
        self.cache = None
        self.odds = NO_ODDS
        if self.first is None:
            self.phase, self.mover = COIN, CHANCE
            self.options, self.odds = setup.coin_options, setup.coin_odds
        elif self.start is None:
            self._to_draw()
        else:
            self._to_eat(self.first)

    def _to_draw(self):
        s = self.setup
        self.phase, self.mover, self.options, self.odds = DRAW, CHANCE, s.draw_options, s.draw_odds

    def _to_eat(self, seat: int):
        self.phase, self.mover = EAT, seat
        self.options, self.odds = self.setup.eat_options, NO_ODDS

    def copy(self) -> Match:
        m = Match.__new__(Match)
        m.setup = self.setup
        m.phase, m.first, m.start, m.remaining = self.phase, self.first, self.start, self.remaining
        m.debts, m.turns, m.ending, m.winner = self.debts, self.turns, self.ending, self.winner
        m.mover, m.options, m.odds = self.mover, self.options, self.odds
        m.shared = False
        m.cache = None
        return m

    def play(self, action: int) -> bool:
        if action not in self.options:
            return False
        s = self.setup
        phase = self.phase
        if phase == COIN:
            self.first = action
            if s.spread:
                self._to_draw()
            else:
                self._to_eat(action)
        elif phase == DRAW:
            self.start = self.remaining = action
            self._to_eat(self.first)
        elif phase == EAT:
            a = self.mover
            if action == s.all_done:
                won = self.remaining == 1
                self.turns += (Turn(a, None, debts=self.debts, remaining=self.remaining),)
                self._end(ALL_DONE_WIN if won else ALL_DONE_LOSS, a if won else 1 - a)
            elif action + 1 >= self.remaining:  # the last dango: lost before any claim
                self.remaining = 0
                self.turns += (Turn(a, action + 1, debts=self.debts, remaining=0),)
                self._end(LAST_DANGO, 1 - a)
            else:
                self.remaining -= action + 1
                self.turns += (Turn(a, action + 1),)
                self.phase = CLAIM
                in_debt = self.debts[a] > 0
                self.options = s.forced_options[action + 1] if in_debt else s.claim_options
        elif phase == CLAIM:
            a = self.mover
            forced = self.debts[a] > 0
            if forced:  # the forced-honest claim pays back one debt, before the response
                self.debts = _add_debt(self.debts, a, -1)
            self.turns = self.turns[:-1] + (
                self.turns[-1]._replace(claim=action - s.max_eat, forced=forced),
            )
            self.phase, self.mover, self.options = RESPOND, 1 - a, s.respond_options
        else:  # RESPOND: the mover is the challenger
            challenger = self.mover
            turn = self.turns[-1]
            if action == s.believe:
                turn = turn._replace(response=BELIEVE)
            else:
                true = turn.actual == turn.claim
                # TRUE: the challenger owes an honest claim; BLUFF: the claimant does.
                self.debts = _add_debt(self.debts, challenger if true else turn.actor, 1)
                turn = turn._replace(response=DOUBT, verdict=true)
            turn = turn._replace(debts=self.debts, remaining=self.remaining)
            self.turns = self.turns[:-1] + (turn,)
            self._to_eat(challenger)
        return True

    def _end(self, ending: int, winner: int):
        self.ending, self.winner = ending, winner
        self.phase, self.mover, self.options, self.odds = OVER, TERMINAL, NO_OPTIONS, NO_ODDS

    def returns(self) -> tuple[float, float]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def why_illegal(self, action) -> str:
        s = self.setup
        if self.phase == COIN:
            return "chance tosses a fair coin for the first seat"
        if self.phase == DRAW:
            return f"chance draws the start from {s.low}..{s.high}"
        if self.phase == EAT:
            return f"the mover eats 1..{s.max_eat} or says all done"
        if self.phase == CLAIM:
            if self.debts[self.mover] > 0:
                return "the mover owes honesty_debt, so its claim must be the truth"
            return f"the mover claims 1..{s.max_eat}"
        return "the other seat believes or doubts the claim"


def _add_debt(debts: tuple[int, int], seat: int, change: int) -> tuple[int, int]:
    return (debts[0] + change, debts[1]) if seat == 0 else (debts[0], debts[1] + change)


def eat_candidates(setup: Setup, turn: Turn, seen: tuple[int, ...]) -> tuple[int, ...]:
    """The eats of a surviving turn an observer that sees the eats of the
    seats `seen` cannot rule out."""
    if turn.actor in seen:
        return (turn.actual,)
    if turn.claim is not None and (turn.forced or turn.verdict is True):
        return (turn.claim,)
    if turn.verdict is False:  # BLUFF: anything but the claim
        return tuple(k for k in setup.eats if k != turn.claim)
    return setup.eats


def surviving_turns(match: Match) -> tuple[Turn, ...]:
    """The turns whose eat did not end the game."""
    if match.ending is None:
        return match.turns
    return match.turns[:-1]


def sum_counts(cands: list[tuple[int, ...]], cap: int) -> dict[int, int]:
    """Every total of one pick from each candidate tuple, at most `cap`, with
    the number of ways it arises (the picks are positive: a partial total
    over `cap` cannot come back under it)."""
    ways = {0: 1}
    for c in cands:
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for k in c:
                if total + k <= cap:
                    nxt[total + k] = nxt.get(total + k, 0) + w
        ways = nxt
    return ways


def possible_sums(cands: list[tuple[int, ...]], cap: int) -> set[int]:
    """Every total of one pick from each candidate tuple, at most `cap`."""
    return set(sum_counts(cands, cap))


def remaining_set(match: Match, seen: tuple[int, ...]) -> list[int]:
    """The counts left that an observer seeing the eats of `seen` (and
    public facts) cannot rule out, ascending. The end shows the truth."""
    if match.ending is not None:
        return [match.remaining]
    s = match.setup
    starts = s.starts  # (start,) unless drawn in secret
    cands = [eat_candidates(s, t, seen) for t in match.turns]
    sums = possible_sums(cands, max(starts) - 1)
    return sorted({v - t for v in starts for t in sums if v - t >= 1})
