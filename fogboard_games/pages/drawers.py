"""The SVG drawing of each ruleset's true state, one drawer per ruleset (docs/pages.md).

A drawer turns a state's true match into a short list of shapes, each a
list `[kind, ...numbers, text-or-class]` that the page's script draws with
createElementNS and textContent (never markup): `r` rect x y w h class,
`c` circle cx cy r class, `l` line x1 y1 x2 y2 class, `g` polygon points
class, `t` text x y words class. `base(game)` is what never changes in a
game (the board), drawn once; `draw(state)` what a turn shows on top.
Drawers read the match as reviews do (`state.truth`); they are the
page's picture of the truth, never a seat's view.
"""

from __future__ import annotations

import math
from collections import deque

from fogboard_games.boards import rules as boards_rules
from fogboard_games.mind_bluff import rules as bluff_rules
from fogboard_games.parley import rules as parley_rules

Shape = list
SEAT_MARK = ("X", "O")


class Drawer:
    """No picture: the page shows the strings only."""

    size = (0, 0)

    def __init__(self, game):
        self.game = game
        self.setup = game.setup

    def base(self) -> list[Shape]:
        return []

    def draw(self, state) -> list[Shape]:
        return []


# ---- the boards: the hex rhombus and the tic-tac-toe grid -----------------------------------


class HexDrawer(Drawer):
    """The rhombus with algebraic names, each side's edges, stones, collisions,
    a recon sense, and the winning path once the game is won."""

    W, H = 44.0, 38.0

    def __init__(self, game):
        super().__init__(game)
        n = self.setup.size
        self.n = n
        self.size = (int(70 + self.W * (n + (n - 1) / 2)), int(70 + self.H * n + 40))

    def center(self, cell: int) -> tuple[float, float]:
        n = self.n
        col, row = cell % n, cell // n
        return (45 + col * self.W + row * self.W / 2, 40 + (n - 1 - row) * self.H)

    def hexagon(self, cell: int, cls: str, scale: float = 1.0) -> Shape:
        x, y = self.center(cell)
        r = self.W / math.sqrt(3) * scale
        points = " ".join(
            f"{x + r * math.cos(math.radians(90 + 60 * k)):.1f},"
            f"{y + r * math.sin(math.radians(90 + 60 * k)):.1f}"
            for k in range(6)
        )
        return ["g", points, cls]

    def base(self) -> list[Shape]:
        s = self.setup
        shapes: list[Shape] = []
        for seat in (0, 1):
            for cell, side in enumerate(s.edges[seat]):
                if side:
                    shapes.append(self.hexagon(cell, f"edge{seat}", 1.18))
        for cell in range(s.cells):
            shapes.append(self.hexagon(cell, "cell"))
            x, y = self.center(cell)
            shapes.append(["t", x, y + 15, s.names[cell], "name"])
        legend = []
        for seat in (0, 1):
            ends = [
                sorted(s.names[c] for c, side in enumerate(s.edges[seat]) if side == k)
                for k in (1, 2)
            ]
            legend.append(
                f"{SEAT_MARK[seat]} joins {ends[0][0]}-{ends[0][-1]} to {ends[1][0]}-{ends[1][-1]}"
            )
        shapes.append(["t", 10, self.size[1] - 12, "; ".join(legend), "legend"])
        return shapes

    def draw(self, state) -> list[Shape]:
        m, s = state.truth, self.setup
        shapes: list[Shape] = []
        if m.plies and m.plies[-1].anchor >= 0:  # recon hex: the block the last ply sensed
            for cell in s.blocks[m.plies[-1].anchor]:  # (a ply's anchor is the block's index)
                shapes.append(self.hexagon(cell, "sensed", 0.9))
        collided = {p.cell for p in m.plies if p.result == boards_rules.OCCUPIED}
        for cell in range(s.cells):
            x, y = self.center(cell)
            if m.board[cell]:
                seat = m.board[cell] - 1
                shapes.append(["c", x, y - 3, 12, f"stone{seat}"])
                shapes.append(["t", x, y + 1, SEAT_MARK[seat], "mark"])
            if cell in collided:
                shapes.append(["c", x, y - 3, 16, "collision"])
        if m.plies:
            x, y = self.center(m.plies[-1].cell)
            shapes.append(["c", x, y - 3, 19, "last"])
        path = winning_path(s, m)
        for a, b in zip(path, path[1:]):
            (x1, y1), (x2, y2) = self.center(a), self.center(b)
            shapes.append(["l", x1, y1 - 3, x2, y2 - 3, "path"])
        return shapes


