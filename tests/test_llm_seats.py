"""Language-model seats (fogboard_games/bots/llm.py), tested for real against
an OpenAI-compatible server on 127.0.0.1 that answers from a script
(tests/llm_server.py): the real openai client and the real command lines,
every fault the seats survive, the key never written, the persona in the
prompt, the usage summed, and a recorded run replayed without the server.
No traffic leaves the loopback.
"""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys

import llm_server as stand_in  # (tests/ is on the path, as for every test module here)
import pytest

import fogboard_games
from fogboard_games import bots, league
from fogboard_games.__main__ import main
from fogboard_games.bots import llm, llm_client, text
from fogboard_games.core.review import load_review
from fogboard_games.pages.review import page_data
from fogboard_games.play import final_review

ROOT = pathlib.Path(__file__).resolve().parent.parent
KEY_VAR = "FOGBOARD_TEST_LLM_KEY"
KEY = "sk-test-5e3f1a9c-never-written"  # found in no file, page or output
PERSONA = "# The bold bidder\nYou raise the bid and rarely call liar."


@pytest.fixture
def server():
    with stand_in.StandIn(seconds=120) as s:
        yield s


@pytest.fixture
def key(monkeypatch):
    monkeypatch.setenv(KEY_VAR, KEY)


def write_config(folder: pathlib.Path, url: str, **fields) -> pathlib.Path:
    """A config of two seats: `a` (keyed, the fields given) and `b` (no key)."""
    (folder / "bold.md").write_text(PERSONA + "\n")
    seat = {"base_url": url, "model": "model-a", "api_key_env": KEY_VAR, "persona": "bold.md"}
    other = {"base_url": url, "model": "model-b", "api_key_env": None, "persona": "bold.md"}
    path = folder / "seats.json"
    path.write_text(json.dumps({"a": {**seat, **fields}, "b": other}))
    return path


@pytest.fixture
def persona(tmp_path):
    path = tmp_path / "bold.md"
    path.write_text(PERSONA + "\n")
    return path


@pytest.fixture
def make_seat(server, key, persona):
    """make_seat(game, player, **fields): a seat of `model-a` on the stand-in."""

    def make(game, player, **fields):
        options = {
            "base_url": server.url,
            "model": "model-a",
            "api_key_env": KEY_VAR,
            "persona": str(persona),
            "timeout_s": 5,
            **fields,
        }
        return bots.make_bot("llm", game, player, seed=3, **options)

    return make


def play(game, seats, seed=0):
    return bots.evaluate_bots(game.new_initial_state(), seats, seed)


def every_file_text(folder: pathlib.Path) -> str:
    return "".join(p.read_text(errors="replace") for p in folder.rglob("*") if p.is_file())


# ---- the kind, from Python ------------------------------------------------------


def test_import_fogboard_games_does_not_import_openai():
    code = (
        "import sys, fogboard_games, fogboard_games.bots.llm, fogboard_games.league; "
        "print('openai' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "False", done.stderr


def test_a_seat_plays_with_the_persona_in_front_and_the_key_sent(server, make_seat):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0)
    play(game, [bot, bots.make_bot("heuristic", game, 1, seed=1)])
    assert server.requests, "the seat never asked its endpoint"
    for request in server.requests:
        assert request["headers"]["authorization"] == f"Bearer {KEY}"
        assert request["body"]["model"] == "model-a"
        [message] = request["body"]["messages"]
        # The persona, then the text seat's own prompt, nothing else.
        assert message["content"].startswith(PERSONA + "\n\n" + "You are playing a game")
    for entry in bot.transcript:
        assert not entry["fell_back"] and entry["say"].startswith("I play ")
        assert entry["prompt"] == server.prompts()[bot.transcript.index(entry)]
    # The tokens the endpoint reported, summed per decision and per game.
    reported = [stand_in.words(p) for p in server.prompts()]
    assert [e["usage"]["prompt_tokens"] for e in bot.transcript] == reported
    assert bot.game_metrics() == {
        "prompt_tokens": sum(reported),
        "completion_tokens": sum(e["usage"]["completion_tokens"] for e in bot.transcript),
        "fallbacks": 0,
    }
    assert bot.game_metrics()["completion_tokens"] > 0


