"""Reading a fogboards.replay.v1 object: every ply re-derived through the rules.

Each sense and attempt is applied as a pyspiel action on our game (never
unpickled, never evaluated), and every result, win, ending, score and
`results` field the rules do not derive is refused with an `EngineLogError`
naming the ply (docs/boards_bots_and_engine_logs.md).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pyspiel

from fogboard_games.boards import rules
from fogboard_games.boards.engine_log.config import game_for_config
from fogboard_games.boards.engine_log.derive import (
    derive_results,
    end_round,
    path_problem,
    same,
    scores_of,
    stop_at_deadline,
)
from fogboard_games.boards.engine_log.shape import (
    CONFIG_OPTIONAL,
    DEADLINE_ENDING,
    EVENT_KEYS,
    KINDS,
    PROTOCOL,
    REASONS,
    RESULT_KEYS,
    TOP_KEYS,
    WIN_ENDINGS,
    EngineLogError,
    cell_of,
    check_keys,
    check_type,
    pair_of,
    show,
)
from fogboard_games.core.guards import quoted


@dataclasses.dataclass
class EngineLog:
    """An engine log read back: the finished state and what rides beside the plies.

    `to_engine_log(r.state, **r.writer_args())` writes the engine log again.
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


class _Reader:
    """Walks the events through the rules, refusing what they do not derive."""

    def __init__(self, log: Any, obstype: str | None = None):
        check_type("engine log", log, "object")
        check_keys("engine log", log, TOP_KEYS)
        check_type("protocol", log["protocol"], "str")
        if log["protocol"] != PROTOCOL:
            raise EngineLogError(
                f"unknown protocol {quoted(log['protocol'])}; this reader knows {PROTOCOL!r}"
            )
        self.names = list(pair_of("names", log["names"], "str"))
        self.policy_names = list(pair_of("policyNames", log["policyNames"], "str"))
        self.config = log["config"]
        self.game = game_for_config(self.config, obstype)
        self.geo = self.game.setup
        check_type("events", log["events"], "list")
        check_type("results", log["results"], "object")
        self.events = log["events"]
        self.results = log["results"]
        self.state = self.game.new_initial_state()
        self.extras: list[dict] = []
        self.pending_win: int | None = None  # ply whose derived win awaits its event
        self.win_path: list[str] | None = None  # as recorded

    @property
    def m(self) -> rules.Match:
        return self.state.truth

    def ply_error(self, ply: int, text: str) -> EngineLogError:
        return EngineLogError(f"ply {ply}: {text}")

    def read(self) -> EngineLog:
        if not self.events:
            raise EngineLogError(
                "events: empty; an engine log opens with start and closes with end"
            )
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
                raise EngineLogError(f"{where}, got {kind}")
            if kind == "start":
                if event["round"] != -1:
                    raise EngineLogError(
                        f"events[0] (start): round must be -1, got {event['round']}"
                    )
                continue
            getattr(self, "on_" + kind)(event)
            ended = kind == "end"
        if not ended:
            raise self.ply_error(len(self.m.plies), "the engine log has no end event")
        self.check_results()
        return EngineLog(
            self.state,
            self.names,
            self.policy_names,
            self.config["seed"],
            self.extras,
            self.config["sampled"],
            self.win_path,
        )

    def shape(self, i: int, event: Any) -> str:
        check_type(f"events[{i}]", event, "object")
        for key in ("kind", "round"):
            if key not in event:
                raise EngineLogError(f"events[{i}]: missing key {key!r}")
        check_type(f"events[{i}].kind", event["kind"], "str")
        kind = event["kind"]
        if kind not in KINDS:
            raise EngineLogError(
                f"events[{i}]: unknown kind {quoted(kind)}; known: {', '.join(KINDS)}"
            )
        check_type(f"events[{i}].round", event["round"], "int")
        where = f"ply {event['round']} (events[{i}], {kind})"
        required, optional = EVENT_KEYS[kind]
        check_keys(where, event, ("kind", "round") + required, optional)
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
                check_type(f"{where}: {key}", event[key], kinds[key])
        for key in ("guess", "path"):
            for j, c in enumerate(event.get(key, ())):
                cell_of(f"{where}: {key}[{j}]", c, self.geo)
        if "scores" in event:
            pair_of(f"{where}: scores", event["scores"], "number")
        return kind

    def open_ply(self, event: dict, kind: str) -> int:
        """Checks shared by sense and attempt: game running, round, seat."""
        m = self.m
        p = len(m.plies)
        if self.pending_win is not None:
            raise self.ply_error(
                self.pending_win,
                f"the rules derive a win by seat {m.winner} ({m.ending}) that the engine log does not record",
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
        cell = cell_of(f"ply {p}: anchor", event["anchor"], geo)
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
        cell = cell_of(f"ply {p}: cell", event["cell"], geo)
        known = m.view[m.mover * geo.cells + cell]
        if known != rules.UNKNOWN:
            why = "its own stone" if known == rules.OWN else "an opponent stone it has proven"
            raise self.ply_error(
                p, f"{geo.names[cell]} is not a legal attempt for seat {m.mover}: {why}"
            )
        if event["result"] not in rules.RESULT_NAMES:  # a str, checked by shape()
            raise self.ply_error(
                p, f"result must be 'placed' or 'occupied', got {show(event['result'])}"
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
                p, f"the win is by {quoted(event['how'])}, but the rules derive {m.ending!r}"
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
                f"the rules derive a win by seat {m.winner} ({m.ending}) that the engine log does not record",
            )
        reason, ending = event["reason"], event["ending"]
        p = len(m.plies)
        if reason not in REASONS:
            raise self.ply_error(
                event["round"], f"end reason must be complete or deadline, got {quoted(reason)}"
            )
        said = f"{reason}/{ending if len(ending) <= 40 else quoted(ending)}"
        if m.ending is not None:
            if (reason, ending) != ("complete", m.ending):
                raise self.ply_error(
                    end_round(m),
                    f"the engine log ends {said}, but the rules derive complete/{m.ending}",
                )
        else:
            if (reason, ending) != ("deadline", DEADLINE_ENDING):
                raise self.ply_error(
                    p,
                    f"the engine log ends {said}, but the rules derive no end: the game is "
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
        if not same(event["scores"], scores_of(m)):
            raise self.ply_error(
                at,
                f"the end scores {show(event['scores'])}, but the rules score {show(scores_of(m))}",
            )

    def check_results(self) -> None:
        m = self.m
        results = self.results
        # (a rectangular board's results repeat its config's ranks too)
        keys = RESULT_KEYS + CONFIG_OPTIONAL
        check_keys(f"ply {end_round(m)} (results)", results, (), keys)
        derived = derive_results(m, self.extras, self.policy_names)
        for key in keys:
            if key in results and key not in derived:  # ranks, on a square board
                raise self.ply_error(
                    end_round(m),
                    f"results.{key} says {show(results[key])}, but this board has none "
                    "(ranks is written only for a rectangular board)",
                )
            if key in results and not same(results[key], derived[key]):
                raise self.ply_error(
                    end_round(m),
                    f"results.{key} says {show(results[key])}, but the rules derive {show(derived[key])}",
                )


def read_engine_log(log: Any, obstype: str | None = None) -> EngineLog:
    """Re-derive an engine log through the rules: the state plus names, seed and extras."""
    return _Reader(log, obstype).read()


def from_engine_log(log: Any, obstype: str | None = None) -> pyspiel.State:
    """The finished state a `fogboards.replay.v1` object describes; EngineLogError if the rules disagree.

    `obstype` chooses the observation rule of the rebuilt game (see
    `game_for_config`); the engine log itself does not record one.
    """
    return read_engine_log(log, obstype).state
