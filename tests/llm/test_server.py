"""The tests' chat-completions server itself (``tests/llm/server.py``): it must not add a
delay of its own to each answer, or the bench's figures (``arena bench --only llm``) measure it."""

import statistics
import time

import openai

from tests.llm.server import Step


def test_an_answer_at_once_takes_no_delayed_ack(serve):
    """``TCP_NODELAY``: no answer waits for the client's delayed
    ACK (40 ms on Linux), as its second small write (the body) did under Nagle's algorithm. The median of 15
    round trips on one kept-alive connection; before the fix it was over 40 ms."""
    server = serve([Step("<move>i4N</move>")])
    client = openai.OpenAI(base_url=server.url, api_key="none", max_retries=0)
    messages = [{"role": "user", "content": "Your legal moves: i4N"}]
    times = []
    for _ in range(16):
        t0 = time.perf_counter()
        client.chat.completions.create(model="test", messages=messages, max_tokens=20)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t0)
    assert statistics.median(times[1:]) < 0.030, times
