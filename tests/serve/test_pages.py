"""``arena serve`` 's pages over a small stored tournament: the list, the browser's filters and
pages in Chromium, a replay stepped to its last ply, the exports, the token of a server that
listens beyond this machine, and the refusal of such a server without one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.results.browse import GameFilter, change_mark, game_page
from tests.reports.stores import final_position, make_store


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("served")
    make_store(folder, "interaction", fault=True)
    return folder


@pytest.mark.slow  # a server (its imports: seconds) and an arena export
def test_pages_and_exports(results, serve):
    server = serve(results)
    assert server.host == "127.0.0.1"  # this machine only, unless told otherwise
    status, body = server.get("/")
    assert status == 200 and b'href="/t/interaction"' in body
    status, body = server.get("/t/interaction")
    assert status == 200 and b'id="table-ratings"' in body and b'id="game-count"' in body
    status, body = server.get("/t/interaction/report")
    assert status == 200 and b"Plotly.newPlot" in body
    status, body = server.get("/t/interaction/export/jsonl")
    rows = [json.loads(line) for line in body.decode().splitlines()]
    out = subprocess.run([sys.executable, "-m", "arena", "export", "interaction", "--results", str(results),
                          "--out", "-"], capture_output=True, text=True, check=True).stdout
    assert status == 200 and rows == [json.loads(line) for line in out.splitlines()]
    assert server.get("/t/interaction/export/csv")[0] == 200
    assert server.get("/t/nope")[0] == 404 and server.get("/t/interaction/export/exe")[0] == 404
    assert server.get("/t/interaction/games/999")[0] == 404
    assert server.get("/t/interaction/games?min_plies=ten")[0] == 400


@pytest.mark.browser
@pytest.mark.slow
def test_browser_filters_and_replay_in_chromium(results, serve, browser):
    server = serve(results)
    path = results / "interaction.sqlite"
    browser.open(f"{server.url}/t/interaction/games")
    label = browser.eval("document.querySelector('select[name=bot] option:nth-child(2)').value")
    browser.eval(f"""(() => {{ document.querySelector('select[name=bot]').value = {json.dumps(label)};
        document.querySelector('select[name=seat]').value = '1'; }})()""")
    browser.send("Runtime.evaluate", expression="document.getElementById('apply').click()")
    browser.wait_event("Page.loadEventFired")
    shown = browser.eval("[...document.querySelectorAll('#game-list tbody tr')].map(r => Number(r.dataset.id))")
    expected = [g["game_id"] for g in game_page(path, GameFilter(bot=label, seat=1)).games]
    assert shown == expected and shown
    assert browser.eval("document.getElementById('matching').textContent").startswith(f"{len(expected)} games")
    game_id = shown[0]
    browser.open(f"{server.url}/t/interaction/games/{game_id}")
    frames = browser.eval("window.arenaReplay.view.frames.length")
    browser.eval("document.getElementById('next').click()")
    assert browser.eval("window.arenaReplay.view.ply") == 1
    for _ in range(frames):
        browser.key("ArrowRight", 39)
    assert browser.eval("window.arenaReplay.view.ply") == frames - 1
    assert browser.eval("document.getElementById('position-text').textContent") == final_position(path, game_id)
    assert browser.eval("document.querySelector('#board svg') !== null")
    browser.key("Home", 36)
    assert browser.eval("document.getElementById('ply-label').textContent") == f"ply 0 / {frames - 1}"
    assert browser.errors() == []


@pytest.mark.slow
def test_token_is_required_beyond_this_machine(results, serve):
    server = serve(results, "--host", "0.0.0.0", "--token", "s3cret")
    assert server.host == "0.0.0.0"
    assert server.get("/")[0] == 401
    assert server.get("/t/interaction")[0] == 401
    assert server.get("/t/interaction/export/jsonl", {"X-Arena-Token": "wrong"})[0] == 403
    assert server.get("/?token=wrong")[0] == 403
    assert server.get("/t/interaction/events", {"Cookie": "arena_token=nope"}, timeout=10)[0] == 403
    assert server.get("/", {"Authorization": "Bearer s3cret"})[0] == 200
    assert server.get("/t/interaction/summary", {"X-Arena-Token": "s3cret"})[0] == 200
    status, body = server.get("/t/interaction/export/jsonl", {"Cookie": "arena_token=s3cret"})
    assert status == 200 and body.startswith(b'{"game_id": 1')


@pytest.mark.browser
@pytest.mark.slow
def test_token_in_the_browser(results, serve, browser):
    server = serve(results, "--host", "0.0.0.0", "--token", "s3cret")
    browser.open(f"{server.url}/t/interaction")  # no token: refused
    assert "token" in browser.eval("document.body.textContent")
    browser.open(f"{server.url}/?token=s3cret")  # the query's token sets the cookie the page's links carry
    browser.open(f"{server.url}/t/interaction")
    stored = change_mark(results / "interaction.sqlite")[0]
    assert browser.eval("document.getElementById('game-count').textContent") == str(stored)


def test_other_hosts_need_a_token(tmp_path):
    for args in (["--host", "0.0.0.0"], ["--host", "192.168.1.10", "--port", "9"]):
        out = subprocess.run([sys.executable, "-m", "arena", "serve", "--results", str(tmp_path), *args],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and "--token" in out.stderr and len(out.stderr.strip().splitlines()) == 1
    out = subprocess.run([sys.executable, "-m", "arena", "serve", "--results", str(tmp_path / "none")],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "no results folder" in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "arena", "serve", "--results", str(tmp_path), "--host", "nowhere",
                          "--token", "t"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--host" in out.stderr


def test_a_port_in_use_is_one_line(tmp_path):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)  # another server of this test listens there
    port = taken.getsockname()[1]
    try:
        out = subprocess.run([sys.executable, "-m", "arena", "serve", "--results", str(tmp_path), "--port", str(port)],
                             capture_output=True, text=True, timeout=60)
    finally:
        taken.close()
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [out.stderr.strip()] and "Traceback" not in out.stderr
    assert f"port {port}" in out.stderr and "in use" in out.stderr and "--port 0" in out.stderr
