"""Fog-of-War boards: phantom tic-tac-toe, dark hex, abrupt dark hex, recon hex.

The rules are stated in docs/boards.md. `rules` holds them, `game` declares
the rulesets and registers them, `observer` the tensors and strings,
`resample` the information-state sampler, `review` the end-of-game review,
`bots` the probe and sweep baselines, `replay` the fogboards.replay.v1 format.
"""

from fogboard_games.boards import bots, game  # noqa: F401  (registers the games and bots)
