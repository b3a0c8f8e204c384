"""The tests' chat-completions server itself (``tests/llm/server.py``): it must not add a
delay of its own to each answer, or the bench's figures (``arena bench --only llm``) measure it."""

import socket
import statistics
import time

import openai

from tests.llm.server import Step


def test_an_answer_at_once_takes_no_delayed_ack(serve):
    """``TCP_NODELAY``: no answer waits for the client's delayed ACK (40 ms on Linux), as its
    second small write (the body) did under Nagle's algorithm. The median of 15 round trips on
    one kept-alive connection; before the fix it was over 40 ms."""
    server = serve([Step("<move>i4N</move>")])
    client = openai.OpenAI(base_url=server.url, api_key="none", max_retries=0)
    messages = [{"role": "user", "content": "Your legal moves: i4N"}]
    times = []
    for _ in range(16):
        t0 = time.perf_counter()
        client.chat.completions.create(model="test", messages=messages, max_tokens=20)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t0)
    assert statistics.median(times[1:]) < 0.030, times


def test_a_request_whose_body_never_arrived_is_not_counted(serve):
    """A client killed between its headers and its body (``kill -9`` of a run) sent no request:
    the server counts, records and answers only whole ones (a provider bills no such request)."""
    server = serve([Step("<move>i4N</move>")])
    host, port = server.url.split("//")[1].split("/")[0].split(":")
    with socket.create_connection((host, int(port)), timeout=20) as conn:
        conn.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 500\r\n\r\n")  # and no body
        conn.shutdown(socket.SHUT_WR)
        assert conn.recv(100) == b""  # closed, no answer
    client = openai.OpenAI(base_url=server.url, api_key="none", max_retries=0)
    client.chat.completions.create(model="test", messages=[{"role": "user", "content": "hi"}])  # type: ignore[arg-type]
    assert server.count == 1 and server.bodies[0]["messages"][0]["content"] == "hi"
