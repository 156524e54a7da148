"""Two minimal games written against the fogboard contract (docs/adding_a_game.md).

They are test games, kept small so that they can be read in one sitting:
docs/adding_a_game.md walks through them part by part, and
tests/test_minimal_games.py runs the conformance suite on them and checks
the first against OpenSpiel's C++ `kuhn_poker`.

* `fogboard_test_kuhn`: Kuhn poker exactly as OpenSpiel's `kuhn_poker`.
  Two seats, three cards J < Q < K, each seat antes 1. Chance deals one
  card to seat 0, then one of the two left to seat 1. Seat 0 acts first:
  `pass` or `bet` (put in 1 more). After pass-pass the higher card wins
  the pot (1 each); after a bet the other seat either bets too (calls:
  the higher card wins, 2 each) or passes (folds: the bettor wins the
  antes). Action ids as OpenSpiel: 0 = pass, 1 = bet; chance outcome c
  deals card c (0 = J, 1 = Q, 2 = K). Terminal rewards, zero-sum.
* `fogboard_test_kuhn_rounds`: `hands` hands of Kuhn poker in a row, a new
  deck for each. Chance deals every hand's two cards first (hand 1's seat 0
  card, hand 1's seat 1 card, hand 2's ...), face down: a seat looks at its
  card of a hand when the hand starts. Seat h % 2 acts first in hand h
  (0-based). Each hand's result is paid as a reward at the move that ends
  it, so the returns are the running totals; the cards shown at a showdown
  stay known to both seats.

Importing this module registers both with pyspiel. They have no presets
and no conformance extras: those tables are the library's own, and its
tests iterate over them.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from fogboard_games.core import contract, registry
from fogboard_games.core.contract import CHANCE, NO_ODDS, NO_OPTIONS, TERMINAL, Ruleset
from fogboard_games.core.observer import Layout, ObsKey, PieceList, seats_for
from fogboard_games.core.params import Param, ParamSpec

# ---- the rules of one hand (shared by both games) --------------------------

CARDS = "JQK"  # card id = its index, so comparing ids compares cards
PASS, BET = 0, 1
DECISIONS = ("pass", "bet")

# The legal actions of a node (`Match.options`) and the odds of a deal
# (`Match.odds`), as lists made once and shared by every match: the glue
# copies them before handing them out, and no match changes one in place,
# so a move allocates nothing for them.
PASS_OR_BET = [PASS, BET]
DECK = [0, 1, 2]  # the first deal of a hand: any card
DECK_ODDS = [(c, 1 / 3) for c in DECK]
LEFT_AFTER = [[1, 2], [0, 2], [0, 1]]  # the second deal: the two cards left after card c
LEFT_ODDS = [[(c, 1 / 2) for c in left] for left in LEFT_AFTER]

# Every way the betting of a hand ends: the bets (first to act first) ->
# (what the loser pays, the position that folded: 0 = the seat that acted
# first, 1 = the other; None at a showdown). Any other sequence goes on.
ENDINGS = {
    (PASS, PASS): (1, None),
    (BET, PASS): (1, 1),
    (BET, BET): (2, None),
    (PASS, BET, PASS): (1, 0),
    (PASS, BET, BET): (2, None),
}


def payoff(cards: tuple[int, ...], bets: tuple[int, ...], first: int) -> tuple[float, float]:
    """Each seat's result of a finished hand (cards[s] is seat s's card)."""
    stake, folded = ENDINGS[bets]
    if folded is None:
        winner = 0 if cards[0] > cards[1] else 1
    else:
        winner = 1 - (first + folded) % 2
    return (float(stake), -float(stake)) if winner == 0 else (-float(stake), float(stake))


def contributions(bets: tuple[int, ...], first: int) -> list[int]:
    """Chips each seat has put into the pot: its ante and its bet."""
    chips = [1, 1]
    for i, bet in enumerate(bets):
        chips[(first + i) % 2] += bet
    return chips


def redraw(cards: tuple[int, ...], player: int, rng: random.Random) -> list[int]:
    """`cards` with the opponent's card, if dealt, drawn again uniformly from
    the cards `player` cannot rule out: every card but its own, if it has one."""
    out = list(cards)
    other = 1 - player
    if other < len(out):
        mine = out[player] if player < len(out) else None
        out[other] = rng.choice([c for c in DECK if c != mine])
    return out


def deal_name(action: int) -> str:
    if type(action) is int and 0 <= action < 3:
        return "deal " + CARDS[action]
    raise ValueError(f"chance outcome {action!r} is out of range 0..2")


def decision_name(action: int) -> str:
    # `type(...) is int`: True and 1.0 are not actions (True would index 1).
    if type(action) is int and 0 <= action < 2:
        return DECISIONS[action]
    raise ValueError(f"action {action!r} is out of range 0..1")


# ---- fogboard_test_kuhn: one hand ------------------------------------------


class KuhnSetup(contract.Setup):
    """The fixed facts of Kuhn poker (it has no parameters)."""

    def __init__(self):
        self.num_players = 2
        self.num_actions = 2  # pass, bet
        self.max_chance_outcomes = 3  # a deal: J, Q or K
        self.min_utility, self.max_utility = -2.0, 2.0
        self.utility_sum = 0.0  # zero-sum
        self.max_game_length = 3  # pass, bet, bet (chance nodes not counted)

    def new_match(self) -> KuhnMatch:
        return KuhnMatch(self)

    def action_name(self, player: int, action: int) -> str:
        return deal_name(action) if player == CHANCE else decision_name(action)


class KuhnMatch(contract.Match):
    """A hand of Kuhn poker. Besides the contract's slots it keeps three
    immutable values, so that `copy()` copies references only."""

    __slots__ = (
        "cards",  # the cards dealt so far, seat 0's first (a tuple of card ids)
        "bets",  # PASS / BET in order, seat 0 first (a tuple)
        "result",  # the returns: zeros until the hand is over (a tuple)
    )

    def __init__(self, setup: KuhnSetup):
        self.setup = setup
        self.cards = ()
        self.bets = ()
        self.result = (0.0, 0.0)
        self.mover = CHANCE  # chance deals first
        self.options, self.odds = DECK, DECK_ODDS
        self.shared = False
        self.cache = None

    def copy(self) -> KuhnMatch:
        m = KuhnMatch.__new__(KuhnMatch)  # no __init__: every slot is set here
        m.setup = self.setup
        m.cards, m.bets, m.result = self.cards, self.bets, self.result
        m.mover, m.options, m.odds = self.mover, self.options, self.odds  # shared lists
        m.shared = False
        m.cache = None  # the contract: a copy starts without the encoder's cache
        return m

    def play(self, action: int) -> bool:
        # Refuse first, change after: a refused action leaves the match as it was.
        if action not in self.options:
            return False
        if self.mover == CHANCE:
            self.cards += (action,)
            if len(self.cards) == 1:
                self.options, self.odds = LEFT_AFTER[action], LEFT_ODDS[action]
            else:
                self.mover, self.options, self.odds = 0, PASS_OR_BET, NO_ODDS
            return True
        self.bets += (action,)
        if self.bets in ENDINGS:
            self.result = payoff(self.cards, self.bets, first=0)
            self.mover, self.options = TERMINAL, NO_OPTIONS
        else:
            self.mover = 1 - self.mover
        return True

    def returns(self) -> tuple[float, float]:
        return self.result

    def why_illegal(self, action) -> str:
        if self.mover == CHANCE:
            left = ", ".join(CARDS[c] for c in self.options)
            return f"chance deals seat {len(self.cards)} one of the cards left ({left})"
        return "a seat may only pass or bet"


class KuhnEncoder(contract.Encoder):
    """What each observer of Kuhn poker shows, as OpenSpiel's `kuhn_poker` does.

    | piece | shape | when | meaning |
    |---|---|---|---|
    | player | (2,) | private single | one-hot: whose view this is |
    | private_card | (V, 3) | private | one-hot card of each seat shown (V = 1 or 2), zeros until dealt |
    | betting | (3, 2) | public, perfect recall | one-hot: the i-th decision was pass / bet |
    | pot_contribution | (2,) | public, current view | chips each seat has in the pot |

    With these shapes the default tensors are OpenSpiel's, float for float.
    The opponent's card is never shown, not even after a showdown: in a
    game of one hand that teaches nothing that matters, and OpenSpiel does
    not show it either (tests compare the information-state partitions).
    """

    def counts(self) -> dict:
        return {"pot_contribution": 2}  # the ante and a bet

    def pieces(self, key: ObsKey) -> PieceList:
        recall, public, private = key
        pieces = []
        if private == "single":
            pieces.append(("player", (2,)))
        shown = len(seats_for(private, 0, 2))  # seats whose card is shown: 0, 1 or 2
        if shown:
            pieces.append(("private_card", (shown, 3)))
        if public:
            pieces.append(("betting", (3, 2)) if recall else ("pot_contribution", (2,)))
        return pieces

    def encode(self, buf, layout: Layout, match: KuhnMatch, player: int, private: str) -> None:
        at = layout.offset  # piece name -> its first index in buf
        if "player" in at:
            buf[at["player"] + player] = 1.0
        if "private_card" in at:
            for row, seat in enumerate(seats_for(private, player, 2)):
                if seat < len(match.cards):  # dealt yet
                    buf[at["private_card"] + 3 * row + match.cards[seat]] = 1.0
        if "betting" in at:
            for i, bet in enumerate(match.bets):
                buf[at["betting"] + 2 * i + bet] = 1.0
        if "pot_contribution" in at:
            for seat, chips in enumerate(contributions(match.bets, 0)):
                buf[at["pot_contribution"] + seat] = float(chips)

    def describe(self, match: KuhnMatch, player: int, key: ObsKey) -> str:
        # Exactly what the pieces show, in words: e.g. "seat 1 | card Q | betting pass bet".
        recall, public, private = key
        parts = []
        if private == "single":
            parts.append(f"seat {player}")
        for seat in seats_for(private, player, 2):
            card = CARDS[match.cards[seat]] if seat < len(match.cards) else "-"
            parts.append(f"card {card}" if private == "single" else f"P{seat} card {card}")
        if public and recall:
            parts.append("betting " + (" ".join(DECISIONS[b] for b in match.bets) or "-"))
        elif public:
            parts.append("pot " + " ".join(map(str, contributions(match.bets, 0))))
        return " | ".join(parts) or "-"

    def true_text(self, match: KuhnMatch) -> str:
        cards = " ".join(f"P{seat}:{CARDS[c]}" for seat, c in enumerate(match.cards))
        bets = " ".join(DECISIONS[b] for b in match.bets)
        return f"cards {cards or '-'} | betting {bets or '-'}"


def resample_kuhn(match: KuhnMatch, player: int, rng: random.Random) -> list[int]:
    """A history `player` cannot tell from the true one: the opponent's card
    redrawn (the bets do not depend on the cards, so every redraw keeps
    them legal), the seat's own card and the bets kept."""
    return redraw(match.cards, player, rng) + list(match.bets)


