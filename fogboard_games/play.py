"""Terminal play and the Truth Replay (docs/bots.md#terminal-play).

    python -m fogboard_games play dark-hex-4 --opponent probe --seat 0 --save game.json
    python -m fogboard_games review game.json

`play`: a person takes one seat and types action strings; bots of one kind
fill every other seat. The person sees only their seat's view: the
observation string and the legal moves, before each of their decisions,
and what the game paid at the end (every other seat's moves reach them
only through that string, as the rules show them). A mistyped or illegal
move is refused with a message that repeats what was typed and lists the
legal moves; the end of input (Ctrl-D) ends the program cleanly, saving
nothing. At the end of a game its review is written to `--save`.

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
    """Play one game in the terminal; returns the exit status (0, or 1 at end of input)."""
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
    say = stdout.write
    say(
        f"{preset}: you are seat {seat}; {opponent} plays the other seats. Type a move, Ctrl-D quits.\n"
    )
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
            continue
        player = state.current_player()
        if player != seat:
            state.apply_action(others[player].step(state))
            continue
        legal = [state.action_to_string(player, a) for a in state.legal_actions()]
        say(f"\n{state.observation_string(seat)}\nlegal: {', '.join(legal)}\n")
        while True:
            say("your move> ")
            stdout.flush()
            line = stdin.readline()
            if not line:  # end of input
                say("\nend of input: game abandoned, nothing saved\n")
                return 1
            typed = line.strip()
            try:
                action = state.string_to_action(typed)
            except ValueError:
                say(f"{typed!r} is not a legal move here; legal: {', '.join(legal)}\n")
                continue
            state.apply_action(action)
            break
    say(f"\ngame over: {state.observation_string(seat)}\nreturns {state.returns()}\n")
    if save:
        try:
            files.write_atomically(save, json.dumps(state.review(), indent=1) + "\n")
        except OSError as e:
            raise PlayError(f"--save {save!r}: {e.strerror or e}") from None
        say(f"review saved to {save} (python -m fogboard_games review {save})\n")
    return 0


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
