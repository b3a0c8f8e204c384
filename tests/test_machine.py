"""``tests.machine``: a test finds in ``/proc`` the processes it started, and no other."""

import os
import subprocess
import sys

import pytest

from tests.machine import OWNER_ENV, owned

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: Linux")


def test_owned_lists_what_this_test_started_and_nothing_else(owner):
    mine = subprocess.Popen(["sleep", "60"], start_new_session=True)  # its environment has the token
    other = subprocess.Popen(["sleep", "60"], env={**os.environ, OWNER_ENV: "another-test"})
    try:
        assert owned(owner) == [mine.pid]
    finally:
        for proc in (mine, other):
            proc.kill()
            proc.wait()
    assert owned(owner) == []
