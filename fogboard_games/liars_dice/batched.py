"""Batched Liar's Dice in every mode: 2..6 seats, chips or dice (lose-a-die
over rounds until one seat has dice), rerolls, pass, prophecy, any wild face.

The rules are those of fogboard_games/liars_dice/rules.py
(docs/liars_dice.md#rules), applied to every row at once. Chance rolls every
die in play, seat by seat (one history entry per die: face - 1), at the
start of every round and at every reroll; a row always stands at a
decision, so a step that rolls draws the dice from the env's Generator
(each face 1/S) and logs them after the decision that caused them (`step`).
A raise is any higher bid id; `liar`, `prophecy QxF` and `pass` follow the
rules' legal sets (tabled per dice in play, standing bid and whether the
mover holds it). A die counts for face F when it shows F, or the wild face
unless F is the wild face itself.

Information-state tensors: what a seat rolls, the dice counts and dice
mode's showdowns are written when they happen (once a round, or at a
reroll); every decision is one public 1.0 at an offset worked out when it
is made and written into every seat's tensor only when a tensor is read,
as is a chips-mode showdown (a row restarted before the read never writes
it), so play that never reads a tensor pays one small write a step for it. The
observation (the view now) is made at its first read and brought up to
date from what changed.

One round in chips mode without rerolls or pass (every preset but the table)
takes a shorter road through the same engine: a row keeps its mover,
standing bid, holder and legal key; the roll stays in the history alone
(the hands are worked out from it where a tensor or a showdown needs them),
and so do the decisions' tensor entries (decision j is seat j mod P's); a
restart sets its tensors at the next read (docs/batch.md#interface).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import Store

LONG = 1024  # entries of a seat's tensor past which a read copies only its own columns


class LiarsDice(Env):
    """A batch of one fogboard_liars_dice game, any parameters."""

    TABLES = ("legal", "bid_quantity", "bid_face", "blank", "act_base",
              "act_round", "k_rows", "flat_legal", "key_after", "hand_of", "one_hot", "bid_ids", "hand_at",
              "raise_lo", "raise_hi", "calls", "passes", "chooses",
              "after_seat")  # fmt: skip

    def _configure(self, game) -> None:
        setup = self.setup = game.setup
        P, S, D, T = setup.players, setup.sides, setup.numdice, setup.total
        self.num_players = P
        self.num_actions = setup.num_actions
        self.sides = S
        self.chips = setup.chips
        self.rerolls = k = setup.rerolls
        R = self.max_rounds = setup.max_rounds
        # Chance: every round rolls at most T dice, every reroll at most D.
        self.max_history = setup.max_game_length + R * (T + P * k * D)
        self.max_decisions = setup.max_game_length
        layout = game.info_layout
        self.tensor_size = layout.size

    def _build(self) -> None:
        game = self.game
        setup, layout, k = self.setup, self.game.info_layout, self.rerolls
        P, S, D, T = setup.players, setup.sides, setup.numdice, setup.total
        A = self.num_actions
        B = self.batch_size
        off = layout.offset
        self.o_seat, self.o_hands, self.o_shown = off["seat"], off["hands"], off["shown"]
        self.o_counts = off.get("dice_counts")
        self.H = setup.hands_per_round
        NB = self.num_bids = setup.num_bids
        self.liar = setup.liar
        self.prophecy = setup.prophecy
        self.prophecy_base = setup.prophecy_base
        self.pass_action = setup.pass_action  # -1 without pass (never an action)
        self.keep, self.reroll = setup.keep, setup.reroll
        self.wild = setup.wild_face  # 0: no wild face
        self.payout = setup.payout
        # The one-round road (module docstring): every decision a raise or a call.
        self.quick = self.chips and not k and not setup.allow_pass

        # legal[key]: the mover's legal actions, as the rules list them
        # (Match.bidding_actions). key = (in_play - lo) * W + 2 * (bid + 1) + (the
        # mover holds the bid); then the keep-or-reroll choice, then a finished row's.
        W = self.key_width = 2 * (NB + 1)
        lo = self.lo = T if self.chips else 2  # dice in play: T, or 2..T in dice mode
        self.choose_key = (T - lo + 1) * W
        self.finished_key = self.choose_key + 1
        legal = np.zeros((self.finished_key + 1, A), bool)
        m = setup.new_match()
        m.mover = 0
        for in_play in range(lo, T + 1):
            m.in_play = in_play
            for bid in range(-1, in_play * S):
                for holds in (0, 1):
                    m.bid, m.holder = bid, 0 if holds else 1
                    legal[(in_play - lo) * W + 2 * (bid + 1) + holds, m.bidding_actions()] = True
        if k:
            legal[self.choose_key, [self.keep, self.reroll]] = True
        self.legal = legal
        self.flat_legal = legal.reshape(-1)
        start = self.start_key = self.choose_key if k else (T - lo) * W
        opening = np.flatnonzero(legal[start])  # the actions legal at a game's start
        self.start_block = (int(opening[0]), int(opening[-1]) + 1)
        assert len(opening) == opening[-1] + 1 - opening[0], "one block (Env.start_block)"
        self.bid_quantity = np.array(setup.bid_quantity)
        self.bid_face = np.array(setup.bid_face)
        # The one-round road's key after each action: a raise of bid a leaves the
        # turn to a seat that does not hold it (2 a + 2); a call ends the game.
        self.key_after = np.full(A, self.finished_key, np.int64)
        self.key_after[:NB] = 2 * np.arange(NB) + 2
        # The legal mask is built from the rules' shape (Match.bidding_actions),
        # per key: the raises from raise_lo up to raise_hi, and where `calls`
        # liar, the prophecies of those raises and pass where `passes`; keep and
        # reroll where `chooses`. (A gather of the table along its rows ran 5x
        # slower.) Checked against the table for every key.
        bids = legal[:, :NB]
        some = bids.any(1)
        self.raise_lo = np.where(some, bids.argmax(1), NB)
        self.raise_hi = np.where(some, NB - bids[:, ::-1].argmax(1), NB)
        self.capped = not (self.raise_hi == NB).all()  # (dice mode: fewer dice, fewer bids)
        self.bid_ids = np.arange(NB)[:, None]
        self.calls = legal[:, self.liar].copy()
        self.passes = legal[:, self.pass_action].copy() if setup.allow_pass else None
        self.chooses = legal[:, self.keep].copy() if k else None
        kinds = [*range(NB + 1), self.pass_action, self.keep, self.reroll]
        if self.prophecy:
            kinds += range(self.prophecy_base, self.prophecy_base + NB)
        assert self.liar == NB and sorted(a for a in kinds if a >= 0) == list(range(A))
        assert np.array_equal(self._mask_of(np.arange(len(legal))), legal.T)
        # hand_of[f, d]: a die showing face d + 1 counts for a bid on face f + 1
        # (its face, or the wild face unless f + 1 is the wild face: the same test).
        faces = np.arange(S)
        hand_of = faces[:, None] == faces
        if self.wild:
            hand_of[:, self.wild - 1] = True
        self.hand_of = hand_of.reshape(-1).astype(np.int16)  # [f * S + d], summed
        self.one_hot = np.eye(S + 1, S, dtype=np.int8)  # a die's count per face; none
        # Die k of the roll (seat k // D's) counts at hand_at[k] + its face - 1.
        self.hand_at = (np.arange(P * D) // D * layout.size + off["hands"])[:, None]

        # Where each decision puts its public 1.0 in a seat's tensor: act_base[a]
        # + the seat + (bid-row pieces) K_r * P or (round pieces) r * P, and for a
        # pass the standing bid's row, for a reroll its number (see _decided).
        self.act_base = np.zeros(A, np.int64)
        self.act_round = np.zeros(A, bool)  # a round-indexed piece (liar, kept)
        self.act_base[:NB] = off["bids"] + np.arange(NB) * P
        self.act_base[self.liar] = off["liar"]
        self.act_round[self.liar] = True
        if self.prophecy:
            self.act_base[self.prophecy_base : self.prophecy_base + NB] = (
                off["prophecies"] + np.arange(NB) * P
            )
        if setup.allow_pass:
            self.act_base[self.pass_action] = off["passes"]
        if k:
            self.act_base[self.keep] = off["kept"]
            self.act_round[self.keep] = True
            self.o_rerolled = off["rerolled"]
        self.k_rows = np.array(setup.round_rows, np.int64) * P  # K_r * P, per round
        self.next_seat = (np.arange(P) + 1) % P  # (chips mode: every seat has dice)
        # after_seat[bits * P + s]: the nearest seat after s whose bit is set (s if none).
        self.after_seat = np.array(
            [
                next((t for t in ((s + j) % P for j in range(1, P)) if bits >> t & 1), s)
                for bits in range(1 << P)
                for s in range(P)
            ]
        )

        # dice per face, per seat (the one-round road: read from the history)
        self.hands = None if self.quick else np.zeros((B, P, S), np.int8)
        self.dice = np.full((B, P), D, np.int8)  # dice per seat
        self.mover = np.zeros(B, np.int64)
        self.bid = np.full(B, -1, np.int64)  # standing bid id, -1 before the opening bid
        self.holder = np.full(B, -1, np.int64)
        self.key = np.full(B, start, np.int64)  # the legal key now (finished_key at the end)
        self.round = np.zeros(B, np.int64)
        self.in_play = np.full(B, T, np.int64)
        self.opener = np.zeros(B, np.int64)
        self.choosing = np.zeros(B, bool)  # a seat chooses keep or reroll
        self.used = np.zeros((B, P), np.int8)  # rerolls used this round, per seat
        self.last_shown = np.zeros((B, P, S), np.int8)  # the latest showdown's hands
        # Decisions' offsets, written into the tensors when read (_tensors).
        # (flat indices into `decided`, as the history's hstart and hpos)
        if self.quick:  # the history's decisions, from each row's first (after the roll)
            self.first = self.hstart + P * D
            self.t_decided = self.first.copy()  # written into the tensors up to here
            self.fresh = np.ones(B, bool)  # restarted, its tensors not set yet
        else:
            self.decided = np.zeros((B, self.max_decisions), np.int32)
            self.dstart = self.rows * self.max_decisions
            self.dpos = self.dstart.copy()  # each row's next decision
            self.t_decided = self.dstart.copy()  # of those, written into the tensors up to here
        self.t_shown = np.zeros(B, bool)  # chips mode: the showdown written
        # Store row b * P + p is seat p's tensor of row b.
        self.row_of = (np.arange(B * P) // P).astype(np.int32)
        # A seat's own columns: whose view it is and what it rolled (every other
        # piece is written into every seat's tensor alike), so where the turn
        # passes a read can copy only those (observations.Store's `private`),
        # which pays on long tensors (liars-dice-table's 15,988 entries: reads 10x
        # faster) but not on short ones (at 262 even, at 46 to 142 slower than
        # copying whole rows).
        assert off["seat"] == 0 and off["hands"] == P
        own = min(v for v in [*off.values(), layout.size] if v > off["hands"])
        private = [slice(0, own)] if layout.size > LONG else None
        self.info = Store(B * P, layout.size, self.row_of, private=private)
        self.blank = np.zeros((P, layout.size), np.uint8)
        self.blank[np.arange(P), self.o_seat + np.arange(P)] = 1  # whose view it is
        if self.o_counts is not None:  # every seat starts with D dice
            self.blank[:, self.o_counts + np.arange(P) * (D + 1) + D] = 1
        self.obs = None
        obs = game.obs_layout
        self.obs_size = obs.size
        self.q_seat, self.q_hand = obs.offset["seat"], obs.offset["hand"]
        self.q_bid, self.q_holder = obs.offset["standing_bid"], obs.offset["holder"]
        self.q_move, self.q_shown = obs.offset["to_move"], obs.offset["last_shown"]
        self.q_counts = obs.offset.get("dice_counts")
        self.q_used = obs.offset.get("rerolls_used")
        self.stale = np.ones(B, bool)  # rows whose observation is remade whole at a read

    # ---- chance ---------------------------------------------------------------

    def _roll(self, rows: np.ndarray, counts: np.ndarray, log: bool) -> np.ndarray:
        """Roll counts[i, s] dice for seat s of rows[i], seat by seat: the new
        hands (rows, P, S), the faces logged now (log: a game's start, every
        seat's D dice) or after the step."""
        P, S, D = self.num_players, self.sides, self.setup.numdice
        faces = self.rng.integers(0, S, size=(len(rows), P * D))
        if log:  # a game's start: every seat rolls all its D dice
            self._log(rows, faces)
            return self._count(faces.reshape(-1, P, D))
        real = np.arange(D) < counts[:, :, None]  # (rows, P, D): dice rolled
        hands = self._count(faces.reshape(-1, P, D), real)
        self._log_later(rows, faces, real.reshape(len(rows), P * D))
        return hands

    def _count(self, faces: np.ndarray, real=None) -> np.ndarray:
        """(..., S) int8: the dice per face of faces (..., D) (face - 1), only
        those `real` if given. One die at a time, as a row of the identity (a
        sum over the dice axis ran 10x slower)."""
        if real is not None:
            faces = np.where(real, faces, self.sides)  # (the identity's zero row)
        hands = self.one_hot.take(faces[..., 0], 0)
        for d in range(1, faces.shape[-1]):
            hands += self.one_hot.take(faces[..., d], 0)
        return hands

    def _hands(self, rows: np.ndarray) -> np.ndarray:
        """(rows, P, S) int8: each seat's dice per face (the one-round road: from
        the roll, the first P * D entries of the history)."""
        if not self.quick:
            return self.hands[rows]
        P, D = self.num_players, self.setup.numdice
        return self._count(self.history.take(rows, 0)[:, : P * D].reshape(len(rows), P, D))

    # ---- restart: the roll ------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        if self.quick:
            return self._restart_round(rows)
        B, P, D, S = self.batch_size, self.num_players, self.setup.numdice, self.sides
        if not self.chips:  # (in chips mode every seat keeps its D dice)
            self.dice[rows] = D
        hands = self._roll(rows, None, log=True)
        self.hands[rows] = hands
        self.mover[rows] = 0
        self.bid[rows] = -1
        self.holder[rows] = -1
        self.key[rows] = self.start_key
        if not self.chips:  # (constant in chips mode)
            self.round[rows] = 0
            self.in_play[rows] = self.setup.total
            self.opener[rows] = 0
        if self.rerolls:
            self.choosing[rows] = True
            self.used[rows] = 0
        self.dpos[rows] = self.t_decided[rows] = self.dstart[rows]
        self.t_shown[rows] = False
        store = self.info.array.reshape(B, P, -1)
        store[rows] = self.blank
        store[rows, :, self.o_hands : self.o_hands + S] = hands  # round 0, hand 0
        self.info.restart(rows)
        if self.obs is not None:  # (made whole when first made)
            self.stale[rows] = True

    def _restart_round(self, rows: np.ndarray) -> None:
        """The one-round road's restart: the roll into the history, the row's
        four numbers; the tensors are set at the next read (_tensors)."""
        PD = self.num_players * self.setup.numdice
        # Every seat rolls its D dice, seat by seat: face - 1, as pyspiel logs them.
        self.history[rows, :PD] = self.rng.integers(0, self.sides, (len(rows), PD), np.int16)
        self.hpos[rows] = self.first[rows]
        self.mover[rows] = 0
        self.bid[rows] = -1
        self.holder[rows] = -1
        self.key[rows] = self.start_key
        self.fresh[rows] = True
        if self.obs is not None:
            self.stale[rows] = True

    # ---- what the mover may do ----------------------------------------------------

    def _keys(self, rows) -> np.ndarray:
        key = 2 * (self.bid[rows] + 1) + (self.holder[rows] == self.mover[rows])
        if not self.chips:
            key += (self.in_play[rows] - self.lo) * self.key_width
        if self.rerolls:
            key = np.where(self.choosing[rows], self.choose_key, key)
        return key

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        return self._mask_of(self.key).T

    def _mask_of(self, key: np.ndarray) -> np.ndarray:
        """(A, len(key)) bool: the legal actions at each key (see __init__)."""
        NB = self.num_bids
        out = np.empty((self.num_actions, len(key)), bool)  # (every row is set)
        bids = out[:NB]
        np.greater_equal(self.bid_ids, self.raise_lo.take(key), out=bids)
        if self.capped:
            bids &= self.bid_ids < self.raise_hi.take(key)
        out[self.liar] = self.calls.take(key)
        if self.prophecy:
            base = self.prophecy_base
            np.logical_and(bids, out[self.liar], out=out[base : base + NB])
        if self.passes is not None:
            out[self.pass_action] = self.passes.take(key)
        if self.chooses is not None:
            out[self.keep] = out[self.reroll] = self.chooses.take(key)
        return out

    def _check(self, key: np.ndarray, acts: np.ndarray) -> np.ndarray:
        """Whether each action is legal at its row's key."""
        A = self.num_actions
        at = key * A
        at += acts
        ok = self.flat_legal.take(at, mode="clip")
        ok &= acts.view(np.uint64) < A  # (a negative action: past 2**63 as unsigned)
        return ok

    # ---- the moves ------------------------------------------------------------------

    def _play(self, acts: np.ndarray, active):
        # The running rows, compacted: a round's few kinds of move touch few rows each.
        if self.quick:
            return self._play_round(acts, active)
        rows = self.rows if active is None else np.flatnonzero(active)
        mine = acts if active is None else acts[rows]
        ok = self._check(self.key if active is None else self.key[rows], mine)
        if not ok.all():
            every = np.ones(self.batch_size, bool)
            every[rows] = ok
            self._refuse(active, acts, every)
        done, returns = self._apply(rows, mine)
        self.key[rows] = self._keys(rows)
        if not len(done):
            return None, None
        self.key[done] = self.finished_key
        ended = np.zeros(self.batch_size, bool)
        ended[done] = True
        rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        rewards[done] = returns
        return ended, rewards

    def _play_round(self, acts: np.ndarray, active):
        """_play on the one-round road, on whole rows (masked where some sit out
        or finished): a raise stands and moves the turn on, a call ends the game."""
        key = self.key
        ok = self._check(key, acts)
        if active is not None:
            ok |= ~active  # (their actions are not checked)
        if not ok.all():
            self._refuse(active, acts, ok)
        raised = acts < self.num_bids
        if active is None:
            calls = ~raised
            self.key = self.key_after.take(acts)
        else:
            raised &= active
            calls = active & ~raised
            np.copyto(key, self.key_after.take(acts, mode="clip"), where=active)
        mover = self.mover
        # (new arrays: a masked copyto runs 4x slower)
        self.holder = np.where(raised, mover, self.holder)
        self.bid = np.where(raised, acts, self.bid)
        if self.num_players == 2:
            mover ^= raised
        else:
            np.copyto(mover, self.next_seat.take(mover), where=raised)
        c = np.flatnonzero(calls)
        if not len(c):
            return None, None
        return calls, self._showdown(c, acts[c])

    def _showdown(self, c: np.ndarray, calls: np.ndarray) -> np.ndarray:
        """The one-round road's calls in rows c (`liar` or a prophecy): the (B, P)
        rewards. The counted dice are the roll, the history's first P * D entries."""
        P = self.num_players
        holder, caller, said = self.holder[c], self.mover[c], self.bid[c]
        if self.prophecy:
            prophecy = calls != self.liar
            said = np.where(prophecy, calls - self.prophecy_base, said)
        at = self.bid_face.take(said) - 1
        at *= self.sides
        faces = self.history.take(c, 0)
        # A die at a time (numpy is slow along a short last axis).
        count = self.hand_of.take(faces[:, 0] + at)
        for d in range(1, P * self.setup.numdice):
            count += self.hand_of.take(faces[:, d] + at)
        quantity = self.bid_quantity.take(said)
        if self.prophecy:
            exact = count == quantity  # the prophet was right
            caller_wins = np.where(prophecy, exact, count < quantity)
        else:
            caller_wins = count < quantity
        winner = np.where(caller_wins, caller, holder)
        loser = np.where(caller_wins, holder, caller)
        if self.obs is not None:
            self.stale[c] = True
        rewards = np.zeros((self.batch_size, P), np.float32)
        flat, c = rewards.reshape(-1), c * P
        if self.prophecy:
            amount = np.where(prophecy & exact, np.float32(self.payout), np.float32(1))
            flat[c + winner] = amount
            flat[c + loser] = -amount
        else:
            flat[c + winner] = 1
            flat[c + loser] = -1
        return rewards

    def _next_seat(self, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """The next seat after `seat` that has dice (Match.next_with_dice)."""
        P = self.num_players
        if self.chips:  # every seat keeps its dice
            return (seat + 1) % P
        # By the seats with dice as bits (seat s: bit s) and the seat (after_seat).
        alive = np.packbits(self.dice[rows] > 0, axis=1, bitorder="little")[:, 0]
        return self.after_seat.take(alive.astype(np.int64) * P + seat)

    def _decided(self, rows, acts, seat) -> None:
        """Log each decision's public offset (before the move changes the row)."""
        P = self.num_players
        at = self.act_base.take(acts)
        at += seat
        if not self.chips:
            r = self.round[rows]
            at += np.where(self.act_round[acts], r * P, self.k_rows[r])
        if self.pass_action >= 0:
            passed = acts == self.pass_action
            at += np.where(passed, self.bid[rows] * P, 0)
        if self.rerolls:
            rr = acts == self.reroll
            if rr.any():
                r, s = self.round[rows[rr]], seat[rr]
                at[rr] = self.o_rerolled + (r * P + s) * self.rerolls + self.used[rows[rr], s]
        if len(rows) == self.batch_size:  # every row (no compaction)
            self.decided.reshape(-1)[self.dpos] = at
            self.dpos += 1
        else:
            n = self.dpos[rows]
            self.decided.reshape(-1)[n] = at
            self.dpos[rows] = n + 1

    def _apply(self, rows: np.ndarray, acts: np.ndarray):
        NB = self.num_bids
        seat = self.mover[rows]
        self._decided(rows, acts, seat)
        # A raise or a pass: the turn moves on (a raise also stands).
        raised = acts < NB
        moves_on = raised | (acts == self.pass_action) if self.pass_action >= 0 else raised
        nxt = self._next_seat(rows, seat)
        self.mover[rows] = np.where(moves_on, nxt, seat)
        r = rows[raised]
        self.bid[r] = acts[raised]
        self.holder[r] = seat[raised]
        if self.rerolls:
            self._choose(rows, acts, seat, nxt)
            calls = acts == self.liar
            if self.prophecy:
                calls |= (acts >= self.prophecy_base) & (acts < self.prophecy_base + NB)
        else:  # every other decision is a call: liar or a prophecy
            calls = ~moves_on
        c = np.flatnonzero(calls)
        if not len(c):
            return c, None
        return self._settle(rows[c], acts[c], seat[c])

    def _choose(self, rows, acts, seat, nxt) -> None:
        """keep, or reroll the seat's whole hand (the same seat chooses again
        while it has rerolls left); a seat done choosing hands on to the next,
        and after the last the opener bids."""
        done = acts == self.keep
        rr = np.flatnonzero(acts == self.reroll)
        if len(rr):
            rw, s = rows[rr], seat[rr]
            used = self.used[rw, s] + 1
            self.used[rw, s] = used
            S, D = self.sides, self.tensor_size
            # The seat's whole hand rolled again (its dice only), logged after the step.
            faces = self.rng.integers(0, S, size=(len(rw), self.setup.numdice))
            real = np.arange(self.setup.numdice) < self.dice[rw, s][:, None]
            hand = self._count(faces, real)
            self._log_later(rw, faces, real)
            self.hands[rw, s] = hand
            at = (rw * self.num_players + s) * D + self.o_hands
            at += (self.round[rw] * self.H + used) * S
            self.info.write(at[:, None] + np.arange(S), hand)  # the seat's new hand
            if self.obs is not None:
                self.stale[rw] = True
            done[rr] = used >= self.rerolls
        d = np.flatnonzero(done)
        if len(d):
            self.mover[rows[d]] = nxt[d]
            self.choosing[rows[d]] = nxt[d] != self.opener[rows[d]]

    def _settle(self, rc, ac, caller):
        """`liar` or `prophecy` in rows rc: the showdown, who pays or loses dice;
        in dice mode the next round. Returns the rows that ended, their returns."""
        P, S, D = self.num_players, self.sides, self.tensor_size
        holder, bid = self.holder[rc], self.bid[rc]
        prophecy = ac != self.liar
        said = np.where(prophecy, ac - self.prophecy_base, bid)
        face = self.bid_face[said]
        hands = self.hands[rc]
        total = hands.sum(1, dtype=np.int64)  # (rows, S): dice showing each face
        i = np.arange(len(rc))
        count = total[i, face - 1]
        if self.wild:  # wild dice count for every other face
            count = count + np.where(face != self.wild, total[:, self.wild - 1], 0)
        quantity = self.bid_quantity[said]
        exact = count == quantity  # prophecy: the prophet was right
        caller_wins = np.where(prophecy, exact, count < quantity)
        winner = np.where(caller_wins, caller, holder)
        loser = np.where(caller_wins, holder, caller)
        if self.obs is not None:
            self.stale[rc] = True
        seats = np.arange(P)
        if self.chips:  # (the showdown is written when a tensor is read: _tensors)
            amount = np.where(prophecy & exact, self.payout, 1).astype(np.float32)
            returns = np.zeros((len(rc), P), np.float32)
            returns[i, winner] = amount
            returns[i, loser] = -amount
            return rc, returns
        # The showdown, public: every seat's hand, in every seat's tensor.
        at = ((rc * P)[:, None] + seats) * D + self.o_shown  # (rows, P)
        at += (self.round[rc] * P * S)[:, None]
        self.info.write(at[:, :, None] + np.arange(P * S), hands.reshape(-1, 1, P * S))
        self.last_shown[rc] = hands  # (chips mode shows the hands, kept to the end)
        # Dice mode: the loser gives up dice (an exact prophecy costs the holder
        # up to the payout), public in the dice counts.
        had = self.dice[rc, loser].astype(np.int64)
        amount = np.where(prophecy & exact, np.minimum(self.payout, had), 1)
        left = had - amount
        self.dice[rc, loser] = left
        at = (
            ((rc * P)[:, None] + seats) * D
            + self.o_counts
            + (loser * (self.setup.numdice + 1))[:, None]
        )
        self.info.write(at + had[:, None], 0)
        self.info.write(at + left[:, None], 1)
        alive = (self.dice[rc] > 0).sum(1)
        over = alive == 1
        end = rc[over]
        returns = np.full((len(end), P), -1.0 / (P - 1), np.float32)
        returns[np.arange(len(end)), np.argmax(self.dice[end], 1)] = 1.0
        go = ~over
        if go.any():
            self._next_round(rc[go], loser[go])
        return end, returns

    def _next_round(self, rn, loser) -> None:
        """The next round of rows rn: every remaining die rolled, opened by the
        loser or the next seat after it with dice."""
        P, S, D = self.num_players, self.sides, self.tensor_size
        self.round[rn] += 1
        self.in_play[rn] = self.dice[rn].sum(1)
        opener = np.where(self.dice[rn, loser] > 0, loser, self._next_seat(rn, loser))
        self.opener[rn] = opener
        self.mover[rn] = opener
        self.bid[rn] = -1
        self.holder[rn] = -1
        self.used[rn] = 0
        self.choosing[rn] = self.rerolls > 0
        hands = self._roll(rn, self.dice[rn], log=False)
        self.hands[rn] = hands
        at = ((rn * P)[:, None] + np.arange(P)) * D + self.o_hands  # each seat's own
        at = at + (self.round[rn] * self.H * S)[:, None]
        self.info.write(at[:, :, None] + np.arange(S), hands)

    # ---- tensors ----------------------------------------------------------------

    def _store(self, form: str) -> Store:
        if form == "information_state":
            self._tensors()
            return self.info
        if self.obs is None:
            self.obs = Store(self.batch_size * self.num_players, self.obs_size, self.row_of)
            # What the observation shows, per row: -1 for none.
            self.shown_bid = np.full(self.batch_size, -1, np.int64)
            self.shown_holder = np.full(self.batch_size, -1, np.int64)
            self.shown_mover = np.full(self.batch_size, -1, np.int64)
            self.stale[:] = True
        self._observe()
        return self.obs

    def _remake(self, rows: np.ndarray) -> None:
        """Every seat's observation of rows, made whole from the rows now."""
        P, S, Do, n = self.num_players, self.sides, self.obs_size, len(rows)
        blank = np.zeros((n, P, Do), np.uint8)
        seats = np.arange(P)
        i = np.arange(n)
        blank[:, seats, self.q_seat + seats] = 1
        blank[:, :, self.q_hand : self.q_hand + S] = self._hands(rows)  # each its own
        if self.q_counts is not None:
            at = self.q_counts + seats * (self.setup.numdice + 1) + self.dice[rows]
            for s in seats:
                blank[i, :, at[:, s]] = 1
        if self.q_used is not None:
            at = self.q_used + seats * (self.rerolls + 1) + self.used[rows]
            for s in seats:
                blank[i, :, at[:, s]] = 1
        bid, holder = self.bid[rows], self.holder[rows]
        b = np.flatnonzero(bid >= 0)
        blank[b, :, self.q_bid + bid[b]] = 1
        blank[b, :, self.q_holder + holder[b]] = 1
        mover = np.where(self.terminated[rows], -1, self.mover[rows])
        m = np.flatnonzero(mover >= 0)
        blank[m, :, self.q_move + mover[m]] = 1
        # The latest showdown, once there is one (last_shown is not cleared at a restart).
        s = np.flatnonzero(self.terminated[rows] | (self.round[rows] > 0))
        shown = self._hands(rows[s]) if self.chips else self.last_shown[rows[s]]
        blank[s, :, self.q_shown : self.q_shown + P * S] = shown.reshape(len(s), 1, P * S)
        self.obs.array.reshape(self.batch_size, P, Do)[rows] = blank
        self.obs.restart(rows)
        self.shown_bid[rows] = bid
        self.shown_holder[rows] = holder
        self.shown_mover[rows] = mover
        self.stale[rows] = False

    def _observe(self) -> None:
        """Bring every seat's observation to the rows' state now: rows where a
        hand, the dice, the rerolls or a showdown changed are made whole; in
        the others the standing bid, its holder and the seat to move."""
        P, Do, obs = self.num_players, self.obs_size, self.obs
        seats = np.arange(P)
        q = np.flatnonzero(self.stale)
        if len(q):
            self._remake(q)
        q = np.flatnonzero(self.shown_bid != self.bid)  # a raise (others are stale)
        if len(q):
            at = (q[:, None] * P + seats) * Do  # (rows, P): each seat's row
            old = self.shown_bid[q] >= 0
            if old.any():
                obs.write(at[old] + (self.q_bid + self.shown_bid[q[old]])[:, None], 0)
                obs.write(at[old] + (self.q_holder + self.shown_holder[q[old]])[:, None], 0)
            obs.write(at + (self.q_bid + self.bid[q])[:, None], 1)
            obs.write(at + (self.q_holder + self.holder[q])[:, None], 1)
            self.shown_bid[q] = self.bid[q]
            self.shown_holder[q] = self.holder[q]
        mover = np.where(self.terminated, -1, self.mover)  # (none at the end)
        q = np.flatnonzero(self.shown_mover != mover)
        if len(q):
            at = (q[:, None] * P + seats) * Do
            old = self.shown_mover[q] >= 0
            if old.any():
                obs.write(at[old] + (self.q_move + self.shown_mover[q[old]])[:, None], 0)
            new = mover[q] >= 0
            if new.any():
                obs.write(at[new] + (self.q_move + mover[q[new]])[:, None], 1)
            self.shown_mover[q] = mover[q]

    def _tensors(self) -> None:
        """Write the decisions made since the last read into every seat's
        information-state tensor (all of them at once)."""
        P, D = self.num_players, self.tensor_size
        if self.quick:  # the rows restarted since the last read: their start
            q = np.flatnonzero(self.fresh)
            if len(q):
                self.info.array.reshape(self.batch_size, P, D)[q] = self.blank
                # Each seat's hand: a count per die at its face, in the seat's row,
                # indexed (dice, rows) (numpy is slow along a short last axis); a
                # die of every seat at a time (within one, every index differs).
                n = self.setup.numdice
                at = self.history.take(q, 0)[:, : P * n].T + self.hand_at
                at += q * (P * D)
                flat = self.info.flat
                if n == 1:
                    flat[at] = 1
                else:
                    for d in range(n):
                        flat[at[d::n]] += 1
                self.info.restart(q)
                self.fresh[q] = False
                self.t_shown[q] = False
                self.t_decided[q] = self.first[q]
        if self.chips:  # the showdown of the rows that ended: every hand, shown to all
            q = np.flatnonzero(self.terminated & ~self.t_shown)
            if len(q):
                shown = self._hands(q).reshape(len(q), 1, -1)
                at = ((q * P)[:, None] + np.arange(P)) * D + self.o_shown
                self.info.write(at[:, :, None] + np.arange(shown.shape[2]), shown)
                self.t_shown[q] = True
        done = self.hpos if self.quick else self.dpos
        count = done - self.t_decided
        if count.max() <= 1:  # (read at every step: one each)
            row = np.flatnonzero(count)
            i = self.t_decided[row]
        else:
            row = np.repeat(self.rows, count)
            # The flat index of each pending decision: its row's first + its place.
            starts = np.cumsum(count) - count
            i = np.repeat(self.t_decided - starts, count) + np.arange(len(row))
        if not len(row):
            return
        if self.quick:  # decision j of a row is seat j mod P's (a raise moves the turn on)
            i = i.astype(np.int64, copy=False)
            at = self.act_base.take(self.history.reshape(-1).take(i))
            j = i - self.first.take(row)
            at += j & 1 if P == 2 else j % P
        else:
            at = self.decided.reshape(-1)[i].astype(np.int64)
        at += row * (P * D)  # seat 0's entry; (P, rows): numpy is slow along a short last axis
        self.info.write(np.add.outer(np.arange(0, P * D, D), at), 1)
        self.t_decided[:] = done
