"""Mind Bluff (docs/mind_bluff.md): `fogboard_mind_bluff` and the best-of-3
`fogboard_mind_bluff_series`.

Importing this package registers both games and their presets
`mind-bluff`, `mind-bluff-tiny` and `mind-bluff-series`
(docs/mind_bluff.md#presets), and `bots` registers their `heuristic` bot.
"""

from fogboard_games.mind_bluff import bots, game, series  # noqa: F401  (registers games, bot)
