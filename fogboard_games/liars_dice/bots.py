"""The `heuristic` bot of Liar's Dice (docs/liars_dice.md).

It decides from `seat_view`, built from its seat's current view alone
(docs/bots.md#fair-seats): its own current hand (as a multiset), the dice
in play and the standing bid; and from its legal actions. Every other
die is unseen: it counts for a face F with chance 1/S, or 2/S when F is not
the wild face and there is one (`wild=one`: 1, `wild=highest`: S), so the
count for F is its own dice counting for F plus a binomial over the unseen
dice.

- Bidding: P(stand) of a bid is the chance its count is at least Q.
  `liar` when the standing bid would stand with chance below 1/2, or when
  the best raise is less likely to stand than the standing bid is to
  fall. `prophecy QxF` when some legal prophecy is exact with chance at
  least PROPHECY_AT and beats `liar` in expected value (payout x P(exact)
  - P(not exact) against 1 - 2 P(stand)). With `pass` allowed it passes
  when its best raise is below 1/2. Otherwise it raises to the most likely
  bid it can make (the highest of those that tie), which also opens.
- Rerolls: `reroll` when its hand's best count (the most dice counting for
  one face) is below that of an average hand of the same size, else `keep`.

Ties between equally likely bids are decided by the rule above; the one
random choice left, between equally likely prophecies, comes from
`SeatBot.rng` keyed by the seat's information-state string.
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import lru_cache
from math import comb

from fogboard_games.bots.base import SeatBot, register_heuristic, seat_pieces
from fogboard_games.liars_dice import rules

PROPHECY_AT = 0.6  # the least chance of an exact count for a prophecy
EPS = 1e-9


@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat knows that the bot uses."""

    setup: rules.Setup
    seat: int
    phase: int
    hand: tuple[int, ...]  # its current hand, sorted
    in_play: int  # dice in play this round
    bid: int  # the standing bid id, -1 before the opening bid

    @property
    def unseen(self) -> int:
        return self.in_play - len(self.hand)


def seat_view(state, seat: int) -> SeatView:
    """The knowledge of `seat` in `state` that the bot decides from, read from
    its current view's pieces (docs/liars_dice.md#tensor-pieces).

    The current view holds all of it, and is written without walking the
    match's history: the seat's hand, the dice counts (every die is in play
    in chips mode), the standing bid. The phase is public: the end, a chance
    node (a reroll once some seat rerolled this round), or the mover's
    choice or bid.
    """
    s = state.get_game().setup
    pieces = seat_pieces(state, seat, recall=False)
    counts = pieces["hand"][0].tolist()
    hand = tuple(face for face, k in enumerate(counts, 1) for _ in range(int(k)))
    if s.chips:
        in_play = s.total
    else:
        in_play = int(pieces["dice_counts"].argmax(axis=1).sum())
    made = pieces["standing_bid"].nonzero()[0]
    bid = int(made[0]) if len(made) else -1
    if state.is_terminal():
        phase = rules.OVER
    elif state.current_player() < 0:
        # rerolls_used is one-hot per seat: column 0 clear = it rerolled.
        rerolling = s.rerolls and pieces["rerolls_used"][:, 0].min() == 0.0
        phase = rules.REROLLING if rerolling else rules.ROLLING
    else:
        phase = rules.CHOOSING if s.rerolls and s.keep in state.legal_actions() else rules.BIDDING
    return SeatView(s, seat, phase, hand, in_play, bid)


def face_chance(setup: rules.Setup, face: int) -> float:
    """The chance one unseen die counts for `face`."""
    wild = setup.wild_face
    return (2 if wild and face != wild else 1) / setup.sides


def own_count(setup: rules.Setup, hand, face: int) -> int:
    return setup.count([hand], face)


@lru_cache(maxsize=4096)
def at_least(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) >= k)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return min(1.0, sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


def exactly(n: int, p: float, k: int) -> float:
    """P(Binomial(n, p) == k)."""
    if not 0 <= k <= n:
        return 0.0
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def stand_chance(view: SeatView, bid: int) -> float:
    """The chance the bid with id `bid` stands: its count is at least Q."""
    s = view.setup
    q, face = s.bid_quantity[bid], s.bid_face[bid]
    return at_least(view.unseen, face_chance(s, face), q - own_count(s, view.hand, face))


def exact_chance(view: SeatView, bid: int) -> float:
    """The chance the count of bid `bid`'s face is exactly its Q."""
    s = view.setup
    q, face = s.bid_quantity[bid], s.bid_face[bid]
    return exactly(view.unseen, face_chance(s, face), q - own_count(s, view.hand, face))


def best_count(setup: rules.Setup, hand) -> int:
    """The most dice of `hand` counting for one face."""
    return max(own_count(setup, hand, f) for f in range(1, setup.sides + 1))


@lru_cache(maxsize=64)
def mean_best_count(sides: int, wild_face: int, size: int) -> float:
    """The mean `best_count` of a uniformly rolled hand of `size` dice
    (`wild_face` 0 for none)."""

    def best(hand) -> int:
        wilds = hand.count(wild_face) if wild_face else 0
        return max(hand.count(f) + (wilds if f != wild_face else 0) for f in range(1, sides + 1))

    hands = list(itertools.product(range(1, sides + 1), repeat=size))
    return sum(best(h) for h in hands) / len(hands)


class LiarsDiceHeuristic(SeatBot):
    """Bids and calls from the binomial odds of the unseen dice."""

    kind = "heuristic"
    games = ("fogboard_liars_dice",)

    def decide(self, state) -> int:
        view = seat_view(state, self.player)
        legal = state.legal_actions()
        if view.phase == rules.CHOOSING:
            return self.choose_reroll(view, legal)
        rng = self.rng(state.information_state_string(self.player))
        return self.choose_bidding(view, legal, rng)

    def choose_reroll(self, view: SeatView, legal: list[int]) -> int:
        # (a method of its own, as choose_bidding: batch/bots.py tables both)
        s = view.setup
        below = (
            best_count(s, view.hand) < mean_best_count(s.sides, s.wild_face, len(view.hand)) - EPS
        )
        return s.reroll if below and s.reroll in legal else s.keep

    def choose_bidding(self, view: SeatView, legal: list[int], rng) -> int:
        s = view.setup
        raises = [a for a in legal if a < s.num_bids]
        best_raise, best = None, -1.0
        if raises:
            odds = {a: stand_chance(view, a) for a in raises}
            best = max(odds.values())
            # The highest of the most likely bids (no tie is left to break).
            best_raise = max(a for a in raises if odds[a] >= best - EPS)
        if s.liar not in legal:  # opening, or the holder's forced raise
            return best_raise if best_raise is not None else legal[0]
        stand = stand_chance(view, view.bid)
        liar_value = 1 - 2 * stand  # chips won by calling, in expectation
        if s.prophecy:
            props = [a for a in legal if s.prophecy_base <= a < s.prophecy_base + s.num_bids]
            if props:
                odds = {a: exact_chance(view, a - s.prophecy_base) for a in props}
                top = max(odds.values())
                if top >= PROPHECY_AT and s.payout * top - (1 - top) > liar_value:
                    return rng.choice([a for a in props if odds[a] >= top - EPS])
        if best_raise is None or stand < 0.5 or 1 - stand > best:
            return s.liar
        if s.allow_pass and s.pass_action in legal and best < 0.5:
            return s.pass_action
        return best_raise


register_heuristic("fogboard_liars_dice", LiarsDiceHeuristic)

__all__ = [
    "LiarsDiceHeuristic",
    "SeatView",
    "at_least",
    "exact_chance",
    "seat_view",
    "stand_chance",
]
