"""Fixtures of the engine tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def public(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A world-writable (sticky) folder under ``/tmp``, made the temporary folder of the test
    and its workers: the isolated engines' users can read the bot files there, and the engines'
    private directories are made there (counted by the tests). pytest's own base folder
    (``tmp_path``) is fixed before, so that it is not made in this one."""
    tmp_path_factory.getbasetemp()
    path = Path(tempfile.mkdtemp(prefix="arena-test-public-", dir="/tmp"))
    path.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(path))
    monkeypatch.setattr(tempfile, "tempdir", None)
    yield path
    shutil.rmtree(path, ignore_errors=True)
