"""Text seats (fogboard_games.bots.text): prompts, replies, retries, fallbacks, engine logs."""

from __future__ import annotations

import json
import os
import pathlib
import random
import re
import subprocess
import sys
import threading
import time
import zlib

import pyspiel
import pytest

import fogboard_games
from fogboard_games import bots
from fogboard_games.boards import engine_log as R
from fogboard_games.bots import text
from fogboard_games.core.registry import GAMES
from fogboard_games.core.testing import play

LEGAL_HEADER = text.MOVES_HEADER + "\n"


def legal_of(prompt: str) -> list[str]:
    """The legal moves a first prompt lists (what a stand-in model reads)."""
    return prompt.split(LEGAL_HEADER, 1)[1].split("\n\n", 1)[0].splitlines()


class Script:
    """A stand-in for a model: answers with `replies` in turn (a callable
    reply is called with the prompt; an exception instance is raised), then
    with the first legal move; records every prompt."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.replies:
            return f"move: {legal_of(prompt)[0]}"
        reply = self.replies.pop(0)
        if isinstance(reply, BaseException):
            raise reply
        return reply(prompt) if callable(reply) else reply


def first_legal(prompt: str) -> str:
    return f"move: {legal_of(prompt)[0]}"


def text_bot(game, player=0, seed=0, ask=first_legal, **options):
    options.setdefault("fallback", "random")
    return bots.make_bot("text", game, player, seed, ask=ask, **options)


def mind_bluff_state():
    game = fogboard_games.load("mind-bluff-tiny")
    return game, play(game, ["eat 2", "claim 3", "doubt", "eat 1", "claim 1", "believe"])


# ---- the prompt ---------------------------------------------------------------------


def test_prompt_holds_the_brief_the_seat_the_info_string_the_legal_moves_and_the_format():
    game, state = mind_bluff_state()
    assert state.current_player() == 0
    ask = Script()
    bot = text_bot(game, 0, ask=ask)
    action = bot.step(state)
    prompt = ask.prompts[0]
    legal = [state.action_to_string(0, a) for a in state.legal_actions()]
    info = state.information_state_string(0)
    assert game.ruleset.brief and game.ruleset.brief.strip() in prompt
    assert "\nWHO YOU ARE\nYou are P1 (seat 0).\n" in prompt
    assert f"(your information state, verbatim)\n{info}\n" in prompt
    assert legal_of(prompt) == legal == ["eat 1", "eat 2", "eat 3", "all done"]
    assert "move: <one legal move, spelled as listed above>" in prompt
    assert '{"move": "<one legal move>"' in prompt
    # Made from the four parts and nothing else.
    assert prompt == text.build_prompt(
        game.ruleset.brief, "P1 (seat 0)", info, legal, game.get_parameters()
    )
    assert "THIS GAME'S PARAMETERS\nfirst_player=0, max_eat=3, start=6, start_spread=0" in prompt
    assert action == state.legal_actions()[0]


SHIPPED = (
    "fogboard_phantom_ttt",
    "fogboard_dark_hex",
    "fogboard_recon_hex",
    "fogboard_liars_dice",
    "fogboard_mind_bluff",
    "fogboard_mind_bluff_series",
    "fogboard_parley",
)


def test_every_game_has_a_brief_of_10_to_20_lines():
    for short_name in SHIPPED:
        brief = GAMES[short_name].ruleset.brief
        lines = brief.strip().splitlines()
        assert 10 <= len(lines) <= 20, (short_name, len(lines))
        assert all(len(line) <= 100 for line in lines), short_name


def test_every_game_names_its_seats_as_its_strings_do():
    """Each shipped ruleset states its seat labels (Ruleset.seat_label), with the
    name the game's strings use."""
    boards = ["X (seat 0)", "O (seat 1)"]
    mind_bluff = ["P1 (seat 0)", "P2 (seat 1)"]
    labels = {
        "fogboard_phantom_ttt": boards,
        "fogboard_dark_hex": boards,
        "fogboard_recon_hex": boards,
        "fogboard_liars_dice": [f"seat {p} (P{p} in the record of bids)" for p in (0, 1)],
        "fogboard_mind_bluff": mind_bluff,
        "fogboard_mind_bluff_series": mind_bluff,
        "fogboard_parley": [f"C{p}" for p in range(5)],
    }
    assert sorted(labels) == sorted(SHIPPED)
    for short_name, want in labels.items():
        game = pyspiel.load_game(short_name)
        assert [text.seat_label(game, p) for p in range(game.num_players())] == want


