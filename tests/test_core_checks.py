"""What core checks once for every ruleset (issue 18, item 4): a Setup built
from the parameters by name, cross-parameter bounds stated on the Param,
presets and extras registered through functions, an action's type checked
in the glue and a count's or a seat's by `core.params.is_int`."""

import ast
import pathlib
import pickle

import minimal_games  # registers the test games
import numpy as np
import pyspiel
import pytest

import fogboard_games
from fogboard_games.core import registry, testing
from fogboard_games.core.contract import Ruleset
from fogboard_games.core.params import Bound, Param, ParamError, ParamSpec, is_int
from fogboard_games.core.review import ReviewError, check_params

ROOT = pathlib.Path(__file__).resolve().parent.parent

# ---- is_int --------------------------------------------------------------------------


def test_is_int_means_an_int_that_is_not_a_bool():
    assert all(is_int(x) for x in (0, -3, 2**70))
    # numpy ints were refused as seats, seeds and counts before: still so.
    for x in (True, False, 1.0, "1", None, np.int64(1), [1]):
        assert not is_int(x), x


# ---- cross-parameter bounds ----------------------------------------------------------

BOUNDS = [
    (
        "fogboard_parley",
        {"players": 3, "survivors": 3},
        "survivors",
        # Pinned by tests/test_parley.py before the bound existed: unchanged.
        "fogboard_parley: parameter 'survivors' must be an int in 1..2 "
        "(fewer than players=3), got 3",
    ),
    (
        "fogboard_mind_bluff",
        {"start": 6, "start_spread": 5},
        "start_spread",
        "fogboard_mind_bluff: parameter 'start_spread' must be an int in 0..4 "
        "(at most start - 2, start=6), got 5",
    ),
    (
        "fogboard_recon_hex",
        {"board_size": 3, "sense": 4},
        "sense",
        "fogboard_recon_hex: parameter 'sense' must be an int in 1..3 (at most the board's "
        "shorter side: board_size=3, num_rows=-1, num_cols=-1, -1 meaning board_size), got 4",
    ),
    (
        "fogboard_recon_hex",
        {"num_rows": 5, "num_cols": 2, "sense": 3},
        "sense",
        "fogboard_recon_hex: parameter 'sense' must be an int in 1..2 (at most the board's "
        "shorter side: board_size=5, num_rows=5, num_cols=2, -1 meaning board_size), got 3",
    ),
    (
        "fogboard_dark_hex",
        {"num_rows": 3, "num_cols": 4, "max_plies": 25},
        "max_plies",
        "fogboard_dark_hex: parameter 'max_plies' must be an int in 1..24 (2 x cells) or -1, got 25",
    ),
    (
        "fogboard_dark_hex",
        {"board_size": 4, "max_plies": 33},
        "max_plies",
        "fogboard_dark_hex: parameter 'max_plies' must be an int in 1..32 (2 x cells) or -1, got 33",
    ),
    (
        "fogboard_phantom_ttt",
        {"max_plies": 19},
        "max_plies",
        "fogboard_phantom_ttt: parameter 'max_plies' must be an int in 1..18 (2 x cells) or -1, "
        "got 19",
    ),
    (
        "fogboard_recon_hex",
        {"board_size": 3, "sense": 3, "max_plies": 19},
        "max_plies",
        "fogboard_recon_hex: parameter 'max_plies' must be an int in 1..18 (2 x cells) or -1, "
        "got 19",
    ),
]


@pytest.mark.parametrize("short,params,name,message", BOUNDS)
def test_a_bound_refuses_in_the_standard_words_naming_its_parameter(short, params, name, message):
    with pytest.raises(ParamError) as err:
        registry.param_spec(short).resolve(params)
    assert str(err.value) == message
    assert err.value.param == name
    back = pickle.loads(pickle.dumps(err.value))  # whole across a worker's pipe
    assert (type(back), str(back), back.param) == (ParamError, message, name)
    # pyspiel passes the refusal through as it is.
    with pytest.raises(ParamError, match=name):
        pyspiel.load_game(short, params)
    with pytest.raises(ReviewError) as review_err:
        check_params(short, params)
    assert str(review_err.value) == f"params.{name}: {message}"


