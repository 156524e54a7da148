"""Mind Bluff laid out for a person at the terminal (docs/bots.md#terminal-play).

Built from the seat's own strings only (its eats, every claim, response and
verdict), so terminal play never shows a person more than a bot may know;
the verdict reads the true match, and is said only once the game is over.
"""

from __future__ import annotations

import re

from fogboard_games.mind_bluff import rules

TURN = re.compile(r"T(\d+) (P[12]) (.*)")

WHY = {
    "last-dango": "{loser} ate the last dango",
    "all-done-win": "{winner} said all done with exactly one dango left",
    "all-done-loss": "{loser} said all done with {remaining} dango left, not one",
}


def for_person(setup: rules.Setup, observation: str, seat: int) -> str:
    """The seat's view now, one fact a line (`last` is in the record)."""
    return view_text(observation)


def view_text(observation: str) -> str:
    """An observation string of a game, one fact a line (`last` is in the record)."""
    parts = observation.split(" | ")
    return "\n".join(p for p in parts[1:] if not p.startswith("last "))


def turn_line(number: str, who: str, words: str, me: str) -> str:
    """One turn of the record in words: 'P2 ate 2, claimed 3; P1 doubted: BLUFF'."""
    other = "P1" if who == "P2" else "P2"
    name = lambda p: f"{p} (you)" if p == me else p  # noqa: E731
    if words == "all done":
        return f"turn {number}: {name(who)} said all done"
    said = [f"turn {number}: {name(who)}"]
    ate = re.match(r"ate (\d+)", words)
    said.append(f"ate {ate.group(1)}" if ate else "ate (unseen)")
    claim = re.search(r"claim (\d+)( forced)?", words)
    text = " ".join(said)
    if claim:
        text += f", claimed {claim.group(1)}" + (" (forced honest)" if claim.group(2) else "")
    if " believe" in words:
        text += f"; {name(other)} believed"
    elif " doubt" in words:
        text += f"; {name(other)} doubted"
    if words.endswith("TRUE"):
        text += ": the claim was TRUE"
    elif words.endswith("BLUFF"):
        text += ": the claim was a BLUFF"
    return text


def record(setup: rules.Setup, info_state: str, seat: int) -> list[str]:
    """Who went first, then every turn as far as the seat saw it."""
    return record_text(info_state, seat)


def record_text(info_state: str, seat: int) -> list[str]:
    """The record lines of a game's information-state string."""
    parts = info_state.split(" | ")
    me = rules.SEAT_NAMES[seat]
    lines = []
    for part in parts[1:]:
        turn = TURN.fullmatch(part)
        if turn:
            lines.append(turn_line(*turn.groups(), me))
        elif part.startswith("first "):
            lines.append(f"{part[6:]} goes first")
        elif part.startswith("start "):
            lines.append(f"the game starts with {part[6:]} dango")
    return lines


def verdict(match: rules.Match) -> str:
    """Who won and why, from the true ending (said at the end only)."""
    return f"{rules.seat_label(match.winner)} wins: {ending(match)}"


def ending(match: rules.Match) -> str:
    """Why a finished game ended as it did: 'P1 ate the last dango'."""
    return ending_text(rules.ENDINGS[match.ending], match.winner, match.remaining)


def ending_text(name: str, winner: int, remaining: int) -> str:
    """The same, from the ending's name, the winning seat and the dango left."""
    return WHY[name].format(
        winner=rules.SEAT_NAMES[winner], loser=rules.SEAT_NAMES[1 - winner], remaining=remaining
    )
