"""What a language-model seat is: its endpoint, model, key variable and persona
(docs/bots.md#language-model-seats).

A configuration file is JSON, one entry per seat name, each entry the
fields `make_bot("llm", ...)` takes:

    {"bold": {"base_url": "http://127.0.0.1:8000/v1", "model": "qwen2.5-7b-instruct",
              "api_key_env": "VLLM_API_KEY", "persona": "personas/bold.md",
              "temperature": 0.7}}

`read_config` and `seat_config` check every field and refuse a bad one
with an `LLMConfigError` of one line naming the entry, the field and what
is allowed, before any game. A `SeatConfig` holds the name of the key's
environment variable, never the key: the key is read from the environment
only when a client is made (bots/llm_client.py), so no config, report,
recording or message can hold it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
from urllib.parse import urlsplit, urlunsplit

from fogboard_games.bots.base import BOT_KINDS
from fogboard_games.core import files, guards
from fogboard_games.core.params import is_int

REQUIRED = ("base_url", "model", "api_key_env", "persona")
OPTIONAL = ("temperature", "max_tokens", "timeout_s", "max_retries", "fallback")
DEFAULTS = {"timeout_s": 60.0, "max_retries": 2, "fallback": "heuristic"}
MAX_RETRIES = 10
# A persona is a policy prompt of a page or two; a file far larger is not one
# (and would be sent, and paid for, at every decision).
MAX_PERSONA_BYTES = 64 * 1024
MAX_CONFIG_BYTES = 1024 * 1024
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
EXTRA = 'pip install ".[llm]"'  # the extra that brings the client


class LLMError(Exception):
    """A language-model seat that cannot go on: its config, its endpoint or its recording."""


class LLMConfigError(LLMError, ValueError):
    """A seat's configuration that cannot be used (refused before any game)."""


@dataclasses.dataclass(frozen=True)
class SeatConfig:
    """One language-model seat, checked. `persona` is the persona's text."""

    name: str
    base_url: str
    model: str
    api_key_env: str | None
    persona: str
    persona_path: str
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float = DEFAULTS["timeout_s"]
    max_retries: int = DEFAULTS["max_retries"]
    fallback: str = DEFAULTS["fallback"]

    def request(self, prompt: str) -> dict:
        """The chat-completions request body of one prompt: the whole prompt
        (persona in front) as one user message, since not every model's chat
        template takes a system message."""
        body: dict = {"model": self.model, "messages": [{"role": "user", "content": prompt}]}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def public(self) -> dict:
        """What a report or a recording keeps of the seat: every field but the
        key (never held here) and the base URL's user, password and query
        (where a key could hide); the persona whole, so a recorded run can be
        replayed without the persona file."""
        return {
            "base_url": public_url(self.base_url),
            "model": self.model,
            "api_key_env": self.api_key_env,
            "persona": self.persona,
            "persona_sha256": hashlib.sha256(self.persona.encode()).hexdigest(),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "timeout_s": self.timeout_s,
            "max_retries": self.max_retries,
            "fallback": self.fallback,
        }


