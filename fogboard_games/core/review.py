"""Reviews: a finished game as a JSON-ready dict, and its loader (docs/reviews.md).

A review names the game and its parameters, lists every action as its
string, and shows every hidden fact turn by turn. `load_review` rebuilds the
finished state by re-simulating those action strings through the rules
(never by unpickling: pyspiel's own state serialization is a pickle and must
not be fed untrusted data), then checks every field the review states
against the rebuilt game. Anything else it refuses with a `ReviewError`
naming the field (`params.max_plies`, `plies[3].cell`) or the action step:
a value that is not plain JSON, a parameter the game does not allow, an
action the rules do not allow there, a fact the rules do not reproduce.
The guards it shares with the boards' engine logs (describe, the plain-JSON check, the
bounds) are core/guards.py, still importable from here.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from fogboard_games.core.contract import REVIEW_FORMAT as FORMAT
from fogboard_games.core.guards import (
    MAX_DEPTH,
    MAX_INT,
    describe,
    field_path,
    json_problem,
    same_fact,
    shortened,
)
from fogboard_games.core.registry import GAMES, param_spec

# The optional field of the text seats' words: one entry per decision
# (docs/reviews.md#what-text-seats-said). A text seat keeps at most 100
# characters of `say` (bots/text.py SAY_LIMIT); `notes` are bounded so that
# a hostile file cannot make a page of megabytes out of one decision.
TEXT_SEATS = "text_seats"
SAY_MAX = 100
NOTES_MAX = 2000
TEXT_SEAT_KEYS = ("say", "notes", "fell_back")

# The optional field naming who sat in each seat (docs/reviews.md#who-sat-in-each-seat):
# a bot kind's name, or HUMAN for the person of terminal or browser play.
SEAT_KINDS = "seat_kinds"
HUMAN = "human"
KIND_MAX = 100

# A float field may differ from the rules' value by this much: a review is
# only compared, never written back, and JSON writers differ on the last digit.
CLOSE = 1e-9


class ReviewError(ValueError):
    """A review that is malformed or that the rules do not reproduce."""


def first_difference(stated: Any, derived: Any, path: str = "") -> str | None:
    """Path and values of the first field of `stated` that `derived` contradicts.

    What a field states, it states in full: a dict with a key left out
    (`sensed: {}`) or a list with an entry left out says something else.
    """
    where = path or "review"
    if isinstance(derived, dict):
        if not isinstance(stated, dict):
            return f"{where}: review says {describe(stated)}, rules give {describe(derived)}"
        for k, v in stated.items():
            field = field_path(path, k)
            if k not in derived:
                return f"{field}: not a field of this game's review"
            diff = first_difference(v, derived[k], field)
            if diff:
                return diff
        missing = [k for k in derived if k not in stated]
        if missing:
            return f"{field_path(path, missing[0])}: left out, rules give {describe(derived[missing[0]])}"
        return None
    if isinstance(derived, list):
        if not isinstance(stated, list):
            return f"{where}: review says {describe(stated)}, rules give {len(derived)} entries"
        if len(stated) != len(derived):
            return f"{where}: review has {len(stated)} entries, rules give {len(derived)}"
        for i, (a, b) in enumerate(zip(stated, derived)):
            diff = first_difference(a, b, f"{where}[{i}]")
            if diff:
                return diff
        return None
    if not same_fact(stated, derived, CLOSE):
        return f"{where}: review says {describe(stated)}, rules give {describe(derived)}"
    return None


def review_difference(review: dict, derived: dict) -> str | None:
    """The first field of `review` that the rules' own review `derived` contradicts.

    A review may leave out whole fields after `actions` (a short review for
    a reader who wants the moves only) and parameters at their defaults
    (`params` is the input the game was loaded from, not a record); every
    field it keeps is compared in full.
    """
    for key, value in review.items():
        if key not in derived:
            return f"{field_path('', key)}: not a field of this game's review"
        if key == "params":
            # The stated params loaded the game, so each names a parameter
            # the derived (resolved) params hold.
            diff = first_difference(value, {k: derived[key].get(k) for k in value}, key)
        else:
            diff = first_difference(value, derived[key], key)
        if diff:
            return diff
    return None


def check_params(short_name: str, params: dict) -> None:
    """Refuse, naming `params.<name>`, any parameter the game does not allow.

    Runs before pyspiel sees the parameters: pyspiel turns a wrong type into
    a SpielError and an int past 32 bits into a RuntimeError, neither of
    which names the review's field.
    """
    spec = param_spec(short_name)
    for name, value in params.items():
        if not isinstance(name, str) or name not in spec.params:
            raise ReviewError(
                f"{field_path('params', name)}: not a parameter of {short_name}; "
                f"known: {', '.join(sorted(spec.params))}"
            )
        # Game parameters are ints, bools or strings only (game strings have
        # no floats, lists or objects).
        if type(value) not in (int, bool, str):
            raise ReviewError(
                f"params.{name}: must be {spec.params[name].allowed()}, got {describe(value)}"
            )
        try:
            spec.params[name].check(short_name, value)
        except ValueError as e:
            raise ReviewError(f"params.{name}: {shortened(e)}") from None
    try:
        spec.resolve(params)
    except ValueError as e:
        # Only the cross-parameter bounds are left (a cap beyond the board):
        # their refusal, a core.params.ParamError, names the parameter.
        named = getattr(e, "param", None)
        raise ReviewError(f"params{'.' + named if named else ''}: {shortened(e)}") from None


def check_text_seats(entries: Any, decisions: int) -> None:
    """ReviewError unless `entries` is the text seats' field of a game of
    `decisions` decisions: a list of that many entries, each null (no text
    seat decided it) or {"say": str, "notes": str, "fell_back": bool}."""
    if not isinstance(entries, list):
        raise ReviewError(
            f"{TEXT_SEATS}: must be a list, one entry per decision, got {describe(entries)}"
        )
    if len(entries) != decisions:
        raise ReviewError(
            f"{TEXT_SEATS}: {len(entries)} entries, but the game has {decisions} decisions "
            "(one entry per decision, null where no text seat decided)"
        )
    for i, entry in enumerate(entries):
        where = f"{TEXT_SEATS}[{i}]"
        if entry is None:
            continue
        if not isinstance(entry, dict) or sorted(entry) != sorted(TEXT_SEAT_KEYS):
            raise ReviewError(
                f"{where}: must be null or an object with exactly the keys "
                f"{', '.join(TEXT_SEAT_KEYS)}, got {describe(entry)}"
            )
        for key, limit in (("say", SAY_MAX), ("notes", NOTES_MAX)):
            if not isinstance(entry[key], str):
                raise ReviewError(f"{where}.{key}: must be a string, got {describe(entry[key])}")
            if len(entry[key]) > limit:
                raise ReviewError(
                    f"{where}.{key}: {len(entry[key])} characters; at most {limit} are kept"
                )
        if not isinstance(entry["fell_back"], bool):
            raise ReviewError(
                f"{where}.fell_back: must be true or false, got {describe(entry['fell_back'])}"
            )


def seat_kind_problem(name: Any) -> str | None:
    """Why `name` cannot name a seat's kind in a review (None if it can)."""
    if not isinstance(name, str):
        return f"must be a string, got {describe(name)}"
    if not 1 <= len(name) <= KIND_MAX or not name.isprintable():
        return (
            f"must be 1 to {KIND_MAX} printable characters (a bot kind, or {HUMAN!r}), "
            f"got {describe(name)}"
        )
    return None


