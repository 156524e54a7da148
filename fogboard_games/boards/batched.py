"""Batched Fog-of-War boards: phantom tic-tac-toe, dark hex, recon hex (docs/batch.md),
as compiled per-row kernels (fogboard_games.jit).

A row is one game kept as rules.Match keeps a state: the true board, a hex
seat's stones as bit sets (loose, joined to each edge), the cells each seat
knows (a bitset), the mover, the ply counts and the sense under way.
`_play_rows` does for each row what Match.play does for one state; once a
kind of tensor has been read, `_write_rows` writes what the ply changed into
both seats' tensors of that kind, which a replay of the rows' histories built
at that first read (docs/batch.md#how-the-boards-are-kept).
"""

from __future__ import annotations

import numpy as np

from fogboard_games.batch.env import Env
from fogboard_games.boards import rules
from fogboard_games.jit import inline, kernel

UNKNOWN, OWN, PROVEN = rules.UNKNOWN, rules.OWN, rules.PROVEN
# A row's cells (`grid`, int8 (B, C)): the true board (rules' EMPTY / X_STONE /
# O_STONE). `chains` (uint64 (B, 2, 3 W)): per seat its stones joined to neither
# edge (loose: all of them in tic-tac-toe), to its first edge, to its far edge,
# each as W words as `known` keeps sets (cell c is bit c & 63 of word c >> 6).
LOOSE = 0
# A row's record (`rec`, int16): plies made (a recon ply is a sense and an
# attempt), each seat's own plies, the anchor sensed in the ply under way (-1:
# none: a recon seat's next decision is its sense), the seat of the last
# action, and `flip`: seat p's tensors are in slot p ^ flip.
PLIES, OWN0, OWN1, SENSED, LAST, FLIP = range(6)
# The game's facts (`spec`): cells, actions, abrupt, the ply cap,
# sense block cells (0: no sense), files, then the tensors' offsets (-1: absent).
CELLS, ACTIONS, ABRUPT, CAP, BLOCK, FILES = range(6)
INFO_PIECES = ("board", "attempts", "results", "senses", "sensed", "ply_movers", "outcome")
OBS_PIECES = ("board", "seen_empty_age", "sensed_now", "ply_count", "outcome")
I_BOARD, I_ATTEMPTS, I_RESULTS, I_SENSES, I_SENSED, I_MOVERS, I_OUTCOME = range(6, 13)
O_BOARD, O_AGE, O_NOW, O_COUNT, O_OUTCOME = range(13, 18)
# What an action brought (`_play_rows`): 0 the game goes on, else 1 + the
# outcome entry (seat 0 won, drawn, seat 1 won), RETURNS by that code; CAPPED
# at the ply cap, until the true distToWin decides.
RETURNS = np.array([[0, 0], [1, -1], [0, 0], [-1, 1], [0, 0]], np.float32)
CAPPED = 4
NO_HAND = np.zeros((0, 1), np.uint8)  # (a hand not made yet: never shown, never written)


