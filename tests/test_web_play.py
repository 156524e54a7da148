"""Play in the browser (docs/bots.md#play-in-the-browser): a whole game by
clicking, the terminal's own text, a refused move leaving the state as it
was, the review at the end, and every bad request refused with a status."""

from __future__ import annotations

import io
import json
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from fogboard_games import bots, pages, play
from fogboard_games.pages import web_play

HOSTILE = "<img src=x onerror=window.pwned=1></script>"


@pytest.fixture
def served(tmp_path):
    """A server of one phantom-ttt-3 game (the opponent random, seeded) on a free port."""
    bots.BOT_KINDS[HOSTILE] = bots.BOT_KINDS["random"]  # (put back by conftest)
    save = tmp_path / "game.json"
    web = web_play.WebGame("phantom-ttt-3", HOSTILE, seat=1, seed=4, save=str(save))
    server = web_play.make_server(web, "phantom-ttt-3", HOSTILE, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield web, f"http://127.0.0.1:{server.server_address[1]}", save
    server.shutdown()
    server.server_close()


def request(url, method="GET", body=None, headers=None):
    """(status, the decoded JSON or text) of one plain HTTP request."""
    headers = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode()


def test_a_whole_game_by_clicking_shows_the_terminals_text(served, watched_page):
    web, url, save = served
    page = watched_page.page
    page.goto(url + "/")
    page.wait_for_selector('body[data-shown="1"]')
    assert page.text_content("#title") == f"phantom-ttt-3: play against {HOSTILE}"
    # A refused move: the terminal's message, the state as it was.
    before = web.state.history()
    page.fill("#line", "z9")
    page.click("#send")
    page.wait_for_selector('body[data-shown="2"]')
    assert page.text_content("#error").startswith("'z9' is not a legal move here; legal: ")
    assert web.state.history() == before
    typed = ["z9"]
    while page.text_content("#status") == "your move":
        assert page.text_content("#view") == web.person.view(web.state)
        buttons = page.query_selector_all("#moves button.move")
        assert [b.text_content() for b in buttons] == play.legal_moves(web.state)
        typed.append(buttons[-1].text_content())
        shown = int(page.get_attribute("body", "data-shown"))
        buttons[-1].click()
        page.wait_for_selector(f'body[data-shown="{shown + 1}"]')
    assert page.text_content("#status") == "the game is over"
    log = page.text_content("#log")
    # The very text terminal play prints for the same moves (bar the echo of what was typed).
    out = io.StringIO()
    code = play.play(
        "phantom-ttt-3",
        HOSTILE,
        seat=1,
        seed=4,
        stdin=io.StringIO("".join(t + "\n" for t in typed)),
        stdout=out,
    )
    assert code == 0
    echoed = log
    for t in typed:
        echoed = echoed.replace(f"your move> {t}\n", "your move> ", 1)
    assert (
        echoed
        == out.getvalue() + f"review saved to {save} (python -m fogboard_games review {save})\n"
    )
    assert "game over" in log
    # The review: saved, and offered for download as the same JSON.
    assert page.get_attribute("#review", "download") == "review.json"
    status, review = request(url + page.get_attribute("#review", "href"))
    assert status == 200 and review == json.loads(save.read_text()) == web.state.review()
    assert page.evaluate("window.pwned") is None and page.query_selector_all("img") == []
    # The review page offered at the end is the review's, and it runs under
    # the server's content policy (its console is watched too).
    replay = page.get_attribute("#replay", "href")
    status, text = request(url + replay)
    assert status == 200 and text == pages.review_page(review)
    page.goto(url + replay)
    page.click("#last")
    assert page.text_content("#move").strip() != ""
    # Over: a move is refused, the state kept.
    status, body = request(url + "/move", "POST", b'{"move": "a1"}')
    assert status == 409 and "the game is over" in body["error"]


@pytest.mark.parametrize(
    "path,method,body,headers,status,says",
    [
        ("/etc/passwd", "GET", None, {}, 404, "no such page '/etc/passwd'"),
        ("/../../etc/passwd", "GET", None, {}, 404, "no such page"),
        ("/fogboard_games/play.py", "GET", None, {}, 404, "no such page"),
        ("/move", "GET", None, {}, 405, "/move takes POST, not GET"),
        ("/", "POST", b"{}", {}, 405, "/ takes GET, not POST"),
        ("/", "PUT", b"{}", {}, 405, "'PUT' is not taken here"),
        ("/move", "DELETE", None, {}, 405, "'DELETE' is not taken here"),
        (
            "/move",
            "POST",
            b'{"move": "a1"}',
            {"Content-Type": "text/plain"},
            415,
            "application/json",
        ),
        ("/move", "POST", b"{not json", {}, 400, "the body: not JSON (Expecting property"),
        ("/move", "POST", b"\xff\xfe", {}, 400, "the body is not UTF-8 JSON"),
        ("/move", "POST", b'{"move": "a1", "move": "quit"}', {}, 400, "duplicate JSON key 'move'"),
        ("/move", "POST", b"[" * 40, {}, 400, "the body: nests deeper than 32 levels"),
        ("/move", "POST", b'["a1"]', {}, 400, "not an object"),
        ("/move", "POST", b'{"move": "a1", "seat": 0}', {}, 400, "unknown field 'seat'"),
        ("/move", "POST", b'{"move": 3}', {}, 400, '"move", a string'),
        ("/move", "POST", b"[" * 5000, {}, 413, "a move is at most 4096"),
        ("/move", "POST", b'{"move": "a1"}', {"Host": "evil.example:80"}, 403, "is not this"),
        ("/review.json", "GET", None, {}, 409, "once the game is over"),
    ],
)
def test_bad_requests_are_refused_with_a_status_and_a_message(
    served, path, method, body, headers, status, says
):
    web, url, _ = served
    before = web.state.history()
    got, answer = request(url + path, method, body, headers)
    assert got == status
    assert says in answer["error"]
    assert web.state.history() == before and web.status == "playing"


def raw_request(url: str, data: bytes) -> tuple[int, dict, bytes]:
    """(status, headers by lowercase name, body) of bytes sent as they are on a socket."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


LONG = 65537  # (past http.server's 65536-byte lines, sent whole so that all of it is read)


@pytest.mark.parametrize(
    "data,status,says",
    [
        (b"TRACE / HTTP/1.1\r\n\r\n", 405, "'TRACE' is not taken here"),
        (b"CONNECT 127.0.0.1:80 HTTP/1.1\r\n\r\n", 405, "'CONNECT' is not taken here"),
        (b"FOO / HTTP/1.1\r\n\r\n", 405, "'FOO' is not taken here"),
        (b"PROPFIND / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", 405, "'PROPFIND' is not"),
        (b"OPTIONS * HTTP/1.1\r\n\r\n", 405, "'OPTIONS' is not taken here"),
        (b"HEAD / HTTP/1.0\r\n\r\n", 405, None),  # (no body: a HEAD answer has none)
        (b"<script> / HTTP/1.1\r\n\r\n", 405, "'<script>' is not taken here"),
        (b"GARBAGE\r\n\r\n", 400, "Bad request syntax ('GARBAGE'); a request line is METHOD"),
        (b"GET / a b c\r\n\r\n", 400, "Bad request version ('c')"),
        (b"GET / HTTP/x.y\r\n\r\n", 400, "Bad request version ('HTTP/x.y')"),
        (b"GET /\r\n\r\n", 400, "No HTTP version; a request line is METHOD PATH HTTP/1.0"),
        (b"POST /move\r\n\r\n", 400, "Bad HTTP/0.9 request type ('POST')"),
        (b"GET / HTTP/2.0\r\n\r\n", 505, "this server speaks HTTP/1.0 and HTTP/1.1"),
        (b"G" * LONG, 414, "a request line is at most 65536 bytes"),
        (b"GET / HTTP/1.1\r\nX: " + b"a" * (LONG - 3), 431, "more than 65536 bytes"),
        (b"GET / HTTP/1.1\r\n" + b"X: 1\r\n" * 101, 431, "got more than 100 headers"),
    ],
)
def test_every_refusal_is_the_documented_one_line_json(served, data, status, says):
    """Refusals http.server makes itself (before any route) included: never its HTML page."""
    web, url, _ = served
    before = web.state.history()
    got, headers, body = raw_request(url, data)
    assert got == status
    assert headers["content-type"] == "application/json"
    assert int(headers["content-length"]) > 0
    if status == 405:
        assert headers["allow"] == "GET, POST"
    if says is None:
        assert body == b""
    else:
        assert b"\n" not in body and says in json.loads(body)["error"]
    assert web.state.history() == before and web.status == "playing"


def test_a_client_hanging_up_before_its_answer_is_let_go_quietly(served, capfd):
    web, url, _ = served
    port = int(url.rsplit(":", 1)[1])
    alone = threading.active_count()
    for path in ("/", "/state", "/move"):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        # (closed with a reset at once: the server's read or answer then fails)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        s.close()
    # Every request's thread has ended (a bounded wait for it, not a timing).
    deadline = time.monotonic() + 30
    while threading.active_count() > alone and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() == alone
    status, state = request(url + "/state")
    assert status == 200 and state["status"] == "playing"
    assert capfd.readouterr().err == ""


def test_a_move_and_a_command_through_plain_http(served):
    web, url, _ = served
    before = web.state.history()
    status, body = request(url + "/move", "POST", b'{"move": " d9 "}')
    assert status == 200 and body["state"]["refused"].startswith("'d9' is not a legal move here")
    assert web.state.history() == before and body["state"]["legal"] == play.legal_moves(web.state)
    status, body = request(url + "/move", "POST", b'{"move": "help"}')
    assert status == 200 and body["state"]["reply"].startswith("type a move as the legal list")
    move = play.legal_moves(web.state)[0]
    history = len(web.state.history())
    status, body = request(url + "/move", "POST", json.dumps({"move": move}).encode())
    assert status == 200 and len(web.state.history()) > history
    assert body["state"]["view"] == web.person.view(web.state)


def test_the_server_binds_to_127_0_0_1_and_refuses_a_bad_port():
    web = web_play.WebGame("phantom-ttt-3", "random")
    server = web_play.make_server(web, "phantom-ttt-3", "random", 0)
    try:
        assert server.server_address[0] == "127.0.0.1" and server.server_address[1] > 0
        with pytest.raises(play.PlayError, match="--port .*Address already in use"):
            web_play.make_server(web, "phantom-ttt-3", "random", server.server_address[1])
    finally:
        server.server_close()
    with pytest.raises(play.PlayError, match="--port must be 0 .* to 65535, got 70000"):
        web_play.make_server(web, "phantom-ttt-3", "random", 70000)


def test_the_command_names_its_url_and_ctrl_c_stops_it():
    proc = subprocess.Popen(
        [sys.executable, "-m", "fogboard_games", "play", "liars-dice-1", "--web"]
        + ["--opponent", "random", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # (a child of a non-interactive shell would ignore SIGINT)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith("play --web: liars-dice-1 against random on http://127.0.0.1:")
        url = line.split(" on ", 1)[1].split()[0]
        status, text = request(url)
        assert status == 200 and "<!doctype html>" in text
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 0 and "stopped" in out and "Traceback" not in err


def test_port_without_web_is_refused():
    result = subprocess.run(
        [sys.executable, "-m", "fogboard_games", "play", "liars-dice-1", "--port", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2 and "--port is an option of play --web only" in result.stderr