def test_the_llm_kind_takes_the_config_fields_and_refuses_what_is_missing(make_seat):
    game = fogboard_games.load("liars-dice-1")
    assert "llm" not in bots.kinds_for(game)  # it needs its endpoint
    with pytest.raises(ValueError, match="missing field 'base_url'"):
        bots.make_bot("llm", game, 0)
    with pytest.raises(ValueError, match="not an http"):
        make_seat(game, 0, base_url="file:///etc/passwd")
    with pytest.raises(ValueError, match="max_retries must be an int from 0 to 10"):
        make_seat(game, 0, max_retries=-1)
    with pytest.raises(ValueError, match="unknown option 'api_key'"):
        make_seat(game, 0, api_key=KEY)  # a key is never passed, only its variable's name


# ---- faults ------------------------------------------------------------------------

FAULTS = [
    (stand_in.status(429, {"retry-after-ms": "10"}), "HTTP 429"),
    (stand_in.status(500), "HTTP 500"),
    (stand_in.status(503, {"Retry-After": "0"}), "HTTP 503"),
    (stand_in.malformed(), "the reply could not be read"),
    (stand_in.empty(), "the reply was empty"),
    (stand_in.no_choices(), "the reply held no choice"),
    (stand_in.legal(delay=1.0), "no reply within 0.3 s"),
]


@pytest.mark.parametrize("fault, met", FAULTS, ids=[f[1] for f in FAULTS])
def test_each_fault_is_tried_again_and_the_game_goes_on(server, make_seat, fault, met):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0, timeout_s=0.3, max_retries=1)
    server.queue(fault)
    play(game, [bot, bots.make_bot("random", game, 1, seed=1)])
    first = bot.transcript[0]
    assert first["tries"][0].startswith(met), first["tries"]
    assert len(first["tries"]) == 1 and not first["fell_back"] and first["problems"] == []
    assert len(server.requests) == sum(1 + len(e["tries"]) for e in bot.transcript)


def test_a_request_the_server_refuses_is_not_sent_again_and_its_words_kept(server, make_seat):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0, max_retries=2)
    # (a server that echoes the key: it is blanked out of what is kept)
    server.queue(stand_in.status(400, message=f"prompt too long for key {KEY}"))
    play(game, [bot, bots.make_bot("random", game, 1, seed=1)])
    first = bot.transcript[0]
    assert first["tries"] == ["HTTP 400: Error code: 400 - prompt too long for key ***"]
    assert first["problems"] == ["asking failed with NoReply: " + first["tries"][0]]
    assert not first["fell_back"]  # the retry prompt was answered
    assert KEY not in json.dumps(bot.transcript)


@pytest.mark.parametrize(
    "reply, problem",
    [("I would rather not say.", "named no move"), ("move: bid 9x9", "not one of your legal")],
)
def test_garbage_or_an_illegal_move_gets_the_retry_with_the_legal_moves(
    server, make_seat, reply, problem
):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0)
    server.queue(stand_in.text(reply))
    play(game, [bot, bots.make_bot("random", game, 1, seed=1)])
    first = bot.transcript[0]
    assert problem in first["problems"][0] and not first["fell_back"]
    retry = server.prompts()[1]
    assert text.RETRY_HEADER in retry and retry.startswith(PERSONA)


def test_faults_past_max_retries_fall_back_and_the_review_marks_it(server, make_seat):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0, max_retries=1)
    # Two tries of the first prompt, two of the retry with the legal moves.
    server.queue(*[stand_in.status(500, {"retry-after-ms": "1"})] * 4)
    other = bots.make_bot("random", game, 1, seed=1)
    state = game.new_initial_state()
    play_to_end(state, [bot, other])
    first = bot.transcript[0]
    assert first["fell_back"] and first["tries"] == ["HTTP 500"] * 4
    assert first["problems"] == ["asking failed with NoReply: HTTP 500 (2 tries)"] * 2
    assert bot.game_metrics()["fallbacks"] == 1
    review = final_review(state, {0: bot})
    marks = [e["fell_back"] for e in review["text_seats"] if e is not None]
    assert marks == [e["fell_back"] for e in bot.transcript] and marks[0] is True
    load_review(review)  # a review the loader takes


