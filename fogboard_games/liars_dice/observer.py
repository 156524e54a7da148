"""Tensors and strings of Liar's Dice (docs/liars_dice.md#what-each-seat-knows).

What a seat knows: its own dice (each hand it rolled, as a multiset: a seat
may forget the order its dice came in), every decision of every seat (bids,
passes, calls, keep and reroll), the dice counts per seat, and every die
shown at a showdown. Never another seat's dice before that showdown, never
the faces of another seat's reroll. Public information is every decision,
the dice counts and the showdowns.

Pieces (n = players, V = seats covered: 0 for public-only, 1 for single,
n for all; R = rounds (1 in chips mode, total dice - 1 in dice mode);
H = hands per round (rerolls + 1); S = sides; B = bid ids (total dice x S);
D = numdice; K = the bid rows of all rounds: round r, with at most
T - r of the T dice in play, has (T - r) x S rows starting at row K_r):

| piece | shape | when | meaning |
|---|---|---|---|
| seat | (n,) | single seat | one-hot: whose view this is |
| hands | (V, R, H, S) | private, perfect recall | dice per face of the seat's h-th hand of round r (partial while rolling) |
| hand | (V, S) | private, current view | dice per face of the seat's current hand |
| dice_counts | (n, D + 1) | dice mode, public | one-hot: dice each seat has now |
| rerolled | (R, n, rerolls) | rerolls, public, perfect recall | the seat made its k-th reroll in round r |
| kept | (R, n) | rerolls, public, perfect recall | the seat chose keep in round r |
| bids | (K, n) | public, perfect recall | the seat made bid b in round r (row K_r + b) |
| passes | (K, n) | allow_pass, public, perfect recall | the seat passed on standing bid b in round r |
| liar | (R, n) | public, perfect recall | the seat called liar in round r |
| prophecies | (K, n) | prophecy, public, perfect recall | the seat prophesied b in round r |
| shown | (R, n, S) | public, perfect recall | dice per face of each seat at round r's showdown |
| rerolls_used | (n, rerolls + 1) | rerolls, public, current view | one-hot: rerolls each seat used this round |
| standing_bid | (B,) | public, current view | one-hot: the standing bid, zeros before the opening bid |
| holder | (n,) | public, current view | one-hot: who made the standing bid |
| to_move | (n,) | public, current view | one-hot: the seat to decide, zeros at chance nodes and the end |
| last_shown | (n, S) | public, current view | dice per face of each seat at the latest showdown |

The order of bids, passes and calls needs no piece of its own: bids only
rise and turns go round the seats with dice, so the pieces above fix the
whole sequence. `core.observer.piece_table` builds this table from a live layout
(docs/liars_dice.md). `LiarsDiceEncoder` is the ruleset's core.contract.Encoder.
"""

from __future__ import annotations

from typing import NamedTuple

from fogboard_games.core import contract
from fogboard_games.core.observer import INFO_STATE, Layout, ObsKey, PieceList, seats_for
from fogboard_games.liars_dice import rules
from fogboard_games.liars_dice.rules import ACT, ROLL


class Plan(NamedTuple):
    """Offsets of the pieces `encode` writes itself (None if absent); the
    walk places the perfect-recall log."""

    seat: int | None
    dice_counts: int | None
    hands: int | None
    bids: int | None
    hand: int | None
    standing_bid: int | None
    holder: int | None
    to_move: int | None
    last_shown: int | None
    rerolls_used: int | None


