"""The oldest versions ``pyproject.toml`` allows of the arena's direct dependencies, as pip
constraints: ``python -m tools.floors [EXTRA ...]`` prints ``name==version`` for each requirement
of ``[project] dependencies`` and of the named extras (an extra's ``arena[...]`` followed), the
version of its ``>=`` (or ``==``) bound. ``.ci/run`` installs the test extra under them in a fresh
environment and runs the quick loop there: a floor that does not work fails CI
(``docs/development.md``, "Lower bounds").
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent


class NoFloor(ValueError):
    """A requirement has no lower bound (``>=`` or ``==``), or an extra is not declared."""


def floors(pyproject: dict, extras: list[str]) -> dict[str, str]:
    """The lowest allowed version of each direct dependency of the project and of ``extras``,
    by canonical name (the order of first appearance).

    Raises:
        NoFloor: a requirement without a ``>=`` or ``==`` bound, or an unknown extra.
    """
    project = pyproject["project"]
    optional = project.get("optional-dependencies", {})
    out: dict[str, str] = {}
    seen: set[str] = set()

    def add(requirements: list[str]) -> None:
        for text in requirements:
            req = Requirement(text)
            if req.name == project["name"]:  # "arena[cluster]": the extra's own requirements
                for extra in sorted(req.extras - seen):
                    take(extra)
                continue
            bounds = [s.version for s in req.specifier if s.operator in (">=", "==")]
            if len(bounds) != 1:
                raise NoFloor(f"requirement {text!r} has no lower bound; accepted: one '>=' or '==' version")
            out.setdefault(req.name.lower().replace("_", "-"), bounds[0])

    def take(extra: str) -> None:
        if extra not in optional:
            raise NoFloor(f"no extra {extra!r} in pyproject.toml; accepted: {', '.join(sorted(optional))}")
        seen.add(extra)
        add(optional[extra])

    add(project["dependencies"])
    for extra in extras:
        take(extra)
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the constraints of the project's floors and of the extras named in ``argv``; 0, or
    2 with a one-line error (``NoFloor``)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        pins = floors(tomllib.loads((ROOT / "pyproject.toml").read_text()), args)
    except NoFloor as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("".join(f"{name}=={version}\n" for name, version in pins.items()), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
