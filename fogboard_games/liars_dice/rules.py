"""Rules of Liar's Dice (docs/liars_dice.md#rules), free of pyspiel.

Each of `players` seats (2..6) starts with `numdice` dice of `dice_sides`
faces. A round:

1. Chance rolls every die, one die per chance node, seat 0's dice first,
   then seat 1's, and so on, skipping seats with no dice. A die is seen
   only by its owner (who sees its hand as a multiset, not in roll order).
2. Rerolls (`rerolls` > 0): starting with the opener, each seat with dice
   chooses `keep` or `reroll`; a reroll rolls its whole hand again (one
   chance node per die) and the seat chooses again, until it keeps or has
   used its rerolls for the round. That a seat rerolled is public; its
   faces are not.
3. Bidding, starting with the opener. `bid QxF` claims at least Q dice in
   play show face F. A raise is a higher quantity (any face) or the same
   quantity of a higher face; Q is at most the dice in play.
   - `liar` (needs a standing bid by another seat): all dice are shown;
     count >= Q: the holder of the bid wins and the caller loses, else the
     reverse.
   - `prophecy QxF` (rule `prophecy`; needs a standing bid by another seat;
     QxF must be a legal raise over it): ends the round, all dice shown.
     Exact count: the prophet wins `prophecy_payout` from the holder of the
     standing bid; otherwise the prophet pays 1 to the holder.
   - `pass` (rule `allow_pass`): keeps the standing bid and moves the turn
     on. Refused without a standing bid, at the highest bid, and for the
     holder; when every other seat passed, the holder must raise.
4. Counting face F: dice showing F plus wild dice (`wild` = `one`: face 1,
   `highest`: face `dice_sides`, as OpenSpiel; `none`: no wilds). When F is
   the wild face itself only those dice count.
5. Settlement. `mode=chips`: one round; the loser pays the winner 1 (a
   prophecy as above); zero-sum. `mode=dice`: the loser loses one die (an
   exact prophecy costs the holder min(payout, its dice)); the next round
   is opened by the loser, or by the next seat with dice if the loser is
   out; round 1 is opened by seat 0. The last seat with dice scores +1,
   every other seat -1/(players-1).

Action ids are fixed by the starting total T of dice and S sides: bid
(Q-1)*S + (F-1) for 0 <= id < T*S, `liar` = T*S, then, each only when its
rule is on, `prophecy QxF` = T*S + 1 + bid id, `pass`, `keep`, `reroll`.
With wild=highest and no extra rules this is exactly OpenSpiel's
`liars_dice` (bidding_rule reset-face): the same ids in the same order.

`Setup` (the ruleset's core.contract.Setup) holds what never changes in a
game; `Match` everything that changes, in a few flat lists so that copying
a state stays cheap.
"""

from __future__ import annotations

from typing import NamedTuple

from fogboard_games.core import contract
from fogboard_games.core.contract import CHANCE, NO_OPTIONS, TERMINAL

WILDS = ("one", "highest", "none")
MODES = ("chips", "dice")

# Phases of a match. ROLLING and REROLLING (the two lowest) are chance nodes.
ROLLING, REROLLING, CHOOSING, BIDDING, OVER = 0, 1, 2, 3, 4

# Match.mover outside decisions: pyspiel's player ids for chance and the end.
CHANCE_TURN, GAME_OVER = CHANCE, TERMINAL

# Event kinds in Match.events.
ROLL = 0  # Event(ROLL, seat, face): one die of `seat`, private to it
ACT = 1  # Event(ACT, seat, action): a decision, public
SHOW = 2  # Event(SHOW, -1, round): the round's showdown, see Match.showdowns


class Event(NamedTuple):
    """One event of a match (every one is made once per game, in Setup)."""

    kind: int  # ROLL, ACT or SHOW
    seat: int  # the die's owner or the decider; -1 for a showdown
    what: int  # ROLL: the face (1-based); ACT: the action id; SHOW: the round


class Showdown(NamedTuple):
    """The end of a round: every hand shown, the call and its settlement."""

    hands: tuple[tuple[int, ...], ...]  # per seat, its final hand in roll order
    call: str  # "liar" or "prophecy"
    caller: int
    said: int  # the prophesied bid id, -1 for liar
    bid: int  # the standing bid id
    holder: int  # who made the standing bid
    count: int  # dice counting for the called face (wilds included)
    winner: int
    loser: int
    amount: int  # chips paid; in dice mode the dice the loser actually lost


