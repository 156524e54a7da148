"""One-round Liar's Dice's game tree laid out by numpy (docs/solving.md#the-factored-road).

In chips mode without rerolls every chance node comes first (the deal), and
the bidding after it never reads the dice (docs/liars_dice.md#rules): its
movers, legal actions and order of children are the same under every deal,
and only the ends' returns and each seat's information states differ. So the
tree is the deals times one public bidding tree: the deal and the bidding
are walked once each through the contract, on one deal, and the arrays of
the whole tree are tiled from them in the order and numbering of the generic
walk (solve.Tree's), which tests/test_solve_factored.py checks array by array.
This is the ruleset's `tree_arrays` hook; every other configuration returns
None and solve.Tree walks it.
"""

from __future__ import annotations

import numpy as np

from fogboard_games.core.contract import CHANCE, TERMINAL
from fogboard_games.liars_dice import rules


def tree_arrays(setup: rules.Setup, limit: int) -> dict | None:
    """The raw arrays of the whole tree in the generic walk's depth-first
    order (see solve.Tree and docs/solving.md#the-factored-road), or None if
    this configuration does not factor (dice mode, rerolls). ValueError if
    the tree has more than `limit` histories, before its arrays are made."""
    if not setup.chips or setup.rerolls:
        return None
    deal = _deal(setup.new_match())
    if deal is None:
        return None
    chance_nodes, deals = len(deal["chance_parent"]), len(deal["leaves"])
    public = _bidding(deal["leaves"][0], limit, chance_nodes, deals)
    if public is None:
        return None
    return _tile(setup, deal, public)


def _deal(root: rules.Match) -> dict | None:
    """The chance tree of the deal, depth first through the contract: each
    chance node's parent, action, edge probability and depth (in the order
    the walk meets them), and the match at each deal's first decision."""
    out = {
        "chance_parent": [],
        "chance_action": [],
        "chance_prob": [],
        "chance_depth": [],
        "chance_order": [],  # each chance node's rank among the deal's nodes, leaves included
        "leaves": [],
        "leaf_parent": [],
        "leaf_action": [],
        "leaf_prob": [],
        "leaf_order": [],
    }
    order = [0]  # nodes met so far, chance nodes and leaves

    def visit(m, parent, action, prob, depth) -> bool:
        rank = order[0]
        order[0] += 1
        if m.mover >= 0:
            out["leaves"].append(m)
            out["leaf_parent"].append(parent)
            out["leaf_action"].append(action)
            out["leaf_prob"].append(prob)
            out["leaf_order"].append(rank)
            return True
        if m.mover != CHANCE:  # (an end before any decision: not this game's shape)
            return False
        n = len(out["chance_parent"])
        out["chance_parent"].append(parent)
        out["chance_action"].append(action)
        out["chance_prob"].append(prob)
        out["chance_depth"].append(depth)
        out["chance_order"].append(rank)
        for a, p in m.odds:
            c = m.copy()
            c.play(a)
            if not visit(c, n, a, p, depth + 1):
                return False
        return True

    if not visit(root, -1, -1, 1.0, 0):
        return None
    first = out["leaves"][0]
    if any(m.mover != first.mover or m.options != first.options for m in out["leaves"]):
        return None
    return out


