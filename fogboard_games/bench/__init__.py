"""`python -m fogboard_games bench`: playout speed beside OpenSpiel's C++ games
(docs/performance.md).

Split by job: `playouts` times random playouts in slices alternating
between ours and C++ (the measure under every table); `report` is the
plain command's table, every preset beside its registered bench pair;
`workloads` and `search` are `bench --workloads`, `batched` is
`bench --batch`, `solving` is `bench --solve`; `options` checks what each takes before it runs. Their
names are re-exported here; `batched`'s only when first asked for, since it
compiles kernels (numba), which the command line's parser, built for every
command, must not import.
"""

from __future__ import annotations

import importlib

from fogboard_games.bench.options import (
    DEFAULT_BATCH_SIZE,
    MAX_BATCH_SIZE,
    MIN_SECONDS,
    BenchError,
    check_options,
)
from fogboard_games.bench.playouts import (
    MODES,
    SLICES,
    clone_micros,
    counterparts,
    interleaved,
    measure,
    playout_rate,
)
from fogboard_games.bench.report import LEGEND, cell, run
from fogboard_games.bench.search import (
    SEARCH_PRESETS,
    SEARCH_TARGET,
    ismcts_rate,
    mccfr_rate,
    run_search_workloads,
)
from fogboard_games.bench.solving import SOLVE_PRESETS, SOLVE_TARGETS, run_solve
from fogboard_games.bench.workloads import (
    WORKLOAD_ALONE,
    WORKLOAD_PRESETS,
    WORKLOAD_TARGET,
    run_workloads,
)

__all__ = [
    "BATCH_LEGEND",
    "DEFAULT_BATCH_SIZE",
    "LEGEND",
    "MAX_BATCH_SIZE",
    "MIN_SECONDS",
    "MODES",
    "SEARCH_PRESETS",
    "SEARCH_TARGET",
    "SLICES",
    "SOLVE_PRESETS",
    "SOLVE_TARGETS",
    "WORKLOAD_ALONE",
    "WORKLOAD_PRESETS",
    "WORKLOAD_TARGET",
    "BatchPlay",
    "BenchError",
    "cell",
    "check_options",
    "clone_micros",
    "counterparts",
    "interleaved",
    "ismcts_rate",
    "mccfr_rate",
    "measure",
    "playout_rate",
    "random_actions",
    "run",
    "run_batch",
    "run_search_workloads",
    "run_solve",
    "run_workloads",
]

_BATCHED = ("BATCH_LEGEND", "BatchPlay", "random_actions", "run_batch")


def __getattr__(name: str):
    if name in _BATCHED:
        return getattr(importlib.import_module("fogboard_games.bench.batched"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
