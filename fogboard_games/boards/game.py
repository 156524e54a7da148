"""The Fog-of-War board rulesets and their registration (docs/boards.md).

Registers `fogboard_phantom_ttt`, `fogboard_dark_hex` and `fogboard_recon_hex`:
their parameters, and the parts core.glue makes into pyspiel games. The rules
are in `rules.py`, the encodings in `observer.py`, the resampler in
`resample.py`, the review in `review.py`.
"""

from __future__ import annotations

from collections.abc import Callable

from fogboard_games.boards import observer, person, resample, review, rules
from fogboard_games.core import registry
from fogboard_games.core.contract import Batched, Ruleset
from fogboard_games.core.params import Bound, Param, ParamSpec

OBSTYPES = ("reveal-nothing", "reveal-numturns")


def _common(cells: Callable[[dict], int]) -> list[Param]:
    """The parameters every board game has; `cells(params)` counts the board's cells."""
    return [
        Param(
            "obstype",
            "reveal-nothing",
            "whether ply movers are public (as OpenSpiel)",
            choices=OBSTYPES,
        ),
        Param(
            "max_plies",
            -1,
            "ply cap; -1 means 2 x cells (get_parameters shows the number)",
            1,
            242,
            extra=(-1,),
            bound=Bound(lambda p: 2 * cells(p), "2 x cells"),
        ),
    ]


def _sides(p: dict) -> tuple[int, int]:
    """(num_rows, num_cols) of a hex board: -1 stands for board_size, as in
    OpenSpiel's dark_hex. OpenSpiel's rows are our files (X joins its first
    and last row, our file a and last file), its columns our ranks
    (docs/boards.md#rectangular-boards)."""
    size = p["board_size"]
    return tuple(size if p[k] == -1 else p[k] for k in ("num_rows", "num_cols"))


def _default_cap(p: dict) -> None:
    """-1 stands for a number: max_plies for 2 x cells, num_rows and
    num_cols for board_size; get_parameters shows the numbers."""
    if "num_rows" in p:
        p["num_rows"], p["num_cols"] = _sides(p)
    if p["max_plies"] == -1:
        p["max_plies"] = 2 * (_hex_cells(p) if "board_size" in p else 9)


def _hex_cells(p: dict) -> int:
    rows, cols = _sides(p)
    return rows * cols


def _sides_params() -> list[Param]:
    """num_rows and num_cols, OpenSpiel dark_hex's (docs/boards.md#rectangular-boards)."""
    return [
        Param(
            "num_rows",
            -1,
            "files (OpenSpiel's rows: X joins the first to the last); -1 means board_size",
            2,
            11,
            extra=(-1,),
        ),
        Param(
            "num_cols",
            -1,
            "ranks (OpenSpiel's columns: O joins the first to the last); -1 means board_size",
            2,
            11,
            extra=(-1,),
        ),
    ]


_RECALL = Param(
    "imperfect_recall",
    False,
    "the information state is the current view only (OpenSpiel's _ir games)",
)


SPECS = {
    "fogboard_phantom_ttt": ParamSpec(
        "fogboard_phantom_ttt",
        [Param("abrupt", False, "a collision ends the turn")] + _common(lambda p: 9) + [_RECALL],
        derive=_default_cap,
    ),
    "fogboard_dark_hex": ParamSpec(
        "fogboard_dark_hex",
        [
            Param("board_size", 4, "cells per side", 2, 11),
            Param("abrupt", False, "a collision ends the turn"),
        ]
        + _common(_hex_cells)
        + _sides_params()
        + [_RECALL],
        derive=_default_cap,
    ),
    "fogboard_recon_hex": ParamSpec(
        "fogboard_recon_hex",
        [
            Param("board_size", 5, "cells per side", 2, 11),
            Param(
                "sense",
                2,
                "side of the sensed block (1..the board's shorter side)",
                1,
                11,
                bound=Bound(
                    lambda p: min(_sides(p)),
                    "at most the board's shorter side: board_size={board_size}, "
                    "num_rows={num_rows}, num_cols={num_cols}, -1 meaning board_size",
                ),
            ),
        ]
        + _common(_hex_cells)
        + _sides_params(),
        derive=_default_cap,
    ),
}
LONG_NAMES = {
    "fogboard_phantom_ttt": "Fogboard Phantom Tic-Tac-Toe",
    "fogboard_dark_hex": "Fogboard Dark Hex",
    "fogboard_recon_hex": "Fogboard Recon Hex (original variant)",
}


