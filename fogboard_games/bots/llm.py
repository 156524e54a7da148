"""Language-model seats: a text seat whose replies come from an OpenAI-compatible
endpoint (docs/bots.md#language-model-seats).

`make_bot("llm", game, player, seed, base_url=..., model=..., api_key_env=...,
persona=..., [temperature, max_tokens, timeout_s, max_retries, fallback,
record, replay])` makes an `LLMBot`: the text seat of bots/text.py, its
prompt the text seat's (the rules in brief, the seat's information state
verbatim, its legal moves, the reply format) with the persona in front,
its `ask` a call to the endpoint (bots/llm_client.py: every fault retried
within `max_retries`, then a failed reply: the text seat's retry with the
legal moves, then its fallback). Each decision's transcript entry also
holds the tokens it cost (`usage`) and what each failed call to the
endpoint met (`tries`: "HTTP 429", "no reply within 60 s", ...);
`game_metrics()` sums a game's tokens and fallbacks, which the league
reports per kind.

`prepare(kinds, ...)` is what the command line calls before any game:
it reads a configuration file (bots/llm_config.py), refuses in one line
whatever would fail later (a missing field, an unset key variable, an
`llm:NAME` not in the file, the openai client not installed), and
registers each `llm:NAME` as a bot kind of its own (`SeatKind`), which
the league plays on threads (waiting on HTTP needs no process) and
journals game by game.
"""

from __future__ import annotations

from fogboard_games.bots import llm_client
from fogboard_games.bots.base import kinds_for, register_kind
from fogboard_games.bots.llm_config import (
    REQUIRED,
    LLMConfigError,
    LLMError,
    SeatConfig,
    check_key,
    need_client,
    read_config,
    seat_config,
)
from fogboard_games.bots.text import TextBot
from fogboard_games.core import guards

PREFIX = "llm:"
_UNSET = object()


class NoReply(Exception):
    """No usable reply came from the endpoint within the seat's tries."""


class LLMBot(TextBot):
    """A text seat played by a language model behind an OpenAI-compatible endpoint."""

    kind = "llm"
    games = None
    requires = REQUIRED  # kinds_for lists only kinds made from (game, player, seed)
    # A wrong key or model, or a replay without the reply, stops the game:
    # no try again or fallback would mend it.
    fatal = (LLMError,)

    def __init__(
        self,
        game,
        player: int,
        seed: int = 0,
        *,
        base_url=_UNSET,
        model=_UNSET,
        api_key_env=_UNSET,
        persona=_UNSET,
        temperature=None,
        max_tokens=None,
        timeout_s=60.0,
        max_retries=2,
        fallback="heuristic",
        record=None,
        replay=None,
    ):
        given = dict(base_url=base_url, model=model, api_key_env=api_key_env, persona=persona)
        fields = {k: v for k, v in given.items() if v is not _UNSET}
        fields.update(
            temperature=temperature,
            max_tokens=max_tokens,
            timeout_s=timeout_s,
            max_retries=max_retries,
            fallback=fallback,
        )
        seat = seat_config("llm", fields, "the llm bot")
        if record is not None and replay is not None:
            raise LLMConfigError("the llm bot takes record= or replay=, not both")
        if replay is not None:
            endpoint = llm_client.Recording(replay, "replay").player()
        else:
            check_key(seat, "the llm bot")
            endpoint = llm_client.live_endpoint(seat)
            if record is not None:
                recording = llm_client.Recording(record, "record")
                recording.start({seat.name: seat})
                endpoint = recording.recorder(endpoint)
        self._seat(game, player, seed, seat, endpoint, self.kind)

    @classmethod
    def seated(cls, game, player: int, seed: int, seat: SeatConfig, endpoint, kind: str):
        """A bot of a checked seat and its endpoint (what an `llm:NAME` kind makes)."""
        bot = cls.__new__(cls)
        bot._seat(game, player, seed, seat, endpoint, kind)
        return bot

    def _seat(self, game, player, seed, seat: SeatConfig, endpoint, kind: str) -> None:
        TextBot.__init__(self, game, player, seed, ask=self._ask, fallback=seat.fallback)
        self.kind = kind
        self.config = seat
        self.endpoint = endpoint
        self._seen: dict[str, int] = {}  # request digest -> calls made with it this game
        self._spent = {"prompt_tokens": 0, "completion_tokens": 0}  # of the decision
        self._tries: list[str] = []  # what the decision's failed tries met

    def restart(self) -> None:
        super().restart()
        self._seen.clear()

    def restart_at(self, state) -> None:
        super().restart_at(state)
        self._seen.clear()

    def prompt(self, state):
        """The text seat's prompt with the persona in front: the persona sets
        tendencies; the rules, the seat's view and its moves are the text seat's."""
        text, legal, actions = super().prompt(state)
        return f"{self.config.persona}\n\n{text}", legal, actions

    def stream(self) -> str:
        """This seat's calls in this game, as the recording names them."""
        return f"seed{self.seed}-game{self._games}-seat{self.player}"

    def _ask(self, prompt: str) -> str:
        body = self.config.request(prompt)
        digest = llm_client.body_digest(body)
        occurrence = self._seen.get(digest, 0)
        self._seen[digest] = occurrence + 1
        reply = self.endpoint.call(self.config.name, body, self.stream(), occurrence)
        for key, value in reply.usage.items():
            self._spent[key] += value
        self._tries += reply.tries
        if reply.text is None:
            raise NoReply(reply.problem)
        return reply.text

    def decide(self, state) -> int:
        self._spent = {"prompt_tokens": 0, "completion_tokens": 0}
        self._tries = []
        action = super().decide(state)
        self.transcript[-1].update(usage=dict(self._spent), tries=list(self._tries))
        return action

    def game_metrics(self) -> dict:
        """This game's figures, summed: the tokens the endpoint reported and
        the decisions the fallback made (the league's table sums them per kind)."""
        return {
            "prompt_tokens": sum(e["usage"]["prompt_tokens"] for e in self.transcript),
            "completion_tokens": sum(e["usage"]["completion_tokens"] for e in self.transcript),
            "fallbacks": sum(e["fell_back"] for e in self.transcript),
        }


