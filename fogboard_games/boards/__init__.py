"""Fog-of-War boards: phantom tic-tac-toe, dark hex, abrupt dark hex, recon hex.

The rules are stated in docs/boards.md. `rules` holds them, `game` declares
the rulesets and registers them, `observer` the tensors and strings,
`resample` the information-state sampler, `review` the end-of-game review,
`bots` the probe and sweep baselines, `engine_log` the original engine's
logs (the fogboards.replay.v1 format), `openspiel_map` the mapping to and
from OpenSpiel's C++ phantom_ttt and dark_hex.
"""

# (bots and game register the games and bots; openspiel_map is imported with them)
from fogboard_games.boards import bots, game, openspiel_map  # noqa: F401
