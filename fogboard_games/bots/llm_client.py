"""Asking an OpenAI-compatible endpoint, every fault survived, and the
recordings that replay a run without it (docs/bots.md#language-model-seats).

An endpoint answers `call(name, body, stream, occurrence) -> Reply`:

- `LiveEndpoint` sends the request through the official `openai` client
  (imported only here, when a live seat is made: the `llm` extra), with
  the client's own retries off, so that every fault is handled here alike,
  whichever server is behind the URL. A timeout, HTTP 408, 409, 429 or
  5xx, a refused connection, a body that is not JSON and an empty or
  unusable reply are each tried again, up to the seat's `max_retries`,
  after a wait: a 429's or 503's `Retry-After` (or `retry-after-ms`) when
  given, otherwise 0.25 s doubling with each try, both bounded (`wait_cap`).
  Then the call gives a Reply with no text, which the text seat counts as a
  failed reply (its retry with the legal moves, then its fallback). Another
  4xx refuses this request only (a prompt too long, say): no try again. A
  401, 402, 403 or 404 says the seat itself is wrong (its key, credit, model
  or URL): `EndpointRefused` stops the game rather than fill a league with
  fallback moves.
- `Recording(folder).recorder(live)` is the live endpoint that also writes
  every call to the folder, one JSON file each; `Recording(folder).player()`
  answers from those files alone and never opens a connection. A file is
  named by a digest of the request body (model, messages, parameters), the
  seat's stream (its seed, game and seat: the same in the recorded run and
  its replay, whatever order threads ran in) and the body's occurrence in
  that stream, so the replay gets each reply where the recorded run did.
  Nothing holds the key: it is read from the environment into the client
  and sent in its Authorization header, never kept anywhere else.
"""

from __future__ import annotations

import dataclasses
import email.utils
import hashlib
import json
import math
import os
import random
import threading
import time

from fogboard_games.bots.llm_config import LLMConfigError, LLMError, SeatConfig, read_json
from fogboard_games.core import files, guards

# Statuses that say the seat itself is wrong: no try, no fallback, will help.
FATAL = {
    401: "the key was refused",
    402: "payment is required",
    403: "the key may not use it",
    404: "no such model or route",
}
RETRIED = {408, 409, 429}  # and every 5xx
MAX_WAIT_S = 60.0  # the longest wait before a try again, whatever Retry-After says
FIRST_BACKOFF_S = 0.25
RECORDING_FORMAT = "fogboard_games llm recording 1"
SEATS_FILE = "seats.json"
REQUESTS = "requests"
MAX_ENTRY_BYTES = 16 * 2**20


class EndpointRefused(LLMError):
    """The endpoint refused the seat (401, 402, 403, 404): its config is wrong."""


class MissingRecording(LLMError):
    """A replay met a request that its recording does not hold."""


@dataclasses.dataclass
class Reply:
    """One call's outcome: `text` (None when no usable reply came within the
    tries), `problem` (why not), the tokens the endpoint reported over every
    try, and what each failed try met."""

    text: str | None
    problem: str = ""
    usage: dict = dataclasses.field(
        default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0}
    )
    tries: list = dataclasses.field(default_factory=list)

    def as_json(self) -> dict:
        return {
            "reply": self.text,
            "problem": self.problem,
            "usage": self.usage,
            "tries": self.tries,
        }


def wait_cap(seat: SeatConfig) -> float:
    """The longest wait before a try again: MAX_WAIT_S, and no longer than
    the seat would wait for a reply (a 429 asking for an hour, with a
    timeout of 5 s, waits 5 s)."""
    return min(MAX_WAIT_S, seat.timeout_s)


