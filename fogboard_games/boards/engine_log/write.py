"""Writing a finished board game as a fogboards.replay.v1 object (`to_engine_log`).

What rides beside the plies (names, seed, each attempt's say, notes and
guess, the text seats' transcripts) is checked as the reader would check
it, so a written engine log always reads back (docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fogboard_games.boards import rules
from fogboard_games.boards.engine_log.config import config_of
from fogboard_games.boards.engine_log.derive import (
    derive_results,
    end_round,
    path_problem,
    reason_of,
    scores_of,
    win_path,
)
from fogboard_games.boards.engine_log.shape import (
    ATTEMPT_EXTRAS,
    DEFAULT_NAMES,
    PROTOCOL,
    WIN_ENDINGS,
    EngineLogError,
    cell_of,
    check_type,
    pair_of,
    show,
)
from fogboard_games.core.guards import is_int64, quoted


def _normalize_extras(
    extras: Any, plies: int, geo: rules.Geometry, given: list[tuple[dict, int | None]] | None = None
) -> list[dict]:
    """Per-ply attempt extras, defaults filled in, checked.

    `given` (from `_transcript_extras`) holds, per ply, fields that come
    before `extras`, and the text seat they come from (None: defaults that
    `extras` may override; a seat: fields `extras` must leave out).
    """
    rows: list[Any] = [None] * plies
    if extras is None:
        pass
    elif isinstance(extras, Mapping):
        for k, v in extras.items():
            if not is_int64(k) or not 0 <= k < plies:
                raise EngineLogError(f"extras: key {show(k)} is not a ply index 0..{plies - 1}")
            rows[k] = v
    elif isinstance(extras, (list, tuple)):
        if len(extras) != plies:
            raise EngineLogError(f"extras: {len(extras)} entries for {plies} plies")
        rows = list(extras)
    else:
        raise EngineLogError(
            f"extras must be a list (one entry per ply) or a dict by ply, got {show(extras)}"
        )
    out = []
    for p, row in enumerate(rows):
        row = {} if row is None else row
        if not isinstance(row, Mapping):
            raise EngineLogError(f"extras for ply {p} must be a dict, got {show(row)}")
        for k in row:
            if k not in ATTEMPT_EXTRAS:
                key = quoted(k) if isinstance(k, str) else show(k)
                raise EngineLogError(
                    f"extras for ply {p}: unknown key {key} (allowed: {', '.join(ATTEMPT_EXTRAS)})"
                )
        e = {"say": "", "notes": "", "guess": [], "scripted": False, "fellBack": False}
        if given is not None:
            fields, seat = given[p]
            if seat is not None:
                for k in fields:
                    if k in row:
                        raise EngineLogError(
                            f"extras for ply {p}: {k!r} comes from seat {seat}'s transcript; "
                            "leave it out of extras"
                        )
            e.update(fields)
        e.update(row)
        for k, kind in (
            ("say", "str"),
            ("guess", "list"),
            ("scripted", "bool"),
            ("fellBack", "bool"),
        ):
            check_type(f"extras for ply {p}: {k}", e[k], kind)
        if e["notes"] is not None:
            check_type(f"extras for ply {p}: notes", e["notes"], "str")
        e["guess"] = [geo.names[cell_of(f"extras for ply {p}: guess", g, geo)] for g in e["guess"]]
        out.append(e)
    return out


TRANSCRIPT_KEYS = ("move", "fell_back", "say", "notes")


def _transcript_extras(m: rules.Match, transcripts: Any) -> list[tuple[dict, int | None]]:
    """Per ply, the attempt fields the text seats' transcripts give (see to_engine_log)."""
    geo = m.setup
    if not isinstance(transcripts, Mapping):
        raise EngineLogError(
            f"transcripts must be a dict {{seat: bot.transcript}}, got {show(transcripts)}"
        )
    entries: dict[int, list] = {}
    for seat, transcript in transcripts.items():
        if not is_int64(seat) or seat not in (0, 1):
            raise EngineLogError(f"transcripts: key {show(seat)} is not a seat (0 or 1)")
        transcript = _as_list(transcript)
        check_type(f"transcripts[{seat}]", transcript, "list")
        entries[seat] = transcript
    used = dict.fromkeys(entries, 0)
    out: list[tuple[dict, int | None]] = []
    for p, (seat, anchor, _, cell, _) in enumerate(m.plies):
        if seat not in entries:
            out.append(({"scripted": True}, None))
            continue
        decisions = ([geo.cells + anchor] if anchor >= 0 else []) + [cell]
        says, notes, fell_back = [], [], False
        for action in decisions:
            i, transcript = used[seat], entries[seat]
            where = f"transcripts[{seat}][{i}]"
            if i >= len(transcript):
                raise EngineLogError(
                    f"transcripts[{seat}]: {len(transcript)} entries, but seat {seat} made more "
                    f"decisions in this game (ply {p})"
                )
            entry = transcript[i]
            if not isinstance(entry, Mapping):
                raise EngineLogError(
                    f"{where} must be a dict (a transcript entry), got {show(entry)}"
                )
            for key in TRANSCRIPT_KEYS:
                if key not in entry:
                    raise EngineLogError(f"{where}: missing key {key!r}")
            check_type(f"{where}: move", entry["move"], "str")
            check_type(f"{where}: fell_back", entry["fell_back"], "bool")
            check_type(f"{where}: say", entry["say"], "str")
            if entry["notes"] is not None:
                check_type(f"{where}: notes", entry["notes"], "str")
            played = geo.action_name(seat, action)
            if entry["move"] != played:
                raise EngineLogError(
                    f"{where} (ply {p}): the transcript's move is {quoted(entry['move'])}, "
                    f"but seat {seat} played {played!r}"
                )
            says += [entry["say"]] if entry["say"] else []
            notes += [entry["notes"]] if entry["notes"] else []
            fell_back = fell_back or entry["fell_back"]
            used[seat] += 1
        fields = {
            "say": " | ".join(says),
            "notes": " | ".join(notes),
            "scripted": False,
            "fellBack": fell_back,
        }
        out.append((fields, seat))
    for seat, transcript in entries.items():
        if used[seat] != len(transcript):
            raise EngineLogError(
                f"transcripts[{seat}]: {len(transcript)} entries for seat {seat}'s "
                f"{used[seat]} decisions in this game (pass the transcript of this game only)"
            )
    return out


