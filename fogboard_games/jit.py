"""How fogboard_games compiles: numba, with the settings every kernel shares.

Only modules that compile kernels import this one (and so numba): importing
fogboard_games, loading a game and playing it never do, so a plain player
does not pay numba's import (about half a second) or need its compiler.

`kernel` is the decorator: `numba.njit` with

- `cache=True`: the machine code is kept on disk, beside the module in its
  `__pycache__` (or, where that folder cannot be written, in numba's
  per-user cache folder), so a second process does not compile again;
- `nogil=True`: a running kernel releases the GIL, so Python threads run
  kernels on several cores at once (solve.treeplex splits its traversal
  that way, which keeps each worker's results apart and their sum in a
  fixed order);
- `error_model="numpy"`: a division by zero gives inf or nan, as numpy does,
  instead of a check and an exception on every division.

`inline` is the same with numba's `inline="always"`, for a helper a kernel
calls per row: numba then writes its code into the kernel's before
compiling it, where a call passes its tuples through memory (dark hex 5 x
5's rules with their win check in a helper: 61 us a step, 47 inlined).
"""

from __future__ import annotations

try:
    import numba
except ImportError:  # (a checkout used without installing its dependencies)
    raise ImportError(
        "fogboard_games' compiled kernels need numba, a dependency of the package: "
        "install it with `pip install .` from the checkout"
    ) from None

kernel = numba.njit(cache=True, nogil=True, error_model="numpy")
inline = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
