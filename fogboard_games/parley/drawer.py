"""The page drawer of Parley (pages.drawers, docs/pages.md): the table of cogs."""

from __future__ import annotations

import math

from fogboard_games.pages.drawers import Drawer, Shape
from fogboard_games.parley import rules


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
        name = rules.cog
        shapes: list[Shape] = [["t", 10, 20, f"round {m.round + 1} of {s.rounds}", "legend"]]
        turn = next((t for t in reversed(m.turns) if t.round == m.round), None)
        if turn is not None and turn.act is not None and turn.act != s.pass_action:
            target = s.target_of(turn.act)
            aim = "head" if s.aim_of(turn.act) == rules.HEAD else "hip"
            result = {rules.HIT: "hit", rules.MISS: "miss"}.get(turn.result, "aimed")
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
