"""A stand-in for an OpenAI-compatible chat-completions server, answering from a script.

A model server cannot run on the test machine, so the language-model seats
(fogboard_games/bots/llm.py) are tested against this one: it listens on
127.0.0.1 only, answers `POST .../chat/completions` as an OpenAI-compatible
endpoint does (a JSON body with `choices[0].message.content` and `usage`),
and by default answers every prompt with a legal move read from the prompt
itself (the text seat's list of legal moves), picked by a hash of the
prompt, so the same prompt always gets the same reply. A test queues other
answers (garbage, an illegal move, a slow reply, 429, 500, malformed JSON,
an empty reply), which the next requests get in order, and reads every
request received (`server.requests`). Its loop is bounded: it stops after
`max_requests` requests or `seconds` seconds, whichever comes first.

Run alone, it is a model to try a league against without one
(docs/bots.md#language-model-seats):

    python tests/llm_server.py --port 8000 --delay 1
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# What the text seat's prompt puts before its legal moves (bots/text.py MOVES_HEADER).
MOVES_HEADER = "YOUR LEGAL MOVES (one per line)"
RETRY_HEADER = "YOUR PREVIOUS REPLY COULD NOT BE USED"


@dataclasses.dataclass(frozen=True)
class Answer:
    """One scripted answer: `kind` is legal, text, status, malformed, empty or no_choices."""

    kind: str
    text: str = ""
    status: int = 200
    headers: tuple = ()
    delay: float = 0.0


def legal(delay: float = 0.0) -> Answer:
    """A legal move read from the prompt, with a `say` and `notes` line."""
    return Answer("legal", delay=delay)


def text(reply: str, delay: float = 0.0) -> Answer:
    """This reply, whatever the prompt (garbage, an illegal move)."""
    return Answer("text", text=reply, delay=delay)


def status(code: int, headers: dict | None = None, message: str = "", delay: float = 0.0):
    """An HTTP error with a JSON error body (429 with a Retry-After header, 500, 401...)."""
    heads = tuple((headers or {}).items())
    return Answer("status", text=message, status=code, headers=heads, delay=delay)


def malformed() -> Answer:
    """HTTP 200, a JSON content type and a body that is not JSON."""
    return Answer("malformed")


def empty() -> Answer:
    """HTTP 200 with an empty message."""
    return Answer("empty")


def no_choices() -> Answer:
    """HTTP 200 with JSON that holds no choice."""
    return Answer("no_choices")


def legal_moves(prompt: str) -> list[str]:
    """The legal moves the text seat's prompt lists (the first list: a retry repeats them)."""
    if MOVES_HEADER + "\n" not in prompt:
        return []
    block = prompt.split(MOVES_HEADER + "\n", 1)[1].split("\n\n", 1)[0]
    return [line for line in block.splitlines() if line]


def legal_reply(prompt: str) -> str:
    """The default answer: a legal move picked by a hash of the first prompt."""
    first = prompt.split("\n" + RETRY_HEADER)[0]
    moves = legal_moves(first)
    if not moves:
        return "I see no legal moves."
    move = moves[zlib.crc32(first.encode()) % len(moves)]
    return f"say: I play {move}\nnotes: {len(moves)} moves to choose from\nmove: {move}"


def words(value: str) -> int:
    return len(value.split())


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A client gone mid-request (its timeout, a league stopped by Ctrl-C)
        # is what the tests do on purpose: not worth a traceback.
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class StandIn:
    """The server: `url` is its base URL (…/v1), `requests` what it received."""

    def __init__(
        self,
        port: int = 0,
        delay: float = 0.0,
        max_requests: int = 10_000,
        seconds: float = 300.0,
        quiet: bool = True,
    ):
        self.delay = delay  # of every default answer
        self.max_requests = max_requests
        self.quiet = quiet
        # {"at", "path", "headers" (lower case), "body", and "usage" when reported}, in order
        self.requests: list[dict] = []
        self.answers: list[Answer] = []
        self.lock = threading.Lock()
        self.httpd = _Server(("127.0.0.1", port), self._handler())
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        # (polled often, so a test's stop() returns at once)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.deadline = threading.Timer(seconds, self.httpd.shutdown)
        self.deadline.daemon = True

    def start(self) -> StandIn:
        self.thread.start()
        self.deadline.start()
        return self

    def stop(self) -> None:
        self.deadline.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)

    def __enter__(self) -> StandIn:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def queue(self, *answers: Answer) -> None:
        """The next requests get these answers, in order; then the default again."""
        with self.lock:
            self.answers.extend(answers)

    def prompts(self) -> list[str]:
        return [r["body"]["messages"][-1]["content"] for r in self.requests if r.get("body")]

    def _next(self, record: dict) -> Answer | None:
        with self.lock:
            if len(self.requests) >= self.max_requests:
                return None
            self.requests.append(record)
            return self.answers.pop(0) if self.answers else legal(self.delay)

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                if not server.quiet:
                    super().log_message(*args)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(min(length, 2**22))
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = None
                record = {
                    "at": time.monotonic(),
                    "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body,
                }
                answer = server._next(record)
                if answer is None:
                    return self._send(
                        503, {"error": {"message": "the stand-in's bound is reached"}}
                    )
                if not self.path.endswith("/chat/completions") or not isinstance(body, dict):
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                if answer.delay:
                    time.sleep(answer.delay)
                prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
                if answer.kind == "status":
                    said = answer.text or f"scripted {answer.status}"
                    message = {"error": {"message": said, "type": "test"}}
                    return self._send(answer.status, message, dict(answer.headers))
                if answer.kind == "malformed":
                    return self._send_raw(200, b'{"choices": [{"message": ', "application/json")
                if answer.kind == "no_choices":
                    return self._send(200, {"id": "x", "object": "chat.completion", "choices": []})
                reply = {"legal": legal_reply(prompt), "text": answer.text, "empty": ""}[
                    answer.kind
                ]
                record["usage"] = {  # what this answer reports, as a test sums it
                    "prompt_tokens": words(prompt),
                    "completion_tokens": words(reply),
                }
                return self._send(
                    200,
                    {
                        "id": f"stand-in-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            **record["usage"],
                            "total_tokens": words(prompt) + words(reply),
                        },
                    },
                )

            def _send(self, code: int, value, headers: dict | None = None) -> None:
                self._send_raw(code, json.dumps(value).encode(), "application/json", headers)

            def _send_raw(self, code: int, data: bytes, ctype: str, headers=None) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", ctype)
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (its timeout): nothing to tell it

        return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--seconds", type=float, default=3600.0, help="stop after this long")
    parser.add_argument("--max-requests", type=int, default=100_000)
    args = parser.parse_args()
    server = StandIn(args.port, args.delay, args.max_requests, args.seconds, quiet=False)
    print(f"an OpenAI-compatible stand-in on {server.url} (Ctrl-C stops)", flush=True)
    server.thread = threading.current_thread()  # serve in this thread
    server.deadline.start()
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.deadline.cancel()
        server.httpd.server_close()


if __name__ == "__main__":
    main()
