import os
import sys
import uuid

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: what a pytest-xdist worker must see as the user set it: GNU readline, loaded as a worker starts,
#: sets COLUMNS=80 and LINES=24 (the arena's tables then wrap at 80 columns, not at 160 as piped)
_TERMINAL = ("COLUMNS", "LINES")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist, in the controller: hand each worker the terminal variables as they are here."""
    node.workerinput["arena_terminal"] = {name: os.environ.get(name) for name in _TERMINAL}


def pytest_configure(config):
    """In a pytest-xdist worker: put the terminal variables back as the controller had them."""
    for name, value in getattr(config, "workerinput", {}).get("arena_terminal", {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """In a pytest-xdist worker under ``--dist loadgroup``: end the id of a test marked
    ``xdist_group(NAME)`` in ``@NAME``, the suffix by which the controller sends a group to one
    worker. pytest-xdist 3.8 writes it to ``item._nodeid``, which pytest 9.2 no longer reads (its
    ids are ``item._id``): without this every group was split over the workers."""
    if not (hasattr(config, "workerinput") and config.getvalue("loadgroup")):
        return
    from _pytest.nodeid import NodeId

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium driven over its DevTools protocol (``tests.reports.cdp.Browser``), with a
    profile of its own; skipped without Chromium or websocket-client."""
    from tests.reports.cdp import Browser, find_chromium
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no Chromium on PATH (install Debian's 'chromium' package; .ci/run does)")
    pytest.importorskip("websocket", reason="websocket-client is in the test extra: pip install -e '.[test]'")
    profile = tmp_path / "profile"
    profile.mkdir()
    b = Browser(chromium, profile)
    yield b
    b.close()


@pytest.fixture
def owner(monkeypatch):
    """A token of this test, set in its environment (``tests.machine.OWNER_ENV``) for every
    process it starts: ``tests.machine.owned(token)`` lists those still alive, and no other
    test's or run's."""
    from tests.machine import OWNER_ENV
    token = f"{os.getpid()}-{uuid.uuid4().hex}"
    monkeypatch.setenv(OWNER_ENV, token)
    return token


@pytest.fixture(autouse=True)
def _import_path_restored(monkeypatch):
    """Each test ends with the import path it began with: loading a bot file puts its folder
    first on ``sys.path`` for the rest of the process (``bots.registry``, as ``python mybot.py``
    does), and a test's temporary folder left there let a later test of the same worker import
    another test's ``mybot.py``."""
    monkeypatch.setattr(sys, "path", list(sys.path))