def check_seat_kinds(kinds: Any, seats: int) -> None:
    """ReviewError unless `kinds` is the seats' kinds of a game of `seats`
    seats: a list of that many names, one per seat in seat order, each a
    bot kind or "human"."""
    if not isinstance(kinds, list):
        raise ReviewError(
            f"{SEAT_KINDS}: must be a list of {seats} names, one per seat "
            f"(a bot kind, or {HUMAN!r}), got {describe(kinds)}"
        )
    if len(kinds) != seats:
        raise ReviewError(
            f"{SEAT_KINDS}: {len(kinds)} names, but the game has {seats} seats (one name per seat)"
        )
    for i, name in enumerate(kinds):
        problem = seat_kind_problem(name)
        if problem:
            raise ReviewError(f"{SEAT_KINDS}[{i}]: {problem}")


def with_seat_kinds(review: dict, kinds) -> dict:
    """`review` naming who sat in each seat (`kinds`, one per seat: a bot
    kind, or "human"); ReviewError if they are not one name per seat."""
    kinds = list(kinds)
    check_seat_kinds(kinds, len(review["returns"]))
    return {**review, SEAT_KINDS: kinds}


def with_transcripts(review: dict, transcripts: dict) -> dict:
    """`review` with the text seats' field made from their transcripts.

    `transcripts` maps a seat to its text seat's `bot.transcript` (the list
    of one game's decisions, docs/bots.md#text-seats); the seat's k-th
    decision of the game gets its k-th entry, whose move must be the one the
    review records there. ValueError naming the seat and entry otherwise.
    """
    state = load_review(review)
    game = state.get_game()
    replay = game.new_initial_state()
    used = {seat: 0 for seat in transcripts}
    entries: list[dict | None] = []
    for action in state.history():
        if not replay.is_chance_node():
            seat = replay.current_player()
            entry = None
            if seat in transcripts:
                k = used[seat]
                if k >= len(transcripts[seat]):
                    raise ValueError(
                        f"transcripts[{seat}] has {k} entries, but seat {seat} made more decisions"
                    )
                record = transcripts[seat][k]
                move = replay.action_to_string(seat, action)
                if record.get("move") != move:
                    raise ValueError(
                        f"transcripts[{seat}][{k}]: move {describe(record.get('move'))}, "
                        f"but the review has {move!r} there"
                    )
                entry = {
                    "say": str(record.get("say", ""))[:SAY_MAX],
                    "notes": str(record.get("notes", ""))[:NOTES_MAX],
                    "fell_back": bool(record.get("fell_back", False)),
                }
                used[seat] = k + 1
            entries.append(entry)
        replay.apply_action(action)
    for seat, k in used.items():
        if k != len(transcripts[seat]):
            raise ValueError(
                f"transcripts[{seat}] has {len(transcripts[seat])} entries, but seat {seat} "
                f"made {k} decisions in this game"
            )
    return {**review, TEXT_SEATS: entries}


