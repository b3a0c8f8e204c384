"""Bad command-line input: one line on stderr, exit code 2, no traceback."""

import subprocess
import sys

import pytest


def arena(*args):
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args", [["nosuchcommand"], ["bots", "--no-such-option"]])
def test_usage_errors_are_one_line(args):
    r = arena(*args)
    assert r.returncode == 2
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1
    assert "Traceback" not in r.stderr + r.stdout


def test_no_arguments_prints_help():
    r = arena()
    assert r.returncode == 0 and "Usage" in r.stdout
