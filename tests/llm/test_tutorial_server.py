"""The tutorial's stand-in chat server (``docs/tutorials/llm.md``, ``chat_server.py``) runs
outside the checkout: saved in an empty folder and run without ``PYTHONPATH``, it serves."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
import urllib.request

from tests.docs.blocks import ROOT, blocks

PAGE = ROOT / "docs" / "tutorials" / "llm.md"


def _script() -> str:
    found = [b.body for b in blocks(PAGE) if b.attrs.get("title") == "chat_server.py"]
    assert len(found) == 1
    return found[0]


def test_the_tutorial_server_imports_the_standard_library_alone():
    imported = set()
    for node in ast.walk(ast.parse(_script())):
        if isinstance(node, ast.Import):
            imported |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").partition(".")[0])
    assert imported <= set(sys.stdlib_module_names), imported - set(sys.stdlib_module_names)


def test_the_tutorial_server_serves_from_an_empty_folder(tmp_path):
    (tmp_path / "chat_server.py").write_text(_script())
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    server = subprocess.Popen([sys.executable, "-I", "chat_server.py"], cwd=tmp_path, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "server.url").exists() or not (tmp_path / "server.url").read_text():
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            assert time.monotonic() < deadline
            time.sleep(0.1)
        url = (tmp_path / "server.url").read_text()
        models = json.load(urllib.request.urlopen(f"{url}/models", timeout=30))
        assert [m["id"] for m in models["data"]] == ["test"]
        body = json.dumps({"model": "test", "messages": [{"role": "user", "content": "Your legal moves: a1 b2"}]})
        request = urllib.request.Request(f"{url}/chat/completions", body.encode(),
                                         {"Content-Type": "application/json"})
        reply = json.load(urllib.request.urlopen(request, timeout=30))
        text = reply["choices"][0]["message"]["content"]
        assert text.splitlines()[-1] in ("<move>a1</move>", "<move>b2</move>")
    finally:
        server.kill()
        server.wait()
        if server.stderr:
            server.stderr.close()
