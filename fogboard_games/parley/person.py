"""Parley laid out for a person at the terminal (docs/bots.md#terminal-play).

Built from the seat's own strings only (its cards, every public line, shot,
result and OUT, the aim of its own shots), so terminal play never shows a
person more than a bot may know; the verdict reads the totals, said once
the match is over (the winner rule is in docs/parley.md#the-winner).
"""

from __future__ import annotations

import re

from fogboard_games.parley import rules

CARDS = re.compile(r"(?:R(\d+) )?(C\d+) friend (C\d+) enemy (C\d+)")
# The observation string's per-cog figures (its latest turn is in the record instead).
PER_COG = ("hp ", "passes left ", "totals ")


def by_cog(numbers: str) -> str:
    """'1 4 0' as 'C0 1, C1 4, C2 0'."""
    return ", ".join(f"C{i} {n}" for i, n in enumerate(numbers.split()))


def for_person(setup: rules.Setup, observation: str, seat: int) -> str:
    """The seat's view now: round, its cards, hp, passes, misses, totals, whose turn."""
    parts = observation.split(" | ")
    lines = []
    for part in parts[1:-1]:
        cards = CARDS.fullmatch(part)
        if cards:
            lines.append(f"your FRIEND is {cards.group(3)}, your ENEMY is {cards.group(4)}")
        elif re.fullmatch(r"R\d+", part):
            lines.append(f"round {part[1:]}")
        elif part.startswith(PER_COG):
            head, numbers = re.match(r"([a-z ]+?) ([\d ]+)$", part).groups()
            lines.append(f"{head}: {by_cog(numbers)}")
        elif part.startswith("misses "):
            lines.append(f"missed shots this round: {part[7:]}")
    lines.append(parts[-1])
    return "\n".join(lines)


def part_line(part: str) -> str:
    """One part of the record said for a person."""
    cards = CARDS.fullmatch(part)
    if cards:
        return f"round {cards.group(1)}: your FRIEND is {cards.group(3)}, your ENEMY is {cards.group(4)}"
    if part.startswith("IT "):
        return f"{part[3:]} wakes up as IT with the gun"
    if part.startswith("points "):
        return f"points this round: {by_cog(part[7:])}"
    if part.endswith(" pass"):
        return f"{part[:-5]} passes"
    if re.fullmatch(r"C\d+: .*", part):
        return part.replace(": ", " says: ", 1)
    return part.replace(" OUT", " is OUT")


def record(setup: rules.Setup, info_state: str, seat: int) -> list[str]:
    """Every round's cards, IT, line, shot and its result, in order (not whose turn now)."""
    parts = info_state.split(" | ")
    return [part_line(part) for part in parts[1:-1]]


def verdict(match: rules.Match) -> str:
    """Most points wins the match; a tie for most is a shared win (docs/parley.md#the-winner)."""
    totals = match.returns()
    top = max(totals)
    best = [f"C{i}" for i in rules.most_points(totals)]
    rest = sorted({t for t in totals if t < top}, reverse=True)
    points = lambda t: f"{t:g} point" + ("" if t == 1 else "s")  # noqa: E731
    if len(best) == 1:
        text = f"{best[0]} wins the match with {points(top)}"
    else:
        text = f"{' and '.join(best)} share the win with {points(top)} each"
    if rest:
        second = [f"C{i}" for i, t in enumerate(totals) if t == rest[0]]
        text += f" ({' and '.join(second)} next with {points(rest[0])})"
    return text
