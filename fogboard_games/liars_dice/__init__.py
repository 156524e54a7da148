"""Liar's Dice (docs/liars_dice.md): `fogboard_liars_dice`.

Importing this package registers the game and its presets: `liars-dice`,
`liars-dice-1`, `liars-dice-classic`, `liars-dice-classic-1` and
`liars-dice-table` (docs/liars_dice.md), and `bots` registers its
`heuristic` bot.
"""

from fogboard_games.liars_dice import bots, game  # noqa: F401  (registers the game and bot)
