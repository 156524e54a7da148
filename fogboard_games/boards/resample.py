"""Worlds consistent with one seat's information state (docs/boards.md#resampling).

`resample(match, player, rng)` returns the actions of a history the seat
cannot tell from the true one, every such history with positive
probability. It fixes the seat's own plies and draws where and when the
opponent placed stones by a randomized depth-first search over placement
slots, latest first, that keeps a pick only while the earlier slots can
still be scheduled in their windows and the opponent can still have
avoided a win (docs/boards.md#how-a-world-is-drawn says how and why).
"""

from __future__ import annotations

import heapq
import random
from typing import NamedTuple

from fogboard_games.boards import rules

NEVER = 10**9  # the window end of a cell the seat never saw holding an opponent stone
FREE = -1  # a turn's collision count under reveal-nothing: any number


class Turn(NamedTuple):
    """One opponent turn (classical rule) or ply (abrupt rule) at `time`.

    `kind`: PLACE (ends with a placement), EITHER (abrupt: one ply, a
    placement or a collision) or NONE (a turn under way, no placement yet).
    `collisions`: how many collisions come first (FREE: any number)."""

    time: int
    kind: int
    collisions: int


PLACE, EITHER, NONE = 0, 1, 2


class _Record:
    """What the seat's own record fixes about the opponent's plies."""

    def __init__(self, m: rules.Match, seat: int):
        geo = m.setup
        self.geo = geo
        self.seat = seat
        self.opp = 1 - seat
        self.mine = [p for p in m.plies if p.seat == seat]
        self.pending = m.sensed if (m.sensed is not None and m.mover == seat) else None
        # Whose move it is: the seat knows it when it is its own (it is asked
        # to act); otherwise it cannot tell (the opponent may be to move, or
        # the seat itself after an opponent ply it did not see), so worlds of
        # either kind are drawn.
        self.to_move = m.mover == seat
        self.movers = [p.seat for p in m.plies] if geo.numturns else None
        K = self.K = len(self.mine)
        cells = geo.cells
        # Windows: an opponent stone on c was placed at a time t with
        # lo[c] < t <= hi[c]; own_at[c] is the seat's ply that took c.
        lo = [-1] * cells
        hi = [NEVER] * cells
        own_at = [None] * cells
        records = [(p.anchor, p.seen, p.cell, p.result) for p in self.mine]
        if self.pending is not None:
            records.append((self.pending.anchor, self.pending.seen, None, None))
        for k, (anchor, seen, cell, result) in enumerate(records):
            if anchor >= 0:
                for c, code in zip(geo.blocks[anchor], seen):
                    if code == rules.PROVEN:
                        hi[c] = min(hi[c], k)
                    elif code == rules.UNKNOWN:
                        lo[c] = max(lo[c], k)
            if cell is None:
                continue
            if result == rules.OCCUPIED:
                hi[cell] = min(hi[cell], k)
            else:
                lo[cell] = max(lo[cell], k)
                own_at[cell] = k
        self.lo, self.hi, self.own_at = lo, hi, own_at
        self.required = sorted((c for c in range(cells) if hi[c] < NEVER), key=lambda c: lo[c])
        self.is_required = [h < NEVER for h in hi]
        self.free_cells = [c for c in range(cells) if own_at[c] is None and hi[c] == NEVER]
        self.stones = [c for c in range(cells) if own_at[c] is not None]
        # present[t]: seat stones on the board at time t.
        self.present = [sum(1 for c in self.stones if own_at[c] < t) for t in range(K + 2)]

    # ---- the slots ------------------------------------------------------------

    def shapes(self) -> list[tuple[int, list[Turn]]]:
        """The opponent's turns, in every shape the seat cannot tell apart,
        each with a weight: the shape whose last ply the seat is not sure
        of counts the ways of making that ply, the shape without it 1, so
        that each shape is drawn about as often as it has worlds."""
        K, seat = self.K, self.seat
        # Ways of an opponent ply at time K: a placement, or a collision.
        places = sum(
            1
            for c in range(self.geo.cells)
            if self.own_at[c] is None and self.lo[c] < K <= self.hi[c]
        )
        hits = self.present[K]
        if self.movers is not None:
            return self._shapes_from_movers(places, hits)
        if self.geo.abrupt:
            # Strict alternation: one opponent ply before each of the seat's
            # plies when the opponent opens, after each one otherwise.
            turns = [Turn(t, EITHER, 0) for t in range(1 - seat, K)]
            if self.to_move:
                return [(1, turns + [Turn(K, EITHER, 0)] if K >= 1 - seat else turns)]
            return [(1, turns), (places + hits, turns + [Turn(K, EITHER, 0)])]
        # Classical rule: an opponent turn before each of the seat's turns (a
        # turn ends with a placement), the first one only if the opponent opens.
        times = ([0] if seat == 1 else []) + [
            k + 1 for k, p in enumerate(self.mine) if p.result == rules.PLACED
        ]
        turns = [Turn(t, PLACE, FREE) for t in times if t < K]
        if times and times[-1] == K:
            if self.to_move:
                return [(1, turns + [Turn(K, PLACE, FREE)])]
            return [(places, turns + [Turn(K, PLACE, FREE)]), (1, turns + [Turn(K, NONE, FREE)])]
        return [(1, turns)]

    def _shapes_from_movers(self, places: int, hits: int):
        """reveal-numturns: every ply's mover is known, so every run of
        opponent plies; only the last ply of a final run may be a placement
        or a collision when the seat is not to move (classical rule)."""
        movers, opp = self.movers, self.opp
        turns, t, i = [], 0, 0
        while i < len(movers):
            if movers[i] != opp:
                t += 1
                i += 1
                continue
            j = i
            while j < len(movers) and movers[j] == opp:
                j += 1
            if self.geo.abrupt:
                turns += [Turn(t, EITHER, 0)] * (j - i)
            elif j < len(movers) or self.to_move:
                turns.append(Turn(t, PLACE, j - i - 1))
            else:
                return [
                    (places, turns + [Turn(t, PLACE, j - i - 1)]),
                    (max(1, hits - (j - i - 1)), turns + [Turn(t, NONE, j - i)]),
                ]
            i = j
        return [(1, turns)]


