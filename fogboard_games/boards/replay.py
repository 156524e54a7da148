"""`fogboards.replay.v1`: the original engine's event log (docs/boards_bots_and_replays.md).

A replay is one JSON object:

    {"protocol": "fogboards.replay.v1",
     "names": [alias 0, alias 1], "policyNames": [policy 0, policy 1],
     "config": {"mode": "phantom-ttt" | "dark-hex", "size", "abrupt", "sense",
                "first": 0, "seed", "maxPlies", "sampled"},
     "events": [...], "results": {...}}

Events carry `kind` and `round` (the ply index; -1 for `start`), in the
order the original engine emits them:

    start   {kind, round: -1}
    sense   {kind, round, seat, anchor}                  (recon hex, every ply)
    attempt {kind, round, seat, cell, result, say, notes, guess, scripted, fellBack}
    win     {kind, round, seat, how, path}               (right after the winning attempt)
    end     {kind, round, reason, ending, scores}        (last)

Cells are algebraic names. `result` is `placed`/`occupied`; `how` is
`connection` (path: a chain of the winner's stones from one of its edges to
the other) or `line` (path: the three cells). `end.round` is the winning ply
for `connection`/`line`/`board-full`, and the number of plies played for
`ply-cap` and for a `deadline` stop, as the original engine counts them.
The original strips `notes` from published replays, so `notes` is optional.

`results` may hold, per seat, `names` (the policy names), `scores`,
`outcome` (1 / 0.5 / 0), `stones`, `probes` (collisions made), `discovered`
(opponent stones proven), `guessesMade`, `guessAccuracy`, `distToWin` (true,
final) and `fallbacks` (attempts marked `fellBack`), and `plies`,
`maxPlies`, `mode`, `size`, `abrupt`, `sense`, `ending`, `reason`.

Reading re-derives every ply through the rules (`pyspiel` actions on our
game; never pickle, never eval) and refuses, with a `ReplayError` (a
ValueError) naming the ply, any recorded result, win, path, ending or score
the rules do not derive, any `results` field that disagrees, and any shape
the format does not allow. Endings: `complete` with `line`, `connection`,
`board-full` or `ply-cap` must be what the rules derive; `deadline` with
`wall-clock` (the engine's play deadline, not derivable from the attempts)
is applied as recorded between plies and scored by true distToWin
(`Match.settle_by_distance`). Writing a stopped game keeps that pair, and
reading it back gives the same game.

Config maps to our games: `phantom-ttt` -> `fogboard_phantom_ttt(abrupt)`,
`dark-hex` with sense 0 -> `fogboard_dark_hex(board_size, abrupt)`, sense > 0
-> `fogboard_recon_hex(board_size, sense)`, which is abrupt only; all with
`max_plies = maxPlies`.

Hostile JSON gets the same refusal, and nothing else: a bool where an int
belongs (or the reverse), a float where an int belongs, an int beyond 64
bits, a number literal Python cannot hold, NaN or Infinity, a wrong
container, a non-string key, text that is not UTF-8, a cell name not
written as the engine writes it (`c3`, not `C3` or `c03`), or nesting
deeper than a replay has. A number where the rules derive a float must
equal it (an int may stand for an integral float: 1 for 1.0); `maxPlies`
is the cap itself (our max_plies' -1 is not a replay's). What is read is
kept: writing a read replay again (`to_replay(r.state, **r.writer_args())`)
gives every field back, and reading a written one gives the same game.

Text seats (fogboard_games.bots.text): `to_replay(state,
transcripts={seat: bot.transcript})` fills each attempt of a text seat from
its transcript (say, notes, `scripted` false, `fellBack` when the fallback
decided) and marks every other seat's attempts `scripted` (a scripted bot);
the format stays fogboards.replay.v1.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from fogboard_games.boards import review, rules
from fogboard_games.core.notation import parse_cell
from fogboard_games.core.registry import param_spec
from fogboard_games.core.review import describe

PROTOCOL = "fogboards.replay.v1"
MODES = ("phantom-ttt", "dark-hex")
KINDS = ("start", "sense", "attempt", "win", "end")
REASONS = ("complete", "deadline")
WIN_ENDINGS = ("line", "connection")
DEADLINE_ENDING = "wall-clock"

TOP_KEYS = ("protocol", "names", "policyNames", "config", "events", "results")
CONFIG_KEYS = ("mode", "size", "abrupt", "sense", "first", "seed", "maxPlies", "sampled")
EVENT_KEYS = {
    "start": ((), ()),
    "sense": (("seat", "anchor"), ()),
    "attempt": (("seat", "cell", "result", "say", "guess", "scripted", "fellBack"), ("notes",)),
    "win": (("seat", "how", "path"), ()),
    "end": (("reason", "ending", "scores"), ()),
}
RESULT_KEYS = (
    "names",
    "scores",
    "outcome",
    "stones",
    "probes",
    "discovered",
    "guessesMade",
    "guessAccuracy",
    "distToWin",
    "fallbacks",
    "plies",
    "maxPlies",
    "mode",
    "size",
    "abrupt",
    "sense",
    "ending",
    "reason",
)
# What the engine's seat may say alongside an attempt; never read by the rules.
ATTEMPT_EXTRAS = ("say", "notes", "guess", "scripted", "fellBack")
DEFAULT_NAMES = ("seat 0", "seat 1")
# Ints are 64-bit in the engine and in pyspiel's C++; anything wider is no
# replay's and would overflow pyspiel (a RuntimeError) or Python's
# int-to-string limit (a plain ValueError) in a message.
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
# A replay nests four deep (replay, events, an event, its guess list); the
# bound refuses "[[[[..." before the JSON parser recurses into it.
MAX_DEPTH = 32
# Replay fields -> our game's parameters, to name the field a bad value came from.
CONFIG_FIELD = {"board_size": "size", "abrupt": "abrupt", "sense": "sense", "max_plies": "maxPlies"}


class ReplayError(ValueError):
    """A replay that is malformed or that the rules do not reproduce."""


@dataclasses.dataclass
class Replay:
    """A replay read back: the finished state and what rides beside the plies.

    `to_replay(r.state, **r.writer_args())` writes the replay again.
    """

    state: pyspiel.State
    names: list[str]
    policy_names: list[str]
    seed: int
    extras: list[dict]  # per ply: say, notes (None when absent), guess, scripted, fellBack
    sampled: bool = True  # config.sampled, which the rules never read
    # The recorded win path (cell names): any winning chain is accepted, and
    # writing it again must not swap in the engine's shortest one.
    win_path: list[str] | None = None

    def writer_args(self) -> dict:
        return {
            "names": self.names,
            "policy_names": self.policy_names,
            "seed": self.seed,
            "extras": self.extras,
            "sampled": self.sampled,
            "win_path": self.win_path,
        }


# ---- small shape checks -----------------------------------------------------


class _Unreadable:
    """A JSON number literal Python would not hold as written: an int of
    hundreds of digits, or a float beyond the largest double (1e400 parses
    as Infinity). Parsing keeps it in place so the field it sits in refuses
    it by name; no field accepts one."""

    def __init__(self, literal: str, why: str):
        head = literal if len(literal) <= 20 else literal[:17] + "..."
        self.shown = f"{head} ({why})"


def _show(v: Any) -> str:
    if isinstance(v, _Unreadable):
        return v.shown
    return describe(v)


def _quoted(text: str) -> str:
    """A str as repr shows it, cut short (messages quote names this way)."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _is_int(v: Any) -> bool:
    # bool is an int to Python, never to a replay.
    return isinstance(v, int) and not isinstance(v, bool) and INT_MIN <= v <= INT_MAX


