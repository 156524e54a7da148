"""Parley: five cogs, secret friend/enemy cards, a paintgun, hidden aims (docs/parley.md).

Importing this package registers `fogboard_parley` and its presets, and
`bots` registers its `heuristic` bot.
"""

from fogboard_games.parley import bots, game  # noqa: F401  (registers the game and bot)
