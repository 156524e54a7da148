"""resample_from_infostate reaches every world a seat cannot rule out.

On small boards we enumerate the whole game tree, group histories by the
seat's information state, and check that repeated resampling from one
history produces exactly the histories of its group: every consistent
world, and nothing else. Late in games, the resampler's worlds are checked
on a stress set, which `python tests/test_boards_resample.py` times.
"""

import collections
import gc
import random
import time

import pyspiel
import pytest

import fogboard_games
from fogboard_games.boards import resample as board_resample

# (config, depth): the recon tree is walked to 7 decisions only. Under the
# abrupt rule plies alternate, so every history a seat cannot tell apart
# from one of that depth has the same depth, and its group is complete.
CONFIGS = [
    ("fogboard_dark_hex(board_size=2)", 99),
    ("fogboard_dark_hex(board_size=2,abrupt=true)", 99),
    ("fogboard_dark_hex(board_size=2,obstype=reveal-numturns)", 99),
    ("fogboard_recon_hex(board_size=2,sense=1)", 7),
    ("fogboard_dark_hex(board_size=2,abrupt=true,obstype=reveal-numturns)", 99),
    ("fogboard_recon_hex(board_size=2,sense=2)", 99),
    ("fogboard_dark_hex(board_size=3,max_plies=4)", 99),
    ("fogboard_phantom_ttt(max_plies=4)", 99),
    ("fogboard_phantom_ttt(abrupt=true,max_plies=4)", 99),
    # Rectangular boards (docs/boards.md#rectangular-boards).
    ("fogboard_dark_hex(num_rows=2,num_cols=3,max_plies=4)", 99),
    ("fogboard_dark_hex(num_rows=3,num_cols=2,abrupt=true,max_plies=5)", 99),
]


def _groups(game, depth):
    """(seat, info string) -> set of histories where that seat is to move."""
    groups = collections.defaultdict(set)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal() or len(state.history()) > depth:
            continue
        p = state.current_player()
        groups[(p, state.information_state_string(p))].add(tuple(state.history()))
        for a in state.legal_actions():
            stack.append(state.child(a))
    return groups


@pytest.mark.parametrize("config,depth", CONFIGS)
def test_resample_covers_every_consistent_world(config, depth):
    game = pyspiel.load_game(config)
    groups = _groups(game, depth)
    # The largest groups of at most 24 worlds: big enough to be telling,
    # small enough that 40 draws per world keep the test quick.
    big = sorted((g for g in groups.values() if 3 <= len(g) <= 24), key=len, reverse=True)
    assert big, "the tree has no information state with several worlds"
    rng = random.Random(7)
    for worlds in big[:3]:
        history = sorted(worlds)[0]
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        p = state.current_player()
        drawn = collections.Counter()
        for _ in range(40 * len(worlds)):
            drawn[tuple(state.resample_from_infostate(p, rng.random).history())] += 1
        assert set(drawn) == worlds, (
            f"{config}: from {history} resampling drew {len(set(drawn) & worlds)} of "
            f"{len(worlds)} worlds and {len(set(drawn) - worlds)} inconsistent ones"
        )


@pytest.mark.parametrize("abrupt", ["false", "true"])
def test_imperfect_recall_refuses_to_resample(abrupt):
    """docs/boards.md#imperfect-recall: under imperfect_recall the view allows
    more worlds than the seat's own past as played (checked here on 2 x 2), so
    drawing from that past would use what the view forgets: refused, naming
    the option, the state untouched."""
    ir = pyspiel.load_game(f"fogboard_dark_hex(board_size=2,abrupt={abrupt},imperfect_recall=true)")
    pr = pyspiel.load_game(f"fogboard_dark_hex(board_size=2,abrupt={abrupt})")
    by_view, by_past = _groups(ir, 99), _groups(pr, 99)
    rng = random.Random(3)
    narrower = 0
    for (p, _), worlds in sorted(by_past.items(), key=lambda kv: -len(kv[1]))[:6]:
        history = sorted(worlds)[0]
        state = ir.new_initial_state()
        for a in history:
            state.apply_action(a)
        view = by_view[p, state.information_state_string(p)]
        assert worlds <= view
        narrower += worlds < view
        with pytest.raises(ValueError, match="not available under imperfect_recall=true"):
            state.resample_from_infostate(p, rng.random)
        assert list(state.history()) == list(history)
    assert narrower > 0  # the view alone allows more worlds than the past played


