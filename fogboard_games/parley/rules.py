"""The rules of Parley (docs/parley.md#rules).

`players` cogs C0..C(n-1) sit at a table, each with `hp` health. A match
is `rounds` rounds; every round starts with every cog alive at full hp
and its passes unused. Chance deals every cog, in seat order, a secret
FRIEND and ENEMY (two distinct other cogs, an ordered pair, uniform),
then draws the cog that wakes up IT (public, uniform).

IT's turn: with `talk` on, IT says one line (`silent`, `accuse Cj`,
`vouch Cj`, j another living cog); then it shoots another living cog with
a secret aim (`shoot Cj head` always hits; `shoot Cj hip` is a chance
node, hit 1/3, miss 2/3) or, while it has passes left this round,
`pass`es (IT keeps the gun). A hit costs the target 1 hp; at 0 it is OUT,
the shooter keeps the gun and scores 1 if the target was its ENEMY.
Otherwise, hit or miss, the target becomes IT. After a shot or pass that
does not end the round, with talk on, up to `max_reactions` living cogs
other than the next IT say one line each, in seat order starting after
the cog that acted. The round ends when `survivors` cogs are left: each
survivor scores 3, and every cog, OUT or not, whose FRIEND survived
scores 1. After `hip_limit` missed shots in a round hip-shots are no
longer legal (misses are public, so every seat knows the legal set).

A round's points are paid as rewards by its round-ending move and stay in
`rewards()` until the next decision; the returns are the match totals.

Action ids (n cogs): `silent` 0, `accuse Cj` 1 + j, `vouch Cj` 1 + n + j,
`shoot Cj head` 1 + 2n + j, `shoot Cj hip` 1 + 3n + j, `pass` 4n + 1.
Chance ids: `deal Ci: friend Cf enemy Ce` i n^2 + f n + e, `IT Cj` n^3 + j,
`hit` n^3 + n, `miss` n^3 + n + 1.
"""

from __future__ import annotations

from typing import NamedTuple

from fogboard_games.core import contract
from fogboard_games.core.contract import CHANCE, NO_ODDS, NO_OPTIONS, TERMINAL

# Phases. DEAL, WAKE and AIMED (a hip-shot waiting for its result) are chance.
DEAL, WAKE, LINE, ACT, AIMED, REACT, OVER = range(7)
HIT, MISS = 0, 1
HEAD, HIP = 0, 1
AIM_WORDS = ("head", "hip")
RESULT_WORDS = ("hit", "miss")

# Points of a round (docs/parley.md#scoring).
SURVIVOR_POINTS = 3
FRIEND_POINTS = 1
ENEMY_KILL_POINTS = 1


def most_points(points) -> list[int]:
    """The cogs with the most of `points` (a round's or the totals), in seat
    order: the winners of a round or of the match, more than one sharing the
    win (docs/parley.md#the-winner)."""
    top = max(points)
    return [c for c, p in enumerate(points) if p == top]


def cog(i: int) -> str:
    return f"C{i}"


class Turn(NamedTuple):
    """One turn of IT: its line, its shot or pass, the result and the
    reactions. Fields stay at their defaults until they happen."""

    round: int
    it: int  # the cog holding the gun
    line: int | None = None  # IT's line (an action id); None with talk off
    act: int | None = None  # the shot or pass (an action id)
    result: int | None = None  # HIT / MISS; None for a pass and while aimed
    hp: tuple[int, ...] | None = None  # every cog's hp after the shot or pass
    reactions: tuple[tuple[int, int], ...] = ()  # (cog, line action id)


