"""Play in the browser: `play PRESET --web` (docs/bots.md#play-in-the-browser).

A small server of the standard library's (ThreadingHTTPServer) on
127.0.0.1 only, holding one game. It is terminal play with buttons, not a
second implementation: the game is set up, advanced, answered and ended
by play.py's own functions, so the page shows exactly the text the
terminal prints (the seat's view, its record, the verdict) and every move
goes through `string_to_action`, a refused one answered with the
terminal's message (status 200 and `refused`: the request was well made)
and the state untouched. It serves its own routes and nothing
else (no file is ever served), and refuses a bad request with a status
and a one-line JSON message, the refusals http.server makes itself (a
malformed request line, headers too long, a method it has no handler
for) included. A client that hangs up before its answer is let go
quietly. The page places every text with textContent.
"""

from __future__ import annotations

import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from fogboard_games import play
from fogboard_games.core.guards import JSONTextError, parse_json, quoted, shortened
from fogboard_games.pages.review import review_page

HOST = "127.0.0.1"
MAX_BODY = 4096  # a move is a few bytes
FIELDS = ("move",)
ROUTES = {
    "/": "GET",
    "/state": "GET",
    "/move": "POST",
    "/review.json": "GET",
    "/replay.html": "GET",
}
METHODS = "GET, POST"
# What each refusal http.server makes before a route is reached allows
# instead (its own reason, such as "Bad request syntax ('X')", goes before it).
WELL_FORMED = {
    HTTPStatus.BAD_REQUEST: "a request line is METHOD PATH HTTP/1.0 or HTTP/1.1",
    HTTPStatus.REQUEST_URI_TOO_LONG: "a request line is at most 65536 bytes",
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: "at most 100 headers of at most 65536 bytes each",
    HTTPStatus.HTTP_VERSION_NOT_SUPPORTED: "this server speaks HTTP/1.0 and HTTP/1.1",
}


class Refused(Exception):
    """A request refused: its status and the one line that says why."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


class WebGame:
    """One game of a person against bots, as terminal play would play it."""

    def __init__(self, preset, opponent, seat=0, seed=0, save=None):
        self.game, self.others, self.rng = play.setup(preset, opponent, seat, seed, save)
        self.seat, self.save = seat, save
        self.state = self.game.new_initial_state()
        self.person = play.Person(self.game.ruleset, seat)
        self.lock = threading.Lock()
        self.status = "playing"  # then "over" or "abandoned"
        self.review: dict | None = None
        self.transcript = [play.greeting(preset, opponent, self.person, self.others)]
        self._to_the_person()

    def _to_the_person(self) -> None:
        """Bots and chance play; then the terminal's text before a prompt, or its ending."""
        play.advance(self.state, self.seat, self.others, self.rng)
        if not self.state.is_terminal():
            self.legal = play.legal_moves(self.state)
            self.transcript.append(self.person.news(self.state))
            self.transcript.append(
                f"\n{self.person.view(self.state)}\nlegal: {', '.join(self.legal)}\n"
            )
            return
        self.legal = []
        self.status = "over"
        self.transcript.append(play.ending(self.state, self.person))
        self.review = play.final_review(self.state, self.others)
        if self.save:
            try:
                self.transcript.append(play.save_review(self.review, self.save))
            except play.PlayError as e:
                self.transcript.append(f"play: {e}\n")

    def snapshot(self, reply: str = "", refused: str | None = None) -> dict:
        over = self.status == "over"
        return {
            "status": self.status,
            "refused": refused,
            "transcript": "".join(self.transcript),
            "view": "" if self.status == "abandoned" else self.person.view(self.state),
            "legal": list(self.legal),
            "reply": reply,
            "review": "/review.json" if over else None,
            "replay": "/replay.html" if over else None,
        }

    def move(self, typed: str) -> dict:
        """The person's line (a move or a command); Refused when it cannot be played."""
        with self.lock:
            if self.status != "playing":
                raise Refused(HTTPStatus.CONFLICT, f"the game is {self.status}: no move is taken")
            self.transcript.append(f"your move> {typed}\n")
            action, reply = play.answer(typed, self.state, self.person, self.legal)
            self.transcript.append(reply)
            if action == play.QUIT:
                self.status, self.legal = "abandoned", []
            elif action is None:
                # (200, not 4xx: a request well made, its move refused by the
                # rules as the terminal refuses it; the state is untouched)
                return self.snapshot(reply, refused=reply.rstrip("\n"))
            elif action != play.COMMAND:
                self._to_the_person()
            return self.snapshot(reply)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fogboard_games: play</title>