def test_a_game_without_a_brief_says_to_follow_the_legal_list():
    game = pyspiel.load_game("kuhn_poker")  # no ruleset, so no brief
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    ask = Script("move: Bet")
    bot = text_bot(game, 0, ask=ask)
    assert bot.step(state) == 1
    assert text.NO_BRIEF in ask.prompts[0]
    assert legal_of(ask.prompts[0]) == ["Pass", "Bet"]
    assert "\nYou are seat 0.\n" in ask.prompts[0]


def test_twin_liars_dice_states_give_the_same_prompt():
    """The opponent's dice differ, seat 0's information state does not."""
    game = fogboard_games.load("liars-dice")
    a = play(game, [f"roll {f}" for f in (1, 2, 3, 4, 5, 6, 6, 6, 6, 6)])
    b = play(game, [f"roll {f}" for f in (1, 2, 3, 4, 5, 1, 1, 2, 2, 3)])
    assert a.information_state_string(0) == b.information_state_string(0)
    assert str(a) != str(b)
    bot = text_bot(game, 0)
    assert bot.prompt(a)[0] == bot.prompt(b)[0]
    asks = Script(), Script()
    text_bot(game, 0, ask=asks[0]).step(a)
    text_bot(game, 0, ask=asks[1]).step(b)
    assert asks[0].prompts == asks[1].prompts
    assert "66666" not in asks[0].prompts[0] and "11223" not in asks[1].prompts[0]
    # And the seat's own dice do show.
    c = play(game, [f"roll {f}" for f in (6, 2, 3, 4, 5, 6, 6, 6, 6, 6)])
    assert bot.prompt(c)[0] != bot.prompt(a)[0]


def parley_dealt(cards, it=0):
    game = fogboard_games.load("parley")
    state = game.new_initial_state()
    for c, (f, e) in enumerate(cards):
        state.apply_action(state.string_to_action(f"deal C{c}: friend C{f} enemy C{e}"))
    state.apply_action(state.string_to_action(f"IT C{it}"))
    return game, state


def test_twin_parley_states_give_the_same_prompt():
    """Another cog's cards differ (C1 and C3 swap theirs), C0's view does not."""
    game, a = parley_dealt([(1, 2), (3, 4), (0, 4), (1, 0), (2, 3)])
    _, b = parley_dealt([(1, 2), (2, 0), (0, 4), (4, 2), (2, 3)])
    for s in (a, b):
        s.apply_action(s.string_to_action("accuse C3"))
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    asks = Script(), Script()
    text_bot(game, 0, ask=asks[0]).step(a)
    text_bot(game, 0, ask=asks[1]).step(b)
    assert asks[0].prompts == asks[1].prompts
    assert "friend C1 enemy C2" in asks[0].prompts[0]  # C0's own cards
    assert "friend C3" not in asks[0].prompts[0]  # C1's are never there


def test_parley_prompts_name_only_the_cogs():
    game = fogboard_games.load("parley")
    asks = {}
    players = []
    for p in range(game.num_players()):
        asks[p] = Script(*[_say_and_move] * 5)
        players.append(text_bot(game, p, seed=3, ask=asks[p]))
    bots.evaluate_bots(game.new_initial_state(), players, 3)
    cogs = {f"C{i}" for i in range(game.num_players())}
    for p, ask in asks.items():
        assert ask.prompts
        for prompt in ask.prompts:
            assert f"\nWHO YOU ARE\nYou are C{p}.\n" in prompt
            assert set(re.findall(r"\bC\d+\b", prompt)) <= cogs
            assert "seat" not in prompt.lower()
            assert not re.search(r"\bP\d\b|\bplayer \d", prompt)


def _say_and_move(prompt):
    return f"say: I trust nobody\nmove: {legal_of(prompt)[-1]}"