def public_url(url: str) -> str:
    """`url` without user, password, query or fragment."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"  # an IPv6 address
    netloc = host + (f":{parts.port}" if parts.port is not None else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def seat_config(
    name: str, fields, where: str, folder: str = ".", persona: str | None = None
) -> SeatConfig:
    """A checked SeatConfig from an entry's fields (LLMConfigError, one line,
    naming `where` and the field); a relative persona path is read from
    `folder`, unless `persona` gives its text (a recording's)."""
    if not isinstance(fields, dict):
        raise LLMConfigError(
            f"{where}: an entry is a JSON object of fields ({', '.join(REQUIRED)}), "
            f"got {guards.describe(fields)}"
        )
    unknown = [k for k in fields if k not in REQUIRED + OPTIONAL]
    if unknown:
        raise LLMConfigError(
            f"{where}: unknown field {guards.quoted(str(unknown[0]))}; fields: "
            f"{', '.join(REQUIRED)}, and optional {', '.join(OPTIONAL)}"
        )
    missing = [k for k in REQUIRED if k not in fields]
    if missing:
        raise LLMConfigError(
            f"{where}: missing field {missing[0]!r} (every seat needs {', '.join(REQUIRED)})"
        )
    base_url = fields["base_url"]
    parts = urlsplit(base_url) if isinstance(base_url, str) else None
    try:
        port_ok = parts is not None and (parts.port is None or parts.port > 0)
    except ValueError:
        port_ok = False
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise LLMConfigError(
            f"{where}: base_url {guards.describe(base_url)} is not an http(s) URL; want the "
            "endpoint's base, e.g. http://127.0.0.1:8000/v1"
        )
    model = fields["model"]
    if not isinstance(model, str) or not model.strip():
        raise LLMConfigError(
            f"{where}: model must be the endpoint's model name, got {guards.describe(model)}"
        )
    key_env = fields["api_key_env"]
    if key_env is not None and (not isinstance(key_env, str) or not ENV_NAME.fullmatch(key_env)):
        raise LLMConfigError(
            f"{where}: api_key_env must name an environment variable (letters, digits, _), "
            f"or be null for a server that takes no key; got {guards.describe(key_env)}"
        )
    if persona is None:
        persona_path, persona = _persona(fields["persona"], where, folder)
    else:
        persona_path = str(fields["persona"])
    temperature = fields.get("temperature")
    if temperature is not None and not (guards.is_number(temperature) and 0 <= temperature <= 2):
        raise LLMConfigError(
            f"{where}: temperature must be a number from 0 to 2, got {guards.describe(temperature)}"
        )
    max_tokens = fields.get("max_tokens")
    if max_tokens is not None and not (is_int(max_tokens) and 1 <= max_tokens <= 10**7):
        raise LLMConfigError(
            f"{where}: max_tokens must be an int of at least 1, got {guards.describe(max_tokens)}"
        )
    timeout_s = fields.get("timeout_s", DEFAULTS["timeout_s"])
    if not (guards.is_number(timeout_s) and 0 < timeout_s <= 3600):
        raise LLMConfigError(
            f"{where}: timeout_s must be a number of seconds above 0, at most 3600, "
            f"got {guards.describe(timeout_s)}"
        )
    max_retries = fields.get("max_retries", DEFAULTS["max_retries"])
    if not (is_int(max_retries) and 0 <= max_retries <= MAX_RETRIES):
        raise LLMConfigError(
            f"{where}: max_retries must be an int from 0 to {MAX_RETRIES}, "
            f"got {guards.describe(max_retries)}"
        )
    fallback = fields.get("fallback", DEFAULTS["fallback"])
    _check_fallback(fallback, where)
    return SeatConfig(
        name=name,
        base_url=base_url,
        model=model,
        api_key_env=key_env,
        persona=persona,
        persona_path=persona_path,
        temperature=None if temperature is None else float(temperature),
        max_tokens=max_tokens,
        timeout_s=float(timeout_s),
        max_retries=max_retries,
        fallback=fallback,
    )


def _check_fallback(fallback, where: str) -> None:
    """A kind made from (game, seat, seed) alone, not itself a model's seat."""
    plain = sorted(
        k
        for k, f in BOT_KINDS.items()
        if not getattr(f, "requires", ()) and not getattr(f, "threads", False)
    )
    if not isinstance(fallback, str) or fallback not in plain:
        raise LLMConfigError(
            f"{where}: fallback must be a bot kind that needs no options, one of "
            f"{', '.join(plain)}; got {guards.describe(fallback)}"
        )


def _persona(path, where: str, folder: str) -> tuple[str, str]:
    """(the path read, the persona's text) of a persona file."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise LLMConfigError(
            f"{where}: persona must be the path of a Markdown file (the seat's policy "
            f"prompt), got {guards.describe(path)}"
        )
    full = os.path.join(folder, os.fspath(path))
    try:
        data = files.read_regular(full, MAX_PERSONA_BYTES)  # (never a pipe: it would block)
    except OSError as e:
        raise LLMConfigError(
            f"{where}: persona {full!r} cannot be read ({e.strerror or e})"
        ) from None
    if len(data) > MAX_PERSONA_BYTES:
        raise LLMConfigError(
            f"{where}: persona {full!r} is larger than {MAX_PERSONA_BYTES} bytes; a persona "
            "is a policy prompt of a page or two, sent at every decision"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LLMConfigError(
            f"{where}: persona {full!r} is not UTF-8 (byte {e.start}); want a Markdown file"
        ) from None
    if not text.strip():
        raise LLMConfigError(
            f"{where}: persona {full!r} is empty; write the seat's policy prompt in it"
        )
    return full, text.strip()


def read_config(path: str, option: str = "--llm-config") -> dict[str, SeatConfig]:
    """Every seat of a configuration file, checked (LLMConfigError, one line)."""
    entries = read_json(path, option, MAX_CONFIG_BYTES, "configuration")
    if not isinstance(entries, dict) or not entries:
        raise LLMConfigError(
            f"{option} {path!r}: want a JSON object with one entry per seat name "
            f'({{"NAME": {{"base_url": ..., "model": ..., "api_key_env": ..., '
            f'"persona": ...}}}}), got {guards.describe(entries)}'
        )
    folder = os.path.dirname(os.path.abspath(path))
    seats = {}
    for name, fields in entries.items():
        if not NAME.fullmatch(name):
            raise LLMConfigError(
                f"{option} {path!r}: seat name {guards.quoted(name)} is not letters, digits, "
                "'_', '.' and '-' (at most 64, the first a letter or digit)"
            )
        seats[name] = seat_config(name, fields, f"{option} {path!r}: llm:{name}", folder)
    return seats


def read_json(path: str, what: str, limit: int, name: str):
    """A plain JSON value from a file of at most `limit` bytes (LLMConfigError otherwise)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise LLMConfigError(f"{what} {path!r}: {e.strerror or e}") from None
    if len(data) > limit:
        raise LLMConfigError(f"{what} {path!r}: larger than {limit} bytes; not a {name} file")
    try:
        text = data.decode("utf-8-sig")
        if guards.nesting_too_deep(text) is not None:
            raise ValueError(f"nested deeper than {guards.MAX_DEPTH} levels")
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise LLMConfigError(f"{what} {path!r} is not JSON ({guards.shortened(e)})") from None
    problem = guards.json_problem(value, whole=name)
    if problem:
        raise LLMConfigError(f"{what} {path!r}: {problem}")
    return value


def check_key(seat: SeatConfig, where: str) -> None:
    """LLMConfigError unless the seat's key variable is set (its value is never shown)."""
    if seat.api_key_env is not None and not os.environ.get(seat.api_key_env):
        raise LLMConfigError(
            f"{where}: the key variable ${seat.api_key_env} (api_key_env) is not set; set it "
            "to the endpoint's key, or make api_key_env null for a server that takes none"
        )


def need_client(what: str) -> None:
    """LLMConfigError naming the extra when the openai client cannot be imported."""
    try:
        import openai  # noqa: F401
    except ImportError:
        raise LLMConfigError(f"{what} needs the openai client: {EXTRA}") from None
