"""fogboard_games: imperfect-information games for OpenSpiel.

Importing the package registers every game with pyspiel:

    import pyspiel, fogboard_games
    game = pyspiel.load_game("fogboard_dark_hex(board_size=5,abrupt=true)")
    game = fogboard_games.load("dark-hex-5")      # the same, by preset name

`PRESETS` lists the named presets, `GAMES` the registered short names,
`load_review(review)` rebuilds a finished game from its JSON review.

The complete rules, parameters, information boundaries and tensor pieces
of every game are in docs/boards.md, docs/liars_dice.md,
docs/mind_bluff.md and docs/parley.md (sections #rules, #parameters, #what-each-seat-knows, #tensor-pieces).
"""

from fogboard_games.core import interrupts

# First, before the imports below: a Ctrl-C while they load for the command
# line exits in one line (core/interrupts.py); a library import is untouched.
interrupts.quiet_while_loading()

from fogboard_games import (  # noqa: E402
    boards,  # noqa: F401  (registers the board games)
    liars_dice,  # noqa: F401  (registers Liar's Dice)
    mind_bluff,  # noqa: F401  (registers Mind Bluff)
    parley,  # noqa: F401  (registers Parley)
)
from fogboard_games.core.registry import GAMES, PRESETS, load  # noqa: E402
from fogboard_games.core.review import load_review  # noqa: E402

__all__ = ["GAMES", "PRESETS", "load", "load_review"]
__version__ = "0.1.0"
