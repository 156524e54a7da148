"""What each observer of Mind Bluff shows (docs/mind_bluff.md#tensor-pieces).

R = start + start_spread (the most turns), M = max_eat, V = seats whose
eats are shown (1 for a seat's own view, 2 for ALL_PLAYERS, 0 for a
public-only view), H = start + start_spread + 1 (counts 0..R).

| piece | shape | when | meaning |
|---|---|---|---|
| player | (2,) | private single | one-hot: whose view this is |
| eats | (V, R, M) | private, perfect recall | one-hot: what the shown seat ate on turn t (its own turns only) |
| first | (2,) | public, perfect recall | one-hot: the seat that moved first |
| claims | (R, M) | public, perfect recall | one-hot: the claim of turn t |
| forced | (R,) | public, perfect recall | 1: the claim of turn t was forced-honest |
| responses | (R, 2) | public, perfect recall | one-hot: turn t's claim was believed / doubted |
| verdicts | (R, 2) | public, perfect recall | one-hot: turn t's doubt gave TRUE / BLUFF |
| eat_now | (V, M) | private, current view | one-hot: the shown seat's eat on the latest turn |
| last_claim | (M,) | public, current view | one-hot: the claim of the latest turn |
| last_forced | (1,) | public, current view | 1: that claim was forced-honest |
| last_response | (2,) | public, current view | one-hot: believed / doubted |
| last_verdict | (2,) | public, current view | one-hot: TRUE / BLUFF |
| remaining_possible | (H,) | public, current view | 1 at every count left the observer cannot rule out |
| mover | (2,) | public | one-hot: the seat to decide (zeros at chance and at the end) |
| phase | (4,) | public | one-hot: eat / claim / respond / over |
| forced_now | (1,) | public | 1: the mover must claim now and owes honesty_debt (one legal claim) |
| debts | (2,) | public | each seat's honesty_debt (a count) |
| ending | (3,) | public | one-hot at the end: last-dango / all-done-win / all-done-loss |
| start_shown | (2s+1,) | public, start_spread s > 0 | one-hot at the end: the secret start, start-s .. start+s |
| remaining_shown | (H,) | public | one-hot at the end: the dango left (0 after a last-dango loss) |

A seat's information state holds its own eats, every claim, forced mark,
response and verdict, the debts and whose turn it is; never the other
seat's hidden eats nor a secret start before the end. The strings say
exactly what the pieces show; the observation string shows
`remaining in {...}`, every count consistent with what that observer
knows (a public-only observer uses public facts only).
"""

from __future__ import annotations

from fogboard_games.core import contract
from fogboard_games.core.observer import Layout, ObsKey, PieceList, seats_for
from fogboard_games.mind_bluff import rules
from fogboard_games.mind_bluff.rules import EAT, OVER, SEAT_NAMES, SHOWN_PHASES


