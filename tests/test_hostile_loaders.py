"""Hostile input to the two loaders gets the documented refusal, and nothing else.

`fogboard_games.load_review` refuses with ReviewError and the boards' engine
log reader with EngineLogError, each naming the field, ply or action step
(docs/reviews.md, docs/boards_bots_and_engine_logs.md). Here: the cases an
adversarial trial found, every field of real reviews tampered in turn, and
property-based fuzzing of both loaders with random and mutated input.
"""

from __future__ import annotations

import ast
import copy
import json
import pathlib
import pickle
import random
import re

import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fogboard_games
from fogboard_games.boards import engine_log as R
from fogboard_games.boards.engine_log import EngineLogError
from fogboard_games.core.review import ReviewError
from fogboard_games.core.testing import finished_game

ROOT = pathlib.Path(__file__).resolve().parent.parent
PRESETS = ["phantom-ttt-3", "dark-hex-4", "recon-hex-5", "liars-dice", "liars-dice-table"]
HUGE = 10**5000  # past Python's 4,300-digit int-to-string limit
HOSTILE = [1.5, 2**31, -1, True, None, [1], {}, "x", 1e-12, 3.0000000001, HUGE]
DELETE = object()  # a tamper that removes the field instead


def finished(preset: str, seed: int) -> pyspiel.State:
    """A seeded random game of a preset, played to its end."""
    return finished_game(fogboard_games.load(preset), seed)


def review_of(preset: str, seed: int = 1) -> dict:
    return json.loads(json.dumps(finished(preset, seed).review()))


REVIEWS = {preset: review_of(preset) for preset in PRESETS}


