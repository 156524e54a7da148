"""Mind Bluff's batched heuristic (docs/batch.md#batched-bots): the scalar
`heuristic` bot of mind_bluff/bots.py as a table of its decisions, keyed by
a summary of the seat's view decoded from the mover's information-state
tensor (fair seats: docs/bots.md#fair-seats; the table's mechanism is
fogboard_games/batch/bots.py's)."""

from __future__ import annotations

import enum
import math

import numpy as np

from fogboard_games.batch.bots import BatchBot, Table, Ties
from fogboard_games.batch.env import Env
from fogboard_games.core import registry
from fogboard_games.core.observer import INFO_STATE
from fogboard_games.mind_bluff import bots as mb_bots
from fogboard_games.mind_bluff import rules as mb_rules

# The parts of a key, columns of `_summary`'s array (the class docstring says what
# they are; BLUFFED_c = FULL + c; ONLY, a forced-honest claim, is set by `_choose`).
Part = enum.IntEnum(
    "Part", "GAME PHASE FIXED FULL BLUFFED_1 BLUFFED_2 BLUFFED_3 CLAIM FORCED OWN ONLY", start=0
)


class MindBluffBatchBot(BatchBot):
    """The Mind Bluff (and series) heuristic: a table of its decisions,
    keyed by a summary of the seat's view that its decisions depend on.

    The scalar bot weighs the worlds of the eats it cannot rule out, turn by
    turn (`SeatView.cands`); the weights depend only on their total, so on
    the multiset of the turns' candidate sets: the sum of the eats it knows
    (its own, forced-honest or TRUE claims), the number of turns it knows
    nothing of, and per claim c the number shown BLUFF (anything but c). A
    response also reads the turn under way apart (its claim, and whether it
    was forced), and a claim only the seat's own eat. The key is that
    summary, with the series' game under way, decoded from the mover's
    information-state tensor; a new key is filled by the scalar bot's
    `choose_eat` / `choose_response` on a view with the same candidate
    multiset. A free claim bluffs as the scalar bot does: with chance
    BLUFF_RATE (max_eat > 1), uniformly among the other eats, drawn from
    this bot's Generator.
    """

    kind = "heuristic"

    def __init__(self, env: Env, seed=None):
        super().__init__(env, seed)
        game = env.game
        setup = game.setup
        series = hasattr(setup, "games")
        self.games = setup.games if series else (setup,)
        outer = game.encoder.layout(INFO_STATE)
        self.at_game = outer.offset["game"] if series else None
        # Per game: its Setup, its turns, and the columns [lo, hi) of the
        # tensor that hold the pieces read, with their offsets from lo.
        self.blocks = []
        for g, s in enumerate(self.games):
            inner = setup.encoder.inner[g].layout(INFO_STATE) if series else outer
            base = outer.offset[f"game{g + 1}"] if series else 0
            turns = inner.shape["claims"][0]
            at = {name: base + inner.offset[name] for name in mb_bots.READ}
            lo = min(at.values())
            hi = max(at[n] + math.prod(inner.shape[n]) for n in mb_bots.READ)
            self.blocks.append((s, turns, {n: a - lo for n, a in at.items()}, lo, hi))
        # The most eats a turn may make, whatever the game: the widest key's radix.
        self.M = registry.param_spec(game.get_type().short_name).params["max_eat"].high
        self.scalar = mb_bots.MindBluffHeuristic(game, 0)  # its decision code, not its state
        T = max(block[1] for block in self.blocks)
        radix = [len(self.games), 4, T * self.M + 1, T + 1, T + 1, T + 1, T + 1]
        radix += [self.M + 1, 2, self.M + 1, 2]  # (in the order of Part)
        self.place = np.cumprod([1] + radix[:-1]).astype(np.int64)  # (keys < 3e14 at start 196)
        self.table = Table()

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        parts = self._decode(self._by_mover(state, "information_state"))
        mask = state.legal_action_mask
        parts[:, Part.ONLY] = mask.sum(axis=1) == 1  # a forced-honest claim

        def decide(new, rows):
            return self._decisions(parts[rows], mask[rows])

        acts, at = self.table.actions(parts @ self.place, running, decide, self.rng)
        self._bluff(acts, (self.table.flag[np.maximum(at, 0)] & running).nonzero()[0], parts)
        return acts

    def _bluff(self, acts, rows, parts) -> None:
        """A free claim: with chance BLUFF_RATE, another eat than its own."""
        rows = rows[self.rng.random(len(rows)) < mb_bots.BLUFF_RATE]
        m = np.array([s.max_eat for s in self.games])[parts[rows, Part.GAME]]
        actual = parts[rows, Part.OWN]
        j = (self.rng.random(len(rows)) * (m - 1)).astype(np.int64) + 1  # 1..m-1
        other = j + (j >= actual)  # the j-th of the eats but `actual`
        acts[rows] = m + other

    def _decode(self, x: np.ndarray) -> np.ndarray:
        """(B, len(Part)) int64: the key's parts of the movers' information-state
        tensors."""
        parts = np.zeros((len(x), len(Part)), np.int64)
        game = np.zeros(len(x), np.int64)  # (a single game: game 0)
        if self.at_game is not None:
            game = x[:, self.at_game : self.at_game + len(self.games)].argmax(axis=1)
        for g, (s, T, at, lo, hi) in enumerate(self.blocks):
            mine = (game == g).nonzero()[0]
            if len(mine):
                # (a view when every row is read, else only the columns read are copied)
                block = x[:, lo:hi] if len(mine) == len(x) else x[mine, lo:hi]
                parts[mine] = self._summary(block, s, T, at)
                parts[mine, Part.GAME] = g
        return parts

    def _summary(self, x, s, T, at) -> np.ndarray:
        """`mind_bluff.bots.seat_view`'s candidate sets, summed up, for rows of
        one game's pieces (docs/mind_bluff.md#tensor-pieces)."""
        R, m = len(x), s.max_eat
        out = np.zeros((R, len(Part)), np.int64)

        def piece(name, *shape):
            return x[:, at[name] : at[name] + int(np.prod(shape))].reshape(R, *shape) > 0

        phase = piece("phase", 4).argmax(axis=1)  # eat, claim, respond, over
        claims = piece("claims", T, m)
        said = claims.any(axis=2)
        claim = claims.argmax(axis=2) + 1
        eats = piece("eats", T, m)
        own = eats.any(axis=2)
        eat = eats.argmax(axis=2) + 1
        verdicts = piece("verdicts", T, 2)
        forced = piece("forced", T)
        fixed = forced | verdicts[:, :, 0]
        n_claims = said.sum(axis=1)
        turns = n_claims + (phase == mb_rules.CLAIM)
        t = np.arange(T)
        live = t < turns[:, None]
        under_way = (t == n_claims[:, None]) & ~own  # (another seat's turn before its claim)
        fixed &= ~own & ~under_way
        bluffed = verdicts[:, :, 1] & ~own & ~under_way & ~fixed
        full = live & ~own & ~fixed & ~bluffed
        known = np.where(own, eat, np.where(fixed, claim, 0))
        responding = phase == mb_rules.RESPOND
        # A response reads the turn under way (the last) apart from the others.
        last = np.maximum(turns - 1, 0)
        r = np.arange(R)
        before = live & ~(responding[:, None] & (t == last[:, None]))
        out[:, Part.FIXED] = (known * before).sum(axis=1)
        out[:, Part.FULL] = (full & before).sum(axis=1)
        for c in range(1, m + 1):
            out[:, Part.FULL + c] = (bluffed & before & (claim == c)).sum(axis=1)
        out[:, Part.CLAIM] = np.where(responding, claim[r, last], 0)
        out[:, Part.FORCED] = responding & forced[r, last]
        claiming = phase == mb_rules.CLAIM
        out[:, Part.OWN] = np.where(claiming, eat[r, last], 0)
        out[:, Part.PHASE] = phase
        # A claim reads only its own eat; an eat only the candidate sets.
        out[claiming, Part.FIXED : Part.CLAIM] = 0
        return out

    def _decisions(self, parts, legal):
        """The scalar bot's decision for each new key (its parts, the mask of a
        row that has it): (actions, tied sets, bluffing flags)."""
        value = np.zeros(len(parts), np.int64)
        flag = np.zeros(len(parts), bool)
        sets = []
        for i, p in enumerate(parts.tolist()):
            s = self.games[p[Part.GAME]]
            m = s.max_eat
            phase = p[Part.PHASE]
            if phase == mb_rules.CLAIM:
                if p[Part.ONLY]:  # forced honest: its one legal action
                    value[i] = int(np.flatnonzero(legal[i])[0])
                else:
                    value[i], flag[i] = m + p[Part.OWN], m > 1
                continue
            cands = [(p[Part.FIXED],)] if p[Part.FIXED] else []
            cands += [s.eats] * p[Part.FULL]
            for c in range(1, m + 1):
                cands += [tuple(k for k in s.eats if k != c)] * p[Part.FULL + c]
            if phase == mb_rules.RESPOND:
                # The turn under way has no verdict yet: its claim if forced honest.
                cands.append((p[Part.CLAIM],) if p[Part.FORCED] else s.eats)
                view = mb_bots.SeatView(
                    s, 0, phase, tuple(cands), p[Part.CLAIM], bool(p[Part.FORCED])
                )
                value[i] = self.scalar.choose_response(view)
                continue
            view = mb_bots.SeatView(s, 0, phase, tuple(cands), None, None)
            ties = Ties()
            value[i] = self.scalar.choose_eat(view, ties)
            if ties.tied is not None and len(ties.tied) > 1:
                value[i] = -1 - len(sets)
                sets.append([k - 1 for k in ties.tied])
        return value, sets, flag