def resample(m: rules.Match, player: int, rng: random.Random) -> list[int]:
    """The actions of a history `player` cannot tell from `m`'s (see module doc)."""
    if m.setup.imperfect_recall:
        # The view alone does not fix the seat's own past, and drawing from the
        # past it played would hand a search the memory its view forgets
        # (docs/boards.md#imperfect-recall): refused until the view's every world is drawn.
        raise ValueError(
            "resample_from_infostate is not available under imperfect_recall=true: the "
            "seat's view does not fix its own past, and drawing the past it played would "
            "use what the view forgets; play the perfect-recall game to resample"
        )
    if not m.plies and m.mover == player:
        # The first mover before its first ply: nothing has happened that it
        # did not do (at most its sense), so that is the only world. (A search
        # opening the game, IS-MCTS's first move, asks for this every time.)
        return [] if m.sensed is None else [m.setup.cells + m.sensed[0]]
    rec = _Record(m, player)
    shapes = rec.shapes()
    if len(shapes) == 2 and rng.random() * (shapes[0][0] + shapes[1][0]) >= shapes[0][0]:
        shapes.reverse()
    for _weight, turns in shapes:
        found = _Draw(rec, turns, rng).search()
        if found is not None:
            return found
    raise RuntimeError("resample_from_infostate found no consistent world")