def _is_number(v: Any) -> bool:
    return _is_int(v) or (isinstance(v, float) and math.isfinite(v))


def _is_text(v: Any) -> bool:
    """A str that is UTF-8 text: a lone surrogate (JSON's "\\ud800") is not,
    and would make the written replay impossible to save as UTF-8."""
    if not isinstance(v, str):
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


KIND_TEXT = {
    "int": "an int (64-bit)",
    "bool": "a bool (true or false)",
    "str": "a str (UTF-8 text)",
    "list": "a list",
    "object": "an object",
    "number": "a number (finite)",
}


def _check_type(where: str, v: Any, kind: str) -> None:
    ok = {
        "int": _is_int,
        "bool": lambda x: isinstance(x, bool),
        "str": _is_text,
        "list": lambda x: isinstance(x, list),
        "object": lambda x: isinstance(x, dict),
        "number": _is_number,
    }[kind](v)
    if not ok:
        raise ReplayError(f"{where} must be {KIND_TEXT[kind]}, got {_show(v)}")


def _check_keys(
    where: str, obj: dict, required: Sequence[str], optional: Sequence[str] = ()
) -> None:
    for k in obj:
        if not isinstance(k, str):
            raise ReplayError(f"{where}: key {_show(k)} is not a string (JSON keys are strings)")
    for k in required:
        if k not in obj:
            raise ReplayError(f"{where}: missing key {k!r}")
    for k in obj:
        if k not in required and k not in optional:
            allowed = ", ".join(tuple(required) + tuple(optional)) or "none"
            raise ReplayError(f"{where}: unknown key {_quoted(k)} (allowed: {allowed})")


def _pair_of(where: str, v: Any, kind: str) -> list:
    _check_type(where, v, "list")
    if len(v) != 2:
        raise ReplayError(f"{where} must hold 2 entries (one per seat), got {len(v)}")
    for i, x in enumerate(v):
        _check_type(f"{where}[{i}]", x, kind)
    return v


