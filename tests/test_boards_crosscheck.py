"""Cross-check of the Fog-of-War boards against OpenSpiel's C++ engines.

docs/boards.md#cross-check-with-openspiel: with the rule and `obstype` matched,
`fogboard_phantom_ttt` must match OpenSpiel's `phantom_ttt` and
`fogboard_dark_hex` must match `dark_hex` (`gameversion=cdh` / `adh`) move
for move under a fixed cell mapping: the same legal sets, current player,
terminal flag and returns, and the same partition of histories into
information states. OpenSpiel's dark_hex information-state *string* carries
the total history length (a leak under reveal-nothing), so the partition is
compared against OpenSpiel's information-state *tensor*.

The partition check builds two dicts over every non-terminal history a
configuration visits, ours -> theirs and theirs -> ours (per seat), and
fails when a key maps to two values. It only bites when an information
state is reached by more than one history, so every configuration also
asserts that this happened (and, under reveal-nothing classical, that one
information state was reached by histories of different lengths, the
hidden-collision-count case).
"""

from __future__ import annotations

import collections
import random

import pyspiel
import pytest

import fogboard_games  # noqa: F401  (registers the games)

OBSTYPES = ("reveal-nothing", "reveal-numturns")


def hex_map(n: int) -> list[int]:
    """Our cell (rank * n + file) -> OpenSpiel dark_hex action (file * n + rank)."""
    return rect_map(n, n)


