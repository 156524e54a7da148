"""Text seats: a seat played by anything that answers a prompt with text (docs/bots.md#text-seats).

`make_bot("text", game, player, seed=0, ask=ask, fallback="heuristic",
timeout_s=None)` makes a `TextBot`; `ask(prompt: str) -> str` is any
callable (a user wraps a language-model client in it: this module needs no
network and no model library). The prompt is a pure function of the rules
in brief, the seat's name, its information-state string and its legal
moves (`build_prompt`), so the seat is told nothing it does not know; the
reply is read by `parse_reply`, and a failed reply gets one retry, then the
fallback bot decides. `bot.transcript` records every decision.
"""

from __future__ import annotations

import json
import queue
import re
import string
import threading
from collections.abc import Callable, Sequence

from fogboard_games.bots.base import SeatBot, kinds_for, make_bot
from fogboard_games.core import guards
from fogboard_games.core.glue import _spelling  # the one rule string_to_action reads by
from fogboard_games.core.params import is_int

SAY_LIMIT = 100  # characters of `say` kept, as the rulebooks cap table talk
NO_BRIEF = (
    "No rules brief is given for this game: choose one of the legal moves listed "
    "below, spelled exactly as listed."
)
RETRY_HEADER = "YOUR PREVIOUS REPLY COULD NOT BE USED"
MOVES_HEADER = "YOUR LEGAL MOVES (one per line)"  # then one move per line, then a blank line


def seat_label(game, player: int) -> str:
    """The name the prompt gives `player`: the game's own (`game.ruleset.seat_label`),
    `seat p` for a game without one."""
    n = game.num_players()
    if not is_int(player) or not 0 <= player < n:  # a bool too: True would name seat 1
        raise ValueError(f"player must be a seat 0..{n - 1}, got {player!r}")
    label = getattr(getattr(game, "ruleset", None), "seat_label", None)
    return label(player) if callable(label) else f"seat {player}"


def brief_of(game) -> str:
    """The game's rules in brief (`game.ruleset.brief`), "" for a game without one."""
    ruleset = getattr(game, "ruleset", None)
    brief = getattr(ruleset, "brief", "")
    return brief if isinstance(brief, str) else ""


# ---- the prompt ------------------------------------------------------------------

FORMAT = """REPLY FORMAT
Think as much as you like, then end your reply with this line:
move: <one legal move, spelled as listed above>
Before that line you may add a line "say: <a remark, at most 100 characters>" and a
line "notes: <your private notes>". Both are recorded; neither changes the game.
Instead you may reply with only a JSON object:
{"move": "<one legal move>", "say": "<optional remark>", "notes": "<optional notes>"}"""


def _legal_block(legal: Sequence[str]) -> str:
    return "\n".join(legal)


def build_prompt(brief: str, seat: str, info: str, legal: Sequence[str], params=None) -> str:
    """The first prompt of a decision: made from these and nothing else. `params`,
    the game's parameters (public, and the same in every state of the game), say
    which variant the brief's defaults give way to."""
    rules = brief.strip() or NO_BRIEF
    variant = ""
    if params:
        variant = (
            "THIS GAME'S PARAMETERS\n"
            + ", ".join(
                f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                for k, v in sorted(params.items())
            )
            + "\n\n"
        )
    return (
        "You are playing a game of imperfect information: you see only what is shown "
        "below.\n\n"
        f"RULES IN BRIEF\n{rules}\n\n"
        f"{variant}"
        f"WHO YOU ARE\nYou are {seat}.\n\n"
        f"WHAT YOU KNOW (your information state, verbatim)\n{info}\n\n"
        f"{MOVES_HEADER}\n{_legal_block(legal)}\n\n"
        f"{FORMAT}\n"
    )


def retry_prompt(prompt: str, problem: str, legal: Sequence[str]) -> str:
    """The prompt of the one retry: the first prompt, what was wrong, the legal moves."""
    return (
        f"{prompt}\n{RETRY_HEADER}\n{problem}\n"
        "Reply again, ending with the line `move: <move>`, where <move> is exactly one of:\n"
        f"{_legal_block(legal)}\n"
    )


# ---- reading a reply ----------------------------------------------------------------