class LiarsDiceEncoder(contract.Encoder):
    """Tensors and strings of one Liar's Dice game (see the module docstring)."""

    Plan = Plan

    def __init__(self, setup: rules.Setup):
        super().__init__(setup)
        self._walkers: dict[tuple, object] = {}
        # "P1 bid 3x4" per seat and action, for the information-state strings.
        self.action_texts = [
            [action_text(setup, seat, a) for a in range(setup.num_actions)]
            for seat in range(setup.players)
        ]
        self.view = InfoStateView(self, self.layout(INFO_STATE))
        self.info_state_tensor = self.view.tensor
        self.start_texts: dict[tuple, str] = {}  # the strings before the first roll (describe)
        self.info_asked = [(seat, INFO_STATE) for seat in range(setup.players)]  # RoundLog keys
        # info_state_string's first rounds: one hand per seat, and the head of round 1.
        self.one_hand = not setup.rerolls
        self.hand_tokens: dict[tuple, str] = {}  # "hand 35" per hand as rolled (<= 6^5)
        head = RoundLog(setup, (0,), False, True).head
        self.info_heads = [f"seat {seat} | {head}: " for seat in range(setup.players)]

    def counts(self) -> dict[str, int]:
        # Hands and shown dice count dice per face.
        n = self.setup.numdice
        return {"hands": n, "hand": n, "shown": n, "last_shown": n}

    def pieces(self, key: ObsKey) -> PieceList:
        return dice_pieces(self.setup, key)

    def walker(self, layout: Layout, origin: int = 0):
        """The event walk of a layout (see `walker`), built once."""
        key = (layout.key, origin)
        walk = self._walkers.get(key)
        if walk is None:
            walk = self._walkers[key] = walker(layout, self.setup, origin)
        return walk

    def encode(self, buf, layout: Layout, match: rules.Match, player: int, private: str) -> None:
        encode(self, buf, layout, match, player, private)

    def describe(self, match: rules.Match, player: int, key: ObsKey) -> str:
        return describe(self, match, player, key)

    def info_state_string(self, m: rules.Match, player: int) -> str:
        """describe(m, player, INFO_STATE) by a shorter road while the game
        runs: a short first round without rerolls is joined afresh from the
        seat's hand and the decisions; otherwise the seat's RoundLog (the one
        describe uses), read on from where it stopped, keeps its joined lines."""
        if not m.events or m.returns_ is not None:
            return describe(self, m, player, INFO_STATE)
        events = m.events
        if m.round == 0 and m.mover >= 0 and self.one_hand and len(events) <= SHORT_ROUND:
            # The first round of a game without rerolls, at a decision: every
            # die has been rolled, so the line is the seat's hand, then the
            # decisions in order; joined afresh it costs less than keeping it
            # would on a round this short (a new match has no cache yet).
            hand = tuple(m.hands[player])
            token = self.hand_tokens.get(hand)
            if token is None:
                token = self.hand_tokens[hand] = "hand " + hand_text(hand)
            texts = self.action_texts
            # Events by position (Event is kind, seat, what): the commonest
            # string of the game, and three item reads cost less here than
            # unpacking every event (rolls included) or three field reads.
            tokens = [texts[e[1]][e[2]] for e in events if e[0] == ACT]
            return self.info_heads[player] + ", ".join([token, *tokens])
        log = match_texts(self, m).round_log(self.setup, self.info_asked[player])
        if log.done != len(m.events) or log.joined is None:
            log.joined = f"seat {player} | " + " | ".join(log.lines(self, m))
        return log.joined

    def true_text(self, match: rules.Match) -> str:
        m = match
        hands = " ".join(f"P{s}:{hand_text(h)}" for s, h in enumerate(m.hands))
        log = " ".join(self.action_texts[e.seat][e.what] for e in m.events if e.kind == ACT)
        dice = " ".join(map(str, m.dice))
        return f"round {m.round + 1} dice {dice} hands {hands} | {log or '-'}"


