"""A local chat-completions server for tests: real HTTP on 127.0.0.1 (port 0), speaking the JSON
the ``openai`` client expects (``POST /v1/chat/completions`` with ``choices``, ``finish_reason``
and ``usage``; ``GET /v1/models``), with scripted answers and a request counter.

    with ChatServer([Step("<move>i4N</move>"), Step(status=429, headers={"Retry-After": "1"})]) as server:
        bot = make(f"llm:model=test,base_url={server.url}")
        ...
        assert server.count == 1

Each chat request takes the next ``Step`` of the script; once the script is used up, the
``responder`` (if given) makes the step from the request's body, else the last step repeats.
``legal_responder`` answers a move of the prompt's ``Your legal moves:`` line, chosen by the
prompt's digest (the same prompt, the same move): a player for whole games;
``legal_responder_after(seconds)`` the same, slowly.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Step:
    """One scripted answer.

    Attributes:
        text: the message content of a 200 answer.
        finish_reason: ``stop``, ``length``...
        status: the HTTP status (not 200: an error body ``{"error": {"message": ...}}``).
        delay: seconds to wait before answering (a slow server).
        headers: extra response headers (``Retry-After``; ``Content-Type`` replaces the JSON one).
        message: the error message of a non-200 answer.
        tokens_in, tokens_out: the ``usage`` counts.
        raw: when given, the exact body of a 200 answer instead (a broken server: not JSON, no
            ``choices``...).
    """

    text: str = ""
    finish_reason: str = "stop"
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    message: str = "scripted error"
    tokens_in: int = 100
    tokens_out: int = 10
    raw: str | None = None


_LEGAL_LINE = re.compile(r"^Your legal moves: (.+)$", re.M)


def legal_responder(body: dict[str, Any]) -> Step:
    """A legal move of the last ``Your legal moves:`` line of the request's messages, picked by
    the digest of the messages (deterministic); ``pass`` when there is no such line."""
    text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    found = _LEGAL_LINE.findall(text)
    if not found:
        return Step("<move>pass</move>")
    moves = found[-1].split()
    pick = int(hashlib.sha256(text.encode()).hexdigest(), 16) % len(moves)
    return Step(f"Thinking... done.\n<move>{moves[pick]}</move>")


def legal_responder_after(seconds: float) -> Callable[[dict[str, Any]], Step]:
    """``legal_responder`` answering after ``seconds`` (a model that takes its time)."""
    def respond(body: dict[str, Any]) -> Step:
        return replace(legal_responder(body), delay=seconds)
    return respond


class _Server(ThreadingHTTPServer):
    """A threaded HTTP server whose listen queue takes many connections at once (64 games'
    requests; the default of 5 resets the others)."""

    request_queue_size = 256
    daemon_threads = True


class ChatServer:
    """The server (see the module doc); a context manager that starts and stops it.

    Attributes:
        url: the API root to give as ``base_url=`` (``http://127.0.0.1:PORT/v1``).
        count: chat requests received so far.
        bodies: their JSON bodies, in order.
        auth: their ``Authorization`` headers, in order.
    """

    def __init__(self, script: Sequence[Step] = (), responder: Callable[[dict[str, Any]], Step] | None = None,
                 models: Sequence[str] = ("test",)) -> None:
        self.script = list(script)
        self.responder = responder
        self.models = list(models)
        self.count = 0
        self.bodies: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop serving (a slow answer still waiting ends at once)."""
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def _next(self, body: dict[str, Any]) -> Step:
        with self._lock:
            self.count += 1
            self.bodies.append(body)
            index = self.count - 1
        if index < len(self.script):
            return self.script[index]
        if self.responder is not None:
            return self.responder(body)
        return self.script[-1] if self.script else Step("<move>pass</move>")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            #: ``TCP_NODELAY``: an answer is not held back by Nagle's algorithm until the client's
            #: delayed ACK (40 ms a request on Linux: ``test_server.py``)
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                pass

            def _send(self, status: int, payload: dict[str, Any] | str,
                      headers: dict[str, str] | None = None) -> None:
                data = (payload if isinstance(payload, str) else json.dumps(payload)).encode()
                try:
                    self.send_response(status)
                    given = headers or {}
                    self.send_header("Content-Type", given.get("Content-Type", "application/json"))
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in given.items():
                        if name != "Content-Type":
                            self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:  # the client gave up (its timeout)
                    pass

            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path.rstrip("/").endswith("/models"):
                    self._send(200, {"object": "list", "data": [
                        {"id": m, "object": "model", "created": 0, "owned_by": "tests"} for m in server.models]})
                else:
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if len(raw) < length:  # the client died while sending: no request to answer (nor to count)
                    self.close_connection = True
                    return
                body = json.loads(raw or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
                    return
                server.auth.append(self.headers.get("Authorization"))
                step = server._next(body)
                if step.delay and server._closing.wait(step.delay):
                    return
                if step.status != 200:
                    self._send(step.status, {"error": {"message": step.message, "type": "scripted",
                                                       "code": step.status}}, step.headers)
                    return
                if step.raw is not None:
                    self._send(200, step.raw, step.headers)
                    return
                self._send(200, {
                    "id": f"chatcmpl-{server.count}", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "test"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": step.text},
                                 "finish_reason": step.finish_reason, "logprobs": None}],
                    "usage": {"prompt_tokens": step.tokens_in, "completion_tokens": step.tokens_out,
                              "total_tokens": step.tokens_in + step.tokens_out}}, step.headers)

        return Handler


def refused_url() -> str:
    """An API root on 127.0.0.1 where nothing listens (a port bound and let go): connections
    to it are refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
