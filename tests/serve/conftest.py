"""Fixtures of the ``arena serve`` tests: a server started as ``arena serve --port 0`` (a
subprocess of its own, stopped by its pid at the end) and plain HTTP requests to it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.machine import stopped


#: direct connections only: a proxy set in the environment never sees the tests' requests
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class _Keep(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: ANN002, ANN003 - a redirect is answered as it is
        return None


#: direct connections that answer a redirect as it is (its status and Location)
NO_REDIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}), _Keep())


class Server:
    """One ``arena serve`` process: ``url`` (``http://127.0.0.1:PORT``), ``host`` (the address
    it says it listens on), ``proc``."""

    def __init__(self, results: Path, *args: str, timeout: float = 60.0) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--results", str(results), "--port", "0",
                                      *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "NO_COLOR": "1"})
        deadline = time.monotonic() + timeout
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline() if self.proc.stdout else ""
            if "http://" in line or not line:
                break
        m = re.search(r"http://([^/]+):(\d+)/", line)
        if not m:
            self.stop()
            why = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"arena serve did not start: {line!r} {why}")
        self.host, self.port = m.group(1), int(m.group(2))
        self.url = f"http://127.0.0.1:{self.port}"

    def get(self, path: str, headers: dict | None = None, timeout: float = 60.0) -> tuple[int, bytes]:
        """``(status, body)`` of a GET of ``path``."""
        req = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with OPENER.open(req, timeout=timeout) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def post(self, path: str, data: dict | bytes, headers: dict | None = None,
             timeout: float = 60.0) -> tuple[int, bytes, dict]:
        """``(status, body, headers)`` of a POST of ``data`` (a form's fields, url-encoded, or
        bytes as they are) to ``path``, redirects not followed; ``headers`` default to those
        of the server's own page (``Origin`` the server)."""
        body = data if isinstance(data, bytes) else urllib.parse.urlencode(data).encode()
        sent = {"Origin": self.url, "Content-Type": "application/x-www-form-urlencoded"}
        req = urllib.request.Request(self.url + path, data=body, method="POST",
                                     headers=sent if headers is None else headers)
        try:
            with NO_REDIRECT.open(req, timeout=timeout) as r:
                return r.status, r.read(), dict(r.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read(), dict(exc.headers)

    def play_state(self, sid: str) -> dict:
        """The state of the page's game ``sid`` (``GET /play/SID/state``, which must answer 200)."""
        status, body = self.get(f"/play/{sid}/state")
        assert status == 200, body
        return json.loads(body)

    def stop(self) -> None:
        stopped(self.proc, 15)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()


@pytest.fixture
def serve() -> Iterator:
    """``serve(results, *args) -> Server``; every server started is stopped at the end."""
    for module in ("starlette", "uvicorn"):
        pytest.importorskip(module, reason="arena serve needs the serve extra: pip install -e '.[serve]'")
    started: list[Server] = []

    def start(results: Path, *args: str) -> Server:
        server = Server(results, *args)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