def review_kuhn(match: KuhnMatch) -> dict:
    """The hand, every card shown. Lists, not tuples: a review must come
    back equal from JSON."""
    return {
        "cards": [CARDS[c] for c in match.cards],
        "betting": [DECISIONS[b] for b in match.bets],
        "showdown": ENDINGS[match.bets][1] is None,
        "winner": 0 if match.result[0] > 0 else 1,
        "pot": sum(contributions(match.bets, 0)),
    }


KUHN = Ruleset(
    short_name="fogboard_test_kuhn",
    long_name="Fogboard test game: Kuhn poker",
    docs="docs/adding_a_game.md",
    params=ParamSpec("fogboard_test_kuhn", []),  # no parameters
    setup=KuhnSetup,  # called with the parameters by name: none here
    encoder=KuhnEncoder,
    review=review_kuhn,
    resample=resample_kuhn,
    chance=True,  # explicit chance nodes with exact probabilities
)
KuhnGame = registry.register(KUHN)


# ---- fogboard_test_kuhn_rounds: hands in a row, paid as rewards ------------------
#
# Every hand's cards are dealt before the first hand starts (a new deck for
# each hand, face down until its hand starts). Why not deal each hand when it
# starts: OpenSpiel reads rewards at decision nodes and at the end only
# (pyspiel.random_sim_test sums them there, rl_environment skips chance nodes
# before it reads them), while Returns() must equal the rewards summed over
# every state. A move that ends a hand and leads to a chance node would pay a
# reward that one of the two misses or counts twice; here the move that ends
# a hand always leads to the next hand's first decision, or to the end.