@pytest.mark.parametrize(
    "short,params",
    [
        ("fogboard_parley", {"players": 4, "survivors": 3}),
        ("fogboard_mind_bluff", {"start": 6, "start_spread": 4}),
        ("fogboard_recon_hex", {"board_size": 3, "sense": 3}),
        ("fogboard_dark_hex", {"board_size": 4, "max_plies": 32}),
        ("fogboard_dark_hex", {"board_size": 2, "max_plies": -1}),
        ("fogboard_phantom_ttt", {"max_plies": 18}),
    ],
)
def test_a_bound_lets_its_highest_value_through(short, params):
    resolved = registry.param_spec(short).resolve(params)
    assert all(resolved[k] == v for k, v in params.items() if v != -1)


def test_every_value_refusal_is_a_param_error_naming_the_parameter():
    spec = registry.param_spec("fogboard_parley")
    for params, name in [
        ({"players": 9}, "players"),
        ({"talk": 1}, "talk"),
        ({"hp": True}, "hp"),
    ]:
        with pytest.raises(ParamError) as err:
            spec.resolve(params)
        assert err.value.param == name


def test_bounds_are_checked_in_declaration_order_after_every_own_check():
    spec = ParamSpec(
        "fogboard_test_order",
        [
            Param("a", 1, "first", 0, 9),
            Param("b", 1, "at most a", 0, 9, bound=Bound(lambda p: p["a"], "at most a={a}")),
            Param("c", 1, "at most b", 0, 9, bound=Bound(lambda p: p["b"], "at most b={b}")),
        ],
    )
    with pytest.raises(ParamError) as err:
        spec.resolve({"a": 0, "b": 2, "c": 10})  # c's own range first
    assert err.value.param == "c" and "0..9" in str(err.value)
    with pytest.raises(ParamError) as err:
        spec.resolve({"a": 0, "b": 2, "c": 3})  # then b's bound, then c's
    assert (
        str(err.value)
        == "fogboard_test_order: parameter 'b' must be an int in 0..0 (at most a=0), got 2"
    )
    # The table shows the widest range, as before.
    assert "| `b` | `1` | an int in 0..9 | at most a |" in spec.table()


# ---- the Setup, built from the parameters by name -------------------------------------


def test_every_setup_takes_the_parameters_by_name():
    for short, cls in registry.GAMES.items():
        spec = cls.ruleset.params
        setup = cls.ruleset.setup(**spec.resolve({}))
        assert setup.num_players >= 1, short


@pytest.mark.parametrize(
    "game_string,built_from",
    [
        # (kind, size, abrupt, sense, max_plies, numturns, ranks, imperfect_recall),
        # as the positional setup built them
        ("fogboard_phantom_ttt", ("ttt", 3, False, 0, 18, False, 3, False)),
        (
            "fogboard_phantom_ttt(abrupt=true,obstype=reveal-numturns,max_plies=7)",
            ("ttt", 3, True, 0, 7, True, 3, False),
        ),
        ("fogboard_dark_hex(board_size=3,abrupt=true)", ("hex", 3, True, 0, 18, False, 3, False)),
        ("fogboard_dark_hex(obstype=reveal-numturns)", ("hex", 4, False, 0, 32, True, 4, False)),
        ("fogboard_recon_hex", ("hex", 5, True, 2, 50, False, 5, False)),
        (
            "fogboard_recon_hex(board_size=3,sense=1,obstype=reveal-numturns,max_plies=9)",
            ("hex", 3, True, 1, 9, True, 3, False),
        ),
        # num_rows are files (size), num_cols ranks (docs/boards.md#rectangular-boards)
        (
            "fogboard_dark_hex(num_rows=3,num_cols=5,imperfect_recall=true)",
            ("hex", 3, False, 0, 30, False, 5, True),
        ),
        (
            "fogboard_recon_hex(board_size=4,num_cols=2,sense=2)",
            ("hex", 4, True, 2, 16, False, 2, False),
        ),
    ],
)
def test_the_board_setups_map_the_parameters_onto_the_geometry(game_string, built_from):
    assert pyspiel.load_game(game_string).setup.built_from == built_from