def play_to_end(state, seats):
    import random

    from fogboard_games.core.sampling import chance_outcome

    rng = random.Random(0)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance_outcome(state, rng))
        else:
            state.apply_action(seats[state.current_player()].step(state))


def test_a_refused_connection_falls_back_every_decision_and_the_game_finishes(key, persona):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    game = fogboard_games.load("phantom-ttt-3")
    options = {"base_url": f"http://127.0.0.1:{port}/v1", "timeout_s": 0.05, "max_retries": 1}
    bot = bots.make_bot(
        "llm",
        game,
        0,
        seed=3,
        model="m",
        api_key_env=KEY_VAR,
        persona=str(persona),
        **options,
    )
    state = game.new_initial_state()
    play_to_end(state, [bot, bots.make_bot("random", game, 1, seed=1)])
    assert bot.transcript and all(e["fell_back"] for e in bot.transcript)
    assert bot.transcript[0]["tries"][0].startswith("cannot reach the endpoint (ConnectError")
    review = final_review(state, {0: bot})
    assert all(e["fell_back"] for e in review["text_seats"] if e is not None)


def test_retry_after_is_honoured_and_bounded():
    wait = llm_client.retry_wait
    assert wait({"retry-after": "2"}, 0, 60) == 2
    assert wait({"retry-after-ms": "50", "retry-after": "9"}, 0, 60) == 0.05
    assert wait({"retry-after": "3600"}, 0, 5.0) == 5.0  # bounded
    assert wait({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0, 5.0) == 0  # in the past
    assert wait({"retry-after": "soon"}, 0, 60) == 0.25  # unreadable: the backoff
    assert wait({}, 3, 60) == 2.0 and wait(None, 30, 10) == 10


def test_a_429_waits_as_told_then_plays_on(server, make_seat):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0, timeout_s=0.3)
    # Told to wait an hour; the seat waits at most its timeout_s, then tries again.
    server.queue(
        stand_in.status(429, {"Retry-After": "0.2"}), stand_in.status(429, {"Retry-After": "3600"})
    )
    play(game, [bot, bots.make_bot("random", game, 1, seed=1)])
    at = [r["at"] for r in server.requests]
    assert at[1] - at[0] >= 0.2 and at[2] - at[1] >= 0.3
    assert at[2] - at[1] < 30  # not the hour asked for
    assert bot.transcript[0]["tries"] == ["HTTP 429", "HTTP 429"]
    assert not bot.transcript[0]["fell_back"]


def test_a_refused_key_stops_the_game_with_one_line(server, make_seat):
    game = fogboard_games.load("liars-dice-1")
    bot = make_seat(game, 0)
    server.queue(stand_in.status(401))
    with pytest.raises(llm_client.EndpointRefused, match=f"HTTP 401 .*key in \\${KEY_VAR}"):
        bot.step(started(game))
    assert len(server.requests) == 1  # no try again, no retry prompt: it would not help


