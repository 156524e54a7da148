"""Terminal play (docs/bots.md#terminal-play).

    python -m fogboard_games play dark-hex-4 --opponent probe --seat 0 --save game.json

A person takes one seat and types moves; bots of one kind fill every
other seat. The person is shown what a bot of that seat may know and no
more: its view and record, laid out by the ruleset (`Ruleset.for_person`
and `Ruleset.record`, from the seat's own strings), each new event as it
happens, and at the end who won and why (`Ruleset.verdict`). Every line
names seats by `Ruleset.seat_label`. At every prompt `help`, `rules`,
`history` (or `log`) and `quit` are commands; a move may be typed in any
ASCII case and with spaces anywhere; anything else that is not a legal move
is refused, listing the legal moves, and the game goes on unchanged.
`--save` writes the finished game's review, which `review` reads back
(saved_review.py). `play --web` is the same game in a browser (pages/web_play.py).
"""

from __future__ import annotations

import json
import random
import string
import sys
from typing import TextIO

from fogboard_games import bots as bot_kinds
from fogboard_games.core import files
from fogboard_games.core.guards import quoted
from fogboard_games.core.named import load_named
from fogboard_games.core.params import is_int
from fogboard_games.core.review import HUMAN, with_seat_kinds, with_transcripts
from fogboard_games.core.sampling import chance_outcome


class PlayError(ValueError):
    """A play request that cannot run. `whole`: its message quotes
    nothing long (names through guards.quoted), so the command line shows it
    whole rather than cut like one that quotes a stranger's long value."""

    def __init__(self, message: str, whole: bool = False):
        super().__init__(message)
        self.whole = whole


def play(
    preset: str,
    opponent: str,
    seat: int = 0,
    seed: int = 0,
    save: str | None = None,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
) -> int:
    """Play one game in the terminal; returns the exit status (0, or 1 at end of input or `quit`)."""
    game, others, rng = setup(preset, opponent, seat, seed, save)
    state = game.new_initial_state()
    person = Person(game.ruleset, seat)
    say = stdout.write
    say(greeting(preset, opponent, person, others))
    while True:
        advance(state, seat, others, rng)
        if state.is_terminal():
            break
        say(person.news(state))
        legal = legal_moves(state)
        say(f"\n{person.view(state)}\nlegal: {', '.join(legal)}\n")
        while True:
            say("your move> ")
            stdout.flush()
            line = stdin.readline()
            if not line:  # end of input
                say("\nend of input: game abandoned, nothing saved\n")
                return 1
            action, reply = answer(line, state, person, legal)
            say(reply)
            if action == QUIT:
                return 1
            if action not in (None, COMMAND):
                break
    say(ending(state, person))
    if save:
        say(save_review(final_review(state, others, opponent), save))
    return 0


def setup(preset: str, opponent: str, seat: int, seed: int, save: str | None):
    """The game, the bots of the other seats by seat, and chance's rng; PlayError,
    before anything is played, for a bad preset, seat, opponent or --save path."""
    try:
        game = load_named(preset)
    except ValueError as e:
        raise PlayError(str(e), whole=True) from None
    n = game.num_players()
    if not is_int(seat) or not 0 <= seat < n:
        raise PlayError(f"--seat must be a seat 0..{n - 1} of {preset}, got {seat!r}", whole=True)
    kinds = bot_kinds.kinds_for(game)  # (kinds that need options, as text, are not)
    if opponent not in kinds:
        raise PlayError(
            f"--opponent {quoted(opponent)} does not play {preset}: {_why_not(opponent, kinds)}",
            whole=True,
        )
    if save is not None:
        try:
            files.check_writable(save, "--save")  # now, not after the game is played
        except ValueError as e:
            raise PlayError(str(e)) from None
    others = {
        p: bot_kinds.make_bot(opponent, game, p, seed=seed + p) for p in range(n) if p != seat
    }
    return game, others, random.Random(seed)


def _why_not(opponent: str, kinds: list[str]) -> str:
    """Why a kind cannot be the opponent: no such kind, one that needs options, or another game's."""
    factory = bot_kinds.BOT_KINDS.get(opponent)
    if factory is None:
        known = sorted(k for k, f in bot_kinds.BOT_KINDS.items() if not getattr(f, "requires", ()))
        return f"there is no bot kind {quoted(opponent)}; known kinds: {', '.join(known)}"
    needs = getattr(factory, "requires", ())
    if needs:
        return f"it needs options play cannot give ({', '.join(needs)}); kinds that play it: {', '.join(kinds)}"
    return f"kinds that play it: {', '.join(kinds)}"


def greeting(preset: str, opponent: str, person, others) -> str:
    bots = ", ".join(person.label(p) for p in others)
    return (
        f"{preset}: you are {person.label(person.seat)}; {opponent} plays {bots}.\n"
        f"Type a move, or {', '.join(COMMANDS)}.\n"
    )


