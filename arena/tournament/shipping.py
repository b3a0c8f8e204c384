"""What ``arena run --cluster`` sends to the Dask workers: the bot files (``Client.upload_file``)
and the run's ``RemoteJob`` (``start_job``).

A bot given by path (``path/to/file.py#Class``) reaches each worker as the module ``file``
(workers joining later receive it too), after the modules it imports from beside it (those its
version follows, ``arena.tournament.bot_code``: a module file as itself, a package as a zip of
its files); one that cannot be shipped is refused with one line (``docs/tournaments.md``
"Running on a cluster").
"""

from __future__ import annotations

import importlib.util
import tempfile
import uuid
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import arena.games
from arena.errors import BotSpecError, one_line
from arena.tournament.bot_code import file_code
from arena.tournament.remote import RemoteJob
from arena.tournament.worker import WorkerSetup
from bots.registry import BotSpec


def _clashes(stem: str, path: Path) -> bool:
    """Module ``stem`` exists here and is not this file (an earlier upload of it is: a
    ``local:N`` scheduler in this process puts its copy on ``sys.path``; so is a stale entry
    of a closed ``local:N`` cluster, whose upload folder is gone)."""
    importlib.invalidate_caches()
    found = importlib.util.find_spec(stem)
    if found is None or found.origin is None:
        return found is not None
    if found.has_location and not Path(found.origin).exists():  # a closed cluster's upload
        return False
    try:
        return Path(found.origin).read_bytes() != path.read_bytes()
    except OSError:
        return True


def ship_bots(client: Any, specs: dict[str, BotSpec]) -> dict[str, BotSpec]:
    """Upload each bot file (``path/to/file.py#Class``) to the cluster's workers
    (``Client.upload_file``, which workers joining later receive too) and return the specs
    with those kinds as dotted paths of the uploaded module (``file.Class``).

    Raises:
        BotSpecError: a bot file that cannot be shipped (its name is not a module name,
            clashes with an installed module or another bot file, or the workers cannot
            import it).
    """
    out: dict[str, BotSpec] = {}
    shipped: dict[str, Path] = {}  # module name -> the bot file uploaded as it
    for label, spec in specs.items():
        if "#" not in spec.kind:
            out[label] = spec
            continue
        path_text, _, cls = spec.kind.partition("#")
        path = Path(path_text).resolve()
        stem = path.stem
        why = ("its name is not a Python module name" if not stem.isidentifier()
               else f"module {stem!r} is installed already" if _clashes(stem, path)
               else f"another bot file has the same name ({shipped[stem]})" if shipped.get(stem, path) != path
               else None)
        if why is None and stem not in shipped:
            try:
                why = _ship_beside(client, path, shipped)
                if why is None:
                    client.upload_file(str(path), load=True)
            except Exception as exc:
                why = f"the workers cannot load it: {one_line(exc)}"
        if why is not None:
            raise BotSpecError(f"bot file {path_text!r} cannot be shipped to the cluster: {why}; "
                               "rename it, or install it on every worker and name its class by dotted path")
        shipped[stem] = path
        out[label] = replace(spec, kind=f"{stem}.{cls}")
    return out


def _ship_beside(client: Any, path: Path, shipped: dict[str, Path]) -> str | None:
    """Upload the modules the bot file at ``path`` imports from beside it (``bot_code.file_code``):
    a module file as itself, a package as a zip of the files of it the bot imports. Returns why
    one cannot be shipped, or ``None``; ``shipped``: module name -> what was uploaded as it."""
    found = file_code(path)
    folder = path.parent
    tops: dict[str, list[str]] = {}
    for relative in found.modules if found is not None else {}:
        tops.setdefault(relative.split("/")[0].removesuffix(".py"), []).append(relative)
    for top, files in tops.items():
        single = files == [f"{top}.py"]
        source = folder / (f"{top}.py" if single else top)
        if shipped.get(top, source) != source:
            return f"its module {top!r} has the name of another bot file or module ({shipped[top]})"
        if top in shipped:
            continue
        if _clashes(top, source if single else source / "__init__.py"):
            return f"module {top!r} beside it is installed already"
        if single:
            client.upload_file(str(source), load=True)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                archive = Path(tmp) / f"{top}.zip"
                with zipfile.ZipFile(archive, "w") as zf:
                    for relative in files:
                        zf.write(folder / relative, relative)
                client.upload_file(str(archive), load=True)
        shipped[top] = source
    return None


def start_job(client: Any, setup: WorkerSetup, num_players: int, game_time: float, move_time: float | None,
              retries: int, default_memory: bool) -> RemoteJob:
    """The ``RemoteJob`` of a run on ``client``'s cluster, its bot files shipped (``ship_bots``;
    the runner's fds are the client's own: none closed there). ``game_time``, ``move_time``:
    seconds; ``default_memory``: each worker machine sets its own memory limit.

    Raises:
        BotSpecError: a bot file that cannot be shipped.
    """
    setup = replace(setup, specs=ship_bots(client, setup.specs), close_fds=())
    cls = arena.games.game_class(setup.game)
    return RemoteJob(uuid.uuid4().hex[:12], setup, f"{cls.__module__}:{cls.__qualname__}", num_players,
                     game_time, move_time, retries, default_memory, client.id)
