"""Algebraic cell names shared by the board games (docs/boards.md).

Files a, b, c... run left to right, ranks 1, 2, 3... bottom to top. Internally
cell index = rank_index * size + file_index, so a1 = 0 and b1 = 1.
"""

from __future__ import annotations

FILES = "abcdefghijk"


def cell_name(cell: int, size: int) -> str:
    rank, file = divmod(cell, size)
    return f"{FILES[file]}{rank + 1}"


def parse_cell(text: str, size: int, ranks: int = 0) -> int:
    """Index of an algebraic cell name on a board of `size` files and `ranks`
    ranks (0: as many as files); ValueError naming the board if bad."""
    ranks = ranks or size
    # ASCII only: str.lower and str.isdigit would read the Kelvin sign as k
    # and a superscript as a digit.
    t = text.strip(" \t").lower() if text.isascii() else ""
    if len(t) >= 2 and t[0] in FILES[:size] and t[1:].isdigit():
        rank = int(t[1:])
        if 1 <= rank <= ranks:
            return (rank - 1) * size + FILES.index(t[0])
    last = f"{FILES[size - 1]}{ranks}"
    raise ValueError(f"{text!r} is not a cell of a {size}x{ranks} board (a1..{last})")