def dice_pieces(setup: rules.Setup, key: ObsKey) -> PieceList:
    recall, public, private = key
    n, S, B = setup.players, setup.sides, setup.num_bids
    R, H = setup.max_rounds, setup.hands_per_round
    v = len(seats_for(private, 0, n))
    pieces = []
    if private == "single":
        pieces.append(("seat", (n,)))
    if v:
        pieces.append(("hands", (v, R, H, S)) if recall else ("hand", (v, S)))
    if public:
        if setup.mode == "dice":
            pieces.append(("dice_counts", (n, setup.numdice + 1)))
        if recall:
            if setup.rerolls:
                pieces += [("rerolled", (R, n, setup.rerolls)), ("kept", (R, n))]
            K = setup.bid_rows
            pieces.append(("bids", (K, n)))
            if setup.allow_pass:
                pieces.append(("passes", (K, n)))
            pieces.append(("liar", (R, n)))
            if setup.prophecy:
                pieces.append(("prophecies", (K, n)))
            pieces.append(("shown", (R, n, S)))
        else:
            if setup.rerolls:
                pieces.append(("rerolls_used", (n, setup.rerolls + 1)))
            pieces += [
                ("standing_bid", (B,)),
                ("holder", (n,)),
                ("to_move", (n,)),
                ("last_shown", (n, S)),
            ]
    return pieces


def encode(
    enc: LiarsDiceEncoder, buf, layout: Layout, m: rules.Match, player: int, private: str
) -> None:
    """Write the pieces of `layout` for `player` into the zeroed `buf`."""
    setup = m.setup
    n, S = setup.players, setup.sides
    plan = enc.plan(layout)
    o_seat, o_counts, o_hands, o_bids = plan.seat, plan.dice_counts, plan.hands, plan.bids
    o_hand, o_bid, o_holder, o_to_move = plan.hand, plan.standing_bid, plan.holder, plan.to_move
    o_last, o_used = plan.last_shown, plan.rerolls_used
    if o_seat is not None:
        buf[o_seat + player] = 1.0
    if o_counts is not None:
        width = setup.numdice + 1
        for seat, count in enumerate(m.dice):
            buf[o_counts + seat * width + count] = 1.0
    if o_bids is not None or o_hands is not None:
        walk = enc.walker(layout)
        hands_at = [None] * n  # seat -> (buffer, offset) its dice go to, None if not shown
        for i, seat in enumerate(seats_for(private, player, n)):
            hands_at[seat] = (0, o_hands + i * walk.hand_block)
        walk(m, Cursor(hands_at, [buf], buf, [0] * n))
        return
    # Current view.
    if o_hand is not None:
        for i, seat in enumerate(seats_for(private, player, n)):
            o = o_hand + i * S - 1
            for face in m.hands[seat]:
                buf[o + face] += 1.0
    if o_bid is not None:
        if m.bid >= 0:
            buf[o_bid + m.bid] = 1.0
            buf[o_holder + m.holder] = 1.0
        if m.phase == rules.BIDDING or m.phase == rules.CHOOSING:
            buf[o_to_move + m.mover] = 1.0
        if m.showdowns:
            o = o_last - 1
            for seat, hand in enumerate(m.showdowns[-1].hands):
                for face in hand:
                    buf[o + seat * S + face] += 1.0
        if o_used is not None:
            width = setup.rerolls + 1
            for seat, used in enumerate(m.rerolls_used):
                buf[o_used + seat * width + used] = 1.0


class Cursor:
    """Where a walk of a match's events stands, and where it writes.

    Slotted: the walk reads and writes it at every event, and a slot is read
    as fast as a list item. The Python route's cursor is `match.cache`, and
    the match's strings ride along in it (`texts`).
    """

    __slots__ = ("done", "round", "row", "standing", "hand_no", "hands_at", "bufs", "public",
                 "texts")  # fmt: skip

    def __init__(self, hands_at: list, bufs: list, public, hand_no: list):
        self.done = 0  # events encoded so far
        self.round = 0  # the round of the next event
        self.row = 0  # the first bid row of that round
        self.standing = -1  # the standing bid, -1 before the opening bid
        self.hand_no = hand_no  # per seat, which hand of the round it is on
        # Per seat, (index in `bufs`, offset) its dice are written at, None if not shown.
        self.hands_at = hands_at
        self.bufs = bufs  # the buffers of the seats' dice
        self.public = public  # the buffer of the public pieces
        self.texts: DiceTexts | None = None  # the match's strings, made when first asked


