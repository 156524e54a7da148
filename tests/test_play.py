"""Terminal play and the Truth Replay (`python -m fogboard_games play | review`)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

import fogboard_games
from fogboard_games import play


class Typist(io.StringIO):
    """Standard input that types a legal move (read off the prompt) or a set line."""

    def __init__(self, out: io.StringIO, lines=(), seed=0):
        super().__init__()
        self.out, self.lines, self.rng = out, list(lines), random.Random(seed)

    def readline(self, *args):
        if self.lines:
            return self.lines.pop(0)
        legal = self.out.getvalue().rsplit("legal: ", 1)[1].splitlines()[0].split(", ")
        return self.rng.choice(legal) + "\n"


def run(preset, lines=(), **kwargs):
    out = io.StringIO()
    status = play.play(
        preset, kwargs.pop("opponent", "random"), stdin=Typist(out, lines), stdout=out, **kwargs
    )
    return status, out.getvalue()


def test_a_mistyped_move_is_refused_repeating_it_and_listing_the_legal_moves():
    status, out = run("phantom-ttt-3", ["  d9 \n", "C1\n"], seed=1)
    assert status == 0
    assert "'d9' is not a legal move here; legal: a1, b1, c1, a2, b2, c2, a3, b3, c3" in out
    assert "game over" in out and "returns [" in out


def test_end_of_input_ends_cleanly_and_saves_nothing(tmp_path):
    out = io.StringIO()
    save = tmp_path / "never.json"
    status = play.play("liars-dice-1", "random", stdin=io.StringIO(""), stdout=out, save=str(save))
    assert status == 1 and "end of input: game abandoned, nothing saved" in out.getvalue()
    assert not save.exists()


@pytest.mark.parametrize(
    "preset,seat",
    [("dark-hex-4", 1), ("liars-dice-1", 0), ("mind-bluff-tiny", 1), ("parley-tiny", 2)],
)
def test_a_whole_game_is_saved_and_its_truth_replay_shows_it(preset, seat, tmp_path):
    save = tmp_path / "game.json"
    status, out = run(preset, seat=seat, seed=3, save=str(save), opponent="heuristic")
    assert status == 0 and f"review saved to {save}" in out
    review = json.loads(save.read_text())
    state = fogboard_games.load_review(review)
    assert state.is_terminal()
    # The Truth Replay opens with the game and the returns the game printed
    # when it ended (`out`), not ones recomputed the way the replay does.
    (printed,) = [line for line in out.splitlines() if line.startswith("returns ")]
    text = play.truth_replay(str(save))
    assert text.splitlines()[0] == f"{state.get_game()}: {printed}"
    assert len(text.splitlines()) > 2


def test_the_player_sees_only_its_own_seat():
    # Liar's Dice: the view before each bid shows our hand, never the other
    # one, until the showdown that ends the round shows both.
    status, out = run("liars-dice-1", seed=5)
    assert status == 0
    before_show, show = out.split("all dice shown: ")
    views = [line for line in before_show.splitlines() if line.startswith("your hand ")]
    assert views and "P1:" not in before_show, before_show
    assert show.startswith("P0:") and "P1:" in show


def test_truth_replay_refuses_a_bad_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fogboard_games.review.v1", "game": "fogboard_parley"}')
    with pytest.raises(play.PlayError, match="bad.json"):
        play.truth_replay(str(bad))
    with pytest.raises(play.PlayError, match="cannot read a review"):
        play.truth_replay(str(tmp_path / "missing.json"))


@pytest.mark.parametrize(
    "args,message",
    [
        (["play", "nope"], "play: unknown preset 'nope'"),
        (["play", "dark-hex-4", "--seat", "2"], "play: --seat must be a seat 0..1 of dark-hex-4"),
        (["play", "liars-dice", "--opponent", "probe"], "--opponent 'probe' does not play"),
        (["review", "/nonexistent.json"], "review: cannot read a review"),
        # Refused before the game is played, not after.
        (["play", "dark-hex-4", "--save", "/nonexistent/g.json"], "its directory does not exist"),
    ],
)
def test_cli_refusals_are_one_line(args, message):
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_cli_plays_from_standard_input(tmp_path):
    save = tmp_path / "g.json"
    moves = "\n".join(["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"] * 2) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "play", "phantom-ttt-3", "--opponent", "sweep"]
        + ["--save", str(save)],
        input=moves,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    review = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "review", str(save)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert review.returncode == 0 and "ply 1: seat 0 tries a1: placed" in review.stdout
