"""The preload of the Dask workers of ``arena run --cluster local:N`` (``distributed``'s
``preload`` option): a worker process ignores SIGINT.

A Ctrl-C at the terminal goes to the whole process group, the Dask workers of a ``local:N``
cluster included; the arena process stops the run and closes the cluster, and a worker that
took the Ctrl-C itself only printed Dask's tracebacks. The workers the cluster starts are born
with SIGINT ignored (``dask_connect``); this preload does the same for a worker the nanny
starts again later (after a worker was killed).
"""

from __future__ import annotations

import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    """Ignore SIGINT in this worker process (Dask calls this as the worker starts, in the
    process's main thread; elsewhere nothing is changed)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: a worker run inside another program
        pass