def test_the_dice_and_cog_setups_get_each_parameter_under_its_name():
    params = {
        "players": 3,
        "numdice": 2,
        "dice_sides": 4,
        "wild": "highest",
        "prophecy": False,
        "prophecy_payout": 3,
        "allow_pass": True,
        "rerolls": 1,
        "mode": "dice",
    }
    assert pyspiel.load_game("fogboard_liars_dice", params).setup.built_from == tuple(
        params.values()
    )
    params = {
        "players": 4,
        "hp": 3,
        "rounds": 2,
        "passes": 1,
        "survivors": 2,
        "talk": False,
        "max_reactions": 0,
        "hip_limit": 5,
    }
    assert pyspiel.load_game("fogboard_parley", params).setup.built_from == tuple(params.values())
    params = {"start": 9, "start_spread": 2, "first_player": -1, "max_eat": 2}
    assert pyspiel.load_game("fogboard_mind_bluff", params).setup.built_from == tuple(
        params.values()
    )


def test_register_refuses_a_setup_that_cannot_take_the_parameters_by_name():
    old_style = Ruleset(
        short_name="fogboard_test_positional_setup",
        long_name="a setup written for the old setup(params) call",
        docs="docs/adding_a_game.md",
        params=minimal_games.ROUNDS.params,
        setup=lambda params: minimal_games.RoundsSetup(params["hands"]),
        encoder=minimal_games.RoundsEncoder,
        review=minimal_games.review_rounds,
    )
    with pytest.raises(TypeError, match=r"fogboard_test_positional_setup: .*setup\(\*\*params\)"):
        registry.register(old_style)
    assert "fogboard_test_positional_setup" not in registry.GAMES


# ---- registration through functions -------------------------------------------------------


def test_conformance_extras_are_added_as_copies(monkeypatch):
    monkeypatch.setattr(registry, "CONFORMANCE_EXTRAS", {})
    mine = {"hands": 1}
    registry.add_conformance_extras("fogboard_test_kuhn_rounds", [mine])
    registry.add_conformance_extras("fogboard_test_kuhn_rounds", [{"hands": 3}])
    mine["hands"] = 2
    assert registry.CONFORMANCE_EXTRAS == {
        "fogboard_test_kuhn_rounds": [{"hands": 1}, {"hands": 3}]
    }


def test_every_shipped_game_registers_its_extras():
    counts = {short: len(extras) for short, extras in registry.CONFORMANCE_EXTRAS.items()}
    assert counts == {
        "fogboard_phantom_ttt": 5,
        "fogboard_dark_hex": 7,
        "fogboard_recon_hex": 3,
        "fogboard_liars_dice": 6,
        "fogboard_mind_bluff": 4,
        "fogboard_mind_bluff_series": 1,
        "fogboard_parley": 5,
    }


TABLES = {"GAMES", "PRESETS", "CONFORMANCE_EXTRAS", "BENCH_PAIRS"}


def _writes_to_a_table(tree: ast.AST) -> list[int]:
    """Lines that assign into, or call a mutating method of, a registry table."""
    lines = []
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for t in targets:
            # A table's item (X[k] = ...) or the table itself (registry.X = ...);
            # a bare `GAMES = ...` is a module's own name, not the table.
            through_item = isinstance(t, ast.Subscript)
            while isinstance(t, ast.Subscript):
                t = t.value
            name = getattr(t, "attr", getattr(t, "id", ""))
            if name in TABLES and (through_item or isinstance(t, ast.Attribute)):
                lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"append", "extend", "update", "setdefault", "pop"}
        ):
            owner = node.func.value
            name = getattr(owner, "attr", getattr(owner, "id", ""))
            if name in TABLES:
                lines.append(node.lineno)
    return lines


