"""The code of a bot file as its version sees it (``arena.tournament.members``): its parsed code,
and the modules it imports from beside it.

A bot file is imported with its own folder first on the import path, as ``python mybot.py``
would run it (``bots.registry``), so it may import a module beside it (``import helpers``,
``from tables import WEIGHTS``, a package folder). Its version follows that code:

- **the parsed code**, not the bytes: the digest is of the module's syntax tree (``ast``) with
  the docstrings left out, so a comment, a blank line, a docstring or a reformatting (line
  breaks, spaces, quotes, parentheses) keeps the version, and any change to what the code does
  makes a new one. A file that does not parse is digested by its bytes;
- **the modules it imports from beside it**, read from its ``import`` statements (anywhere in
  the file, a function's body too), and theirs in turn: each module found beside the bot file
  (``helpers.py``, ``pkg/__init__.py``, ``pkg/sub.py``) is digested the same way. Modules found
  elsewhere (the standard library, installed packages), and those the bot gets from elsewhere
  whatever is beside it (the arena's own ``arena`` and ``bots``, a module already imported from
  another folder), are not;
- what it cannot follow is said (``unfollowed``): a module imported by a computed name
  (``importlib.import_module``, ``__import__``, a file loaded by path). Data files a bot reads
  are never followed.
"""

from __future__ import annotations

import ast
import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: calls that import a module whose name the code computes: their modules cannot be followed
DYNAMIC_IMPORTS = frozenset({"__import__", "import_module", "spec_from_file_location", "run_path", "load_source",
                             "SourceFileLoader"})
#: the arena's own packages: never followed from beside a bot file (a bot that imports them
#: gets the arena's, already imported; the arena's version is its own)
ARENA_PACKAGES = frozenset({"arena", "bots"})
#: the most modules beside a bot file that are followed (a folder of thousands is not read whole)
MAX_MODULES = 200


@dataclass
class FileCode:
    """What of a bot file's code its version follows.

    Attributes:
        digest: SHA-256 (hex) of the file's parsed code (``parsed_digest``), or of its bytes
            when it does not parse (``parsed`` False).
        parsed: whether the file parsed.
        modules: each module imported from beside the file, by its path relative to the
            file's folder (``helpers.py``, ``pkg/sub.py``) -> its digest, sorted by path.
        unfollowed: one entry each for an import that cannot be followed (``mybot.py:12
            importlib.import_module``).
    """

    digest: str
    parsed: bool = True
    modules: dict[str, str] = field(default_factory=dict)
    unfollowed: list[str] = field(default_factory=list)


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with each module, class and function docstring removed (in place)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                del body[0]
    return tree


def _canonical(node: object) -> str:
    """A text of a syntax tree that is the same for the same code on any Python since 3.9:
    each node's type and its fields, leaving out the empty ones (``ast.dump``'s own text changed
    with Python 3.13), never positions."""
    if isinstance(node, ast.AST):
        parts = [type(node).__name__]
        for name, value in ast.iter_fields(node):
            if value is None or value == [] or (name == "kind" and isinstance(node, ast.Constant)):
                continue  # ``kind``: the ``u`` prefix of a string, no part of its value
            parts.append(f"{name}={_canonical(value)}")
        return "(" + " ".join(parts) + ")"
    if isinstance(node, list):
        return "[" + ",".join(_canonical(v) for v in node) + "]"
    return repr(node)


def _parse(source: bytes, name: str) -> ast.Module | None:
    try:
        return ast.parse(source, filename=name)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte
        return None


def parsed_digest(tree: ast.Module) -> str:
    """SHA-256 (hex) of a module's syntax tree without its docstrings (``_canonical``)."""
    return hashlib.sha256(_canonical(_without_docstrings(tree)).encode()).hexdigest()


