"""Liar's Dice's batched heuristic (docs/batch.md#batched-bots): the scalar
`heuristic` bot of liars_dice/bots.py as a table of its decisions, keyed by
the view decoded from the mover's observation tensor (fair seats:
docs/bots.md#fair-seats; the table's mechanism is fogboard_games/batch/bots.py's)."""

from __future__ import annotations

from functools import partial

import numpy as np

from fogboard_games.batch.bots import BatchBot, Table
from fogboard_games.batch.env import Env
from fogboard_games.liars_dice import rules as ld_rules
from fogboard_games.liars_dice.bots import (
    EPS,
    PROPHECY_AT,
    LiarsDiceHeuristic,
    SeatView,
    at_least,
    exactly,
    face_chance,
)


class LiarsDiceBatchBot(BatchBot):
    """The Liar's Dice heuristic: a table of its decisions, keyed by the view.

    A row's key is one int64 (`_decode`): hand code (dice per face, radix
    D + 1), dice in play, standing bid + 1, then three bits: choosing keep
    or reroll, a reroll legal, the mover holds the standing bid. The keys a
    step meets first are filled then, all at once (`_bids`, and the scalar
    `choose_reroll` for the few keep-or-reroll keys).
    """

    kind = "heuristic"

    def __init__(self, env: Env, seed=None):
        super().__init__(env, seed)
        game = env.game
        s = self.setup = game.setup
        self.scalar = LiarsDiceHeuristic(game, 0)  # its decision code, not its state
        S, D, T, NB = s.sides, s.numdice, s.total, s.num_bids
        obs = game.obs_layout
        self.at_hand, self.at_bid = obs.offset["hand"], obs.offset["standing_bid"]
        self.at_holder, self.at_seat = obs.offset["holder"], obs.offset["seat"]
        self.at_counts = None if s.chips else obs.offset["dice_counts"]
        self.radix = (D + 1, T + 1, NB + 1)
        self.hand_radix = (D + 1) ** np.arange(S)
        self.table = Table()
        # The scalar bot's odds, from its own functions (stand_chance and
        # exact_chance read them): [unseen dice, face - 1, Q - own count + D].
        faces, needs = range(1, S + 1), range(-D, T + 1)
        cells = [(u, face_chance(s, f), k) for u in range(T + 1) for f in faces for k in needs]
        shape = (T + 1, S, len(needs))
        self.stand = np.array([at_least(*cell) for cell in cells]).reshape(shape)
        self.exact = np.array([exactly(*cell) for cell in cells]).reshape(shape)
        self.quantity = np.array(s.bid_quantity, np.int64)
        self.face = np.array(s.bid_face, np.int64) - 1
        # own[f] = counts @ wilds[:, f]: the dice counting for face f + 1.
        self.wilds = np.eye(S, dtype=np.int64)
        if s.wild_face:
            self.wilds[s.wild_face - 1] = 1

    def _choose(self, state, running: np.ndarray) -> np.ndarray:
        key = self._decode(self._by_mover(state, "observation"))
        mask = state.legal_action_mask
        s = self.setup
        if s.rerolls:
            key += mask[:, s.keep] * 4 + mask[:, s.reroll] * 2
        return self.table.actions(key, running, partial(self._fill, mask), self.rng)[0]

    def _decode(self, obs):
        """(B,) int64 keys of the movers' observation tensors, the two bits the legal
        mask gives left 0 (`_choose`); the one-hot pieces are read by argmax (the bid
        where it is set: argmax reads 0 in a row of zeros)."""
        s = self.setup
        D1, T1, NB1 = self.radix
        hand = obs[:, self.at_hand : self.at_hand + s.sides]
        code = (hand @ self.hand_radix.astype(np.float32)).astype(np.int64)  # (< 6 ** 6: exact)
        in_play = s.total
        if self.at_counts is not None:
            counts = obs[:, self.at_counts : self.at_counts + s.players * D1]
            in_play = counts.reshape(len(obs), s.players, D1).argmax(axis=2).sum(axis=1)
        bids = obs[:, self.at_bid : self.at_bid + s.num_bids]
        bid = bids.argmax(axis=1)
        bid1 = np.where(bids[np.arange(len(obs)), bid] > 0, bid + 1, 0)
        holder = obs[:, self.at_holder : self.at_holder + s.players]
        seat = obs[:, self.at_seat : self.at_seat + s.players]
        holds = (holder * seat).sum(axis=1) > 0  # (the mover holds the standing bid)
        return ((code * T1 + in_play) * NB1 + bid1) * 8 + holds

    def _fill(self, mask, new, rows):
        """The decisions of new keys, given the legal mask and a row that has
        each: (values, tied sets). The rules make the mask a function of the
        key (dice in play, standing bid, holds; or the choice and a reroll
        left), so any row with the key has the same one."""
        s = self.setup
        legal = np.ascontiguousarray(mask[rows])  # (a row for each key)
        D1, T1, NB1 = self.radix
        rest = new >> 3
        bid = rest % NB1 - 1
        in_play = rest // NB1 % T1
        counts = (rest // NB1 // T1)[:, None] // self.hand_radix % D1  # (M, S)
        value = np.zeros(len(new), np.int64)
        b = (new >> 2 & 1) == 0  # the keys of bids, not of keep or reroll (_bids takes none too)
        value[b], sets = self._bids(counts[b], in_play[b], bid[b], legal[b])
        for i in np.flatnonzero(~b).tolist():  # a hand's keep or reroll: few keys
            hand = tuple(f for f, c in enumerate(counts[i].tolist(), 1) for _ in range(c))
            view = SeatView(s, 0, ld_rules.CHOOSING, hand, int(in_play[i]), -1)
            value[i] = self.scalar.choose_reroll(view, np.flatnonzero(legal[i]).tolist())
        return value, sets

    def _bids(self, counts, in_play, bid, legal):
        """`LiarsDiceHeuristic.choose_bidding`, step for step, for M views at
        once: (M,) actions (-1 - k for the k-th tied set) and the tied sets.
        The odds are the scalar bot's own numbers, so every comparison comes
        out as its does."""
        s = self.setup
        NB, D = s.num_bids, s.numdice
        u = (in_play - counts.sum(axis=1))[:, None]  # the unseen dice
        own = counts @ self.wilds  # (M, S): the seat's dice counting for each face
        need = self.quantity - own[:, self.face] + D  # (M, NB)
        odds = self.stand[u, self.face, need]
        raises = legal[:, :NB]
        has_raise = raises.any(axis=1)
        best = np.where(raises, odds, -1.0).max(axis=1)  # (-1 without a raise: odds >= 0)
        # The highest of the most likely bids.
        top_bids = raises & (odds >= (best - EPS)[:, None])
        best_raise = NB - 1 - top_bids[:, ::-1].argmax(axis=1)
        liar_ok = legal[:, s.liar]
        action = np.where(has_raise, best_raise, legal.argmax(axis=1))
        stand = odds[np.arange(len(bid)), np.maximum(bid, 0)]  # (odds has the standing bid's too)
        liar_value = 1 - 2 * stand
        call = liar_ok & (~has_raise | (stand < 0.5) | (1 - stand > best))
        passing = ~call & liar_ok & (best < 0.5)
        if s.allow_pass:
            passing &= legal[:, s.pass_action]
            action = np.where(passing, s.pass_action, action)
        action = np.where(call, s.liar, action)
        sets = []
        if s.prophecy:
            props = legal[:, s.prophecy_base : s.prophecy_base + NB]
            exact = self.exact[u, self.face, need]
            top = np.where(props, exact, -np.inf).max(axis=1)
            prophesy = liar_ok & (top >= PROPHECY_AT)  # (top -inf without one)
            prophesy &= s.payout * top - (1 - top) > liar_value
            for i in np.flatnonzero(prophesy).tolist():
                tie = np.flatnonzero(props[i] & (exact[i] >= top[i] - EPS)) + s.prophecy_base
                if len(tie) == 1:
                    action[i] = tie[0]
                else:
                    action[i] = -1 - len(sets)
                    sets.append(tie.tolist())
        return action, sets
