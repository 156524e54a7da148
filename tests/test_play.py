"""Terminal play (`python -m fogboard_games play`), and its saved game read back by `review`."""

from __future__ import annotations

import ast
import io
import json
import random
import re
import subprocess
import sys

import pytest

import fogboard_games
from fogboard_games import play, saved_review


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
    text = saved_review.truth_replay(str(save))
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


# One main preset per ruleset, and the seat the person takes.
MAIN = [
    ("phantom-ttt-3", 1),
    ("dark-hex-4", 0),
    ("recon-hex-5", 1),
    ("liars-dice", 0),
    ("mind-bluff", 1),
    ("mind-bluff-series", 0),
    ("parley", 2),
]


@pytest.mark.parametrize("preset,seat", MAIN)
def test_the_header_and_the_end_name_seats_by_their_labels(preset, seat):
    status, out = run(preset, seat=seat, seed=2)
    label = fogboard_games.load(preset).ruleset.seat_label
    head = out.splitlines()[0]
    assert status == 0 and head.startswith(f"{preset}: you are {label(seat)}; random plays ")
    others = [label(p) for p in range(fogboard_games.load(preset).num_players()) if p != seat]
    assert head.endswith(f"random plays {', '.join(others)}.")
    # The end says who won (the best returns) and why, after the game is over.
    end = out.split("\ngame over\n")[1].splitlines()
    verdict, returns = end[-2], ast.literal_eval(end[-1].removeprefix("returns "))
    best = [label(p) for p, r in enumerate(returns) if r == max(returns)]
    if len(best) == 1:
        assert re.fullmatch(
            re.escape(best[0]) + r" wins(: | the match with | the series \d-\d: ).+", verdict
        ), verdict
    else:
        assert re.fullmatch(r"a draw: .+|.+ share the win .+", verdict), verdict


def test_a_board_collision_is_announced_as_it_happens():
    # O (random moves, seed 0) tries a cell X holds, and is told so at once.
    status, out = run("phantom-ttt-3", seat=1, seed=0)
    assert status == 0
    said = r"your move>   try \d+: \w\d is taken by X: a collision, you move again\n"
    collision = re.search(said, out)
    assert collision, out
    # ... announced right after the move that hit it, before the next view.
    after = out[collision.end() :]
    assert after.startswith("\nO (seat 1) view:"), after[:80]


def test_hex_says_which_edges_each_side_joins():
    status, out = run("dark-hex-4", seed=1)
    assert status == 0
    assert "X (seat 0) joins the left edge (file a) to the right edge" in out
    assert "O (seat 1) joins the bottom edge (rank 1) to the top" in out


def test_liars_dice_shows_every_bid_of_the_round_and_names_the_final_call():
    status, out = run("liars-dice", seed=0)
    body, end = out.split("\ngame over\n")
    # (A line read from a pipe is not echoed: an announcement may follow the prompt.)
    bids = re.findall(r"(?:^|your move> )  P[01](?: \(you\))? bids \d+x\d$", body, re.M)
    assert len(bids) >= 2, body  # the round's earlier bids, not only the standing one
    call = re.search(r"  P[01](?: \(you\))? calls (liar|prophecy \d+x\d)\n", body)
    assert call and "  all dice shown: P0:" in body[call.end() :]
    assert re.search(r"wins: P[01] called (liar on P[01]'s bid|prophecy) ", end), end


def test_parley_announces_the_seats_own_miss_and_every_out():
    status, out = run("parley", seed=0, seat=0)
    body = out.split("\ngame over\n")[0]
    assert re.search(r"  C0 shoots C\d (hip|head): miss\n", body), body  # our own miss
    assert re.search(r"  C\d shoots C\d( hip| head)?: hit, C\d is OUT\n", body)
    assert re.search(r"^  points this round: C0 \d+, C1 \d+", body, re.M)


def test_parley_says_the_winner_and_a_tie_as_a_tie():
    from fogboard_games.parley.person import verdict

    class Totals:
        def __init__(self, *totals):
            self.returns = lambda: list(totals)

    assert (
        verdict(Totals(1, 4, 0, 7, 3)) == "C3 wins the match with 7 points (C1 next with 4 points)"
    )
    assert (
        verdict(Totals(4, 1, 4))
        == "C0 and C2 share the win with 4 points each (C1 next with 1 point)"
    )
    assert verdict(Totals(2, 2, 2)) == "C0 and C1 and C2 share the win with 2 points each"


