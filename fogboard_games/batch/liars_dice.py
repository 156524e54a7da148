"""Batched one-round Liar's Dice (mode=chips, no rerolls).

The rules are those of fogboard_games/liars_dice/rules.py
(docs/liars_dice.md#rules), applied to every row at once. Chance rolls every
die at the start, seat 0's dice first, then seat 1's, and so on (one
history entry per die: face - 1); then the seats bid in turn from seat 0.
A raise is any higher bid id (a higher quantity, or the same quantity of a
higher face). With a standing bid by another seat the mover may also call
`liar` (the bid stands if at least Q dice count for its face: the holder
wins, else the caller), `prophecy QxF` (a legal raise claimed exact: the
prophet wins `prophecy_payout` from the holder if exactly Q dice count,
else pays the holder 1) and, under `allow_pass`, `pass` (not at the
highest bid; when the turn comes back to the holder it must raise). A die
counts for face F when it shows F, or the wild face unless F is the wild
face itself. The loser pays the winner; the round is the game.

The mover of the i-th decision is always seat i mod players (every bid
and pass hands the turn on), which the lazy tensor writer reads back from
the history.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.batch.observations import Store


class LiarsDice(Env):
    """A batch of one fogboard_liars_dice game in chips mode without rerolls."""

    TABLES = ("legal", "legal_by_action", "bid_quantity", "bid_face", "blank")

    def __init__(
        self, game, batch_size: int, seed=None, observation="information_state", dtype=None
    ):
        setup = self.setup = game.setup
        P, S = setup.players, setup.sides
        self.num_players = P
        self.num_actions = A = setup.num_actions
        self.sides = S
        self.chance_len = P * setup.numdice  # the dice rolled before the first bid
        self.max_history = self.chance_len + setup.max_game_length
        layout = game.info_layout
        self.tensor_size = layout.size
        super().__init__(game, batch_size, seed, observation, dtype)
        B = self.batch_size
        off = layout.offset
        self.o_seat, self.o_hands = off["seat"], off["hands"]
        self.o_bids, self.o_liar, self.o_shown = off["bids"], off["liar"], off["shown"]
        self.o_passes = off.get("passes")
        self.o_prophecies = off.get("prophecies")
        NB = self.num_bids = setup.num_bids
        self.liar = setup.liar
        self.prophecy_base = setup.prophecy_base if setup.prophecy else A + 1
        self.pass_action = setup.pass_action if setup.allow_pass else A + 1
        self.wild = setup.wild_face  # 0: no wild face
        self.payout = setup.payout
        # legal[2 * (bid + 1) + (the mover holds the bid)]: the mover's legal actions,
        # as the rules list them (Match.bidding_actions, every die in play: one
        # round); the last row (all False) is a finished row's.
        legal = np.zeros((2 * (NB + 1) + 1, A), bool)
        m = setup.new_match()
        m.in_play, m.mover = setup.total, 0
        for bid in range(-1, NB):
            for holds in (0, 1):
                m.bid, m.holder = bid, 0 if holds else 1
                legal[2 * (bid + 1) + holds, m.bidding_actions()] = True
        self.legal = legal
        opening = np.flatnonzero(legal[0])  # no standing bid: the opening bids
        self.start_block = (int(opening[0]), int(opening[-1]) + 1)
        assert len(opening) == opening[-1] + 1 - opening[0], "one block (Env.start_block)"
        self.legal_by_action = np.ascontiguousarray(legal.T)  # (A, keys)
        self.finished_key = 2 * (NB + 1)
        self.bid_quantity = np.array(setup.bid_quantity)
        self.bid_face = np.array(setup.bid_face)

        self.hands = np.zeros((B, P, S), np.int8)  # dice per face, per seat
        self.counts = np.zeros((B, S + 1), np.int64)  # dice counting for face F (1-based)
        self.mover = np.zeros(B, np.int64)
        self.bid = np.full(B, -1, np.int64)  # standing bid id, -1 before the opening bid
        self.holder = np.full(B, -1, np.int64)
        # Both forms' stores: store row b * P + p is seat p's tensor of row b. The
        # information state is kept from the deal (the hands), the bids written
        # when read; the observation, made at its first read, is the view now.
        self.row_of = (np.arange(B * P) // P).astype(np.int32)
        self.info = Store(B * P, layout.size, self.row_of)
        self.blank = np.zeros((P, layout.size), np.uint8)
        self.blank[np.arange(P), self.o_seat + np.arange(P)] = 1  # whose view it is
        self.obs = None
        obs = game.obs_layout
        self.obs_size = obs.size
        self.q_seat, self.q_hand = obs.offset["seat"], obs.offset["hand"]
        self.q_bid, self.q_holder = obs.offset["standing_bid"], obs.offset["holder"]
        self.q_move, self.q_shown = obs.offset["to_move"], obs.offset["last_shown"]
        self.t_decisions = np.zeros(B, np.int64)  # decisions written into the tensors
        self.t_standing = np.full(B, -1, np.int64)  # the standing bid as of those
        self.t_outcome = np.zeros(B, bool)
        self.reset()

    # ---- restart: the roll ------------------------------------------------------

    def _restart(self, rows: np.ndarray) -> None:
        B, P, S, D = self.batch_size, self.num_players, self.sides, self.setup.numdice
        faces = self.rng.integers(0, S, size=(len(rows), P * D))
        self._log(rows, faces)  # chance outcome = face - 1, seat 0's dice first
        hands = (faces.reshape(-1, P, D, 1) == np.arange(S)).sum(2, dtype=np.int8)
        self.hands[rows] = hands
        total = hands.sum(1, dtype=np.int64)  # (rows, S): dice showing each face
        counts = np.zeros((len(rows), S + 1), np.int64)
        counts[:, 1:] = total
        if self.wild:  # wild dice count for every other face
            wild = total[:, self.wild - 1 : self.wild]
            counts[:, 1:] += wild
            counts[:, self.wild] -= total[:, self.wild - 1]
        self.counts[rows] = counts
        self.mover[rows] = 0
        self.bid[rows] = -1
        self.holder[rows] = -1
        blank = np.broadcast_to(self.blank, (len(rows), *self.blank.shape)).copy()
        blank[:, np.arange(P), self.o_hands : self.o_hands + S] = hands
        self.info.array.reshape(B, P, -1)[rows] = blank
        self.info.restart(rows)
        if self.obs is not None:
            self._restart_obs(rows, hands)
        self.t_decisions[rows] = 0
        self.t_standing[rows] = -1
        self.t_outcome[rows] = False

    # ---- what the mover may do ----------------------------------------------------

    def _keys(self, rows) -> np.ndarray:
        bid, holder = self.bid[rows], self.holder[rows]
        return 2 * (bid + 1) + (holder == self.mover[rows])

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array (see Boards._legal_mask)."""
        keys = np.where(self.terminated, self.finished_key, self._keys(self.rows))
        return self.legal_by_action.take(keys, 1).T

    def _check(self, rows: np.ndarray, acts: np.ndarray) -> np.ndarray:
        A = self.num_actions
        inside = (acts >= 0) & (acts < A)
        return inside & self.legal.reshape(-1)[self._keys(rows) * A + np.where(inside, acts, 0)]

    # ---- the moves ------------------------------------------------------------------

    def _play(self, acts: np.ndarray, active):
        # The running rows, compacted: a round's few kinds of move touch few rows each.
        rows = self.rows if active is None else np.flatnonzero(active)
        mine = acts if active is None else acts[rows]
        ok = self._check(rows, mine)
        if not ok.all():
            every = np.ones(self.batch_size, bool)
            every[rows] = ok
            self._refuse(active, acts, every)
        done, returns = self._apply(rows, mine)
        if not len(done):
            return None, None
        ended = np.zeros(self.batch_size, bool)
        ended[done] = True
        rewards = np.zeros((self.batch_size, self.num_players), np.float32)
        rewards[done] = returns
        return ended, rewards

    def _apply(self, rows: np.ndarray, acts: np.ndarray):
        P, NB = self.num_players, self.num_bids
        seat = self.mover[rows]
        # A raise or a pass: the turn moves on (a raise also stands).
        moves_on = (acts < NB) | (acts == self.pass_action)
        self.mover[rows] = np.where(moves_on, (seat + 1) % P, seat)
        raised = acts < NB
        self.bid[rows[raised]] = acts[raised]
        self.holder[rows[raised]] = seat[raised]
        # Calls end the round.
        c = np.flatnonzero(~moves_on)
        rc, ac, caller = rows[c], acts[c], seat[c]
        holder, bid = self.holder[rc], self.bid[rc]
        prophecy = ac != self.liar
        said = np.where(prophecy, ac - self.prophecy_base, bid)
        count = self.counts[rc, self.bid_face[said]]
        quantity = self.bid_quantity[said]
        stands = count >= quantity  # liar: the bid stands
        exact = count == quantity  # prophecy: the prophet was right
        caller_wins = np.where(prophecy, exact, ~stands)
        winner = np.where(caller_wins, caller, holder)
        loser = np.where(caller_wins, holder, caller)
        amount = np.where(prophecy & exact, self.payout, 1).astype(np.float32)
        returns = np.zeros((len(c), P), np.float32)
        i = np.arange(len(c))
        returns[i, winner] = amount
        returns[i, loser] = -amount
        return rc, returns

    # ---- tensors ----------------------------------------------------------------

    def _max_value(self, form):
        return max(1, self.setup.numdice)  # the hands count dice per face

    def _mover_rows(self):
        want = self.rows * self.num_players + self.mover
        if self._finished:
            want = np.where(self.terminated, -1, want)
        return 0, want

    def _seat_rows(self, player: int) -> np.ndarray:
        return self.rows * self.num_players + player

    def _store(self, form: str) -> Store:
        if form == "information_state":
            self._tensors()
            return self.info
        if self.obs is None:
            self.obs = Store(self.batch_size * self.num_players, self.obs_size, self.row_of)
            # What the observation shows, per row: -1 for none yet (see _observe).
            self.shown_bid = np.full(self.batch_size, -1, np.int64)
            self.shown_holder = np.full(self.batch_size, -1, np.int64)
            self.shown_mover = np.full(self.batch_size, -1, np.int64)
            self.shown_end = np.zeros(self.batch_size, bool)
            self._restart_obs(self.rows, self.hands)
        self._observe()
        return self.obs

    def _restart_obs(self, rows: np.ndarray, hands: np.ndarray) -> None:
        """Rows at the deal: each seat's one-hot and hand, nothing public yet."""
        P, S, Do = self.num_players, self.sides, self.obs_size
        blank = np.zeros((len(rows), P, Do), np.uint8)
        blank[:, np.arange(P), self.q_seat + np.arange(P)] = 1
        blank[:, :, self.q_hand : self.q_hand + S] = hands
        self.obs.array.reshape(self.batch_size, P, Do)[rows] = blank
        self.obs.restart(rows)
        self.shown_bid[rows] = -1
        self.shown_holder[rows] = -1
        self.shown_mover[rows] = -1
        self.shown_end[rows] = False

    def _observe(self) -> None:
        """Bring every seat's observation to the rows' public state now: the
        standing bid and its holder, the seat to move, the hands at the end
        (only the rows where one of them changed)."""
        P, S, Do, obs = self.num_players, self.sides, self.obs_size, self.obs
        seats = np.arange(P)
        q = np.flatnonzero(self.shown_bid != self.bid)  # a raise (bids only rise)
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
        q = np.flatnonzero(self.terminated & ~self.shown_end)
        if len(q):  # every hand, shown to all
            at = (q[:, None] * P + seats) * Do + self.q_shown  # (rows, P)
            shown = self.hands[q].reshape(len(q), 1, P * S)
            obs.write(at[:, :, None] + np.arange(P * S), np.broadcast_to(shown, (len(q), P, P * S)))
            self.shown_end[q] = True

    def _tensors(self) -> np.ndarray:
        """Every seat's information-state tensor, the decisions since the last read written."""
        P, D, NB = self.num_players, self.tensor_size, self.num_bids
        seats = np.arange(P)
        decisions = self.hpos - self.hstart - self.chance_len  # made so far, per row
        q = np.flatnonzero(self.t_decisions < decisions)
        while len(q):
            i = self.t_decisions[q]
            a = self.history.reshape(-1)[self.hstart[q] + self.chance_len + i]
            a = a.astype(np.int64)
            seat = i % P
            standing = self.t_standing[q]
            at = np.full(len(q), -1, np.int64)  # offset of the public 1.0 to write
            raised = a < NB
            at[raised] = self.o_bids + a[raised] * P + seat[raised]
            at[a == self.liar] = self.o_liar + seat[a == self.liar]
            if self.o_prophecies is not None:
                said = (a >= self.prophecy_base) & (a < self.prophecy_base + NB)
                at[said] = self.o_prophecies + (a[said] - self.prophecy_base) * P + seat[said]
            if self.o_passes is not None:
                passed = a == self.pass_action
                at[passed] = self.o_passes + standing[passed] * P + seat[passed]
            self.info.write(((q * P)[:, None] + seats) * D + at[:, None], 1)  # public: every seat
            self.t_standing[q] = np.where(raised, a, standing)
            self.t_decisions[q] = i + 1
            q = q[i + 1 < decisions[q]]
        q = np.flatnonzero(self.terminated & ~self.t_outcome)
        if len(q):
            S = self.sides
            shown = self.hands[q].reshape(len(q), 1, P * S)  # every hand, shown to all
            at = ((q * P)[:, None] + seats)[:, :, None] * D + self.o_shown + np.arange(P * S)
            self.info.write(at, np.broadcast_to(shown, (len(q), P, P * S)))
            self.t_outcome[q] = True
