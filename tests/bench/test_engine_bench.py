"""The engine bench's pinning (``arena.bench.engine.one_cpu``): the figure "on one core" is
measured with this thread and the engines it starts on one CPU, and the old mask comes back."""

import os
import subprocess
import sys

import pytest

from arena.bench.engine import one_cpu

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")


def test_one_cpu_pins_this_thread_and_its_children_then_restores_the_mask():
    old = os.sched_getaffinity(0)
    with one_cpu() as where:
        mask = os.sched_getaffinity(0)
        child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                               capture_output=True, text=True, timeout=120, check=True)
    assert len(mask) == 1 and mask <= old and where == f"CPU {min(old)}"
    assert child.stdout.strip() == str(sorted(mask))  # an engine started inside shares the CPU
    assert os.sched_getaffinity(0) == old
    with one_cpu(False) as where:
        assert where == "unpinned" and os.sched_getaffinity(0) == old


def test_one_cpu_restores_the_mask_after_an_error():
    old = os.sched_getaffinity(0)
    with pytest.raises(RuntimeError), one_cpu():
        raise RuntimeError("a failed measurement")
    assert os.sched_getaffinity(0) == old