def load_review(review: Any) -> pyspiel.State:
    """Rebuild the finished state a review describes; ReviewError if it can't."""
    if not isinstance(review, dict):
        raise ReviewError(f"a review is a JSON object (dict), got {describe(review)}")
    problem = json_problem(review)
    if problem:
        raise ReviewError(problem)
    for field, kind in (("game", str), ("params", dict), ("actions", list)):
        if not isinstance(review.get(field), kind):
            raise ReviewError(
                f"review field {field!r} must be a {kind.__name__}, got {describe(review.get(field))}"
            )
    if review.get("format", FORMAT) != FORMAT:
        raise ReviewError(f"format: {describe(review.get('format'))} is not {FORMAT!r}")
    if review["game"] not in GAMES:
        raise ReviewError(
            f"game: unknown game {describe(review['game'])}; known: {', '.join(sorted(GAMES))}"
        )
    check_params(review["game"], review["params"])
    try:
        game = pyspiel.load_game(review["game"], review["params"])
    except (ValueError, pyspiel.SpielError) as e:
        raise ReviewError(f"params rejected: {shortened(e)}") from None
    state = game.new_initial_state()
    decisions = 0
    for step, text in enumerate(review["actions"]):
        if not isinstance(text, str):
            raise ReviewError(f"action {step}: must be an action string, got {describe(text)}")
        if state.is_terminal():
            raise ReviewError(f"action {step} ({describe(text)}): the game was already over")
        try:
            action = state.string_to_action(text)
        except (ValueError, pyspiel.SpielError) as e:
            raise ReviewError(f"action {step} ({describe(text)}): {shortened(e)}") from None
        legal = (
            state.legal_actions()
            if not state.is_chance_node()
            else [a for a, _ in state.chance_outcomes()]
        )
        if action not in legal:
            raise ReviewError(f"action {step} ({describe(text)}) is not legal there")
        decisions += not state.is_chance_node()
        state.apply_action(action)
    if not state.is_terminal() and hasattr(state, "finish_as_reviewed"):
        # A game can end by something that is not an action (a board game
        # stopped by its wall clock); the ruleset applies it, or refuses.
        n = len(review["actions"])
        try:
            state.finish_as_reviewed(review)
        except ValueError as e:
            where = f"after action {n - 1}" if n else "before any action"
            raise ReviewError(f"{where}: {shortened(e)}") from None
    if not state.is_terminal():
        raise ReviewError(
            f"actions: the review's {len(review['actions'])} actions do not finish the game"
        )
    if TEXT_SEATS in review:  # (not a field of the rules' review: the seats' words)
        check_text_seats(review[TEXT_SEATS], decisions)
    if SEAT_KINDS in review:  # (nor who sat where: the rules never see it)
        check_seat_kinds(review[SEAT_KINDS], game.num_players())
    review = {k: v for k, v in review.items() if k not in (TEXT_SEATS, SEAT_KINDS)}
    diff = review_difference(review, state.review())
    if diff:
        raise ReviewError("review disagrees with the rules at " + diff)
    return state


__all__ = [
    "FORMAT",
    "HUMAN",
    "MAX_DEPTH",
    "MAX_INT",
    "ReviewError",
    "SEAT_KINDS",
    "TEXT_SEATS",
    "check_params",
    "check_seat_kinds",
    "check_text_seats",
    "describe",
    "field_path",
    "first_difference",
    "json_problem",
    "load_review",
    "review_difference",
    "seat_kind_problem",
    "with_seat_kinds",
    "with_transcripts",
]