# The Setup builders, called with the validated parameters by name. The
# Geometry is shared by the three games, so its arguments are not theirs:
# the kind and size are the game's, numturns is obstype read as a flag, and
# recon hex is abrupt only.
def _phantom_ttt(
    abrupt: bool, obstype: str, max_plies: int, imperfect_recall: bool
) -> rules.Geometry:
    numturns = obstype == "reveal-numturns"
    return rules.Geometry(
        "ttt", 3, abrupt, 0, max_plies, numturns=numturns, imperfect_recall=imperfect_recall
    )


# board_size is in num_rows and num_cols once they are resolved (_default_cap).
def _dark_hex(
    board_size: int,
    abrupt: bool,
    obstype: str,
    max_plies: int,
    num_rows: int,
    num_cols: int,
    imperfect_recall: bool,
) -> rules.Geometry:
    numturns = obstype == "reveal-numturns"
    return rules.Geometry(
        "hex",
        num_rows,
        abrupt,
        0,
        max_plies,
        numturns=numturns,
        ranks=num_cols,
        imperfect_recall=imperfect_recall,
    )


def _recon_hex(
    board_size: int, sense: int, obstype: str, max_plies: int, num_rows: int, num_cols: int
) -> rules.Geometry:
    numturns = obstype == "reveal-numturns"
    return rules.Geometry(
        "hex", num_rows, True, sense, max_plies, numturns=numturns, ranks=num_cols
    )


SETUPS = {
    "fogboard_phantom_ttt": _phantom_ttt,
    "fogboard_dark_hex": _dark_hex,
    "fogboard_recon_hex": _recon_hex,
}


# The rules in brief, for text seats (fogboard_games.bots.text); docs/boards.md has them whole.
_ATTEMPT = """\
On your move you name a cell that is neither your own stone nor an opponent stone you
have proven. Empty: your stone is placed there ("placed"). Held by the opponent (a
collision, "occupied"): nothing is placed, that stone is now proven to you, and the
opponent is not told."""
_VIEW = """\
Your view shows your stones, the opponent stones you have proven and "." elsewhere;
"log" lists your own plies and their results; "believed distToWin" counts the cells you
still need if every unproven cell were empty. You never see where the opponent played.
A ply cap (max_plies; by default 2 x cells, which never binds) ends a game early: the
seat needing fewer cells on the true board wins, equal needs draw.
A win scores +1, a loss -1, a draw 0."""
_HEX = """\
Cells are named a1, b1, ...: files a, b, c, ... left to right, ranks 1, 2, 3, ... bottom
to top. A cell touches six: its neighbours on its rank and on its file, the cell one file
right on the rank below and one file left on the rank above (b2: a2 c2 b1 b3 c1 a3).
Seat 0 is X and moves first, and wins by joining file a to the last file with a chain of
its stones; seat 1 is O, and wins by joining rank 1 to the last rank."""
_TURNS = """\
A placement passes the turn. After a collision you move again (the classical rule, the
default); under the abrupt rule (abrupt=true) a collision ends your turn instead."""
BRIEFS = {
    "fogboard_phantom_ttt": f"""\
Phantom tic-tac-toe: tic-tac-toe on a 3x3 board where you cannot see the opponent's stones.
Cells are named a1..c3: files a, b, c left to right, ranks 1, 2, 3 bottom to top.
Seat 0 is X and moves first; seat 1 is O. You win by owning the three cells of a rank, a
file or a diagonal; nine stones and no line is a draw.
{_ATTEMPT}
{_TURNS}
{_VIEW}""",
    "fogboard_dark_hex": f"""\
Dark hex: hex on an n x n rhombus (4x4 by default) where you cannot see the opponent's
stones.
{_HEX}
{_ATTEMPT}
{_TURNS}
{_VIEW}""",
    "fogboard_recon_hex": f"""\
Recon hex: dark hex on an n x n rhombus (5x5 by default) with a sense before each attempt.
{_HEX}
A ply is two decisions: "sense <anchor>", then an attempt. The anchor is the bottom-left
cell of a sense x sense block (2x2 by default); each block cell is shown to you alone as
empty, own or opp, and the opponent stones seen are proven.
{_ATTEMPT}
Every attempt ends your turn, placed or not.
{_VIEW}""",
}


