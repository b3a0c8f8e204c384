"""The runner of the pages' blocks (``tests/docs/blocks.py``) itself."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

from tests.docs.blocks import child_venv


def test_a_page_s_own_environment_sees_the_packages_running_the_tests(tmp_path):
    """The environment a page with a ``pip`` command gets imports what the tests' environment
    imports (typer, the arena's own dependency), at the same version, and is a different
    environment (what the page installs stays in its folder). ``venv --system-site-packages``
    from a virtual environment's Python saw the base interpreter's packages instead."""
    python = child_venv(tmp_path / "venv")
    done = subprocess.run([python, "-c", "import sys, importlib.metadata as m; print(sys.prefix, m.version('typer'))"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
    prefix, typer = done.stdout.split()
    assert (prefix, typer) == (str(tmp_path / "venv"), version("typer"))
    assert prefix != sys.prefix
