"""The end-of-game review of a Fog-of-War board (docs/boards.md#review).

Everything hidden during play is shown: every ply with its sense and
result, both seats' true distToWin after every ply, the final true board,
and per seat the probes made (collisions), the opponent stones discovered
(by collision or sensing) and the stones placed. core.glue adds the fields
every review has (format, game, params, actions, returns).
"""

from __future__ import annotations

from fogboard_games.boards import observer as obs
from fogboard_games.boards import rules

SENSED_MARKS = {rules.UNKNOWN: "empty", rules.OWN: "own", rules.PROVEN: "opponent"}


def review(m: rules.Match) -> dict:
    geo = m.setup
    replay = rules.Match(geo)
    plies = []
    for seat, anchor, seen, cell, result in m.plies:
        sensed = None
        if anchor >= 0:
            replay.sense(anchor)
            sensed = {geo.names[c]: SENSED_MARKS[code] for c, code in zip(geo.blocks[anchor], seen)}
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
    return {
        "plies": plies,
        "seats": [rules.seat_totals(m, seat) for seat in (0, 1)],
        "board": obs.true_ascii(m).split("\n"),
        "ending": m.ending,
        "winner": m.winner,
    }


def finish_as_reviewed(m: rules.Match, review: dict) -> None:
    """Apply a recorded wall-clock stop (the only ending that is not a move)."""
    if review.get("ending") != "wall-clock":
        raise ValueError(
            f"the actions leave the game running and the review's ending is "
            f"{review.get('ending')!r}, not 'wall-clock'"
        )
    stop_at_wall_clock(m)


def stop_at_wall_clock(m: rules.Match) -> None:
    """End the running match as a play deadline does (`wall-clock`): between
    plies, scored by true distToWin, smaller wins, equal draws. `m` must be
    the caller's own match (state.writable_truth())."""
    if m.ending is not None:
        raise ValueError(f"the game is already over ({m.ending}); nothing to stop")
    if m.sensed is not None:
        raise ValueError(
            f"ply {len(m.plies)} is under way (seat {m.mover} has sensed, not attempted); "
            "a wall-clock stop falls between plies"
        )
    m.settle_by_distance("wall-clock")


def truth_replay(review: dict) -> str:
    """The Truth Replay of a board review: every ply with its sense, the cell,
    the result and both seats' true distToWin, then the true board."""
    lines = []
    for p in review["plies"]:
        words = f"ply {p['ply'] + 1}: seat {p['seat']}"
        if p.get("sense") is not None:
            seen = ", ".join(f"{cell} {mark}" for cell, mark in p["sensed"].items())
            words += f" senses {p['sense']} ({seen}),"
        d0, d1 = p["distToWin"]
        lines.append(f"{words} tries {p['cell']}: {p['result']} | distToWin {d0} {d1}")
    lines += review["board"]
    winner = review["winner"]
    lines.append(f"{review['ending']}: " + ("a draw" if winner is None else f"seat {winner} wins"))
    return "\n".join(lines)
