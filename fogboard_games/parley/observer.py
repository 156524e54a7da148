"""What each observer of Parley shows (docs/parley.md#tensor-pieces).

n cogs, R rounds, E = the most turns in a round, L = 1 + 2n (a line:
silent, accuse Cj, vouch Cj), X = max_reactions (0 without talk), V = the
cogs whose private facts are shown (1 for a cog's own view, n for
ALL_PLAYERS, 0 for a public-only view). Rows (r, k) are the k-th turn of
round r.

| piece | shape | when | meaning |
|---|---|---|---|
| player | (n,) | private single | one-hot: whose view this is |
| cards | (R, V, 2, n) | private, perfect recall | one-hot: the FRIEND and ENEMY of each shown cog in round r |
| shots | (R, E, 2 + n) | private, perfect recall | a shown cog's own shot: aim (head, hip), then its target |
| turn_it | (R, E, n) | public, perfect recall | one-hot: IT of the turn |
| turn_line | (R, E, L) | public, perfect recall, talk | one-hot: IT's line |
| turn_target | (R, E, n) | public, perfect recall | one-hot: the cog shot (once its result is known) |
| turn_pass | (R, E, 1) | public, perfect recall | 1: IT passed |
| turn_result | (R, E, 2) | public, perfect recall | one-hot: hit / miss |
| turn_reactions | (R, E, X, n + L) | public, perfect recall, talk | the x-th reaction: its speaker, then its line |
| points | (R, n) | public, perfect recall | each cog's points in each finished round (a count) |
| cards_now | (V, 2, n) | private, current view | the shown cogs' cards this round |
| shot_now | (2 + n,) | private, current view | a shown cog's shot in the latest turn: aim, target |
| last_it, last_line, last_target, last_pass, last_result, last_reactions | as one row above | public, current view | the latest turn of this round |
| totals | (n,) | public, current view | each cog's points so far (a count) |
| round | (R,) | public | one-hot: the round under way |
| mover | (n,) | public | one-hot: the cog to decide |
| phase | (6,) | public | one-hot: deal / wake / line / act / react / over |
| it | (n,) | public | one-hot: the cog holding the gun (the next IT during reactions) |
| hp | (n, hp + 1) | public | one-hot: every cog's hp (0 = OUT) |
| passes_left | (n, passes + 1) | public | one-hot: every cog's passes left this round |
| misses | (hip_limit + 1,) | public | one-hot: missed shots this round |

A hip-shot waiting for its result is a chance node the table does not
see: every view that does not show the shooter's private facts encodes it
exactly as the shooter's decision before it (mover IT, phase act), so
that the aim of a hit never shows through the history. The strings say
exactly what the pieces show.
"""

from __future__ import annotations

from fogboard_games.core import contract
from fogboard_games.core.observer import INFO_STATE, Layout, ObsKey, PieceList, seats_for
from fogboard_games.parley import rules
from fogboard_games.parley.rules import AIMED, DEAL, LINE, OVER, REACT, WAKE, cog

# Phases as the pieces show them, in the `phase` piece's order; a pending
# hip-shot shows as the act before it.
PHASE_ORDER = (DEAL, WAKE, LINE, rules.ACT, REACT, OVER)
SHOWN_PHASE = {phase: i for i, phase in enumerate(PHASE_ORDER)}
SHOWN_PHASE[AIMED] = SHOWN_PHASE[rules.ACT]


def turn_rows(match: rules.Match, start: int = 0, k: int = 0):
    """(round, index in round, turn) of the match's turns from turn `start` on,
    `k` being turn start's index in its round (every turn by default)."""
    turns = match.turns
    for i in range(start, len(turns)):
        t = turns[i]
        if i > start and t.round != turns[i - 1].round:
            k = 0
        yield t.round, k, t
        k += 1


def latest_turn(match: rules.Match) -> rules.Turn | None:
    """The latest turn of the round under way (None before its first)."""
    # (during a later round's deal the last turn is the round before's)
    if match.turns and match.turns[-1].round == match.round:
        return match.turns[-1]
    return None


