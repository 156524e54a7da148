"""Copy on write for a ruleset's changing data (no pyspiel here).

OpenSpiel clones a Python state by calling `new_initial_state()` and then
deep-copying every attribute. Each fogboard state keeps its changing data
in one object deriving from `SharedOnClone`: a deep copy hands out the same
object and marks it `shared`, and whoever writes next (the state's
`_apply_action`) replaces a shared object by its own `copy()` first. Most
clones in a search are read or dropped before they move, so they never pay
for the copy.
"""

from __future__ import annotations


class SharedOnClone:
    """Mixin: a `shared` flag, set by deepcopy, which writers must honour."""

    __slots__ = ()

    def __deepcopy__(self, memo):
        self.shared = True
        return self
