"""Language-model figures (issue 44): what the arena costs per model move, and how many games
with a model's seat it plays at once.

Both talk to the tests' chat-completions server (``tests/llm/server.py``: real HTTP on
127.0.0.1, answering a legal move of each prompt), started in a process of its own so that its
CPU is not counted; the bench needs a checkout (it is skipped without ``tests/``).

- Cost per model move: the CPU seconds (this process and the run's workers) that one more model
  move costs in ``run_tournament`` (two runs of different lengths: the run's fixed costs, its
  workers' start and imports, drop out), less the CPU of one raw request by the ``openai``
  client with the same prompt (the round trip any caller pays). Server answering at once,
  ``--llm-cache off``. Goal <= 2 ms.
- Games at once: games of two models on 2 workers (``--concurrency 32``: 64 at once) against
  the server answering each request after 1 s, ``GAMES_PER_THREAD`` games a thread (512): model
  moves per second of wall clock over the whole run, its start and its tail included (goal >= 50
  on two cores, 64 being every game's wait overlapped). A game's plies are played one after the
  other, each after the server's second, so a run lasts at least its longest game (Interaction's
  here: up to 87 plies) after that game began: with 2 games a thread (128 games) no order of the
  games gives more than about 40 moves/s over the whole run, which says nothing of the arena;
  with 8 the tail is a small part. The rate while every thread plays (the middle 60% of the
  requests) is in the note. And the peak resident memory of the run, all its processes
  together (goal <= 2 GiB).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from arena.bench import Figure

#: games each of the run's threads plays in turn (``at_once``): enough that the last games' tail
#: (a run lasts at least its longest game) is a small part of the whole run
GAMES_PER_THREAD = 8
ROOT = Path(__file__).resolve().parents[2]
#: the server process: the tests' server answering a legal move after ``argv[1]`` seconds; it
#: prints its URL, then the requests answered at each line read on its input
_SERVER = """
import sys, time
from tests.llm.server import ChatServer, legal_responder_after
with ChatServer(responder=legal_responder_after(float(sys.argv[1]))) as server:
    print(server.url, flush=True)
    for _ in sys.stdin:
        print(server.count, flush=True)
"""


class _Server:
    """The server process (``_SERVER``), answering after ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        if not (ROOT / "tests" / "llm" / "server.py").exists():
            raise ModuleNotFoundError("tests.llm.server (a checkout's tests/)", name="tests")
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        self.proc = subprocess.Popen([sys.executable, "-c", _SERVER, str(delay)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.url = self.proc.stdout.readline().strip()

    def count(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _run(url: str, folder: str, games: int, workers: int = 1, concurrency: int = 1, name: str = "t") -> None:
    from arena.tournament import build, run_tournament

    bots = [f"a=llm:model=test,base_url={url}", f"b=llm:model=test,base_url={url},temperature=0.5"]
    run_tournament(build(dict(game="interaction", bots=bots, games=games, workers=workers, results=folder,
                              name=name, concurrency=concurrency, llm_cache=False)))


def _raw_request_cpu(url: str, n: int) -> float:
    """CPU seconds of this process per request by the ``openai`` client (a prompt like a game's)."""
    import openai

    client = openai.OpenAI(base_url=url, api_key="none", max_retries=0)
    prompt = ("You play Interaction, a board game. " * 40 + "\nYour legal moves: a1N a2N b3S c4E d5W e6NE f7SW\n"
              "Answer with one move between tags: <move>MOVE</move>")
    messages = [{"role": "user", "content": prompt}]
    client.chat.completions.create(model="test", messages=messages, max_tokens=200)  # type: ignore[arg-type]
    start = _cpu()
    for _ in range(n):
        client.chat.completions.create(model="test", messages=messages, max_tokens=200)  # type: ignore[arg-type]
    return (_cpu() - start) / n


def cost_per_move(quick: bool) -> list[Figure]:
    server = _Server(0.0)
    try:
        raw = _raw_request_cpu(server.url, 50 if quick else 200)
        small, large = (2, 6) if quick else (4, 16)
        with tempfile.TemporaryDirectory(prefix="arena-bench-llm.") as folder:
            runs = []
            for games in (small, large):
                before, cpu = server.count(), _cpu()
                _run(server.url, folder, games, name=f"g{games}")
                runs.append((_cpu() - cpu, server.count() - before))
    finally:
        server.close()
    (cpu1, moves1), (cpu2, moves2) = runs
    per_move = (cpu2 - cpu1) / max(moves2 - moves1, 1)
    return [
        Figure("llm", "raw round trip, CPU per request (openai client, server answering at once)", raw * 1e3, "ms",
               "", f"{moves2} model moves in the longer run"),
        Figure("llm", "arena CPU per model move over the raw round trip (runner + worker)", (per_move - raw) * 1e3,
               "ms", "≤ 2", f"{per_move * 1e3:.2f} ms per model move in all: the marginal move of runs of "
                            f"{small} and {large} games per pairing, --llm-cache off"),
    ]


def _tree_rss() -> int:
    """Resident bytes of this process and all its descendants (``/proc``)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            fields = stat.rsplit(")", 1)[1].split()
            parents[int(entry)] = int(fields[1])
            rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            continue
    mine, grown = {os.getpid()}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in mine} - mine
        grown = bool(more)
        mine |= more
    return sum(rss.get(pid, 0) for pid in mine)


def at_once(quick: bool) -> list[Figure]:
    games = 16 if quick else 64  # at once
    played = (2 if quick else GAMES_PER_THREAD) * games
    delay = 0.2 if quick else 1.0  # seconds a request waits at the server (quick: a check of the figures, no goal)
    server = _Server(delay)
    peak = [0]
    counts: list[tuple[float, int]] = []  # (time, requests answered), every half second
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _tree_rss())
            counts.append((time.perf_counter(), server.count()))
            stop.wait(0.5)
    try:
        with tempfile.TemporaryDirectory(prefix="arena-bench-llm.") as folder:
            thread = threading.Thread(target=watch, daemon=True)
            thread.start()
            t0 = time.perf_counter()
            _run(server.url, folder, played, workers=2, concurrency=games // 2)
            wall = time.perf_counter() - t0
            stop.set()
            thread.join()
            moves = server.count() - counts[0][1]
    finally:
        server.close()
    steady = _steady_rate(counts)
    return [
        Figure("llm", f"{games} games at once on 2 workers, server answering after {delay:g} s: the whole run",
               moves / wall,
               "moves/s", "≥ 50" if not quick else "",
               f"{moves} model moves of {played} games in {wall:.1f}s, the start and the last games' tail included "
               f"(--concurrency {games // 2}); {steady:.1f}/s while every thread plays (the middle 60% of the "
               f"requests)"),
        Figure("llm", f"peak memory of the run, {games} games at once (all its processes)", peak[0] / 2**20, "MiB",
               "≤ 2048", "resident, this process and its workers"),
    ]


def _steady_rate(counts: list[tuple[float, int]]) -> float:
    """Requests per second between the samples at 20% and at 80% of the requests counted."""
    last = counts[-1][1] - counts[0][1]
    inside = [(t, n) for t, n in counts if 0.2 * last <= n - counts[0][1] <= 0.8 * last]
    if len(inside) < 2 or inside[-1][0] <= inside[0][0]:
        return float("nan")
    return (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])


def run(quick: bool) -> list[Figure]:
    return [*cost_per_move(quick), *at_once(quick)]
