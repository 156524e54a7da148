"""The page drawers of the boards (pages.drawers, docs/pages.md): the hex
rhombus and the tic-tac-toe grid."""

from __future__ import annotations

import math
from collections import deque

from fogboard_games.boards import rules
from fogboard_games.pages.drawers import Drawer, Shape

SEAT_MARK = ("X", "O")


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
        collided = {p.cell for p in m.plies if p.result == rules.OCCUPIED}
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
        collided = {p.cell for p in m.plies if p.result == rules.OCCUPIED}
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
