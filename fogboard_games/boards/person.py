"""The boards laid out for a person at the terminal (docs/bots.md#terminal-play).

Built from the seat's own strings only (its believed board and its log of
tries), so terminal play never shows a person more than a bot may know; the
verdict reads the true match, and is said only once the game is over.
"""

from __future__ import annotations

import re

from fogboard_games.boards import rules
from fogboard_games.boards.observer import SEAT_NAME, seat_label

# One log entry: "4.b2 occupied", or in recon hex "3.sense c2 [c2:empty d2:own] b5 placed".
ENTRY = re.compile(r"(\d+)\.(?:sense (\S+) \[([^\]]*)\])? ?(?:(\S+) (placed|occupied))?")

# What each seat's stones must join (docs/boards.md: X file a to the last file, O rank 1 to the last).
EDGES = (
    "joins the left edge (file a) to the right edge",
    "joins the bottom edge (rank 1) to the top",
)

WHY = {
    "connection": "joined its two edges",
    "line": "completed a line of three",
    "board-full": "the board is full and no one has a line",
    "ply-cap": "the ply cap was reached; the smaller true distToWin wins",
    "wall-clock": "the game was stopped by the wall clock",
}


def for_person(geo: rules.Geometry, observation: str, seat: int) -> str:
    """The seat's believed board and distance, and on hex which edges each side joins."""
    view = observation
    if not geo.is_ttt:
        view += "\n" + "; ".join(f"{seat_label(p)} {EDGES[p]}" for p in (0, 1))
    return view


def record(geo: rules.Geometry, text: str, seat: int) -> list[str]:
    """The seat's own tries, one line each: a collision is said as one."""
    log = next((line[5:] for line in text.splitlines() if line.startswith("log: ")), "")
    other = SEAT_NAME[1 - seat]
    # docs/boards.md#turns: the classical rule lets the mover try again.
    then = "the turn passes" if geo.abrupt else "you move again"
    lines = []
    for m in ENTRY.finditer(log):
        ply, sensed, seen, cell, result = m.groups()
        if sensed:
            cells = ", ".join(s.replace(":", " ") for s in seen.split())
            lines.append(f"try {ply}: you sensed around {sensed}: {cells}")
        if result == "placed":
            lines.append(f"try {ply}: you placed {cell}")
        elif result == "occupied":
            lines.append(f"try {ply}: {cell} is taken by {other}: a collision, {then}")
    # obstype reveal-numturns: who made each ply (the opponent's collisions show as repeats).
    plies = [line[7:] for line in text.splitlines() if line.startswith("plies: ")]
    if plies:
        lines.append(f"plies so far, by seat: {plies[0]}")
    return lines


def verdict(match: rules.Match) -> str:
    """Who won and why, from the true ending (said at the end only)."""
    why = WHY.get(match.ending, match.ending)
    if match.winner is None or match.winner < 0:
        return f"a draw: {why}"
    return f"{seat_label(match.winner)} wins: {why}"