class MindBluffEncoder(contract.Encoder):
    def counts(self) -> dict[str, int]:
        return {"debts": self.setup.max_turns}  # (up to one a turn)

    def pieces(self, key: ObsKey) -> PieceList:
        recall, public, private = key
        s = self.setup
        rows, m, h = s.max_turns, s.max_eat, s.high + 1
        shown = len(seats_for(private, 0, 2))
        out = []
        if private == "single":
            out.append(("player", (2,)))
        if shown:
            out.append(("eats", (shown, rows, m)) if recall else ("eat_now", (shown, m)))
        if public and recall:
            out += [
                ("first", (2,)),
                ("claims", (rows, m)),
                ("forced", (rows,)),
                ("responses", (rows, 2)),
                ("verdicts", (rows, 2)),
            ]
        elif public:
            out += [
                ("last_claim", (m,)),
                ("last_forced", (1,)),
                ("last_response", (2,)),
                ("last_verdict", (2,)),
                ("remaining_possible", (h,)),
            ]
        if public:
            out += [
                ("mover", (2,)),
                ("phase", (4,)),
                ("forced_now", (1,)),
                ("debts", (2,)),
                ("ending", (3,)),
            ]
            if s.spread:
                out.append(("start_shown", (2 * s.spread + 1,)))
            out.append(("remaining_shown", (h,)))
        return out

    def encode(self, buf, layout: Layout, match: rules.Match, player: int, private: str) -> None:
        at = layout.offset
        s = self.setup
        m = s.max_eat
        seats = seats_for(private, player, 2)
        turns = match.turns
        if "player" in at:
            buf[at["player"] + player] = 1.0
        if "eats" in at:
            rows = s.max_turns
            for t, turn in enumerate(turns):
                if turn.actual is not None and turn.actor in seats:
                    row = seats.index(turn.actor)
                    buf[at["eats"] + (row * rows + t) * m + turn.actual - 1] = 1.0
        if "eat_now" in at and turns:
            turn = turns[-1]
            if turn.actual is not None and turn.actor in seats:
                buf[at["eat_now"] + seats.index(turn.actor) * m + turn.actual - 1] = 1.0
        if "claims" in at:
            if match.first is not None:
                buf[at["first"] + match.first] = 1.0
            for t, turn in enumerate(turns):
                if turn.claim is not None:
                    buf[at["claims"] + t * m + turn.claim - 1] = 1.0
                    if turn.forced:
                        buf[at["forced"] + t] = 1.0
                if turn.response is not None:
                    buf[at["responses"] + 2 * t + turn.response] = 1.0
                if turn.verdict is not None:
                    buf[at["verdicts"] + 2 * t + (0 if turn.verdict else 1)] = 1.0
        if "last_claim" in at:
            if turns:
                turn = turns[-1]
                if turn.claim is not None:
                    buf[at["last_claim"] + turn.claim - 1] = 1.0
                    if turn.forced:
                        buf[at["last_forced"]] = 1.0
                if turn.response is not None:
                    buf[at["last_response"] + turn.response] = 1.0
                if turn.verdict is not None:
                    buf[at["last_verdict"] + (0 if turn.verdict else 1)] = 1.0
            base = at["remaining_possible"]
            for r in rules.remaining_set(match, seats_for(private, player, 2)):
                buf[base + r] = 1.0
        if "mover" in at:
            if match.mover >= 0:
                buf[at["mover"] + match.mover] = 1.0
            if match.phase < SHOWN_PHASES:
                buf[at["phase"] + match.phase] = 1.0
            if is_forced_now(match):
                buf[at["forced_now"]] = 1.0
            buf[at["debts"]] = float(match.debts[0])
            buf[at["debts"] + 1] = float(match.debts[1])
            if match.ending is not None:
                buf[at["ending"] + match.ending] = 1.0
                if "start_shown" in at:
                    buf[at["start_shown"] + match.start - s.low] = 1.0
                buf[at["remaining_shown"] + match.remaining] = 1.0

    def describe(self, match: rules.Match, player: int, key: ObsKey) -> str:
        # e.g. "P1 | first P1 | T1 P1 ate 2 claim 3 doubt BLUFF | T2 P2 eats | P2 to claim
        # (forced honest) | debts 0 1"
        recall, public, private = key
        seats = seats_for(private, player, 2)
        turns = match.turns
        parts = [SEAT_NAMES[player]] if private == "single" else []
        if recall:
            if public:
                first = SEAT_NAMES[match.first] if match.first is not None else "?"
                parts.append(f"first {first}")
            for t, turn in enumerate(turns):
                words = turn_words(turn, seats, public)
                if words:
                    parts.append(f"T{t + 1} " + " ".join(words))
        else:
            if turns:
                turn = turns[-1]
                words = turn_words(turn, seats, public)
                if words:
                    parts.append("last " + " ".join(words))
            if public:
                left = rules.remaining_set(match, seats_for(private, player, 2))
                parts.append("remaining in {" + ", ".join(map(str, left)) + "}")
        if public:
            parts.append(status_words(match))
            parts.append(f"debts {match.debts[0]} {match.debts[1]}")
        return " | ".join(parts) or "-"

    def true_text(self, match: rules.Match) -> str:
        s = self.setup
        start = "?" if match.start is None else match.start
        first = "?" if match.first is None else SEAT_NAMES[match.first]
        parts = [f"start {start}", f"first {first}", f"remaining {match.remaining}"]
        for t, turn in enumerate(match.turns):
            parts.append(f"T{t + 1} " + " ".join(turn_words(turn, (0, 1), True)))
        parts.append(status_words(match, shown_start=s.spread > 0))
        parts.append(f"debts {match.debts[0]} {match.debts[1]}")
        return " | ".join(parts)


def is_forced_now(match: rules.Match) -> bool:
    """The mover must claim now and owes honesty_debt: exactly one legal claim."""
    return match.phase == rules.CLAIM and match.debts[match.mover] > 0


def turn_words(turn: rules.Turn, seats: tuple[int, ...], public: bool) -> list[str]:
    """A turn as an observer sees it: the eats of `seats`, and (public) the
    rest. A view without public information shows only those eats."""
    who = SEAT_NAMES[turn.actor]
    if turn.actual is None:  # all done, always public
        return [who, "all done"] if public else []
    ate = turn.actor in seats
    if not public:
        return [who, f"ate {turn.actual}"] if ate else []
    words = [who, f"ate {turn.actual}" if ate else "eats"]
    if turn.claim is not None:
        words.append(f"claim {turn.claim}" + (" forced" if turn.forced else ""))
    if turn.response is not None:
        words.append("believe" if turn.response == rules.BELIEVE else "doubt")
    if turn.verdict is not None:
        words.append("TRUE" if turn.verdict else "BLUFF")
    return words


def status_words(match: rules.Match, shown_start: bool | None = None) -> str:
    """Whose turn it is and what to do, or how the game ended."""
    if match.phase == OVER:
        s = match.setup
        text = f"over {rules.ENDINGS[match.ending]}, {SEAT_NAMES[match.winner]} wins"
        if s.spread if shown_start is None else shown_start:
            text += f", start {match.start}"
        return text + f", remaining {match.remaining}"
    if match.mover < 0:
        return "chance"
    who = SEAT_NAMES[match.mover]
    if match.phase == EAT:
        return f"{who} to eat"
    if match.phase == rules.CLAIM:
        return f"{who} to claim" + (" (forced honest)" if is_forced_now(match) else "")
    return f"{who} to respond"
