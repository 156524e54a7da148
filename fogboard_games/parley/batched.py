"""Batched Parley: every parameter value of `fogboard_parley` (docs/batch.md).

The rules of fogboard_games/parley/rules.py (docs/parley.md#rules), applied
to every row at once; a loop runs over cogs (at most 8) only where tables
are built. Chance (the deals, the wake, a hip-shot's hit or miss) is drawn
from the environment's Generator with the pyspiel odds when it comes up and
logged after the decision that brought it, as pyspiel's chance outcomes, so
a row's history replays in pyspiel. A round's points are paid as the step's
rewards by the move that ends the round, as pyspiel's `rewards()` show
them at the next decision.

The legal sets and the reactors after an act are read from tables keyed by
the living cogs. Tensors are made at the first read: until then a step
writes nothing for them; the first read replays every row's history with
tensor writes on (chance read back from the history), and from then on each
step writes its few entries into one uint8 `Store` of every seat's tensor
(batch/observations.py; store row b * n + c is cog c of row b): into a
seat's row its private pieces (`player`, `cards`, `shots`, the first of the
layout), into every seat's row the public record (the `turn_*` pieces and
`points`, through `Store.public`); the status pieces (`round` to `misses`)
are made from the rows' state at each read, into the rows read (the
movers', or one seat's), and logged as one block of columns with its values.
Everything after the private pieces is the same in every seat's row of a
game (but the status, rewritten at each read), so a mirror whose row's
mover changed copies only the new mover's private pieces (the store's
`private` columns), up to the turn under way (its `reach`).
`State.observation` is the store's read-only mirror
(docs/batch.md#observations). The observation form (the seat's view
now) has a store of its own, made at its first read the same way: a step
writes into a seat's row its cards of this round and its shot in the
latest turn (the cards and shot they replace set back to 0), and keeps the
latest turn's public block per row; a read writes that block, the totals
and the status into the rows it reads, as one block of columns.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import Store
from fogboard_games.parley import rules
from fogboard_games.parley.observer import SHOWN_PHASE

BYTE_BITS = (1 << np.arange(8, dtype=np.uint8))[:, None]  # bit i of a byte, per row
# Phases as the tensors' `phase` piece numbers them; a batch row is never at a
# chance node (a deal, a wake, a hip-shot waiting), so only these four occur.
LINE, ACT, REACT, OVER = (SHOWN_PHASE[p] for p in (rules.LINE, rules.ACT, rules.REACT, rules.OVER))
# Private columns (a seat's cards and shots) past which a seat change copies only
# up to the turn under way (Store's reach).
WIDE = 256


class Parley(Env):
    """A batch of one fogboard_parley game."""

    TABLES = ("legal_flat", "legal_by_action", "legal_bytes", "reactors")

    def _configure(self, game) -> None:
        s = self.setup = game.setup
        n = self.n = s.players
        self.num_players = n
        self.num_actions = s.num_actions
        self.rounds, self.hp0, self.passes = s.rounds, s.hp, s.passes
        self.survivors, self.talk, self.hip_limit = s.survivors, s.talk, s.hip_limit
        self.X = s.max_reactions  # 0 without talk
        E = self.E = s.max_turns
        # Chance: per round n deals and a wake, and at most one result per turn.
        self.max_history = s.rounds * (n + 1 + E) + s.max_game_length
        layout = game.info_layout
        self.tensor_size = layout.size

    def _build(self) -> None:
        game = self.game
        s, n, A, X = self.setup, self.n, self.num_actions, self.X
        layout = self.game.info_layout
        D = self.tensor_size
        B = self.batch_size
        self.start_block = None  # (a row starts with chance's IT: see _restarted_mask)
        full = 1 << n
        self.all_alive = full - 1
        self.bit = 1 << np.arange(n, dtype=np.int64)
        self.popcount = np.array([bin(m).count("1") for m in range(full)], np.int64)
        self.hip_base, self.pass_action = s.hip, s.pass_action

        # legal[key]: key = others + (kind << n), others the living cogs but the
        # mover; kind 0 a line, 1 + hip_ok + 2 pass_ok an act; the last key (all
        # False) a finished row's. One extra column: any action out of range.
        self.finished_key = 5 << n
        legal = np.zeros((self.finished_key + 1, A + 1), bool)
        for others in range(full):
            cogs = [j for j in range(n) if others >> j & 1]
            legal[others, [0] + [s.accuse + j for j in cogs] + [s.vouch + j for j in cogs]] = True
            for hip_ok in (0, 1):
                for pass_ok in (0, 1):
                    row = legal[others + ((1 + hip_ok + 2 * pass_ok) << n)]
                    row[[s.head + j for j in cogs]] = True
                    if hip_ok:
                        row[[s.hip + j for j in cogs]] = True
                    row[s.pass_action] = bool(pass_ok)
        self.legal_flat = legal.reshape(-1)
        self.legal_by_action = np.ascontiguousarray(legal[:, :A].T)  # (A, keys)
        # The same, 8 actions a byte: a mask is made a byte at a time (Boards._legal_mask).
        self.legal_bytes = np.packbits(legal[:, :A], axis=1, bitorder="little")

        self._reactor_tables(n, X, full)

        # A round's chance: a pick in 0..pairs-1 per cog, then one in 0..n-1 (the
        # wake), drawn in one call and mapped to pyspiel's outcome ids by one lookup.
        deals = np.array(s.deal_options, np.int64)  # (n, pairs): cog c's deal outcomes
        pairs = deals.shape[1]
        self.round_outcomes = np.concatenate([deals.reshape(-1), s.it_base + np.arange(n)])
        self.round_highs = np.array([pairs] * n + [n], np.int64)
        self.round_at = np.arange(n + 1) * pairs  # each draw's place in round_outcomes

        # The rows' state.
        self.mover = np.zeros(B, np.int64)
        self.phase = np.zeros(B, np.int64)
        self.round = np.zeros(B, np.int64)
        self.it = np.zeros(B, np.int64)
        self.turn = np.zeros(B, np.int64)  # index of the turn under way in its round
        self.living = np.zeros(B, np.int64)  # bitmask
        self.hp = np.zeros((B, n), np.int64)
        self.passes_used = np.zeros((B, n), np.int64)
        self.misses = np.zeros(B, np.int64)
        self.enemy_kills = np.zeros((B, n), np.int64)
        self.friend = np.zeros((B, n), np.int64)
        self.enemy = np.zeros((B, n), np.int64)
        self.totals = np.zeros((B, n), np.int64)
        self.react_key = np.zeros(B, np.int64)  # the reactor table's key of the reactions
        self.react_i = np.zeros(B, np.int64)  # the reaction under way
        self.keys = np.zeros(B, np.int64)  # the legal table's key of each row, as of now

        # Tensors: offsets of the pieces, and their stores (see the module's note).
        off = layout.offset
        self.o_cards, self.o_shots = off["cards"], off["shots"]
        self.Dp = Dp = off["turn_it"]  # the private pieces come first
        self.o_status = off["round"]
        self.o_it = off["turn_it"] - Dp
        self.o_line = off["turn_line"] - Dp if s.talk else None
        self.o_target, self.o_pass = off["turn_target"] - Dp, off["turn_pass"] - Dp
        self.o_result, self.o_points = off["turn_result"] - Dp, off["points"] - Dp
        self.o_react = off["turn_reactions"] - Dp if X else None
        self.line_width = 1 + 2 * n
        self.reaction_width = n + self.line_width
        st = self.o_status
        self.s_round, self.s_mover = off["round"] - st, off["mover"] - st
        self.s_phase, self.s_it = off["phase"] - st, off["it"] - st
        self.s_hp, self.s_passes = off["hp"] - st, off["passes_left"] - st
        self.s_misses = off["misses"] - st
        self.status_size = S = D - st
        # Each status entry's flat index in a (B, S + 1) block, less the row's value.
        cogs = np.arange(n)
        base = [self.s_round, self.s_mover, self.s_phase, self.s_it, self.s_misses]
        base = np.concatenate(
            [base, self.s_hp + cogs * (self.hp0 + 1), self.s_passes + cogs * (self.passes + 1)]
        )
        base[5 + n :] += self.passes
        # (int32 where every index fits: the buffer is kept, a few bytes a row)
        index = np.int32 if B * (S + 1) < 2**31 else np.int64
        self.status_base = base.astype(index)
        self.status_rows = (np.arange(B) * (S + 1)).astype(index)[:, None]
        self.status_at = np.empty((B, 5 + 2 * n), index)
        self.tracking = False
        self.row_of = (np.arange(B * n) // n).astype(np.int32)  # store row b * n + c: row b
        self.info = self.tensors = None  # the Store and its (B, n, D) view, once tracking
        self.blank = np.zeros((n, D), np.uint8)
        self.blank[np.arange(n), np.arange(n)] = 1  # `player`: whose view it is

        # The observation (the seat's view now): private `player`, `cards_now`,
        # `shot_now`, then the latest turn's public block (kept per row in
        # `last`), the totals and the status, made at each read as the status is.
        obs = game.obs_layout.offset
        self.obs_size = game.obs_layout.size
        self.v_cards, self.v_shot = obs["cards_now"], obs["shot_now"]
        self.v_public = obs["last_it"]
        self.v_line = obs["last_line"] - self.v_public if s.talk else None
        self.v_target = obs["last_target"] - self.v_public
        self.v_pass = obs["last_pass"] - self.v_public
        self.v_result = obs["last_result"] - self.v_public
        self.v_react = obs["last_reactions"] - self.v_public if X else None
        self.v_last = obs["totals"] - self.v_public  # the latest turn's block
        self.obs = self.last = None  # the Store and the (B, v_last) block, once read
        self.obs_blank = np.zeros((n, self.obs_size), np.uint8)
        self.obs_blank[np.arange(n), np.arange(n)] = 1

        self._read_at = None  # during the replay: each row's next history entry

    def _reactor_tables(self, n: int, X: int, full: int) -> None:
        """Reactors after an act: key (actor * n + next IT) << n | living -> the
        speakers in order (seat order from the one after the actor, living, not
        the next IT, at most X: `reactors[key * W + x]`, W = min(X, n)) and
        their count."""
        if not X:
            return
        W = self.react_stride = min(X, n)
        key = np.arange(n * n * full)
        living = key & (full - 1)
        nxt = (key >> n) % n
        actor = (key >> n) // n
        c = (actor[:, None] + np.arange(1, n + 1)) % n  # seat order after the actor
        speaks = ((living[:, None] >> c) & 1).astype(bool) & (c != nxt[:, None])
        order = np.argsort(~speaks, axis=1, kind="stable")
        self.reactors = np.ascontiguousarray(np.take_along_axis(c, order, 1)[:, :W]).reshape(-1)
        self.reactor_count = np.minimum(speaks.sum(1), X)

    # ---- the interface ----------------------------------------------------------

    # ---- chance ---------------------------------------------------------------------

    def _chance(self, rows: np.ndarray, k: int, draw) -> np.ndarray:
        """Chance outcomes (rows, k) for the rows: drawn by `draw(len(rows))` and
        kept to be logged after the step's action, or, during the replay, read
        back from the history."""
        if self._read_at is not None:
            at = self._read_at[rows]
            outcomes = self.history.reshape(-1)[at[:, None] + np.arange(k)].astype(np.int64)
            self._read_at[rows] = at + k
            return outcomes
        outcomes = draw(len(rows))
        self._log_later(rows, outcomes)  # (in the order drawn: a result before a deal)
        return outcomes

    def _draw_round(self, m: int) -> np.ndarray:
        """Every cog's deal (an ordered pair, uniform), then the wake (uniform)."""
        picks = self.rng.integers(0, self.round_highs, size=(m, self.n + 1))
        return self.round_outcomes.take(picks + self.round_at)

    def _draw_results(self, m: int) -> np.ndarray:
        """A hip-shot's result: hit 1/3, miss 2/3."""
        hit = self.rng.integers(0, 3, size=(m, 1)) == 0
        return np.where(hit, self.setup.hit, self.setup.miss)

    # ---- restart ----------------------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        self._begin(rows)

    def _begin(self, rows: np.ndarray) -> None:
        self.round[rows] = 0
        self.totals[rows] = 0
        if self.tracking:
            self.tensors[rows] = self.blank
            self.info.restart(rows)
        if self.obs is not None:
            self.views[rows] = self.obs_blank
            self.obs.restart(rows)
        self._start_round(rows)

    def _start_round(self, rows: np.ndarray) -> None:
        n = self.n
        self.hp[rows] = self.hp0
        self.passes_used[rows] = 0
        self.misses[rows] = 0
        self.enemy_kills[rows] = 0
        self.living[rows] = self.all_alive
        outcomes = self._chance(rows, n + 1, self._draw_round)
        pair = outcomes[:, :n] % (n * n)
        friend, enemy = pair // n, pair % n
        if self.obs is not None:  # each cog's cards of this round, in place of the last
            srow = rows[:, None] * n + np.arange(n)
            base = srow * self.obs_size + self.v_cards
            old = np.stack([base + self.friend[rows], base + n + self.enemy[rows]], 2)
            self.obs.write(old, 0, rows=srow)
            self.obs.write(np.stack([base + friend, base + n + enemy], 2), 1, rows=srow)
        self.friend[rows] = friend
        self.enemy[rows] = enemy
        if self.tracking:  # each cog's own cards of this round
            srow = rows[:, None] * n + np.arange(n)
            base = srow * self.tensor_size + self.o_cards
            base += (self.round[rows] * 2 * n)[:, None]
            self.info.write(np.stack([base + friend, base + n + enemy], 2), 1, rows=srow)
        self.it[rows] = outcomes[:, n] - self.setup.it_base
        self._start_turn(rows, 0)

    # ---- what the mover may do ----------------------------------------------------

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        n = self.n
        others = self.living & ~self.bit.take(self.mover)
        used = self.passes_used.reshape(-1).take(self.rows * n + self.it)
        extra = (self.misses < self.hip_limit) + 2 * (used < self.passes)
        keys = others + (((self.phase == ACT) * (1 + extra)) << n)
        if self._finished:
            keys[self.terminated] = self.finished_key
        self.keys = keys
        # Byte i of every row's legal set, then its 8 bits against 8 masks: the
        # action-major rows in two vectorized calls, in the mask's own memory
        # (a take of the (A, keys) table along its keys ran twice as long).
        nbytes = self.legal_bytes.shape[1]
        by = np.ascontiguousarray(self.legal_bytes.take(keys, 0).T)
        mask = np.empty((8 * nbytes, self.batch_size), bool)
        bit_rows = mask.reshape(nbytes, 8, self.batch_size)
        np.bitwise_and(by[:, None, :], BYTE_BITS, out=bit_rows.view(np.uint8))
        np.not_equal(bit_rows.view(np.uint8), 0, out=bit_rows)  # (to 0 / 1)
        return mask[: self.num_actions].T

    def _restarted_mask(self, last: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The last snapshot's (A, B) mask with the restarted rows' own: a row
        starts with the woken IT to move, not with one block of actions."""
        index = np.flatnonzero(rows)
        n = self.n
        it = self.it[index]
        kind = 0 if self.talk else 1 + (self.hip_limit > 0) + 2 * (self.passes > 0)
        keys = (self.all_alive & ~self.bit.take(it)) + (kind << n)
        self.keys[index] = keys
        new = last.copy()
        new[:, index] = self.legal_by_action.take(keys, 1)
        return new.T

    # ---- the moves -------------------------------------------------------------------

    def _play(self, acts: np.ndarray, active):
        self._check_keys(acts, active, self.keys, self.legal_flat)
        return self._apply(acts, active if self._sitting else None)

    def _apply(self, acts: np.ndarray, active):
        """Play every row's decision (`active`: the rows that play, None: every
        row not finished, whose phase says). Returns (ended, rewards) (see Env)."""
        phase = self.phase
        lines = phase == LINE
        acting = phase == ACT
        reacting = phase == REACT
        if active is not None:
            lines &= active
            acting &= active
            reacting &= active
        self._turns = []  # rows whose next turn starts now
        self._ended = None
        if self.talk:
            rows = np.flatnonzero(lines)
            if len(rows):
                if self.tracking:
                    self._write_public(rows, self.o_line, self.line_width, acts[rows])
                if self.obs is not None:
                    self.last[rows, self.v_line + acts[rows]] = 1
                phase[rows] = ACT
        if self.X:
            rows = np.flatnonzero(reacting)
            if len(rows):
                self._react(rows, acts[rows])
        rows = np.flatnonzero(acting)
        if len(rows):
            self._act(rows, acts[rows])
        for rows in self._turns:
            if len(rows):
                self._start_turn(rows, self.turn[rows] + 1)
        if self._ended is None:
            return None, None
        return self._ended, self._rewards

    def _react(self, rows: np.ndarray, line: np.ndarray) -> None:
        x = self.react_i[rows]
        key = self.react_key[rows]
        if self.tracking:
            n, rw = self.n, self.reaction_width
            row = self.round[rows] * self.E + self.turn[rows]
            at = self.Dp + self.o_react + (row * self.X + x) * rw
            self._write_all(rows, np.stack([at + self.mover[rows], at + n + line], 1), 1)
        if self.obs is not None:
            at = self.v_react + x * self.reaction_width
            self.last[rows, at + self.mover[rows]] = 1
            self.last[rows, at + self.n + line] = 1
        x += 1
        self.react_i[rows] = x
        more = x < self.reactor_count.take(key)
        on = rows[more]
        self.mover[on] = self.reactors.take(key[more] * self.react_stride + x[more])
        self._turns.append(rows[~more])

    def _act(self, rows: np.ndarray, act: np.ndarray) -> None:
        """IT's shot or pass, in every acting row at once (masks, not groups:
        a step's calls cost more than their work)."""
        n = self.n
        it = self.it[rows]
        passing = act == self.pass_action
        # The target; a pass is aimed nowhere and leaves the gun with IT.
        target = np.where(passing, it, (act - 1) % n)
        passed = passing.any()
        if passed:
            self.passes_used.reshape(-1)[rows[passing] * n + it[passing]] += 1
        hip = act >= self.hip_base
        if passed:
            hip &= ~passing
        hit = ~hip if not passed else ~hip & ~passing
        h = np.flatnonzero(hip)
        if len(h):
            hit[h] = self._chance(rows[h], 1, self._draw_results)[:, 0] == self.setup.hit
            self.misses[rows] += hip & ~hit
        if self.tracking:
            self._write_act(rows, it, target, passing, hip, hit)
        if self.obs is not None:
            self._view_act(rows, it, target, passing, hip, hit)
        flat = rows * n + target
        hp = self.hp.reshape(-1)
        hp[flat] -= hit
        killed = hit & (hp.take(flat) == 0)
        # A kill leaves the gun with the shooter; otherwise, hit or miss, the
        # target is IT (after a pass, target is IT already).
        next_it = np.where(killed, it, target)
        k = np.flatnonzero(killed)
        if len(k):
            # OUT: the shooter scores if it was its ENEMY; the round may be over.
            kr, kt = rows[k], target[k]
            self.living[kr] &= ~self.bit.take(kt)
            shooter = kr * n + it[k]
            self.enemy_kills.reshape(-1)[shooter] += self.enemy.reshape(-1).take(shooter) == kt
            over = self.popcount.take(self.living[kr]) == self.survivors
            if over.any():
                self._end_round(kr[over])
                on = np.ones(len(rows), bool)
                on[k[over]] = False
                rows, it, next_it = rows[on], it[on], next_it[on]
        if len(rows):
            self._after_act(rows, it, next_it)

    def _after_act(self, rows: np.ndarray, actor: np.ndarray, next_it: np.ndarray) -> None:
        """Reactions after a shot or pass that did not end the round, then the
        next IT's turn."""
        self.it[rows] = next_it
        if not self.X:
            self._turns.append(rows)
            return
        key = ((actor * self.n + next_it) << self.n) | self.living[rows]
        some = self.reactor_count.take(key) > 0
        r = rows[some]
        self.phase[r] = REACT
        self.react_key[r] = key[some]
        self.react_i[r] = 0
        self.mover[r] = self.reactors.take(key[some] * self.react_stride)
        self._turns.append(rows[~some])

    def _start_turn(self, rows: np.ndarray, k) -> None:
        self.turn[rows] = k
        it = self.it[rows]
        if self.tracking:
            self._write_public(rows, self.o_it, self.n, it)
        if self.obs is not None:  # the latest turn is this one: the last one's shot goes
            n = self.n
            srow = rows * n + self.last[rows, :n].argmax(1)  # (after a restart: any seat)
            at = (srow * self.obs_size + self.v_shot)[:, None] + np.arange(2 + n)
            self.obs.write(at, 0, rows=np.broadcast_to(srow[:, None], at.shape))
            self.last[rows] = 0
            self.last[rows, it] = 1
        self.phase[rows] = LINE if self.talk else ACT
        self.mover[rows] = it

    def _end_round(self, rows: np.ndarray) -> None:
        """Each cog's points: 3 standing, 1 for a standing FRIEND, its ENEMY kills."""
        n = self.n
        living = self.living[rows][:, None]
        points = 3 * (living >> np.arange(n) & 1) + (living >> self.friend[rows] & 1)
        points += self.enemy_kills[rows]
        self.totals[rows] += points
        if self._ended is None:
            self._ended = np.zeros(self.batch_size, bool)
            self._rewards = np.zeros((self.batch_size, n), np.float32)
        self._rewards[rows] = points
        r = self.round[rows]
        if self.tracking:
            at = self.Dp + self.o_points + r * n
            self._write_all(rows, at[:, None] + np.arange(n), points)
        last = r + 1 == self.rounds
        done = rows[last]
        self._ended[done] = True
        self.phase[done] = OVER
        on = rows[~last]
        if len(on):
            self.round[on] += 1
            self._start_round(on)

    # ---- tensors --------------------------------------------------------------------

    def _write_public(self, rows, offset, width, values) -> None:
        """1 at entry `values` of the turn under way's row of a per-turn piece."""
        row = self.round[rows] * self.E + self.turn[rows]
        self._write_all(rows, self.Dp + offset + row * width + values, 1)

    def _write_all(self, rows, at, values) -> None:
        """`values` at offsets `at` ((m,) or (m, k)) of every seat's tensor of
        `rows`: a public fact, the same in every seat's row (Store.public)."""
        self.info.public(rows, np.asarray(at), values)

    def _write_act(self, rows, it, target, passing, hip, hit) -> None:
        """An act into the tensors: a pass, or a shot: its aim and target in
        IT's own `shots`, and for the table its target with its result."""
        if passing.any():
            self._write_public(rows[passing], self.o_pass, 1, 0)
            shooting = ~passing
            rows, it, target, hip, hit = (x[shooting] for x in (rows, it, target, hip, hit))
        n = self.n
        row = self.round[rows] * self.E + self.turn[rows]
        srow = rows * n + it
        at = srow * self.tensor_size + self.o_shots + row * (2 + n)
        self.info.write(np.stack([at + hip, at + 2 + target], 1), 1, rows=srow)
        self._write_public(rows, self.o_target, n, target)
        self._write_public(rows, self.o_result, 2, np.where(hit, rules.HIT, rules.MISS))

    def _view_act(self, rows, it, target, passing, hip, hit) -> None:
        """An act in the observation: a shot's aim and target in IT's own
        `shot_now`; for the table a pass, or the target with its result."""
        self.last[rows[passing], self.v_pass] = 1
        shooting = ~passing
        rows, it, target, hip, hit = (x[shooting] for x in (rows, it, target, hip, hit))
        n = self.n
        srow = rows * n + it
        at = srow * self.obs_size + self.v_shot
        self.obs.write(np.stack([at + hip, at + 2 + target], 1), 1, rows=srow)
        self.last[rows, self.v_target + target] = 1
        self.last[rows, self.v_result + np.where(hit, rules.HIT, rules.MISS)] = 1

    def _track(self, form: str = "information_state") -> None:
        """Replay every row's history from the start with the writes of the
        form's tensors on (and of any kept already): it ends where the rows
        are, with their tensors written."""
        B = self.batch_size
        if form == "information_state":
            if self.tracking:
                return
            self.tracking = True
            store = Store(
                B * self.n,
                self.tensor_size,
                self.row_of,
                private=[slice(0, self.Dp)],
                # (a short private part is copied whole: sorting rows by reach costs more)
                reach=self._private_reach if self.Dp > WIDE else None,
                seats=self.n,
            )
            self.info = store
            self.tensors = self.info.array.reshape(B, self.n, self.tensor_size)
        else:
            if self.obs is not None:
                return
            store = Store(B * self.n, self.obs_size, self.row_of, private=[slice(0, self.v_public)])
            self.obs = store
            self.views = store.array.reshape(B, self.n, self.obs_size)
            self.last = np.zeros((B, self.v_last), np.uint8)
        end = self.hpos.copy()
        self._read_at = self.hstart.copy()
        terminated = self.terminated.copy()
        try:
            self._begin(self.rows)
            H = self.history.reshape(-1)
            while True:
                active = self._read_at < end
                if not active.any():
                    break
                acts = H.take(np.where(active, self._read_at, 0)).astype(np.int64)
                self._read_at += active
                self._apply(acts, active)
        finally:
            self._read_at = None
        assert np.array_equal(terminated, self.phase == OVER)
        for store in (self.info, self.obs):
            if store is not None:
                store.invalidate()  # (rewritten whole: any mirror is rebuilt)

    def _status(self) -> np.ndarray:
        """(B, S) uint8, a new array: the status pieces (round .. misses) of every
        row, one entry set per piece (or per cog's piece): each entry's flat
        index is the row's value plus the piece's base (`status_base`) and the
        row's (`status_rows`), gathered in a kept (B, 5 + 2n) buffer (a fresh
        one a read would fault in anew)."""
        S = self.status_size
        n = self.n
        at = self.status_at
        at[:, 0] = self.round
        np.copyto(at[:, 1], self.mover)
        np.copyto(at[:, 1], S - self.s_mover, where=self.phase == OVER)  # (a spare column)
        at[:, 2] = self.phase
        at[:, 3] = self.it
        at[:, 4] = self.misses
        at[:, 5 : 5 + n] = self.hp
        np.negative(self.passes_used, out=at[:, 5 + n :])
        at += self.status_base
        at += self.status_rows
        out = np.zeros(
            (self.batch_size, S + 1), np.uint8
        )  # (the last column: a finished row's mover)
        out.reshape(-1)[at] = 1
        return out[:, :S]

    # ---- tensors: the Env hooks -------------------------------------------------------

    def _store(self, form: str, seat=None) -> Store:
        """The store brought to the rows now: the status pieces (the observation:
        the latest turn, the totals and the status) rewritten from the rows'
        state in the store rows read next (the movers', or seat `seat`'s),
        logged as one block of columns."""
        self._track(form)
        rows = self.rows * self.n + (self.mover if seat is None else seat)
        # (the same in every seat's row: the mirrors copy the block, not gather it)
        if form == "information_state":
            st = self.o_status
            status = self._status()
            self.info.array[rows, st:] = status
            self.info.columns(st, self.tensor_size, status)
            return self.info
        lo = self.v_public
        block = np.concatenate([self.last, self.totals.astype(np.uint8), self._status()], 1)
        self.obs.array[rows, lo:] = block
        self.obs.columns(lo, self.obs_size, block)
        return self.obs

    def _private_reach(self) -> np.ndarray:
        """(B,): the column before which a row's private entries lie in every
        seat's tensor (Store's reach): its cards and its `shots` up to the turn
        under way (a round's rows of E turns, the later ones all zero)."""
        return self.o_shots + (self.round * self.E + self.turn + 1) * (2 + self.n)

    def _seat_store(self, form: str, player: int) -> Store:
        return self._store(form, player)  # (the status rewritten in that seat's rows only)