class Setup(contract.Setup):
    """The fixed facts of one configured Parley match."""

    def __init__(
        self,
        players: int,
        hp: int,
        rounds: int,
        passes: int,
        survivors: int,
        talk: bool,
        max_reactions: int,
        hip_limit: int,
    ):
        self.built_from = (players, hp, rounds, passes, survivors, talk, max_reactions, hip_limit)
        n = self.players = players
        self.hp, self.rounds, self.passes, self.survivors = hp, rounds, passes, survivors
        self.talk, self.hip_limit = talk, hip_limit
        # Reactions are lines: without talk there are none.
        self.max_reactions = max_reactions if talk else 0
        self.accuse, self.vouch, self.head, self.hip = 1, 1 + n, 1 + 2 * n, 1 + 3 * n
        self.pass_action = 1 + 4 * n
        self.num_players = n
        self.num_actions = 4 * n + 2
        self.it_base = n**3
        self.hit, self.miss = n**3 + n, n**3 + n + 1
        self.max_chance_outcomes = n**3 + n + 2
        self.all_alive = (1 << n) - 1
        self.full_hp = (hp,) * n
        self.no_points = (0,) * n
        self.no_reward = (0.0,) * n
        # Chance options and odds, made once and shared by every match.
        pairs = (n - 1) * (n - 2)
        self.deal_options = [
            [i * n * n + f * n + e for f in range(n) for e in range(n) if len({i, f, e}) == 3]
            for i in range(n)
        ]
        self.deal_odds = [[(a, 1 / pairs) for a in opts] for opts in self.deal_options]
        self.wake_options = [self.it_base + j for j in range(n)]
        self.wake_odds = [(a, 1 / n) for a in self.wake_options]
        self.aimed_options = [self.hit, self.miss]
        self.aimed_odds = [(self.hit, 1 / 3), (self.miss, 2 / 3)]
        # Legal lists of a line and of an act, by who and which cogs live
        # (rule data, memoised: a living set recurs all match long).
        self._lines: dict[tuple[int, int], list[int]] = {}
        self._acts: dict[tuple[int, int, bool, bool], list[int]] = {}
        # Scores a cog can end a match with.
        self.min_utility = float(rounds * (0 if n - survivors >= 2 else FRIEND_POINTS))
        best = SURVIVOR_POINTS + ENEMY_KILL_POINTS + (FRIEND_POINTS if survivors >= 2 else 0)
        self.max_utility = float(rounds * best)
        self.utility_sum = None
        self.max_turns = self.turn_bound()
        self.max_game_length = rounds * self.round_length_bound()

    # ---- bounds (docs/parley.md#game-length) -------------------------------------

    def turn_bound(self) -> int:
        """The most turns (shots and passes) a round can have: every pass
        (each cog that can get the gun uses all of its passes), `hip_limit`
        misses, hp - 1 hits on every cog and one kill per cog that goes OUT."""
        n, hp = self.players, self.hp
        return self._passes_usable() + self.hip_limit + n * (hp - 1) + (n - self.survivors)

    def _passes_usable(self) -> int:
        # Only a cog holding the gun passes. A kill leaves the gun with the
        # shooter, so the gun reaches a new cog only by a miss or a hit that
        # does not kill: with hp 1 there are no such hits, and at most
        # hip_limit + 1 cogs ever hold it in a round.
        n = self.players
        holders = n if self.hp >= 2 else min(n, self.hip_limit + 1)
        return self.passes * holders

    def round_length_bound(self) -> int:
        """The most decisions in a round, reached by playing every pass, miss
        and non-fatal hit while all cogs live (most reactions), then the kills."""
        n, line = self.players, 1 if self.talk else 0
        reactions = self.max_reactions
        full_table = 1 + line + min(reactions, n - 1)
        kills = n - self.survivors
        length = full_table * (self.turn_bound() - kills)
        for k in range(1, kills + 1):
            # The k-th kill leaves n - k cogs, one of them the next IT; the
            # round-ending kill has no reactions.
            after = min(reactions, n - k - 1) if k < kills else 0
            length += 1 + line + after
        return length

    # ---- names ---------------------------------------------------------------------

    def new_match(self) -> Match:
        return Match(self)

    def decision_name(self, action: int) -> str:
        n = self.players
        if type(action) is not int or not 0 <= action < self.num_actions:
            raise ValueError(f"action {action!r} out of range 0..{self.num_actions - 1}")
        if action == 0:
            return "silent"
        if action == self.pass_action:
            return "pass"
        kind, j = divmod(action - 1, n)
        return ("accuse C{}", "vouch C{}", "shoot C{} head", "shoot C{} hip")[kind].format(j)

    def chance_name(self, outcome: int) -> str:
        n = self.players
        if type(outcome) is not int or not 0 <= outcome < self.max_chance_outcomes:
            raise ValueError(
                f"chance outcome {outcome!r} out of range 0..{self.max_chance_outcomes - 1}"
            )
        if outcome < self.it_base:
            i, rest = divmod(outcome, n * n)
            f, e = divmod(rest, n)
            # Ids with repeated cogs are never legal, but still named.
            return f"deal C{i}: friend C{f} enemy C{e}"
        if outcome < self.hit:
            return f"IT C{outcome - self.it_base}"
        return "hit" if outcome == self.hit else "miss"

    def action_name(self, player: int, action: int) -> str:
        return self.chance_name(action) if player == CHANCE else self.decision_name(action)

    # ---- legal lists -------------------------------------------------------------------

    def line_options(self, speaker: int, living: int) -> list[int]:
        """`silent`, then accuse and vouch of every living cog but the speaker."""
        key = (speaker, living)
        options = self._lines.get(key)
        if options is None:
            others = [j for j in range(self.players) if living >> j & 1 and j != speaker]
            options = [0] + [self.accuse + j for j in others] + [self.vouch + j for j in others]
            self._lines[key] = options
        return options

    def act_options(self, it: int, living: int, hip_ok: bool, pass_ok: bool) -> list[int]:
        """Head-shots at every other living cog, hip-shots while the misses
        allow them, and `pass` while IT has passes left."""
        key = (it, living, hip_ok, pass_ok)
        options = self._acts.get(key)
        if options is None:
            others = [j for j in range(self.players) if living >> j & 1 and j != it]
            options = [self.head + j for j in others]
            if hip_ok:
                options += [self.hip + j for j in others]
            if pass_ok:
                options.append(self.pass_action)
            self._acts[key] = options
        return options

    def deal_of(self, outcome: int) -> tuple[int, int]:
        """(friend, enemy) of a deal outcome."""
        return divmod(outcome % (self.players * self.players), self.players)

    def deal_outcome(self, cog_: int, friend: int, enemy: int) -> int:
        n = self.players
        return cog_ * n * n + friend * n + enemy

    def aim_of(self, act: int) -> int | None:
        """HEAD / HIP of a shot action, None for a pass."""
        if act == self.pass_action:
            return None
        return HEAD if act < self.hip else HIP

    def target_of(self, act: int) -> int | None:
        if act == self.pass_action:
            return None
        return (act - 1) % self.players


