"""The SVG drawing of each ruleset's true state, one drawer per ruleset (docs/pages.md).

A drawer turns a state's true match into a short list of shapes, each a
list `[kind, ...numbers, text-or-class]` that the page's script draws with
createElementNS and textContent (never markup): `r` rect x y w h class,
`c` circle cx cy r class, `l` line x1 y1 x2 y2 class, `g` polygon points
class, `t` text x y words class. `base(game)` is what never changes in a
game (the board), drawn once; `draw(state)` what a turn shows on top.
Drawers read the match as reviews do (`state.truth`); they are the
page's picture of the truth, never a seat's view. Each game's drawers live
in its own package (e.g. fogboard_games/boards/drawer.py), named by its
Ruleset's `drawer`; `drawer_for` builds the one a game declares.
"""

from __future__ import annotations

from fogboard_games.core import registry

Shape = list


class Drawer:
    """No picture: the page shows the strings only."""

    size = (0, 0)

    def __init__(self, game):
        self.game = game
        self.setup = game.setup

    def base(self) -> list[Shape]:
        return []

    def draw(self, state) -> list[Shape]:
        return []


def drawer_for(game) -> Drawer:
    """The drawer the game's ruleset declares (Ruleset.drawer), built for
    `game`; the plain Drawer (no picture) when it declares none."""
    cls = registry.GAMES.get(game.get_type().short_name)
    where = None if cls is None else cls.ruleset.drawer
    return registry.resolve(where)(game) if where else Drawer(game)
