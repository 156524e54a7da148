"""`fogboard_games.solve`: the game tree as flat arrays and exact solvers on
it (docs/solving.md).

`Tree(game)` walks a small game once through the contract; the algorithms
(CFR, CFR+, linear and discounted CFR, best responses, exploitability,
NashConv, expected values) run on its arrays level by level with numpy, and
a `Policy` goes to and from OpenSpiel's TabularPolicy. `Treeplex(game)`
holds each seat's infosets and sequences of a board game too big for a Tree
(the 3x3 boards: 2x10^10 histories), and the same algorithms walk its
histories in compiled code (numba, imported only then).
"""

from __future__ import annotations

from fogboard_games.solve.algorithms import (
    CFR,
    DCFR,
    CFRPlus,
    LinearCFR,
    best_response,
    best_response_values,
    expected_values,
    exploitability,
    nash_conv,
)
from fogboard_games.solve.policy import Policy, uniform
from fogboard_games.solve.tree import Tree
from fogboard_games.solve.treeplex import Treeplex

__all__ = [
    "CFR",
    "DCFR",
    "CFRPlus",
    "LinearCFR",
    "Policy",
    "Tree",
    "Treeplex",
    "best_response",
    "best_response_values",
    "expected_values",
    "exploitability",
    "nash_conv",
    "uniform",
]