def seat_metrics(m: rules.Match, seat: int) -> dict:
    """A seat's probes (its collisions) and true distToWin at the end: the
    figures the league reports for the boards (docs/league.md)."""
    totals = rules.seat_totals(m, seat)
    return {"probes": totals["probes"], "distToWin": totals["distToWin"]}


# The batched engine of every board (boards/batched.py) and the page drawers:
# the hex rhombus, the tic-tac-toe grid (boards/drawer.py).
BATCHED = Batched(
    engine="fogboard_games.boards.batched:Boards",
    covers="square boards of side 2..11 and rectangles of num_rows and num_cols 2..11 "
    "each (any other parameters)",
    not_vectorized="the probe bot searches paths over the seat's believed board",
)
DRAWERS = {
    "fogboard_phantom_ttt": "fogboard_games.boards.drawer:GridDrawer",
    "fogboard_dark_hex": "fogboard_games.boards.drawer:HexDrawer",
    "fogboard_recon_hex": "fogboard_games.boards.drawer:HexDrawer",
}

RULESETS = {
    short_name: Ruleset(
        short_name=short_name,
        long_name=LONG_NAMES[short_name],
        docs="docs/boards.md",
        params=SPECS[short_name],
        setup=SETUPS[short_name],
        encoder=observer.BoardEncoder,
        review=review.review,
        truth_replay=review.truth_replay,
        resample=resample.resample,
        finish_as_reviewed=review.finish_as_reviewed,
        brief=BRIEFS[short_name],
        seat_label=observer.seat_label,
        metrics=seat_metrics,
        for_person=person.for_person,
        record=person.record,
        verdict=person.verdict,
        batched=BATCHED,
        drawer=DRAWERS[short_name],
    )
    for short_name in SPECS
}
GAMES = {short_name: registry.register(ruleset) for short_name, ruleset in RULESETS.items()}
PhantomTTTGame = GAMES["fogboard_phantom_ttt"]
DarkHexGame = GAMES["fogboard_dark_hex"]
ReconHexGame = GAMES["fogboard_recon_hex"]


registry.add_preset("phantom-ttt-3", "fogboard_phantom_ttt", {}, "phantom tic-tac-toe, classical")
registry.add_preset("dark-hex-4", "fogboard_dark_hex", {"board_size": 4}, "dark hex 4x4, classical")
registry.add_preset(
    "dark-hex-5", "fogboard_dark_hex", {"board_size": 5, "abrupt": True}, "abrupt dark hex 5x5"
)
registry.add_preset(
    "dark-hex-rect-3x4",
    "fogboard_dark_hex",
    {"num_rows": 3, "num_cols": 4},
    "dark hex on OpenSpiel's 3-row, 4-column board, classical",
)
registry.add_preset(
    "recon-hex-5",
    "fogboard_recon_hex",
    {"board_size": 5, "sense": 2},
    "recon hex 5x5 (original variant)",
)
registry.add_bench_pair("phantom-ttt-3", "phantom_ttt")
registry.add_bench_pair("dark-hex-4", "dark_hex(board_size=4)")
registry.add_bench_pair("dark-hex-5", "dark_hex(board_size=5,gameversion=adh)")
registry.add_bench_pair("dark-hex-rect-3x4", "dark_hex(num_rows=3,num_cols=4)")
registry.add_conformance_extras(
    "fogboard_phantom_ttt",
    [
        {"abrupt": True},
        {"obstype": "reveal-numturns"},
        {"abrupt": True, "obstype": "reveal-numturns", "max_plies": 7},
        {"imperfect_recall": True},
        {"imperfect_recall": True, "abrupt": True, "obstype": "reveal-numturns"},
    ],
)
registry.add_conformance_extras(
    "fogboard_dark_hex",
    [
        {"board_size": 2},
        {"board_size": 3, "abrupt": True, "obstype": "reveal-numturns"},
        {"board_size": 3, "max_plies": 6},
        {"num_rows": 3, "num_cols": 4},
        {"num_rows": 4, "num_cols": 2, "abrupt": True, "obstype": "reveal-numturns"},
        {"board_size": 3, "imperfect_recall": True},
        {"num_rows": 2, "num_cols": 3, "abrupt": True, "imperfect_recall": True},
    ],
)
registry.add_conformance_extras(
    "fogboard_recon_hex",
    [
        {"board_size": 3, "sense": 1},
        {"board_size": 3, "sense": 3, "obstype": "reveal-numturns", "max_plies": 8},
        {"num_rows": 4, "num_cols": 3, "sense": 2},
    ],
)