<link rel="icon" href="data:,">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:60em;color:#222}
pre{background:#f6f6f2;padding:.6em;white-space:pre-wrap;max-height:28em;overflow:auto}
#moves button{margin:.15em;font:inherit;padding:.2em .6em}
#error{color:#a00}
</style></head><body>
<h1 id="title"></h1>
<p id="status"></p>
<h2>Your view</h2><pre id="view"></pre>
<div id="moves"></div>
<form id="typed"><input id="line" autocomplete="off" placeholder="a move, or help, rules, history, quit">
<button type="submit" id="send">send</button></form>
<p id="error"></p>
<p id="links"></p>
<h2>The game so far</h2><pre id="log"></pre>
<script>
var GAME = __GAME__;
var shown = 0;  // answers shown, on the body for a reader (or a test) to wait on
document.getElementById('title').textContent = GAME.preset + ': play against ' + GAME.opponent;
function show(s) {
  document.getElementById('status').textContent =
    s.status === 'playing' ? 'your move' : 'the game is ' + s.status;
  document.getElementById('view').textContent = s.view;
  var log = document.getElementById('log');
  log.textContent = s.transcript;
  log.scrollTop = log.scrollHeight;
  var moves = document.getElementById('moves');
  moves.replaceChildren();
  s.legal.forEach(function (m) {
    var b = document.createElement('button');
    b.textContent = m;
    b.className = 'move';
    b.addEventListener('click', function () { send(m); });
    moves.appendChild(b);
  });
  document.getElementById('typed').hidden = s.status !== 'playing';
  var links = document.getElementById('links');
  links.replaceChildren();
  [['review', 'download the review (JSON)'], ['replay', 'the review page']].forEach(function (k) {
    if (!s[k[0]]) return;
    var a = document.createElement('a');
    a.href = s[k[0]];
    a.id = k[0];
    a.textContent = k[1];
    if (k[0] === 'review') a.download = 'review.json';
    links.appendChild(a);
    links.appendChild(document.createTextNode(' '));
  });
  document.body.dataset.shown = ++shown;
}
function send(line) {
  fetch('/move', {method: 'POST', headers: {'Content-Type': 'application/json'},
                  body: JSON.stringify({move: line})})
    .then(function (r) { return r.json().then(function (body) { return [r.ok, body]; }); })
    .then(function (got) {
      var s = got[1].state;
      document.getElementById('error').textContent = got[0] ? s.refused || '' : got[1].error;
      if (s) show(s);
    });
}
document.getElementById('typed').addEventListener('submit', function (e) {
  e.preventDefault();
  var line = document.getElementById('line');
  send(line.value);
  line.value = '';
});
fetch('/state').then(function (r) { return r.json(); }).then(show);
</script></body></html>
"""


def page(preset: str, opponent: str) -> str:
    """The play page; its names are embedded as JSON with '<' escaped and shown with textContent."""
    from fogboard_games.pages.league import embedded_json

    return PAGE.replace("__GAME__", embedded_json({"preset": preset, "opponent": opponent}))


def handler(web: WebGame, preset: str, opponent: str):
    """The request handler class serving `web`'s routes and nothing else."""
    html = page(preset, opponent).encode()

    class Handler(BaseHTTPRequestHandler):
        server_version = "fogboard_games-play"
        sys_version = ""

        def log_message(self, format, *args):  # (quiet: the terminal shows the URL only)
            pass

        def _send(self, status, body: bytes, kind: str, extra=()):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Cache-Control", "no-store")
            self.send_header(
                "Content-Security-Policy",
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                "connect-src 'self'; img-src data:",
            )
            for k, v in extra:
                self.send_header(k, v)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _json(self, status, value, extra=()):
            self._send(status, json.dumps(value).encode(), "application/json", extra)

        def _refuse(self, e: Refused, extra=()):
            body = {"error": str(e)}
            if e.status == HTTPStatus.CONFLICT:
                with web.lock:
                    body["state"] = web.snapshot()
            self._json(e.status, body, extra)

        def _route(self, method: str) -> str:
            path = urlsplit(self.path).path
            host = self.headers.get("Host", "")
            port = self.server.server_address[1]
            if host not in (f"{HOST}:{port}", f"localhost:{port}"):
                # (a page elsewhere reaching us through a name bound to 127.0.0.1)
                raise Refused(HTTPStatus.FORBIDDEN, f"Host {host!r} is not this server's")
            if path not in ROUTES:
                raise Refused(
                    HTTPStatus.NOT_FOUND,
                    f"no such page {path!r}; this server has {', '.join(ROUTES)} only",
                )
            if ROUTES[path] != method:
                raise Refused(
                    HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes {ROUTES[path]}, not {method}"
                )
            return path

        def do_GET(self):
            try:
                path = self._route("GET")
                if path == "/":
                    return self._send(HTTPStatus.OK, html, "text/html; charset=utf-8")
                with web.lock:
                    if path == "/state":
                        return self._json(HTTPStatus.OK, web.snapshot())
                    if web.status != "over":
                        raise Refused(HTTPStatus.CONFLICT, f"{path} is there once the game is over")
                    if path == "/review.json":
                        body = (json.dumps(web.review, indent=1) + "\n").encode()
                        return self._send(
                            HTTPStatus.OK,
                            body,
                            "application/json",
                            [("Content-Disposition", 'attachment; filename="review.json"')],
                        )
                    review = web.review
                # (built outside the lock: the page replays the whole game)
                self._send(HTTPStatus.OK, review_page(review).encode(), "text/html; charset=utf-8")
            except Refused as e:
                self._refuse(e)

        def do_POST(self):
            try:
                self._route("POST")
                typed = self._move()
                self._json(HTTPStatus.OK, {"state": web.move(typed)})
            except Refused as e:
                self._refuse(e)

        def _move(self) -> str:
            """The body's move: a JSON object {"move": a string}, at most MAX_BODY bytes."""
            kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                raise Refused(
                    HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                    f"a move is sent as application/json, not {kind or 'no type'}",
                )
            length = self.headers.get("Content-Length")
            if length is None or not length.isascii() or not length.isdigit():
                raise Refused(HTTPStatus.LENGTH_REQUIRED, "a move needs a Content-Length")
            if int(length) > MAX_BODY:
                self.close_connection = True  # (the body is not read)
                raise Refused(
                    HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                    f"a body of {length} bytes; a move is at most {MAX_BODY}",
                )
            raw = self.rfile.read(int(length))
            try:
                body = parse_json(raw.decode("utf-8"), 'a move {"move": "..."}')
            except UnicodeDecodeError:
                raise Refused(
                    HTTPStatus.BAD_REQUEST, 'the body is not UTF-8 JSON; send {"move": "..."}'
                ) from None
            except JSONTextError as e:  # (a key given twice too: which move would it be?)
                raise Refused(HTTPStatus.BAD_REQUEST, f"the body: {e}") from None
            if not isinstance(body, dict):
                raise Refused(HTTPStatus.BAD_REQUEST, 'the body is not an object {"move": "..."}')
            unknown = sorted(set(body) - set(FIELDS))
            if unknown:
                raise Refused(
                    HTTPStatus.BAD_REQUEST,
                    f"unknown field {unknown[0]!r}; the fields are {', '.join(FIELDS)}",
                )
            if not isinstance(body.get("move"), str):
                raise Refused(HTTPStatus.BAD_REQUEST, 'the body needs "move", a string')
            return body["move"]

        def parse_request(self):
            if not super().parse_request():
                return False
            if self.request_version == "HTTP/0.9":  # (a bare `GET /`: no headers, no Host)
                self.send_error(HTTPStatus.BAD_REQUEST, "No HTTP version")
                return False
            return True

        def send_error(self, code, message=None, explain=None):
            """Every refusal http.server makes itself, answered as this server's own
            (one-line JSON, not its HTML page): 501, its answer to a method without
            a do_ method here (TRACE, CONNECT, PROPFIND, HEAD...), is the 405 with
            Allow that a method this server does not take gets."""
            self.close_connection = True  # (what is left of the request is not read)
            if self.request_version == "HTTP/0.9":
                # (http.server's own default before the version is read: no
                # status line or headers would be written)
                self.request_version = "HTTP/1.0"
            if code == HTTPStatus.NOT_IMPLEMENTED:
                return self._refuse(
                    Refused(
                        HTTPStatus.METHOD_NOT_ALLOWED,
                        f"{quoted(self.command)} is not taken here; this server takes {METHODS}",
                    ),
                    [("Allow", METHODS)],
                )
            status = HTTPStatus(code)
            why = explain or message or status.phrase
            allowed = WELL_FORMED.get(status, "see docs/bots.md#play-in-the-browser")
            self._refuse(Refused(status, f"{shortened(why)}; {allowed}"))

    return Handler


class Server(ThreadingHTTPServer):
    """The standard library's threading server, quiet about clients gone away."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hung up before its answer (a closed tab, a reload) is
        # no fault of the server's: no traceback, and the next request is served.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(web: WebGame, preset: str, opponent: str, port: int = 0) -> Server:
    """The server of `web` on 127.0.0.1:`port` (0: a free port), not yet serving."""
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        raise play.PlayError(f"--port must be 0 (a free port) to 65535, got {port!r}")
    try:
        return Server((HOST, port), handler(web, preset, opponent))
    except OSError as e:
        raise play.PlayError(f"--port {port}: {e.strerror or e}") from None


def serve(preset, opponent, seat=0, seed=0, save=None, port=0, out=sys.stdout) -> int:
    """`play PRESET --web`: serve one game until Ctrl-C; returns the exit status."""
    web = WebGame(preset, opponent, seat, seed, save)
    server = make_server(web, preset, opponent, port)
    url = f"http://{HOST}:{server.server_address[1]}/"
    print(f"play --web: {preset} against {opponent} on {url} (Ctrl-C stops)", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nplay --web: stopped", file=out, flush=True)
    finally:
        server.server_close()
    return 0
