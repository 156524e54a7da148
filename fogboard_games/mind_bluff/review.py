"""The review of a finished Mind Bluff game, and its Truth Replay (docs/mind_bluff.md#review).

Per turn: the actor, the action (`eat 2` / `all done`), the actual eat, the
claim, whether it was forced-honest, the response, the verdict, both
honesty_debts after the turn and the dango remaining after it (0 after a
last-dango loss, unchanged after all done); fields that do not apply are
null. Then the start, the first seat, the end reason (`last-dango`,
`all-done-win`, `all-done-loss`) and the winner. core.glue adds the fields
every review has (format, game, params, actions, returns), and
`fogboard_games.load_review` rebuilds the game from the actions and checks
every other field. `truth_replay(review)` renders a review turn by turn with
every hidden count shown.
"""

from __future__ import annotations

from fogboard_games.mind_bluff import rules
from fogboard_games.mind_bluff.rules import SEAT_NAMES


def review(m: rules.Match) -> dict:
    turns = []
    for t in m.turns:
        turns.append(
            {
                "actor": t.actor,
                "action": "all done" if t.actual is None else f"eat {t.actual}",
                "actual": t.actual,
                "claim": t.claim,
                "forced": t.forced,
                "response": None
                if t.response is None
                else ("believe" if t.response == rules.BELIEVE else "doubt"),
                "verdict": None if t.verdict is None else ("TRUE" if t.verdict else "BLUFF"),
                "debts_after": list(t.debts),
                "remaining_after": t.remaining,
            }
        )
    return {
        "start": m.start,
        "first_player": m.first,
        "turns": turns,
        "end_reason": rules.ENDINGS[m.ending],
        "winner": m.winner,
    }


def truth_replay(review: dict) -> str:
    """The Truth Replay of a review: every turn with the true count before
    and after it, what was eaten and what was claimed."""
    lines = [
        f"start {review['start']}, {SEAT_NAMES[review['first_player']]} first",
    ]
    left = review["start"]
    for i, t in enumerate(review["turns"], 1):
        who = SEAT_NAMES[t["actor"]]
        if t["actual"] is None:
            words = f"{who} all done"
        else:
            words = f"{who} ate {t['actual']}"
            if t["claim"] is not None:
                words += f", claimed {t['claim']}" + (" (forced honest)" if t["forced"] else "")
            if t["response"] is not None:
                words += f", {t['response']}"
            if t["verdict"] is not None:
                words += f" {t['verdict']}"
        d0, d1 = t["debts_after"]
        lines.append(f"T{i}: {left} -> {t['remaining_after']} | {words} | debts P1 {d0} P2 {d1}")
        left = t["remaining_after"]
    lines.append(f"{review['end_reason']}: {SEAT_NAMES[review['winner']]} wins")
    return "\n".join(lines)
