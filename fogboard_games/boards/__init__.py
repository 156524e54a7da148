"""Fog-of-War boards: phantom tic-tac-toe, dark hex, abrupt dark hex, recon hex.

SPEC.md section 1. `rules` holds the rules, `game` the pyspiel glue,
`observer` the tensors and strings, `resample` the information-state
sampler, `bots` the probe and sweep baselines, `replay` the
fogboards.replay.v1 format.
"""

from fogboard_games.boards import game  # noqa: F401  (registers the games)