def _cell(where: str, text: Any, geo: rules.Geometry) -> int:
    """The cell a name is, written exactly as the engine writes it.

    `C3` or `c03` would read as c3 and be written back as `c3`: a field
    that does not survive the round trip, so it is refused.
    """
    _check_type(where, text, "str")
    cell = geo.action_ids.get(text)
    if cell is not None and cell < geo.cells:
        return cell
    board = f"a {geo.size}x{geo.size} board (a1..{geo.names[-1]})"
    if len(text) <= 8:  # parse_cell reads the rank as an int: keep it short
        try:
            name = geo.names[parse_cell(text, geo.size)]
        except ValueError:
            pass
        else:
            raise ReplayError(f"{where}: {_quoted(text)} must be written {name!r}, as on {board}")
    raise ReplayError(f"{where}: {_quoted(text)} is not a cell of {board}")


# ---- the game a config describes ------------------------------------------


def game_for_config(config: Any, obstype: str | None = None) -> pyspiel.Game:
    """Our pyspiel game for a replay `config`; ReplayError when there is none.

    The engine has one observation rule; `obstype` picks ours
    (`reveal-nothing` by default, or `reveal-numturns`), which changes
    information states only, never the plies.
    """
    _check_type("config", config, "object")
    _check_keys("config", config, CONFIG_KEYS)
    for key, kind in (
        ("mode", "str"),
        ("size", "int"),
        ("abrupt", "bool"),
        ("sense", "int"),
        ("first", "int"),
        ("seed", "int"),
        ("maxPlies", "int"),
        ("sampled", "bool"),
    ):
        _check_type(f"config.{key}", config[key], kind)
    mode, size, abrupt, sense = config["mode"], config["size"], config["abrupt"], config["sense"]
    if mode not in MODES:
        raise ReplayError(f"config.mode: unknown mode {_quoted(mode)}; known: {', '.join(MODES)}")
    if config["first"] != 0:
        raise ReplayError(
            f"config.first must be 0 (seat 0 always moves first), got {config['first']}"
        )
    if sense < 0:
        raise ReplayError(f"config.sense must be 0 (no sensing) or more, got {sense}")
    if mode == "phantom-ttt":
        if size != 3:
            raise ReplayError(f"config.size must be 3 in phantom-ttt, got {size}")
        if sense:
            raise ReplayError(f"config.sense must be 0 in phantom-ttt, got {sense}")
        name, params = "fogboard_phantom_ttt", {"abrupt": abrupt}
    elif sense == 0:
        name, params = "fogboard_dark_hex", {"board_size": size, "abrupt": abrupt}
    else:
        if not abrupt:
            raise ReplayError(
                "config: dark-hex with sense > 0 is recon hex, which is abrupt only "
                "(a collision ends the turn); got abrupt: false"
            )
        name, params = "fogboard_recon_hex", {"board_size": size, "sense": sense}
    # Our parameters are checked here, before pyspiel sees them: pyspiel
    # refuses an int past 32 bits with a RuntimeError that names nothing.
    spec = param_spec(name)
    _check_each(spec, params)
    if sense > size:  # recon hex: the sensed block must fit on the board
        raise ReplayError(
            f"config.sense must be 0 (dark hex) or 1..size ({size}) (recon hex), got {sense}"
        )
    cap, cells = config["maxPlies"], size * size
    # Our max_plies also takes -1 (2 x cells), but the engine writes the
    # number, and -1 read here would be written back as that number.
    if not 1 <= cap <= 2 * cells:
        raise ReplayError(
            f"config.maxPlies must be the ply cap, an int in 1..{2 * cells} (2 x cells; "
            f"our max_plies), got {cap}"
        )
    params["max_plies"] = cap
    if obstype is not None:
        params["obstype"] = obstype
    _check_each(spec, params)
    try:
        spec.resolve(params)
    except ValueError as e:  # a cross-parameter check the lines above missed
        raise ReplayError(f"config: {e}") from None
    try:
        return pyspiel.load_game(name, params)
    except (ValueError, pyspiel.SpielError) as e:
        raise ReplayError(f"config does not describe a playable game: {e}") from None


def _check_each(spec, params: dict) -> None:
    """Our checks of each parameter, refusing by the replay field it came from."""
    for key, value in params.items():
        try:
            spec.params[key].check(spec.game, value)
        except ValueError as e:
            where = (
                f"config.{CONFIG_FIELD[key]}"
                if key in CONFIG_FIELD
                else f"{key} (an argument of the reader, not a replay field)"
            )
            raise ReplayError(f"{where}: {e}") from None


def config_of(game: pyspiel.Game) -> dict:
    """The replay `config` fields our game fixes (all but seed and sampled)."""
    geo = game.setup
    return {
        "mode": "phantom-ttt" if geo.kind == "ttt" else "dark-hex",
        "size": geo.size,
        "abrupt": geo.abrupt,
        "sense": geo.sense,
        "first": 0,
    }


