"""The guards every loader of a stranger's JSON shares (fogboard_games/core/guards.py).

Reviews, engine logs and action strings quote, bound and compare hostile values
through one module; these tests pin what each guard answers, and that the
loaders answer alike where they share one.
"""

from __future__ import annotations

import pytest

import fogboard_games
from fogboard_games.core import guards, review
from fogboard_games.core.guards import describe, json_problem, quoted, same_fact, shortened


def test_same_fact_compares_floats_exactly_unless_told_how_close():
    third = 1 / 3
    assert same_fact(third, third)
    assert not same_fact(0.333333333333, third)  # an engine log writes the derived float back
    assert same_fact(0.333333333333, third, 1e-9)  # a review is only compared
    assert not same_fact(third + 1e-6, third, 1e-9)
    # An int may stand for an integral float, at any closeness.
    assert same_fact(1, 1.0) and same_fact(1, 1.0, 1e-9)
    assert not same_fact(1, 1.5) and not same_fact(1, 1.5, 1e-9)


@pytest.mark.parametrize("within", [0.0, 1e-9])
def test_same_fact_refuses_what_is_not_a_number_where_a_float_is_derived(within):
    for stated in (True, False, None, "1.0", [1.0], float("nan"), float("inf"), 2**63, -(2**64)):
        assert not same_fact(stated, 1.0, within), stated
    # Where the rules derive an int, only that int: not 1.0, not true.
    for stated in (1.0, True, "1", 1 + 2**64):
        assert not same_fact(stated, 1, within), stated
    assert same_fact(1, 1, within) and same_fact("a1", "a1", within)
    assert not same_fact(0, False, within) and not same_fact(None, 0, within)


def test_int_bounds_are_the_64_bit_ones():
    assert guards.is_int64(guards.MAX_INT) and guards.is_int64(guards.MIN_INT)
    assert not guards.is_int64(guards.MAX_INT + 1) and not guards.is_int64(guards.MIN_INT - 1)
    assert not guards.is_int64(True) and not guards.is_int64(1.0)
    assert guards.is_number(0.5) and not guards.is_number(float("nan"))
    assert not guards.is_number(float("-inf"))


def test_quoting_cuts_long_text_and_keeps_short_text_whole():
    assert quoted("c3") == "'c3'"
    assert quoted("x" * 40) == repr("x" * 40)
    assert quoted("x" * 41) == repr("x" * 37 + "...")
    text = "h" * 200 + " because the tail says why"
    cut = shortened(ValueError(text))
    assert len(cut) < 310 and cut.startswith("h" * 140) and cut.endswith("the tail says why")
    assert shortened("short") == "short"


def test_describe_is_safe_on_hostile_values():
    class Loud:
        def __repr__(self):  # never called
            raise AssertionError("describe called a foreign repr")

    assert describe(10**5000).startswith("<an int of ")
    assert describe(float("nan")) == "NaN"
    assert describe("\ud800") == '"\\ud800"'
    assert describe(Loud()) == "<a Loud>"
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    assert describe(deep) == "[[[...]]]"
    assert len(describe("y" * 1000)) <= 80


def test_json_problem_names_the_document_it_checks():
    assert json_problem({"a": [1, 2.5, "x", None, True]}) is None
    assert json_problem({"a": [1, float("nan")]}) == "a[1]: NaN is not a JSON number"
    assert json_problem(2**63) == (
        "review: <an int of 64 bits> is beyond 64 bits; no review field holds such an int"
    )
    assert json_problem({1: 2}, whole="engine log") == (
        "engine log: key 1 is not a string (JSON keys are strings)"
    )
    deep: list = []
    for _ in range(guards.MAX_DEPTH + 2):
        deep = [deep]
    assert "nested deeper than 32 levels (a review needs a few)" in json_problem(deep)


def test_reviews_still_export_the_guards_they_are_built_on():
    assert review.describe is describe and review.json_problem is json_problem
    assert review.field_path is guards.field_path
    assert (review.MAX_DEPTH, review.MAX_INT) == (guards.MAX_DEPTH, guards.MAX_INT)


@pytest.mark.parametrize("name", ["q" * 60, "\u212a11 \u00e9"], ids=["long", "look-alike"])
def test_action_strings_and_engine_logs_quote_a_refused_name_alike(name):
    from fogboard_games.boards import engine_log

    state = fogboard_games.load("phantom-ttt-3").new_initial_state()
    with pytest.raises(ValueError) as action:
        state.string_to_action(name)
    assert str(action.value).startswith(quoted(name) + " is not a legal action")
    assert str(action.value).isascii()  # a look-alike shows as its escape
    r = engine_log.to_engine_log(engine_log.stop_at_deadline(state))
    r["protocol"] = name
    with pytest.raises(engine_log.EngineLogError) as read:
        engine_log.from_engine_log(r)
    assert str(read.value).startswith(f"unknown protocol {quoted(name)};")


def test_nesting_is_bounded_in_the_text_before_the_parser_recurses():
    ok = "[" * guards.MAX_DEPTH + "]" * guards.MAX_DEPTH
    assert guards.nesting_too_deep(ok) is None
    assert guards.nesting_too_deep("[" * 100_000) == guards.MAX_DEPTH
    # Brackets inside a string are text, not nesting (escaped quotes too).
    assert guards.nesting_too_deep('["' + "[" * 100 + '\\"' + "{" * 100 + '"]') is None
    assert guards.nesting_too_deep('{"a": ' * 33 + "1" + "}" * 33) == 6 * 32  # the 33rd "{"
