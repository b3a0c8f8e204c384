"""The arena's command line, called in this process as a user would type it (the tests' one way)."""

from __future__ import annotations

import pytest

from arena.cli.app import main


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``arena ARGS`` through ``main`` (its exit code, stdout and stderr as captured)."""
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err