def paths(value, prefix=()):
    """Every field and leaf of a JSON value, as key/index paths."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield prefix + (k,)
            yield from paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield prefix + (i,)
            yield from paths(v, prefix + (i,))


def get(value, path):
    for k in path:
        value = value[k]
    return value


def tampered(value, path, new):
    out = copy.deepcopy(value)
    parent = get(out, path[:-1])
    if new is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return out


def same_leaf(stated, derived) -> bool:
    """The documented comparison: ints as ints, floats as close numbers, else exact."""
    if isinstance(derived, float):
        return (
            isinstance(stated, (int, float))
            and not isinstance(stated, bool)
            and abs(stated) < 2**63
            and abs(stated - derived) < 1e-9
        )
    if isinstance(derived, dict):
        return (
            isinstance(stated, dict)
            and stated.keys() == derived.keys()
            and all(same_leaf(stated[k], derived[k]) for k in derived)
        )
    if isinstance(derived, list):
        return (
            isinstance(stated, list)
            and len(stated) == len(derived)
            and all(same_leaf(a, b) for a, b in zip(stated, derived))
        )
    return type(stated) is type(derived) and stated == derived


def load_or_refuse(review):
    """The state load_review rebuilds, or None when it refuses with ReviewError.

    Any other exception escapes and fails the test.
    """
    try:
        return fogboard_games.load_review(review)
    except ReviewError:
        return None


def assert_states_only_facts(original: dict, review: dict, path: tuple, new, rebuilt) -> None:
    """An accepted tampered `review` (`original` with `path` set to `new`) states only facts.

    Outside `params`, the tampered value must say what the original said
    (an int for an integral float, a deleted optional field) and the game
    must be the original one. In `params` it may name another game (a
    parameter that made no difference to these plies), but the rebuilt game
    really has every stated parameter, and every other field is as before.
    """
    derived = rebuilt.review()
    if path[0] == "params":
        for name, value in review["params"].items():
            assert same_leaf(value, derived["params"][name]), (path, new, name)
        rest = {k: v for k, v in derived.items() if k != "params"}
        assert rest == {k: v for k, v in original.items() if k != "params"}, path
        return
    assert derived == original, f"{path} = {new!r} changed the game"
    if new is DELETE:
        assert len(path) == 1 and path[0] not in ("game", "params", "actions"), path
    else:
        assert same_leaf(new, get(original, path)), f"{path} = {new!r} was accepted"


def message_names(info, *fragments) -> None:
    for f in fragments:
        assert f in str(info.value), f"{f!r} not in: {info.value}"


# ---- the cases the trial found: reviews ------------------------------------------------


def refuse_review(review, *fragments):
    with pytest.raises(ReviewError) as info:
        fogboard_games.load_review(review)
    message_names(info, *fragments)
    return str(info.value)


def test_a_float_against_a_string_field_is_refused_naming_it():
    review = copy.deepcopy(REVIEWS["dark-hex-4"])
    review["ending"] = 1.5
    refuse_review(review, "ending", "1.5")


def test_params_are_validated_before_pyspiel_sees_them(monkeypatch):
    seen = []
    real = pyspiel.load_game
    monkeypatch.setattr(pyspiel, "load_game", lambda *a: seen.append(a) or real(*a))
    base = REVIEWS["dark-hex-4"]
    for name, value, allowed in [
        ("max_plies", 2**31, "1..242 or -1"),
        ("max_plies", HUGE, "beyond 64 bits"),
        ("abrupt", [1], "true or false"),
        ("abrupt", 1, "true or false"),
        ("board_size", True, "an int in 2..11"),
        ("board_size", 4.0, "an int in 2..11"),
        ("board_size", None, "an int in 2..11"),
        ("obstype", {}, "one of 'reveal-nothing'"),
        ("obstype", "x", "one of 'reveal-nothing'"),
        ("max_plies", 50, "1..32 (2 x cells)"),  # only a cross-parameter check knows
    ]:
        review = copy.deepcopy(base)
        review["params"][name] = value
        refuse_review(review, f"params.{name}", allowed)
    review = copy.deepcopy(base)
    review["params"]["colour"] = "red"
    refuse_review(review, "params.colour", "not a parameter of fogboard_dark_hex")
    review["params"] = {1: 4}
    refuse_review(review, "params", "key 1 is not a string")
    for params in ([1], "board_size=4", None):
        review["params"] = params
        refuse_review(review, "'params' must be a dict")
    assert seen == []


def test_int_fields_refuse_floats_and_bools_close_to_the_int():
    base = REVIEWS["recon-hex-5"]
    stones = base["seats"][0]["stones"]
    for value in (stones + 1e-12, stones + 0.0000000001, float(stones), stones == 1):
        review = copy.deepcopy(base)
        review["seats"][0]["stones"] = value
        refuse_review(review, "seats[0].stones")
    review = copy.deepcopy(base)
    review["plies"][0]["seat"] = 1e-12  # seat 0, nearly
    refuse_review(review, "plies[0].seat")
    review = copy.deepcopy(base)
    review["plies"][3]["cell"] = 3.0000000001
    refuse_review(review, "plies[3].cell")


def test_float_fields_take_close_numbers_but_not_bools_or_strings():
    base = REVIEWS["liars-dice"]
    ret = base["returns"][0]
    for value in (int(ret), ret + 1e-12):
        review = copy.deepcopy(base)
        review["returns"][0] = value
        assert fogboard_games.load_review(review).returns() == base["returns"]
    for value in (ret + 1e-6, bool(ret), str(ret), None, [ret]):
        review = copy.deepcopy(base)
        review["returns"][0] = value
        refuse_review(review, "returns[0]")


def test_values_python_cannot_handle_are_refused_by_name():
    base = REVIEWS["phantom-ttt-3"]
    review = copy.deepcopy(base)
    review["plies"][1]["distToWin"][0] = HUGE
    refuse_review(review, "plies[1].distToWin[0]", "beyond 64 bits")
    review = copy.deepcopy(base)
    review["returns"][0] = HUGE  # int - float would overflow
    refuse_review(review, "returns[0]")
    review = copy.deepcopy(base)
    review["returns"][1] = float("nan")
    refuse_review(review, "returns[1]", "NaN")
    review = copy.deepcopy(base)
    cycle: list = []
    cycle.append(cycle)
    review["board"] = cycle
    refuse_review(review, "board", "deeper than")
    review = copy.deepcopy(base)
    review["plies"][0]["cell"] = ("a", 1)
    refuse_review(review, "plies[0].cell", "tuple is not a JSON value")
    review = copy.deepcopy(base)
    review["seats"][0][7] = 1
    refuse_review(review, "seats[0]", "key 7 is not a string")


def test_fields_are_stated_in_full():
    base = REVIEWS["recon-hex-5"]
    review = copy.deepcopy(base)
    review["plies"][2]["sensed"] = {}
    refuse_review(review, "plies[2].sensed", "left out")
    review = copy.deepcopy(base)
    del review["seats"][1]["probes"]
    refuse_review(review, "seats[1].probes", "left out")
    # Whole ruleset fields and default parameters may be left out.
    review = {k: copy.deepcopy(base[k]) for k in ("game", "params", "actions")}
    del review["params"]["obstype"]
    assert fogboard_games.load_review(review).review() == base


def test_actions_are_refused_at_their_step():
    base = REVIEWS["dark-hex-4"]
    for value, fragment in [
        (7, "must be an action string"),
        ("x" * 10**5, "is not a legal action of seat 0 here"),
        # The same move to the rules, but not as the rules write it.
        (base["actions"][2].upper() + " ", "actions[2]"),
    ]:
        review = copy.deepcopy(base)
        review["actions"][2] = value
        message = refuse_review(review)
        assert ("action 2" in message or "actions[2]" in message) and fragment in message
        assert len(message) < 600
    review = copy.deepcopy(base)
    review["actions"].append(review["actions"][0])
    refuse_review(review, f"action {len(base['actions'])}", "already over")


# ---- the cases the trial found: engine logs ----------------------------------------------


def engine_log_of(preset: str, seed: int = 2) -> dict:
    return json.loads(R.dumps(finished(preset, seed), seed=seed))


ENGINE_LOGS = {p: engine_log_of(p) for p in ("phantom-ttt-3", "dark-hex-4", "recon-hex-5")}


def refuse_engine_log(log, *fragments, text=False):
    with pytest.raises(EngineLogError) as info:
        R.loads(log) if text else R.from_engine_log(log)
    message_names(info, *fragments)
    return str(info.value)


def test_deep_nesting_is_refused_before_the_parser_recurses():
    for text in ("[" * 100000, '{"a":' * 100000, '{"protocol": ' + "[" * 5000 + "]" * 5000 + "}"):
        refuse_engine_log(text, "nests deeper than 32 levels", text=True)
    # Brackets inside strings are text, not nesting.
    r = copy.deepcopy(ENGINE_LOGS["dark-hex-4"])
    r["events"][1]["say"] = "[" * 1000
    assert R.loads(json.dumps(r)).is_terminal()


def test_number_literals_python_cannot_hold_are_refused_by_field():
    text = json.dumps(ENGINE_LOGS["dark-hex-4"])
    huge = text.replace('"seed": 2', '"seed": ' + "9" * 5000)
    refuse_engine_log(huge, "config.seed must be an int (64-bit)", text=True)
    inf = text.replace('"seed": 2', '"seed": 1e400')
    refuse_engine_log(inf, "config.seed must be an int", "beyond the largest float", text=True)
    assert '"scores": [' in text
    inf = re.sub(r'"scores": \[[^\]]*\]}\], "results"', '"scores": [1e999, 0]}], "results"', text)
    refuse_engine_log(inf, "scores[0] must be a number (finite)", text=True)
    refuse_engine_log("9" * 5000, "engine log must be an object", text=True)


def test_config_ints_past_pyspiel_are_refused_by_field():
    for key, value, allowed in [
        ("maxPlies", 2**31, "1..32"),
        ("maxPlies", -1, "1..32"),  # our -1 would be written back as 32
        ("maxPlies", HUGE, "64-bit"),
        ("size", 2**31, "2..11"),
        ("size", 2**64, "64-bit"),
        ("seed", 2**63, "64-bit"),
        ("first", HUGE, "64-bit"),
    ]:
        r = copy.deepcopy(ENGINE_LOGS["dark-hex-4"])
        r["config"][key] = value
        refuse_engine_log(r, f"config.{key}", allowed)
    for value, allowed in [(2**40, "1..11"), (6, "1..size (5)"), (-1, "0 (no sensing) or more")]:
        r = copy.deepcopy(ENGINE_LOGS["recon-hex-5"])
        r["config"]["sense"] = value
        refuse_engine_log(r, "config.sense", allowed)


def test_type_confusion_is_refused_by_field():
    base = ENGINE_LOGS["dark-hex-4"]
    attempt = next(i for i, e in enumerate(base["events"]) if e["kind"] == "attempt")
    cases = [
        (("config", "size"), True, "config.size must be an int"),
        (("config", "size"), 4.0, "config.size must be an int"),
        (("config", "abrupt"), 0, "config.abrupt must be a bool"),
        (("config", "sampled"), "true", "config.sampled must be a bool"),
        (("config", "first"), False, "config.first must be an int"),
        (("events", attempt, "round"), 0.0, "round must be an int"),
        (("events", attempt, "seat"), False, "seat must be an int"),
        (("events", attempt, "scripted"), 1, "scripted must be a bool"),
        (("events", attempt, "guess"), {}, "guess must be a list"),
        (("events", attempt, "say"), ["hi"], "say must be a str"),
        (("events", attempt, "say"), "\ud800", "say must be a str (UTF-8 text)"),
        (("events", attempt, "cell"), "A1", "must be written 'a1'"),
        (("events", attempt, "cell"), "a01", "must be written 'a1'"),
        (("events", attempt, "cell"), "a" + "1" * 5000, "is not a cell of a 4x4 board"),
        (("names",), {"0": "a", "1": "b"}, "names must be a list"),
        (("names",), ["a", 1], "names[1] must be a str"),
        (("results",), [], "results must be an object"),
        (("results", "stones"), [float(s) for s in base["results"]["stones"]], "results.stones"),
        (("results", "plies"), True, "results.plies"),
        (("results", "abrupt"), 0, "results.abrupt"),
        (("results", "scores"), [HUGE, 0], "results.scores"),
        (("results", "scores"), [float("nan"), 0.0], "results.scores"),
        (("results", "scores"), [True, False], "results.scores"),
        (("config",), {**base["config"], 1: 2}, "config: key 1 is not a string"),
    ]
    for path, value, fragment in cases:
        refuse_engine_log(tampered(base, path, value), fragment)


def test_python_objects_that_are_not_json_are_refused():
    base = ENGINE_LOGS["recon-hex-5"]
    cycle: list = []
    cycle.append(cycle)
    for path, value, fragment in [
        (("results", "distToWin"), cycle, "results.distToWin"),
        (("events", 1, "anchor"), b"a1", "anchor must be a str"),
        (("events", 2, "guess"), ("a1",), "guess must be a list"),
        (("config", "seed"), 2.0**70, "config.seed must be an int"),
    ]:
        refuse_engine_log(tampered(base, path, value), fragment)
    for not_text in (None, 7, ["{}"]):
        refuse_engine_log(not_text, "engine log text must be str or bytes", text=True)


def test_round_trips_keep_every_field():
    for log in ENGINE_LOGS.values():
        for sampled in (True, False):
            r = copy.deepcopy(log)
            r["config"]["sampled"] = sampled
            loaded = R.read_engine_log(json.loads(json.dumps(r)))
            assert loaded.sampled is sampled
            again = R.to_engine_log(loaded.state, **loaded.writer_args())
            assert again == r and json.dumps(again) == json.dumps(r)
            # Write then read: the written engine log reads back field for field.
            back = R.read_engine_log(again)
            assert back.writer_args() == loaded.writer_args()
            assert back.state.history() == loaded.state.history()


def test_the_writer_refuses_what_the_reader_would():
    state = finished("dark-hex-4", 2)
    for kwargs, fragment in [
        ({"seed": 2**64}, "seed must be an int (64-bit)"),
        ({"seed": True}, "seed must be an int"),
        ({"sampled": 1}, "sampled must be a bool"),
        ({"names": "AB"}, "names must be a list"),
        ({"names": ["a", "\udc00"]}, "names[1] must be a str (UTF-8 text)"),
        ({"extras": {0: {"guess": ["A1"]}}}, "must be written 'a1'"),
        ({"extras": {0: {"say": 3}}}, "say must be a str"),
        ({"win_path": ["a1"]}, "win_path is not a winning connection"),
    ]:
        with pytest.raises(EngineLogError) as info:
            R.to_engine_log(state, **kwargs)
        message_names(info, fragment)
    # A tuple of names is a fine pair; a read-back engine log writes it as a list.
    assert R.to_engine_log(state, names=("x", "o"))["names"] == ["x", "o"]


# ---- every field of real reviews, tampered in turn -------------------------------------


def shapes(review: dict) -> list[tuple]:
    """One path per field kind (list indices ignored), chosen by a seeded draw.

    `plies[*].distToWin[*]` is one kind; replacing each of its instances
    would cost a full re-simulation apiece and test the same code.
    """
    rng = random.Random(0)
    by_kind: dict[tuple, list[tuple]] = {}
    for path in paths(review):
        kind = tuple("*" if isinstance(k, int) else k for k in path)
        by_kind.setdefault(kind, []).append(path)
    return [rng.choice(group) for group in by_kind.values()]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_field_tampered_is_refused_or_changes_no_fact(preset):
    original = REVIEWS[preset]
    tampers = HOSTILE + [DELETE]
    # A table game re-simulates 400 actions per load: each of its fields
    # takes every third tamper, rotating, so all are used across its fields.
    stride = 3 if preset == "liars-dice-table" else 1
    tried = refused = 0
    for n, path in enumerate(shapes(original)):
        for new in tampers[n % stride :: stride]:
            review = tampered(original, path, new)
            tried += 1
            rebuilt = load_or_refuse(review)
            if rebuilt is None:
                refused += 1
            else:
                assert_states_only_facts(original, review, path, new, rebuilt)
    # Most tampers change a fact; those accepted said the same thing.
    assert tried > 150 and refused > 0.9 * tried, (tried, refused)


def test_untampered_reviews_rebuild_unchanged():
    for preset, review in REVIEWS.items():
        assert fogboard_games.load_review(copy.deepcopy(review)).review() == review, preset


# ---- property-based fuzzing ---------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
# What Python callers can hand over beyond JSON.
PYTHON_ONLY = st.sampled_from(
    [HUGE, -HUGE, float("nan"), float("inf"), (1, 2), {1: 2}, b"a1", "\ud800", object(), 2**63]
)
HOSTILE_VALUE = JSON | PYTHON_ONLY | st.sampled_from(HOSTILE)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = ["phantom-ttt-3", "dark-hex-4", "liars-dice"]


@FUZZ
@given(HOSTILE_VALUE)
def test_fuzz_review_random_values_are_refused(value):
    with pytest.raises(ReviewError):
        fogboard_games.load_review(value)


ACTION_WORDS = ["a1", "b2", "c3", "a3", "b1", "c1", "a2", "sense a1", "roll 3", "bid 1x2", "liar"]


@FUZZ
@given(
    st.fixed_dictionaries(
        {
            "game": st.sampled_from(sorted(fogboard_games.GAMES)) | st.text(max_size=5),
            "params": st.dictionaries(
                st.sampled_from(["board_size", "abrupt", "max_plies", "sense", "numdice", "x"]),
                HOSTILE_VALUE,
                max_size=3,
            )
            | HOSTILE_VALUE,
            "actions": st.lists(st.sampled_from(ACTION_WORDS) | HOSTILE_VALUE, max_size=12),
        },
        optional={"format": HOSTILE_VALUE, "returns": HOSTILE_VALUE},
    )
)
def test_fuzz_review_shaped_values_are_refused_or_rebuilt(review):
    state = load_or_refuse(review)
    if state is not None:  # a few random action lists do finish a game
        derived = state.review()
        assert derived["actions"] == review["actions"]
        assert review["params"].items() <= derived["params"].items()


@FUZZ
@given(st.sampled_from(SMALL), st.integers(0, 10**6), HOSTILE_VALUE | st.just(DELETE))
def test_fuzz_review_mutations_are_refused_or_change_no_fact(preset, pick, new):
    original = REVIEWS[preset]
    every = list(paths(original))
    path = every[pick % len(every)]
    review = tampered(original, path, new)
    rebuilt = load_or_refuse(review)
    if rebuilt is not None:
        assert_states_only_facts(original, review, path, new, rebuilt)


def read_or_refuse(log, text=False):
    try:
        return R.read_engine_log(R.parse(log) if text else log)
    except EngineLogError:
        return None


@FUZZ
@given(HOSTILE_VALUE)
def test_fuzz_engine_log_random_objects_are_refused(value):
    with pytest.raises(EngineLogError):
        R.from_engine_log(value)


@FUZZ
@given(st.text(max_size=200) | st.binary(max_size=200) | JSON.map(json.dumps))
def test_fuzz_engine_log_random_text_is_refused(text):
    with pytest.raises(EngineLogError):
        R.loads(text)


@FUZZ
@given(st.sampled_from(sorted(ENGINE_LOGS)), st.integers(0, 10**6), HOSTILE_VALUE | st.just(DELETE))
def test_fuzz_engine_log_mutations_are_refused_or_round_trip(preset, pick, new):
    original = ENGINE_LOGS[preset]
    every = list(paths(original))
    path = every[pick % len(every)]
    loaded = read_or_refuse(tampered(original, path, new))
    if loaded is not None:
        written = R.to_engine_log(loaded.state, **loaded.writer_args())
        again = R.read_engine_log(json.loads(json.dumps(written)))
        assert again.writer_args() == loaded.writer_args()
        assert again.state.history() == loaded.state.history()


JSON_PIECES = ["", "[", "]", "{", "}", '"', ",", ":", "-", "1e999", "9" * 5000, "NaN", "-0"]
JSON_PIECES += ["true", "null", "0.5", "\\u", "\\ud800", "\ud800", '"a1"', "[" * 3000, "{}"]


@FUZZ
@given(
    st.sampled_from(sorted(ENGINE_LOGS)),
    st.booleans(),
    st.integers(0, 10**6),
    st.integers(0, 6),
    st.sampled_from(JSON_PIECES) | st.text(max_size=4),
)
def test_fuzz_engine_log_text_edits_are_refused_or_read(preset, at_value, at, cut, piece):
    text = json.dumps(ENGINE_LOGS[preset])
    # Half the edits land where a value starts (after `": "`), where a
    # number literal or a bracket changes a field rather than the syntax.
    starts = [m.end() for m in re.finditer(r'": ', text)] if at_value else range(len(text))
    at = starts[at % len(starts)]
    edited = text[:at] + piece + text[at + cut :]
    loaded = read_or_refuse(edited, text=True)
    if loaded is not None:
        written = R.dumps(loaded.state, **loaded.writer_args())
        assert (
            R.read_engine_log(R.parse(written.encode("utf-8"))).writer_args()
            == loaded.writer_args()
        )


# ---- the security rule: JSON re-simulated, never unpickled or evaluated ----------------


def test_loaders_never_unpickle_or_evaluate(monkeypatch):
    state = finished("dark-hex-4", 1)
    blob = pyspiel.serialize_game_and_state(state.get_game(), state)  # pyspiel's pickle

    def forbidden(*args, **kwargs):
        raise AssertionError("a loader unpickled or evaluated its input")

    for owner, name in [
        (pickle, "loads"),
        (pickle, "load"),
        (pickle, "Unpickler"),
        (pyspiel, "deserialize_game_and_state"),
    ]:
        monkeypatch.setattr(owner, name, forbidden)
    monkeypatch.setattr("builtins.eval", forbidden)
    monkeypatch.setattr("builtins.exec", forbidden)
    for preset, review in REVIEWS.items():
        assert fogboard_games.load_review(copy.deepcopy(review)).review() == review, preset
    for log in ENGINE_LOGS.values():
        assert R.loads(json.dumps(log)).is_terminal()
    # A serialized state is neither a review, nor an action string, nor an engine log.
    refuse_review(blob, "a review is a JSON object")
    refuse_review({"game": "fogboard_dark_hex", "params": {}, "actions": [blob]}, "action 0")
    refuse_engine_log(blob, "not JSON", text=True)


LOADER_SOURCES = ["fogboard_games/core/review.py", "fogboard_games/core/guards.py"] + sorted(
    p.relative_to(ROOT).as_posix() for p in (ROOT / "fogboard_games/boards/engine_log").glob("*.py")
)


def test_the_loader_sources_are_all_there():
    # The engine log reader is a package of modules; a path that moved must not
    # leave the check below reading nothing.
    log = {m.rpartition("/")[2] for m in LOADER_SOURCES if "/engine_log/" in m}
    modules = {"__init__.py", "shape.py", "config.py", "derive.py", "read.py", "write.py"}
    assert log == modules | {"json_text.py"}  # a module added or moved is seen here
    assert all((ROOT / module).is_file() for module in LOADER_SOURCES[:2])


@pytest.mark.parametrize("module", LOADER_SOURCES)
def test_loader_sources_name_no_unpickler_or_evaluator(module):
    tree = ast.parse((ROOT / module).read_text())
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {
        a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    bad = {"pickle", "eval", "exec", "deserialize_game_and_state", "deserialize_state", "marshal"}
    assert not names & bad, names & bad
