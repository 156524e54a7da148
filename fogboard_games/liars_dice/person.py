"""Liar's Dice laid out for a person at the terminal (docs/bots.md#terminal-play).

Built from the seat's own strings only (its hands, every public bid, call
and showdown), so terminal play never shows a person more than a bot may
know; the verdict reads the true match, and is said only once it is over.
"""

from __future__ import annotations

import re

from fogboard_games.liars_dice import observer, rules

ROUND = re.compile(r"round (\d+)(?: dice ([\d ]+))?: (.*)")
# The decisions as the record writes them, said in words.
SAID = {
    "bid": "bids {}",
    "liar": "calls liar",
    "prophecy": "calls prophecy {} (exactly that many)",
    "pass": "passes",
    "keep": "keeps its dice",
    "reroll": "rerolls",
}


def for_person(setup: rules.Setup, observation: str, seat: int) -> str:
    """The seat's view now: its hand, the dice in play, the standing bid, whose move."""
    parts = observation.split(" | ")
    # The returns are left out: terminal play prints them once, at the end.
    shown = [p for p in parts[1:] if not p.startswith("returns ")]
    return "\n".join(p.replace("hand ", "your hand ", 1) for p in shown)


def token_line(token: str, me: str) -> str:
    """One decision or fact of a round, said for a person."""
    if token.startswith("hand "):
        return f"your hand is {token[5:]}"
    if token.startswith("show "):
        return "all dice shown: " + token[5:]
    who, _, what = token.partition(" ")
    word, _, arg = what.partition(" ")
    if word not in SAID:
        return token
    return f"{who}{' (you)' if who == me else ''} " + SAID[word].format(arg)


def rounds(info_state: str) -> list[tuple[str, str | None, list[str]]]:
    """(round, dice in play, tokens) of every round the seat's string records."""
    parts = info_state.split(" | ")
    found = []
    for part in parts[1:]:
        m = ROUND.fullmatch(part)
        if m:
            found.append((m.group(1), m.group(2), m.group(3).split(", ")))
    return found


def record(setup: rules.Setup, info_state: str, seat: int) -> list[str]:
    """Every round: the dice in play, the seat's hand, every bid and call, the showdown."""
    me = f"P{seat}"
    lines = []
    for number, dice, tokens in rounds(info_state):
        lines.append(f"round {number}" + (f", dice per seat {dice}" if dice else ""))
        lines += [token_line(token, me) for token in tokens]
    return lines


def verdict(match: rules.Match) -> str:
    """Who won and why: the final call on the standing bid and the showdown
    (said at the end only, when every hand has been shown)."""
    returns = match.returns()
    winner = max(range(len(returns)), key=returns.__getitem__)
    _, _, tokens = rounds(match.setup.encoder.info_state_string(match, winner))[-1]
    calls = [t for t in tokens if t.split(" ")[1] in ("bid", "liar", "prophecy")]
    call = calls[-1].split(" ")
    why = f"{call[0]} called {' '.join(call[1:])}"
    if len(calls) > 1 and call[1] == "liar":
        holder, _, bid = calls[-2].split(" ")
        why += f" on {holder}'s bid {bid}"
    hands, count, paid = observer.showdown_text(match.setup, match.showdowns[-1])[5:].split("; ")
    why += f": {count} ({hands}); {paid}"
    if match.setup.mode == "dice":
        why = f"the last seat with dice (the last round: {why})"
    return f"{seat_label(winner)} wins: {why}"


def seat_label(seat: int) -> str:
    """Seat p as the game's strings name it (the ruleset's `seat_label`)."""
    return f"seat {seat} (P{seat} in the record of bids)"