class Hand(NamedTuple):
    """A finished hand of a kuhn_rounds match."""

    cards: tuple[int, ...]  # seat 0's card, seat 1's card
    bets: tuple[int, ...]  # first to act first
    first: int  # the seat that acted first
    payoff: tuple[float, float]


class RoundsSetup(contract.Setup):
    """The fixed facts of `hands` hands of Kuhn poker."""

    def __init__(self, hands: int):
        self.built_from = (hands,)  # a pickled Setup without a game is rebuilt from this
        self.hands = hands
        self.num_players = 2
        self.num_actions = 2
        self.max_chance_outcomes = 3
        self.min_utility, self.max_utility = -2.0 * hands, 2.0 * hands
        self.utility_sum = 0.0
        self.max_game_length = 3 * hands

    def new_match(self) -> RoundsMatch:
        return RoundsMatch(self)

    def action_name(self, player: int, action: int) -> str:
        return deal_name(action) if player == CHANCE else decision_name(action)


NO_REWARD = (0.0, 0.0)


class RoundsMatch(contract.Match):
    """Hands of Kuhn poker in a row; each hand's result is paid as a reward."""

    __slots__ = (
        "deals",  # every card dealt, two per hand: deals[2 * hand + seat]
        "past",  # the finished hands (a tuple of Hand)
        "bets",  # the hand under way: PASS / BET, first to act first
        "totals",  # the returns: every finished hand's payoff summed
        "paid",  # what the last move paid each seat (the rewards)
    )

    def __init__(self, setup: RoundsSetup):
        self.setup = setup
        self.deals = ()
        self.past = ()
        self.bets = ()
        self.totals = NO_REWARD
        self.paid = NO_REWARD
        self.mover = CHANCE
        self.options, self.odds = DECK, DECK_ODDS
        self.shared = False
        self.cache = None

    def copy(self) -> RoundsMatch:
        m = RoundsMatch.__new__(RoundsMatch)
        m.setup = self.setup
        m.deals, m.past, m.bets = self.deals, self.past, self.bets
        m.totals, m.paid = self.totals, self.paid
        m.mover, m.options, m.odds = self.mover, self.options, self.odds
        m.shared = False
        m.cache = None
        return m

    def hand(self) -> int:
        """The hand under way (0-based; `hands` once the match is over)."""
        return len(self.past)

    def cards(self, hand: int) -> tuple[int, ...]:
        """The cards of `hand` dealt so far, seat 0's first."""
        return self.deals[2 * hand : 2 * hand + 2]

    def play(self, action: int) -> bool:
        if action not in self.options:
            return False
        if self.mover == CHANCE:
            self.deals += (action,)
            if len(self.deals) % 2:  # a hand's first card: its second is one of the two left
                self.options, self.odds = LEFT_AFTER[action], LEFT_ODDS[action]
            elif len(self.deals) < 2 * self.setup.hands:  # the next hand's first card
                self.options, self.odds = DECK, DECK_ODDS
            else:  # every card dealt: seat 0 opens the first hand
                self.mover, self.options, self.odds = 0, PASS_OR_BET, NO_ODDS
            return True
        self.bets += (action,)
        if self.bets not in ENDINGS:
            self.mover = 1 - self.mover
            self.paid = NO_REWARD
            return True
        hand = self.hand()
        cards, first = self.cards(hand), hand % 2  # the seat acting first alternates
        won = payoff(cards, self.bets, first)
        self.past += (Hand(cards, self.bets, first, won),)
        self.bets = ()
        self.totals = (self.totals[0] + won[0], self.totals[1] + won[1])
        self.paid = won  # the reward of this move, read at the state it leads to
        if hand + 1 == self.setup.hands:
            self.mover, self.options = TERMINAL, NO_OPTIONS
        else:
            self.mover = (hand + 1) % 2
        return True

    def returns(self) -> tuple[float, float]:
        return self.totals

    def rewards(self) -> tuple[float, float]:
        # Overridden: the default pays returns() at the end, right only for
        # terminal-reward games. Summed over a game these equal the returns.
        return self.paid

    def why_illegal(self, action) -> str:
        if self.mover == CHANCE:
            hand, seat = divmod(len(self.deals), 2)
            left = ", ".join(CARDS[c] for c in self.options)
            return f"chance deals seat {seat} its card of hand {hand + 1} ({left})"
        return "a seat may only pass or bet"


