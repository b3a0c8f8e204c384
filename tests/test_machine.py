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


def test_a_noted_pid_taken_by_a_later_process_is_neither_counted_nor_killed(tmp_path):
    """``assert_no_survivors`` reads the start time a hostile bot noted with its pid: a process
    that got the pid later (pids wrap at ``pid_max``, 32768 here) is not the bot's leftover."""
    from tests.fixtures.hostile_bots import started
    from tests.tournament.hostile import alive, assert_no_survivors
    later = subprocess.Popen(["sleep", "60"])
    try:
        (tmp_path / f"{later.pid}.pid").write_text("1")  # the pid's earlier owner started at tick 1
        assert_no_survivors(tmp_path, seconds=0)
        assert later.poll() is None
        (tmp_path / f"{later.pid}.pid").write_text(started(later.pid))  # the bot's own: left, and killed
        with pytest.raises(AssertionError, match="processes of the run left"):
            assert_no_survivors(tmp_path, seconds=0)
        assert later.wait(10) == -9 and not alive(later.pid)
    finally:
        later.kill()
        later.wait()