def _bidding(m: rules.Match, limit: int, chance_nodes: int, deals: int) -> dict | None:
    """The public bidding tree under one deal, depth first through the
    contract: per node its mover (TERMINAL at an end), parent, action and
    depth; per decision its legal actions; per end its showdown. None if a
    chance node follows the deal (the tree does not factor)."""
    mover, parent, action, depth, legal, showdowns = [], [], [], [], [], []
    stack = [(m, -1, -1, 0)]
    while stack:
        m, up, a, d = stack.pop()
        n = len(mover)
        parent.append(up)
        action.append(a)
        depth.append(d)
        if m.mover == TERMINAL:
            mover.append(TERMINAL)
            showdowns.append(m.showdowns[-1])
            continue
        if m.mover < 0:
            return None
        if chance_nodes + deals * n >= limit:
            raise ValueError(
                f"more than {limit:.3g} histories ({deals} deals, each over at least "
                f"{n} bidding histories): beyond the memory bound; pass a larger max_bytes"
            )
        mover.append(m.mover)
        options = tuple(m.options)
        legal.append(options)
        # Children pushed last first, so they are visited in order (depth first).
        for b in reversed(options):
            c = m.copy()
            c.play(b)
            stack.append((c, n, b, d + 1))
    return {
        "mover": np.array(mover, dtype=np.int64),
        "parent": np.array(parent, dtype=np.int64),
        "action": np.array(action, dtype=np.int64),
        "depth": np.array(depth, dtype=np.int64),
        "legal": legal,
        "showdowns": showdowns,
    }


def _tile(setup: rules.Setup, deal: dict, public: dict) -> dict:
    players = setup.players
    encoder = setup.encoder
    leaves = deal["leaves"]
    deals = len(leaves)
    size = len(public["mover"])  # public histories
    # Where each chance node and each deal's bidding tree starts in the walk's
    # order: a chance node takes one place, a deal's bidding tree `size`.
    chance_order = np.array(deal["chance_order"], dtype=np.int64)
    leaf_order = np.array(deal["leaf_order"], dtype=np.int64)
    leaves_before = np.searchsorted(leaf_order, chance_order)
    chance_at = chance_order + leaves_before * (size - 1)
    start = leaf_order + np.arange(deals) * (size - 1)
    total = len(chance_at) + deals * size

    # Each seat's infosets: a seat at a decision knows its own dice (its
    # information state at the first decision) and the public history, so its
    # infoset is (what it saw of the deal, its own decision in the bidding
    # tree), numbered as the walk first meets them: deal by deal, the deals
    # with a view the seat had not seen before, each with the bidding tree in
    # its depth-first order. Ids are grouped by seat, seat 0's first.
    mover = public["mover"]
    decision = mover >= 0
    seat_at = np.where(decision, mover, 0)
    own = np.zeros(size, dtype=np.int64)  # the decision's rank among its seat's
    own_nodes = []  # per seat: the bidding histories where it decides
    for p in range(players):
        nodes = np.flatnonzero(mover == p)
        own[nodes] = np.arange(len(nodes))
        own_nodes.append(nodes)
    view = np.zeros((deals, players), dtype=np.int64)  # each deal's view rank per seat
    first_deal = []  # per seat: the first deal of each view
    for p in range(players):
        seen: dict[str, int] = {}
        firsts = []
        for k, leaf in enumerate(leaves):
            key = encoder.info_state_string(leaf, p)
            rank = seen.get(key)
            if rank is None:
                rank = seen[key] = len(firsts)
                firsts.append(k)
            view[k, p] = rank
        first_deal.append(np.array(firsts, dtype=np.int64))
    per_view = np.array([len(nodes) for nodes in own_nodes], dtype=np.int64)
    counts = per_view * np.array([len(f) for f in first_deal], dtype=np.int64)
    base = np.concatenate([[0], np.cumsum(counts)])[:players]
    block_code = np.where(
        decision[None, :],
        base[seat_at][None, :] + view[:, seat_at] * per_view[seat_at][None, :] + own[None, :],
        TERMINAL,
    )
    infoset_seat = np.repeat(np.arange(players), counts)
    infoset_node = np.concatenate(
        [(start[first_deal[p]][:, None] + own_nodes[p][None, :]).ravel() for p in range(players)]
    ).astype(np.int64)
    # (the bidding tree's legal actions are listed per decision, in its order)
    deciders = mover[decision]
    infoset_legal = []
    for p in range(players):
        own_legal = [public["legal"][j] for j in np.flatnonzero(deciders == p)]
        infoset_legal += own_legal * len(first_deal[p])

    # The nodes: the chance nodes at their places, each deal's tree tiled at its own.
    code = np.empty(total, dtype=np.int64)
    parent = np.empty(total, dtype=np.int64)
    action = np.empty(total, dtype=np.int64)
    prob = np.ones(total, dtype=np.float64)
    depth = np.empty(total, dtype=np.int64)
    code[chance_at] = CHANCE
    chance_parent = np.array(deal["chance_parent"], dtype=np.int64)
    parent[chance_at] = np.where(chance_parent >= 0, chance_at[np.maximum(chance_parent, 0)], -1)
    action[chance_at] = deal["chance_action"]
    prob[chance_at] = deal["chance_prob"]
    depth[chance_at] = deal["chance_depth"]
    blocks = (start[:, None] + np.arange(size)[None, :]).ravel()
    code[blocks] = block_code.ravel()
    inner = np.broadcast_to(start[:, None] + public["parent"][None, :], (deals, size)).copy()
    inner[:, 0] = chance_at[np.array(deal["leaf_parent"], dtype=np.int64)]
    parent[blocks] = inner.ravel()
    inner = np.broadcast_to(public["action"], (deals, size)).copy()
    inner[:, 0] = deal["leaf_action"]
    action[blocks] = inner.ravel()
    prob[start] = deal["leaf_prob"]
    leaf_depth = np.array(deal["chance_depth"], dtype=np.int64)[deal["leaf_parent"]] + 1
    depth[blocks] = (leaf_depth[:, None] + public["depth"][None, :]).ravel()
    return {
        "code": code,
        "parent": parent,
        "action": action,
        "chance_prob": prob,
        "depth": depth,
        "utility": _returns(setup, leaves, public["showdowns"]),
        "infoset_seat": infoset_seat,
        "infoset_legal": infoset_legal,
        "infoset_node": infoset_node,
    }