class ParleyEncoder(contract.Encoder):
    def __init__(self, setup: rules.Setup):
        super().__init__(setup)
        n = setup.players
        self.line_width = 1 + 2 * n
        self.reaction_width = n + self.line_width
        self._zero_cache: dict[int, list[float]] = {}

    def counts(self) -> dict[str, int]:
        # A round's most: standing, a standing FRIEND, an ENEMY killed.
        most = rules.SURVIVOR_POINTS + rules.FRIEND_POINTS + rules.ENEMY_KILL_POINTS
        return {"points": most, "totals": most * self.setup.rounds}

    def pieces(self, key: ObsKey) -> PieceList:
        recall, public, private = key
        s = self.setup
        n, rounds, rows = s.players, s.rounds, s.max_turns
        lw, x, rw = self.line_width, s.max_reactions, self.reaction_width
        shown = len(seats_for(private, 0, n))
        out = []
        if private == "single":
            out.append(("player", (n,)))
        if shown and recall:
            out += [("cards", (rounds, shown, 2, n)), ("shots", (rounds, rows, 2 + n))]
        elif shown:
            out += [("cards_now", (shown, 2, n)), ("shot_now", (2 + n,))]
        if public:
            lead, prefix = ((rounds, rows), "turn_") if recall else ((), "last_")
            out.append((prefix + "it", (*lead, n)))
            if s.talk:
                out.append((prefix + "line", (*lead, lw)))
            out += [
                (prefix + "target", (*lead, n)),
                (prefix + "pass", (*lead, 1)),
                (prefix + "result", (*lead, 2)),
            ]
            if x:
                out.append((prefix + "reactions", (*lead, x, rw)))
            out.append(("points", (rounds, n)) if recall else ("totals", (n,)))
            out += [
                ("round", (rounds,)),
                ("mover", (n,)),
                ("phase", (6,)),
                ("it", (n,)),
                ("hp", (n, s.hp + 1)),
                ("passes_left", (n, s.passes + 1)),
                ("misses", (s.hip_limit + 1,)),
            ]
        return out

    # ---- tensors ------------------------------------------------------------------

    def encode(self, buf, layout: Layout, match: rules.Match, player: int, private: str) -> None:
        at = layout.offset
        s = self.setup
        n = s.players
        seats = seats_for(private, player, n)
        if "player" in at:
            buf[at["player"] + player] = 1.0
        if "cards" in at:
            for r in range(len(match.deals)):
                self._cards(buf, at["cards"], match, r, seats, len(seats))
        if "cards_now" in at:
            base, dealt = at["cards_now"], match.deals[-1]
            for row, c in enumerate(seats):
                if c < len(dealt):
                    f, e = dealt[c]
                    buf[base + row * 2 * n + f] = 1.0
                    buf[base + (row * 2 + 1) * n + e] = 1.0
        if "shots" in at or "turn_it" in at:
            rows = s.max_turns
            for r, k, t in turn_rows(match):
                row = r * rows + k
                if "shots" in at and t.it in seats:
                    self._shot(buf, at["shots"] + row * (2 + n), t)
                if "turn_it" in at:
                    self._turn(buf, at, "turn_", row, t)
        if "shot_now" in at or "last_it" in at:
            t = latest_turn(match)
            if t is not None:
                if "shot_now" in at and t.it in seats:
                    self._shot(buf, at["shot_now"], t)
                if "last_it" in at:
                    self._turn(buf, at, "last_", 0, t)
        if "points" in at:
            self._points(buf, at["points"], match)
        if "totals" in at:
            base = at["totals"]
            for c, p in enumerate(match.totals):
                buf[base + c] = float(p)
        if "round" in at:
            self._status(buf, at, match)

    def _cards(self, buf, base: int, match: rules.Match, r: int, seats, v: int) -> None:
        n, dealt = self.setup.players, match.deals[r]
        for row, c in enumerate(seats):
            if c < len(dealt):
                f, e = dealt[c]
                buf[base + ((r * v + row) * 2) * n + f] = 1.0
                buf[base + ((r * v + row) * 2 + 1) * n + e] = 1.0

    def _points(self, buf, base: int, match: rules.Match) -> None:
        n = self.setup.players
        for r, points in enumerate(match.points):
            for c, p in enumerate(points):
                buf[base + r * n + c] = float(p)

    def _shot(self, buf, base: int, t: rules.Turn) -> None:
        s = self.setup
        if t.act is None or t.act == s.pass_action:
            return
        buf[base + s.aim_of(t.act)] = 1.0
        buf[base + 2 + s.target_of(t.act)] = 1.0

    def _turn(self, buf, at: dict, prefix: str, row: int, t: rules.Turn) -> None:
        s = self.setup
        n = s.players
        buf[at[prefix + "it"] + row * n + t.it] = 1.0
        if t.line is not None:
            buf[at[prefix + "line"] + row * self.line_width + t.line] = 1.0
        if t.act == s.pass_action:
            buf[at[prefix + "pass"] + row] = 1.0
        elif t.result is not None:  # the table learns a shot with its result
            buf[at[prefix + "target"] + row * n + s.target_of(t.act)] = 1.0
            buf[at[prefix + "result"] + row * 2 + t.result] = 1.0
        if t.reactions:
            x, rw = s.max_reactions, self.reaction_width
            base = at[prefix + "reactions"] + row * x * rw
            for i, (c, line) in enumerate(t.reactions):
                buf[base + i * rw + c] = 1.0
                buf[base + i * rw + n + line] = 1.0

    def _status(self, buf, at: dict, match: rules.Match) -> None:
        s = self.setup
        buf[at["round"] + match.round] = 1.0
        mover = match.it if match.phase == AIMED else match.mover
        if mover >= 0:
            buf[at["mover"] + mover] = 1.0
        buf[at["phase"] + SHOWN_PHASE[match.phase]] = 1.0
        if match.it is not None:
            buf[at["it"] + match.it] = 1.0
        base, w = at["hp"], s.hp + 1
        for c, h in enumerate(match.hp):
            buf[base + c * w + h] = 1.0
        base, w = at["passes_left"], s.passes + 1
        for c, used in enumerate(match.passes_used):
            buf[base + c * w + s.passes - used] = 1.0
        buf[at["misses"] + match.misses] = 1.0

    # ---- strings -------------------------------------------------------------------

    def describe(self, match: rules.Match, player: int, key: ObsKey) -> str:
        # e.g. "C1 | R1 C1 friend C3 enemy C4 | IT C0 | C0: accuse C2 | C0 shoots C2: hit,
        # C2 hp 1 | C3: silent | C4: vouch C2 | C2: silent | C2 pass | ... | C2 to act"
        recall, public, private = key
        s = self.setup
        seats = seats_for(private, player, s.players)
        if key == INFO_STATE and match.turns:
            return self._cached_info_state_string(match, player, seats)
        parts = [cog(player)] if private == "single" else []
        if recall:
            done, tail, _ = record_words(match, seats, public, START)
            parts += done + tail
        else:
            if public:
                parts.append(f"R{match.round + 1}")
            cards = cards_words(match, match.round, seats)
            if cards:
                parts.append(cards)
            if public:
                parts.append(table_words(match))
            t = latest_turn(match)
            if t is not None:
                parts += turn_words(s, t, seats, public, first=False)
            if public:
                parts.append("totals " + " ".join(map(str, match.totals)))
        if public:
            parts.append(status_words(match, seats))
        return " | ".join(parts) or "-"

    def _cached_info_state_string(self, match: rules.Match, player: int, seats) -> str:
        """The information-state string, extended rather than rebuilt: what
        `record_words` calls final never changes, so a per-match cache keeps
        it joined, with the cursor where it stopped (a copied match starts
        with no cache)."""
        cache = match.cache
        if cache is None:
            cache = match.cache = ParleyCache(self.setup.players)
        entry = cache.strings[player]
        if entry is None:
            entry = cache.strings[player] = SeatString(cog(player))
        done, tail, entry.at = record_words(match, seats, True, entry.at)
        if done:
            entry.text += " | " + " | ".join(done)
        return " | ".join([entry.text, *tail, status_words(match, seats)])

    def info_state_tensor(self, match: rules.Match, player: int) -> list[float]:
        """The default information-state tensor, resumed from a per-match cache.

        Every piece before `round` only grows (cards are dealt, turns fill in
        and never change once the next turn starts, points are added), so
        the cache keeps each seat's tensor and rewrites only the turns from
        the one that was under way at the last read; the status pieces at the
        end are cleared and written anew. A copied match starts with no cache.
        """
        layout = self.layout(INFO_STATE)
        if not match.turns:  # the start, likely a template every fresh state shares
            return super().info_state_tensor(match, player)
        cache = match.cache
        if cache is None:
            cache = match.cache = ParleyCache(self.setup.players)
        entry = cache.tensors[player]
        if entry is None:
            buf = [0.0] * layout.size
            self.encode(buf, layout, match, player, "single")
            *_, (_, k, _) = turn_rows(match)  # the last turn's index in its round
            cache.tensors[player] = SeatTensor(buf, len(match.turns) - 1, k)
            return buf[:]
        buf, first, first_k = entry.buf, entry.first, entry.first_k
        at = layout.offset
        seats = (player,)
        base, v = at["cards"], 1
        for r in range(match.turns[first].round, len(match.deals)):
            self._cards(buf, base, match, r, seats, v)
        rows, n = self.setup.max_turns, self.setup.players
        k = first_k
        for r, k, t in turn_rows(match, first, first_k):
            row = r * rows + k
            if t.it == player:
                self._shot(buf, at["shots"] + row * (2 + n), t)
            self._turn(buf, at, "turn_", row, t)
        self._points(buf, at["points"], match)
        status = at["round"]
        buf[status:] = self._zeros_after(status, layout.size)
        self._status(buf, at, match)
        entry.first, entry.first_k = len(match.turns) - 1, k
        return buf[:]

    def _zeros_after(self, start: int, size: int) -> list[float]:
        zeros = self._zero_cache.get(start)
        if zeros is None:
            zeros = self._zero_cache[start] = [0.0] * (size - start)
        return zeros

    def spectator(self, match: rules.Match) -> str:
        """What a spectator sees (docs/parley.md#the-spectator): the public
        record and status, as a public-only perfect-recall observer shows
        them, with every cog's cards in each round's header and no aim."""
        every = tuple(range(self.setup.players))
        done, tail, _ = record_words(match, (), True, START, dealt_to=every)
        return " | ".join([*done, *tail, status_words(match, ())])

    def true_text(self, match: rules.Match) -> str:
        s = self.setup
        every = tuple(range(s.players))
        parts = []
        for r in range(match.round + 1):
            parts.append(round_header(match, r, every))
            for k, t in enumerate([t for t in match.turns if t.round == r]):
                parts += turn_words(s, t, every, True, first=k == 0)
            if r < len(match.points):
                parts.append("points " + " ".join(map(str, match.points[r])))
        parts.append(table_words(match))
        parts.append("totals " + " ".join(map(str, match.totals)))
        parts.append(status_words(match, every))
        return " | ".join(parts)


