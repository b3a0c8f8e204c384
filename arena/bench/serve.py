"""``arena serve`` beside a run: the run's games/s while 20 pages follow it, against the run alone
(goal: at most 10% slower).

The run (``run_tournament`` in this process, ``--workers 1``): ``greedy`` against ``random`` on
Interaction, a few ms a game, so the server has a game to tell of every few ms. The server is
``arena serve`` in a process of its own on the run's results folder. The 20 clients (one
process, a thread each) do what a tournament page does: each holds the page's event stream
(``/t/NAME/events``), which brings the summary fragment when its tables change, the game count
and the games in progress fragment: no request of its own while it follows. Runs alone and
served are interleaved, ``REPEATS`` each, and the best of each kept: other load on the machine
only slows a run down. The figure is the served run's loss of games/s, in percent; the clients'
own CPU is on the same machine (a browser elsewhere would not cost the run that): the second
figure gives the server's CPU and the note the clients', which on a machine whose cores the run
fills decide the first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from arena.bench import Figure

CLIENTS = 20
REPEATS = 3
NAME = "served"
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _run(results: str, games: int) -> float:
    """Games/s of one run into ``results``."""
    from arena.tournament import build, run_tournament

    start = time.perf_counter()
    summary = run_tournament(build({"game": "interaction", "bots": ["greedy", "random"], "games": games,
                                    "workers": 1, "results": results, "name": NAME}))
    elapsed = time.perf_counter() - start
    assert summary.played == summary.total
    return games / elapsed


def _server(results: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "arena", "serve", "--results", results, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline() if proc.stdout else ""
    if "http://" not in line:
        proc.kill()
        raise RuntimeError(f"arena serve did not start: {line!r}")
    port = line.split("http://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
    return proc, f"http://127.0.0.1:{port}"


def client(url: str, stop: threading.Event, counts: list[int]) -> None:
    """One page: the event stream read until ``stop`` (opened again when it ends);
    ``counts[0]`` counts the events received."""
    while not stop.is_set():
        try:
            with _OPENER.open(f"{url}/t/{NAME}/events", timeout=20) as stream:
                for raw in stream:
                    if stop.is_set():
                        return
                    if raw.startswith(b"event: "):
                        counts[0] += 1
        except (urllib.error.URLError, OSError):  # no store yet, or the stream timed out idle
            time.sleep(0.2)


def clients_main(url: str, n: int) -> None:
    """``n`` clients until this process is stopped (``python -m arena.bench.serve URL N``)."""
    stop, counts = threading.Event(), [0]
    for _ in range(n):
        threading.Thread(target=client, args=(url, stop, counts), daemon=True).start()
    import signal

    def done(*_: object) -> None:
        print(counts[0], flush=True)  # the events received, for the figure's note
        os._exit(0)

    signal.signal(signal.SIGTERM, done)
    print("ready", flush=True)
    while True:
        time.sleep(1)


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a live process so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")


def _served(games: int) -> tuple[float, float, float, float]:
    """(games/s of the run, events/s the pages received meanwhile, the server's share of a core,
    the clients' share of a core)."""
    with tempfile.TemporaryDirectory() as tmp:
        server, url = _server(tmp)
        clients = subprocess.Popen([sys.executable, "-m", "arena.bench.serve", url, str(CLIENTS)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        received = "0"
        try:
            if clients.stdout:  # started: its imports are not the run's cost
                clients.stdout.readline()
            start, cpu, pages = time.perf_counter(), _cpu_seconds(server.pid), _cpu_seconds(clients.pid)
            rate = _run(tmp, games)
            elapsed = time.perf_counter() - start
            cpu, pages = _cpu_seconds(server.pid) - cpu, _cpu_seconds(clients.pid) - pages
        finally:
            for proc in (clients, server):
                proc.terminate()
                proc.wait(30)
            if clients.stdout:
                received = clients.stdout.read().strip() or "0"
            for stream in (server.stdout, clients.stdout):
                if stream:
                    stream.close()
        return rate, int(received) / elapsed, cpu / elapsed, pages / elapsed


def _alone(games: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        return _run(tmp, games)


def run(quick: bool) -> list[Figure]:
    games = 2000 if quick else 6000
    _alone(20)  # imports and compiled code warm
    alone, served = [], []
    for _ in range(REPEATS):
        alone.append(_alone(games))
        served.append(_served(games))
    best_alone, best_served = max(alone), max(r for r, _, _, _ in served)
    asked, core = max(q for _, q, _, _ in served), min(c for _, _, c, _ in served)
    clients = min(c for _, _, _, c in served)
    loss = 100 * (1 - best_served / best_alone)
    load = os.getloadavg()[0]
    note = (f"{games} games (greedy vs random, --workers 1), best of {REPEATS}: alone {best_alone:.1f} games/s, "
            f"served {best_served:.1f} games/s; load average {load:.1f} (on a loaded machine the runs' spread "
            "hides the difference: read the server's CPU below)")
    return [Figure("serve", f"run's games/s lost to {CLIENTS} pages following it", loss, "%", "≤ 10", note),
            Figure("serve", f"server's CPU while {CLIENTS} pages follow the run", 100 * core, "% of a core", "",
                   f"{asked:.0f} events/s to the pages (summaries, game counts, games in progress; no request "
                   f"each); the least of {REPEATS}; "
                   f"the 20 clients themselves took {100 * clients:.0f}% of a core of this machine (a browser "
                   "elsewhere would not)")]


if __name__ == "__main__":  # the clients' process
    clients_main(sys.argv[1], int(sys.argv[2]))
