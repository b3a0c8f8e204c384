"""``POST /play`` starts only the arena's own built-in bots, and only from the server's own
page: a spec that runs a command (``exec:``), imports a file or a dotted path, or sends a key
of the server's environment to a host (``llm:``) is refused 400 before anything is made; a
post from another origin (any site the user visits) is refused 403."""

from __future__ import annotations

import socket

import pytest

pytestmark = pytest.mark.slow  # a server of its own


def _refused_specs(tmp_path, marker, port: int) -> list[str]:
    bot_file = tmp_path / "evil_bot.py"
    bot_file.write_text(f"open({str(marker)!r}, 'w').close()\nclass Bot:\n    def choose(self, s, l):\n"
                        "        return None\n")
    sys_path_module = tmp_path / "evil_mod.py"
    sys_path_module.write_text(bot_file.read_text())
    return [f"exec:sh -c 'touch {marker}'",
            f"evil=exec:sh -c 'touch {marker}'",
            f"{bot_file}#Bot",
            "evil_mod.Bot",
            f"llm:model=m,key_env=HOME,base_url=http://127.0.0.1:{port}/v1",
            "human"]


def test_play_refuses_specs_that_run_other_code(tmp_path, serve):
    results, marker = tmp_path / "results", tmp_path / "pwned"
    results.mkdir()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(1.0)
    server = serve(results)
    try:
        for spec in _refused_specs(tmp_path, marker, listener.getsockname()[1]):
            for seat in ("0", "1"):
                status, body, _ = server.post("/play", {"game": "interaction", "bot": spec, "seat": seat})
                assert status == 400, (spec, status, body[:300])
                assert b"cannot be started from a web page" in body, body[:300]
        with pytest.raises(TimeoutError):
            listener.accept()  # the llm bot never called its base_url
    finally:
        listener.close()
    assert not marker.exists()
    assert not (results / "play-interaction.sqlite").exists()


def test_play_refuses_a_post_from_another_origin(tmp_path, serve):
    server = serve(tmp_path)
    form = {"game": "interaction", "bot": "random", "seat": "0"}
    for headers in ({"Origin": "http://evil.example"},
                    {"Origin": "http://127.0.0.1:1"},
                    {"Referer": "http://evil.example/page"},
                    {}):  # neither: not the server's page
        status, body, _ = server.post("/play", form, headers={**headers, "Content-Type":
                                                                "application/x-www-form-urlencoded"})
        assert status == 403, (headers, status, body)
    assert not (tmp_path / "play-interaction.sqlite").exists()
    status, _, _ = server.post("/play/nosuchgame/move", b'{"move": "quit"}',
                               headers={"Origin": "http://evil.example", "Content-Type": "application/json"})
    assert status == 403
    # the server's own page (its Origin, or only its Referer) starts the game
    status, _, headers = server.post("/play", form)
    assert status == 303 and headers["location"].startswith("/play/"), (status, headers)
    sid = headers["location"].rsplit("/", 1)[1]
    status, _, _ = server.post(f"/play/{sid}/move", b'{"move": "quit"}',
                               headers={"Referer": f"{server.url}/play/{sid}", "Content-Type": "application/json"})
    assert status in (200, 409)
