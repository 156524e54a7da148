"""Bots for every fogboard game, and the plumbing they share (docs/boards_bots_and_engine_logs.md).

`SeatBot` is a pyspiel.Bot that decides only from its own seat's view of a
state: `pyspiel.evaluate_bots` tells every bot every chance outcome and every
opponent move, hidden ones included, through `inform_action`; a SeatBot
ignores all of it. It checks its game, seat and seed when made, counts the
games it has started (`restart`, `restart_at`) so that tie-breaks vary from
game to game, and draws every random choice from an RNG seeded by (seed,
games started, a key of the decision), so its moves are a function of its
seed and of what its seat knows.

`make_bot(kind, game, player, seed=0, **options)` makes a bot by kind:
`random` for every game, `heuristic` for every game whose ruleset registered
one with `register_heuristic` (the boards: `probe`; Mind Bluff, Parley and
Liar's Dice: the bots in their `bots` modules), and the kinds each ruleset
registers with `register_kind` (the boards: `probe`, `sweep`). `text` plays
every game: a seat whose moves come from a callable that answers a prompt
with text (`make_bot("text", game, player, seed, ask=ask)`, see
`bots.text`); `llm` plays every game: a text seat whose replies come from
an OpenAI-compatible endpoint (`bots.llm`; `llm:NAME` kinds are registered
from a configuration file by `bots.llm.prepare`); `kinds_for(game)` lists
the kinds made from (game, player, seed) alone, so not `text`, which needs
its `ask`, nor `llm`, which needs its endpoint.
`evaluate_bots(state, bots, seed)` is pyspiel.evaluate_bots with the bots
checked first: pyspiel crashes the process when handed fewer bots than
players.
"""

from __future__ import annotations

from fogboard_games.bots import cfr, llm, search, text
from fogboard_games.bots.base import (
    BOT_KINDS,
    HEURISTICS,
    RandomBot,
    SeatBot,
    evaluate_bots,
    kinds_for,
    make_bot,
    register_heuristic,
    register_kind,
)

register_kind("text", text.TextBot)
register_kind("mcts", search.MCTSBot)
register_kind("ismcts", search.ISMCTSBot)
register_kind("cfr", cfr.CFRBot)
register_kind("llm", llm.LLMBot)

__all__ = [
    "BOT_KINDS",
    "HEURISTICS",
    "RandomBot",
    "SeatBot",
    "evaluate_bots",
    "kinds_for",
    "make_bot",
    "register_heuristic",
    "register_kind",
]
