"""The end-of-game review of a Fog-of-War board (SPEC.md sections 0 and 1).

Everything hidden during play is shown: every ply with its sense and
result, both seats' true distToWin after every ply, the final true board,
and per seat the probes made (collisions), the opponent stones discovered
(by collision or sensing) and the stones placed.
"""

from __future__ import annotations

from fogboard_games.boards import observer as obs
from fogboard_games.boards import rules
from fogboard_games.core.review import FORMAT


def review(state) -> dict:
    m = state._m
    if m.ending is None:
        raise ValueError("review() is only available once the game is over")
    geo = m.geo
    game = geo.game
    replay = rules.Match(geo)
    plies = []
    actions = []
    for seat, anchor, seen, cell, result in m.plies:
        sensed = None
        if anchor >= 0:
            actions.append("sense " + geo.names[geo.anchors[anchor]])
            replay.sense(anchor)
            marks = {rules.UNKNOWN: "empty", rules.OWN: "own", rules.PROVEN: "opponent"}
            sensed = {geo.names[c]: marks[code] for c, code in zip(geo.blocks[anchor], seen)}
        actions.append(geo.names[cell])
        replay.attempt(cell)
        plies.append(
            {
                "ply": len(plies),
                "seat": seat,
                "sense": geo.names[geo.anchors[anchor]] if anchor >= 0 else None,
                "sensed": sensed,
                "cell": geo.names[cell],
                "result": rules.RESULT_NAMES[result],
                "distToWin": [rules.true_dist(replay, 0), rules.true_dist(replay, 1)],
            }
        )
    seats = [rules.seat_totals(m, seat) for seat in (0, 1)]
    return {
        "format": FORMAT,
        "game": game.short_name,
        "params": dict(game.resolved_params),
        "actions": actions,
        "plies": plies,
        "seats": seats,
        "board": obs.true_ascii(m).split("\n"),
        "ending": m.ending,
        "winner": m.winner,
        "returns": m.returns(),
    }
