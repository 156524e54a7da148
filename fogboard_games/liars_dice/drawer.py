"""The page drawer of Liar's Dice (pages.drawers, docs/pages.md): every hand's
faces and the standing bid."""

from __future__ import annotations

from fogboard_games.pages.drawers import Drawer, Shape

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