# A cursor into the record: (round, stage, turn index), where `record_words`
# stopped; stages of a round are its header, its turns, then its points. (A
# plain tuple: one is made at every read, and a NamedTuple costs several
# times as much to make; `record_words` unpacks it at once.)
HEADER, TURNS, POINTS = range(3)
START = (0, HEADER, 0)


class ParleyCache:
    """A match's `cache`: per seat its information-state string (SeatString)
    and tensor (SeatTensor), each made when first read."""

    __slots__ = ("strings", "tensors")

    def __init__(self, players: int):
        self.strings: list[SeatString | None] = [None] * players
        self.tensors: list[SeatTensor | None] = [None] * players


class SeatString:
    """The final words of a seat's record, joined, and where they stop."""

    __slots__ = ("text", "at")

    def __init__(self, text: str):
        self.text = text
        self.at = START


class SeatTensor:
    """A seat's information-state tensor, `buf`, as of the read when turn
    `first` (index `first_k` in its round) was the latest: from that turn on
    it is written again."""

    __slots__ = ("buf", "first", "first_k")

    def __init__(self, buf: list[float], first: int, first_k: int):
        self.buf = buf
        self.first = first
        self.first_k = first_k


def record_words(match: rules.Match, seats, public: bool, cursor: tuple, dealt_to=None):
    """The words of the perfect-recall record from `cursor` on: (final, tail,
    cursor after the final words). Final words never change as the match
    goes on; the tail may (a header before its cog's cards are dealt, the
    turn under way). A view without public facts shows a round only by its
    cards, and only its shown cogs' own shots. `dealt_to`: whose cards the
    headers show, when not `seats` (a spectator sees every card, no aim)."""
    s = match.setup
    turns = match.turns
    r, stage, i = cursor
    carded = seats if dealt_to is None else dealt_to
    final: list[str] = []
    while r <= match.round:
        over = r < len(match.points)
        if stage == HEADER:
            words = (
                [round_header(match, r, carded)] if public or cards_words(match, r, carded) else []
            )
            if not (over or r < match.round or len(match.deals[r]) == s.players):
                # (the deal comes before the round's first turn: no turn to add)
                return final, words, (r, stage, i)
            final += words
            stage = TURNS
        if stage == TURNS:
            while i < len(turns) and turns[i].round == r:
                first = i == 0 or turns[i - 1].round != r
                words = turn_words(s, turns[i], seats, public, first)
                if i == len(turns) - 1 and not over:  # the turn under way
                    return final, words, (r, stage, i)
                final += words
                i += 1
            if not over:
                return final, [], (r, stage, i)
            stage = POINTS
        if public:
            final.append("points " + " ".join(map(str, match.points[r])))
        r, stage = r + 1, HEADER
    return final, [], (r, stage, i)


