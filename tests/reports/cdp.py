"""A headless Chromium driven through the DevTools protocol (``websocket-client``), for the
``browser`` tests of the HTML report: console errors, network requests, clicks, keys and
screenshots."""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess
import time
import urllib.request
import zlib
from pathlib import Path

from tests.machine import stopped

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--proxy-server=127.0.0.1:9", "--remote-debugging-port=0",
         "--window-size=1400,1800"]


def find_chromium() -> str | None:
    """The Chromium binary on PATH, or ``None``."""
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One headless Chromium with a fresh profile in ``profile``; ``page`` is its first tab.

    Events of the page are kept in ``events`` (method, params); ``errors()`` lists console
    errors and uncaught exceptions, ``requests()`` every URL the page asked for.
    """

    def __init__(self, binary: str, profile: Path, timeout: float = 90.0) -> None:
        import websocket  # the test extra's DevTools transport

        self.timeout = timeout
        self.proc = subprocess.Popen([binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while not (port_file.is_file() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("Chromium did not start (no DevToolsActivePort)")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        pages = []
        while not pages:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
                pages = [t for t in json.load(r) if t["type"] == "page"]
            if not pages:
                time.sleep(0.1)
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=timeout,
                                              suppress_origin=True)
        self.events: list[tuple[str, dict]] = []
        self._id = 0
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    def send(self, method: str, **params) -> dict:
        """Call ``method``; its result (events meanwhile go to ``events``).

        Raises:
            RuntimeError: the protocol answered with an error.
        """
        self._id += 1
        self.ws.send(json.dumps({"id": self._id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append((msg["method"], msg.get("params", {})))

    def wait_event(self, method: str) -> dict:
        """Wait for the next event ``method`` (seconds: ``timeout``)."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append((msg["method"], msg.get("params", {})))
                if msg["method"] == method:
                    return msg["params"]
        raise TimeoutError(method)

    def open(self, url: str) -> None:
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expression: str):
        """The value of a JavaScript expression (promises awaited).

        Raises:
            RuntimeError: the expression threw.
        """
        out = self.send("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in out:
            raise RuntimeError(f"{expression}: {out['exceptionDetails']}")
        return out["result"].get("value")

    def key(self, key: str, code: int) -> None:
        """Press and release a key (``ArrowRight``, 39)."""
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode(self.send("Page.captureScreenshot", format="png")["data"])
        path.write_bytes(data)
        return data

    def errors(self) -> list[str]:
        out = []
        for method, p in self.events:
            if method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                out.append(str(p["exceptionDetails"].get("exception", {}).get("description")
                               or p["exceptionDetails"].get("text")))
            elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(p["entry"].get("text", ""))
        return out

    def requests(self) -> list[str]:
        return [p["request"]["url"] for m, p in self.events if m == "Network.requestWillBeSent"]

    def close(self) -> None:
        try:
            if getattr(self, "ws", None):
                self.ws.close()
        finally:
            stopped(self.proc)


def png_colours(data: bytes, limit: int = 64) -> int:
    """Distinct RGB(A) pixel values in the first rows of a PNG (up to ``limit``): 1 for a blank
    image. Reads 8-bit truecolour PNGs (what Chromium writes) with the stdlib's zlib."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), "expects 8-bit RGB or RGBA"
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    prev = bytearray(stride)
    colours: set[bytes] = set()
    for row in range(height):
        line = raw[row * (stride + 1):(row + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for i in range(stride):  # undo the PNG row filter
            a = cur[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                cur[i] = (cur[i] + a) & 255
            elif kind == 2:
                cur[i] = (cur[i] + b) & 255
            elif kind == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        colours.update(bytes(cur[i:i + channels]) for i in range(0, stride, channels))
        if len(colours) >= limit:
            break
        prev = cur
    return len(colours)
