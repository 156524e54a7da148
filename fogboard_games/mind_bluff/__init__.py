"""Mind Bluff (docs/mind_bluff.md): `fogboard_mind_bluff` and the best-of-3
`fogboard_mind_bluff_series`.

Importing this package registers both games and their presets
`mind-bluff`, `mind-bluff-tiny` and `mind-bluff-series`
(docs/mind_bluff.md#presets).
"""

from fogboard_games.mind_bluff import game, series  # noqa: F401  (registers the games)
