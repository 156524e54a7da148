"""The `heuristic` bot of Parley (docs/parley.md).

It decides from `seat_view`, built only from the cog's information-state
pieces (`bots.base.seat_pieces`, docs/parley.md#tensor-pieces) and the
configured game's Setup: its own FRIEND and ENEMY this round (`cards`),
and the public table: every cog's hp (so who is OUT), the phase, and the
lines said this round (who accused it, from `turn_line` and
`turn_reactions`); whether it may pass or hip-shoot it reads from its
legal actions. Another cog's cards, the aims of other cogs' shots and the
kill points counted during the round are not in those pieces, so the bot
cannot read them.

- Act: a cog at 1 hp can be put OUT by a head-shot, and the shooter keeps
  the gun, so it first head-shoots its ENEMY at 1 hp (a point), else
  another cog at 1 hp that is not its FRIEND (cogs that accused it this
  round first), or its FRIEND when the two of them are the last ones
  (standing is worth 3, the friend's standing 1). Otherwise, with passes
  left and a table of PASS_TABLE or more standing, it passes now and then
  (PASS_RATE); else it head-shoots its ENEMY, then the weakest other cog
  that is not its FRIEND; with only its FRIEND left to shoot, it
  hip-shoots it (handing it the gun, most likely without a hit), or
  head-shoots it once hip-shots are over.
- Lines and reactions: `accuse` its ENEMY while it stands, else `vouch` its
  FRIEND while it stands, else `silent`.

Ties are broken by `SeatBot.rng` keyed by the cog's information-state string.
"""

from __future__ import annotations

import dataclasses

from fogboard_games.bots.base import SeatBot, register_heuristic, seat_pieces
from fogboard_games.parley import observer, rules

PASS_RATE = 0.1  # chance of a pass when one is allowed and the table is large
PASS_TABLE = 4  # the fewest cogs standing for a pass


@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one cog knows that the bot uses: its cards and the public table."""

    setup: rules.Setup
    seat: int
    phase: int
    friend: int
    enemy: int
    hp: tuple[int, ...]
    accusers: frozenset[int]  # cogs that accused this cog this round

    def alive(self, c: int) -> bool:
        return self.hp[c] > 0

    def others(self) -> list[int]:
        """The other cogs standing."""
        return [c for c in range(self.setup.players) if c != self.seat and self.hp[c] > 0]


def seat_view(state, seat: int) -> SeatView:
    """The knowledge of cog `seat` in `state` that the bot decides from, read
    from the cog's information-state pieces (at a decision: the cards of the
    round under way are dealt)."""
    s = state.get_game().setup
    n = s.players
    p = seat_pieces(state, seat)
    r = int(p["round"].argmax())
    friend, enemy = p["cards"][r, 0].ravel().nonzero()[0].tolist()  # friend, then n + enemy
    hp = tuple(p["hp"].argmax(axis=1).tolist())  # one-hot rows: 0 for a cog OUT
    phase = observer.PHASE_ORDER[int(p["phase"].argmax())]
    line = s.accuse + seat  # `accuse C{seat}`, as a line id: its column in a line one-hot
    accusers = set()
    if s.talk:  # IT's lines this round
        said = p["turn_line"][r, :, line].nonzero()[0]
        if said.size:
            accusers.update(p["turn_it"][r, said].argmax(axis=1).tolist())
    if s.max_reactions:  # (speaker one-hot, then the line one-hot) per reaction
        reactions = p["turn_reactions"][r]
        k, x = reactions[:, :, n + line].nonzero()
        if k.size:
            accusers.update(reactions[k, x, :n].argmax(axis=1).tolist())
    return SeatView(s, seat, phase, friend, enemy - n, hp, frozenset(accusers))


class ParleyHeuristic(SeatBot):
    """Kills its enemy when it can, keeps the gun by kills, spares its friend."""

    kind = "heuristic"
    games = ("fogboard_parley",)

    def decide(self, state) -> int:
        view = seat_view(state, self.player)
        legal = state.legal_actions()
        rng = self.rng(state.information_state_string(self.player))
        if view.phase == rules.ACT:
            return self.choose_act(view, legal, rng)
        return self.choose_line(view, legal)

    def choose_line(self, view: SeatView, legal: list[int]) -> int:
        s = view.setup
        if view.alive(view.enemy) and s.accuse + view.enemy in legal:
            return s.accuse + view.enemy
        if view.alive(view.friend) and s.vouch + view.friend in legal:
            return s.vouch + view.friend
        return 0  # silent

    def choose_act(self, view: SeatView, legal: list[int], rng) -> int:
        s = view.setup
        others = view.others()
        friend, enemy = view.friend, view.enemy

        def pick(cogs: list[int]) -> int:
            # Cogs that accused this one first, then the weakest; then the RNG.
            best = min((c not in view.accusers, view.hp[c]) for c in cogs)
            return rng.choice([c for c in cogs if (c not in view.accusers, view.hp[c]) == best])

        weak = [c for c in others if view.hp[c] == 1]
        if enemy in weak:
            return s.head + enemy
        if [c for c in weak if c != friend]:
            return s.head + pick([c for c in weak if c != friend])
        if others == [friend] and friend in weak:
            return s.head + friend  # the last two: standing is worth more
        if s.pass_action in legal and len(others) + 1 >= PASS_TABLE and rng.random() < PASS_RATE:
            return s.pass_action
        if enemy in others:
            return s.head + enemy
        rest = [c for c in others if c != friend]
        if rest:
            return s.head + pick(rest)
        if s.hip + friend in legal:
            return s.hip + friend
        return s.head + friend


register_heuristic("fogboard_parley", ParleyHeuristic)

__all__ = ["ParleyHeuristic", "SeatView", "seat_view"]