class RoundsEncoder(contract.Encoder):
    """What each observer of kuhn_rounds shows (H = hands):

    | piece | shape | when | meaning |
    |---|---|---|---|
    | player | (2,) | private single | one-hot: whose view this is |
    | cards | (V, H, 3) | private, perfect recall | one-hot card of each seat shown, per hand started |
    | betting | (H, 3, 2) | public, perfect recall | one-hot: the i-th decision of hand h was pass / bet |
    | shown | (H, 2, 3) | public, perfect recall | one-hot: both cards, for each hand that ended in a showdown |
    | private_card | (V, 3) | private, current view | one-hot card of each seat shown in the hand under way |
    | hand | (H,) | public, current view | one-hot: the hand under way (zeros at the end) |
    | pot_contribution | (2,) | public, current view | chips each seat has in the pot of the hand under way |
    | totals | (2,) | public, current view | each seat's winnings so far |

    A seat sees its card of a hand once the hand before it is over (its
    first card as soon as it is dealt). A showdown shows both cards to both
    seats, so from then on they are public; a fold shows nothing.
    """

    def counts(self) -> dict:
        # The ante and a bet; winnings of up to 2 a hand, either way.
        most = 2 * self.setup.hands
        return {"pot_contribution": 2, "totals": (-most, most)}

    def pieces(self, key: ObsKey) -> PieceList:
        recall, public, private = key
        hands = self.setup.hands
        shown = len(seats_for(private, 0, 2))
        pieces = []
        if private == "single":
            pieces.append(("player", (2,)))
        if shown:
            pieces.append(("cards", (shown, hands, 3)) if recall else ("private_card", (shown, 3)))
        if public and recall:
            pieces += [("betting", (hands, 3, 2)), ("shown", (hands, 2, 3))]
        elif public:
            pieces += [("hand", (hands,)), ("pot_contribution", (2,)), ("totals", (2,))]
        return pieces

    def encode(self, buf, layout: Layout, match: RoundsMatch, player: int, private: str) -> None:
        at = layout.offset
        hands, now = self.setup.hands, match.hand()
        seats = seats_for(private, player, 2)
        if "player" in at:
            buf[at["player"] + player] = 1.0
        if "cards" in at:
            for h in range(min(now + 1, hands)):  # the hands started: their cards are looked at
                cards = match.cards(h)
                for row, seat in enumerate(seats):
                    if seat < len(cards):
                        buf[at["cards"] + (row * hands + h) * 3 + cards[seat]] = 1.0
        if "betting" in at:
            log = [(h.cards, h.bets, ENDINGS[h.bets][1] is None) for h in match.past]
            if now < hands:
                log.append(((), match.bets, False))  # the hand under way
            for h, (cards, bets, showdown) in enumerate(log):
                for i, bet in enumerate(bets):
                    buf[at["betting"] + (h * 3 + i) * 2 + bet] = 1.0
                if showdown:
                    for seat in (0, 1):
                        buf[at["shown"] + (h * 2 + seat) * 3 + cards[seat]] = 1.0
        if "private_card" in at and now < hands:
            cards = match.cards(now)
            for row, seat in enumerate(seats):
                if seat < len(cards):
                    buf[at["private_card"] + 3 * row + cards[seat]] = 1.0
        if "hand" in at:
            if now < hands:  # the hand under way and its pot (none at the end)
                buf[at["hand"] + now] = 1.0
                for seat, chips in enumerate(contributions(match.bets, now % 2)):
                    buf[at["pot_contribution"] + seat] = float(chips)
            for seat, total in enumerate(match.totals):
                buf[at["totals"] + seat] = total

    def describe(self, match: RoundsMatch, player: int, key: ObsKey) -> str:
        # e.g. "seat 0 | hand 1: card K, P0 bet, P1 bet, show P0:K P1:J, P0 wins 2 | hand 2: card Q"
        recall, public, private = key
        hands, now = self.setup.hands, match.hand()
        seats = seats_for(private, player, 2)
        parts = [f"seat {player}"] if private == "single" else []

        def cards_text(cards):
            out = []
            for seat in seats:
                card = CARDS[cards[seat]] if seat < len(cards) else "-"
                out.append(f"card {card}" if private == "single" else f"P{seat} card {card}")
            return out

        if recall:
            for h in range(min(now + 1, hands)):
                done = match.past[h] if h < now else None
                words = cards_text(match.cards(h))
                if public:
                    bets, first = (done.bets, done.first) if done else (match.bets, h % 2)
                    words += [f"P{(first + i) % 2} {DECISIONS[b]}" for i, b in enumerate(bets)]
                    if done:  # how a hand ended is public
                        if ENDINGS[done.bets][1] is None:
                            cards = (f"P{s}:{CARDS[c]}" for s, c in enumerate(done.cards))
                            words.append("show " + " ".join(cards))
                        winner = 0 if done.payoff[0] > 0 else 1
                        words.append(f"P{winner} wins {abs(done.payoff[0]):g}")
                parts.append(f"hand {h + 1}: " + (", ".join(words) or "-"))
        else:
            if now < hands:
                parts += cards_text(match.cards(now))
            if public and now < hands:
                parts.append(f"hand {now + 1}")
                parts.append("pot " + " ".join(map(str, contributions(match.bets, now % 2))))
            if public:
                parts.append("totals " + " ".join(f"{t:g}" for t in match.totals))
        return " | ".join(parts) or "-"

    def true_text(self, match: RoundsMatch) -> str:
        out = []
        for h in range(self.setup.hands):
            cards = match.cards(h)
            bets = match.past[h].bets if h < match.hand() else ()
            if h == match.hand():
                bets = match.bets
            dealt = " ".join(f"P{seat}:{CARDS[c]}" for seat, c in enumerate(cards)) or "-"
            out.append(f"hand {h + 1} {dealt} {' '.join(DECISIONS[b] for b in bets) or '-'}")
        return " | ".join(out) + " | totals " + " ".join(f"{t:g}" for t in match.totals)