def retry_wait(headers, tries_before: int, cap: float) -> float:
    """Seconds to wait before try `tries_before` + 1: the server's
    `retry-after-ms` or `Retry-After` (seconds or an HTTP date) when it
    gives one, otherwise FIRST_BACKOFF_S doubled per earlier try; at most
    `cap`, never below 0."""
    asked = None
    get = getattr(headers, "get", None)
    if get is not None:
        for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
            value = get(name)
            if value is None:
                continue
            try:
                asked = float(value) / scale
            except ValueError:
                parsed = email.utils.parsedate_tz(value) if name == "retry-after" else None
                if parsed is not None:
                    asked = email.utils.mktime_tz(parsed) - time.time()
            if asked is not None and not math.isnan(asked):
                break
            asked = None
    if asked is None:
        asked = FIRST_BACKOFF_S * 2.0 ** min(tries_before, 30)
    return max(0.0, min(asked, cap))


def _tokens(usage) -> tuple[int, int]:
    """(prompt, completion) tokens as the endpoint reported them (0 where it did not)."""

    def count(name: str) -> int:
        value = getattr(usage, name, None)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

    return count("prompt_tokens"), count("completion_tokens")


def _content(response) -> tuple[str | None, str]:
    """(the reply's text, "") or (None, why it has none), from whatever came back."""
    try:
        choices = response.choices
        if not choices:
            return None, "the reply held no choice"
        content = choices[0].message.content
    except (AttributeError, IndexError, KeyError, TypeError):
        return None, "the reply was not a chat completion"
    if not isinstance(content, str):
        return None, f"the reply's message held no text ({type(content).__name__})"
    if not content.strip():
        return None, "the reply was empty"
    return content, ""


class LiveEndpoint:
    """A seat's endpoint, through the openai client (one client, shared by threads)."""

    def __init__(self, seat: SeatConfig):
        try:
            import openai
        except ImportError:
            raise LLMConfigError(
                'a language-model seat needs the openai client: pip install ".[llm]"'
            ) from None
        self.openai = openai
        self.seat = seat
        # The key goes into the client and nowhere else. A server that takes
        # none gets a placeholder: the client would otherwise read
        # $OPENAI_API_KEY and send it to whatever server base_url names.
        key = os.environ.get(seat.api_key_env, "") if seat.api_key_env else "none"
        self._key = key  # only to scrub it from what a server says back
        self.client = openai.OpenAI(
            base_url=seat.base_url, api_key=key, timeout=seat.timeout_s, max_retries=0
        )

    def call(self, name: str, body: dict, stream: str, occurrence: int) -> Reply:
        openai = self.openai
        seat = self.seat
        reply = Reply(None)
        prompt_tokens = completion_tokens = 0
        tries = 1 + seat.max_retries
        for attempt in range(tries):
            headers = None
            retried = True
            try:
                response = self.client.chat.completions.create(**body)
            except openai.APIStatusError as e:
                code = e.status_code
                if code in FATAL:
                    raise EndpointRefused(
                        f"llm:{name}: the endpoint answered HTTP {code} ({FATAL[code]}); "
                        f"check its base_url, model and the key in ${seat.api_key_env}"
                        if seat.api_key_env
                        else f"llm:{name}: the endpoint answered HTTP {code} ({FATAL[code]}); "
                        "check its base_url and model"
                    ) from None
                problem = f"HTTP {code}"
                headers = getattr(e.response, "headers", None)
                retried = code in RETRIED or code >= 500
                if not retried:  # what the server said of this request (a prompt too long)
                    problem += f": {self._scrub(_one_line(e))}"
            except openai.APITimeoutError:
                problem = f"no reply within {seat.timeout_s:g} s"
            except openai.APIConnectionError as e:
                cause = e.__cause__ or e
                said = self._scrub(_one_line(cause))
                problem = f"cannot reach the endpoint ({type(cause).__name__}: {said})"
            except (openai.OpenAIError, ValueError) as e:
                # A body that is not JSON (json's ValueError), or one the client cannot read.
                said = self._scrub(_one_line(e))
                problem = f"the reply could not be read ({type(e).__name__}: {said})"
            else:
                p, c = _tokens(getattr(response, "usage", None))
                prompt_tokens, completion_tokens = prompt_tokens + p, completion_tokens + c
                text, problem = _content(response)
                if text is not None:
                    reply.text = text
                    break
            reply.tries.append(problem)
            if not retried or attempt == tries - 1:
                more = f" ({len(reply.tries)} tries)" if len(reply.tries) > 1 else ""
                reply.problem = problem + more
                break
            pause = retry_wait(headers, attempt, wait_cap(seat))
            if headers is None or not (headers.get("retry-after") or headers.get("retry-after-ms")):
                pause *= 1 - 0.25 * random.random()  # threads that failed together part
            time.sleep(pause)
        reply.usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
        return reply

    def _scrub(self, text: str) -> str:
        """`text` (what a server or the client said) with the key blanked out,
        should a server echo it: problems are kept in transcripts and recordings."""
        return text.replace(self._key, "***") if len(self._key) >= 4 else text