class Match(contract.Match):
    """A Parley match. Every slot but the contract's holds an immutable
    value (ints and tuples), so `copy()` copies references."""

    __slots__ = (
        "phase",
        "round",  # 0-based
        "deals",  # per round, the (friend, enemy) of every cog dealt so far
        "hp",  # every cog's hp
        "living",  # bitmask of the cogs not OUT
        "passes_used",  # per cog, this round
        "misses",  # missed shots this round
        "it",  # the cog holding the gun (the next IT during reactions); None before the wake
        "turns",  # every turn of the match, the one under way last
        "reactors",  # the cogs still to react after the last shot or pass
        "enemy_kills",  # per cog, points for fatally shooting its ENEMY this round
        "points",  # per finished round, every cog's points
        "totals",  # the returns
        "paid",  # what the last round-ending move paid (the rewards), until the next decision
    )

    def __init__(self, setup: Setup):
        self.setup = setup
        self.round = 0
        self.deals = ((),)
        self.points = ()
        self.turns = ()
        self.totals = setup.no_points
        self.paid = setup.no_reward
        self.shared = False
        self.cache = None
        self._start_round()

    def copy(self) -> Match:
        m = Match.__new__(Match)
        m.setup = self.setup
        m.phase, m.round, m.deals, m.hp, m.living = (
            self.phase,
            self.round,
            self.deals,
            self.hp,
            self.living,
        )
        m.passes_used, m.misses, m.it, m.turns = self.passes_used, self.misses, self.it, self.turns
        m.reactors, m.enemy_kills, m.points = self.reactors, self.enemy_kills, self.points
        m.totals, m.paid = self.totals, self.paid
        m.mover, m.options, m.odds = self.mover, self.options, self.odds
        m.shared = False
        m.cache = None
        return m

    # ---- derived facts ----------------------------------------------------------------

    def cards(self, round_: int, c: int) -> tuple[int, int] | None:
        """(friend, enemy) of cog `c` in `round_`, None before its deal."""
        dealt = self.deals[round_]
        return dealt[c] if c < len(dealt) else None

    # ---- moves -------------------------------------------------------------------------

    def play(self, action: int) -> bool:
        if action not in self.options:
            return False
        s = self.setup
        phase = self.phase
        if phase == DEAL:
            c = len(self.deals[-1])
            self.deals = self.deals[:-1] + (self.deals[-1] + (s.deal_of(action),),)
            if c + 1 < s.players:
                self.options, self.odds = s.deal_options[c + 1], s.deal_odds[c + 1]
            else:
                self.phase, self.options, self.odds = WAKE, s.wake_options, s.wake_odds
            return True
        if phase == WAKE:
            self.odds = NO_ODDS
            self._start_turn(action - s.it_base)
            return True
        if phase == AIMED:
            self.odds = NO_ODDS
            target = s.target_of(self.turns[-1].act)
            if action == s.hit:
                self._hit(target)
            else:
                self.misses += 1
                self._record(result=MISS, hp=self.hp)
                self._after_act(self.it, target)
            return True
        # A decision: what the last round-ending move paid has been read.
        self.paid = s.no_reward
        if phase == LINE:
            self._record(line=action)
            self._to_act()
        elif phase == ACT:
            it = self.it
            if action == s.pass_action:
                used = self.passes_used
                self.passes_used = used[:it] + (used[it] + 1,) + used[it + 1 :]
                self._record(act=action, hp=self.hp)
                self._after_act(it, it)
            else:
                if action < s.hip:  # a head-shot always hits: no chance node
                    self._hit(action - s.head, act=action)
                    return True
                self._record(act=action)
                self.phase, self.mover = AIMED, CHANCE
                self.options, self.odds = s.aimed_options, s.aimed_odds
        else:  # REACT
            speaker = self.mover
            turn = self.turns[-1]
            self.turns = self.turns[:-1] + (
                turn._replace(reactions=turn.reactions + ((speaker, action),)),
            )
            self.reactors = self.reactors[1:]
            if self.reactors:
                self.mover = self.reactors[0]
                self.options = s.line_options(self.mover, self.living)
            else:
                self._start_turn(self.it)
        return True

    def _record(self, **fields) -> None:
        """Fill fields of the turn under way."""
        self.turns = self.turns[:-1] + (self.turns[-1]._replace(**fields),)

    def _hit(self, target: int, **act) -> None:
        """`target` is hit; `act`, the head-shot's own act=..., is recorded with it
        (one rebuild of the turns, not two)."""
        s = self.setup
        shooter = self.it
        self.hp = self.hp[:target] + (self.hp[target] - 1,) + self.hp[target + 1 :]
        if self.hp[target]:
            self._record(result=HIT, hp=self.hp, **act)
            self._after_act(shooter, target)
            return
        # OUT: the shooter keeps the gun, and scores if it was its ENEMY.
        self.living &= ~(1 << target)
        if self.deals[self.round][shooter][1] == target:
            kills = self.enemy_kills
            self.enemy_kills = (
                kills[:shooter] + (kills[shooter] + ENEMY_KILL_POINTS,) + kills[shooter + 1 :]
            )
        self._record(result=HIT, hp=self.hp, **act)
        if self.living.bit_count() == s.survivors:
            self._end_round()
        else:
            self._after_act(shooter, shooter)

    def _after_act(self, actor: int, next_it: int) -> None:
        """Reactions after a shot or pass that did not end the round, then
        the next IT's turn."""
        s = self.setup
        self.it = next_it
        if s.max_reactions:
            n, living = s.players, self.living
            order = [(actor + k) % n for k in range(1, n + 1)]
            speakers = [c for c in order if living >> c & 1 and c != next_it]
            self.reactors = tuple(speakers[: s.max_reactions])
            if self.reactors:
                self.phase, self.mover = REACT, self.reactors[0]
                self.options = s.line_options(self.mover, living)
                return
        self._start_turn(next_it)

    def _start_turn(self, it: int) -> None:
        self.it = it
        self.reactors = ()
        self.turns += (Turn(self.round, it),)
        if self.setup.talk:
            self.phase, self.mover = LINE, it
            self.options = self.setup.line_options(it, self.living)
        else:
            self._to_act()

    def _to_act(self) -> None:
        s, it = self.setup, self.it
        self.phase, self.mover = ACT, it
        self.options = s.act_options(
            it, self.living, self.misses < s.hip_limit, self.passes_used[it] < s.passes
        )

    def _start_round(self) -> None:
        s = self.setup
        self.hp, self.living = s.full_hp, s.all_alive
        self.passes_used = self.enemy_kills = s.no_points
        self.misses, self.it, self.reactors = 0, None, ()
        self.phase, self.mover = DEAL, CHANCE
        self.options, self.odds = s.deal_options[0], s.deal_odds[0]

    def _end_round(self) -> None:
        s = self.setup
        living, dealt = self.living, self.deals[self.round]
        points = tuple(
            SURVIVOR_POINTS * (living >> c & 1)
            + FRIEND_POINTS * (living >> dealt[c][0] & 1)
            + self.enemy_kills[c]
            for c in range(s.players)
        )
        self.points += (points,)
        self.totals = tuple(t + p for t, p in zip(self.totals, points))
        self.paid = tuple(float(p) for p in points)
        self.reactors = ()
        if self.round + 1 == s.rounds:
            self.phase, self.mover, self.options, self.odds = OVER, TERMINAL, NO_OPTIONS, NO_ODDS
            return
        self.round += 1
        self.deals += ((),)
        self._start_round()

    # ---- results ---------------------------------------------------------------------

    def returns(self) -> tuple[float, ...]:
        return tuple(float(t) for t in self.totals)

    def rewards(self) -> tuple[float, ...]:
        return self.paid

    def survivors_of(self, round_: int) -> list[int]:
        """The cogs standing at the end of a finished round."""
        last = [t for t in self.turns if t.round == round_][-1]
        return [c for c, h in enumerate(last.hp) if h]

    def why_illegal(self, action) -> str:
        s = self.setup
        phase = self.phase
        if phase == DEAL:
            c = len(self.deals[-1])
            return f"chance deals C{c} a FRIEND and an ENEMY, two distinct other cogs"
        if phase == WAKE:
            return "chance draws the cog that wakes up IT"
        if phase == AIMED:
            return "chance decides the hip-shot: hit or miss"
        if phase in (LINE, REACT):
            return f"C{self.mover} says one line: silent, or accuse or vouch another living cog"
        why = f"IT (C{self.it}) shoots another living cog at head or hip, or passes"
        if self.misses >= s.hip_limit:
            why += f"; hip-shots are over after {s.hip_limit} misses this round"
        if self.passes_used[self.it] >= s.passes:
            why += f"; C{self.it} has no passes left this round"
        return why