# ---- what the rules derive --------------------------------------------------


def reason_of(ending: str) -> str:
    return "deadline" if ending == DEADLINE_ENDING else "complete"


def end_round(m: rules.Match) -> int:
    """The `round` the original engine writes on `end`.

    It settles a win or a full board inside the ply (before counting it),
    the ply cap after counting it, and a deadline between plies.
    """
    n = len(m.plies)
    return n if m.ending in ("ply-cap", DEADLINE_ENDING) else n - 1


def win_path(m: rules.Match) -> list[int]:
    """The path the original engine writes on `win`.

    Tic-tac-toe: the first of the eight lines (rows, columns, diagonals)
    through the winning cell that the winner holds. Hex: the BFS-shortest
    chain of the winner's stones from its first edge (cells in index order,
    neighbours in the rules' order) to its far edge.
    """
    geo, board, seat = m.setup, m.board, m.winner
    code = seat + 1
    if geo.kind == "ttt":
        last = m.plies[-1][3]
        for line in geo.lines:
            if last in line and all(board[c] == code for c in line):
                return list(line)
        return []
    edges = geo.edges[seat]
    previous = {}
    queue = collections.deque()
    for c in range(geo.cells):
        if edges[c] & 1 and board[c] == code:
            previous[c] = -1
            queue.append(c)
    while queue:
        c = queue.popleft()
        if edges[c] & 2:
            path = []
            while c >= 0:
                path.append(c)
                c = previous[c]
            return path[::-1]
        for nb in geo.neighbors[c]:
            if board[nb] == code and nb not in previous:
                previous[nb] = c
                queue.append(nb)
    return []


def path_problem(m: rules.Match, seat: int, path: list[int]) -> str | None:
    """Why `path` is not a winning path of `seat` on the final board, or None."""
    geo, board = m.setup, m.board
    code = seat + 1
    names = geo.names
    if len(set(path)) != len(path):
        return "it repeats a cell"
    for c in path:
        if board[c] != code:
            return f"{names[c]} is not a stone of seat {seat}"
    if geo.kind == "ttt":
        if sorted(path) not in [sorted(line) for line in geo.lines]:
            return "it is not a row, column or diagonal"
        return None
    if not path:
        return "it is empty"
    for a, b in zip(path, path[1:], strict=False):
        if b not in geo.neighbors[a]:
            return f"{names[a]} and {names[b]} are not adjacent"
    ends = geo.edges[seat][path[0]], geo.edges[seat][path[-1]]
    if not ((ends[0] & 1 and ends[1] & 2) or (ends[0] & 2 and ends[1] & 1)):
        return f"it does not join seat {seat}'s two edges"
    return None


def scores_of(m: rules.Match) -> list[float]:
    return [float(x) for x in m.returns()]


def derive_results(m: rules.Match, extras: list[dict], policy_names: Sequence[str]) -> dict:
    """The `results` object of a finished match, in the original engine's key order."""
    geo = m.setup
    made, hits, fallbacks = [0, 0], [0, 0], [0, 0]
    board = [rules.EMPTY] * geo.cells
    for (seat, _, _, cell, result), extra in zip(m.plies, extras, strict=True):
        if result == rules.PLACED:
            board[cell] = seat + 1
        # A guess hits when the cell holds an opponent stone after this ply.
        for g in extra["guess"]:
            made[seat] += 1
            hits[seat] += board[parse_cell(g, geo.size)] == 2 - seat
        fallbacks[seat] += bool(extra["fellBack"])
    scores = scores_of(m)
    totals = [rules.seat_totals(m, seat) for seat in (0, 1)]
    return {
        "names": list(policy_names),
        "scores": scores,
        "outcome": [(s + 1.0) / 2.0 for s in scores],
        "stones": [t["stones"] for t in totals],
        "probes": [t["probes"] for t in totals],
        "discovered": [t["discovered"] for t in totals],
        "guessesMade": made,
        "guessAccuracy": [hits[p] / made[p] if made[p] else 0.0 for p in (0, 1)],
        "distToWin": [t["distToWin"] for t in totals],
        "fallbacks": fallbacks,
        "plies": len(m.plies),
        "maxPlies": geo.max_plies,
        **{k: v for k, v in config_of(geo.game).items() if k != "first"},
        "ending": m.ending,
        "reason": reason_of(m.ending),
    }


def _same(stated: Any, derived: Any) -> bool:
    """Whether a recorded value is what the rules derive, as JSON types go.

    Where the rules derive an int, only that int (not 2.0, not true); where
    they derive a float, that float or the int equal to it (the engine may
    write 1 for 1.0), since the value read is written back as the float.
    Recursion follows `derived`, never the (possibly hostile) `stated`.
    """
    if isinstance(derived, list):
        return (
            isinstance(stated, list)
            and len(stated) == len(derived)
            and all(_same(x, y) for x, y in zip(stated, derived, strict=True))
        )
    if isinstance(derived, float):
        return _is_number(stated) and stated == derived
    return type(stated) is type(derived) and stated == derived


