import pytest

from tests.llm.server import ChatServer


@pytest.fixture(autouse=True)
def llm_env(tmp_path, monkeypatch):
    """No response cache unless a test sets one; rate-limit files in the test's own folder."""
    monkeypatch.delenv("ARENA_LLM_CACHE", raising=False)
    monkeypatch.setenv("ARENA_LLM_LIMITS", str(tmp_path / "limits"))


@pytest.fixture
def serve():
    """``serve(script, responder=None)``: a started ``ChatServer``, stopped after the test."""
    started = []

    def start(script=(), responder=None, **kw):
        server = ChatServer(script, responder, **kw).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.close()