class _Draw:
    """One search for a world with a given shape of opponent turns."""

    def __init__(self, rec: _Record, turns: list[Turn], rng: random.Random):
        self.rec = rec
        self.turns = turns
        self.rng = rng
        self.slots = [(tn.time, tn.kind == EITHER) for tn in turns if tn.kind != NONE]
        cells = rec.geo.cells
        self.taken = [False] * cells  # cells the opponent places a stone on
        self.hit = [False] * cells  # seat stones the opponent collides with
        self.picks = [None] * len(self.slots)  # per slot: (sense anchor or -1, cell)

    def search(self):
        """The actions of a world of this shape, or None if it has none."""
        rec = self.rec
        plies = rec.K + len(self.slots)
        plies += sum(tn.collisions for tn in self.turns if tn.collisions != FREE)
        if plies >= rec.geo.max_plies:
            return None  # the game would have ended at the ply cap
        n = len(self.slots)
        if not (self._can_fill(n) and self._pick(n - 1)):
            return None
        return _assemble(rec, self._opponent_plies(), self.rng)

    # ---- the search -----------------------------------------------------------

    def _pick(self, i: int) -> bool:
        """Pick slots i, i-1, ..., 0 (the later ones are picked)."""
        if i < 0:
            return True
        rec, taken, hit = self.rec, self.taken, self.hit
        lo, hi, own_at = rec.lo, rec.hi, rec.own_at
        t, either = self.slots[i]
        options = [
            c
            for c in range(rec.geo.cells)
            if not taken[c] and own_at[c] is None and lo[c] < t <= hi[c]
        ]
        if either:
            options += [s for s in rec.stones if own_at[s] < t and not hit[s]]
        randrange = self.rng.randrange
        while options:
            # Options in random order, drawn one at a time: the first almost
            # always completes, so shuffling them all would waste the draws.
            k = randrange(len(options))
            c = options[k]
            options[k] = options[-1]
            options.pop()
            mark = taken if own_at[c] is None else hit
            mark[c] = True
            anchor = self._sense(t) if rec.geo.sense else -1
            if anchor is not None and self._can_fill(i) and self._pick(i - 1):
                self.picks[i] = (anchor, c)
                return True
            mark[c] = False
        return False

    def _sense(self, t: int):
        """A random sense for an opponent ply at time t that shows none of the
        seat stones it collides with then or later; None if every one does.
        (Senses show the opponent only seat stones, and matter only by
        hiding the stones it collides with, so once those are known any such
        sense will do.)"""
        geo, own_at, hit = self.rec.geo, self.rec.own_at, self.hit
        blocked = {c for c in self.rec.stones if hit[c] and own_at[c] < t}
        ok = [a for a, block in enumerate(geo.blocks) if blocked.isdisjoint(block)]
        return self.rng.choice(ok) if ok else None

    def _can_fill(self, i: int) -> bool:
        """Can slots[:i] still be picked, given the picks of the later ones?"""
        need = self._rest(i)
        return need is not None and self._no_win(self.slots[i - 1][0] if i else -1, need)

    def _rest(self, i: int):
        """The schedule check: can slots[:i] be filled, every required cell
        within its window? Returns the fewest free (not required) cells they
        must take, or None.

        Greedy in time order: a required cell whose window is open, earliest
        deadline first; else a collision if the slot allows one and a seat
        stone is left for it; else a free cell. Free cells and seat stones,
        once available, stay so, which makes the greedy exact (an exchange
        argument): it fills the slots whenever any schedule does, and with
        the most collisions."""
        rec, taken, hit = self.rec, self.taken, self.hit
        lo, hi = rec.lo, rec.hi
        # free_by[t], stones_by[t]: free cells and seat stones an opponent ply
        # at time t may take (a cell seen empty at the seat's ply k is free
        # from time k + 1 on; a stone placed at ply k is there from k + 1 on).
        free_by = [0] * (rec.K + 2)
        for c in rec.free_cells:
            if not taken[c]:
                free_by[lo[c] + 1] += 1
        stones_by = [0] * (rec.K + 2)
        for c in rec.stones:
            if not hit[c]:
                stones_by[rec.own_at[c] + 1] += 1
        for t in range(1, rec.K + 2):
            free_by[t] += free_by[t - 1]
            stones_by[t] += stones_by[t - 1]
        waiting = [c for c in rec.required if not taken[c]]  # by window start
        open_ = []
        r = free = collided = 0
        for t, either in self.slots[:i]:
            while r < len(waiting) and lo[waiting[r]] < t:
                heapq.heappush(open_, hi[waiting[r]])
                r += 1
            if open_:
                if open_[0] < t:
                    return None  # a required stone came too late
                heapq.heappop(open_)
            elif either and stones_by[t] > collided:
                collided += 1
            elif free_by[t] > free:
                free += 1
            else:
                return None
        if open_ or r < len(waiting):
            return None
        return free

    def _no_win(self, last_time: int, free_needed: int) -> bool:
        """The no-win check: can the opponent take `free_needed` more free
        cells (placeable by `last_time`) besides its taken and required ones
        without having won or (tic-tac-toe) filled the board?"""
        rec, taken = self.rec, self.taken
        geo, lo, own_at, required = rec.geo, rec.lo, rec.own_at, rec.is_required
        if geo.is_ttt:
            held = [taken[c] or required[c] for c in range(geo.cells)]
            if any(all(held[c] for c in line) for line in geo.lines):
                return False
            return len(rec.stones) + sum(held) + free_needed < geo.cells
        # Hex: the opponent has not connected iff the cells it does not hold
        # join the seat's edges: a route through cells that cost 1 (free
        # cells the opponent may still take) or 0 (seat stones and cells it
        # cannot take), leaving enough of the free ones for the opponent.
        bits = geo.bits
        costly = cheap = 0
        free = 0
        for c in range(geo.cells):
            if taken[c] or required[c]:
                continue
            if own_at[c] is None and lo[c] < last_time:
                costly |= bits[c]
                free += 1
            else:
                cheap |= bits[c]
        if free < free_needed:
            return False
        return free - rules.dist_bits(geo, rec.seat, cheap, costly) >= free_needed

    # ---- the rest of the opponent's plies --------------------------------------

    def _opponent_plies(self) -> list:
        """Every opponent ply in order, as (time, sense anchor or -1, cell):
        the slots' picks, after the collisions that open a classical turn
        (each with a seat stone on the board it has not hit yet: any will do,
        since the stones on the board only grow). Under reveal-nothing a
        turn's number of collisions is drawn: each next attempt is a
        collision as often as it would be if the opponent tried any cell
        the seat's record allows it, alike."""
        rec, rng, hit = self.rec, self.rng, self.hit
        lo, hi, own_at = rec.lo, rec.hi, rec.own_at
        plies = []
        picks = iter(self.picks)
        taken = [False] * rec.geo.cells
        spare = rec.geo.max_plies - 1 - rec.K - len(self.slots)  # plies left below the cap
        spare -= sum(tn.collisions for tn in self.turns if tn.collisions != FREE)
        for t, kind, collisions in self.turns:
            free = [s for s in rec.stones if own_at[s] < t and not hit[s]] if collisions else []
            rng.shuffle(free)
            if collisions == FREE:
                places = sum(
                    1
                    for c in range(rec.geo.cells)
                    if not taken[c] and own_at[c] is None and lo[c] < t <= hi[c]
                )
                collisions = 0
                while spare > 0 and collisions < len(free):
                    left = len(free) - collisions
                    if rng.random() * (left + places) >= left:
                        break
                    collisions += 1
                    spare -= 1
            for s in free[:collisions]:
                hit[s] = True
                plies.append((t, -1, s))
            if kind != NONE:
                anchor, c = next(picks)
                plies.append((t, anchor, c))
                taken[c] = True
        return plies


