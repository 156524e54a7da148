"""Bots see only their seat, by construction (docs/bots.md#fair-seats).

Every bot kind plays every preset with the true match out of reach while it
decides: inside `step`, `State.truth` raises, and so do the state's other
public ways past the seat (its string, history, serialization, clones and
resampler; `ismcts` keeps the last two, which it searches with) and every
read of another seat's strings, tensors or observer pieces. The heuristics build their
seat views from the seat's observer pieces, the text seat from its prompt,
`ismcts` from worlds the glue resamples, `cfr` from the information-state
string; none needs the truth. A second check reads the bots' source: no bot
module names the state's truth or its private match at all. `mcts` is left
out of both: the documented cheating baseline searches clones of the true
state, which is its point.
"""

from __future__ import annotations

import ast
import contextlib
import pathlib
import random

import pytest

import fogboard_games
from fogboard_games import bots
from fogboard_games.bots.base import seat_pieces
from fogboard_games.bots.text import MOVES_HEADER
from fogboard_games.core import glue
from fogboard_games.core.observer import PieceObserver
from fogboard_games.core.sampling import chance_outcome

CHEATING = {"mcts"}
OPTIONS = {"ismcts": {"simulations": 4}, "cfr": {"iterations": 2}}
SEARCHED = 40  # decisions a game for the search kinds; the others play whole games
PACKAGE = pathlib.Path(fogboard_games.__file__).parent


class TruthRead(AssertionError):
    pass


# Every public way from a state to its true match. `ismcts` keeps the last
# two: it searches clones of the worlds the glue resamples for its seat.
TRUTH = ("truth", "writable_truth")
BEYOND_THE_SEAT = ("__str__", "history", "serialize", "clone", "resample_from_infostate")


# What a seat may read of the live state, and only for itself.
SEAT_READS = (
    "information_state_string",
    "information_state_tensor",
    "observation_string",
    "observation_tensor",
)


@contextlib.contextmanager
def truth_out_of_reach(kind="", live=None, seat=None):
    """While a bot decides on `live` for `seat`: the truth and the state's
    other public ways past the seat raise, and so does any read of the live
    state's strings, tensors or observers for another seat."""

    def refuse(*args, **kwargs):
        raise TruthRead("a bot reached the true match while deciding")

    def own_seat_only(read):
        def guarded(state, player=None, *rest):
            if state is live and player is not None and player != seat:
                raise TruthRead(f"a bot for seat {seat} read seat {player}'s information")
            return read(state, player, *rest)

        return guarded

    def observer_own_seat_only(read):
        def guarded(observer, state, player):
            if state is live and player != seat:
                raise TruthRead(f"a bot for seat {seat} observed seat {player}")
            return read(observer, state, player)

        return guarded

    names = TRUTH + BEYOND_THE_SEAT[: 3 if kind == "ismcts" else None]
    # (history, serialize and clone are pyspiel.State's: set over them, then removed)
    saved = {name: glue.State.__dict__.get(name) for name in names + SEAT_READS}
    observed = {name: getattr(PieceObserver, name) for name in ("set_from", "string_from")}
    for name in names:
        setattr(glue.State, name, property(refuse) if name == "truth" else refuse)
    for name in SEAT_READS:
        setattr(glue.State, name, own_seat_only(saved[name]))
    for name, read in observed.items():
        setattr(PieceObserver, name, observer_own_seat_only(read))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                delattr(glue.State, name)
            else:
                setattr(glue.State, name, value)
        for name, read in observed.items():
            setattr(PieceObserver, name, read)


def first_legal(prompt: str) -> str:
    return "move: " + prompt.split(MOVES_HEADER, 1)[1].split("\n\n", 1)[0].splitlines()[1]


def make(kind, game, seat):
    if kind == "text":
        return bots.make_bot("text", game, seat, seed=seat, ask=first_legal, fallback="random")
    return bots.make_bot(kind, game, seat, seed=seat, **OPTIONS.get(kind, {}))