def walker(layout: Layout, setup: rules.Setup, origin: int = 0):
    """The event walk for one layout, its offsets and constants bound once.

    `walker(layout, setup, origin)(m, cursor)` encodes the perfect-recall
    pieces of the events after `cursor.done` and advances the cursor. A seat's
    dice go to its own (buffer, offset); public pieces go to the public
    buffer, at their layout offset minus `origin`: `encode` writes both into
    one buffer (origin 0), `InfoStateView` keeps the public block (which
    starts at `origin`) once for all seats. (A closure: the Python route
    walks at every decision, and unpacking a dozen constants per call would
    cost as much as the walk itself. `LiarsDiceEncoder.walker` keeps them.)
    """

    def at_piece(name):
        o = layout.offset.get(name)
        return None if o is None else o - origin

    o_bids, o_liar, o_shown = at_piece("bids"), at_piece("liar"), at_piece("shown")
    o_pass, o_proph = at_piece("passes"), at_piece("prophecies")
    o_rerolled, o_kept = at_piece("rerolled"), at_piece("kept")
    n, S, B = setup.players, setup.sides, setup.num_bids
    H, R, round_rows = setup.hands_per_round, setup.max_rounds, setup.round_rows
    liar, base, reroll, pass_action = (
        setup.liar,
        setup.prophecy_base,
        setup.reroll,
        setup.pass_action,
    )
    rerolls = setup.rerolls

    def walk_events(m: rules.Match, at: Cursor) -> None:
        rnd, row, standing, hand_no = at.round, at.row, at.standing, at.hand_no
        hands_at, bufs, public = at.hands_at, at.bufs, at.public
        events = m.events
        for k in range(at.done, len(events)):
            kind, seat, what = events[k]
            if kind == ROLL:
                target = hands_at[seat]
                if target is not None:
                    which, offset = target
                    bufs[which][offset + (rnd * H + hand_no[seat]) * S + what - 1] += 1.0
                continue
            if kind == ACT:
                if what == reroll:
                    hand_no[seat] += 1
                if o_bids is None:
                    continue
                if what < B:
                    public[o_bids + (row + what) * n + seat] = 1.0
                    standing = what
                elif what == liar:
                    public[o_liar + rnd * n + seat] = 1.0
                elif o_proph is not None and base <= what < base + B:
                    public[o_proph + (row + what - base) * n + seat] = 1.0
                elif what == pass_action:
                    public[o_pass + (row + standing) * n + seat] = 1.0
                elif what == reroll:
                    public[o_rerolled + (rnd * n + seat) * rerolls + hand_no[seat] - 1] = 1.0
                else:  # keep
                    public[o_kept + rnd * n + seat] = 1.0
                continue
            # SHOW: the showdown of round `rnd` (what == rnd)
            if o_shown is not None:
                o = o_shown + rnd * n * S - 1
                for s, hand in enumerate(m.showdowns[rnd].hands):
                    for face in hand:
                        public[o + s * S + face] += 1.0
            rnd += 1
            row = round_rows[rnd] if rnd < R else 0
            hand_no = [0] * n
            standing = -1
        at.done = len(events)
        at.round = rnd
        at.row = row
        at.standing = standing
        at.hand_no = hand_no

    walk_events.hand_block = R * H * S  # floats of one seat's hands
    return walk_events