NO_MOVE = (
    "your reply named no move: end it with a line `move: <one legal move>`, or reply "
    'with a JSON object that has a "move" key'
)
_DECOR = " \t`'\"*_"
# re.ASCII: \s is ASCII whitespace and IGNORECASE folds A-Z only, so no
# look-alike (a long s, a no-break space) makes a field line.
_FIELD = re.compile(r"^[\s>*_`#-]*(move|say|notes)[\s*_`]*:(.*)$", re.IGNORECASE | re.ASCII)
_FENCE = re.compile(r"```json[ \t]*\n?(.*?)```", re.IGNORECASE | re.DOTALL | re.ASCII)
# Lines end at \n, \r\n or \r only: str.splitlines() also breaks at U+2028,
# U+0085 and more, which would cut `move: all<U+0085>done` into two lines.
_LINE_END = re.compile(r"\r\n|\r|\n")


def _text(value) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value)


def _say(text: str) -> str:
    return " ".join(text.split())[:SAY_LIMIT]


def _json_object(text: str) -> dict | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and "move" in value else None


def _field_lines(reply: str) -> tuple[str | None, str, str]:
    """(move of the last non-blank line or None, first say line, first notes line)."""
    found: dict[str, str] = {}
    lines = [line for line in _LINE_END.split(reply) if line.strip(string.whitespace)]
    move = None
    for i, line in enumerate(lines):
        m = _FIELD.match(line)
        if not m:
            continue
        key, value = m.group(1).lower(), m.group(2).strip(_DECOR)
        if key == "move":
            if i == len(lines) - 1:
                move = value
        else:
            found.setdefault(key, value)
    return move, found.get("say", ""), found.get("notes", "")


def parse_reply(reply: str, legal: Sequence[str]) -> tuple[dict | None, str]:
    """Read a reply: ({"move", "say", "notes"}, "") or (None, what was wrong).

    `move` is the legal action string as listed (whatever ASCII case and
    spacing the reply used, as `state.string_to_action` reads it); `say`
    is at most SAY_LIMIT characters.
    """
    if not isinstance(reply, str):
        return None, f"the reply was {type(reply).__name__}, not text"
    reply = str.__str__(reply)  # a str subclass's own methods are not called
    move, say, notes = _field_lines(reply)
    if move is None:
        obj = _json_object(reply.strip())
        if obj is None:
            for body in reversed(_FENCE.findall(reply)):
                obj = _json_object(body.strip())
                if obj is not None:
                    break
        if obj is not None:
            move, say, notes = _text(obj["move"]), _text(obj.get("say")), _text(obj.get("notes"))
    if move is None:
        return None, NO_MOVE
    by_spelling = {_spelling(name): name for name in legal}
    name = by_spelling.get(_spelling(move))
    if name is None:
        return None, f"{guards.quoted(move, 60)} is not one of your legal moves"
    return {"move": name, "say": _say(say), "notes": notes}, ""


# ---- the bot ------------------------------------------------------------------------