def test_only_the_registry_writes_its_tables():
    sources = [
        *sorted((ROOT / "fogboard_games").rglob("*.py")),
        ROOT / "tests" / "minimal_games.py",
    ]
    found = {}
    for path in sources:
        if path == ROOT / "fogboard_games" / "core" / "registry.py":
            continue
        lines = _writes_to_a_table(ast.parse(path.read_text()))
        if lines:
            found[str(path.relative_to(ROOT))] = lines
    assert found == {}, f"registry tables written outside core/registry.py: {found}"


def test_the_table_scan_sees_a_write():
    assert _writes_to_a_table(ast.parse("registry.CONFORMANCE_EXTRAS['x'] = []")) == [1]
    assert _writes_to_a_table(ast.parse("BENCH_PAIRS.append(('a', 'b'))")) == [1]
    assert _writes_to_a_table(ast.parse("registry.PRESETS = {}")) == [1]
    assert _writes_to_a_table(ast.parse("registry.add_conformance_extras('x', [])")) == []
    assert _writes_to_a_table(ast.parse("GAMES = (1, 2)")) == []  # a module's own name


# ---- an action's type, checked once in the glue ---------------------------------------------

NON_INTS = [True, False, 1.0, "0", None, np.int64(0), np.int32(1), np.float64(0.0)]


def test_play_is_handed_ints_only(monkeypatch):
    seen = []
    real = minimal_games.KuhnMatch.play

    def spy(match, action):
        seen.append(type(action))
        return real(match, action)

    monkeypatch.setattr(minimal_games.KuhnMatch, "play", spy)
    game = pyspiel.load_game("fogboard_test_kuhn")
    state = game.new_initial_state()
    for action in NON_INTS:
        with pytest.raises(ValueError, match="illegal chance outcome"):
            state._apply_action(action)
    assert state.history() == [] and seen == []
    testing.check_illegal_refused(game, seed=3)  # the suite's own odd actions
    assert seen and set(seen) == {int}


# Refusals as every ruleset's play spelled them before the glue checked the
# type (recorded on the code before the change): word for word.
REFUSALS = [
    (
        "phantom-ttt-3",
        True,
        "illegal action True (b1) for seat 0: not a legal attempt for this seat; "
        "legal: a1, b1, c1, a2, b2, c2, a3, b3, c3",
    ),
    (
        "phantom-ttt-3",
        np.int64(0),
        "illegal action np.int64(0) (a1) for seat 0: not a legal attempt for this seat; "
        "legal: a1, b1, c1, a2, b2, c2, a3, b3, c3",
    ),
    (
        "phantom-ttt-3",
        "0",
        "illegal action '0' (out of range 0..8) for seat 0: not a legal attempt for this seat; "
        "legal: a1, b1, c1, a2, b2, c2, a3, b3, c3",
    ),
    (
        "liars-dice-1",
        1.0,
        "illegal chance outcome 1.0 (out of range 0..5) for chance: chance rolls a die of "
        "seat 0: roll 1..roll 6; legal: roll 1, roll 2, roll 3, roll 4, roll 5, roll 6",
    ),
    (
        "mind-bluff-tiny",
        None,
        "illegal action None (out of range 0..8) for seat 0: the mover eats 1..3 or says all "
        "done; legal: eat 1, eat 2, eat 3, all done",
    ),
]


@pytest.mark.parametrize("preset,action,message", REFUSALS)
def test_a_non_int_action_is_refused_as_before(preset, action, message):
    state = fogboard_games.load(preset).new_initial_state()
    with pytest.raises(ValueError) as err:
        state._apply_action(action)
    assert str(err.value) == message
    assert state.history() == []


@pytest.mark.parametrize("preset", ["dark-hex-5", "liars-dice-classic-1", "parley-tiny"])
def test_numpy_ints_are_actions_through_apply_action(preset):
    state = fogboard_games.load(preset).new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        legal = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        state.apply_action(np.int64(legal[-1]))  # pyspiel hands the glue a Python int
        assert state.history()[-1] == legal[-1]
