"""Reviews: a finished game as a JSON-ready dict, and its loader (SPEC.md 0).

A review names the game and its parameters, lists every action as its
string, and shows every hidden fact turn by turn. `load_review` rebuilds the
finished state by re-simulating those action strings through the rules
(never by unpickling: pyspiel's own state serialization is a pickle and must
not be fed untrusted data), then checks every field the review states
against the rebuilt game and refuses, naming the step, one the rules do not
reproduce.
"""

from __future__ import annotations

from typing import Any

import pyspiel

FORMAT = "fogboard_games.review.v1"


class ReviewError(ValueError):
    """A review that is malformed or that the rules do not reproduce."""


def _describe(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def first_difference(stated: Any, derived: Any, path: str = "") -> str | None:
    """Path and values of the first field of `stated` that `derived` contradicts."""
    if isinstance(stated, dict):
        if not isinstance(derived, dict):
            return f"{path or 'review'}: review says {_describe(stated)}, rules give {_describe(derived)}"
        for k, v in stated.items():
            if k not in derived:
                return f"{path}.{k}".lstrip(".") + ": not a field of this game's review"
            diff = first_difference(v, derived[k], f"{path}.{k}" if path else k)
            if diff:
                return diff
        return None
    if isinstance(stated, list):
        if not isinstance(derived, list) or len(stated) != len(derived):
            n = len(derived) if isinstance(derived, list) else "no"
            return f"{path}: review has {len(stated)} entries, rules give {n}"
        for i, (a, b) in enumerate(zip(stated, derived)):
            diff = first_difference(a, b, f"{path}[{i}]")
            if diff:
                return diff
        return None
    if isinstance(stated, float) or isinstance(derived, float):
        ok = (
            isinstance(stated, (int, float))
            and not isinstance(stated, bool)
            and abs(stated - derived) < 1e-9
        )
    else:
        ok = type(stated) is type(derived) and stated == derived
    if not ok:
        return f"{path}: review says {_describe(stated)}, rules give {_describe(derived)}"
    return None


def load_review(review: Any) -> pyspiel.State:
    """Rebuild the finished state a review describes; ReviewError if it can't."""
    import fogboard_games  # noqa: F401  (registration)
    from fogboard_games.core.registry import GAMES

    if not isinstance(review, dict):
        raise ReviewError(f"a review is a JSON object (dict), got {type(review).__name__}")
    for field, kind in (("game", str), ("params", dict), ("actions", list)):
        if not isinstance(review.get(field), kind):
            raise ReviewError(
                f"review field {field!r} must be a {kind.__name__}, got {_describe(review.get(field))}"
            )
    if review.get("format", FORMAT) != FORMAT:
        raise ReviewError(f"review format {review.get('format')!r} is not {FORMAT!r}")
    if review["game"] not in GAMES:
        raise ReviewError(f"unknown game {review['game']!r}; known: {', '.join(sorted(GAMES))}")
    try:
        game = pyspiel.load_game(review["game"], review["params"])
    except (ValueError, pyspiel.SpielError) as e:
        raise ReviewError(f"review params rejected: {e}") from None
    state = game.new_initial_state()
    for step, text in enumerate(review["actions"]):
        if state.is_terminal():
            raise ReviewError(f"action {step} ({text!r}): the game was already over")
        if not isinstance(text, str):
            raise ReviewError(f"action {step}: must be an action string, got {_describe(text)}")
        try:
            action = state.string_to_action(text)
        except (ValueError, pyspiel.SpielError) as e:
            raise ReviewError(f"action {step} ({text!r}): {e}") from None
        legal = (
            state.legal_actions()
            if not state.is_chance_node()
            else [a for a, _ in state.chance_outcomes()]
        )
        if action not in legal:
            raise ReviewError(f"action {step} ({text!r}) is not legal there")
        state.apply_action(action)
    if not state.is_terminal() and hasattr(state, "finish_as_reviewed"):
        # A game can end by something that is not an action (a board game
        # stopped by its wall clock); the ruleset applies it, or refuses.
        try:
            state.finish_as_reviewed(review)
        except ValueError as e:
            raise ReviewError(f"after action {len(review['actions']) - 1}: {e}") from None
    if not state.is_terminal():
        raise ReviewError(f"the review's {len(review['actions'])} actions do not finish the game")
    diff = first_difference(review, state.review())
    if diff:
        raise ReviewError("review disagrees with the rules at " + diff)
    return state