class TextBot(SeatBot):
    """A seat whose moves come from `ask(prompt) -> str` (see the module docstring)."""

    kind = "text"
    games = None  # every game
    requires = ("ask",)  # kinds_for lists only kinds made from (game, player, seed)
    # Exceptions of `ask` that end the decision, passed on rather than retried:
    # a subclass's own (bots/llm.py: a refused key), never a user's ask's.
    fatal: tuple[type[BaseException], ...] = ()

    def __init__(
        self,
        game,
        player: int,
        seed: int = 0,
        *,
        ask: Callable[[str], str] | None = None,
        fallback: str = "heuristic",
        timeout_s: float | None = None,
    ):
        super().__init__(game, player, seed)
        if ask is None or not callable(ask):
            raise ValueError(
                f"the text bot needs ask=a callable taking the prompt (str) and returning "
                f"the reply (str), got {ask!r}"
            )
        if timeout_s is not None and (
            isinstance(timeout_s, bool)
            or not isinstance(timeout_s, (int, float))
            or not timeout_s > 0
        ):
            raise ValueError(
                f"timeout_s must be None or a number of seconds > 0, got {timeout_s!r}"
            )
        playable = kinds_for(game)
        if not isinstance(fallback, str) or fallback not in playable:
            raise ValueError(
                f"fallback {fallback!r} is not a bot kind that plays "
                f"{game.get_type().short_name}; pass fallback= one of: {', '.join(playable)}"
            )
        self.ask = ask
        self.fallback = fallback
        self.timeout_s = timeout_s
        self.fallback_bot = make_bot(fallback, game, player, seed)
        self.brief = brief_of(game)
        self.seat = seat_label(game, player)
        self.transcript: list[dict] = []
        self.transcripts: list[list[dict]] = [self.transcript]

    def _new_game(self) -> None:
        if self.transcript:
            self.transcript = []
            self.transcripts.append(self.transcript)

    def restart(self) -> None:
        super().restart()
        self.fallback_bot.restart()
        self._new_game()

    def restart_at(self, state) -> None:
        super().restart_at(state)
        self.fallback_bot.restart_at(state)
        self._new_game()

    def prompt(self, state) -> tuple[str, list[str], list[int]]:
        """The first prompt of this seat's decision at `state`, the legal strings and ids."""
        p = self.player
        actions = state.legal_actions(p)
        legal = [state.action_to_string(p, a) for a in actions]
        return (
            build_prompt(
                self.brief,
                self.seat,
                state.information_state_string(p),
                legal,
                self.game.get_parameters(),
            ),
            legal,
            actions,
        )

    def _call(self, prompt: str):
        if self.timeout_s is None:
            return self.ask(prompt)
        # A daemon thread, not an executor: a call that times out cannot be
        # stopped, and concurrent.futures joins its workers at interpreter
        # exit, so one stuck call would keep the process alive for ever.
        # A daemon thread is dropped when the process exits.
        answer: queue.SimpleQueue = queue.SimpleQueue()

        def run() -> None:
            try:
                answer.put((True, self.ask(prompt)))
            except BaseException as e:  # handed to the caller, which decides
                answer.put((False, e))

        threading.Thread(target=run, name="fogboard-text-ask", daemon=True).start()
        try:
            ok, value = answer.get(timeout=self.timeout_s)
        except queue.Empty:
            raise _NoAnswer(f"no reply came within {self.timeout_s} seconds") from None
        if not ok:
            raise value
        return value

    def _try(self, prompt: str, legal: Sequence[str], record: dict) -> dict | None:
        try:
            reply = self._call(prompt)
        except _NoAnswer as e:
            problem = str(e)
        except self.fatal:
            raise
        except Exception as e:  # the user's client failed: retry, then fall back
            problem = f"asking failed with {_describe(e)}"
        else:
            if isinstance(reply, str):
                reply = str.__str__(reply)  # a plain str in the transcript
                record["replies"].append(reply)
            parsed, problem = parse_reply(reply, legal)
            if parsed is not None:
                return parsed
        record["problems"].append(problem)
        return None

    def decide(self, state) -> int:
        first, legal, actions = self.prompt(state)
        record = {
            "prompt": first,
            "replies": [],
            "problems": [],
            "move": "",
            "fell_back": False,
            "say": "",
            "notes": "",
        }
        parsed = self._try(first, legal, record)
        if parsed is None:
            parsed = self._try(retry_prompt(first, record["problems"][-1], legal), legal, record)
        if parsed is None:
            action = self.fallback_bot.step(state)
            record.update(move=legal[actions.index(action)], fell_back=True)
        else:
            action = actions[legal.index(parsed["move"])]
            record.update(parsed)
        self.transcript.append(record)
        return action


class _NoAnswer(Exception):
    """`ask` gave no answer within timeout_s."""


def _describe(error: Exception) -> str:
    """`error` as the transcript tells it: its type and message, cut short;
    by its type alone when its message cannot be read (its __str__ raised
    or returned something that is not text)."""
    name = type(error).__name__
    try:
        message = str(error)
    except Exception:
        return f"{name} (its message could not be read)"
    message = message if len(message) <= 200 else message[:197] + "..."
    return f"{name}: {message}"


__all__ = ["SAY_LIMIT", "TextBot", "build_prompt", "parse_reply", "retry_prompt", "seat_label"]