def _imported(tree: ast.Module, package: str | None) -> tuple[list[str], list[tuple[int, str]]]:
    """The dotted module names ``tree`` imports by name (``from m import x`` gives ``m`` and
    ``m.x``, which may be a submodule; a relative import resolved within ``package``, the
    importing module's package, and left out without one), and its calls that import by a
    computed name (line, name)."""
    names: list[str] = []
    dynamic: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if package is None:
                    continue  # a top-level module's relative import fails when it runs
                parts = package.split(".")
                if node.level - 1 >= len(parts):
                    continue
                base = ".".join(parts[:len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names.append(base)
            names += [f"{base}.{a.name}" for a in node.names if a.name != "*"]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called in DYNAMIC_IMPORTS:
                dynamic.append((node.lineno, called))
    return names, dynamic


def _imported_already(top: str, folder: Path) -> bool:
    """Whether module ``top`` is one the bot gets from elsewhere whatever is beside it: the
    arena's own packages (``arena``, ``bots``: a built-in's version is the arena's), or a
    module this process (whose workers are its forks) has imported from another folder."""
    if top in ARENA_PACKAGES:
        return True
    module = sys.modules.get(top)
    where = getattr(module, "__file__", None) if module is not None else None
    if module is None:
        return False
    return where is None or not Path(where).resolve().is_relative_to(folder)


def _locate(folder: Path, dotted: str) -> list[tuple[str, Path, bool]]:
    """The files beside (in ``folder``) that importing ``dotted`` runs: (module name, file,
    is a package) for each part found (``pkg/__init__.py``, then ``pkg/sub.py``), stopping at the
    first part not there."""
    out: list[tuple[str, Path, bool]] = []
    here, parts = folder, dotted.split(".")
    for i, part in enumerate(parts):
        if not part.isidentifier():
            break
        name = ".".join(parts[:i + 1])
        module, package = here / f"{part}.py", here / part
        if (package / "__init__.py").is_file():
            out.append((name, package / "__init__.py", True))
            here = package
        elif module.is_file():
            out.append((name, module, False))
            break  # a module has no submodules
        elif package.is_dir():
            here = package  # a namespace package: its submodules may be here
        else:
            break
    return out


def file_code(path: str | Path) -> FileCode | None:
    """The code of the bot file at ``path`` and of the modules it imports from beside it
    (``FileCode``), or ``None`` when the file cannot be read."""
    path = Path(path)
    try:
        source = path.read_bytes()
    except OSError:
        return None
    tree = _parse(source, path.name)
    if tree is None:
        return FileCode(hashlib.sha256(source).hexdigest(), parsed=False)
    out = FileCode(parsed_digest(tree))
    _follow(tree, path, out)
    out.modules = dict(sorted(out.modules.items()))
    return out


def _follow(tree: ast.Module, path: Path, out: FileCode) -> None:
    """Add to ``out`` the modules the bot file at ``path`` (parsed: ``tree``) imports from beside
    it, theirs in turn, and what cannot be followed."""
    folder = path.resolve().parent
    seen: set[Path] = {path.resolve()}
    todo: list[tuple[ast.Module, str | None, str]] = [(tree, None, path.name)]
    while todo:
        module, package, shown = todo.pop()
        names, dynamic = _imported(module, package)
        out.unfollowed += [f"{shown}:{line} {name}" for line, name in dynamic]
        for dotted in names:
            if _imported_already(dotted.partition(".")[0], folder):
                continue
            for name, file, is_package in _locate(folder, dotted):
                if file in seen:
                    continue
                if len(seen) > MAX_MODULES:
                    out.unfollowed.append(f"more than {MAX_MODULES} modules beside it")
                    return
                seen.add(file)
                relative = file.relative_to(folder).as_posix()
                try:
                    text = file.read_bytes()
                except OSError:
                    out.unfollowed.append(f"{relative} unreadable")
                    continue
                parsed = _parse(text, relative)
                if parsed is None:
                    out.modules[relative] = hashlib.sha256(text).hexdigest()
                    continue
                out.modules[relative] = parsed_digest(parsed)
                todo.append((parsed, name if is_package else name.rpartition(".")[0] or None, relative))