def test_resample_is_seeded_by_the_sampler():
    game = fogboard_games.load("dark-hex-4")
    state = game.new_initial_state()
    for a in (5, 6, 9, 10, 2):
        if a in state.legal_actions():
            state.apply_action(a)
    assert state.history() == [5, 6, 9, 10, 2]
    p = state.current_player()
    a = random.Random(3)
    b = random.Random(3)
    assert state.resample_from_infostate(p, a.random).history() == (
        state.resample_from_infostate(p, b.random).history()
    )
    # ...and the sampler is really used: other seeds draw other worlds.
    drawn = {
        tuple(state.resample_from_infostate(p, random.Random(k).random).history()) for k in range(5)
    }
    assert len(drawn) > 1


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-5", "recon-hex-5"])
def test_the_first_mover_before_its_first_ply_has_one_world(preset):
    # Nothing has happened that the first mover did not do (in recon hex at
    # most its sense), so every draw is the true history; the other seat,
    # which cannot tell what the first mover did, still gets other worlds.
    game = fogboard_games.load(preset)
    state = game.new_initial_state()
    histories = [[]]
    if preset.startswith("recon"):
        state.apply_action(state.legal_actions()[2])  # a sense
        histories.append(state.history())
    for history in histories:
        state = game.new_initial_state()
        for a in history:
            state.apply_action(a)
        for k in range(5):
            # The resampler itself (the glue would redraw a wrong world until
            # the strings match, hiding a shortcut that is only sometimes wrong).
            assert board_resample.resample(state.truth, 0, random.Random(k)) == history
    if preset.startswith("recon"):
        drawn = {
            tuple(board_resample.resample(state.truth, 1, random.Random(k))) for k in range(40)
        }
        assert len(drawn) > 1


def test_resample_refuses_a_finished_game():
    game = fogboard_games.load("phantom-ttt-3")
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(ValueError, match="over"):
        state.resample_from_infostate(0, rng.random)


def _all_groups(game):
    """(seat, info string) -> every non-terminal history with that string for
    that seat, whoever is to move there."""
    groups = collections.defaultdict(set)
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        for seat in (0, 1):
            groups[(seat, state.information_state_string(seat))].add(tuple(state.history()))
        for a in state.legal_actions():
            stack.append(state.child(a))
    return groups


# Full trees, where the seat not to move may not know who is (not so under
# the abrupt rule with public movers).
UNSURE_OF_MOVER = [
    c for c, depth in CONFIGS if depth == 99 and "abrupt=true,obstype=reveal-numturns" not in c
]


@pytest.mark.parametrize("config", UNSURE_OF_MOVER)
def test_resample_for_the_seat_not_to_move_covers_both_movers(config):
    """A seat that is not to move may not know whose move it is; its worlds
    include those where it moves itself, and none may be ruled out by the
    true player to move (which it cannot see)."""
    game = pyspiel.load_game(config)
    groups = _all_groups(game)
    rng = random.Random(5)
    tried = mixed = 0
    for (seat, _), worlds in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        if not 2 <= len(worlds) <= 24:
            continue
        waiting = [h for h in sorted(worlds) if _mover(game, h) != seat]
        if not waiting:
            continue
        state = game.new_initial_state()
        for a in waiting[0]:
            state.apply_action(a)
        drawn = collections.Counter()
        for _ in range(40 * len(worlds)):
            drawn[tuple(state.resample_from_infostate(seat, rng.random).history())] += 1
        assert set(drawn) == worlds, (
            f"{config}: seat {seat} not to move at {waiting[0]}: drew "
            f"{len(set(drawn) & worlds)} of {len(worlds)} worlds and "
            f"{len(set(drawn) - worlds)} inconsistent ones"
        )
        tried += 1
        mixed += len({_mover(game, h) for h in worlds}) == 2
        if tried == 4:
            break
    assert tried == 4 and mixed >= 1, (tried, mixed)


def _mover(game, history):
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state.current_player()


# ---- late-game stress -----------------------------------------------------------------------
#
# Late positions are where resampling is hard: the opponent has many unseen
# stones that must fit the seat's record and still not connect. The stress
# set is reproducible: seeded random playouts, each stopped 2 to 10 plies
# before its end (in recon hex, half the time after the sense of the next
# ply), resampled for both seats. `python tests/test_boards_resample.py`
# times it (docs/performance.md#resampling); the test below checks the
# worlds at a small scale.

STRESS_PRESETS = ("dark-hex-4", "dark-hex-5", "recon-hex-5")
# A dark-hex-4 position that once took seconds to resample for seat 1.
STRESS_EXTRA = (
    "dark-hex-4",
    (3, 9, 8, 15, 6, 2, 9, 0, 7, 14, 3, 1, 1, 10, 11, 15, 7, 11, 12, 12, 6, 8, 10),
)


