"""The `heuristic` bot of Mind Bluff and of the Mind Bluff series (docs/mind_bluff.md).

It decides from `seat_view`, built only from the seat's information-state
pieces (`bots.base.seat_pieces`, docs/mind_bluff.md#tensor-pieces) and the
configured game's Setup: per turn the eats the seat cannot rule out (its
own eats from `eats`; another seat's eat is known only when a forced-honest
claim or a TRUE verdict fixed it, and narrowed by a BLUFF verdict), the
public claims and verdicts, the phase, and the possible starts. From these
it weighs every consistent world alike (each unknown eat equally likely,
each possible start equally likely, every surviving eat smaller than the
count then) and reads off the weight of each count left; the counts with a
weight are exactly `rules.remaining_set(match, (seat,))`.

- Eat: `all done` when the only possible count is 1. Otherwise an eat
  smaller than every possible count (it survives for sure), chosen to leave
  the most weight on counts of 2 modulo max_eat + 1: under these rules a
  count of 1 wins for the mover (`all done`) and a count of 2 loses (eat 1
  leaves 1 to the other seat, every other move loses), so the counts a
  mover loses from are 2, 2 + (max_eat + 1), ... With no sure eat left
  (1 is possible, and so is more) it says `all done` when 1 holds at least
  half the weight, and eats 1 otherwise.
- Claim: the truth when in debt (forced), otherwise the truth, but for an
  occasional seeded bluff (`BLUFF_RATE`).
- Respond: `believe` a forced-honest claim (it is always TRUE). Otherwise
  `doubt` when the claim is impossible (no consistent world has that eat),
  or unlikely: with the chance q that the claimed eat was made (from the
  worlds) and a claimant honest half the time and uniform otherwise, the
  claim is true with chance q (h + (1-h)/M) / (q h + (1-h)/M); below 1/2 it
  doubts. It also doubts every free claim in the endgame (a count of
  max_eat + 1 or less possible): a verdict fixes or narrows the eat, which
  is worth more there than the debt a TRUE verdict costs (on
  `mind-bluff-tiny` this took the bot from even to +0.74 against the bot
  without it, and from +0.67 to +0.83 against random).

The series: the bot plays the game under way (the `game` piece names it,
its `game{g}` piece holds the single game's pieces); the finished games
change nothing in its decisions but its tie-break key.
Every random choice comes from `SeatBot.rng` keyed by the seat's
information-state string.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

import numpy as np

from fogboard_games.bots.base import SeatBot, register_heuristic, seat_pieces
from fogboard_games.core.observer import INFO_STATE
from fogboard_games.mind_bluff import rules

BLUFF_RATE = 0.15  # chance of a bluff on a free claim
HONEST_PRIOR = 0.5  # the chance the claimant claims its eat, in the doubt model
DOUBT_BELOW = 0.5  # doubt a claim true with less than this chance


@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat knows of the game under way, and nothing more.

    `cands` holds, per turn so far, the eats the seat cannot rule out (its own
    eats exactly); `claim` and `forced` are those of the turn under way, when
    it has a claim.
    """

    setup: rules.Setup
    seat: int
    phase: int
    cands: tuple[tuple[int, ...], ...]
    claim: int | None
    forced: bool | None

    @property
    def max_eat(self) -> int:
        return self.setup.max_eat


def current_game(match):
    """The Mind Bluff match being played: the match itself, or a series' game under way."""
    return getattr(match, "now", match)


# The pieces `seat_view` reads; a series' `game{g}` piece is a single game's
# information-state tensor, flat, laid out as that game's encoder lays it.
READ = ("phase", "first", "claims", "eats", "forced", "verdicts")


def game_pieces(state, seat: int) -> tuple[rules.Setup, Mapping[str, np.ndarray]]:
    """The Setup and the information-state pieces of `seat` in the Mind Bluff
    game under way: the state's own, or those `seat_view` reads of a
    series' current game."""
    setup = state.get_game().setup
    pieces = seat_pieces(state, seat)
    if "game" not in pieces:
        return setup, pieces
    under_way = pieces["game"].nonzero()[0].tolist()
    if not under_way:
        raise ValueError("the series is over: no game under way")
    g = under_way[0]
    layout = setup.encoder.inner[g].layout(INFO_STATE)
    spans = {}
    for name in READ:
        at, shape = layout.offset[name], layout.shape[name]
        spans[name] = (at, at + math.prod(shape), shape)
    setup = setup.games[g]
    flat = pieces[f"game{g + 1}"]
    return setup, {name: flat[a:b].reshape(shape) for name, (a, b, shape) in spans.items()}