# ---- replies ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply, say, notes",
    [
        ("I will eat two.\nmove: eat 2", "", ""),
        ("say: mmm\nnotes: pile near 3\n\nMOVE:   Eat   2  \n\n", "mmm", "pile near 3"),
        ("**move:** `eat 2`", "", ""),
        ('{"move": "EAT 2", "say": "yum", "notes": "two gone"}', "yum", "two gone"),
        ('  {"move": "eat 2"}  ', "", ""),
        ('Thinking.\n```json\n{"move": "eat 2", "say": "hi"}\n```\nThat is all.', "hi", ""),
        ('```json\n{"move": "eat 1"}\n```\n```JSON\n{"move": "eat 2"}\n```', "", ""),
    ],
)
def test_move_lines_and_json_replies_are_read(reply, say, notes):
    game, state = mind_bluff_state()
    bot = text_bot(game, 0, ask=Script(reply))
    assert state.action_to_string(0, bot.step(state)) == "eat 2"
    entry = bot.transcript[-1]
    assert (entry["move"], entry["say"], entry["notes"], entry["fell_back"]) == (
        "eat 2",
        say,
        notes,
        False,
    )
    assert entry["replies"] == [reply] and entry["problems"] == []


@pytest.mark.parametrize(
    "reply, problem",
    [
        ("move: eat 2\nthanks!", text.NO_MOVE),  # the move line is not the last
        ("I eat two", text.NO_MOVE),
        ('{"say": "no move"}', text.NO_MOVE),
        ("```python\n{'move': 'eat 2'}\n```", text.NO_MOVE),
        ("move: eat 9", "'eat 9' is not one of your legal moves"),
        ("move: eat2", "'eat2' is not one of your legal moves"),
        ('{"move": 2}', "'2' is not one of your legal moves"),
    ],
)
def test_replies_without_a_legal_move_are_refused(reply, problem):
    assert text.parse_reply(reply, ["eat 1", "eat 2", "eat 3", "all done"]) == (None, problem)


def test_say_is_cut_to_100_characters():
    game, state = mind_bluff_state()
    long = "blah " * 60
    bot = text_bot(game, 0, ask=Script(f"say: {long}\nmove: eat 1"))
    bot.step(state)
    say = bot.transcript[-1]["say"]
    assert len(say) == text.SAY_LIMIT == 100 and say == long.strip()[:100]
    bot = text_bot(game, 0, ask=Script(json.dumps({"move": "eat 1", "say": "x\n" * 80})))
    bot.step(state)
    assert bot.transcript[-1]["say"] == ("x " * 50)[:100]


# ---- retries and the fallback ---------------------------------------------------------


def test_an_illegal_reply_gets_one_retry_naming_the_problem_and_the_legal_moves():
    game, state = mind_bluff_state()
    ask = Script("move: eat 9", "say: sorry\nmove: eat 3")
    bot = text_bot(game, 0, ask=ask)
    assert state.action_to_string(0, bot.step(state)) == "eat 3"
    first, retry = ask.prompts
    assert retry.startswith(first)
    tail = retry[len(first) :]
    assert text.RETRY_HEADER in tail
    assert "'eat 9' is not one of your legal moves" in tail
    assert tail.rstrip().endswith("eat 1\neat 2\neat 3\nall done")
    entry = bot.transcript[-1]
    assert entry["prompt"] == first
    assert entry["replies"] == ["move: eat 9", "say: sorry\nmove: eat 3"]
    assert entry["problems"] == ["'eat 9' is not one of your legal moves"]
    assert (entry["move"], entry["say"], entry["fell_back"]) == ("eat 3", "sorry", False)


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_two_failures_hand_the_decision_to_the_fallback(seed):
    game, state = mind_bluff_state()
    ask = Script("no idea", "move: dance")
    bot = text_bot(game, 0, seed, ask=ask)
    action = bot.step(state)
    assert len(ask.prompts) == 2  # exactly one retry
    assert action == bots.make_bot("random", game, 0, seed).step(state)
    entry = bot.transcript[-1]
    assert entry["fell_back"] is True
    assert entry["move"] == state.action_to_string(0, action)
    assert (entry["say"], entry["notes"]) == ("", "")
    assert entry["problems"] == [text.NO_MOVE, "'dance' is not one of your legal moves"]