def winning_path(setup, match) -> list[int]:
    """The winner's chain of cells from one of its edges to the other (the
    shortest, by breadth-first search over its stones), [] if none."""
    seat = match.winner
    if seat is None or seat < 0 or setup.is_ttt:
        return []
    mine = {c for c in range(setup.cells) if match.board[c] == seat + 1}
    sides = setup.edges[seat]
    came: dict[int, int | None] = {c: None for c in mine if sides[c] == 1}
    todo = deque(came)
    while todo:
        cell = todo.popleft()
        if sides[cell] == 2:
            path = [cell]
            while came[path[-1]] is not None:
                path.append(came[path[-1]])
            return path[::-1]
        for near in setup.neighbors[cell]:
            if near in mine and near not in came:
                came[near] = cell
                todo.append(near)
    return []


class GridDrawer(Drawer):
    """The tic-tac-toe grid: marks, collisions, the last attempt, the winning line."""

    C = 70

    def __init__(self, game):
        super().__init__(game)
        self.size = (3 * self.C + 60, 3 * self.C + 50)

    def corner(self, cell: int) -> tuple[float, float]:
        col, row = cell % 3, cell // 3
        return (30 + col * self.C, 10 + (2 - row) * self.C)

    def base(self) -> list[Shape]:
        shapes: list[Shape] = []
        for cell in range(9):
            x, y = self.corner(cell)
            shapes.append(["r", x, y, self.C, self.C, "cell"])
            shapes.append(["t", x + 12, y + self.C - 6, self.setup.names[cell], "name"])
        return shapes

    def draw(self, state) -> list[Shape]:
        m, s, c = state.truth, self.setup, self.C
        shapes: list[Shape] = []
        collided = {p.cell for p in m.plies if p.result == boards_rules.OCCUPIED}
        for cell in range(9):
            x, y = self.corner(cell)
            if m.board[cell]:
                seat = m.board[cell] - 1
                shapes.append(["t", x + c / 2, y + c / 2 + 14, SEAT_MARK[seat], f"big{seat}"])
            if cell in collided:
                shapes.append(["r", x + 4, y + 4, c - 8, c - 8, "collision"])
        if m.plies:
            x, y = self.corner(m.plies[-1].cell)
            shapes.append(["r", x + 1, y + 1, c - 2, c - 2, "last"])
        if m.winner is not None and m.winner >= 0:
            for line in s.lines:
                if all(m.board[cell] == m.winner + 1 for cell in line):
                    (x1, y1), (x2, y2) = self.corner(line[0]), self.corner(line[-1])
                    shapes.append(["l", x1 + c / 2, y1 + c / 2, x2 + c / 2, y2 + c / 2, "path"])
                    break
        return shapes


# ---- Liar's Dice: every hand's faces and the standing bid ---------------------------------------

PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


class DiceDrawer(Drawer):
    def __init__(self, game):
        super().__init__(game)
        s = self.setup
        self.size = (80 + 44 * max(s.numdice, 1), 70 + 50 * s.num_players)

    def draw(self, state) -> list[Shape]:
        m, s = state.truth, self.setup
        shapes: list[Shape] = [["t", 10, 20, f"round {m.round + 1}", "legend"]]
        for seat, hand in enumerate(m.hands):
            y = 40 + 50 * seat
            shapes.append(["t", 10, y + 24, f"P{seat}", "seat"])
            for k, face in enumerate(hand):
                x = 50 + 44 * k
                wild = face == s.wild_face
                shapes.append(["r", x, y, 36, 36, "wild" if wild else "die"])
                if face in PIPS:
                    for dx, dy in PIPS[face]:
                        shapes.append(["c", x + 18 + 10 * dx, y + 18 + 10 * dy, 3.5, "pip"])
                else:
                    shapes.append(["t", x + 18, y + 24, str(face), "mark"])
        y = 50 + 50 * len(m.hands)
        if m.bid is not None and m.bid >= 0:
            bid = f"standing bid {s.bid_names[m.bid]} by P{m.holder}"
        else:
            bid = "no bid yet"
        shapes.append(["t", 10, y, bid, "bid"])
        return shapes


# ---- Mind Bluff: the dango, each seat's candidates, claims, doubts, debts, the series -------------