def advance(state, seat: int, others, rng) -> None:
    """Chance and the bots play until it is `seat`'s turn or the game is over."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
            continue
        player = state.current_player()
        if player == seat:
            return
        state.apply_action(others[player].step(state))


def legal_moves(state) -> list[str]:
    player = state.current_player()
    return [state.action_to_string(player, a) for a in state.legal_actions()]


# What `answer` returns in place of an action for `quit` and for another command.
QUIT, COMMAND = "quit", "command"


def answer(line: str, state, person, legal: list[str]):
    """A typed line, checked through string_to_action: (the action, played,
    and what it did), (COMMAND, its output), (None, the refusal) or (QUIT,
    the farewell); only a legal move changes the state."""
    typed = line.strip(" \t\r\n")  # ASCII spaces: the moves' own rule
    try:
        action = state.string_to_action(typed)
    except ValueError:
        # As help promises: ASCII case and spaces aside ("c 3", "C3", "BID 2X5"),
        # the one legal move so spelled; never a guess between two.
        meant = [move for move in legal if loosely(move) == loosely(typed)]
        if len(meant) == 1:
            action = state.string_to_action(meant[0])
        else:
            command = " ".join(typed.split()).lower()
            command = ALIASES.get(command, command)
            if command == "quit":
                return QUIT, "quit: game abandoned, nothing saved\n"
            if command in COMMANDS:
                return COMMAND, person.command(command, state)
            if meant:
                return None, f"{typed!r} could be {' or '.join(meant)}: type one as listed\n"
            return None, (
                f"{typed!r} is not a legal move here; legal: {', '.join(legal)}\n"
                f"(or a command: {', '.join(COMMANDS)})\n"
            )
    state.apply_action(action)
    return action, person.news(state)  # what the move did: a collision, a call, a shot's result


ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def loosely(move: str) -> str:
    """A move string with ASCII case and ASCII spaces aside, as `help` says they
    do not matter (ASCII only: a look-alike, such as the Kelvin sign for K,
    stays itself and matches nothing)."""
    return move.translate(ASCII_LOWER).replace(" ", "").replace("\t", "")


def ending(state, person) -> str:
    """What the end of a game prints: the last news, the view, who won and why, the returns."""
    return (
        person.news(state)
        + f"\ngame over\n{person.view(state)}\n{person.verdict(state)}\n"
        + f"returns {state.returns()}\n"
    )


def final_review(state, others, opponent: str | None = None) -> dict:
    """A finished game's review, with what its text seats said (say, notes,
    fell_back: docs/reviews.md) when one of `others` (seat: bot) is a text
    seat; with `opponent` (the kind of `others`), naming who sat in each
    seat: "human" and that kind (`seat_kinds`)."""
    review = state.review()
    if opponent is not None:
        n = state.get_game().num_players()
        review = with_seat_kinds(review, [opponent if p in others else HUMAN for p in range(n)])
    said = {p: bot.transcript for p, bot in others.items() if hasattr(bot, "transcript")}
    return with_transcripts(review, said) if said else review


def save_review(review: dict, save: str) -> str:
    """Write a finished game's review to `save` (PlayError if it cannot be); what to tell."""
    try:
        files.write_atomically(save, json.dumps(review, indent=1) + "\n")
    except OSError as e:
        raise PlayError(f"--save {save!r}: {e.strerror or e}") from None
    return f"review saved to {save} (python -m fogboard_games review {save})\n"


# The commands of every prompt (a move spelled so is never legal: no ruleset has one).
COMMANDS = ("help", "rules", "history", "quit")
# Other names of a command: the boards' rules brief (`rules`) calls a seat's
# own record of its plies and their results its log.
ALIASES = {"log": "history"}


class Person:
    """What terminal play shows the person at `seat`: only what that seat knows.

    The ruleset's `for_person`, `record` and `verdict` when it declares
    them; otherwise the seat's observation string, its information-state
    string part by part, and the returns.
    """

    def __init__(self, ruleset, seat: int):
        self.ruleset, self.seat = ruleset, seat
        self.label = ruleset.seat_label or (lambda p: f"seat {p}")
        self.told: list[str] = []  # the record lines announced so far

    def view(self, state) -> str:
        if self.ruleset.for_person is not None:
            # The seat's own string and the game's fixed facts, never the match.
            observation = state.observation_string(self.seat)
            return self.ruleset.for_person(state.get_game().setup, observation, self.seat)
        return state.observation_string(self.seat).replace(" | ", "\n")

    def record(self, state) -> list[str]:
        if self.ruleset.record is not None:
            info_state = state.information_state_string(self.seat)
            return self.ruleset.record(state.get_game().setup, info_state, self.seat)
        return state.information_state_string(self.seat).split(" | ")[1:]

    def news(self, state) -> str:
        """The record lines new or changed since the last call (a line grows as
        a turn goes on, as Mind Bluff's claim, response and verdict do)."""
        lines = self.record(state)
        same = 0
        while same < min(len(lines), len(self.told)) and lines[same] == self.told[same]:
            same += 1
        self.told = lines
        return "".join(f"  {line}\n" for line in lines[same:])

    def verdict(self, state) -> str:
        """Who won and why (every seat may know it: the game is over)."""
        if self.ruleset.verdict is not None:
            return self.ruleset.verdict(state.truth)
        returns = state.returns()
        best = [p for p, r in enumerate(returns) if r == max(returns)]
        if len(best) == len(returns):
            return f"a tie: every seat scores {returns[0]:g}"
        names = " and ".join(self.label(p) for p in best)
        verb = "wins" if len(best) == 1 else "share the win"
        return f"{names} {verb} with {max(returns):g}"

    def command(self, command: str, state) -> str:
        """What `help`, `rules` or `history` (`log`) prints."""
        if command == "help":
            return (
                "type a move as the legal list spells it (case and spaces do not matter);\n"
                "rules: the rules in brief; history (or log): the moves of this game so far\n"
                "as you saw them, nothing you could not see; quit: end the game here\n"
                "(nothing is saved)\n"
            )
        if command == "rules":
            brief = self.ruleset.brief.rstrip("\n") or "(no brief for this game)"
            return f"{brief}\nthe whole rules: {self.ruleset.docs}\n"
        lines = self.record(state)
        return "".join(f"  {line}\n" for line in lines) if lines else "  (nothing yet)\n"
