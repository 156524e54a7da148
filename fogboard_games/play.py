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

import codecs
import json
import os
import random
import sys
from typing import TextIO

import fogboard_games
from fogboard_games import bots as bot_kinds
from fogboard_games.core.guards import MAX_DEPTH, nesting_too_deep, shortened
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
    if save and not os.path.isdir(os.path.dirname(os.path.abspath(save))):
        # Found out now, not after the game is played.
        raise PlayError(f"--save {save!r}: its directory does not exist")
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
            with open(save, "w", encoding="utf-8") as f:
                json.dump(state.review(), f, indent=1)
                f.write("\n")
        except OSError as e:
            raise PlayError(f"--save {save!r}: {e.strerror or e}") from None
        say(f"review saved to {save} (python -m fogboard_games review {save})\n")
    return 0


# A review is a few kB (a random liars-dice-table game about 30): anything
# far larger is not one, and is refused before it is read whole (/dev/zero).
MAX_REVIEW_BYTES = 16 * 2**20


def read_review(path: str):
    """The finished state a saved review rebuilds (PlayError, one line, if it cannot be read).

    The text is read as bytes up to a bound and checked for nesting before
    json parses it (its parser recurses once per bracket), and ints longer
    than any 64-bit one are refused as they are parsed (Python refuses to
    convert 4,300 digits), so a hostile file meets a message, never a traceback.
    """
    where = f"cannot read a review from {path}"
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_REVIEW_BYTES + 1)
    except OSError as e:
        raise PlayError(f"{where}: {e.strerror or e}") from None
    if len(data) > MAX_REVIEW_BYTES:
        raise PlayError(f"{where}: larger than {MAX_REVIEW_BYTES} bytes; a review is a few kB")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0  # (as editors write)
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        at = bom + e.start  # (the file's own offset)
        raise PlayError(
            f"{where}: byte {at} (0x{data[at]:02x}) is not UTF-8; a review is UTF-8 JSON"
        ) from None
    deep = nesting_too_deep(text)
    if deep is not None:
        raise PlayError(
            f"{where}: nested deeper than {MAX_DEPTH} levels at char {deep}; a review nests a few"
        )

    def parse_int(digits: str) -> int:
        if len(digits.lstrip("-")) > 20:  # (ints up to 20 digits reach the field checks)
            raise PlayError(
                f"{where}: an int of {len(digits.lstrip('-'))} digits; a review's ints have "
                "at most 64 bits"
            )
        return int(digits)

    try:
        review = json.loads(text, parse_int=parse_int)
    except json.JSONDecodeError as e:
        raise PlayError(f"{where}: not JSON ({e}); a review is a JSON object") from None
    try:
        return review, fogboard_games.load_review(review)
    except ValueError as e:
        raise PlayError(f"{path}: {shortened(e)}") from None


def truth_replay(path: str) -> str:
    """The Truth Replay of a saved review: checked through the rules first."""
    review, state = read_review(path)
    ruleset = state.get_game().ruleset
    if ruleset.truth_replay is None:
        raise PlayError(f"{ruleset.short_name} has no Truth Replay")
    header = f"{state.get_game()}: returns {state.returns()}"
    return header + "\n" + ruleset.truth_replay(review)