class BluffDrawer(Drawer):
    def __init__(self, game):
        super().__init__(game)
        self.size = (560, 230)

    def match_of(self, state):
        return state.truth, None

    def draw(self, state) -> list[Shape]:
        m, score = self.match_of(state)
        if m is None:
            return []
        shapes: list[Shape] = []
        y0 = 0
        if score is not None:
            shapes.append(["t", 10, 18, score, "bid"])
            y0 = 24
        if m.start is None:
            shapes.append(["t", 10, y0 + 24, "the start count is not drawn yet", "legend"])
            return shapes
        start = m.start
        remaining = m.remaining if m.remaining is not None else start
        for k in range(start):
            x, y = 16 + (k % 20) * 18, y0 + 20 + (k // 20) * 18
            shapes.append(["c", x, y, 7, "dango" if k < remaining else "eaten"])
        y = y0 + 40 + ((start - 1) // 20 + 1) * 18
        shapes.append(["t", 10, y, f"remaining {remaining} of {start}", "legend"])
        for seat in (0, 1):
            left = bluff_rules.remaining_set(m, (seat,))
            shown = ", ".join(map(str, left)) if len(left) <= 12 else f"{left[0]}..{left[-1]}"
            words = f"{bluff_rules.SEAT_NAMES[seat]} believes remaining in {{{shown}}}"
            shapes.append(["t", 10, y + 20 + 18 * seat, words, "seat"])
        debts = m.debts or (0, 0)
        shapes.append(["t", 10, y + 60, f"debts P1 {debts[0]}, P2 {debts[1]}", "legend"])
        if m.turns:
            t = m.turns[-1]
            who = bluff_rules.SEAT_NAMES[t.actor]
            if t.actual is None:
                words = f"last: {who} all done"
            else:
                words = f"last: {who} ate {t.actual}"
                if t.claim is not None:
                    words += f", claimed {t.claim}"
                if t.response is not None:
                    words += ", believed" if t.response == bluff_rules.BELIEVE else ", doubted"
                if t.verdict is not None:
                    words += ": TRUE" if t.verdict else ": BLUFF"
            cls = "bluff" if t.verdict is False else "bid"
            shapes.append(["t", 10, y + 80, words, cls])
        return shapes


class SeriesDrawer(BluffDrawer):
    def __init__(self, game):
        super().__init__(game)
        self.size = (560, 254)

    def match_of(self, state):
        series = state.truth
        now = series.now if series.now is not None else (series.past[-1] if series.past else None)
        number = len(series.past) + (series.now is not None)
        return now, f"series score P1 {series.score[0]} - P2 {series.score[1]}, game {number}"


# ---- Parley: the table of cogs -------------------------------------------------------------------


class TableDrawer(Drawer):
    """Cogs round a table with hp or OUT, the gun, the cards, the last shot."""

    def __init__(self, game):
        super().__init__(game)
        self.size = (520, 420)

    def seat_at(self, c: int) -> tuple[float, float]:
        n = self.setup.players
        angle = -math.pi / 2 + 2 * math.pi * c / n
        return (260 + 150 * math.cos(angle), 200 + 140 * math.sin(angle))

    def draw(self, state) -> list[Shape]:
        m, s = state.truth, self.setup
        name = parley_rules.cog
        shapes: list[Shape] = [["t", 10, 20, f"round {m.round + 1} of {s.rounds}", "legend"]]
        turn = next((t for t in reversed(m.turns) if t.round == m.round), None)
        if turn is not None and turn.act is not None and turn.act != s.pass_action:
            target = s.target_of(turn.act)
            aim = "head" if s.aim_of(turn.act) == parley_rules.HEAD else "hip"
            result = {parley_rules.HIT: "hit", parley_rules.MISS: "miss"}.get(turn.result, "aimed")
            (x1, y1), (x2, y2) = self.seat_at(turn.it), self.seat_at(target)
            shapes.append(["l", x1, y1, x2, y2, f"shot-{result}"])
            words = f"{name(turn.it)} shoots {name(target)} {aim}: {result}"
            shapes.append(["t", 10, 390, "last shot: " + words, "bid"])
        elif turn is not None and turn.act == s.pass_action:
            shapes.append(["t", 10, 390, f"last: {name(turn.it)} passes", "bid"])
        for c in range(s.players):
            x, y = self.seat_at(c)
            alive = bool(m.living >> c & 1)
            shapes.append(["c", x, y, 28, "cog" if alive else "out"])
            shapes.append(["t", x, y - 4, name(c), "mark"])
            shapes.append(["t", x, y + 12, f"hp {m.hp[c]}" if alive else "OUT", "hp"])
            if m.it == c:
                shapes.append(
                    ["g", f"{x + 30},{y - 30} {x + 48},{y - 24} {x + 30},{y - 18}", "gun"]
                )
                shapes.append(["t", x + 40, y - 34, "gun", "name"])
            cards = m.cards(m.round, c)
            if cards is not None:
                friend, enemy = cards
                words = f"friend {name(friend)} enemy {name(enemy)}"
                shapes.append(["t", x, y + 44, words, "card"])
        shapes.append(["t", 10, 410, "totals " + " ".join(map(str, m.totals)), "legend"])
        return shapes


def drawer_for(game) -> Drawer:
    """The drawer of the game's ruleset (by its Match and Setup, not by name)."""
    setup = game.setup
    name = game.get_type().short_name
    if name.startswith("fogboard_phantom_ttt") or getattr(setup, "is_ttt", False):
        return GridDrawer(game)
    if hasattr(setup, "edges") and hasattr(setup, "neighbors"):
        return HexDrawer(game)
    if name == "fogboard_liars_dice":
        return DiceDrawer(game)
    if name == "fogboard_mind_bluff_series":
        return SeriesDrawer(game)
    if name == "fogboard_mind_bluff":
        return BluffDrawer(game)
    if name == "fogboard_parley":
        return TableDrawer(game)
    return Drawer(game)