class InfoStateView:
    """The Python route's information-state tensors, kept by one resumable walk.

    The information-state layout is a seat's own block (its one-hot and its
    dice) followed by the public block, the same for every seat. Per match,
    a cursor keeps each seat's own block and one public block; each new
    event is walked once, into its owner's block (a die) or the public block
    (a decision, a showdown), and reading a seat's tensor joins its block to
    the public one. The walk is `walker` of the information-state layout,
    the same that `encode` runs from scratch for the C++ route.

    In a one-round game without rerolls (chips mode, as OpenSpiel's), a
    seat's only hand is its current one, so the view reads the dice from the
    match instead of logging every roll.
    """

    def __init__(self, enc: LiarsDiceEncoder, info: Layout):
        setup = enc.setup
        n, B, H, S = setup.players, setup.num_bids, setup.hands_per_round, setup.sides
        o_seat, o_hands = info.offset["seat"], info.offset["hands"]
        o_counts = info.offset.get("dice_counts")
        # The public block starts after the seat's dice (make_layout's order).
        origin = o_hands + enc.walker(info).hand_block
        walk = enc.walker(info, origin)
        own_blank = []  # per seat: its own block, zeros but its one-hot
        for seat in range(n):
            block = [0.0] * origin
            block[o_seat + seat] = 1.0
            own_blank.append(block)
        public_blank = [0.0] * (info.size - origin)
        logged = setup.max_rounds * H > 1  # else a seat's dice are its current hand
        # Where the walk writes a seat's dice: its own block, or nowhere.
        hands_at = [(seat, o_hands) if logged else None for seat in range(n)]
        o_bids = info.offset["bids"] - origin
        o_face = o_hands - 1  # faces are 1-based
        width = setup.numdice + 1
        rerolls, no_rerolls = setup.rerolls, [0] * n
        roll, act = ROLL, ACT  # closure cells: read faster than module globals

        def start(m: rules.Match) -> Cursor:
            """The match's cursor, walked to nothing yet (`match.cache`)."""
            hand_no = [0] * n if rerolls else no_rerolls  # only a reroll changes it
            own = [*map(list.copy, own_blank)] if logged else None
            at = m.cache = Cursor(hands_at, own, public_blank[:], hand_no)
            return at

        def tensor(m: rules.Match, player: int) -> list[float]:
            at = m.cache
            if at is None:
                at = start(m)
            done = at.done
            events = m.events
            end = len(events)
            # Rolls and bids, the commonest events between two reads, are the
            # walk's own branches inlined (tests compare with `encode`); the
            # walk takes over at the first other event.
            while done < end:
                kind, seat, what = events[done]
                if kind == roll:
                    if logged:
                        at.bufs[seat][o_face + (at.round * H + at.hand_no[seat]) * S + what] += 1.0
                elif kind == act and what < B:
                    at.public[o_bids + (at.row + what) * n + seat] = 1.0
                    at.standing = what
                else:
                    at.done = done
                    walk(m, at)
                    break
                done += 1
            else:
                at.done = done
            if logged:
                out = at.bufs[player] + at.public
            else:
                out = own_blank[player] + at.public
                for face in m.hands[player]:
                    out[o_face + face] += 1.0
            if o_counts is not None:  # current dice counts: not part of the log
                for seat, count in enumerate(m.dice):
                    out[o_counts + seat * width + count] = 1.0
            return out

        self.tensor = tensor
        self.start = start


# ---- strings ------------------------------------------------------------

# Events up to which info_state_string joins a first round's line afresh
# (beyond, the seat's RoundLog keeps it).
SHORT_ROUND = 24


def hand_text(faces) -> str:
    return "".join(map(str, sorted(faces))) or "-"


def action_text(setup: rules.Setup, seat: int, action: int) -> str:
    return f"P{seat} {setup.decision_name(action)}"


def showdown_text(setup: rules.Setup, showdown: rules.Showdown) -> str:
    sd = showdown
    shown = " ".join(f"P{s}:{hand_text(h)}" for s, h in enumerate(sd.hands) if h)
    face = setup.bid_face[sd.said if sd.call == "prophecy" else sd.bid]
    verb = "loses" if setup.mode == "dice" else "pays"
    unit = "die" if sd.amount == 1 else "dice"
    what = f"{sd.amount} {unit}" if setup.mode == "dice" else str(sd.amount)
    target = "" if setup.mode == "dice" else f" P{sd.winner}"
    return f"show {shown}; {sd.count} count as {face}s; P{sd.loser} {verb}{target} {what}"


def dice_at_round_starts(m: rules.Match) -> list[list[int]]:
    """Dice per seat at the start of every round so far (public)."""
    dice = [m.setup.numdice] * m.setup.players
    out = [dice[:]]
    for sd in m.showdowns[: m.round]:
        dice[sd.loser] -= sd.amount
        out.append(dice[:])
    return out


