"""What every fogboard ruleset plugs into (docs/adding_a_game.md).

`contract` is the interface a ruleset implements (Setup, Match, Encoder,
Ruleset), `glue` the pyspiel Game and State written once for every game,
`params` declares and validates game parameters, `registry` keeps games,
presets and benchmark pairs, `observer` lays tensor pieces over one buffer,
`sharing` the copy-on-write mixin, `review` the JSON reviews, `notation`
cell names, and `testing` the public conformance suite.
"""