class Boards(Env):
    """A batch of one board game (fogboard_phantom_ttt, _dark_hex or _recon_hex)."""

    TABLES = ("spec", "wins", "sides", "blocks", "blank", "obs_blank", "kind")

    def _configure(self, game) -> None:
        geo = self.geo = game.setup
        self.num_players = 2
        self.num_actions = geo.num_actions
        self.tensor_size = game.info_layout.size
        self.obs_size = game.obs_layout.size
        self.max_history = geo.max_game_length
        # Imperfect recall (docs/boards.md#imperfect-recall): the information state is
        self.forgets = geo.imperfect_recall  # the observation's board piece (its tensors)
        # Abrupt without a sense: every ply passes the turn in every row (`slot`).
        self.always_passes = geo.abrupt and not geo.sense

    def _build(self) -> None:
        geo, game, B, C = self.geo, self.game, self.batch_size, self.geo.cells
        cap = geo.max_plies if geo.max_plies < 2 * C - 1 else 2 * C  # (binds below that)
        info = {} if self.forgets else game.info_layout.offset  # (see _tensors)
        offsets = [info.get(p, -1) for p in INFO_PIECES]
        offsets += [game.obs_layout.offset.get(p, -1) for p in OBS_PIECES]
        self.spec = np.array([C, self.num_actions, geo.abrupt, cap, geo.sense**2, geo.files, *offsets])  # fmt: skip
        # wins[s] (tic-tac-toe): the stone set s holds a line (one load, where a
        # check of the lines through the stone loads its cells). sides (hex, two-word
        # sets): the cells off the first file, off the last (a shift along a rank
        # must not wrap), each seat's two edges.
        lines = geo.line_bits if geo.is_ttt else ()
        self.wins = np.array([any(s & m == m for m in lines) for s in range(1 << C if lines else 1)])  # fmt: skip
        f, edges = np.arange(C) % geo.files, ((0,) * C,) * 2 if geo.is_ttt else geo.edges
        on = np.zeros((6, 128), bool)
        on[:, :C] = [f > 0, f < geo.files - 1, *(np.array(e) >> i & 1 for e in edges for i in (0, 1))]  # fmt: skip
        self.sides = np.packbits(on, 1, bitorder="little").view(np.uint64)
        self.blocks = np.array(geo.blocks or [[0]], np.int16)
        # What this kind of board has, else None (the win table, the sense blocks, a
        # second word a set): numba compiles each kind its own rules, without the
        # others' branches (5 to 8% of a step on the small boards).
        wide = True if C > 64 else None
        self.kind = (self.wins if geo.is_ttt else None, self.blocks if geo.sense else None, wide)
        # Each form's tensor at the start (every cell unknown, no ply yet), as encoded.
        start = game.new_initial_state()
        self.blank = np.array(start.information_state_tensor(0), np.uint8)
        self.obs_blank = np.array(start.observation_tensor(0), np.uint8)
        self.grid = np.zeros((B, C), np.int8)
        self.chains = np.zeros((B, 2, 3 * -(-C // 64)), np.uint64)
        # known[p, w, b]: bit i of word w, the cells seat p knows (rules' view other
        # than UNKNOWN), across rows as the legal mask: a restart clears a word or two.
        self.known = np.zeros((2, -(-C // 64), B), np.uint64)
        self.rec = np.zeros((B, 6), np.int16)
        self.mover = np.zeros(B, np.int64)  # 0 or 1 (the last mover in finished rows)
        # Tensors, once read: kept[f] = (store, shown) per form f (0: the information
        # state, 1: the observation): a uint8 store of both seats' (seat p of row b at
        # store row (p ^ flip) * B + b), and the store row shown[h, b] that row b of hand
        # h (hands[2 f + h], in the dtype, as uint8 if bool, made at its first read)
        # shows (-1: zeros, -2: to copy at the next read), written by the steps with the
        # store; under always_passes the movers' are slot `slot` of every row, a hand a
        # slot. Under imperfect recall the information state's hands show the
        # observation's columns (no step writes them: a read copies them whole).
        self.kept, self.hands = [None, None], [NO_HAND] * 4
        self.slot = 0

    @property
    def tracking(self) -> bool:
        """Some form's tensors are kept (made at its first read; before it a step
        writes no tensor)."""
        return self.kept != [None, None]

    # ---- restart and play ---------------------------------------------------------

    def _restart(self, rows: np.ndarray, slot=None) -> None:
        """The rows at their start, their kept tensors blank (the hands copy them at
        the next read), the movers' in slot `slot` (-1: where they were)."""
        slot, B = self.slot if slot is None else slot, self.batch_size
        _restart_rows(rows, self.grid, self.chains, self.known, self.rec, self.mover, slot)
        for kept, blank in zip(self.kept, (self.blank, self.obs_blank)):
            if kept:  # (plain play: none)
                kept[0][rows] = kept[0][B + rows] = blank
                kept[1][:, rows] = -2

    def _legal_mask(self) -> np.ndarray:
        """(B, A) bool, a transposed view of an (A, B) array: per action, every row
        (so a reduction over the actions runs across rows, the fast way)."""
        mask = np.empty((self.num_actions, self.batch_size), bool)
        _legal_rows(self.known, self.mover, self.rec, self.terminated, self.spec, mask)
        return mask.T

    def _play(self, acts: np.ndarray, active):
        B, live = self.batch_size, active
        ending, rewards = np.zeros(B, np.int8), np.zeros((B, 2), np.float32)
        ends = self._rules(acts, live, ending, rewards)
        if self.always_passes and self._sitting:
            # The rows sitting a step out exchange their seats' store rows (and the
            # hands' shown rows: b <-> B + b), so their mover's is in the next step's slot.
            idle = np.flatnonzero(~live & ~self.terminated)
            self.rec[idle, FLIP] ^= 1
            for store, shown in filter(None, self.kept):
                store[idle], store[B + idle] = store[B + idle], store[idle]
                was = shown[:, idle]
                shown[:, idle] = np.where(was >= 0, B + 2 * idle - was, was)
        if self.always_passes:
            self.slot ^= 1
        return (ending, rewards) if ends else (None, None)  # (ending: nonzero where ended)

    def _rules(self, acts, live, ending, rewards) -> int:
        """The rules of the rows' (checked) actions (`_play_rows`; the cap's distToWin
        here), then the kept forms' tensors written: the count of rows ended. (A ply's
        record for the writes is kept only when some are: `_replay` remakes it.)"""
        rows = (self.grid, self.chains, self.known, self.rec, self.mover, self.spec, self.sides)
        keeping = True if self.tracking else None
        ends, capped = _play_rows(acts, live, *rows, ending, rewards, *self.kind, keeping)
        for b in np.flatnonzero(ending == CAPPED).tolist() if capped else ():  # (rare: row by row)
            board = self.grid[b].tolist()  # (rules' EMPTY / X_STONE / O_STONE)
            d0, d1 = (rules.dist_to_win(self.geo, board, p, p + 1, 2 - p) for p in (0, 1))
            ending[b] = 1 if d0 < d1 else 3 if d1 < d0 else 2
            rewards[b] = RETURNS[ending[b]]
        for f, kept in enumerate(self.kept):
            if kept:
                facts = (self.grid, self.rec, self.spec, self.blocks, kept[0])
                _write_rows(acts, live, ending, *facts, *self.hands[2 * f : 2 * f + 2], kept[1], f)
        return ends

    # ---- tensors ------------------------------------------------------------------

    def _tensors(self, form: str) -> np.ndarray:
        """The form's store of both seats' tensors (its columns under imperfect
        recall), made and filled at the first read of any tensor of the form."""
        f = 0 if form == "information_state" and not self.forgets else 1
        if self.kept[f] is None:
            B, width = self.batch_size, (self.tensor_size, self.obs_size)[f]
            store, shown = np.zeros((2 * B, width), np.uint8), np.full((2, B), -2, np.int32)
            self.kept[f] = (store, shown)
            self._replay()
        store = self.kept[f][0]
        if form == "information_state" and self.forgets:
            lo = self.spec[O_BOARD]
            store = store[:, lo : lo + self.tensor_size]
        return store

    def _replay(self) -> None:
        """Every row played again from its start, ply by ply, with the kept tensors
        written (blank first): it ends as it was, with those tensors made."""
        length, B = self.history_len, self.batch_size
        self._restart(self.rows, -1)
        for k in range(int(length.max())):
            acts, live = self.history[:, k].astype(np.int64), length > k
            ending = np.zeros(B, np.int8)
            self._rules(acts, live, ending, np.zeros((B, 2), np.float32))

    def _seat_tensors(self, form: str, seats: np.ndarray) -> np.ndarray:
        rows = (self.rec[:, FLIP] ^ seats).astype(np.int64) * self.batch_size + self.rows
        return self._tensors(form).take(rows, axis=0)

    def _mover_tensor(self) -> np.ndarray:
        """The movers' tensors in a kept hand (slot `slot`'s under always_passes),
        brought up to date by `_hand_out`."""
        store, h = self._tensors(self.form), self.slot if self.always_passes else 0
        f = 0 if self.form == "information_state" else 1
        kept = self.kept[f]  # (None under imperfect recall: a hand copied whole at every read)
        shown = kept[1][h] if kept else np.full(self.batch_size, -2, np.int32)
        if self.hands[2 * f + h] is NO_HAND:
            hand = np.zeros((self.batch_size, store.shape[1]), self.dtype)
            self.hands[2 * f + h] = hand.view(np.uint8) if hand.dtype == bool else hand
        hand = self.hands[2 * f + h]
        _hand_out(store, hand, shown, self.mover, self.rec, self.terminated)
        view = hand.view(self.dtype)
        view.flags.writeable = False
        return view


# ---- the kernels: each loops over the rows (Python never calls one per row)


@kernel
def _restart_rows(index, grid, chains, known, rec, mover, slot):
    """The rows at the start of a game: no stone, nothing known, seat 0 to move,
    its tensors in slot `slot` (-1: where they were)."""
    for b in index:
        flip = rec[b, FLIP] if slot < 0 else slot
        grid[b, :], chains[b], known[:, :, b], rec[b, :] = 0, 0, 0, 0
        rec[b, SENSED], rec[b, FLIP], mover[b] = -1, flip, 0


@kernel
def _legal_rows(known, mover, rec, terminated, spec, mask):
    """mask (A, B): the cells the movers do not know, or the senses at a recon sense
    step, across rows in bytes through one-dimensional rows (vectorized): the movers'
    unknown cells (none where no attempt) cut into bytes, a cell a bit of its byte.
    (Selects by arithmetic and explicit loops: numba vectorizes neither a branch
    nor a slice assignment, which it runs an entry at a time.)"""
    C, A, K, B = spec[CELLS], spec[ACTIONS], spec[BLOCK], len(mover)
    out, sensing = mask.view(np.uint8), np.zeros(B, np.uint8)
    words, free = np.empty(B, np.uint64), np.empty(B, np.uint8)
    for b in range(B if K else 0):
        sensing[b] = (rec[b, SENSED] < 0) & (not terminated[b])
    for w in range(known.shape[1]):
        k0, k1 = known[0, w], known[1, w]
        for b in range(B):  # (`live`: all ones in a row that attempts, else zeros)
            live = np.uint64(0) - np.uint64(not (terminated[b] | sensing[b]))
            words[b] = ~(k0[b] ^ (k0[b] ^ k1[b]) & np.uint64(0) - np.uint64(mover[b])) & live
        for c0 in range(64 * w, min(C, 64 * w + 64), 8):
            shift = np.uint64(c0 & 63)
            for b in range(B):
                free[b] = np.uint8(words[b] >> shift)
            for c in range(c0, min(C, c0 + 8)):
                bit, entries = np.uint8(1 << (c & 7)), out[c]
                for b in range(B):
                    entries[b] = np.uint8(free[b] & bit) != 0
    for a in range(C, A):
        entries = out[a]
        for b in range(B):
            entries[b] = sensing[b]


@kernel
def _flood(n0, n1, loose0, loose1, wide, files, inner0, inner1, outer0, outer1):
    """Hex: the chain of stone n in `loose`, flooded with shifts (a few rounds:
    loose chains are short), and it with its neighbours; `inner`, `outer`: the
    cells off the first file, off the last. On a board of up to 64 cells (not
    `wide`: the second words empty) one word is flooded, half the shifts a
    round. (Scalars: no array to count.)"""
    one, s63, fn = np.uint64(1), np.uint64(63), np.uint64(files)
    f1, f63, fn64 = fn - one, np.uint64(65) - fn, np.uint64(64) - fn
    while not wide:  # (one word: its shifts along a rank and a diagonal stay in it)
        g = n0 | n0 << fn | n0 >> fn | (n0 << one | n0 >> f1) & inner0
        g |= (n0 >> one | n0 << f1) & outer0
        if g & loose0 == n0:
            return n0, n1, g, n1
        n0 = g & loose0
    while True:  # (ranks are `files` bits apart; diagonals files - 1)
        up0, up1, dn0, dn1 = n0 << f1, n1 << f1 | n0 >> f63, n0 >> f1 | n1 << f63, n1 >> f1
        g0 = n0 | n0 << fn | n0 >> fn | n1 << fn64 | (n0 << one | dn0) & inner0
        g1 = n1 | n1 << fn | n1 >> fn | n0 >> fn64 | (n1 << one | n0 >> s63 | dn1) & inner1
        g0 |= (n0 >> one | n1 << s63 | up0) & outer0
        g1 |= (n1 >> one | up1) & outer1
        if (g0 & loose0 == n0) & (g1 & loose1 == n1):
            return n0, n1, g0, g1
        n0, n1 = g0 & loose0, g1 & loose1


@inline
def _join(k, b, p, n0, n1, sides, walls) -> bool:
    """Hex: the new stone n's chain, flooded through seat p's loose stones (k[b, p],
    as `chains` keeps them), joins an edge if a stone of it is on it (`sides`)
    or next to a stone joined to it, else stays loose; whether it joined both.
    (Inlined: a call would pass its tuples through memory.)"""
    one = np.uint64(1)  # (p is unsigned, and so its sides' rows: see _play_rows)
    e = one + one + (p << one)
    if not walls[0]:  # (up to 64 cells: a word a set, half the row's cache line)
        loose, first, far = k[b, p, 0] | n0, k[b, p, 1], k[b, p, 2]
        n, _, g, _ = _flood(n0, n1, loose, n1, *walls)
        on, to = g & first | n & sides[e, 0] != 0, g & far | n & sides[e + one, 0] != 0
        k[b, p, 0] = loose ^ n * np.uint64(on | to)
        k[b, p, 1], k[b, p, 2] = first | n * np.uint64(on), far | n * np.uint64(to)
        return on & to
    loose0, loose1, first0, first1, far0, far1 = k[b, p, 0], k[b, p, 1], k[b, p, 2], k[b, p, 3], k[b, p, 4], k[b, p, 5]  # fmt: skip
    loose0, loose1 = loose0 | n0, loose1 | n1
    n0, n1, g0, g1 = _flood(n0, n1, loose0, loose1, *walls)
    first = g0 & first0 | g1 & first1 | n0 & sides[e, 0] | n1 & sides[e, 1] != 0
    far = g0 & far0 | g1 & far1 | n0 & sides[e + one, 0] | n1 & sides[e + one, 1] != 0
    on, to, joined = np.uint64(first), np.uint64(far), np.uint64(first | far)
    k[b, p, 0], k[b, p, 1] = loose0 ^ n0 * joined, loose1 ^ n1 * joined
    k[b, p, 2], k[b, p, 3] = first0 | n0 * on, first1 | n1 * on
    k[b, p, 4], k[b, p, 5] = far0 | n0 * to, far1 | n1 * to
    return first & far


@kernel
def _play_rows(
    acts, live, grid, chains, known, rec, mover, spec, sides, ending, paid, wins, blocks, wide, kept
):
    """Each playing row's (checked) action, as rules.Match.play: a sense (opponent
    stones in the anchor's block proven), or an attempt (a stone placed, or an
    opponent stone proven), its ending (a line through the stone, hex's edges
    joined (`_join`), the full board, the ply cap: CAPPED for Boards._rules; 1 +
    the outcome entry, RETURNS, in `ending`, and `paid`) and the turn; the
    counts of rows ended and capped. (One loop: docs/batch.md#where-the-time-goes.)
    `wins`, `blocks`, `wide`: None where the board has none (Boards.kind); `kept`:
    None where no tensor is kept (the writes' record, LAST and OWN, left as it is)."""
    # The facts in locals: numba cannot tell the stores below from `spec`'s entries.
    C, K, abrupt, cap, files = spec[CELLS], spec[BLOCK], spec[ABRUPT], spec[CAP], spec[FILES]
    count, capped, one, wide = 0, 0, np.uint64(1), wide is not None
    board = (one << np.uint64(C & 63)) - one  # (every cell: tic-tac-toe's full board)
    walls = wide, files, sides[0, 0], sides[0, 1], sides[1, 0], sides[1, 1]  # (see _flood)
    for b in range(len(acts)):
        a, p = acts[b], mover[b]
        if not live[b]:
            continue
        pu, au = np.uint64(p), np.uint64(a)  # (unsigned indices: numba wraps no sign)
        if kept is not None:  # (the ply's mover, for the tensor writes)
            rec[b, LAST] = p
        if blocks is not None and rec[b, SENSED] < 0:
            rec[b, SENSED] = a - C
            for i in range(K):
                c = blocks[a - C, i]
                known[pu, c >> 6, b] |= np.uint64(grid[b, c] == 2 - p) << np.uint64(c & 63)
            continue
        plies = rec[b, PLIES] + 1
        rec[b, PLIES] = plies
        if kept is not None:
            rec[b, OWN0 + p] += 1
        rec[b, SENSED] = -1
        w, bit = a >> 6, one << np.uint64(a & 63)
        known[pu, au >> np.uint64(6), b] |= bit
        old, win, full = grid[b, au], False, False
        placed = old == 0  # (else an opponent stone: own stones are not legal)
        grid[b, au] = old + placed * (p + 1)
        if wins is not None:  # tic-tac-toe (selects: placed and win are coin flips)
            mine = chains[b, pu, LOOSE] | bit * np.uint64(placed)
            chains[b, pu, LOOSE] = mine
            win = wins[mine] & placed
            full = mine | chains[b, pu ^ one, LOOSE] == board
        elif placed | (not wide):  # hex (up to 64 cells, a collision floods nothing:
            n = bit * np.uint64(placed)  # cheaper than a branch on a coin flip)
            win = _join(chains, b, pu, n * np.uint64(w == 0), n * np.uint64(w == 1), sides, walls)
        end = win * (1 + 2 * p) + ((not win) & full) * 2
        mover[b] = p ^ (placed | abrupt)  # (a collision: the turn kept if classical)
        stop = (end == 0) & (plies >= cap)
        ending[b] = e = end + stop * CAPPED
        won = np.float32(win) * np.float32(1 - 2 * p)  # (RETURNS[e], with no load)
        paid[b, 0], paid[b, 1] = won, -won
        count, capped = count + (e != 0), capped + stop
    return count, capped


@kernel
def _write_rows(acts, live, ending, grid, rec, spec, blocks, store, hand0, hand1, shown, f):
    """Each playing row's action, just played, in its tensors of form f (0: the
    information state, 1: the observation), each entry into the store and the
    hands showing its store row. A sense of seat p: the opponent stones it
    proved on p's board, and the block's cells (empty / own / opponent stone)
    in the record of p's ply j, or in the view the ages of the empty cells seen
    now (1) and of opponent stones (0), and the anchor sensed. An attempt, ply
    k of the game: the cell and its result in p's tensor, then the public
    entries (the ply's mover or count, the outcome) in both seats'."""

    def put(b, r, c, v):  # (a closure, inlined: a kernel called per entry costs far more)
        store[r, c] = v
        if shown[0, b] == r:
            hand0[b, c] = v
        if shown[1, b] == r:
            hand1[b, c] = v

    C, B, K = spec[CELLS], len(store) // 2, spec[BLOCK]
    board = spec[I_BOARD] if f == 0 else spec[O_BOARD]
    for b in range(len(acts)):
        if not live[b]:
            continue
        a, p, flip, k = acts[b], rec[b, LAST], rec[b, FLIP], rec[b, PLIES] - 1
        r, j = (p ^ flip) * B + b, rec[b, OWN0 + p] - (a < C)  # (a sense's ply: under way)
        if a >= C:  # a sense
            for i in range(K):
                c = blocks[a - C, i]
                v = grid[b, c]
                seen = UNKNOWN if v == 0 else OWN if v == p + 1 else PROVEN
                if seen == PROVEN:
                    put(b, r, board + 3 * c, 0)
                    put(b, r, board + 3 * c + 2, 1)
                if f == 0:
                    put(b, r, spec[I_SENSED] + (j * K + i) * 3 + seen, 1)
                elif seen != OWN:
                    put(b, r, spec[O_AGE] + c, 1 if seen == UNKNOWN else 0)
            put(b, r, (spec[I_SENSES] + j * len(blocks) if f == 0 else spec[O_NOW]) + a - C, 1)
            continue
        result = 0 if grid[b, a] == p + 1 else 1  # placed / occupied
        put(b, r, board + 3 * a, 0)
        put(b, r, board + 3 * a + 1 + result, 1)
        if f == 0:
            put(b, r, spec[I_ATTEMPTS] + j * C + a, 1)
            put(b, r, spec[I_RESULTS] + 2 * j + result, 1)
        elif spec[O_AGE] >= 0:  # every cell seen empty a ply older, the cell known, the sense over
            for c in range(C):
                age = store[r, spec[O_AGE] + c]
                if c == a or age:
                    put(b, r, spec[O_AGE] + c, 0 if c == a else age + 1)
            for anchor in range(len(blocks)):
                put(b, r, spec[O_NOW] + anchor, 0)
        for q in (flip * B + b, (1 ^ flip) * B + b):  # both seats' store rows
            if f == 0 and spec[I_MOVERS] >= 0:
                put(b, q, spec[I_MOVERS] + 2 * k + p, 1)
            if f == 1 and spec[O_COUNT] >= 0:
                put(b, q, spec[O_COUNT] + k, 0)
                put(b, q, spec[O_COUNT] + k + 1, 1)
            if ending[b]:  # seat 0 won / draw / seat 1 won
                put(b, q, (spec[I_OUTCOME] if f == 0 else spec[O_OUTCOME]) + ending[b] - 1, 1)


@kernel
def _hand_out(store, hand, shown, mover, rec, terminated):
    """Each hand row that shows another store row than its row's mover's now
    (or than zeros, in a finished row) copied whole from the store."""
    B = len(mover)
    for b in range(B):
        r = -1 if terminated[b] else (mover[b] ^ rec[b, FLIP]) * B + b
        if shown[b] == r:
            continue
        if r < 0:
            hand[b, :] = 0
        else:
            for c in range(hand.shape[1]):
                hand[b, c] = store[r, c]
        shown[b] = r
