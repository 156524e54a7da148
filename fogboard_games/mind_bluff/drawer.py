"""The page drawers of Mind Bluff and its series (pages.drawers, docs/pages.md):
the dango, each seat's candidates, claims, doubts, debts, the series score."""

from __future__ import annotations

from fogboard_games.mind_bluff import rules
from fogboard_games.pages.drawers import Drawer, Shape


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
            left = rules.remaining_set(m, (seat,))
            shown = ", ".join(map(str, left)) if len(left) <= 12 else f"{left[0]}..{left[-1]}"
            words = f"{rules.SEAT_NAMES[seat]} believes remaining in {{{shown}}}"
            shapes.append(["t", 10, y + 20 + 18 * seat, words, "seat"])
        debts = m.debts or (0, 0)
        shapes.append(["t", 10, y + 60, f"debts P1 {debts[0]}, P2 {debts[1]}", "legend"])
        if m.turns:
            t = m.turns[-1]
            who = rules.SEAT_NAMES[t.actor]
            if t.actual is None:
                words = f"last: {who} all done"
            else:
                words = f"last: {who} ate {t.actual}"
                if t.claim is not None:
                    words += f", claimed {t.claim}"
                if t.response is not None:
                    words += ", believed" if t.response == rules.BELIEVE else ", doubted"
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