def _as_list(v: Any) -> Any:
    # A tuple is a fine pair of names; a str is not one ("AB" is not ["A", "B"]).
    return list(v) if isinstance(v, (list, tuple)) else v


def _written_path(m: rules.Match, given: Sequence[str] | None) -> list[str]:
    geo = m.setup
    if given is None:
        return [geo.names[c] for c in win_path(m)]
    given = _as_list(given)
    check_type("win_path", given, "list")
    path = [cell_of(f"win_path[{i}]", c, geo) for i, c in enumerate(given)]
    problem = path_problem(m, m.winner, path)
    if problem:
        raise EngineLogError(f"win_path is not a winning {m.ending}: {problem}")
    return list(given)


def to_engine_log(
    state,
    names: Sequence[str] | None = None,
    policy_names: Sequence[str] | None = None,
    seed: int = 0,
    extras: Any = None,
    sampled: bool = True,
    win_path: Sequence[str] | None = None,
    transcripts: Mapping[int, Sequence[Mapping]] | None = None,
) -> dict:
    """The `fogboards.replay.v1` object of a finished (or deadline-stopped) game.

    `names` are the seats' table aliases, `policy_names` the policies behind
    them (`results.names`), `seed` the engine's episode seed (a 64-bit int),
    `sampled` the engine's config flag (the rules never read it). `extras`
    gives, per ply (a list, or a dict by ply index), what the seat said
    beside its attempt: `say`, `notes` (None leaves the key out, as
    published logs do), `guess` (cell names), `scripted`, `fellBack`.
    `win_path` (cell names) is the path the win event records; None writes
    the engine's own (see `win_path`), any other must be a winning path.
    `transcripts` ({seat: bot.transcript}) gives the text seats
    (fogboard_games.bots.text): each of the seat's attempts takes `say` and
    `notes` from the transcript entries of its ply (in recon hex the sense's
    and the attempt's, the non-empty ones joined by " | "), `scripted`
    false, and `fellBack` true when the fallback decided either; every other
    seat's attempts are `scripted` true (a scripted bot; `extras` may say
    otherwise). A transcript must hold exactly the seat's decisions in this
    game, in order, and each entry's `move` must be what the seat played;
    `extras` may add a text seat's `guess` but not the fields its
    transcript gives.
    The writer refuses (EngineLogError) what its reader would refuse, so a
    written engine log always reads back.
    """
    m = getattr(state, "truth", None)
    if not isinstance(m, rules.Match):
        raise ValueError(f"to_engine_log writes Fog-of-War board games, not {type(state).__name__}")
    geo = m.setup
    if m.ending is None:
        raise ValueError(
            "the game is still running; an engine log records a finished game "
            "(stop it with stop_at_deadline(state) to record a deadline stop)"
        )
    names = _as_list(DEFAULT_NAMES if names is None else names)
    policy_names = _as_list(names if policy_names is None else policy_names)
    pair_of("names", names, "str")
    pair_of("policy_names", policy_names, "str")
    check_type("seed", seed, "int")
    check_type("sampled", sampled, "bool")
    given = None if transcripts is None else _transcript_extras(m, transcripts)
    rows = _normalize_extras(extras, len(m.plies), geo, given)
    path = None
    if m.ending in WIN_ENDINGS:
        path = _written_path(m, win_path)
    elif win_path is not None:
        raise EngineLogError(f"win_path: the game ended {m.ending}, not in a win; pass None")
    events = _events(m, rows, path)
    return {
        "protocol": PROTOCOL,
        "names": names,
        "policyNames": policy_names,
        "config": {
            **config_of(geo.game),
            "seed": seed,
            "maxPlies": geo.max_plies,
            "sampled": sampled,
        },
        "events": events,
        "results": derive_results(m, rows, policy_names),
    }