def started(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


# ---- the command line ---------------------------------------------------------------


def cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


LEAGUE = ("league", "--games", "liars-dice-1", "--bots", "heuristic,llm:a,llm:b")


@pytest.mark.parametrize(
    "fields, refusal",
    [
        ({"model": None}, "llm:a: model must be the endpoint's model name"),
        ({"base_url": "ftp://127.0.0.1/v1"}, 'base_url "ftp://127.0.0.1/v1" is not an http(s) URL'),
        ({"persona": "missing.md"}, "missing.md' cannot be read (No such file or directory)"),
        # (a named pipe would block the league at its config, waiting for a writer)
        ({"persona": "fifo.md"}, "fifo.md' cannot be read (a named pipe (FIFO), not a regular"),
        (
            {"api_key_env": "FOGBOARD_TEST_UNSET_VAR"},
            "$FOGBOARD_TEST_UNSET_VAR (api_key_env) is not set",
        ),
        ({"temperature": 3}, "temperature must be a number from 0 to 2"),
        ({"tempreature": 0.5}, "unknown field 'tempreature'"),
        ({"fallback": "probe"}, "fallback 'probe' does not play liars-dice-1"),
        (None, "missing field 'model'"),
    ],
)
def test_a_bad_config_is_refused_in_one_line_before_any_game(
    tmp_path, server, key, capsys, fields, refusal
):
    config = write_config(tmp_path, server.url, **(fields or {}))
    if fields == {"persona": "fifo.md"}:
        os.mkfifo(tmp_path / "fifo.md")
    if fields is None:  # the field left out
        entries = json.loads(config.read_text())
        del entries["a"]["model"]
        config.write_text(json.dumps(entries))
    out = tmp_path / "league.json"
    code, stdout, err = cli(capsys, *LEAGUE, "--llm-config", str(config), "--out", str(out))
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and err.startswith("league: ") and refusal in err, err
    assert (
        server.requests == []
        and not out.exists()
        and not (tmp_path / "league.json.journal").exists()
    )


@pytest.mark.parametrize(
    "args, refusal",
    [
        (("--bots", "heuristic,llm:c"), "--bots 'llm:c': no seat 'c' in --llm-config"),
        (("--bots", "heuristic,llm:a", "--no-config"), "--bots llm:a needs --llm-config FILE"),
        (("--bots", "heuristic,llm"), "--bots llm: name a seat of --llm-config FILE, as llm:NAME"),
        (("--bots", "heuristic,random"), "--llm-config is for language-model seats"),
        (("--bots", "llm:a", "--llm-replay", "nowhere"), "--llm-replay 'nowhere': no such folder"),
    ],
)
def test_kinds_without_their_seats_are_refused_in_one_line(
    tmp_path, server, key, capsys, args, refusal
):
    config = write_config(tmp_path, server.url)
    given = [a for a in args if a != "--no-config"]
    if "--no-config" not in args:
        given += ["--llm-config", str(config)]
    code, _, err = cli(capsys, "league", "--games", "liars-dice-1", *given)
    assert code == 2 and err.count("\n") == 1 and refusal in err, err
    assert server.requests == []


def test_a_bare_install_refuses_the_kind_naming_the_extra(tmp_path):
    # The openai client made unimportable, as in an install without the extra;
    # the config need not exist: the client is checked first.
    code = (
        "import sys; sys.modules['openai'] = None; "
        "from fogboard_games.__main__ import main; "
        "sys.exit(main(['league', '--bots', 'heuristic,llm:x', '--llm-config', 'f.json']))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == 'league: llm:x needs the openai client: pip install ".[llm]"\n'


def test_a_league_of_models_records_and_its_replay_gives_the_same_run(
    tmp_path, server, key, capsys
):
    config = write_config(tmp_path, server.url, max_retries=1, timeout_s=5)
    first, again = tmp_path / "first", tmp_path / "again"
    first.mkdir(), again.mkdir()
    server.queue(stand_in.status(500), stand_in.text("no idea"))  # a fault and a garbage reply

    def run(folder, *extra):
        return cli(
            capsys,
            *LEAGUE,
            "--episodes", "2",
            "--workers", "4",
            "--out", str(folder / "league.json"),
            "--html", str(folder / "league.html"),
            "--save-games", str(folder / "games"),
            *extra,
        )  # fmt: skip

    code, out, err = run(first, "--llm-config", str(config), "--llm-record", str(tmp_path / "rec"))
    assert code == 0, err
    report = json.loads((first / "league.json").read_text())
    # The tokens the endpoint reported, summed per kind.
    usage = report["usage"]
    for kind, model in (("llm:a", "model-a"), ("llm:b", "model-b")):
        for key in ("prompt_tokens", "completion_tokens"):
            reported = [
                r["usage"][key]
                for r in server.requests
                if r["body"]["model"] == model and "usage" in r
            ]
            assert usage[kind][key] == sum(reported) > 0, (kind, key)
    assert usage["llm:a"]["games"] == usage["llm:b"]["games"] == 8
    assert "tokens, as the endpoints reported them" in out
    assert f"{usage['llm:a']['prompt_tokens']:,}" in out
    rows = report["table"]["liars-dice-1"]
    assert (
        sum(r["prompt_tokens"] for r in rows if r["kind"] == "llm:a")
        == usage["llm:a"]["prompt_tokens"]
    )
    assert all(r["prompt_tokens"] == 0 for r in rows if r["kind"] == "heuristic")
    assert (
        report["llm"]["llm:a"]["persona"] == PERSONA
        and report["llm"]["llm:a"]["model"] == "model-a"
    )
    page = (first / "league.html").read_text()
    assert 'class="usage"' in page and f"{usage['llm:b']['completion_tokens']:,}" in page
    # The key: sent in the header of every keyed request, written nowhere.
    keyed = {
        r["headers"]["authorization"] for r in server.requests if r["body"]["model"] == "model-a"
    }
    assert keyed == {f"Bearer {KEY}"}
    assert KEY not in every_file_text(tmp_path) and KEY not in out + err
    # Every model decision's words are in the reviews, and the pages.
    reviews = sorted((first / "games").rglob("*.json"))
    said = [e for p in reviews for e in json.loads(p.read_text())["text_seats"] if e]
    assert said and all(e["say"].startswith("I play ") or e["fell_back"] for e in said)
    talk = [t["talk"] for t in page_data(json.loads(reviews[0].read_text()))["turns"]]
    assert any(t and t["say"] for t in talk)
    # The same run from the recording alone: the server gone, no config, no key.
    server.stop()
    os.environ.pop(KEY_VAR)
    code, out2, err = run(again, "--llm-replay", str(tmp_path / "rec"))
    assert code == 0, err
    replayed = json.loads((again / "league.json").read_text())
    assert {k: v for k, v in replayed.items() if k != "save_games"} == {
        k: v for k, v in report.items() if k != "save_games"
    }
    assert out2 == out.replace(str(first), str(again))
    for path in reviews:
        twin = again / path.relative_to(first)
        assert twin.read_text() == path.read_text()
        assert twin.with_suffix(".html").read_text() == path.with_suffix(".html").read_text()
    # A request the recording lacks: refused naming it, no endpoint called.
    victim = sorted((tmp_path / "rec" / "requests").iterdir())[0]
    victim.unlink()
    code, _, err = run(again, "--llm-replay", str(tmp_path / "rec"))
    assert code == 2 and err.count("\n") == 1, err
    digest, stream = victim.name[:12], victim.name[33:].rsplit("-", 1)[0]
    assert "holds no reply to llm:" in err and f"request {digest}" in err and stream in err, err


def streams(job) -> set[str]:
    """The recording's streams of the language-model seats of a league job."""
    return {
        f"seed{league.episode_seed(job.seed, job.preset, job.kinds, e) + seat}-game0-seat{seat}"
        for e in range(job.first, job.first + job.count)
        for seat, kind in enumerate(job.kinds)
        if kind.startswith("llm:")
    }


def recorded_streams(folder: pathlib.Path) -> list[str]:
    """The stream of each recorded call (its file name: digest-stream-occurrence.json)."""
    return [p.name[33:].rsplit("-", 1)[0] for p in (folder / "requests").iterdir()]


def test_a_resumed_league_pays_for_no_finished_game(tmp_path, server, key, capsys):
    config = write_config(tmp_path, server.url)
    args = ["league", "--games", "liars-dice-1", "--bots", "heuristic,llm:a", "--episodes", "3"]
    args += ["--llm-config", str(config)]
    whole = tmp_path / "whole.json"
    code, _, err = cli(capsys, *args, "--out", str(whole), "--llm-record", str(tmp_path / "w"))
    assert code == 0, err
    calls = recorded_streams(tmp_path / "w")
    assert len(calls) == len(server.requests)
    llm.prepare(["llm:a"], config=str(config))  # (registered, so the plan has its jobs)
    jobs, _ = league.plan(["liars-dice-1"], ["heuristic", "llm:a"], 3, 0)
    assert [j.count for j in jobs] == [1] * 6  # a model's game is a job: journaled alone
    # The same league, stopped in its third game by a refused key: the others finish.
    before = sum(1 for c in calls if c in streams(jobs[0]) | streams(jobs[1]))
    server.requests.clear()
    server.queue(*[stand_in.legal()] * before, stand_in.status(401))
    out = tmp_path / "league.json"
    code, _, err = cli(capsys, *args, "--out", str(out))
    assert code == 2 and "HTTP 401" in err and "league.json.journal" in err, err
    # A resume with another persona would mix two seats in one table: refused.
    persona = tmp_path / "bold.md"
    persona.write_text("Another persona.")
    code, _, err = cli(capsys, *args, "--out", str(out), "--resume")
    assert code == 2 and err.count("\n") == 1, err
    assert "is a league of other arguments (--llm-config llm:a model model-a persona" in err
    persona.write_text(PERSONA + "\n")
    server.requests.clear()
    code, _, err = cli(
        capsys, *args, "--out", str(out), "--resume", "--llm-record", str(tmp_path / "r")
    )
    assert code == 0, err
    assert json.loads(out.read_text()) == json.loads(whole.read_text())
    # The resume asked only the stopped game's requests, each once.
    again = recorded_streams(tmp_path / "r")
    assert set(again) == streams(jobs[2]) and len(again) == len(server.requests)
    assert len(again) == sum(1 for c in calls if c in streams(jobs[2]))


def test_terminal_play_against_a_model_saves_what_it_said(tmp_path, server, key):
    config = write_config(tmp_path, server.url)
    save = tmp_path / "game.json"
    args = ["play", "liars-dice-1", "--opponent", "llm:a", "--seat", "1", "--save", str(save)]
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", *args, "--llm-config", str(config)],
        input="liar\n",  # the model bids first; the person calls it
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "llm:a plays seat 0" in done.stdout and "game over" in done.stdout
    review = json.loads(save.read_text())
    [said] = [e for e in review["text_seats"] if e is not None]
    assert said["say"].startswith("I play bid") and not said["fell_back"]
    assert [r["body"]["model"] for r in server.requests] == ["model-a"]
    assert KEY not in save.read_text() + done.stdout + done.stderr
    # A key the endpoint refuses ends the game with one line.
    server.queue(stand_in.status(401))
    done = subprocess.run(
        [sys.executable, "-m", "fogboard_games", *args, "--llm-config", str(config)],
        input="liar\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("play: llm:a: the endpoint answered HTTP 401"), done.stderr


def test_the_wall_time_example_times_each_worker_count_and_the_tables_agree(monkeypatch, capsys):
    import runpy

    args = ["--delay", "0", "--workers", "1,3", "--games", "liars-dice-1", "--episodes", "1"]
    monkeypatch.setattr(sys, "argv", ["llm_league_wall_time.py", *args])
    runpy.run_path(str(ROOT / "examples" / "llm_league_wall_time.py"), run_name="__main__")
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.startswith("--workers")]
    assert [line.split(":")[0] for line in lines] == ["--workers 1", "--workers 3"], out
    asked = {line.split(", ")[1] for line in lines}
    assert len(asked) == 1 and "the tables agree" in out, out


def test_ctrl_c_stops_a_league_of_models_at_once_and_resume_finishes_it(tmp_path, key, capsys):
    import signal
    import time

    with stand_in.StandIn(delay=0.3, seconds=120) as server:
        url = server.url
        config = write_config(tmp_path, url)
        out = tmp_path / "league.json"
        journal = tmp_path / "league.json.journal"
        args = ["league", "--games", "liars-dice-1", "--bots", "heuristic,llm:a"]
        args += ["--episodes", "3", "--workers", "2", "--llm-config", str(config)]
        league_run = subprocess.Popen(
            [sys.executable, "-m", "fogboard_games", *args, "--out", str(out)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            deadline = time.monotonic() + 60
            while not (journal.exists() and journal.read_text().count("\n") >= 2):
                assert time.monotonic() < deadline and league_run.poll() is None
                time.sleep(0.05)
            # The model now takes minutes: a game waiting on it is not waited for.
            asked = len(server.requests)
            server.queue(*[stand_in.legal(delay=120)] * 6)
            while len(server.requests) == asked:
                assert time.monotonic() < deadline and league_run.poll() is None
                time.sleep(0.05)
            league_run.send_signal(signal.SIGINT)
            _, err = league_run.communicate(timeout=30)
        finally:
            league_run.kill()
        assert league_run.returncode == 130, err
        assert "Traceback" not in err and err.strip().splitlines()[-1].startswith(
            "league: interrupted"
        )
        assert f"--llm-config {config} --out {out} --resume" in err
        done = journal.read_text().count("\n") - 1
        assert 1 <= done < 6 and not out.exists()
    with stand_in.StandIn(seconds=120) as server:
        config.write_text(config.read_text().replace(url, server.url))
        code, _, err = cli(capsys, *args, "--out", str(out), "--resume")
        assert code == 0, err
        assert [r["games"] for r in json.loads(out.read_text())["table"]["liars-dice-1"]] == [6, 6]