def seat_view(state, seat: int) -> SeatView:
    """The knowledge of `seat` in `state` (a Mind Bluff or series state)."""
    s, p = game_pieces(state, seat)
    m = s.max_eat
    shown = p["phase"].nonzero()[0].tolist()  # eat / claim / respond / over; none at chance
    if shown:
        phase = shown[0]  # (numbered as the piece shows them)
    else:  # the coin comes before the first seat is known, a secret draw after
        phase = rules.DRAW if p["first"].any() else rules.COIN
    # Every surviving turn has a claim (turns are rows, in order), except the
    # seat's own turn under way in the claim phase.
    claims = [i % m + 1 for i in p["claims"].ravel().nonzero()[0].tolist()]
    turns = len(claims) + (phase == rules.CLAIM)
    own = {i // m: i % m + 1 for i in p["eats"].ravel().nonzero()[0].tolist()}
    forced = set(p["forced"].nonzero()[0].tolist())
    fixed, bluffed = set(forced), set()  # forced-honest or TRUE; BLUFF
    for i in p["verdicts"].ravel().nonzero()[0].tolist():  # (turn, TRUE / BLUFF) one-hot
        (bluffed if i % 2 else fixed).add(i // 2)
    cands = []
    for t in range(turns):
        if t in own:
            cands.append((own[t],))
        elif t == len(claims):  # the other seat's turn under way, before its claim
            cands.append(s.eats)
        elif t in fixed:
            cands.append((claims[t],))
        elif t in bluffed:  # anything but the claim
            cands.append(tuple(k for k in s.eats if k != claims[t]))
        else:
            cands.append(s.eats)
    # The latest turn's claim: a finished turn's before an eat, the one
    # under way's at a response; none at the claim, at the end or before a turn.
    if claims and phase in (rules.EAT, rules.RESPOND):
        claim, was_forced = claims[-1], len(claims) - 1 in forced
    else:
        claim = was_forced = None
    return SeatView(s, seat, phase, tuple(cands), claim, was_forced)


def world_weights(setup: rules.Setup, cands) -> dict[int, int]:
    """Count left -> number of consistent worlds (start, eats) leaving it.

    A world is consistent when its eats total at most its start - 1 (every
    surviving eat was smaller than the count then)."""
    out: dict[int, int] = {}
    for total, w in rules.sum_counts(cands, max(setup.starts) - 1).items():
        for v in setup.starts:
            if v - total >= 1:
                out[v - total] = out.get(v - total, 0) + w
    return out


def remaining_weights(view: SeatView) -> dict[int, int]:
    """The weight of each count left the seat cannot rule out."""
    return world_weights(view.setup, view.cands)


def claim_chance(view: SeatView) -> float:
    """The chance (over consistent worlds) that the last turn's eat is its claim."""
    *before, last = view.cands
    total = hit = 0
    ways = rules.sum_counts(before, max(view.setup.starts) - 1)
    for k in last:
        n = sum(w for t, w in ways.items() for v in view.setup.starts if v - t - k >= 1)
        total += n
        if k == view.claim:
            hit += n
    return hit / total if total else 0.0


def claim_truth(view: SeatView) -> float:
    """The chance the claim under way is true, claimant honest HONEST_PRIOR of the time."""
    if view.forced:
        return 1.0
    q = claim_chance(view)
    h, m = HONEST_PRIOR, view.max_eat
    said = q * h + (1 - h) / m  # the chance of this claim
    return q * (h + (1 - h) / m) / said if said else 0.0


def losing_count(r: int, max_eat: int) -> bool:
    """Whether a mover that knows the count `r` loses against perfect play."""
    return r % (max_eat + 1) == 2 % (max_eat + 1)


class MindBluffHeuristic(SeatBot):
    """Survives for sure, leaves losing counts, claims honestly, doubts the unlikely."""

    kind = "heuristic"
    games = ("fogboard_mind_bluff", "fogboard_mind_bluff_series")

    def decide(self, state) -> int:
        view = seat_view(state, self.player)
        rng = self.rng(state.information_state_string(self.player))
        s = view.setup
        legal = state.legal_actions()
        if view.phase == rules.EAT:
            return self.choose_eat(view, rng)
        if view.phase == rules.CLAIM:
            if len(legal) == 1:  # forced honest
                return legal[0]
            actual = view.cands[-1][0]  # its own eat
            claim = actual
            if s.max_eat > 1 and rng.random() < BLUFF_RATE:
                claim = rng.choice([k for k in s.eats if k != actual])
            return s.max_eat + claim
        return self.choose_response(view)  # RESPOND

    def choose_response(self, view: SeatView) -> int:
        # (a method of its own, as choose_eat: batch/bots.py tables both)
        s = view.setup
        if view.forced:
            return s.believe  # a forced-honest claim is always TRUE
        if claim_truth(view) < DOUBT_BELOW or min(remaining_weights(view)) <= s.max_eat + 1:
            return s.doubt
        return s.believe

    def choose_eat(self, view: SeatView, rng) -> int:
        s = view.setup
        weights = remaining_weights(view)
        counts = sorted(weights)
        if counts == [1]:
            return s.all_done
        low = counts[0]
        sure = [k for k in s.eats if k < low]
        if not sure:  # 1 is possible, and so is more
            whole = sum(weights.values())
            return s.all_done if 2 * weights.get(1, 0) >= whole else 0  # eat 1

        def leaves_losing(k: int) -> int:
            return sum(w for r, w in weights.items() if losing_count(r - k, s.max_eat))

        best = max(leaves_losing(k) for k in sure)
        return rng.choice([k for k in sure if leaves_losing(k) == best]) - 1


register_heuristic("fogboard_mind_bluff", MindBluffHeuristic)
register_heuristic("fogboard_mind_bluff_series", MindBluffHeuristic)

__all__ = [
    "MindBluffHeuristic",
    "SeatView",
    "claim_chance",
    "claim_truth",
    "current_game",
    "game_pieces",
    "remaining_weights",
    "seat_view",
    "world_weights",
]