def _one_line(e: BaseException) -> str:
    try:
        text = " ".join(str(e).split())
    except Exception:
        return "(its message could not be read)"
    return guards.clip(text, 160)


def body_digest(body: dict) -> str:
    """A stable digest of a request body: its canonical JSON's sha256."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


class Recording:
    """A folder of recorded calls: `SEATS_FILE` (the seats' public configs)
    and `requests/`, one JSON file per call."""

    def __init__(self, folder: str, option: str = "--llm-record"):
        self.folder = folder
        self.option = option

    def path(self, body: dict, stream: str, occurrence: int) -> str:
        name = f"{body_digest(body)[:32]}-{stream}-{occurrence}.json"
        return os.path.join(self.folder, REQUESTS, name)

    # ---- the seats -----------------------------------------------------------

    def start(self, seats: dict[str, SeatConfig]) -> None:
        """Make the folder a recording of `seats` (LLMConfigError, one line, if it
        cannot be written or holds a recording of other seats). A recording of
        the same seats is added to: a resumed league records into it again."""
        where = f"{self.option} {self.folder!r}"
        try:
            os.makedirs(os.path.join(self.folder, REQUESTS), exist_ok=True)
            files.check_writable(os.path.join(self.folder, REQUESTS, "request.json"), where)
        except OSError as e:
            raise LLMConfigError(
                f"{where}: {e.strerror or e}; want a folder that can be written"
            ) from None
        except ValueError as e:
            raise LLMConfigError(str(e)) from None
        public = {name: seat.public() for name, seat in sorted(seats.items())}
        seats_path = os.path.join(self.folder, SEATS_FILE)
        if os.path.exists(seats_path):
            held = self.seats_json()
            clash = sorted(n for n in public if n in held and held[n] != public[n])
            if clash:
                raise LLMConfigError(
                    f"{where} holds a recording of another llm:{clash[0]} (its model, persona "
                    "or parameters differ); record into another folder"
                )
            public = {**held, **public}
        try:
            files.write_atomically(seats_path, json.dumps(public, indent=1) + "\n")
        except OSError as e:
            raise LLMConfigError(f"{where}: {e.strerror or e}") from None

    def seats_json(self) -> dict:
        """The recorded seats' public configs, by name (LLMConfigError if unreadable)."""
        path = os.path.join(self.folder, SEATS_FILE)
        where = f"{self.option} {self.folder!r}"
        if not os.path.isdir(self.folder):
            raise LLMConfigError(f"{where}: no such folder; want one --llm-record wrote")
        if not os.path.exists(path):
            raise LLMConfigError(f"{where}: no {SEATS_FILE}; want a folder --llm-record wrote")
        held = read_json(path, where, 2**24, "recording")
        if not isinstance(held, dict) or not all(isinstance(v, dict) for v in held.values()):
            raise LLMConfigError(f"{where}: {SEATS_FILE} is not an object of seats")
        return held

    def seats(self) -> dict[str, SeatConfig]:
        """The recorded seats as configs, to replay them without their config
        file or persona files (the persona's text is recorded)."""
        from fogboard_games.bots.llm_config import seat_config

        out = {}
        for name, public in self.seats_json().items():
            where = f"{self.option} {self.folder!r}: {SEATS_FILE}: llm:{name}"
            if not isinstance(public.get("persona"), str):
                raise LLMConfigError(f"{where}: persona must be its text")
            fields = {
                k: public.get(k)
                for k in ("base_url", "model", "api_key_env", "temperature", "max_tokens")
            }
            for k in ("timeout_s", "max_retries", "fallback"):
                if k in public:
                    fields[k] = public[k]
            fields["persona"] = f"{SEATS_FILE}: llm:{name}"
            out[name] = seat_config(name, fields, where, persona=public["persona"])
        return out

    # ---- the calls -----------------------------------------------------------

    def recorder(self, live) -> RecordingEndpoint:
        return RecordingEndpoint(live, self)

    def player(self) -> ReplayEndpoint:
        return ReplayEndpoint(self)

    def save(self, name: str, body: dict, stream: str, occurrence: int, reply: Reply) -> None:
        entry = {
            "format": RECORDING_FORMAT,
            "seat": name,
            "stream": stream,
            "occurrence": occurrence,
            "request": body,
            **reply.as_json(),
        }
        path = self.path(body, stream, occurrence)
        try:
            files.write_atomically(path, json.dumps(entry, indent=1, ensure_ascii=False) + "\n")
        except OSError as e:
            # A reply that cannot be kept would make a run that cannot be replayed.
            raise LLMError(f"{self.option} {path!r}: {e.strerror or e}") from None

    def load(self, name: str, body: dict, stream: str, occurrence: int) -> Reply:
        path = self.path(body, stream, occurrence)
        if not os.path.exists(path):
            raise MissingRecording(
                f"{self.option} {self.folder!r} holds no reply to llm:{name}'s request "
                f"{body_digest(body)[:12]} (stream {stream}, occurrence {occurrence}): the "
                "recorded run never asked it (another persona, model, preset, seed or version?)"
            )
        entry = read_json(path, self.option, MAX_ENTRY_BYTES, "recording")
        where = f"{self.option} {path!r}"
        if not isinstance(entry, dict) or entry.get("format") != RECORDING_FORMAT:
            raise LLMError(f"{where}: not a recorded call ({RECORDING_FORMAT!r})")
        if entry.get("request") != body:
            raise LLMError(f"{where}: it records another request than its name says")
        text, problem, usage, tries = (entry.get(k) for k in ("reply", "problem", "usage", "tries"))
        ok = (
            (text is None or isinstance(text, str))
            and isinstance(problem, str)
            and isinstance(usage, dict)
            and sorted(usage) == ["completion_tokens", "prompt_tokens"]
            and all(guards.is_int64(v) and v >= 0 for v in usage.values())
            and isinstance(tries, list)
            and all(isinstance(t, str) for t in tries)
        )
        if not ok or (text is None) == (not problem):
            raise LLMError(
                f"{where}: want reply (text or null), problem, usage "
                "{prompt_tokens, completion_tokens} and tries"
            )
        return Reply(text, problem, dict(usage), list(tries))


class RecordingEndpoint:
    """The live endpoint, every call also written to the recording."""

    def __init__(self, live, recording: Recording):
        self.live = live
        self.recording = recording

    def call(self, name: str, body: dict, stream: str, occurrence: int) -> Reply:
        reply = self.live.call(name, body, stream, occurrence)
        self.recording.save(name, body, stream, occurrence, reply)
        return reply


class ReplayEndpoint:
    """Answers from a recording only: no client, no connection."""

    def __init__(self, recording: Recording):
        self.recording = recording

    def call(self, name: str, body: dict, stream: str, occurrence: int) -> Reply:
        return self.recording.load(name, body, stream, occurrence)


_clients: dict = {}
_clients_lock = threading.Lock()


def live_endpoint(seat: SeatConfig) -> LiveEndpoint:
    """The live endpoint of a seat, one per distinct seat config in the process
    (bots made game after game share its client and connections)."""
    # (keyed by the key's value too, in memory only: a key changed in the
    # environment makes a new client rather than send the old one)
    key = (seat, os.environ.get(seat.api_key_env or "", ""))
    with _clients_lock:
        endpoint = _clients.get(key)
        if endpoint is None:
            endpoint = _clients[key] = LiveEndpoint(seat)
        return endpoint