@pytest.mark.parametrize("preset,seat", MAIN)
def test_commands_work_at_every_prompt_and_lose_nothing(preset, seat, tmp_path):
    plain = run(preset, seat=seat, seed=4)[1]
    typed = ["help\n", "rules\n", "  HISTORY \n", "nope\n"]
    status, out = run(preset, typed, seat=seat, seed=4)
    assert status == 0
    brief = fogboard_games.load(preset).ruleset.brief
    assert "type a move as the legal list spells it" in out and "quit: end the game here" in out
    assert brief.splitlines()[0] in out and "the whole rules: docs/" in out
    legal = plain.split("legal: ", 1)[1].splitlines()[0]
    assert f"'nope' is not a legal move here; legal: {legal}\n(or a command: " in out
    # The commands and the refusal changed nothing: the game then plays as without them.
    after = out.split("(or a command: help, rules, history, quit)\nyour move> ", 1)[1]
    assert after == plain.split("your move> ", 1)[1]
    # quit ends cleanly, saving nothing.
    save = tmp_path / "never.json"
    status, out = run(preset, ["quit\n"], seat=seat, save=str(save))
    assert status == 1 and out.endswith("your move> quit: game abandoned, nothing saved\n")
    assert not save.exists()


def test_history_is_the_seats_record_so_far():
    # (seed 3: P1 raises rather than calls, so a second prompt comes.)
    status, out = run("liars-dice", ["bid 1x2\n", "history\n"], seed=3)
    recorded = out.split("your move> ")[2]
    assert recorded == "  round 1\n  your hand is 23444\n  P0 (you) bids 1x2\n  P1 bids 4x1\n"


class Scripted:
    """A bot, and the chance sampler, that replay a history's actions."""

    def __init__(self, history):
        self.history = history

    def step(self, state):
        return self.history[len(state.history())]