def cards_words(match: rules.Match, r: int, seats: tuple[int, ...]) -> str:
    """The cards of `seats` in round r dealt so far, e.g. "C1 friend C3 enemy C4"."""
    words = []
    for c in seats:
        cards = match.cards(r, c)
        if cards is not None:
            words.append(f"{cog(c)} friend {cog(cards[0])} enemy {cog(cards[1])}")
    return ", ".join(words)


def round_header(match: rules.Match, r: int, seats: tuple[int, ...]) -> str:
    """`R1`, with the shown cogs' cards of that round."""
    cards = cards_words(match, r, seats)
    return f"R{r + 1} " + cards if cards else f"R{r + 1}"


def turn_words(s: rules.Setup, t: rules.Turn, seats, public: bool, first: bool) -> list[str]:
    """A turn as an observer sees it. `seats`: whose aims are shown; a view
    without public information shows only those cogs' own shots."""
    it = cog(t.it)
    shown = t.it in seats
    if not public:
        if shown and t.act is not None and t.act != s.pass_action:
            aim = rules.AIM_WORDS[s.aim_of(t.act)]
            return [f"{it} shoots {cog(s.target_of(t.act))} {aim}"]
        return []
    words = [f"IT {it}"] if first else []
    if t.line is not None:
        words.append(f"{it}: {s.decision_name(t.line)}")
    if t.act == s.pass_action:
        words.append(f"{it} pass")
    elif t.act is not None:
        target = s.target_of(t.act)
        aim = " " + rules.AIM_WORDS[s.aim_of(t.act)] if shown else ""
        if t.result is None:  # a hip-shot waiting for its result: only its shooter knows
            if shown:
                words.append(f"{it} shoots {cog(target)}{aim}: pending")
        elif t.result == rules.HIT:
            left = t.hp[target]
            after = f"{cog(target)} hp {left}" if left else f"{cog(target)} OUT"
            words.append(f"{it} shoots {cog(target)}{aim}: hit, {after}")
        else:
            words.append(f"{it} shoots {cog(target)}{aim}: miss")
    for c, line in t.reactions:
        words.append(f"{cog(c)}: {s.decision_name(line)}")
    return words


def table_words(match: rules.Match) -> str:
    """hp, passes left and misses of the round under way."""
    s = match.setup
    left = (s.passes - u for u in match.passes_used)
    return (
        "hp "
        + " ".join(map(str, match.hp))
        + " | passes left "
        + " ".join(map(str, left))
        + f" | misses {match.misses}"
    )


def status_words(match: rules.Match, seats: tuple[int, ...]) -> str:
    """Who is to do what. A pending hip-shot shows as IT still to act to
    every view that does not see the shooter's aim."""
    phase = match.phase
    if phase == OVER:
        return "over"
    if phase == AIMED:
        return "chance" if match.it in seats else f"{cog(match.it)} to act"
    if phase in (DEAL, WAKE):
        return "chance"
    if phase in (LINE, REACT):
        return f"{cog(match.mover)} to speak"
    return f"{cog(match.mover)} to act"


def spectator(match: rules.Match) -> str:
    """A spectator's view of the true match (Ruleset.spectator): every card, no aim."""
    encoder = match.setup.encoder or ParleyEncoder(match.setup)  # rules used alone: no game
    return encoder.spectator(match)
