"""Terminal play and the Truth Replay (docs/bots.md#terminal-play).

    python -m fogboard_games play dark-hex-4 --opponent probe --seat 0 --save game.json
    python -m fogboard_games review game.json

`play`: a person takes one seat and types moves; bots of one kind fill
every other seat. The person is shown what a bot of that seat may know and
no more: its view and record, laid out by the ruleset (`Ruleset.for_person`
and `Ruleset.record`, from the seat's own strings), each new event as it
happens, and at the end who won and why (`Ruleset.verdict`). Every line
names seats by `Ruleset.seat_label`. At every prompt `help`, `rules`,
`history` and `quit` are commands; anything else that is not a legal move
is refused, listing the legal moves, and the game goes on unchanged.

`review`: reads a saved review (plain JSON, rebuilt through the rules by
`fogboard_games.load_review`, never unpickled) and prints its Truth Replay,
one line or block per turn with every hidden fact shown.
"""

from __future__ import annotations

import json
import random
import sys
from typing import TextIO

import fogboard_games
from fogboard_games import bots as bot_kinds
from fogboard_games.core import files
from fogboard_games.core.params import is_int
from fogboard_games.core.sampling import chance_outcome


class PlayError(ValueError):
    """A play or review request that cannot run."""


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
    if preset not in fogboard_games.PRESETS:
        raise PlayError(
            f"unknown preset {preset!r}; presets: {', '.join(sorted(fogboard_games.PRESETS))}"
        )
    game = fogboard_games.load(preset)
    n = game.num_players()
    if not is_int(seat) or not 0 <= seat < n:
        raise PlayError(f"--seat must be a seat 0..{n - 1} of {preset}, got {seat!r}")
    kinds = bot_kinds.kinds_for(game)  # (kinds that need options, as text, are not)
    if opponent not in kinds:
        raise PlayError(
            f"--opponent {opponent!r} does not play {preset}; kinds: {', '.join(kinds)}"
        )
    if save is not None:
        try:
            files.check_writable(save, "--save")  # now, not after the game is played
        except ValueError as e:
            raise PlayError(str(e)) from None
    others = {
        p: bot_kinds.make_bot(opponent, game, p, seed=seed + p) for p in range(n) if p != seat
    }
    rng = random.Random(seed)
    state = game.new_initial_state()
    person = Person(game.ruleset, seat)
    say = stdout.write
    bots = ", ".join(person.label(p) for p in others)
    say(
        f"{preset}: you are {person.label(seat)}; {opponent} plays {bots}.\n"
        f"Type a move, or {', '.join(COMMANDS)}.\n"
    )
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
            continue
        player = state.current_player()
        if player != seat:
            state.apply_action(others[player].step(state))
            continue
        say(person.news(state))
        legal = [state.action_to_string(player, a) for a in state.legal_actions()]
        say(f"\n{person.view(state)}\nlegal: {', '.join(legal)}\n")
        while True:
            say("your move> ")
            stdout.flush()
            line = stdin.readline()
            if not line:  # end of input
                say("\nend of input: game abandoned, nothing saved\n")
                return 1
            typed = line.strip(" \t\r\n")  # ASCII spaces: the moves' own rule
            try:
                action = state.string_to_action(typed)
            except ValueError:
                command = " ".join(typed.split()).lower()
                if command == "quit":
                    say("quit: game abandoned, nothing saved\n")
                    return 1
                if command in COMMANDS:
                    say(person.command(command, state))
                    continue
                say(
                    f"{typed!r} is not a legal move here; legal: {', '.join(legal)}\n"
                    f"(or a command: {', '.join(COMMANDS)})\n"
                )
                continue
            state.apply_action(action)
            say(person.news(state))  # what the move did: a collision, a call, a shot's result
            break
    say(person.news(state))
    say(f"\ngame over\n{person.view(state)}\n{person.verdict(state)}\n")
    say(f"returns {state.returns()}\n")
    if save:
        try:
            files.write_atomically(save, json.dumps(state.review(), indent=1) + "\n")
        except OSError as e:
            raise PlayError(f"--save {save!r}: {e.strerror or e}") from None
        say(f"review saved to {save} (python -m fogboard_games review {save})\n")
    return 0


# The commands of every prompt (a move spelled so is never legal: no ruleset has one).
COMMANDS = ("help", "rules", "history", "quit")


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
            return self.ruleset.for_person(state.truth, self.seat)
        return state.observation_string(self.seat).replace(" | ", "\n")

    def record(self, state) -> list[str]:
        if self.ruleset.record is not None:
            return self.ruleset.record(state.truth, self.seat)
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
        """What `help`, `rules` or `history` prints."""
        if command == "help":
            return (
                "type a move as the legal list spells it (case and spaces do not matter);\n"
                "rules: the rules in brief; history: what you have seen of this game so far;\n"
                "quit: end the game here (nothing is saved)\n"
            )
        if command == "rules":
            brief = self.ruleset.brief.rstrip("\n") or "(no brief for this game)"
            return f"{brief}\nthe whole rules: {self.ruleset.docs}\n"
        lines = self.record(state)
        return "".join(f"  {line}\n" for line in lines) if lines else "  (nothing yet)\n"


def read_review(path: str):
    """The finished state a saved review rebuilds (PlayError if it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as f:
            review = json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise PlayError(f"cannot read a review from {path}: {e}") from e
    try:
        return review, fogboard_games.load_review(review)
    except ValueError as e:
        raise PlayError(f"{path}: {e}") from e


def truth_replay(path: str) -> str:
    """The Truth Replay of a saved review: checked through the rules first."""
    review, state = read_review(path)
    ruleset = state.get_game().ruleset
    if ruleset.truth_replay is None:
        raise PlayError(f"{ruleset.short_name} has no Truth Replay")
    header = f"{state.get_game()}: returns {state.returns()}"
    return header + "\n" + ruleset.truth_replay(review)
