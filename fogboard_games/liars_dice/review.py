"""The review of a finished Liar's Dice match (docs/liars_dice.md#review).

Every die of every hand (first rolls and rerolls, in roll order), every
decision, and per round the showdown: all hands, the call, the standing
bid and its holder, the count of the called face (wilds included), and who
paid whom (chips) or who lost dice (dice mode). `fogboard_games.load_review`
rebuilds the match from `actions` and checks every other field against it;
core.glue adds the fields every review has (format, game, params, actions,
returns).
"""

from __future__ import annotations

from fogboard_games.liars_dice import rules
from fogboard_games.liars_dice.observer import dice_at_round_starts


def review(m: rules.Match) -> dict:
    setup = m.setup
    starts = dice_at_round_starts(m)
    rounds = []
    current = None
    for event in m.events:
        kind = event.kind
        if current is None:
            dice = starts[len(rounds)]
            current = {
                "round": len(rounds) + 1,
                "opener": None,
                "dice": dice,
                "hands": [[] for _ in range(setup.players)],
                "turns": [],
            }
        if kind == rules.ROLL:
            seat, face = event.seat, event.what
            hands = current["hands"][seat]
            if not hands or len(hands[-1]) == dice[seat]:
                hands.append([])
            hands[-1].append(face)
        elif kind == rules.ACT:
            seat, action = event.seat, event.what
            text = setup.decision_name(action)
            if current["opener"] is None and action != setup.keep and action != setup.reroll:
                current["opener"] = seat
            current["turns"].append({"seat": seat, "action": text})
        else:
            current["showdown"] = _showdown(setup, m.showdowns[event.what])
            rounds.append(current)
            current = None
    out = {"rounds": rounds}
    if setup.mode == "dice":
        out["dice_left"] = list(m.dice)
        out["winner"] = next(s for s in range(setup.players) if m.dice[s] > 0)
    return out


def _showdown(setup: rules.Setup, sd: rules.Showdown) -> dict:
    hands, call, caller, said, bid, holder, count, winner, loser, amount = sd
    called = said if call == "prophecy" else bid
    out = {
        "hands": [list(h) for h in hands],
        "call": call,
        "caller": caller,
        "standing_bid": setup.bid_name(bid),
        "holder": holder,
        "prophecy": setup.bid_name(said) if call == "prophecy" else None,
        "face": setup.bid_face[called],
        "quantity": setup.bid_quantity[called],
        "count": count,
        "winner": winner,
        "loser": loser,
    }
    if setup.mode == "chips":
        out["paid"] = {"payer": loser, "payee": winner, "amount": amount}
    else:
        out["dice_lost"] = {"seat": loser, "dice": amount}  # at most the dice it had
    return out


def truth_replay(review: dict) -> str:
    """The Truth Replay of a Liar's Dice review: every round's hands (each
    roll, rerolls included), every turn, and the showdown with the count."""
    lines = []
    for rnd in review["rounds"]:
        lines.append(f"Round {rnd['round']}: dice {' '.join(map(str, rnd['dice']))}")
        for seat, rolls in enumerate(rnd["hands"]):
            shown = " then ".join("".join(map(str, roll)) for roll in rolls) or "no dice"
            lines.append(f"  seat {seat}: {shown}")
        lines.append("  " + ", ".join(f"seat {t['seat']} {t['action']}" for t in rnd["turns"]))
        sd = rnd["showdown"]
        called = sd["prophecy"] if sd["call"] == "prophecy" else sd["standing_bid"]
        lines.append(
            f"  {sd['call']} by seat {sd['caller']} on {called}: {sd['count']} showing "
            f"{sd['face']}; seat {sd['winner']} wins, seat {sd['loser']} loses"
        )
    if "winner" in review:
        lines.append(f"seat {review['winner']} wins the match")
    return "\n".join(lines)
