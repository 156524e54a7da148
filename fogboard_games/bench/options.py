"""The options every bench mode takes, checked before anything is measured
(docs/performance.md#the-bench-command).

One check for the command line and the Python calls alike: a count below
one, a time too short to finish a playout or a preset the mode does not
measure is refused in one line naming what is allowed, where it would
otherwise end in a KeyError, a division by zero or an empty table.
"""

from __future__ import annotations

import math

from fogboard_games.core.guards import quoted
from fogboard_games.core.params import is_int

# Below this a slice (seconds / SLICES) can end before its first playout
# starts, and a rate of 0 would divide the ratio.
MIN_SECONDS = 0.01
DEFAULT_BATCH_SIZE = 4096
# About 600 MB for the two environments of the largest row (phantom-ttt-3,
# 4.7 kB a row): far beyond that numpy runs out of memory halfway through.
MAX_BATCH_SIZE = 65536


class BenchError(ValueError):
    """A bench request that cannot be measured; raised before anything runs."""


def check_options(mode: str, rounds, seconds, only, presets, batch_size=None) -> None:
    """Refuse (BenchError) what `mode` (e.g. "bench --batch") cannot measure:
    `rounds` a positive int, `seconds` a finite number >= MIN_SECONDS, `only`
    None or a list of names among `presets`, `batch_size` (if not None) an int
    in 1..MAX_BATCH_SIZE."""
    if not is_int(rounds) or rounds < 1:
        raise BenchError(f"--rounds must be a positive int, got {rounds!r}")
    if not (is_int(seconds) or isinstance(seconds, float)) or not (
        math.isfinite(seconds) and seconds >= MIN_SECONDS
    ):
        raise BenchError(f"--seconds must be a number of at least {MIN_SECONDS}, got {seconds!r}")
    if batch_size is not None and (not is_int(batch_size) or not 1 <= batch_size <= MAX_BATCH_SIZE):
        raise BenchError(
            f"--batch-size must be an int from 1 to {MAX_BATCH_SIZE}, got {batch_size!r}"
        )
    if only is None:
        return
    if isinstance(only, str) or not all(isinstance(name, str) for name in only):
        raise BenchError("--only takes preset names (a list of str, not one str)")
    unknown = [name for name in only if name not in presets]
    if unknown or not only:
        what = f"{quoted(unknown[0])} is not a preset {mode} measures" if unknown else "no preset"
        raise BenchError(f"--only: {what}; it measures {', '.join(presets)}")