def rect_map(rows: int, cols: int) -> list[int]:
    """`num_rows=rows,num_cols=cols`: our board has `rows` files and `cols`
    ranks; our cell rank * rows + file -> OpenSpiel's file * cols + rank
    (its row is our file, its column our rank)."""
    return [(c % rows) * cols + c // rows for c in range(rows * cols)]


TTT_MAP = [(2 - c // 3) * 3 + c % 3 for c in range(9)]  # OpenSpiel row 0 is our rank 3


def _flag(b: bool) -> str:
    return "true" if b else "false"


def ttt_pair(abrupt: bool, obstype: str):
    ours = f"fogboard_phantom_ttt(abrupt={_flag(abrupt)},obstype={obstype})"
    theirs = f"phantom_ttt(gameversion={'abrupt' if abrupt else 'classical'},obstype={obstype})"
    return pyspiel.load_game(ours), pyspiel.load_game(theirs), TTT_MAP


def hex_pair(n: int, abrupt: bool, obstype: str):
    ours = f"fogboard_dark_hex(board_size={n},abrupt={_flag(abrupt)},obstype={obstype})"
    theirs = f"dark_hex(board_size={n},gameversion={'adh' if abrupt else 'cdh'},obstype={obstype})"
    return pyspiel.load_game(ours), pyspiel.load_game(theirs), hex_map(n)


def rect_pair(rows: int, cols: int, abrupt: bool, obstype: str):
    sides = f"num_rows={rows},num_cols={cols}"
    ours = f"fogboard_dark_hex({sides},abrupt={_flag(abrupt)},obstype={obstype})"
    theirs = f"dark_hex({sides},gameversion={'adh' if abrupt else 'cdh'},obstype={obstype})"
    return pyspiel.load_game(ours), pyspiel.load_game(theirs), rect_map(rows, cols)


def ir_pair(kind: str, n: int, abrupt: bool, obstype: str):
    """Our imperfect-recall game and OpenSpiel's phantom_ttt_ir / dark_hex_ir."""
    flags = f"abrupt={_flag(abrupt)},obstype={obstype},imperfect_recall=true"
    if kind == "ttt":
        version = "abrupt" if abrupt else "classical"
        ours = f"fogboard_phantom_ttt({flags})"
        theirs = f"phantom_ttt_ir(gameversion={version},obstype={obstype})"
        return pyspiel.load_game(ours), pyspiel.load_game(theirs), TTT_MAP
    ours = f"fogboard_dark_hex(board_size={n},{flags})"
    theirs = (
        f"dark_hex_ir(board_size={n},gameversion={'adh' if abrupt else 'cdh'},obstype={obstype})"
    )
    return pyspiel.load_game(ours), pyspiel.load_game(theirs), hex_map(n)


class Partition:
    """Checks that two keyings of (seat, history) induce the same partition."""

    def __init__(self, label: str):
        self.label = label
        self.ours_to_theirs: dict = {}
        self.theirs_to_ours: dict = {}
        # Per (seat, our key): the distinct histories that reached it (at most
        # a few kept) and, when the seat was the one to move, the distinct
        # history lengths seen.
        self.histories: dict = collections.defaultdict(set)
        self.mover_lengths: dict = collections.defaultdict(set)

    def add(self, seat: int, ours, theirs, history: tuple, to_move: bool = False) -> None:
        a, b = (seat, ours), (seat, theirs)
        seen_b = self.ours_to_theirs.setdefault(a, b)
        assert seen_b == b, (
            f"{self.label}: seat {seat}, our information state {ours!r} maps to two "
            f"OpenSpiel information states (history {history})"
        )
        seen_a = self.theirs_to_ours.setdefault(b, a)
        assert seen_a == a, (
            f"{self.label}: seat {seat}, one OpenSpiel information state maps to two of "
            f"ours:\n{seen_a[1]!r}\nand\n{ours!r}\n(history {history})"
        )
        hs = self.histories[a]
        if len(hs) < 3:
            hs.add(history)
        if to_move:
            self.mover_lengths[a].add(len(history))

    def shared(self) -> int:
        """Information states reached by more than one history."""
        return sum(1 for hs in self.histories.values() if len(hs) > 1)

    def mixed_lengths(self) -> int:
        """Mover information states reached by histories of different lengths."""
        return sum(1 for ls in self.mover_lengths.values() if len(ls) > 1)


class Lockstep:
    """Our state and OpenSpiel's, advanced together and compared at each node."""

    def __init__(self, ours_game, theirs_game, mapping, partitions, their_key=None):
        self.ours_game = ours_game
        self.mapping = mapping
        # (string partition, tensor partition), then optionally the two of
        # the observation and the seats' pasts (`Pasts`).
        self.partitions = partitions
        # OpenSpiel's information-state key of (state, seat): its tensor
        # unless told (the _ir games: their string, see test_imperfect_recall...).
        self.their_key = their_key or _their_tensor
        self.ours = ours_game.new_initial_state()
        self.theirs = theirs_game.new_initial_state()
        self.history: tuple = ()
        self.movers: tuple = ()

    def child(self, action: int) -> Lockstep:
        out = Lockstep.__new__(Lockstep)
        out.ours_game = self.ours_game
        out.mapping = self.mapping
        out.partitions = self.partitions
        out.their_key = self.their_key
        out.movers = self.movers + (self.ours.current_player(),)
        out.ours = self.ours.child(action)
        out.theirs = self.theirs.child(self.mapping[action])
        out.history = self.history + (action,)
        return out

    def apply(self, action: int) -> None:
        self.movers += (self.ours.current_player(),)
        self.ours.apply_action(action)
        self.theirs.apply_action(self.mapping[action])
        self.history += (action,)

    def check(self) -> None:
        """Compare the two states; record both seats' information states."""
        ours, theirs, h = self.ours, self.theirs, self.history
        names = _Names(ours, h)
        assert ours.is_terminal() == theirs.is_terminal(), f"terminal differs after {names}"
        assert ours.returns() == theirs.returns(), (
            f"returns differ after {names}: ours {ours.returns()} OpenSpiel {theirs.returns()}"
        )
        if ours.is_terminal():
            return
        assert ours.current_player() == theirs.current_player(), f"mover differs after {names}"
        mapped = sorted(self.mapping[a] for a in ours.legal_actions())
        assert mapped == theirs.legal_actions(), f"legal sets differ after {names}"
        by_string, by_tensor = self.partitions[:2]
        mover = ours.current_player()
        for seat in (0, 1):
            their_key = self.their_key(theirs, seat)
            ours_string = ours.information_state_string(seat)
            by_string.add(seat, ours_string, their_key, h, seat == mover)
            by_tensor.add(
                seat, tuple(ours.information_state_tensor(seat)), their_key, h, seat == mover
            )
        if len(self.partitions) > 2:
            obs_string, obs_tensor, pasts = self.partitions[2:]
            for seat in (0, 1):
                their_obs = tuple(theirs.observation_tensor(seat))
                obs_string.add(seat, ours.observation_string(seat), their_obs, h, seat == mover)
                obs_tensor.add(
                    seat, tuple(ours.observation_tensor(seat)), their_obs, h, seat == mover
                )
                own = tuple(a for a, p in zip(h, self.movers) if p == seat)
                pasts.add(seat, ours.information_state_string(seat), own)


def _their_tensor(state, seat: int) -> tuple:
    return tuple(state.information_state_tensor(seat))


def _their_string(state, seat: int) -> str:
    return state.information_state_string(seat)


class Pasts:
    """Per (seat, our information state): the distinct sequences of the
    seat's own actions that reached it. Under perfect recall there is one;
    an imperfect-recall information state forgets which it was."""

    def __init__(self):
        self.seen: dict = collections.defaultdict(set)

    def add(self, seat: int, key, own: tuple) -> None:
        self.seen[seat, key].add(own)

    def forgotten(self) -> int:
        """Information states reached after more than one own past."""
        return sum(1 for pasts in self.seen.values() if len(pasts) > 1)


class _Names:
    """The history as action strings, built only when a message is shown."""

    def __init__(self, state, history):
        self.state, self.history = state, history

    def __str__(self) -> str:
        return str([self.state.action_to_string(0, a) for a in self.history])


def all_partitions(label: str) -> tuple:
    """Information state (string, tensor), observation (string, tensor), pasts."""
    return (
        Partition(label + " [our string]"),
        Partition(label + " [our tensor]"),
        Partition(label + " [our observation string]"),
        Partition(label + " [our observation tensor]"),
        Pasts(),
    )


def explore(
    ours_game,
    theirs_game,
    mapping,
    label,
    *,
    dfs_depth,
    playouts,
    seed,
    partitions=None,
    their_key=None,
):
    """Bounded DFS from the root, then random full playouts; returns stats."""
    if partitions is None:
        partitions = (Partition(label + " [our string]"), Partition(label + " [our tensor]"))
    nodes = 0

    def dfs(node: Lockstep, depth: int) -> None:
        nonlocal nodes
        node.check()
        nodes += 1
        if depth == 0 or node.ours.is_terminal():
            return
        for a in node.ours.legal_actions():
            dfs(node.child(a), depth - 1)

    dfs(Lockstep(ours_game, theirs_game, mapping, partitions, their_key), dfs_depth)

    rng = random.Random(seed)
    plies = 0
    terminals = collections.Counter()
    for _ in range(playouts):
        node = Lockstep(ours_game, theirs_game, mapping, partitions, their_key)
        node.check()
        while not node.ours.is_terminal():
            node.apply(rng.choice(node.ours.legal_actions()))
            node.check()
            plies += 1
        terminals[tuple(node.ours.returns())] += 1
    return partitions, nodes, plies, terminals


def _assert_partition_was_tested(partitions, classical_hidden: bool) -> None:
    for part in partitions:
        if not isinstance(part, Partition):
            continue
        assert part.shared() >= 20, f"{part.label}: too few shared information states"
        if classical_hidden:
            # Reveal-nothing classical hides how many collisions the opponent
            # made: some information state of the seat to move must have been
            # reached by histories of different lengths (and still matched
            # OpenSpiel's partition).
            assert part.mixed_lengths() > 0, f"{part.label}: no hidden-count collision seen"
        else:
            # Abrupt turns alternate, and reveal-numturns shows the ply count:
            # the mover's information state fixes the history length.
            assert part.mixed_lengths() == 0, f"{part.label}: history length not determined"


TTT_CASES = [(ab, ob) for ab in (False, True) for ob in OBSTYPES]
HEX_CASES = [(n, ab, ob) for n in (2, 3, 4, 5) for ab in (False, True) for ob in OBSTYPES]
# Bounded-DFS depth and number of random full playouts per board size.
HEX_BUDGET = {2: (7, 60), 3: (3, 150), 4: (2, 120), 5: (2, 40)}


@pytest.mark.parametrize("abrupt,obstype", TTT_CASES)
def test_phantom_ttt_matches_openspiel(abrupt, obstype):
    ours, theirs, mapping = ttt_pair(abrupt, obstype)
    label = f"phantom_ttt abrupt={abrupt} {obstype}"
    partitions, nodes, plies, terminals = explore(
        ours, theirs, mapping, label, dfs_depth=3, playouts=250, seed=11 + abrupt
    )
    assert nodes > 700 and plies > 1500
    # Random play reaches wins for both seats and draws.
    assert set(terminals) == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    _assert_partition_was_tested(
        partitions, classical_hidden=not abrupt and obstype == "reveal-nothing"
    )


@pytest.mark.parametrize("size,abrupt,obstype", HEX_CASES)
def test_dark_hex_matches_openspiel(size, abrupt, obstype):
    ours, theirs, mapping = hex_pair(size, abrupt, obstype)
    label = f"dark_hex {size}x{size} abrupt={abrupt} {obstype}"
    depth, playouts = HEX_BUDGET[size]
    partitions, nodes, plies, terminals = explore(
        ours, theirs, mapping, label, dfs_depth=depth, playouts=playouts, seed=size * 7 + abrupt
    )
    assert plies > 100
    assert set(terminals) == {(1.0, -1.0), (-1.0, 1.0)}  # hex has no draws
    _assert_partition_was_tested(
        partitions, classical_hidden=not abrupt and obstype == "reveal-nothing"
    )


@pytest.mark.parametrize("abrupt", [False, True])
@pytest.mark.parametrize("obstype", OBSTYPES)
def test_dark_hex_2x2_full_tree(abrupt, obstype):
    """Every history of 2x2 dark hex, walked in lock-step with OpenSpiel."""
    ours, theirs, mapping = hex_pair(2, abrupt, obstype)
    label = f"dark_hex 2x2 abrupt={abrupt} {obstype} (full tree)"
    partitions = (Partition(label + " [our string]"), Partition(label + " [our tensor]"))
    counts = collections.Counter()

    def walk(node: Lockstep) -> None:
        node.check()
        counts["nodes"] += 1
        # The OpenSpiel side must not offer moves we do not (checked in
        # check()); at terminals both must stop.
        if node.ours.is_terminal():
            counts["terminals"] += 1
            counts[tuple(node.ours.returns())] += 1
            return
        for a in node.ours.legal_actions():
            walk(node.child(a))

    walk(Lockstep(ours, theirs, mapping, partitions))
    # Sizes of the full trees (independently counted on OpenSpiel's side below).
    their_nodes = _count_nodes(theirs.new_initial_state())
    assert counts["nodes"] == their_nodes
    assert counts[(1.0, -1.0)] > 0 and counts[(-1.0, 1.0)] > 0
    assert counts[(1.0, -1.0)] + counts[(-1.0, 1.0)] == counts["terminals"]
    _assert_partition_was_tested(
        partitions, classical_hidden=not abrupt and obstype == "reveal-nothing"
    )


def _count_nodes(state) -> int:
    if state.is_terminal():
        return 1
    return 1 + sum(_count_nodes(state.child(a)) for a in state.legal_actions())


@pytest.mark.parametrize(
    "pair",
    [("ttt", ab, ob) for ab, ob in TTT_CASES] + [("hex",) + c for c in HEX_CASES],
    ids=str,
)
def test_game_facts_match_openspiel(pair):
    if pair[0] == "ttt":
        ours, theirs, _ = ttt_pair(*pair[1:])
    else:
        ours, theirs, _ = hex_pair(*pair[1:])
    assert ours.max_game_length() == theirs.max_game_length()
    assert ours.num_distinct_actions() == theirs.num_distinct_actions()
    assert ours.num_players() == theirs.num_players() == 2
    assert ours.min_utility() == theirs.min_utility()
    assert ours.max_utility() == theirs.max_utility()
    assert ours.utility_sum() == theirs.utility_sum()


def test_partition_check_can_fail():
    """The partition check catches an information state that leaks the ply count.

    Keying our side by (string, total history length) under reveal-nothing
    classical splits information states OpenSpiel keeps together, exactly
    the leak OpenSpiel's own dark_hex string has.
    """
    ours, theirs, mapping = hex_pair(3, False, "reveal-nothing")
    part = Partition("leaky key")
    with pytest.raises(AssertionError, match="maps to two of ours"):

        def dfs(node: Lockstep, depth: int) -> None:
            for seat in (0, 1):
                leaky = (node.ours.information_state_string(seat), len(node.history))
                part.add(
                    seat, leaky, tuple(node.theirs.information_state_tensor(seat)), node.history
                )
            if depth and not node.ours.is_terminal():
                for a in node.ours.legal_actions():
                    dfs(node.child(a), depth - 1)

        dfs(Lockstep(ours, theirs, mapping, (None, None)), 3)


def test_cell_mappings_are_permutations():
    for n in (2, 3, 4, 5):
        assert sorted(hex_map(n)) == list(range(n * n))
    assert sorted(TTT_MAP) == list(range(9))
    # Spot checks of the SPEC mapping: our a1 is OpenSpiel's bottom-left.
    assert TTT_MAP[0] == 6 and TTT_MAP[8] == 2
    assert hex_map(4)[1] == 4  # b1: file 1, rank 0 -> 1 * 4 + 0


# ---- rectangular boards and imperfect recall (docs/boards.md#rectangular-boards,
# docs/boards.md#imperfect-recall) ------------------------------------------------

RECT_SIDES = [(2, 3), (3, 2), (3, 4), (4, 3), (2, 5)]
RECT_CASES = [(r, c, ab, ob) for r, c in RECT_SIDES for ab in (False, True) for ob in OBSTYPES]
# Bounded-DFS depth and random full playouts per board (cells).
RECT_BUDGET = {6: (4, 60), 10: (3, 60), 12: (3, 50)}


@pytest.mark.parametrize("rows,cols,abrupt,obstype", RECT_CASES)
def test_rectangular_dark_hex_matches_openspiel(rows, cols, abrupt, obstype):
    """fogboard_dark_hex(num_rows=r,num_cols=c) = dark_hex(num_rows=r,num_cols=c),
    information states and observations partitioned alike at every node."""
    ours, theirs, mapping = rect_pair(rows, cols, abrupt, obstype)
    assert ours.max_game_length() == theirs.max_game_length()
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == rows * cols
    label = f"dark_hex {rows}x{cols} abrupt={abrupt} {obstype}"
    depth, playouts = RECT_BUDGET[rows * cols]
    partitions, nodes, plies, terminals = explore(
        ours,
        theirs,
        mapping,
        label,
        dfs_depth=depth,
        playouts=playouts,
        seed=rows * 10 + cols + abrupt,
        partitions=all_partitions(label),
    )
    assert plies > 100
    assert set(terminals) == {(1.0, -1.0), (-1.0, 1.0)}
    _assert_partition_was_tested(
        partitions, classical_hidden=not abrupt and obstype == "reveal-nothing"
    )
    assert partitions[4].forgotten() == 0  # perfect recall: one past per information state


IR_CASES = [("ttt", 3, ab, ob) for ab in (False, True) for ob in OBSTYPES] + [
    ("hex", n, ab, ob) for n in (2, 3) for ab in (False, True) for ob in OBSTYPES
]
IR_BUDGET = {("ttt", 3): (3, 120), ("hex", 2): (99, 0), ("hex", 3): (3, 80)}


@pytest.mark.parametrize("kind,size,abrupt,obstype", IR_CASES)
def test_imperfect_recall_matches_openspiel(kind, size, abrupt, obstype):
    """imperfect_recall=true = OpenSpiel's phantom_ttt_ir / dark_hex_ir: our
    information-state string and tensor partition the histories as their
    information-state string does (their tensor is the perfect-recall one,
    see test_openspiel_ir_tensor_is_perfect_recall), and seats forget."""
    ours, theirs, mapping = ir_pair(kind, size, abrupt, obstype)
    assert ours.max_game_length() == theirs.max_game_length()
    label = f"{theirs} imperfect recall"
    depth, playouts = IR_BUDGET[kind, size]  # dark hex 2x2: the full tree
    partitions, nodes, plies, terminals = explore(
        ours,
        theirs,
        mapping,
        label,
        dfs_depth=depth,
        playouts=playouts,
        seed=size * 3 + abrupt,
        partitions=all_partitions(label),
        their_key=_their_string,
    )
    if (kind, size) == ("hex", 2):
        assert nodes == _count_nodes(theirs.new_initial_state())
    assert nodes > 400
    # The view hides the ply count, reveal-numturns or not, unless the abrupt
    # rule's alternation gives it (each own ply leaves one more known cell).
    _assert_partition_was_tested(partitions[:2], classical_hidden=not abrupt)
    _assert_partition_was_tested(
        partitions[2:4], classical_hidden=not abrupt and obstype == "reveal-nothing"
    )
    # Two orders of the same own attempts meet in one information state.
    assert partitions[4].forgotten() >= 10


@pytest.mark.parametrize("name", ["phantom_ttt", "dark_hex"])
def test_openspiel_ir_tensor_is_perfect_recall(name):
    """What docs/boards.md#imperfect-recall says of OpenSpiel's _ir games:
    only their information-state string forgets; their tensor is the
    perfect-recall game's, the string is 'P<seat> ' and the observation."""
    ir, pr = pyspiel.load_game(name + "_ir"), pyspiel.load_game(name)
    rng = random.Random(5)
    for _ in range(5):
        a, b = ir.new_initial_state(), pr.new_initial_state()
        while not a.is_terminal():
            for seat in (0, 1):
                assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
                want = f"P{seat} " + a.observation_string(seat)
                assert a.information_state_string(seat) == want
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)


def test_imperfect_recall_check_can_fail():
    """Our perfect-recall string keyed against OpenSpiel's _ir string splits
    what it keeps together (so the imperfect-recall test compares something)."""
    ours = pyspiel.load_game("fogboard_dark_hex(board_size=2)")
    theirs = pyspiel.load_game("dark_hex_ir(board_size=2)")
    with pytest.raises(AssertionError, match="maps to two of ours"):
        explore(
            ours,
            theirs,
            hex_map(2),
            "perfect recall against _ir",
            dfs_depth=99,
            playouts=0,
            seed=0,
            their_key=_their_string,
        )