class DiceTexts:
    """The strings of one match, kept in its cursor (`match.cache.texts`).

    `memo` holds every string asked after the first `stamp` events: every
    move appends one event and a match only moves forward, so a new count
    means a move was applied, and the memo starts afresh. The round logs of
    the perfect-recall strings (one RoundLog per set of seats shown) read
    only the events since, instead of the whole log. A copied match starts
    with no cache, so a copy never answers with its original's strings.
    """

    __slots__ = ("stamp", "memo", "logs")

    def __init__(self):
        self.stamp = 0
        self.memo: dict[tuple, str] = {}
        self.logs: dict[tuple, RoundLog] = {}  # by (player, key), as the memo

    def round_log(self, setup: rules.Setup, asked: tuple) -> RoundLog:
        """The RoundLog of `asked`, (player, perfect-recall key), made when first asked."""
        log = self.logs.get(asked)
        if log is None:
            player, (_, public, private) = asked
            seats = seats_for(private, player, setup.players)
            log = self.logs[asked] = RoundLog(setup, seats, private == "all", public)
        return log


def match_texts(enc: LiarsDiceEncoder, m: rules.Match) -> DiceTexts:
    """The match's DiceTexts (in its cursor, `match.cache.texts`), made when first asked."""
    at = m.cache
    if at is None:
        at = enc.view.start(m)
    texts = at.texts
    if texts is None:
        texts = at.texts = DiceTexts()
    return texts


def describe(enc: LiarsDiceEncoder, m: rules.Match, player: int, key: ObsKey) -> str:
    """The string an observer of `key` shows `player`: asked again at the
    same position, the string made the first time (see DiceTexts)."""
    if not m.events:
        # The start, the same in every match of the game: kept by the encoder,
        # as the start is likely the game's template match, which every fresh
        # state shares and pickles and which keeps no cache.
        text = enc.start_texts.get((player, key))
        if text is None:
            text = enc.start_texts[player, key] = compose(enc, DiceTexts(), m, (player, key))
        return text
    texts = match_texts(enc, m)
    asked = (player, key)
    if texts.stamp == len(m.events):
        text = texts.memo.get(asked)
        if text is not None:
            return text
    else:
        texts.stamp = len(m.events)
        texts.memo = {}
    text = texts.memo[asked] = compose(enc, texts, m, asked)
    return text


def compose(enc: LiarsDiceEncoder, texts: DiceTexts, m: rules.Match, asked: tuple) -> str:
    """The string describe() answers for `asked`, (player, observation key)."""
    player, (recall, public, private) = asked
    setup = m.setup
    seats = seats_for(private, player, setup.players)
    every = private == "all"
    parts = [f"seat {player}"] if private == "single" else []
    if recall:
        parts += texts.round_log(setup, asked).lines(enc, m)
    else:
        for seat in seats:
            parts.append((f"P{seat} " if every else "") + "hand " + hand_text(m.hands[seat]))
        if public:
            if setup.mode == "dice":
                parts.append("dice " + " ".join(str(d) for d in m.dice))
            if setup.rerolls:
                parts.append("rerolls used " + " ".join(str(u) for u in m.rerolls_used))
            if m.bid >= 0:
                parts.append(f"bid {setup.bid_name(m.bid)} by P{m.holder}")
            if m.phase == rules.BIDDING or m.phase == rules.CHOOSING:
                parts.append(f"P{m.mover} to move")
            if m.showdowns:
                parts.append(showdown_text(setup, m.showdowns[-1]))
    if m.returns_ is not None and public:
        parts.append("returns " + " ".join(_num(x) for x in m.returns_))
    return " | ".join(parts) or "-"


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.4g}"