def twin_histories(preset, seat, seed):
    """A random game's history up to the seat's last decision, a world the
    seat cannot tell from it with other hidden facts, and the seat's moves."""
    game, rng = fogboard_games.load(preset), random.Random(seed)
    state, last = game.new_initial_state(), None
    while not state.is_terminal():
        if state.current_player() == seat:
            last = state.clone()
        if state.is_chance_node():
            state.apply_action(play.chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for _ in range(50):
        twin = last.resample_from_infostate(seat, rng.random)
        if twin.history() != last.history():
            break
    else:
        raise AssertionError(f"{preset}: no twin with other hidden facts")
    moves = []
    replay = game.new_initial_state()
    for action in last.history():
        if replay.current_player() == seat:
            moves.append(replay.action_to_string(seat, action) + "\n")
        replay.apply_action(action)
    return last.history(), twin.history(), moves


# (and the presets with the rules the main ones leave off: rerolls, passes, dice mode)
@pytest.mark.parametrize("preset,seat", [*MAIN, ("liars-dice-table", 2), ("parley-tiny", 1)])
def test_no_line_shows_a_fact_the_seat_cannot_know(preset, seat, monkeypatch):
    # Twin games whose hidden facts differ but which the seat cannot tell
    # apart: every line printed up to its last decision is the same.
    true, twin, moves = twin_histories(preset, seat, seed=7)
    printed = []
    for history in (true, twin):
        bot = Scripted(history)
        monkeypatch.setattr(play, "chance_outcome", lambda state, rng, bot=bot: bot.step(state))
        monkeypatch.setattr(play.bot_kinds, "make_bot", lambda *args, bot=bot, **kwargs: bot)
        out = io.StringIO()
        status = play.play(
            preset, "random", seat=seat, stdin=io.StringIO("".join(moves)), stdout=out
        )
        assert status == 1  # the input ends at the seat's last decision
        printed.append(out.getvalue())
    assert printed[0].count("your move> ") == len(moves) + 1
    assert printed[0] == printed[1]


# ---- moves as help promises, log, names the command line takes ------------------------------


def loose_variants(move: str, rng: random.Random) -> str:
    """The move with each letter's ASCII case flipped at random and spaces put
    anywhere: what help says does not matter."""
    out = ""
    for char in move.replace(" ", ""):
        out += char.upper() if rng.random() < 0.5 else char.lower()
        out += " " * rng.choice([0, 0, 1, 2])
    return out


@pytest.mark.parametrize("preset", sorted(fogboard_games.PRESETS))
def test_a_move_is_read_whatever_its_case_and_spaces_as_help_promises(preset):
    rng = random.Random(7)
    out = io.StringIO()

    class Loose(io.StringIO):  # a legal move, spelled loosely
        def readline(self, *args):
            legal = out.getvalue().rsplit("legal: ", 1)[1].splitlines()[0].split(", ")
            return loose_variants(rng.choice(legal), rng) + "\n"

    assert play.play(preset, "random", seed=3, stdin=Loose(), stdout=out) == 0
    assert "not a legal move" not in out.getvalue() and "game over" in out.getvalue()


def test_a_loose_spelling_never_chooses_between_two_moves():
    # No preset has two legal moves that differ in ASCII case and spaces only
    # (so loosely never has to guess), and were there two, it would not guess.
    for preset in sorted(fogboard_games.PRESETS):
        game = fogboard_games.load(preset)
        for seed in range(5):
            state, rng = game.new_initial_state(), random.Random(seed)
            while not state.is_terminal():
                if not state.is_chance_node():
                    moves = play.legal_moves(state)
                    assert len({play.loosely(m) for m in moves}) == len(moves), preset
                state.apply_action(rng.choice(state.legal_actions()))
    state = fogboard_games.load("phantom-ttt-3").new_initial_state()
    person = play.Person(state.get_game().ruleset, 0)
    action, reply = play.answer("A 1\n", state, person, ["a1", "a 1"])
    assert action is None and reply == "'A 1' could be a1 or a 1: type one as listed\n"
    assert state.history() == []
    # ASCII case only: a look-alike stays itself (the Kelvin sign lowers to k in Unicode).
    assert play.loosely("\u212a 1") == "\u212a1" != play.loosely("K1") == "k1"
    action, reply = play.answer("\u212a1\n", state, person, ["k1"])
    assert action is None and "is not a legal move here" in reply


def test_log_is_the_record_the_boards_rules_call_a_log():
    status, out = run("liars-dice", ["bid 1x2\n", "log\n"], seed=3)
    recorded = out.split("your move> ")[2]
    assert recorded == "  round 1\n  your hand is 23444\n  P0 (you) bids 1x2\n  P1 bids 4x1\n"
    status, out = run("dark-hex-4", ["rules\n", "log\n"], seed=1)
    assert '"log" lists your own plies' in out  # (what the brief promises, the command gives)
    assert "  (nothing yet)\n" in out.split("your move> ")[2]
    assert "history (or log)" in run("dark-hex-4", ["help\n"])[1]


def test_play_takes_a_load_string_and_names_the_game_by_it():
    status, out = run("fogboard_dark_hex(num_rows=3,num_cols=4)", seat=1)
    assert status == 0
    assert out.startswith("fogboard_dark_hex(num_rows=3,num_cols=4): you are O (seat 1);")
    assert "game over" in out


@pytest.mark.parametrize(
    "name,message",
    [
        ("fogboard_dark_hex(board_size=99)", "parameter 'board_size' must be an int in 2..11"),
        ("fogboard_dark_hex(bogus=1)", "fogboard_dark_hex has no parameter 'bogus'; its param"),
        ("fogboard_dark_hex(board_size=3,board_size=4)", "names board_size twice"),
        ("fogboard_dark_hex(abrupt=yes)", "abrupt must be true or false, got 'yes'"),
        ("fogboard_dark_hex(board_size=x)", "board_size must be an int in 2..11, got 'x'"),
        ("fogboard_dark_hex(board_size)", "'board_size' is not key=value"),
        ("fogboard_dark_hex(board_size=3", "want NAME(key=value,...), such as fogboard_dark_hex"),
        ("dark_hex(board_size=3)", "'dark_hex' is not a fogboard game; games: fogboard_dark_hex"),
        ("fogboard_liars_dice(numdice=1,players=9)", "parameter 'players' must be an int in"),
    ],
)
def test_a_bad_load_string_is_refused_in_one_line_naming_what_is_wrong(name, message):
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "play", name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()  # one line, and nothing printed by OpenSpiel
    assert line.startswith(f"play: load string {name[:80]!r}"[:40]) and message in line, line