class SeatKind:
    """The bot kind `llm:NAME`: seats of one configured model, made from
    (game, player, seed) alone, as every league kind is."""

    games = None
    requires = ()
    options = ()
    threads = True  # waits on the network: the league plays it on threads

    def __init__(self, seat: SeatConfig, endpoint):
        self.kind = PREFIX + seat.name
        self.seat = seat
        self.endpoint = endpoint

    def __call__(self, game, player: int, seed: int = 0) -> LLMBot:
        return LLMBot.seated(game, player, seed, self.seat, self.endpoint, self.kind)


def is_llm_kind(kind) -> bool:
    return isinstance(kind, str) and (kind == "llm" or kind.startswith(PREFIX))


def prepare(
    kinds,
    presets=(),
    config: str | None = None,
    record: str | None = None,
    replay: str | None = None,
    option: str = "--bots",
) -> dict:
    """Register the `llm:NAME` kinds among `kinds` (the command line's
    `--bots` or `--opponent`) and return their public configs by kind ({}
    when there are none); LLMConfigError, one line, for anything that would
    fail once games are played. `presets` are checked to be games each
    seat's fallback plays."""
    wanted = [k for k in kinds if is_llm_kind(k)]
    used = [o for o, v in (("--llm-config", config), ("--llm-record", record)) if v]
    used += ["--llm-replay"] if replay else []
    if not wanted:
        if used:
            raise LLMConfigError(
                f"{used[0]} is for language-model seats, and {option} names no llm:NAME kind"
            )
        return {}
    if "llm" in wanted:
        raise LLMConfigError(
            f"{option} llm: name a seat of --llm-config FILE, as llm:NAME "
            "(docs/bots.md#language-model-seats)"
        )
    if record and replay:
        raise LLMConfigError("--llm-record and --llm-replay: one or the other, not both")
    if not replay:
        need_client(", ".join(wanted))  # first: a bare install need not write a config
    recording = None
    if replay:
        recording = llm_client.Recording(replay, "--llm-replay")
        held = recording.seats_json()  # (a folder --llm-record wrote, whichever seats are used)
        seats = read_config(config) if config else recording.seats()
        source = f"--llm-config {config!r}" if config else f"--llm-replay {replay!r}"
        unrecorded = [
            k for k in wanted if k[len(PREFIX) :] in seats and k[len(PREFIX) :] not in held
        ]
        if unrecorded:
            raise LLMConfigError(
                f"--llm-replay {replay!r} holds no recording of {unrecorded[0]} "
                f"(it holds {', '.join(PREFIX + n for n in sorted(held)) or 'none'})"
            )
    elif config:
        seats = read_config(config)
        source = f"--llm-config {config!r}"
    else:
        raise LLMConfigError(
            f"{option} {wanted[0]} needs --llm-config FILE, which holds its endpoint, model, "
            "key variable and persona (docs/bots.md#language-model-seats)"
        )
    chosen = {}
    for kind in wanted:
        name = kind[len(PREFIX) :]
        if name not in seats:
            raise LLMConfigError(
                f"{option} {guards.quoted(kind)}: no seat {guards.quoted(name)} in {source} "
                f"(its seats: {', '.join(PREFIX + n for n in sorted(seats))})"
            )
        chosen[kind] = seats[name]
    if presets:
        import fogboard_games

        for kind, seat in chosen.items():
            for preset in presets:
                if preset in fogboard_games.PRESETS:  # (an unknown one is refused by its caller)
                    game = fogboard_games.load(preset)
                    if seat.fallback not in kinds_for(game):
                        raise LLMConfigError(
                            f"{kind}: its fallback {seat.fallback!r} does not play {preset}; "
                            f"set fallback to one of {', '.join(kinds_for(game))}"
                        )
    if not replay:
        for kind, seat in chosen.items():
            check_key(seat, kind)
    if record:
        recording = llm_client.Recording(record, "--llm-record")
        recording.start({seat.name: seat for seat in chosen.values()})
    for kind, seat in chosen.items():
        if replay:
            endpoint = recording.player()
        else:
            endpoint = llm_client.live_endpoint(seat)
            if record:
                endpoint = recording.recorder(endpoint)
        register_kind(kind, SeatKind(seat, endpoint))
    return {kind: seat.public() for kind, seat in chosen.items()}


__all__ = ["LLMBot", "NoReply", "SeatKind", "is_llm_kind", "prepare"]
