"""The engine server's process I/O (``arena engine SPEC``, ``arena.engine.server``): the
protocol's output as single ``os.write`` calls on a private copy of fd 1, and its input as
lines read with raw ``os.read`` (no text layer: a message leaves at once, in one piece, and a
line is handled as soon as it is complete)."""

from __future__ import annotations

import os
from collections.abc import Iterator


class FdOutput:
    """The protocol's output on a file descriptor: each ``write`` is one ``os.write`` of the
    UTF-8 text (no text or buffer layer to flush: a message leaves at once, in one piece)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, text: str) -> None:
        data = text.encode("utf-8", "backslashreplace")  # a bot's text with lone surrogates: escaped
        written = os.write(self.fd, data)
        if written < len(data):  # a pipe takes up to 64 KiB at once; the rest (a long line) in more writes
            view = memoryview(data)
            while written < len(data):
                written += os.write(self.fd, view[written:])

    def flush(self) -> None:
        """Nothing to do (each write is already out)."""


def read_lines(fd: int) -> Iterator[str]:
    """The lines read from ``fd`` (``\n`` removed; bad UTF-8 replaced), each as soon as it
    is complete: raw ``os.read`` calls, one per batch of lines the arena writes at once."""
    pending = b""
    while chunk := os.read(fd, 65536):
        *lines, pending = (pending + chunk if pending else chunk).split(b"\n")
        for raw in lines:
            yield raw.decode("utf-8", "replace")
    if pending:
        yield pending.decode("utf-8", "replace")
