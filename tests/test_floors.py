"""``tools/floors.py``: the constraints ``.ci/run`` installs the oldest allowed dependencies with."""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from tools.floors import ROOT, NoFloor, floors

PROJECT = {"project": {"name": "arena", "dependencies": ["pandas>=2.0", "multiprocessing_logging>=0.3.4,<0.5"],
                       "optional-dependencies": {"cluster": ["dask>=2024.1"], "openspiel": ["open-spiel==2.0.2"],
                                                 "test": ["pytest>=8", "arena[cluster]"]}}}


def test_each_direct_dependency_at_its_lower_bound_extras_followed():
    assert floors(PROJECT, ["test", "openspiel"]) == {
        "pandas": "2.0", "multiprocessing-logging": "0.3.4", "pytest": "8", "dask": "2024.1", "open-spiel": "2.0.2"}
    assert floors(PROJECT, []) == {"pandas": "2.0", "multiprocessing-logging": "0.3.4"}


@pytest.mark.parametrize("requirement", ["numpy", "numpy<3", "numpy>1.2", "numpy~=1.2"])
def test_a_requirement_without_a_floor_is_refused(requirement):
    with pytest.raises(NoFloor, match=f"requirement '{requirement}' has no lower bound; accepted: one '>='"):
        floors({"project": {"name": "arena", "dependencies": [requirement]}}, [])


def test_an_unknown_extra_is_refused():
    with pytest.raises(NoFloor, match="no extra 'nope' in pyproject.toml; accepted: cluster, openspiel, test"):
        floors(PROJECT, ["nope"])


def test_the_command_prints_this_project_s_floors_as_pip_constraints():
    """What ``.ci/run`` runs: every runtime requirement of pyproject.toml (and of the runtime
    extras) pinned, one ``name==version`` a line; a bad extra is one line and exit 2."""
    done = subprocess.run([sys.executable, "-m", "tools.floors", "cluster", "openspiel"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    lines = done.stdout.splitlines()
    assert len(lines) == len(project["dependencies"]) + len(project["optional-dependencies"]["cluster"]) + 1
    assert all(line.count("==") == 1 for line in lines), lines
    bad = subprocess.run([sys.executable, "-m", "tools.floors", "nope"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert (bad.returncode, bad.stdout, len(bad.stderr.splitlines())) == (2, "", 1)
