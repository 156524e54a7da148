"""Parley: five cogs, secret friend/enemy cards, a paintgun, hidden aims (docs/parley.md).

Importing this package registers `fogboard_parley` and its presets.
"""

from fogboard_games.parley import game  # noqa: F401  (registers the game)