def _returns(setup: rules.Setup, leaves: list, showdowns: list) -> np.ndarray:
    """Each (deal, end)'s returns, deal by deal, in the bidding tree's order
    of its ends: shape (deals * ends, players).

    A call's outcome depends on the deal only through the count of the
    called face (the rules' `Setup.count`, per deal and face): `liar` leaves
    the bid standing if count >= Q, `prophecy QxF` is exact if count == Q
    (docs/liars_dice.md#rules, as Match._call_liar and Match._decide settle
    them); each outcome pays the rules' own `chip_returns` row.
    """
    faces = range(1, setup.sides + 1)
    counts = np.array([[setup.count(m.hands, f) for f in faces] for m in leaves], dtype=np.int64)
    if not showdowns:
        return np.zeros((0, setup.players))
    face, quantity, exact, upheld, failed = [], [], [], [], []
    table = setup.chip_returns  # [loser][winner][amount]
    for s in showdowns:
        if s.call == "liar":  # the bid stands: its holder wins 1 from the caller
            face.append(setup.bid_face[s.bid])
            quantity.append(setup.bid_quantity[s.bid])
            exact.append(False)
            upheld.append(table[s.caller][s.holder][1])
            failed.append(table[s.holder][s.caller][1])
        else:  # an exact prophecy wins the payout from the holder, else pays 1
            face.append(setup.bid_face[s.said])
            quantity.append(setup.bid_quantity[s.said])
            exact.append(True)
            upheld.append(table[s.holder][s.caller][setup.payout])
            failed.append(table[s.caller][s.holder][1])
    count = counts[:, np.array(face, dtype=np.int64) - 1]  # (deals, ends)
    quantity = np.array(quantity, dtype=np.int64)[None, :]
    holds = np.where(np.array(exact)[None, :], count == quantity, count >= quantity)
    rows = np.where(holds[:, :, None], np.array(upheld)[None], np.array(failed)[None])
    return rows.reshape(-1, setup.players)