_MAX_LENGTHS: dict[tuple, int] = {}


class Setup(contract.Setup):
    """The fixed facts of one Liar's Dice game (resolved parameters)."""

    utility_sum = 0.0

    def __init__(
        self,
        players: int,
        numdice: int,
        dice_sides: int,
        wild: str,
        prophecy: bool,
        prophecy_payout: int,
        allow_pass: bool,
        rerolls: int,
        mode: str,
    ):
        assert wild in WILDS and mode in MODES
        self.built_from = (
            players,
            numdice,
            dice_sides,
            wild,
            prophecy,
            prophecy_payout,
            allow_pass,
            rerolls,
            mode,
        )
        self.players = self.num_players = players
        self.numdice = numdice
        self.sides = self.max_chance_outcomes = dice_sides
        self.wild = wild
        self.wild_face = {"one": 1, "highest": dice_sides, "none": 0}[wild]
        self.prophecy = prophecy
        self.payout = prophecy_payout
        self.allow_pass = allow_pass
        self.rerolls = rerolls
        self.mode = mode
        self.chips = mode == "chips"
        self.total = players * numdice
        self.num_bids = self.total * dice_sides
        self.liar = self.num_bids
        nxt = self.liar + 1
        self.prophecy_base = nxt if prophecy else -1
        nxt += self.num_bids if prophecy else 0
        self.pass_action = nxt if allow_pass else -1
        nxt += 1 if allow_pass else 0
        self.keep = nxt if rerolls else -1
        self.reroll = nxt + 1 if rerolls else -1
        nxt += 2 if rerolls else 0
        self.num_actions = nxt
        # Rounds a match can last: chips one; dice at most total - 1 (every
        # round costs at least one die and the winner keeps at least one).
        self.max_rounds = 1 if mode == "chips" else self.total - 1
        self.hands_per_round = rerolls + 1
        # Round r has at most total - r dice in play (every round costs a
        # die), so its bids fit (total - r) * sides rows: the perfect-recall
        # tensor stacks the rounds' rows, starting at round_rows[r].
        self.round_rows = [
            dice_sides * (r * self.total - r * (r - 1) // 2) for r in range(self.max_rounds)
        ]
        self.bid_rows = dice_sides * sum(self.total - r for r in range(self.max_rounds))
        self.bid_names = [
            f"{b // dice_sides + 1}x{b % dice_sides + 1}" for b in range(self.num_bids)
        ]
        self.chance_outcomes = [(f, 1.0 / dice_sides) for f in range(dice_sides)]
        # Made once, shared by every match: a roll's event, a bid's Q and F.
        self.roll_events = [
            [Event(ROLL, s, f + 1) for f in range(dice_sides)] for s in range(players)
        ]
        self.act_events = [
            [Event(ACT, s, a) for a in range(self.num_actions)] for s in range(players)
        ]
        self.bid_quantity = [b // dice_sides + 1 for b in range(self.num_bids)]
        self.bid_face = [b % dice_sides + 1 for b in range(self.num_bids)]
        self.show_events = [Event(SHOW, -1, r) for r in range(self.max_rounds)]
        # Chips mode: the returns of every settlement, [loser][winner][amount].
        self.chip_returns = [
            [
                [
                    tuple(
                        float(a) if s == w else -float(a) if s == lo else 0.0
                        for s in range(players)
                    )
                    for a in range(max(1, prophecy_payout) + 1)
                ]
                for w in range(players)
            ]
            for lo in range(players)
        ]
        # Bidding's legal actions, built once each: legal_lists[dice in play]
        # [2 * (standing bid + 1) + (the mover holds it)], None until needed.
        self.legal_lists = [[None] * (2 * self.num_bids + 2) for _ in range(self.total + 1)]
        self.faces = list(range(dice_sides))
        self.choices = [self.keep, self.reroll]  # CHOOSING's options
        if mode == "chips":
            top = max(1, prophecy_payout)
            self.min_utility, self.max_utility = -float(top), float(top)
        else:
            self.min_utility, self.max_utility = -1.0 / (players - 1), 1.0
        key = self.built_from
        if key not in _MAX_LENGTHS:  # a search: about a second for 6 seats in dice mode
            _MAX_LENGTHS[key] = self._max_game_length()
        self.max_game_length = _MAX_LENGTHS[key]

    def can_fall_short(self, face: int) -> bool:
        """Whether some die does not count for `face` (so a bid on it can fail).

        With two sides and a wild face, every die counts for the other face.
        """
        return any(
            g != face and (g != self.wild_face or face == self.wild_face)
            for g in range(1, self.sides + 1)
        )

    def _round_ends(self, dice_in_play: int, seats: int) -> list[int]:
        """Most bidding decisions of a round, per way it can end.

        Entry 2*j + k is the longest bidding (calls included) that ends with
        the seat j places after the opener (among the `seats` with dice)
        losing: k = 0 one die (liar, failed prophecy), k = 1 an exact
        prophecy against it; -1 if that ending is impossible.

        The mover of the i-th decision is always i places after the opener
        (a pass or a bid hands the turn to the next seat with dice, and the
        holder's forced raise comes when the turn reaches it), so a round is
        a sequence of rising bids with runs of passes; a dynamic programme
        over (standing bid, holder, passes since it) finds the longest of
        each ending exactly, including which bids can be shown false or an
        exact prophecy true by some roll.
        """
        S, m = self.sides, seats
        top = dice_in_play * S
        width = 2 * m
        none = [-1] * width
        short = [self.can_fall_short(b % S + 1) for b in range(top)]
        # Prophecy v: exact needs Q counting dice and the rest not counting;
        # failing needs a count other than Q.
        exact_ok = [(b // S + 1 == dice_in_play) or short[b] for b in range(top)]
        fail_ok = [(b // S + 1 < dice_in_play) or short[b] for b in range(top)]
        # above[u] = ending values of "mover u makes some bid above v".
        above = [none[:] for _ in range(m)]
        any_exact = any_fail = False  # some prophecy above v is exact / fails
        for v in range(top - 1, -1, -1):
            fresh = [None] * m  # F(v, h, 0) per holder h
            for h in range(m):
                after = none[:]  # F(v, h, p) for p from m-1 down to 0
                for p in range(m - 1, -1, -1):
                    u = (h + 1 + p) % m
                    here = [x + 1 if x >= 0 else -1 for x in above[u]] if v < top - 1 else none[:]
                    if u != h:
                        here[2 * u] = max(here[2 * u], 1)  # liar: the caller loses
                        if short[v]:
                            here[2 * h] = max(here[2 * h], 1)  # liar: the holder loses
                        if self.prophecy and any_exact:
                            here[2 * h + 1] = max(here[2 * h + 1], 1)
                        if self.prophecy and any_fail:
                            here[2 * u] = max(here[2 * u], 1)
                        if self.allow_pass and v < top - 1 and p < m - 1:
                            here = [max(a, b + 1 if b >= 0 else -1) for a, b in zip(here, after)]
                    after = here
                fresh[h] = after
            for u in range(m):
                above[u] = [max(a, b) for a, b in zip(above[u], fresh[u])]
            any_exact = any_exact or exact_ok[v]
            any_fail = any_fail or fail_ok[v]
        # The opener's opening bid.
        return [x + 1 if x >= 0 else -1 for x in above[0]]

    def _max_game_length(self) -> int:
        """Most decisions in a match, exactly (a search over dice counts).

        Each seat's rerolls add at most `rerolls` decisions per round (the
        last reroll ends its choice); the bidding is searched per round by
        `_round_ends`, and dice mode searches every sequence of losers over
        the dice counts, opener first.
        """
        rounds = {}

        def ends(d, m):
            if (d, m) not in rounds:
                rounds[(d, m)] = self._round_ends(d, m)
            return rounds[(d, m)]

        if self.mode == "chips":
            return max(ends(self.total, self.players)) + self.rerolls * self.players
        memo = {}

        def longest(dice: tuple) -> int:
            # `dice` lists the dice of the seats with dice, opener first.
            if len(dice) == 1:
                return 0
            if dice in memo:
                return memo[dice]
            m = len(dice)
            best = 0
            for k, length in enumerate(ends(sum(dice), m)):
                if length < 0:
                    continue
                j = k // 2
                lost = min(self.payout, dice[j]) if k % 2 else 1
                after = list(dice)
                after[j] -= lost
                # The loser opens, or the next seat with dice if it is out.
                order = after[j:] + after[:j]
                order = tuple(x for x in order if x > 0)
                best = max(best, length + self.rerolls * m + longest(order))
            memo[dice] = best
            return best

        return longest((self.numdice,) * self.players)

    def new_match(self) -> Match:
        return Match(self)

    def action_name(self, player: int, action: int) -> str:
        """`roll F` for chance, else the decision's name (`decision_name`)."""
        if player == CHANCE:
            if type(action) is int and 0 <= action < self.sides:
                return f"roll {action + 1}"
            raise ValueError(f"chance outcome {action!r} is out of range 0..{self.sides - 1}")
        return self.decision_name(action)

    def bid_name(self, bid: int) -> str:
        return self.bid_names[bid]

    def decision_name(self, action: int) -> str:
        if 0 <= action < self.num_bids:
            return "bid " + self.bid_names[action]
        if action == self.liar:
            return "liar"
        if self.prophecy and self.prophecy_base <= action < self.prophecy_base + self.num_bids:
            return "prophecy " + self.bid_names[action - self.prophecy_base]
        if action == self.pass_action and self.allow_pass:
            return "pass"
        if self.rerolls and action == self.keep:
            return "keep"
        if self.rerolls and action == self.reroll:
            return "reroll"
        raise ValueError(f"action {action!r} is out of range 0..{self.num_actions - 1}")

    def count(self, hands, face: int) -> int:
        """Dice showing `face` (1-based) plus wild dice, unless face is wild."""
        wild = self.wild_face
        if wild and face != wild:
            n = 0
            for hand in hands:
                n += hand.count(face) + hand.count(wild)
            return n
        n = 0
        for hand in hands:
            n += hand.count(face)
        return n


class Match(contract.Match):
    """The changing part of a Liar's Dice match.

    Besides the contract's slots (setup; mover: the seat to decide,
    CHANCE_TURN while dice roll, GAME_OVER at the end; options: the legal
    actions now; shared; cache: the encoder's resumable tensor walk), it keeps:
    """

    __slots__ = (
        "dice",  # dice per seat now (a tuple: shared by copies, rebuilt when it changes)
        "hands",  # per seat: a tuple of the faces (1-based) of its current hand, in roll order
        "events",  # every Event in order
        "showdowns",  # a tuple of the Showdown of every finished round
        "phase",  # ROLLING / REROLLING / CHOOSING / BIDDING / OVER
        "round",  # 0-based round number
        "in_play",  # dice in play this round
        "opener",  # seat opening this round
        "roller",  # seat whose die chance rolls next
        "bid",  # standing bid id, -1 before the opening bid
        "holder",  # seat that made the standing bid, -1 before it
        "rerolls_used",  # per seat, this round (a tuple)
        "returns_",  # final returns (a tuple), None while running
    )

    def __init__(self, setup: Setup):
        n = setup.players
        self.setup = setup
        self.dice = (setup.numdice,) * n
        self.hands = [()] * n
        self.events = []
        self.showdowns = ()
        self.phase = ROLLING
        self.round = 0
        self.in_play = setup.total
        self.opener = 0
        self.roller = 0
        self.mover = CHANCE_TURN
        self.bid = -1
        self.holder = -1
        self.rerolls_used = (0,) * n
        self.returns_ = None
        self.cache = None
        self.shared = False
        self.options = setup.faces
        self.odds = setup.chance_outcomes  # every die is fair: the same odds at every roll

    def copy(self) -> Match:
        m = Match.__new__(Match)
        m.setup = self.setup
        m.dice = self.dice  # tuples, shared safely
        m.hands = self.hands[:]  # hands are tuples, shared safely
        m.events = self.events[:]  # entries are tuples, shared safely
        m.showdowns = self.showdowns
        m.phase = self.phase
        m.round = self.round
        m.in_play = self.in_play
        m.opener = self.opener
        m.roller = self.roller
        m.mover = self.mover
        m.bid = self.bid
        m.holder = self.holder
        m.rerolls_used = self.rerolls_used
        m.returns_ = self.returns_
        m.options = self.options  # lists shared by every match, never changed
        m.odds = self.odds
        m.cache = None
        m.shared = False
        return m

    # ---- seats ----------------------------------------------------------------

    def next_with_dice(self, seat: int) -> int:
        """The next seat after `seat`, in seat order, that still has dice."""
        n = self.setup.players
        dice = self.dice
        s = (seat + 1) % n
        while dice[s] == 0:
            s = (s + 1) % n
        return s

    # ---- what the mover may do ----------------------------------------------------

    def bidding_actions(self) -> list[int]:
        """The mover's legal bidding decisions: a list shared by every match
        in the same position, never to be changed (copy it to hand it out).

        The set depends only on the dice in play, the standing bid and whether
        the mover holds it, so each list is built once per game: this is the
        hottest query of every search; it becomes `options` when bidding
        starts and after every bid or pass.
        """
        row = self.setup.legal_lists[self.in_play]
        key = 2 * self.bid + 2 + (self.holder == self.mover)
        actions = row[key]
        if actions is None:
            setup = self.setup
            top = self.in_play * setup.sides  # bids with Q <= dice in play
            bid = self.bid
            actions = list(range(bid + 1, top))
            if bid >= 0 and self.holder != self.mover:
                actions.append(setup.liar)
                if setup.prophecy:
                    base = setup.prophecy_base
                    actions.extend(range(base + bid + 1, base + top))
                if setup.allow_pass and bid < top - 1:
                    actions.append(setup.pass_action)
            row[key] = actions
        return actions

    def is_legal(self, action: int) -> bool:
        # `options` is the legal set (kept current at every move): the rule
        # is stated once, where the options are built. (An int: the glue
        # checks an action's type before play sees it.)
        return action in self.options

    # ---- the moves ------------------------------------------------------------------

    def play(self, action: int) -> bool:
        """A legal chance outcome or decision (True); else nothing changes (False)."""
        if self.phase <= REROLLING:
            # A chance node, the hottest case (inline: a call would cost as
            # much as the roll): the next die of `roller` shows face action + 1.
            if not 0 <= action < self.setup.sides:
                return False
            seat = self.roller
            event = self.setup.roll_events[seat][action]
            hand = self.hands[seat] = self.hands[seat] + event[2:]
            self.events.append(event)
            dice = self.dice
            if len(hand) < dice[seat]:
                return True
            if self.phase == REROLLING:
                # A rerolled hand is complete: the same seat chooses again, if it
                # has rerolls left; otherwise its choice is over.
                self.roller = -1
                if self.rerolls_used[seat] < self.setup.rerolls:
                    self.phase = CHOOSING
                    self.mover = seat
                    self.options = self.setup.choices
                else:
                    self._after_choice(seat)
                return True
            # First roll of the round: the next seat with dice, or the rerolls.
            n = len(dice)
            seat += 1
            while seat < n:
                if dice[seat]:
                    self.roller = seat
                    return True
                seat += 1
            self.roller = -1
            self.mover = self.opener
            setup = self.setup
            if setup.rerolls:
                self.phase = CHOOSING
                self.options = setup.choices
            else:
                self.phase = BIDDING
                # bidding_actions() with no standing bid, its cache read inline
                self.options = setup.legal_lists[self.in_play][0] or self.bidding_actions()
            return True
        if self.phase == BIDDING:
            setup = self.setup
            bid = self.bid
            if bid < action < self.in_play * setup.sides:
                # A raise: the bid stands and the next seat with dice is to move.
                seat = self.mover
                self.events.append(setup.act_events[seat][action])
                self.bid = action
                self.holder = seat
                dice = self.dice  # next_with_dice, inlined: this is the hottest move
                nxt = seat + 1 if seat + 1 < len(dice) else 0
                while not dice[nxt]:
                    nxt = nxt + 1 if nxt + 1 < len(dice) else 0
                self.mover = nxt
                # bidding_actions' cache, read inline (the mover never holds a fresh raise)
                self.options = (
                    setup.legal_lists[self.in_play][2 * action + 2] or self.bidding_actions()
                )
                return True
            if action == setup.liar and bid >= 0 and self.holder != self.mover:
                # The commonest ending, checked here without `is_legal`.
                self._call_liar(setup)
                return True
        if not self.is_legal(action):
            return False
        self._decide(action)
        return True

    def _call_liar(self, setup: Setup) -> None:
        """`liar` on the standing bid: it stands if count >= Q."""
        seat = self.mover
        holder = self.holder
        self.events.append(setup.act_events[seat][setup.liar])
        count = setup.count(self.hands, setup.bid_face[self.bid])
        if count >= setup.bid_quantity[self.bid]:  # the bid stands
            self._settle("liar", seat, count, holder, seat, 1)
        else:
            self._settle("liar", seat, count, seat, holder, 1)

    def _decide(self, action: int) -> None:
        """A legal decision other than a raise or `liar` (`play` makes those)."""
        setup = self.setup
        seat = self.mover
        if self.phase == CHOOSING:
            self.events.append(setup.act_events[seat][action])
            if action == setup.reroll:
                used = list(self.rerolls_used)
                used[seat] += 1
                self.rerolls_used = tuple(used)
                self.hands[seat] = ()
                self.roller = seat  # chance rolls the whole hand again
                self.phase = REROLLING
                self.mover = CHANCE_TURN
                self.options = setup.faces
            else:
                self._after_choice(seat)
            return
        if action == setup.liar:
            self._call_liar(setup)
            return
        self.events.append(setup.act_events[seat][action])
        if setup.prophecy and setup.prophecy_base <= action < setup.prophecy_base + setup.num_bids:
            said = action - setup.prophecy_base
            quantity, face = divmod(said, setup.sides)
            count = setup.count(self.hands, face + 1)
            if count == quantity + 1:
                self._settle("prophecy", seat, count, seat, self.holder, setup.payout, said)
            else:
                self._settle("prophecy", seat, count, self.holder, seat, 1, said)
        else:  # pass: the standing bid stays, the turn moves on
            self.mover = self.next_with_dice(seat)
            self.options = self.bidding_actions()

    def _after_choice(self, seat: int) -> None:
        """`seat` is done with rerolls: the next seat chooses, or bidding opens."""
        nxt = self.next_with_dice(seat)
        self.mover = nxt
        if nxt == self.opener:
            self.phase = BIDDING
            self.options = self.bidding_actions()
        else:
            self.phase = CHOOSING
            self.options = self.setup.choices

    def _settle(self, call, caller, count, winner, loser, amount, said=-1) -> None:
        setup = self.setup
        if not setup.chips:  # an exact prophecy costs the holder at most its dice
            amount = min(amount, self.dice[loser])
        hands = tuple(self.hands)  # in roll order; strings show them sorted
        self.showdowns += (
            Showdown(
                hands, call, caller, said, self.bid, self.holder, count, winner, loser, amount
            ),
        )
        self.events.append(setup.show_events[self.round])
        if setup.chips:
            self.returns_ = setup.chip_returns[loser][winner][amount]
            self.phase = OVER
            self.mover = GAME_OVER
            self.options = NO_OPTIONS
            return
        # Dice mode: the loser gives up dice (an exact prophecy costs the holder
        # up to the payout), and the loser opens the next round.
        dice = list(self.dice)
        dice[loser] -= amount
        self.dice = tuple(dice)
        alive = [s for s in range(setup.players) if dice[s] > 0]
        if len(alive) == 1:
            share = -1.0 / (setup.players - 1)
            self.returns_ = tuple(1.0 if s == alive[0] else share for s in range(setup.players))
            self.phase = OVER
            self.mover = GAME_OVER
            self.options = NO_OPTIONS
            return
        self.round += 1
        self.in_play = sum(self.dice)
        self.opener = loser if self.dice[loser] else self.next_with_dice(loser)
        self.hands = [()] * setup.players
        self.rerolls_used = (0,) * setup.players
        self.bid = -1
        self.holder = -1
        self.phase = ROLLING
        self.roller = alive[0]
        self.mover = CHANCE_TURN
        self.options = setup.faces

    # ---- outcome ------------------------------------------------------------------

    def returns(self) -> list[float]:
        if self.returns_ is None:
            return [0.0] * self.setup.players
        return list(self.returns_)

    def why_illegal(self, action) -> str:
        setup = self.setup
        if self.phase <= REROLLING:
            return f"chance rolls a die of seat {self.roller}: roll 1..roll {setup.sides}"
        if self.phase == CHOOSING:
            return "the seat must choose keep or reroll"
        if self.bid < 0:
            return "no standing bid yet: only an opening bid is legal"
        if self.holder == self.mover:
            return "every other seat passed: the holder must raise"
        return f"the standing bid is {setup.bid_name(self.bid)} by P{self.holder}"