class RoundLog:
    """Per round, the tokens an observer knows, in the order they happened,
    extended event by event: "round 1: hand 35, P0 bid 1x2, P1 liar, show ...".

    An observer sees the dice of `seats` (each hand as it is rolled, placed
    where its first die was rolled, shown sorted: a seat may forget the
    order its dice came in) and, if `public`, every decision and showdown.
    Finished rounds are kept as their lines; the round under way as tokens.
    """

    __slots__ = (
        *("seats", "every", "public", "done", "finished", "head", "tokens", "hands", "dice"),
        "joined",  # the information-state string of these lines (info_state_string)
    )

    def __init__(self, setup: rules.Setup, seats: tuple, every: bool, public: bool):
        self.seats = seats
        self.every = every  # hands say whose they are
        self.public = public
        self.done = 0  # events read
        self.finished = []  # the lines of the rounds shown down
        # Dice per seat at the start of the round under way (public, in dice mode).
        self.dice = None
        self.head = "round 1"
        if public and setup.mode == "dice":
            self.dice = [setup.numdice] * setup.players
            self.head = self.round_head(0)
        self.tokens = []  # the round under way: strings, a hand's rewritten as it grows
        self.hands: dict[int, RolledHand] = {}  # seat -> the hand it is rolling
        self.joined = None

    def round_head(self, r: int) -> str:
        if self.dice is None:
            return f"round {r + 1}"
        return f"round {r + 1} dice " + " ".join(map(str, self.dice))

    def lines(self, enc: LiarsDiceEncoder, m: rules.Match) -> list[str]:
        """The line of every round so far (of the rounds played, not one the
        end of the game leaves unopened)."""
        events = m.events
        if self.done != len(events):
            self.read(enc, m, events)
        if len(self.finished) > m.round:  # over: the round the last showdown opened never began
            return self.finished
        return [*self.finished, self.head + ": " + (", ".join(self.tokens) or "-")]

    def read(self, enc: LiarsDiceEncoder, m: rules.Match, events: list) -> None:
        setup = m.setup
        texts = enc.action_texts  # [seat][action] -> "P1 bid 3x4"
        tokens, hands = self.tokens, self.hands
        rolled = []  # the hands that grew: their tokens are rewritten once, at the end
        for k in range(self.done, len(events)):
            kind, seat, what = events[k]
            if kind == ROLL:
                if seat in self.seats:
                    hand = hands.get(seat)
                    if hand is None:
                        hand = hands[seat] = RolledHand(seat, tokens, len(tokens))
                        tokens.append("")
                    hand.faces.append(what)
                    if not rolled or rolled[-1] is not hand:  # rewritten once, at the end
                        rolled.append(hand)
            elif kind == ACT:
                if what == setup.reroll:
                    hands.pop(seat, None)  # the next rolls make a new hand
                if self.public:
                    tokens.append(texts[seat][what])
            else:  # SHOW: the round ends, the next one opens
                self.write_hands(rolled)
                showdown = m.showdowns[what]
                if self.public:
                    tokens.append(showdown_text(setup, showdown))
                self.finished.append(self.head + ": " + (", ".join(tokens) or "-"))
                if self.dice is not None:
                    self.dice[showdown.loser] -= showdown.amount
                self.head = self.round_head(len(self.finished))
                tokens = self.tokens = []
                hands = self.hands = {}
        self.done = len(events)
        self.write_hands(rolled)
        self.joined = None

    def write_hands(self, rolled: list) -> None:
        """Rewrite the tokens of the hands that grew (and forget them)."""
        for hand in rolled:
            faces = "".join(map(str, sorted(hand.faces)))
            text = f"P{hand.seat} hand {faces}" if self.every else "hand " + faces
            hand.tokens[hand.at] = text
        rolled.clear()


class RolledHand:
    """A hand being rolled, as a RoundLog shows it: its token, `tokens[at]`
    in its round's tokens, is rewritten as its `faces` come in."""

    __slots__ = ("seat", "tokens", "at", "faces")

    def __init__(self, seat: int, tokens: list[str], at: int):
        self.seat = seat
        self.tokens = tokens
        self.at = at
        self.faces: list[int] = []