def test_an_exception_from_ask_is_retried_then_falls_back():
    game, state = mind_bluff_state()
    ask = Script(RuntimeError("quota exceeded"), "move: eat 1")
    bot = text_bot(game, 0, ask=ask)
    assert state.action_to_string(0, bot.step(state)) == "eat 1"
    assert "asking failed with RuntimeError: quota exceeded" in ask.prompts[1]
    entry = bot.transcript[-1]
    assert entry["replies"] == ["move: eat 1"] and not entry["fell_back"]
    ask = Script(ConnectionError("down"), ValueError("still down"))
    bot = text_bot(game, 0, ask=ask)
    bot.step(state)
    assert bot.transcript[-1]["fell_back"] and bot.transcript[-1]["replies"] == []
    assert bot.transcript[-1]["problems"] == [
        "asking failed with ConnectionError: down",
        "asking failed with ValueError: still down",
    ]
    # A reply that is not text is a failure too.
    bot = text_bot(game, 0, ask=Script(None, "move: eat 2"))
    bot.step(state)
    assert bot.transcript[-1]["problems"] == ["the reply was NoneType, not text"]


def test_a_timed_out_ask_is_abandoned_and_retried():
    game, state = mind_bluff_state()
    release = threading.Event()

    def slow(prompt):
        release.wait(10)
        return "move: eat 1"

    try:
        ask = Script(slow, "move: eat 2")
        bot = text_bot(game, 0, ask=ask, timeout_s=0.05)
        assert state.action_to_string(0, bot.step(state)) == "eat 2"
        assert "no reply came within 0.05 seconds" in ask.prompts[1]
        assert bot.transcript[-1]["replies"] == ["move: eat 2"]
        # Two timeouts: the fallback decides.
        bot = text_bot(game, 0, ask=Script(slow, slow), timeout_s=0.05)
        action = bot.step(state)
        assert bot.transcript[-1]["fell_back"]
        assert action == bots.make_bot("random", game, 0, 0).step(state)
    finally:
        release.set()
    # A quick answer within the timeout is used as is.
    bot = text_bot(game, 0, ask=Script("move: eat 3"), timeout_s=5)
    assert state.action_to_string(0, bot.step(state)) == "eat 3"


ROOT = pathlib.Path(__file__).resolve().parent.parent
HANGING_GAME = """
import time
import fogboard_games
from fogboard_games import bots

game = fogboard_games.load("phantom-ttt-3")
seat = bots.make_bot(
    "text", game, 0, ask=lambda prompt: time.sleep(3600), timeout_s=0.1, fallback="random"
)
other = bots.make_bot("random", game, 1)
returns = bots.evaluate_bots(game.new_initial_state(), [seat, other], 0)
fell_back = all(e["fell_back"] for e in seat.transcript)
print("returns", returns, "decisions", len(seat.transcript), "all fell back", fell_back)
"""


