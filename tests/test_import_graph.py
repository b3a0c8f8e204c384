"""The import graph of ``arena`` and ``bots`` holds its layers (issue 28, "Layers that hold").

Every import counts, at module level or inside a function (a lazy import still ties the two
modules), including ``TYPE_CHECKING`` ones. The test fails on:

- a circle of modules (any length: ``a -> b -> c -> a``) among the imports that run; an import
  under ``if TYPE_CHECKING:`` never runs, and the one use of it that closes a circle, a mixin
  naming its host class in annotations (``games/*/search.py`` and ``state.py``), must stay
  inside one package (``test_type_only_back_references_stay_in_their_package``);
- a circle of packages (``arena.X`` for a subpackage or top-level module of ``arena``, and
  ``bots``), e.g. ``bots -> arena.engine -> bots``;
- an import that runs upward against ``LAYERS`` or sideways between two layers of one rank.

``LAYERS`` is the architecture (``docs/architecture.md``, ``docs/arena.md``): a module may import
its own layer and the layers of a lower rank only. A new module must be placed in it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: (rank, layer, module prefixes): lowest rank first; a module belongs to the layer of its
#: longest matching prefix.
LAYERS: list[tuple[int, str, tuple[str, ...]]] = [
    (0, "foundation", ("arena", "arena.errors", "arena.numbers", "arena.os_guard")),
    (1, "rules", ("arena.games",)),
    (1, "statistics", ("arena.stats",)),
    (2, "bots", ("bots",)),
    (3, "one game", ("arena.referee", "arena.supervisor")),
    (4, "engines", ("arena.engine",)),
    (4, "openings", ("arena.openings",)),
    (4, "watch", ("arena.watch",)),
    (4, "language models", ("arena.llm",)),
    (5, "results", ("arena.results",)),
    (6, "tournament", ("arena.tournament",)),
    (6, "reports", ("arena.reports",)),
    (7, "bench", ("arena.bench",)),
    (8, "commands", ("arena.cli", "arena.__main__")),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


FILES = sorted(p for pkg in ("arena", "bots") for p in (ROOT / pkg).rglob("*.py"))
KNOWN = {module_name(p) for p in FILES}


def _type_only(tree: ast.AST) -> set[int]:
    """ids of the nodes inside ``if TYPE_CHECKING:`` blocks of ``tree``."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                out.update(id(n) for n in ast.walk(stmt))
    return out


def imports(path: Path, type_only: bool = True) -> set[str]:
    """Project modules ``path`` imports anywhere in its body (``from pkg import mod`` counts
    as ``pkg.mod`` when that is a module, else as ``pkg``); ``type_only=False`` leaves out
    the imports under ``if TYPE_CHECKING:``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text())
    skip = set() if type_only else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.update(f"{base}.{a.name}" if f"{base}.{a.name}" in KNOWN else base for a in node.names)
    out = set()
    for mod in found:
        while mod and mod not in KNOWN:  # a name imported from a module: the module
            mod = mod.rpartition(".")[0]
        if mod and mod != name:
            out.add(mod)
    return out


GRAPH = {module_name(p): imports(p) for p in FILES}
#: the imports that run (``TYPE_CHECKING`` blocks left out)
RUNTIME = {module_name(p): imports(p, type_only=False) for p in FILES}


def layer(module: str) -> tuple[int, str]:
    best = max(((len(prefix), rank, name) for rank, name, prefixes in LAYERS for prefix in prefixes
                if module == prefix or module.startswith(prefix + ".")), default=None)
    assert best is not None, f"{module} is in no layer: place it in LAYERS (and the table of docs/architecture.md)"
    return best[1], best[2]


def unit(module: str) -> str:
    """The package a module counts in for package circles: ``arena.X`` or ``bots``."""
    parts = module.split(".")
    return "bots" if parts[0] == "bots" else ".".join(parts[:2])


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_is_read():
    """The walk sees the imports it must judge (a broken walk would pass every check)."""
    assert "arena.games" in GRAPH["bots.base"] and "arena.stats.sprt" in GRAPH["arena.reports.output"]
    assert "arena.cli.app" in GRAPH["arena.__main__"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_of_modules():
    # a package's __init__ importing its submodules is no circle: submodules never import their
    # package's __init__ by name here (that would show as one)
    assert circles(RUNTIME) == []


def test_type_only_back_references_stay_in_their_package():
    """A circle closed by ``TYPE_CHECKING`` imports alone (a mixin and its host class) lies
    within one package."""
    for component in circles(GRAPH):
        assert len({m.rpartition(".")[0] for m in component}) == 1, f"type-only circle across packages: {component}"


def test_no_circle_of_packages():
    packages: dict[str, set[str]] = {}
    for module, deps in GRAPH.items():
        packages.setdefault(unit(module), set()).update(unit(d) for d in deps if unit(d) != unit(module))
    assert circles(packages) == []


def test_every_import_runs_down_the_layers():
    wrong = []
    for module, deps in sorted(GRAPH.items()):
        rank, name = layer(module)
        for dep in sorted(deps):
            dep_rank, dep_name = layer(dep)
            if dep_rank > rank or (dep_rank == rank and dep_name != name):
                wrong.append(f"{module} ({name}) -> {dep} ({dep_name})")
    assert wrong == [], "imports against the layers:\n" + "\n".join(wrong)


def test_bots_never_import_the_engine():
    assert not [(m, d) for m, deps in GRAPH.items() if m.startswith("bots") for d in deps
                if d.startswith("arena.engine")]


def loaded_after(module: str) -> set[str]:
    """Top-level names of the modules a fresh interpreter holds after ``import module``."""
    code = f"import sys, {module}; print(' '.join(sorted({{m.partition('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(out.stdout.split())


@pytest.mark.parametrize("module", ["arena.stats.elo", "arena.stats.sprt", "arena.stats.field", "arena.stats.luce",
                                    "arena.stats.ranking", "arena.tournament.adaptive"])
def test_the_runner_side_statistics_load_no_scipy_or_pandas(module):
    assert not {"scipy", "pandas"} & loaded_after(module)


def test_importing_the_runner_loads_no_pandas_or_scipy():
    assert not {"scipy", "pandas"} & loaded_after("arena.tournament.runner")