def play_guarded(game, kind, seed=0) -> int:
    """Plays one game (its first SEARCHED decisions for a search kind) with
    every seat a `kind` bot deciding under the guard; the decisions made."""
    decisions = SEARCHED if kind in ("ismcts", "cfr") else 10**6
    rng = random.Random(seed)
    players = [make(kind, game, p) for p in range(game.num_players())]
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
            continue
        mover = state.current_player()
        with truth_out_of_reach(kind, live=state, seat=mover):
            action = players[mover].step(state)
        state.apply_action(action)
        made += 1
    return made


CASES = [
    (preset, kind)
    for preset in sorted(fogboard_games.PRESETS)
    for kind in bots.kinds_for(fogboard_games.load(preset)) + ["text"]
    if kind not in CHEATING
]


@pytest.mark.parametrize("preset,kind", CASES, ids=[f"{p}-{k}" for p, k in CASES])
def test_every_fair_bot_plays_with_the_truth_out_of_reach(preset, kind, tmp_path, monkeypatch):
    monkeypatch.setenv("FOGBOARD_GAMES_CACHE", str(tmp_path))  # cfr solves afresh
    game = fogboard_games.load(preset)
    assert play_guarded(game, kind) > 0


def test_the_cases_cover_every_kind_but_the_cheat():
    kinds = {k for _, k in CASES}
    assert {"random", "heuristic", "probe", "sweep", "ismcts", "cfr", "text"} <= kinds
    assert not kinds & CHEATING


def test_the_guard_catches_a_bot_that_reads_the_truth():
    class Peeker(bots.SeatBot):
        kind = "peeker"

        def decide(self, state):
            state.truth  # noqa: B018  (the read is the point)
            return state.legal_actions()[0]

    game = fogboard_games.load("liars-dice-1")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    with truth_out_of_reach(), pytest.raises(TruthRead):
        Peeker(game, state.current_player()).step(state)
    assert state.truth is not None  # restored after the guard
    for name in BEYOND_THE_SEAT:
        with truth_out_of_reach(), pytest.raises(TruthRead):
            getattr(state, name)()


@pytest.mark.parametrize(
    "peek",
    [
        lambda state, other: seat_pieces(state, other),
        lambda state, other: seat_pieces(state, other, recall=False),
        lambda state, other: state.information_state_string(other),
        lambda state, other: state.information_state_tensor(other),
        lambda state, other: state.observation_string(other),
        lambda state, other: state.observation_tensor(other),
    ],
    ids=["pieces", "current-pieces", "string", "tensor", "obs-string", "obs-tensor"],
)
def test_the_guard_catches_a_bot_that_reads_another_seat(peek):
    game = fogboard_games.load("liars-dice-1")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    with truth_out_of_reach(live=state, seat=seat):
        peek(state, seat)  # its own seat: allowed
        with pytest.raises(TruthRead):
            peek(state, 1 - seat)
    peek(state, 1 - seat)  # restored after the guard


def bot_modules() -> list[pathlib.Path]:
    """Every module that holds a bot: the bots package and each ruleset's bots."""
    return sorted((PACKAGE / "bots").glob("*.py")) + sorted(PACKAGE.glob("*/bots.py"))


def truth_reads(path: pathlib.Path) -> list[str]:
    """`x.truth`, `x._m` and `x.writable_truth` in a module's source."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in ("truth", "_m", "writable_truth"):
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return found


def test_no_bot_module_names_the_truth():
    modules = bot_modules()
    assert len(modules) >= 8  # base, text, search, cfr and four rulesets' bots
    reads = [r for path in modules for r in truth_reads(path)]
    assert not reads, reads


def test_the_source_check_sees_a_truth_read(tmp_path):
    cheat = tmp_path / "bots.py"
    cheat.write_text("def view(state):\n    return state.truth.hands\n")
    assert truth_reads(cheat) == ["bots.py:2 .truth"]