def test_a_process_whose_ask_never_returns_still_exits_after_its_game():
    """Each timed-out call runs on in its thread (Python cannot stop one);
    an executor's worker was joined at exit, so the process never ended."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", HANGING_GAME],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=30,  # the game takes a second or two; a hang is killed here
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"returns \[-?[01]\.0, -?[01]\.0\] decisions ([3-9]|\d\d) all fell back True\n", done.stdout
    ), done.stdout
    assert time.monotonic() - started < 30


class Unspeakable(Exception):
    """An error whose message cannot be read."""

    def __str__(self):
        raise RuntimeError("no message for you")


class NotText(Exception):
    def __str__(self):
        return 42  # str() raises TypeError


@pytest.mark.parametrize("timeout_s", [None, 5])
def test_an_exception_whose_message_cannot_be_read_is_a_failure_like_any(timeout_s):
    game, state = mind_bluff_state()
    ask = Script(Unspeakable(), "move: eat 1")
    bot = text_bot(game, 0, ask=ask, timeout_s=timeout_s)
    assert state.action_to_string(0, bot.step(state)) == "eat 1"
    problem = "asking failed with Unspeakable (its message could not be read)"
    assert bot.transcript[-1]["problems"] == [problem]
    assert problem in ask.prompts[1]
    bot = text_bot(game, 0, ask=Script(NotText(), Unspeakable()), timeout_s=timeout_s)
    action = bot.step(state)
    assert action == bots.make_bot("random", game, 0, 0).step(state)
    entry = bot.transcript[-1]
    assert entry["fell_back"] and entry["problems"] == [
        "asking failed with NotText (its message could not be read)",
        problem,
    ]
    json.dumps(bot.transcripts)  # the transcript is plain data


@pytest.mark.parametrize("timeout_s", [None, 5])
@pytest.mark.parametrize("error", [KeyboardInterrupt, SystemExit])
def test_keyboard_interrupt_and_system_exit_from_ask_are_not_swallowed(error, timeout_s):
    game, state = mind_bluff_state()
    ask = Script(error("stop"), "move: eat 1")
    bot = text_bot(game, 0, ask=ask, timeout_s=timeout_s)
    with pytest.raises(error):
        bot.step(state)
    assert len(ask.prompts) == 1 and bot.transcript == []


def test_a_timeout_error_raised_by_ask_itself_is_a_failure_not_a_timeout():
    game, state = mind_bluff_state()
    bot = text_bot(game, 0, ask=Script(TimeoutError("read timed out")), timeout_s=5)
    bot.step(state)
    assert bot.transcript[-1]["problems"] == ["asking failed with TimeoutError: read timed out"]


LEGAL_WITH_K = ["k11", "eat 1", "all done"]


@pytest.mark.parametrize(
    "reply, problem",
    [
        ("move: \u212a11", "'\\u212a11' is not one of your legal moves"),  # the Kelvin sign
        ("move: all\xa0done", "'all\\xa0done' is not one of your legal moves"),
        ("move: all\u3000done", "'all\\u3000done' is not one of your legal moves"),
        ("move: all\u2028done", "'all\\u2028done' is not one of your legal moves"),
        ("move: all\x85done", "'all\\x85done' is not one of your legal moves"),
        ('{"move": "all\\u00a0done"}', "'all\\xa0done' is not one of your legal moves"),
        ("move: eat\u20021", "'eat\\u20021' is not one of your legal moves"),
        # Not a field line: a long s is no s, a no-break space no space.
        ("\u017fay: hi\nmove: eat 1\n\u00a0", text.NO_MOVE),
        ("\u00a0move: eat 1", text.NO_MOVE),
    ],
)
def test_unicode_look_alikes_in_a_reply_are_refused(reply, problem):
    assert text.parse_reply(reply, LEGAL_WITH_K) == (None, problem)


@pytest.mark.parametrize(
    "reply, move, say",
    [
        ("move: K11", "k11", ""),
        ("say: \u017fo\nMove:\t ALL \t DONE ", "all done", "\u017fo"),
        ("move: eat 1\r\n", "eat 1", ""),
        ("notes: x\rmove: all done", "all done", ""),
        ('{"move": "  EAT\\t1 "}', "eat 1", ""),
    ],
)
def test_ascii_case_spaces_and_line_ends_still_read(reply, move, say):
    parsed, problem = text.parse_reply(reply, LEGAL_WITH_K)
    assert problem == "" and (parsed["move"], parsed["say"]) == (move, say)


# ---- construction, transcript, determinism ------------------------------------------------


def test_bad_options_are_refused_when_the_bot_is_made():
    game = fogboard_games.load("parley")
    with pytest.raises(ValueError, match="needs ask=a callable"):
        bots.make_bot("text", game, 0, fallback="random")
    with pytest.raises(ValueError, match="needs ask=a callable"):
        bots.make_bot("text", game, 0, ask="gpt", fallback="random")
    for fallback in ("probe", "text", "nope"):
        with pytest.raises(ValueError, match=f"fallback '{fallback}' is not a bot kind that plays"):
            text_bot(game, 0, fallback=fallback)
    for bad in (0, -1, True, "5"):
        with pytest.raises(ValueError, match="timeout_s must be None or a number"):
            text_bot(game, 0, timeout_s=bad)
    # An option the text bot does not take: a ValueError naming it and the
    # options it does take (it was a TypeError, issue 19).
    with pytest.raises(
        ValueError,
        match="unknown option 'temperature' for the text bot; its options: ask, fallback, timeout_s$",
    ):
        text_bot(game, 0, temperature=0.2)


def test_the_default_fallback_is_heuristic():
    # An ask that never names a move: every decision falls to the fallback,
    # which by default plays as the heuristic bot of the same seat and seed.
    game = fogboard_games.load("parley")
    bot = bots.make_bot("text", game, 1, 4, ask=lambda prompt: "no move here")
    heuristic = bots.make_bot("heuristic", game, 1, 4)
    state, rng, decided = game.new_initial_state(), random.Random(0), 0
    while not state.is_terminal() and decided < 8:
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, odds)[0])
        elif state.current_player() == 1:
            action = bot.step(state)
            assert bot.transcript[-1]["fell_back"] and action == heuristic.step(state)
            state.apply_action(action)
            decided += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert decided == 8
    bot = bots.make_bot(
        "text", fogboard_games.load("parley"), 1, 4, ask=first_legal, fallback="random"
    )
    assert bot.fallback == "random" and bot.fallback_bot.kind == "random"
    assert bot.kind == "text" and "text" in bots.BOT_KINDS
    assert "text" not in bots.kinds_for(fogboard_games.load("parley"))  # needs its ask


def test_the_transcript_has_one_entry_per_decision_and_a_fresh_list_per_game():
    game = fogboard_games.load("mind-bluff-tiny")
    bot = text_bot(game, 0, ask=_say_and_move)
    other = bots.make_bot("random", game, 1, 0)
    bots.evaluate_bots(game.new_initial_state(), [bot, other], 0)
    first = bot.transcript
    assert first and all(
        set(e) == {"prompt", "replies", "problems", "move", "fell_back", "say", "notes"}
        for e in first
    )
    for e in first:
        assert isinstance(e["prompt"], str) and e["replies"] == [_say_and_move(e["prompt"])]
        assert e["move"] == legal_of(e["prompt"])[-1]
        assert (e["say"], e["notes"], e["fell_back"]) == ("I trust nobody", "", False)
    bots.evaluate_bots(game.new_initial_state(), [bot, other], 1)
    assert bot.transcript is not first and bot.transcripts == [first, bot.transcript]


def play_game(preset, ask, seed):
    game = fogboard_games.load(preset)
    players = [text_bot(game, 0, seed, ask=ask)]
    players += [bots.make_bot("random", game, p, seed) for p in range(1, game.num_players())]
    returns = bots.evaluate_bots(game.new_initial_state(), players, seed)
    return returns, players[0].transcript


def flaky(prompt):
    """A function of the first prompt: a fifth of the decisions fall back, a
    fifth need the retry, a fifth answer in JSON (with a say)."""
    first = prompt.split("\n" + text.RETRY_HEADER)[0]  # the retry adds to the first prompt
    legal = legal_of(first)
    k = zlib.crc32(first.encode()) % 5
    move = legal[zlib.crc32(first.encode()) // 5 % len(legal)]
    if k == 0 or (k == 1 and text.RETRY_HEADER not in prompt):
        return "pass the salt"
    if k == 2:
        return json.dumps({"move": move, "say": "json"})
    return f"move: {move}"


@pytest.mark.parametrize("preset", ["parley", "liars-dice", "mind-bluff", "recon-hex-5"])
def test_games_repeat_exactly_given_the_seed_and_the_ask(preset):
    a = play_game(preset, flaky, 7)
    b = play_game(preset, flaky, 7)
    assert a == b and a[1]
    if preset == "parley":  # long enough to see every path
        assert any(e["fell_back"] for e in a[1]) and not all(e["fell_back"] for e in a[1])
        assert any(len(e["replies"]) == 2 and not e["fell_back"] for e in a[1])


# ---- board engine logs with the text seats' transcripts --------------------------------


def board_game(preset, seed, text_seats=(0,)):
    game = fogboard_games.load(preset)
    players = [
        text_bot(game, p, seed, ask=flaky)
        if p in text_seats
        else bots.make_bot("probe", game, p, seed)
        for p in range(2)
    ]
    state = game.new_initial_state()
    bots.evaluate_bots(state, players, seed)  # plays the game on `state`
    return state, players


@pytest.mark.parametrize("preset", ["phantom-ttt-3", "dark-hex-4", "recon-hex-5"])
@pytest.mark.parametrize("seed", [0, 3])
def test_board_engine_log_with_transcripts_round_trips(preset, seed):
    state, players = board_game(preset, seed)
    transcript = players[0].transcript
    written = R.to_engine_log(
        state, policy_names=["text", "probe"], seed=seed, transcripts={0: transcript}
    )
    r = R.read_engine_log(R.parse(json.dumps(written)))
    assert r.state.history() == state.history()
    assert R.to_engine_log(r.state, **r.writer_args()) == written
    attempts = [e for e in written["events"] if e["kind"] == "attempt"]
    per_ply = 2 if preset == "recon-hex-5" else 1
    mine = [e for e in attempts if e["seat"] == 0]
    assert len(mine) * per_ply == len(transcript)
    for k, event in enumerate(mine):
        entries = transcript[k * per_ply : (k + 1) * per_ply]
        assert event["cell"] == entries[-1]["move"]
        assert event["scripted"] is False
        assert event["fellBack"] == any(e["fell_back"] for e in entries)
        assert event["say"] == " | ".join(e["say"] for e in entries if e["say"])
    assert all(e["scripted"] is True and not e["fellBack"] for e in attempts if e["seat"] == 1)
    fallbacks = sum(e["fellBack"] for e in mine)
    assert written["results"]["fallbacks"] == [fallbacks, 0]


def test_recon_engine_log_records_both_decisions_of_a_ply():
    game = fogboard_games.load("recon-hex-5")
    ask = Script("say: look\nnotes: sense first\nmove: sense b2", "not a move", "nor this")
    seat0 = text_bot(game, 0, ask=ask)
    seat1 = bots.make_bot("probe", game, 1, 0)
    state = game.new_initial_state()
    state.apply_action(seat0.step(state))
    state.apply_action(seat0.step(state))
    while not state.is_terminal():
        state.apply_action((seat0, seat1)[state.current_player()].step(state))
    written = R.to_engine_log(state, transcripts={0: seat0.transcript})
    first = next(e for e in written["events"] if e["kind"] == "attempt")
    assert (first["say"], first["notes"], first["fellBack"]) == ("look", "sense first", True)
    assert first["scripted"] is False
    assert seat0.transcript[1]["fell_back"] and seat0.transcript[1]["move"] == first["cell"]
    again = R.to_engine_log(R.from_engine_log(written), transcripts={0: seat0.transcript})
    assert again == written


def test_transcripts_that_do_not_match_the_game_are_refused():
    state, players = board_game("dark-hex-4", 1, text_seats=(0, 1))
    t0, t1 = players[0].transcript, players[1].transcript
    both = {0: t0, 1: t1}
    written = R.to_engine_log(state, transcripts=both)
    assert all(e["scripted"] is False for e in written["events"] if e["kind"] == "attempt")
    with pytest.raises(R.EngineLogError, match=r"entries for seat 0's \d+ decisions"):
        R.to_engine_log(state, transcripts={0: t0 + t0[:1], 1: t1})
    with pytest.raises(R.EngineLogError, match="made more decisions in this game"):
        R.to_engine_log(state, transcripts={0: t0[:-1]})
    tampered = [dict(e) for e in t0]
    tampered[0]["move"] = "a1" if tampered[0]["move"] != "a1" else "b1"
    with pytest.raises(
        R.EngineLogError, match=r"transcripts\[0\]\[0\] \(ply 0\): the transcript's move"
    ):
        R.to_engine_log(state, transcripts={0: tampered})
    with pytest.raises(R.EngineLogError, match="not a seat"):
        R.to_engine_log(state, transcripts={2: t0})
    with pytest.raises(R.EngineLogError, match="must be a dict"):
        R.to_engine_log(state, transcripts=[t0, t1])
    with pytest.raises(R.EngineLogError, match="'say' comes from seat 0's transcript"):
        R.to_engine_log(state, transcripts={0: t0}, extras={0: {"say": "hello"}})
    # Guesses may still ride along, and the other seat's extras stay its own.
    assert state.truth.plies[1][0] == 1  # the first ply always places
    extras = {0: {"guess": ["a1"]}, 1: {"scripted": False}}
    written = R.to_engine_log(state, transcripts={0: t0}, extras=extras)
    assert written["events"][1]["guess"] == ["a1"] and written["events"][1]["scripted"] is False
    assert written["events"][2]["scripted"] is False  # said so by extras
    later = [e for e in written["events"][3:] if e["kind"] == "attempt" and e["seat"] == 1]
    assert later and all(e["scripted"] for e in later)