def resample_rounds(match: RoundsMatch, player: int, rng: random.Random) -> list[int]:
    """A history `player` cannot tell from the true one. Per hand: a
    showdown's cards kept; in a hand that ended in a fold, or the one under
    way, the opponent's card redrawn; a hand not started yet dealt afresh
    (nobody has looked at its cards). The bets never depend on the cards,
    so they are kept, and every fold pays as before."""
    now = match.hand()
    deals = []
    for h in range(match.setup.hands):
        cards = match.cards(h)
        if h < now and ENDINGS[match.past[h].bets][1] is None:
            deals += cards
        elif h <= now:
            deals += redraw(cards, player, rng)
        else:
            first = rng.choice(DECK)
            deals += [first, rng.choice(LEFT_AFTER[first])][: len(cards)]
    bets = [b for hand in match.past for b in hand.bets]
    return deals + bets + list(match.bets)


def review_rounds(match: RoundsMatch) -> dict:
    """Every hand, its cards shown; core adds the returns (the totals)."""
    hands = []
    for h in match.past:
        hands.append(
            {
                "cards": [CARDS[c] for c in h.cards],
                "first": h.first,
                "betting": [DECISIONS[b] for b in h.bets],
                "showdown": ENDINGS[h.bets][1] is None,
                "winner": 0 if h.payoff[0] > 0 else 1,
                "pot": sum(contributions(h.bets, h.first)),
            }
        )
    return {"hands": hands}


ROUNDS = Ruleset(
    short_name="fogboard_test_kuhn_rounds",
    long_name="Fogboard test game: hands of Kuhn poker paid as rewards",
    docs="docs/adding_a_game.md",
    params=ParamSpec(
        "fogboard_test_kuhn_rounds",
        [Param("hands", 2, "hands of Kuhn poker played in a row", 1, 3)],
    ),
    setup=RoundsSetup,  # RoundsSetup(hands=...)
    encoder=RoundsEncoder,
    review=review_rounds,
    resample=resample_rounds,
    reward_model="rewards",  # each hand pays at the move that ends it
    chance=True,
)
RoundsGame = registry.register(ROUNDS)
