"""Worlds consistent with one seat's information state (docs/boards.md#resampling).

`resample(match, player, rng)` returns the actions of a history whose
information state for `player` equals the given one, drawn with positive
probability on every history the seat cannot rule out. What the seat cannot
see is the opponent's plies: their cells, their senses, and (under
`reveal-nothing` with the classical rule) how many collisions each opponent
turn held. The seat's own plies, their results and sense results, and the
public ply movers under `reveal-numturns`, are fixed.

Method: replay the game forward. The seat's plies are replayed as recorded;
at each opponent ply a randomized depth-first search tries the opponent's
legal attempts in random order and backtracks when a recorded result of the
seat is contradicted. Every consistent history is reachable (each choice on
its path is tried first with positive probability), so every consistent
world has positive probability. Forward checks keep the search short:

* a cell the seat later saw empty (or later took) cannot hold an opponent
  stone before that moment;
* cells the seat proved must be opponent stones by then, and the opponent
  has only so many placements before each such moment (one per ply under
  the abrupt rule, one per turn under the classical rule).
"""

from __future__ import annotations

import random

from fogboard_games.boards import rules


class _Restart(Exception):
    pass


class _Plan:
    """What the seat's own record fixes about the opponent's plies."""

    def __init__(self, m: rules.Match, seat: int, numturns: bool):
        geo = m.setup
        self.geo = geo
        self.seat = seat
        self.opp = 1 - seat
        self.mine = [p[1:] for p in m.plies if p[0] == seat]  # (anchor, seen, cell, result)
        self.pending = m.sensed if (m.sensed is not None and m.mover == seat) else None
        # Whose move it is: the seat knows it when it is its own (it is asked
        # to act); otherwise it cannot tell (the opponent may be to move, or
        # the seat itself after an opponent placement it did not see), so
        # worlds of either kind are drawn.
        self.target_mover = seat if m.mover == seat else None
        self.movers = [p[0] for p in m.plies] if numturns else None
        K = len(self.mine)
        self.K = K
        # need_by[c]: the seat's own ply index at which c was seen holding an
        # opponent stone (collision or sense); last_empty[c]: the latest own
        # ply index at which c was seen empty or taken by the seat.
        need_by = [None] * geo.cells
        last_empty = [-1] * geo.cells
        records = list(self.mine)
        if self.pending is not None:
            records.append((self.pending[0], self.pending[1], None, None))
        for k, (anchor, seen, cell, result) in enumerate(records):
            if anchor >= 0:
                for c, code in zip(geo.blocks[anchor], seen):
                    if code == rules.PROVEN and need_by[c] is None:
                        need_by[c] = k
                    elif code == rules.UNKNOWN:
                        last_empty[c] = k
            if cell is None:
                continue
            if result == rules.OCCUPIED:
                if need_by[cell] is None:
                    need_by[cell] = k
            else:
                last_empty[cell] = max(last_empty[cell], k)
        self.need_by = need_by
        self.last_empty = last_empty
        # Opponent turns that come before the seat's ply k (classical rule):
        # one per seat turn already finished, plus one if the opponent opens.
        turns = [0]
        for ply in self.mine:
            turns.append(turns[-1] + (ply[3] == rules.PLACED))
        self.turns_before = turns

    def slots(self, k: int, opp_plies: int, opp_stones: int) -> int:
        """Opponent placements still possible before the seat's ply k."""
        first = 1 if self.seat == 1 else 0
        if self.geo.abrupt:
            return k + first - opp_plies
        return self.turns_before[min(k, self.K)] + first - opp_stones

    def feasible(self, w: rules.Match, k: int) -> bool:
        code = self.opp + 1
        board = w.board
        deadlines = sorted(
            d for c, d in enumerate(self.need_by) if d is not None and board[c] != code
        )
        if not deadlines:
            return True
        opp_plies = sum(1 for p in w.plies if p[0] == self.opp)
        opp_stones = sum(1 for v in board if v == code)
        for i, d in enumerate(deadlines):
            if d < k:
                return False  # the seat already saw that stone: it had to be there
            if i + 1 > self.slots(d, opp_plies, opp_stones):
                return False
        return True


def resample(m: rules.Match, player: int, rng: random.Random) -> list[int]:
    """The actions of a history `player` cannot tell from `m`'s (see module doc)."""
    plan = _Plan(m, player, m.setup.numturns)
    budget = 2000
    for _ in range(200):
        try:
            found = _search(plan, rules.Match(m.setup), 0, rng, [budget])
        except _Restart:
            budget = int(budget * 1.5)
            continue
        if found is not None:
            return _actions(found)
    raise RuntimeError("resample_from_infostate found no consistent world")


def _actions(m: rules.Match) -> list[int]:
    geo = m.setup
    out = []
    for _seat, anchor, _seen, cell, _result in m.plies:
        if anchor >= 0:
            out.append(geo.cells + anchor)
        out.append(cell)
    if m.sensed is not None:
        out.append(geo.cells + m.sensed[0])
    return out


def _search(plan: _Plan, w: rules.Match, k: int, rng: random.Random, budget: list[int]):
    budget[0] -= 1
    if budget[0] < 0:
        raise _Restart
    if w.ending is not None:
        return None
    ply = len(w.plies)
    movers = plan.movers
    if w.mover == plan.seat:
        if movers is not None and ply < len(movers) and movers[ply] != plan.seat:
            return None
        if k == plan.K:
            if movers is not None and ply != len(movers):
                return None
            if plan.target_mover == plan.opp:
                return None
            if plan.pending is not None:
                w = w.copy()
                w.sense(plan.pending[0])
                if w.sensed != plan.pending:
                    return None
            return w
        anchor, seen, cell, result = plan.mine[k]
        w = w.copy()
        if anchor >= 0:
            w.sense(anchor)
            if w.sensed[1] != seen:
                return None
        if not w.is_legal(cell) or w.attempt(cell) != result:
            return None
        return _search(plan, w, k + 1, rng, budget)

    # The opponent's ply: unseen by the seat, so searched.
    opp = plan.opp
    at_end = k == plan.K and (movers is None or ply == len(movers))
    if movers is not None and not at_end and movers[ply] != opp:
        return None
    options = []
    if at_end and plan.target_mover != plan.seat:
        options.append(None)  # stop here: the opponent is about to move
    if not (movers is not None and at_end):
        must_collide = must_place = False
        if movers is not None and not w.setup.abrupt:
            # Classical rule: the opponent moves again only after a collision.
            nxt = movers[ply + 1] if ply + 1 < len(movers) else plan.target_mover
            if nxt is not None:
                again = nxt == opp
                must_collide, must_place = again, not again
        mine = plan.seat + 1
        for c in w.legal[opp]:
            if w.board[c] == mine:
                if not must_place:
                    options.append(c)
            elif not must_collide and plan.last_empty[c] < k:
                options.append(c)
    rng.shuffle(options)
    for cell in options:
        if cell is None:
            if w.setup.sense and rng.random() < 0.5:
                w = w.copy()
                w.sense(rng.randrange(len(w.setup.anchors)))  # opponent already sensed
            return w
        child = w.copy()
        if child.setup.sense:
            child.sense(rng.randrange(len(child.setup.anchors)))
            if not child.is_legal(cell):
                continue  # that sense proved the cell for the opponent
        child.attempt(cell)
        if not plan.feasible(child, k):
            continue
        found = _search(plan, child, k, rng, budget)
        if found is not None:
            return found
    return None
