"""The review of a finished Parley match, and its Truth Replay (docs/parley.md#review).

Per round: every cog's FRIEND and ENEMY, the cog that woke up IT, and per
turn IT, its line, its shot or pass with the target, the aim and the
result, every cog's hp after it, and the reactions (speaker and line);
then the survivors and every cog's points; the match totals, and the
winners of each round and of the match (most points, a tie shared:
docs/parley.md#the-winner). core.glue adds the fields every
review has (format, game, params, actions, returns), and
`fogboard_games.load_review` rebuilds the match from the actions and
checks every other field. `truth_replay(review)` renders a review turn by
turn with every card and aim shown.
"""

from __future__ import annotations

from fogboard_games.parley import rules


def review(m: rules.Match) -> dict:
    s = m.setup
    rounds = []
    for r, dealt in enumerate(m.deals):
        turns = []
        for t in m.turns:
            if t.round != r:
                continue
            shot = t.act != s.pass_action
            turns.append(
                {
                    "it": t.it,
                    "line": None if t.line is None else s.decision_name(t.line),
                    "act": s.decision_name(t.act),
                    "target": s.target_of(t.act) if shot else None,
                    "aim": rules.AIM_WORDS[s.aim_of(t.act)] if shot else None,
                    "result": rules.RESULT_WORDS[t.result] if shot else None,
                    "hp_after": list(t.hp),
                    "reactions": [
                        {"cog": c, "line": s.decision_name(line)} for c, line in t.reactions
                    ],
                }
            )
        rounds.append(
            {
                "cards": [{"cog": c, "friend": f, "enemy": e} for c, (f, e) in enumerate(dealt)],
                "woke_it": turns[0]["it"],
                "turns": turns,
                "survivors": m.survivors_of(r),
                "points": list(m.points[r]),
            }
        )
    return {
        "rounds": rounds,
        "totals": list(m.totals),
        # Most points wins, a tie for most shares the win (docs/parley.md#the-winner).
        "round_winners": [rules.most_points(points) for points in m.points],
        "match_winners": rules.most_points(m.totals),
    }


def truth_replay(review: dict) -> str:
    """The Truth Replay of a review: every round's cards, then every turn
    with its aim, its result and the hp after it."""
    lines = []
    for r, rnd in enumerate(review["rounds"], 1):
        cards = ", ".join(
            f"C{d['cog']} friend C{d['friend']} enemy C{d['enemy']}" for d in rnd["cards"]
        )
        lines.append(f"Round {r}: {cards}; C{rnd['woke_it']} wakes up IT")
        for i, t in enumerate(rnd["turns"], 1):
            words = f"C{t['it']}"
            if t["line"] is not None:
                words += f" says {t['line']},"
            if t["target"] is None:
                words += " passes"
            else:
                words += f" shoots C{t['target']} {t['aim']}: {t['result']}"
            hp = " ".join(str(h) if h else "OUT" for h in t["hp_after"])
            said = "; ".join(f"C{x['cog']} {x['line']}" for x in t["reactions"])
            lines.append(f"  T{i}: {words} | hp {hp}" + (f" | {said}" if said else ""))
        standing = " ".join(f"C{c}" for c in rnd["survivors"])
        points = " ".join(map(str, rnd["points"]))
        lines.append(f"  survivors {standing}; points {points}")
    lines.append("totals " + " ".join(map(str, review["totals"])))
    return "\n".join(lines)
