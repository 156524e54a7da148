"""How states share a ruleset's data (no pyspiel here).

`SharedOnClone`: copy on write for the changing data. `HeldByGame`: the
fixed facts (a ruleset's core.contract.Setup), which pickle as a reference
to their game (docs/adding_a_game.md).

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


class HeldByGame:
    """Mixin for a ruleset's fixed facts, kept by its game as `game.setup`.

    pyspiel serializes a Python state as a pickle of its attributes, so a
    pickled match would drag its facts along, caches and the observer's
    closures included. Instead the facts pickle as `game.setup`, the game as
    its parameters (core.glue.Game); facts without a game (the rules used
    alone) are built again from `built_from`, the arguments they were made
    with.
    """

    __slots__ = ()
    built_from: tuple = ()

    def __reduce__(self):
        game = getattr(self, "game", None)
        if game is None:
            return (type(self), self.built_from)
        return (getattr, (game, "setup"))
