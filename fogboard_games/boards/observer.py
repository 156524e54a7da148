"""Tensors and strings of the Fog-of-War boards (docs/boards.md#what-each-seat-knows).

What a seat knows: its stones, its attempts in order with their results, its
sense results, and, only under `reveal-numturns`, who made each ply. Never
the opponent's attempts, never the opponent's collisions on its own stones,
and, under `reveal-nothing`, not whose turn it is beyond what it can deduce.
Public information is the parameters, the ply movers under
`reveal-numturns`, and the result once the game is over.

Pieces (S = seats covered: 0 for public-only, 1 for single, 2 for all;
L = max own plies = min(cells, max_plies); M = max plies of the game;
A = sense anchors; K = sense block cells):

| piece | shape | when | meaning |
|---|---|---|---|
| board | (S, cells, 3) | private | believed board: unknown / own stone / proven opponent stone |
| attempts | (S, L, cells) | private, perfect recall | cell of the seat's i-th attempt |
| results | (S, L, 2) | private, perfect recall | placed / occupied of the i-th attempt |
| senses | (S, L, A) | recon, private, perfect recall | anchor of the i-th sense |
| sensed | (S, L, K, 3) | recon, private, perfect recall | each block cell: empty / own / opponent |
| seen_empty_age | (S, cells) | recon, private, current view | 1 + own plies since last seen empty, 0 if never |
| sensed_now | (S, A) | recon, private, current view | anchor sensed in the ply under way |
| ply_movers | (M, 2) | reveal-numturns, public, perfect recall | seat that made each ply |
| ply_count | (M + 1,) | reveal-numturns, public, current view | one-hot number of plies so far |
| outcome | (3,) | public | seat 0 won / draw / seat 1 won, zeros while running |

The table is also built from code by `core.observer.piece_table` (docs/boards.md).
`BoardEncoder` is the ruleset's core.contract.Encoder. Under `imperfect_recall`
a perfect-recall key shows the current view (`BoardEncoder.recall_key`,
docs/boards.md#imperfect-recall).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from fogboard_games.boards import rules
from fogboard_games.core import contract
from fogboard_games.core.observer import INFO_STATE, Layout, ObsKey, PieceList, seats_for

SYMBOL = ".xo"  # true-board codes EMPTY / X_STONE / O_STONE
SEAT_NAME = ("X", "O")
BELIEVED_MEMO_SIZE = 1 << 17  # entries per game before the memo starts afresh


def seat_label(seat: int) -> str:
    """Seat `seat` as the strings name it, with its number: "X (seat 0)"."""
    return f"{SEAT_NAME[seat]} (seat {seat})"


class Plan(NamedTuple):
    """Offsets of the pieces the encoder writes at every call (None if absent)."""

    board: int | None
    attempts: int | None
    results: int | None
    ply_movers: int | None
    ply_count: int | None
    outcome: int | None


class BoardEncoder(contract.Encoder):
    """Tensors and strings of one board game (see the module docstring)."""

    Plan = Plan

    def __init__(self, geo: rules.Geometry):
        super().__init__(geo)
        # believed distToWin per (seat, view): information-state strings show
        # it, and searches ask for the same information states again and again.
        self.believed_memo: dict[int, int] = {}
        self.start_texts: dict[tuple, str] = {}  # the strings before the first ply (describe)
        self.page = _ascii_page(geo)
        # The believed board of a seat with nothing known, as ASCII bytes, and
        # where each cell's mark sits in it (SeatText rewrites just those).
        self.blank_page = board_ascii(self.page, "." * geo.cells).encode()
        slots = [i for i, ch in enumerate(self.blank_page) if ch == ord(".")]
        self.page_slot = [0] * geo.cells
        for c, i in zip(self.page[1], slots):  # the page's cell order
            self.page_slot[c] = i
        # A seat's marks (view codes UNKNOWN / OWN / PROVEN) as ASCII codes.
        self.view_marks = [
            [ord("."), ord(SYMBOL[seat + 1]), ord(SYMBOL[2 - seat])] for seat in (0, 1)
        ]
        self.view_heads = [f"{seat_label(seat)} view:\n" for seat in (0, 1)]
        # [2 * cell + result]: the text of a ply without a sense (`ply_text`), made once,
        # and per own ply number j its log entries " j.<text>" (`log_entries`).
        self.plain_ply_texts = [
            ply_text(geo, rules.Ply(0, -1, (), c, r))
            for c in range(geo.cells)
            for r in (rules.PLACED, rules.OCCUPIED)
        ]
        self._log_entries = [None] * (geo.max_own_plies + 1)
        self.all_bits = sum(geo.bits)  # every cell, as rules.dist_bits masks
        self.free_bits = self.all_bits.bit_length()  # the width of one mask (believed_dist)
        self.dist_texts = [f"believed distToWin: {d}" for d in range(rules.UNREACHABLE + 1)]
        # The default information-state string has no public part to add while
        # the game runs unless ply movers are public (`info_state_string`).
        # (under imperfect recall the view only: nothing to resume, so the
        # contract's routes, encode from scratch and describe, answer)
        self.seat_only_info = not geo.numturns and not geo.imperfect_recall
        if not geo.imperfect_recall:
            # info_state_tensor(m, player): the cached route with its layout bound
            # (a partial, not a closure: no extra Python frame per read).
            info = self.layout(INFO_STATE)
            self.info_state_tensor = functools.partial(
                cached_info_state_tensor, info, self.plan(info)
            )

    def counts(self) -> dict[str, int]:
        # Recon hex's view: a cell's age, 1 + own plies since it was seen empty.
        return {"seen_empty_age": 1 + self.setup.max_own_plies} if self.setup.sense else {}

    def recall_key(self, key: ObsKey) -> ObsKey:
        """The key an observer of `key` shows. Under imperfect recall a seat
        keeps no record, so a perfect-recall key shows what OpenSpiel's
        phantom_ttt_ir / dark_hex_ir information state shows: a seat's
        current believed board and nothing public (not even the ply count
        of reveal-numturns); a public-only one, the public observation
        (docs/boards.md#imperfect-recall)."""
        recall, _, private = key
        if recall and self.setup.imperfect_recall:
            return (False, private == "none", private)
        return key

    def layout(self, key: ObsKey) -> Layout:
        return super().layout(self.recall_key(key))

    def pieces(self, key: ObsKey) -> PieceList:
        return board_pieces(self.setup, key)

    def encode(self, buf, layout: Layout, match: rules.Match, player: int, private: str) -> None:
        encode(buf, layout, self.plan(layout), match, player, private)

    def describe(self, match: rules.Match, player: int, key: ObsKey) -> str:
        return describe(self, match, player, key)

    def log_entries(self, j: int) -> list[str]:
        """ " j.a1 placed", " j.a1 occupied", ...: a seat's j-th ply without a
        sense, as its log shows it, for every cell (made when first asked)."""
        entries = self._log_entries[j]
        if entries is None:
            entries = self._log_entries[j] = [f" {j}.{t}" for t in self.plain_ply_texts]
        return entries

    def believed_dist(self, seat: int, own: int, free: int) -> int:
        """rules.dist_bits of a seat's view (its stones `own`, its unknown
        cells `free`), memoised per (seat, view)."""
        key = (own << self.free_bits | free) << 1 | seat  # an int: no tuple to make and hash
        memo = self.believed_memo
        dist = memo.get(key)
        if dist is None:
            if len(memo) >= BELIEVED_MEMO_SIZE:
                memo.clear()
            dist = memo[key] = rules.dist_bits(self.setup, seat, own, free)
        return dist

    def info_state_string(self, m: rules.Match, player: int) -> str:
        """describe(m, player, INFO_STATE) by a shorter road while the game
        runs between plies: the seat's board, log and distance, kept by its
        SeatText and joined once per change of its view."""
        if m.sensed is not None or m.ending is not None or not m.plies or not self.seat_only_info:
            return describe(self, m, player, INFO_STATE)
        mine = match_texts(m).seat(self, player)
        if mine.done != len(m.plies):
            mine.catch_up(self, m)
        text = mine.info
        if text is None:
            head = self.view_heads[player]
            text = mine.info = f"{head}{mine.page.decode()}\nlog:{mine.log or ' -'}\n{mine.dist}"
        return text

    def true_text(self, match: rules.Match) -> str:
        geo = match.setup
        log = " ".join(f"{SEAT_NAME[p.seat]}:{ply_text(geo, p)}" for p in match.plies)
        return true_ascii(match, self.page) + "\nplies: " + (log or "-")


def board_pieces(geo: rules.Geometry, key: ObsKey) -> PieceList:
    numturns = geo.numturns
    recall, public, private = key
    s = len(seats_for(private, 0, 2))
    pieces = []
    if s:
        pieces.append(("board", (s, geo.cells, 3)))
        if recall:
            L = geo.max_own_plies
            pieces += [("attempts", (s, L, geo.cells)), ("results", (s, L, 2))]
            if geo.sense:
                k2 = geo.sense * geo.sense
                pieces += [("senses", (s, L, len(geo.anchors))), ("sensed", (s, L, k2, 3))]
        elif geo.sense:
            pieces += [("seen_empty_age", (s, geo.cells)), ("sensed_now", (s, len(geo.anchors)))]
    if public:
        if numturns:
            M = geo.max_game_plies
            pieces.append(("ply_movers", (M, 2)) if recall else ("ply_count", (M + 1,)))
        pieces.append(("outcome", (3,)))
    return pieces


def encode(buf, layout: Layout, plan: Plan, m: rules.Match, player: int, private: str) -> None:
    """Write the pieces of `layout` for `player` into the zeroed `buf`.

    `buf` is a numpy array (observers, the C++ route) or a list of floats.
    The Python route's default information-state tensor resumes the same
    two writers from a cache instead (`info_state_tensor`).
    """
    geo = m.setup
    cells = geo.cells
    off = layout.offset
    for i, seat in enumerate(seats_for(private, player, 2)):
        own_plies = _encode_seat(buf, layout, plan, m, i, seat, 0, 0)
        if geo.sense and "seen_empty_age" in off:
            o = off["seen_empty_age"] + i * cells
            seen_at = m.seen_empty_at
            base = seat * cells
            for c in range(cells):
                if seen_at[base + c] >= 0:
                    buf[o + c] = float(1 + own_plies - seen_at[base + c])
            if m.sensed is not None and m.mover == seat:
                buf[off["sensed_now"] + i * len(geo.anchors) + m.sensed[0]] = 1.0
    _encode_public(buf, plan, m, 0)


def cached_info_state_tensor(
    layout: Layout, plan: Plan, m: rules.Match, player: int
) -> list[float]:
    """The default information-state tensor (perfect recall, public, one seat).

    Every piece of it only grows as plies are added, so a per-match cache
    holds each seat's tensor and the number of plies it has seen, and a read
    writes just the plies since: one or two per step of a playout instead of
    the whole log. A copied match starts with no cache.
    """
    cache = m.cache
    if cache is None:
        cache = m.cache = BoardCache()
    entry = cache.tensors[player]
    if entry is None:
        buf = [0.0] * layout.size
        own_plies = _encode_seat(buf, layout, plan, m, 0, player, 0, 0)
        cache.tensors[player] = SeatTensor(buf, len(m.plies), own_plies)
        _encode_public(buf, plan, m, 0)
        return buf[:]
    buf, done = entry.buf, entry.done
    if done != len(m.plies) or m.sensed is not None or m.ending is not None:
        entry.own_plies = _encode_seat(buf, layout, plan, m, 0, player, done, entry.own_plies)
        _encode_public(buf, plan, m, done)
        entry.done = len(m.plies)
    return buf[:]


class BoardCache:
    """A match's `cache`: per seat its information-state tensor (a
    SeatTensor, made when first read) and the match's strings (BoardTexts)."""

    __slots__ = ("tensors", "texts")

    def __init__(self):
        self.tensors: list[SeatTensor | None] = [None, None]
        self.texts: BoardTexts | None = None


class SeatTensor:
    """A seat's cached information-state tensor, `buf`, written for the
    first `done` plies, `own_plies` of them the seat's."""

    __slots__ = ("buf", "done", "own_plies")

    def __init__(self, buf: list[float], done: int, own_plies: int):
        self.buf = buf
        self.done = done
        self.own_plies = own_plies


def _encode_seat(
    buf, layout: Layout, plan: Plan, m: rules.Match, i: int, seat: int, start: int, j: int
) -> int:
    """Write seat's private pieces (block i) for plies[start:]; return its ply count.

    `j` is the seat's ply count before `start`. From start 0 every cell is
    first marked unknown; a seat then knows exactly the cells it attempted
    (own stone or proven) and those its senses showed holding an opponent
    stone. The sense of the ply under way is written too (rewritten, the
    same, once the ply is complete).
    """
    geo = m.setup
    cells = geo.cells
    board_off, attempts_off, results_off = plan.board, plan.attempts, plan.results
    if board_off is None:
        return j
    o = board_off + i * cells * 3
    if start == 0:
        buf[o : o + 3 * cells : 3] = geo.unknown_marks
    recall = attempts_off is not None
    if recall:
        L = geo.max_own_plies
        oa = attempts_off + (i * L + j) * cells
        orr = results_off + (i * L + j) * 2
    plies = m.plies
    for k in range(start, len(plies)):
        who, anchor, seen, cell, result = plies[k]
        if who != seat:
            continue
        if anchor >= 0:
            _encode_sense(buf, layout, i, j, anchor, seen, geo, o)
        cell3 = o + 3 * cell
        buf[cell3] = 0.0
        buf[cell3 + 1 + result] = 1.0  # placed -> own stone, occupied -> proven
        if recall:
            buf[oa + cell] = 1.0
            buf[orr + result] = 1.0
            oa += cells
            orr += 2
        j += 1
    if m.sensed is not None and m.mover == seat:
        _encode_sense(buf, layout, i, j, m.sensed[0], m.sensed[1], geo, o)
    return j


def _encode_sense(
    buf, layout: Layout, i: int, j: int, anchor: int, seen: tuple, geo, o: int
) -> None:
    """A sense of the seat's ply j: proven cells on the board (at o), and its row."""
    off = layout.offset
    for c, code in zip(geo.blocks[anchor], seen):
        if code == rules.PROVEN:
            buf[o + 3 * c] = 0.0
            buf[o + 3 * c + 2] = 1.0
    if "senses" in off:
        L = geo.max_own_plies
        buf[off["senses"] + (i * L + j) * len(geo.anchors) + anchor] = 1.0
        row = off["sensed"] + (i * L + j) * len(seen) * 3
        for b, code in enumerate(seen):
            buf[row + 3 * b + code] = 1.0


def _encode_public(buf, plan: Plan, m: rules.Match, start: int) -> None:
    """Public pieces: ply movers from plies[start:], ply count, outcome."""
    movers_off, count_off, outcome_off = plan.ply_movers, plan.ply_count, plan.outcome
    if movers_off is not None:
        plies = m.plies
        for k in range(start, len(plies)):
            buf[movers_off + 2 * k + plies[k].seat] = 1.0
    elif count_off is not None:
        buf[count_off + len(m.plies)] = 1.0
    if m.ending is not None and outcome_off is not None:
        buf[outcome_off + (1 if m.winner < 0 else 2 * m.winner)] = 1.0


# ---- strings ------------------------------------------------------------


def _ascii_page(geo: rules.Geometry) -> tuple:
    """(format, cell order) of the ASCII board, rank 1 at the bottom, file
    letters underneath: a slot per cell, filled by `board_ascii`.

    Hex ranks are shifted right as they rise, so that the six neighbours of
    a cell are the six cells around it on the page.
    """
    n = geo.size  # files
    lines = []
    for r in range(geo.ranks - 1, -1, -1):
        indent = " " * r if geo.kind == "hex" else ""
        lines.append(f"{r + 1:>2} {indent}" + " ".join(["{}"] * n))
    lines.append("   " + " ".join("abcdefghijk"[:n]))
    order = [r * n + f for r in range(geo.ranks - 1, -1, -1) for f in range(n)]
    return "\n".join(lines).format, order


def board_ascii(page: tuple, symbols) -> str:
    """The ASCII board of per-cell `symbols` on a page made by `_ascii_page`."""
    fill, order = page
    return fill(*[symbols[c] for c in order])


def true_ascii(m: rules.Match, page: tuple | None = None) -> str:
    """The true board (`page`: the game's, or made afresh)."""
    return board_ascii(page or _ascii_page(m.setup), [SYMBOL[v] for v in m.board])


def sense_text(geo: rules.Geometry, anchor: int, seen: tuple) -> str:
    cells = geo.blocks[anchor]
    marks = {rules.UNKNOWN: "empty", rules.OWN: "own", rules.PROVEN: "opp"}
    body = " ".join(f"{geo.names[c]}:{marks[code]}" for c, code in zip(cells, seen))
    return f"sense {geo.names[geo.anchors[anchor]]} [{body}]"


def ply_text(geo: rules.Geometry, ply: rules.Ply) -> str:
    text = f"{geo.names[ply.cell]} {rules.RESULT_NAMES[ply.result]}"
    if ply.anchor >= 0:
        text = sense_text(geo, ply.anchor, ply.seen) + " " + text
    return text


def outcome_text(m: rules.Match) -> str:
    if m.winner < 0:
        return f"result: draw ({m.ending})"
    return f"result: {SEAT_NAME[m.winner]} wins ({m.ending})"


class SeatText:
    """One seat's private lines, extended as its plies are added.

    A seat's view changes only at its own plies: the cell it attempted and
    the cells of the block it sensed. So the page of its believed board is
    kept as ASCII bytes whose slot per cell is rewritten just there, its log
    is extended by one entry per own ply, and its view is kept as bit masks
    (its stones, its unknown cells) for its believed distToWin, asked again
    only when the view changed.
    """

    __slots__ = ("seat", "done", "own", "page", "log", "dist", "mine", "free", "info")

    def __init__(self, enc: BoardEncoder, seat: int):
        self.seat = seat
        self.done = 0  # plies read so far (both seats')
        self.own = 0  # the seat's own plies among them
        self.page = bytearray(enc.blank_page)
        self.log = ""  # " 1.a1 placed 2.b2 occupied": the seat's complete plies, each after a space
        self.dist = ""  # "believed distToWin: 3", empty until catch_up
        self.mine = 0  # the seat's stones, as rules.dist_bits masks
        self.free = enc.all_bits  # the cells it knows nothing of
        self.info = None  # the default information-state string (info_state_string)

    def catch_up(self, enc: BoardEncoder, m: rules.Match) -> None:
        """Read the plies since the last call (and the sense under way)."""
        geo = m.setup
        seat = self.seat
        plies = m.plies
        changed = []  # cells whose view may have changed
        for k in range(self.done, len(plies)):
            ply = plies[k]
            # Unpacked into named locals: on the string's hottest path a Ply's
            # field reads cost several times one tuple unpack (measured).
            who, anchor, _, cell, result = ply
            if who != seat:
                continue
            self.own += 1
            if anchor < 0:  # a ply without a sense: one of the game's few log entries
                self.log += enc.log_entries(self.own)[2 * cell + result]
            else:
                self.log += f" {self.own}.{ply_text(geo, ply)}"
                changed += geo.blocks[anchor]
            changed.append(cell)
        self.done = len(plies)
        if m.sensed is not None and m.mover == seat:
            changed += geo.blocks[m.sensed[0]]
        if changed or not self.dist:
            view, base, slot, bits = m.view, seat * geo.cells, enc.page_slot, geo.bits
            marks = enc.view_marks[seat]
            mine, free = self.mine, self.free
            for c in changed:
                code = view[base + c]
                self.page[slot[c]] = marks[code]
                if code != rules.UNKNOWN:  # known from now on: its stone or a proven one
                    free &= ~bits[c]
                    if code == rules.OWN:
                        mine |= bits[c]
            self.mine, self.free = mine, free
            self.dist = enc.dist_texts[enc.believed_dist(seat, mine, free)]
            self.info = None


class BoardTexts:
    """The strings of one match, kept in `match.cache.texts` (see `describe`).

    `memo` holds every string asked at the position `stamp` names (plies so
    far, the sense under way, the ending): a match only moves forward, so a
    new stamp means a move was applied, and the memo starts afresh while the
    seats' lines and the public ply movers are extended, not rebuilt. A
    copied match starts with no cache, so a copy never answers with its
    original's strings.
    """

    __slots__ = ("stamp", "memo", "seats", "movers", "movers_done")

    def __init__(self):
        self.stamp = None
        self.memo: dict[tuple, str] = {}
        self.seats = [None, None]  # SeatText per seat, made when first shown
        self.movers = ""  # "X O X": who made each ply (reveal-numturns)
        self.movers_done = 0

    def seat(self, enc: BoardEncoder, seat: int) -> SeatText:
        """The seat's SeatText, made when first asked."""
        mine = self.seats[seat]
        if mine is None:
            mine = self.seats[seat] = SeatText(enc, seat)
        return mine

    def ply_movers(self, m: rules.Match) -> str:
        plies = m.plies
        if self.movers_done != len(plies):
            movers = " ".join(SEAT_NAME[p.seat] for p in plies[self.movers_done :])
            self.movers = f"{self.movers} {movers}" if self.movers else movers
            self.movers_done = len(plies)
        return self.movers


def match_texts(m: rules.Match) -> BoardTexts:
    """The match's BoardTexts (`match.cache.texts`), made when first asked."""
    cache = m.cache
    if cache is None:
        cache = m.cache = BoardCache()
    texts = cache.texts
    if texts is None:
        texts = cache.texts = BoardTexts()
    return texts


def describe(enc: BoardEncoder, m: rules.Match, player: int, key: ObsKey) -> str:
    """The string an observer of `key` shows `player`: asked again at the
    same position, the string made the first time (see BoardTexts)."""
    key = enc.recall_key(key)
    if not m.plies and m.sensed is None and m.ending is None:
        # The start, the same in every match of the game (unless a wall clock
        # stopped it, which ends it without a ply): kept by the encoder,
        # as the start is likely the game's template match, which every fresh
        # state shares and pickles and which keeps no cache.
        text = enc.start_texts.get((player, key))
        if text is None:
            text = enc.start_texts[player, key] = compose(enc, BoardTexts(), m, player, key)
        return text
    texts = match_texts(m)
    stamp = (len(m.plies), m.sensed, m.ending)
    if texts.stamp == stamp:
        text = texts.memo.get((player, key))
        if text is not None:
            return text
    else:
        texts.stamp = stamp
        texts.memo = {}
    text = texts.memo[player, key] = compose(enc, texts, m, player, key)
    return text


def compose(enc: BoardEncoder, texts: BoardTexts, m: rules.Match, player: int, key: ObsKey) -> str:
    recall, public, private = key
    geo = m.setup
    numturns = geo.numturns
    parts = []
    for seat in seats_for(private, player, 2):
        mine = texts.seat(enc, seat)
        if mine.done != len(m.plies) or m.sensed is not None or not mine.dist:
            mine.catch_up(enc, m)
        parts.append(enc.view_heads[seat] + mine.page.decode())
        if recall:
            log = mine.log
            if m.sensed is not None and m.mover == seat:
                log += f" {mine.own + 1}.{sense_text(geo, *m.sensed)}"
            parts.append("log:" + (log or " -"))
        elif geo.sense:
            done = mine.own
            base = seat * geo.cells
            seen = [
                f"{geo.names[c]}({done - m.seen_empty_at[base + c]})"
                for c in range(geo.cells)
                if m.seen_empty_at[base + c] >= 0
            ]
            parts.append("seen empty (own plies ago): " + (" ".join(seen) or "-"))
            if m.sensed is not None and m.mover == seat:
                parts.append("this ply: " + sense_text(geo, *m.sensed))
        parts.append(mine.dist)
    if public:
        if numturns:
            if recall:
                parts.append("plies: " + (texts.ply_movers(m) or "-"))
            else:
                parts.append(f"plies: {len(m.plies)}")
        if m.ending is not None:
            parts.append(outcome_text(m))
        elif not parts:
            parts.append("public: nothing yet")
    return "\n".join(parts)
