"""One kernel source, two builds: numba-compiled, or plain Python on lists (the cold start).

A kernel module (``bots.ricochet_search``, ``bots.ricochet_bounds``...) starts with ``kernel,
np, objmode = backend(__name__)`` and writes its kernels in the subset of Python that numba
compiles. A kernel module that calls the kernels of another (``ricochet_search`` those of
``ricochet_moves`` and ``ricochet_table``) names them: ``backend(__name__, uses=(...))``, and
takes them in its own build with ``sibling``. Imported as usual it is the compiled build:
``kernel`` is ``numba.njit(cache=True)``, ``np`` is numpy. ``plain(name)`` loads the same source
file a second time as ``<name>_plain``: ``kernel`` is the identity, ``np`` makes Python lists
(``PlainNumpy``) and ``objmode`` does nothing, so the same code runs as plain Python without
importing numba. Plain Python on lists runs the Ricochet search at 60-190k nodes/s (by the
machine's load), about 1/30 to 1/150 of the compiled build (6M nodes/s on the 25-move puzzle; on
numpy arrays plain Python makes 7k nodes/s: numpy's scalars are slow to index and add), but it
starts at once, while numba's import and its first cached call cost 0.8-1.2 s on the 2-core
machine measured (``bots.ricochet`` "Cold start" gives the figures and the choice).

Values are the same in both builds: the kernels use integers only, and where the compiled
build wraps around (the 64-bit hash product) the plain build keeps every bit, which leaves
the low bits (the ones masked) the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import sys
import threading

#: the suffix of a module name that marks a kernel module's plain-Python copy
PLAIN = "_plain"


class PlainNumpy:
    """The part of numpy the kernels use, making Python lists: a list element is a plain
    ``int`` (numpy's scalars are 10 times slower to index and add in plain Python)."""

    int64 = uint8 = float64 = int

    @staticmethod
    def empty(n, dtype=None):
        return [0] * n

    zeros = empty

    @staticmethod
    def full(n, value, dtype=None):
        return [value] * n

    @staticmethod
    def array(values, dtype=None):
        return [int(v) for v in values]

    @staticmethod
    def frombuffer(data, dtype=None):
        return list(data)

    @staticmethod
    def errstate(**kwargs):  # numpy's; plain ints do not overflow
        return contextlib.nullcontext()


class _NoObjmode:
    """``numba.objmode`` in plain Python: the block runs as it is."""

    def __init__(self, **types):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _identity(func):
    return func


def is_compiled(kernel) -> bool:
    """True when ``kernel`` (the first item of ``backend``'s answer) compiles with numba."""
    return kernel is not _identity


#: hide the libraries numba probes for while its implementation loads
#: (``_load_numba_without_probes``): the choice holds for the whole process, so only
#: ``arena solve`` with a built-in solver sets it, a process that runs no one else's code
LEAN_START = False


def backend(module: str, uses: tuple[str, ...] = ()):
    """``(kernel, np, objmode)`` for the kernel module named ``module``: the plain-Python
    build for a name ending in ``PLAIN``, else the compiled one (importing numba; with no
    numba installed, plain Python on numpy arrays). ``uses``: the kernel modules whose kernels
    this one's call (their source is part of its kernels' cache stamp, ``_with_sources``)."""
    if module.endswith(PLAIN):
        return _identity, PlainNumpy, _NoObjmode
    import numpy
    try:
        import numba
    except ImportError:  # pragma: no cover - the plain-Python fallback
        return _identity, numpy, _NoObjmode
    if LEAN_START:
        _load_numba_without_probes()
    if uses:
        files = tuple(_origin(name) for name in uses)
        return (lambda func: _cached_njit(func, files)), numpy, numba.objmode
    return _cached_njit, numpy, numba.objmode


def sibling(module: str, of: str):
    """The kernel module ``module`` in the build of the kernel module named ``of``: its
    plain-Python copy beside a plain copy, else the module imported as usual (compiled)."""
    return plain(module) if of.endswith(PLAIN) else compiled(module)


def _origin(module: str) -> str:
    """The source file of ``module``.

    Raises:
        ModuleNotFoundError: no such module.
    """
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(f"no module named {module!r}", name=module)
    return spec.origin


def plain(module: str):
    """The plain-Python copy of the kernel module ``module`` (``<module>_plain``), loaded from
    the same source file once per process. Numba is not imported."""
    name = module + PLAIN
    if name in sys.modules:
        return sys.modules[name]
    origin = _origin(module)
    copy = importlib.util.spec_from_file_location(name, origin)
    if copy is None or copy.loader is None:
        raise ImportError(f"cannot load {origin} as {name}", name=name)
    mod = importlib.util.module_from_spec(copy)
    sys.modules[name] = mod
    try:
        copy.loader.exec_module(mod)
    except BaseException:
        del sys.modules[name]
        raise
    return mod


def compiled(module: str):
    """The compiled kernel module ``module`` (imported: numba and the cached kernels load)."""
    return importlib.import_module(module)


def _cached_njit(func, sources: tuple[str, ...] = ()):
    """``numba.njit(cache=True)``: compiled at first use and cached on disk, so later
    processes load it instead of compiling (about 1.5 s saved per process).

    numba writes the cache beside the module (``bots/__pycache__``), or when that folder is
    read-only in its user-wide cache (``NUMBA_CACHE_DIR`` when set, else the user cache
    folder, e.g. ``~/.cache/numba``). With no writable location numba refuses ``cache=True``
    with a ``RuntimeError``; the kernel is then compiled in each process instead, quietly.
    ``sources``: the files of the kernels it calls (``_with_sources``).
    """
    from numba import njit
    try:
        dispatcher = njit(cache=True)(func)
    except RuntimeError:  # "cannot cache function ...: no locator available"
        return njit(func)
    return _with_sources(dispatcher, func, sources) if sources else dispatcher


def _with_sources(dispatcher, func, sources: tuple[str, ...]):
    """``dispatcher`` whose cache also goes stale when a file of ``sources`` changes.

    numba's cache index holds a stamp of the kernel's own file only (``numba.core.caching``:
    the file's hash), and its cached machine code holds the kernels it calls, compiled in: after
    an edit of a called kernel's file alone, the caller would load the old code. Its stamp here
    is the pair (own stamp, hashes of ``sources``), so such an edit compiles again. The stamp
    is numba's private ``_cache._cache_file._source_stamp`` (``tests/bots/test_ricochet_cache.py``
    checks it is there): a numba without it gets the kernel compiled in each process instead.
    """
    from numba import njit
    cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
    if cache_file is None or not hasattr(cache_file, "_source_stamp"):
        return njit(func)
    hashes = []
    for path in sources:
        with open(path, "rb") as f:
            hashes.append(hashlib.sha256(f.read()).hexdigest())
    cache_file._source_stamp = (cache_file._source_stamp, *hashes)
    return dispatcher


#: numba modules imported before the first kernel runs -> the optional library each imports
#: only to offer a feature these kernels do not use
_PROBES = {"numba.np.arraymath": "scipy.linalg", "numba.core.typing.cffi_utils": "cffi"}


def _load_numba_without_probes() -> None:
    """Import numba's implementation modules now, with the libraries they probe for hidden.

    Before the first kernel runs (compiled or loaded from the cache) numba imports all its
    implementation modules (``BaseContext.refresh``). ``numba.np.arraymath`` imports
    ``scipy.linalg`` only to see whether ``np.dot`` may call BLAS (``_check_blas``), and
    ``numba.core.typing.cffi_utils`` builds a ``cffi.FFI()`` (a C parser) to type cffi
    functions: together 0.3-0.5 CPU s of a one-puzzle ``arena solve`` process. These
    kernels use neither. With the import refused (``ImportError``) numba records "no BLAS"
    (``np.correlate`` and ``np.convolve`` then use a plain loop; ``np.dot`` imports scipy when it
    is compiled) and "no cffi"; both libraries import as usual afterwards. A library already
    imported is not hidden, and nothing is hidden while other threads run (one of them could
    be importing the library meanwhile). A numba without these modules is left alone. What
    numba records holds for the whole process (anyone else's numba code there would find no
    cffi support and no BLAS for ``np.correlate``), hence only under ``LEAN_START``.
    """
    if threading.active_count() > 1:
        return
    for module, library in _PROBES.items():
        if module in sys.modules or library in sys.modules:
            continue
        sys.modules[library] = None  # type: ignore[assignment]  # ``import library`` raises ImportError meanwhile
        try:
            importlib.import_module(module)
        except ImportError:  # another numba version without this module: nothing to skip
            pass
        finally:
            if sys.modules.get(library, 0) is None:
                del sys.modules[library]