def _events(m: rules.Match, rows: list[dict], path: list[str] | None) -> list[dict]:
    """The engine log's events: start, each ply's sense and attempt (with the
    seat's words from `rows`), the win along `path` when there is one, the end."""
    geo = m.setup
    events: list[dict] = [{"kind": "start", "round": -1}]
    for p, ((seat, anchor, _, cell, result), e) in enumerate(zip(m.plies, rows, strict=True)):
        if anchor >= 0:
            events.append(
                {
                    "kind": "sense",
                    "round": p,
                    "seat": seat,
                    "anchor": geo.names[geo.anchors[anchor]],
                }
            )
        attempt = {"kind": "attempt", "round": p, "seat": seat, "cell": geo.names[cell]}
        attempt["result"] = rules.RESULT_NAMES[result]
        attempt["say"] = e["say"]
        if e["notes"] is not None:
            attempt["notes"] = e["notes"]
        attempt.update(guess=list(e["guess"]), scripted=e["scripted"], fellBack=e["fellBack"])
        events.append(attempt)
    if path is not None:
        events.append(
            {
                "kind": "win",
                "round": len(m.plies) - 1,
                "seat": m.winner,
                "how": m.ending,
                "path": path,
            }
        )
    events.append(
        {
            "kind": "end",
            "round": end_round(m),
            "reason": reason_of(m.ending),
            "ending": m.ending,
            "scores": scores_of(m),
        }
    )
    return events