def stress_positions(preset, playouts, seed=0):
    """(preset, history) of late positions of seeded random playouts."""
    game = fogboard_games.load(preset)
    cells = game.new_initial_state().truth.setup.cells
    rng = random.Random(f"{preset}/{seed}")
    out = []
    for _ in range(playouts):
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            history.append(rng.choice(state.legal_actions()))
            state.apply_action(history[-1])
        ply_ends = [i + 1 for i, a in enumerate(history) if a < cells]  # after each attempt
        back = rng.randint(2, 10)
        if back >= len(ply_ends):
            continue
        cut = ply_ends[-1 - back]
        if cut < len(history) and history[cut] >= cells and rng.random() < 0.5:
            cut += 1  # recon hex: stop after the sense of the next ply
        out.append((preset, tuple(history[:cut])))
    return out


def _state(preset, history):
    state = fogboard_games.load(preset).new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


def test_resample_is_exact_late_in_games():
    """On the stress set (at a small scale) every world the boards'
    resampler draws has the seat's information-state string and is still
    running, with the seat to move when it is to move: checked on the
    resampler itself, without the glue's retries."""
    game_of = {preset: fogboard_games.load(preset) for preset in STRESS_PRESETS}
    positions = [STRESS_EXTRA] + [
        p for preset in STRESS_PRESETS for p in stress_positions(preset, 10)
    ]
    rng = random.Random(11)
    for preset, history in positions:
        state = _state(preset, history)
        for seat in (0, 1):
            target = state.information_state_string(seat)
            for _ in range(3):
                world = game_of[preset].new_initial_state()
                for a in board_resample.resample(state.truth, seat, rng):
                    world.apply_action(a)
                where = (preset, history, seat, world.history())
                assert world.information_state_string(seat) == target, where
                assert not world.is_terminal(), where
                if state.current_player() == seat:
                    assert world.current_player() == seat, where


def measure_stress(playouts=100, draws=10, draw=None, presets=STRESS_PRESETS):
    """Milliseconds per resample over the stress set, per preset:
    {preset: sorted times}. `draw(state, seat, rng)` makes one draw
    (default: state.resample_from_infostate(seat, rng.random))."""
    draw = draw or (lambda state, seat, rng: state.resample_from_infostate(seat, rng.random))
    # A collection of the oldest generation stops the process for tens of
    # milliseconds whoever allocates: those pauses are not the resampler's.
    gc.disable()
    try:
        times = {}
        for preset in presets:
            positions = stress_positions(preset, playouts)
            if preset == STRESS_EXTRA[0]:
                positions.append(STRESS_EXTRA)
            out = times[preset] = []
            for k, (_, history) in enumerate(positions):
                state = _state(preset, history)
                for seat in (0, 1):
                    for d in range(draws):
                        rng = random.Random(f"{k}/{seat}/{d}")
                        start = time.perf_counter()
                        draw(state, seat, rng)
                        out.append((time.perf_counter() - start) * 1e3)
            out.sort()
        return times
    finally:
        gc.enable()


def stress_table(times) -> str:
    """Median, 90th and 99th percentile and maximum, in milliseconds."""
    lines = ["| preset | draws | median | p90 | p99 | max |", "|---|---|---|---|---|---|"]
    for preset, ts in times.items():
        p50, p90, p99 = (ts[min(len(ts) - 1, int(f * len(ts)))] for f in (0.5, 0.9, 0.99))
        lines.append(f"| {preset} | {len(ts)} | {p50:.2f} | {p90:.2f} | {p99:.2f} | {ts[-1]:.1f} |")
    return "\n".join(lines)


def draw_at_revision(rev):
    """A `draw` for measure_stress with the boards' resampler of git
    revision `rev`, checked as resample_from_infostate checks it."""
    import subprocess
    import types

    source = subprocess.run(
        ["git", "show", f"{rev}:fogboard_games/boards/resample.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    old = types.ModuleType(f"resample_at_{rev}")
    exec(compile(source, old.__name__, "exec"), old.__dict__)

    def draw(state, seat, rng):
        target = state.information_state_string(seat)
        sub = random.Random(int(rng.random() * 2**53))
        for _ in range(20):
            world = state.get_game().new_initial_state()
            for a in old.resample(state.truth, seat, sub):
                world.apply_action(a)
            if world.information_state_string(seat) == target:
                return world
        raise RuntimeError("no consistent world")

    return draw


if __name__ == "__main__":
    # python tests/test_boards_resample.py [REV]: time this resampler, or REV's.
    import sys

    rev = sys.argv[1] if len(sys.argv) > 1 else None
    print(stress_table(measure_stress(draw=draw_at_revision(rev) if rev else None)))
