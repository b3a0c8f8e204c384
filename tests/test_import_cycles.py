"""No two modules of the project import each other (issue 19: ``sandpile/state.py`` and
``text.py`` did), counting imports inside functions too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, known: set[str]) -> set[str]:
    """Project modules that ``path`` imports anywhere in its body."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {m for m in found if m in known and m != name}


def test_no_two_modules_import_each_other():
    files = [p for pkg in ("arena", "bots") for p in (ROOT / pkg).rglob("*.py")]
    known = {module_name(p) for p in files}
    graph = {module_name(p): imports(p, known) for p in files}
    pairs = sorted({tuple(sorted((a, b))) for a, deps in graph.items() for b in deps if a in graph.get(b, ())})
    # a package's __init__ re-exporting its submodules, which import the package, is not a cycle of modules
    pairs = [(a, b) for a, b in pairs if not (b.startswith(a + ".") or a.startswith(b + "."))]
    assert pairs == [], f"modules importing each other: {pairs}"