# ---- writing ------------------------------------------------------------------


def stop_at_deadline(state) -> pyspiel.State:
    """End a running game as the engine's play deadline does: `deadline` / `wall-clock`.

    The stop falls between plies (never after a recon sense and before its
    attempt) and is scored by true distToWin, smaller wins, equal draws.
    Returns the same state, now terminal.
    """
    m = getattr(state, "truth", None)
    if not isinstance(m, rules.Match):
        raise ValueError(
            f"stop_at_deadline stops Fog-of-War board games, not {type(state).__name__}"
        )
    review.stop_at_wall_clock(state.writable_truth())
    return state


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
            if not _is_int(k) or not 0 <= k < plies:
                raise ReplayError(f"extras: key {_show(k)} is not a ply index 0..{plies - 1}")
            rows[k] = v
    elif isinstance(extras, (list, tuple)):
        if len(extras) != plies:
            raise ReplayError(f"extras: {len(extras)} entries for {plies} plies")
        rows = list(extras)
    else:
        raise ReplayError(
            f"extras must be a list (one entry per ply) or a dict by ply, got {_show(extras)}"
        )
    out = []
    for p, row in enumerate(rows):
        row = {} if row is None else row
        if not isinstance(row, Mapping):
            raise ReplayError(f"extras for ply {p} must be a dict, got {_show(row)}")
        for k in row:
            if k not in ATTEMPT_EXTRAS:
                key = _quoted(k) if isinstance(k, str) else _show(k)
                raise ReplayError(
                    f"extras for ply {p}: unknown key {key} (allowed: {', '.join(ATTEMPT_EXTRAS)})"
                )
        e = {"say": "", "notes": "", "guess": [], "scripted": False, "fellBack": False}
        if given is not None:
            fields, seat = given[p]
            if seat is not None:
                for k in fields:
                    if k in row:
                        raise ReplayError(
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
            _check_type(f"extras for ply {p}: {k}", e[k], kind)
        if e["notes"] is not None:
            _check_type(f"extras for ply {p}: notes", e["notes"], "str")
        e["guess"] = [geo.names[_cell(f"extras for ply {p}: guess", g, geo)] for g in e["guess"]]
        out.append(e)
    return out


TRANSCRIPT_KEYS = ("move", "fell_back", "say", "notes")


def _transcript_extras(m: rules.Match, transcripts: Any) -> list[tuple[dict, int | None]]:
    """Per ply, the attempt fields the text seats' transcripts give (see to_replay)."""
    geo = m.setup
    if not isinstance(transcripts, Mapping):
        raise ReplayError(
            f"transcripts must be a dict {{seat: bot.transcript}}, got {_show(transcripts)}"
        )
    entries: dict[int, list] = {}
    for seat, transcript in transcripts.items():
        if not _is_int(seat) or seat not in (0, 1):
            raise ReplayError(f"transcripts: key {_show(seat)} is not a seat (0 or 1)")
        transcript = _as_list(transcript)
        _check_type(f"transcripts[{seat}]", transcript, "list")
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
                raise ReplayError(
                    f"transcripts[{seat}]: {len(transcript)} entries, but seat {seat} made more "
                    f"decisions in this game (ply {p})"
                )
            entry = transcript[i]
            if not isinstance(entry, Mapping):
                raise ReplayError(
                    f"{where} must be a dict (a transcript entry), got {_show(entry)}"
                )
            for key in TRANSCRIPT_KEYS:
                if key not in entry:
                    raise ReplayError(f"{where}: missing key {key!r}")
            _check_type(f"{where}: move", entry["move"], "str")
            _check_type(f"{where}: fell_back", entry["fell_back"], "bool")
            _check_type(f"{where}: say", entry["say"], "str")
            if entry["notes"] is not None:
                _check_type(f"{where}: notes", entry["notes"], "str")
            played = geo.action_name(seat, action)
            if entry["move"] != played:
                raise ReplayError(
                    f"{where} (ply {p}): the transcript's move is {_quoted(entry['move'])}, "
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
            raise ReplayError(
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
    _check_type("win_path", given, "list")
    path = [_cell(f"win_path[{i}]", c, geo) for i, c in enumerate(given)]
    problem = path_problem(m, m.winner, path)
    if problem:
        raise ReplayError(f"win_path is not a winning {m.ending}: {problem}")
    return list(given)


def to_replay(
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
    published replays do), `guess` (cell names), `scripted`, `fellBack`.
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
    The writer refuses (ReplayError) what its reader would refuse, so a
    written replay always reads back.
    """
    m = getattr(state, "truth", None)
    if not isinstance(m, rules.Match):
        raise ValueError(f"to_replay writes Fog-of-War board games, not {type(state).__name__}")
    geo = m.setup
    if m.ending is None:
        raise ValueError(
            "the game is still running; a replay records a finished game "
            "(stop it with stop_at_deadline(state) to record a deadline stop)"
        )
    names = _as_list(DEFAULT_NAMES if names is None else names)
    policy_names = _as_list(names if policy_names is None else policy_names)
    _pair_of("names", names, "str")
    _pair_of("policy_names", policy_names, "str")
    _check_type("seed", seed, "int")
    _check_type("sampled", sampled, "bool")
    given = None if transcripts is None else _transcript_extras(m, transcripts)
    rows = _normalize_extras(extras, len(m.plies), geo, given)
    if m.ending in WIN_ENDINGS:
        path = _written_path(m, win_path)
    elif win_path is not None:
        raise ReplayError(f"win_path: the game ended {m.ending}, not in a win; pass None")
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
    if m.ending in WIN_ENDINGS:
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


# ---- reading ------------------------------------------------------------------


class _Reader:
    """Walks the events through the rules, refusing what they do not derive."""

    def __init__(self, replay: Any, obstype: str | None = None):
        _check_type("replay", replay, "object")
        _check_keys("replay", replay, TOP_KEYS)
        _check_type("protocol", replay["protocol"], "str")
        if replay["protocol"] != PROTOCOL:
            raise ReplayError(
                f"unknown protocol {_quoted(replay['protocol'])}; this reader knows {PROTOCOL!r}"
            )
        self.names = list(_pair_of("names", replay["names"], "str"))
        self.policy_names = list(_pair_of("policyNames", replay["policyNames"], "str"))
        self.config = replay["config"]
        self.game = game_for_config(self.config, obstype)
        self.geo = self.game.setup
        _check_type("events", replay["events"], "list")
        _check_type("results", replay["results"], "object")
        self.events = replay["events"]
        self.results = replay["results"]
        self.state = self.game.new_initial_state()
        self.extras: list[dict] = []
        self.pending_win: int | None = None  # ply whose derived win awaits its event
        self.win_path: list[str] | None = None  # as recorded

    @property
    def m(self) -> rules.Match:
        return self.state.truth

    def ply_error(self, ply: int, text: str) -> ReplayError:
        return ReplayError(f"ply {ply}: {text}")

    def read(self) -> Replay:
        if not self.events:
            raise ReplayError("events: empty; a replay opens with start and closes with end")
        ended = False
        for i, event in enumerate(self.events):
            kind = self.shape(i, event)
            if ended:
                raise self.ply_error(
                    event["round"], f"events[{i}] ({kind}) comes after the end event"
                )
            if (i == 0) != (kind == "start"):
                where = (
                    "events[0] must be start"
                    if i == 0
                    else f"events[{i}]: start may only open the log"
                )
                raise ReplayError(f"{where}, got {kind}")
            if kind == "start":
                if event["round"] != -1:
                    raise ReplayError(f"events[0] (start): round must be -1, got {event['round']}")
                continue
            getattr(self, "on_" + kind)(event)
            ended = kind == "end"
        if not ended:
            raise self.ply_error(len(self.m.plies), "the replay has no end event")
        self.check_results()
        return Replay(
            self.state,
            self.names,
            self.policy_names,
            self.config["seed"],
            self.extras,
            self.config["sampled"],
            self.win_path,
        )

    def shape(self, i: int, event: Any) -> str:
        _check_type(f"events[{i}]", event, "object")
        for key in ("kind", "round"):
            if key not in event:
                raise ReplayError(f"events[{i}]: missing key {key!r}")
        _check_type(f"events[{i}].kind", event["kind"], "str")
        kind = event["kind"]
        if kind not in KINDS:
            raise ReplayError(
                f"events[{i}]: unknown kind {_quoted(kind)}; known: {', '.join(KINDS)}"
            )
        _check_type(f"events[{i}].round", event["round"], "int")
        where = f"ply {event['round']} (events[{i}], {kind})"
        required, optional = EVENT_KEYS[kind]
        _check_keys(where, event, ("kind", "round") + required, optional)
        kinds = {
            "seat": "int",
            "anchor": "str",
            "cell": "str",
            "result": "str",
            "say": "str",
            "notes": "str",
            "guess": "list",
            "scripted": "bool",
            "fellBack": "bool",
            "how": "str",
            "path": "list",
            "reason": "str",
            "ending": "str",
            "scores": "list",
        }
        for key in required + optional:
            if key in event:
                _check_type(f"{where}: {key}", event[key], kinds[key])
        for key in ("guess", "path"):
            for j, c in enumerate(event.get(key, ())):
                _cell(f"{where}: {key}[{j}]", c, self.geo)
        if "scores" in event:
            _pair_of(f"{where}: scores", event["scores"], "number")
        return kind

    def open_ply(self, event: dict, kind: str) -> int:
        """Checks shared by sense and attempt: game running, round, seat."""
        m = self.m
        p = len(m.plies)
        if self.pending_win is not None:
            raise self.ply_error(
                self.pending_win,
                f"the rules derive a win by seat {m.winner} ({m.ending}) that the replay does not record",
            )
        if m.ending is not None:
            raise self.ply_error(event["round"], f"{kind} after the game ended ({m.ending})")
        if event["round"] != p:
            raise self.ply_error(p, f"{kind} has round {event['round']}, but this is ply {p}")
        if event["seat"] != m.mover:
            raise self.ply_error(
                p, f"{kind} by seat {event['seat']}, but the rules give the ply to seat {m.mover}"
            )
        return p

    def on_sense(self, event: dict) -> None:
        p = self.open_ply(event, "sense")
        geo = self.geo
        if not geo.sense:
            raise self.ply_error(
                p, "a sense event, but this game has no sensing (config.sense is 0)"
            )
        if self.m.sensed is not None:
            raise self.ply_error(p, "a second sense in one ply")
        cell = _cell(f"ply {p}: anchor", event["anchor"], geo)
        if cell not in geo.anchors:
            last = geo.names[geo.anchors[-1]]
            raise self.ply_error(
                p,
                f"{geo.names[cell]} is not a sense anchor (a {geo.sense}x{geo.sense} block must fit: a1..{last})",
            )
        self.state.apply_action(geo.cells + geo.anchors.index(cell))

    def on_attempt(self, event: dict) -> None:
        p = self.open_ply(event, "attempt")
        geo, m = self.geo, self.m
        if geo.sense and m.sensed is None:
            raise self.ply_error(
                p, "an attempt without its sense (recon hex senses, then attempts, every ply)"
            )
        cell = _cell(f"ply {p}: cell", event["cell"], geo)
        known = m.view[m.mover * geo.cells + cell]
        if known != rules.UNKNOWN:
            why = "its own stone" if known == rules.OWN else "an opponent stone it has proven"
            raise self.ply_error(
                p, f"{geo.names[cell]} is not a legal attempt for seat {m.mover}: {why}"
            )
        if event["result"] not in rules.RESULT_NAMES:  # a str, checked by shape()
            raise self.ply_error(
                p, f"result must be 'placed' or 'occupied', got {_show(event['result'])}"
            )
        self.state.apply_action(cell)
        derived = rules.RESULT_NAMES[self.m.plies[-1][4]]
        if derived != event["result"]:
            raise self.ply_error(
                p,
                f"{geo.names[cell]} recorded {event['result']!r}, but the rules derive {derived!r}",
            )
        self.extras.append(
            {
                "say": event["say"],
                "notes": event.get("notes"),
                "guess": list(event["guess"]),  # names as written, checked by shape()
                "scripted": event["scripted"],
                "fellBack": event["fellBack"],
            }
        )
        if self.m.ending in WIN_ENDINGS:
            self.pending_win = p

    def on_win(self, event: dict) -> None:
        m, geo = self.m, self.geo
        p = event["round"]
        if self.pending_win is None:
            raise self.ply_error(p, "a win was recorded that the rules do not derive")
        if p != self.pending_win:
            raise self.ply_error(
                self.pending_win,
                f"the win has round {p}, but the winning ply is {self.pending_win}",
            )
        if event["seat"] != m.winner:
            raise self.ply_error(
                p, f"the win is credited to seat {event['seat']}, but seat {m.winner} won"
            )
        if event["how"] != m.ending:
            raise self.ply_error(
                p, f"the win is by {_quoted(event['how'])}, but the rules derive {m.ending!r}"
            )
        path = [geo.action_ids[c] for c in event["path"]]  # cell names, checked by shape()
        problem = path_problem(m, m.winner, path)
        if problem:
            shown = " ".join(geo.names[c] for c in path) or "(empty)"
            raise self.ply_error(p, f"the win path {shown} is not a winning {m.ending}: {problem}")
        self.pending_win = None
        self.win_path = list(event["path"])

    def on_end(self, event: dict) -> None:
        m = self.m
        if self.pending_win is not None:
            raise self.ply_error(
                self.pending_win,
                f"the rules derive a win by seat {m.winner} ({m.ending}) that the replay does not record",
            )
        reason, ending = event["reason"], event["ending"]
        p = len(m.plies)
        if reason not in REASONS:
            raise self.ply_error(
                event["round"], f"end reason must be complete or deadline, got {_quoted(reason)}"
            )
        said = f"{reason}/{ending if len(ending) <= 40 else _quoted(ending)}"
        if m.ending is not None:
            if (reason, ending) != ("complete", m.ending):
                raise self.ply_error(
                    end_round(m),
                    f"the replay ends {said}, but the rules derive complete/{m.ending}",
                )
        else:
            if (reason, ending) != ("deadline", DEADLINE_ENDING):
                raise self.ply_error(
                    p,
                    f"the replay ends {said}, but the rules derive no end: the game is "
                    f"still running after {p} plies (only deadline/wall-clock may stop it there)",
                )
            if m.sensed is not None:
                raise self.ply_error(
                    p, "the deadline stopped the game after a sense and before its attempt"
                )
            stop_at_deadline(self.state)
        m = self.m  # the stop settled a copy of the match
        at = end_round(m)
        if event["round"] != at:
            raise self.ply_error(at, f"the end has round {event['round']}, expected {at}")
        if not _same(event["scores"], scores_of(m)):
            raise self.ply_error(
                at,
                f"the end scores {_show(event['scores'])}, but the rules score {_show(scores_of(m))}",
            )

    def check_results(self) -> None:
        m = self.m
        results = self.results
        _check_keys(f"ply {end_round(m)} (results)", results, (), RESULT_KEYS)
        derived = derive_results(m, self.extras, self.policy_names)
        for key in RESULT_KEYS:
            if key in results and not _same(results[key], derived[key]):
                raise self.ply_error(
                    end_round(m),
                    f"results.{key} says {_show(results[key])}, but the rules derive {_show(derived[key])}",
                )


def read_replay(replay: Any, obstype: str | None = None) -> Replay:
    """Re-derive a replay through the rules: the state plus names, seed and extras."""
    return _Reader(replay, obstype).read()


def from_replay(replay: Any, obstype: str | None = None) -> pyspiel.State:
    """The finished state a `fogboards.replay.v1` object describes; ReplayError if the rules disagree.

    `obstype` chooses the observation rule of the rebuilt game (see
    `game_for_config`); the replay itself does not record one.
    """
    return read_replay(replay, obstype).state


# ---- JSON text ------------------------------------------------------------------


def _no_duplicates(pairs: list) -> dict:
    out = {}
    for k, v in pairs:
        if k in out:
            raise ReplayError(f"duplicate JSON key {_quoted(k)}")
        out[k] = v
    return out


def _no_constant(name: str):
    raise ReplayError(f"{name} is not JSON (replays are strict JSON)")


def _int_literal(text: str) -> Any:
    # Python refuses to read an int of more than 4,300 digits (a plain
    # ValueError); no replay int has more than 20.
    if len(text) > 40:
        return _Unreadable(text, f"an int of {len(text)} characters; replays hold 64-bit ints")
    return int(text)


def _float_literal(text: str) -> Any:
    value = float(text)
    # 1e400 reads as Infinity, which strict JSON does not have.
    if not math.isfinite(value):
        return _Unreadable(text, "beyond the largest float")
    return value


# JSON strings (whose brackets are text) and brackets, lexed as JSON lexes them.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S)


def _too_deep(text: str) -> int | None:
    """Where the text opens its (MAX_DEPTH + 1)th nested bracket, or None.

    The JSON parser recurses once per bracket and a few thousand "[" would
    exhaust the stack (RecursionError); this scan is a loop.
    """
    depth = 0
    for token in _TOKENS.finditer(text):
        c = text[token.start()]
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return token.start()
        elif c in "]}":
            depth -= 1
    return None


def parse(text: str | bytes) -> Any:
    """Strict JSON: UTF-8, no NaN/Infinity, no duplicate keys, no deep nesting.

    A number literal Python cannot hold as written (an int of hundreds of
    digits, a float past the largest double) parses to a placeholder that
    every field refuses by name.
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ReplayError(f"replay bytes are not UTF-8: {e}") from None
    if not isinstance(text, str):
        raise ReplayError(f"replay text must be str or bytes, got {type(text).__name__}")
    at = _too_deep(text)
    if at is not None:
        raise ReplayError(
            f"replay text nests deeper than {MAX_DEPTH} levels at char {at} "
            f"(a replay nests 4: replay, events, event, guess)"
        )
    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
            parse_int=_int_literal,
            parse_float=_float_literal,
        )
    except json.JSONDecodeError as e:
        raise ReplayError(f"replay is not JSON: {e}") from None


def dumps(state, **writer_args) -> str:
    """JSON text of `to_replay(state, **writer_args)` (UTF-8 safe, strict)."""
    return json.dumps(to_replay(state, **writer_args), ensure_ascii=False, allow_nan=False)


def loads(text: str | bytes, obstype: str | None = None) -> pyspiel.State:
    """The finished state of a replay's JSON text; ReplayError if malformed or not derived."""
    return from_replay(parse(text), obstype)


__all__ = [
    "PROTOCOL",
    "Replay",
    "ReplayError",
    "dumps",
    "from_replay",
    "game_for_config",
    "loads",
    "parse",
    "read_replay",
    "stop_at_deadline",
    "to_replay",
]
