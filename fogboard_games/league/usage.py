"""What the league's language-model seats spent, per kind (docs/league.md#language-model-seats).

Each game's tokens are the ones its endpoint reported (prompt and
completion, every try of every call), kept per seat with the game's
metrics (bots/llm.py `game_metrics`), so the journal holds them and a
resumed league reports what the whole league spent. A table row sums its
kind's seats (league/table.py SUMMED); `usage_by_kind` sums a kind's rows
over every preset, each of its seats' games once.
"""

from __future__ import annotations

from collections.abc import Iterable

from fogboard_games.league.table import SUMMED


def seats_played(llm: dict) -> list[str]:
    """What makes a language-model kind's games what they are, one line per
    kind (its model, persona, sampling and fallback; not its URL, key
    variable, timeout or tries), for the journal's request: a resume with
    other seats is refused, naming them."""
    return [
        f"{kind} model {c['model']} persona {c['persona_sha256'][:12]} temperature "
        f"{c['temperature']} max_tokens {c['max_tokens']} fallback {c['fallback']}"
        for kind, c in sorted(llm.items())
    ]


def usage_by_kind(table: dict, kinds: Iterable[str]) -> dict:
    """{kind: {"games", "prompt_tokens", "completion_tokens", "fallbacks"}} for
    each of `kinds` (the language-model seats), from the report's table."""
    out = {kind: {"games": 0, **dict.fromkeys(SUMMED, 0)} for kind in kinds}
    for rows in table.values():
        for row in rows:
            if row["kind"] in out and SUMMED[0] in row:
                spent = out[row["kind"]]
                spent["games"] += row["games"]
                for key in SUMMED:
                    spent[key] += row[key]
    return out


def format_usage(usage: dict) -> str:
    """The usage as the command line prints it, below the table ("" for none)."""
    if not usage:
        return ""
    lines = [
        "tokens, as the endpoints reported them",
        f"{'bot':<24}{'games':>6}{'prompt':>14}{'completion':>14}{'fallbacks':>11}",
    ]
    for kind, spent in usage.items():
        lines.append(
            f"{kind:<24}{spent['games']:>6}{spent['prompt_tokens']:>14,}"
            f"{spent['completion_tokens']:>14,}{spent['fallbacks']:>11}"
        )
    return "\n".join(lines)
