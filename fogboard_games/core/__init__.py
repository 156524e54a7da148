"""What every fogboard ruleset plugs into (SPEC.md section 0).

`params` declares and validates game parameters, `registry` keeps games,
presets and benchmark pairs, `observer` lays tensor pieces over one buffer,
`glue` is the pyspiel glue every game shares, `sharing` the copy-on-write
mixin, `review` the JSON reviews, `notation` cell names, and `testing` the
public conformance suite.
"""