def _assemble(rec: _Record, opp_plies: list, rng: random.Random) -> list[int]:
    """The actions: the opponent's plies interleaved with the seat's, then
    what the ply under way holds: the seat's sense if it is the seat's move
    and it has sensed, or, if it is the opponent's move in recon hex, no
    sense or any one, alike. (The search made every check; the glue's
    resample_from_infostate checks the world's information state again.)"""
    geo, own_at = rec.geo, rec.own_at
    actions = []
    last = None  # (seat, result) of the last ply
    j = 0
    for k in range(rec.K + 1):
        while j < len(opp_plies) and opp_plies[j][0] == k:
            _t, anchor, cell = opp_plies[j]
            if anchor >= 0:
                actions.append(geo.cells + anchor)
            actions.append(cell)
            last = (rec.opp, rules.PLACED if own_at[cell] is None else rules.OCCUPIED)
            j += 1
        if k < rec.K:
            ply = rec.mine[k]
            if ply.anchor >= 0:
                actions.append(geo.cells + ply.anchor)
            actions.append(ply.cell)
            last = (rec.seat, ply.result)
    # A placement passes the turn; a collision too under the abrupt rule.
    if last is None:
        mover = 0
    elif last[1] == rules.OCCUPIED and not geo.abrupt:
        mover = last[0]
    else:
        mover = 1 - last[0]
    if mover == rec.seat:
        if rec.pending is not None:
            actions.append(geo.cells + rec.pending.anchor)
    elif geo.sense:
        anchor = rng.randrange(len(geo.anchors) + 1) - 1
        if anchor >= 0:
            actions.append(geo.cells + anchor)
    return actions
