"""The code blocks of the documentation that are meant to run, and a runner for them.

A fenced block is run when its info string carries the class ``run`` (a Markdown attribute,
as pymdownx.superfences reads it; GitHub shows the language and ignores the rest):

- ````` ```console {.run} `````: each ``$ `` line is a shell command (a line ending in ``\\``
  continues it); the lines after it, up to the next ``$``, are its expected output, compared
  as doctest compares (``...`` matches anything, whitespace runs are equal). A command is
  expected to exit 0, or 2 when its expected output has an ``error:`` line; one ending in
  `` &`` runs in the background until the page is done.
- ````` ```python {.run title="mybot.py"} ````` (any language): the block is written to that file
  (executable when it starts with ``#!``).
- ````` ```python {.run} ````` without a title: run with Python; a block ````` ```text {.output} `````
  right after it holds the expected output.

A command that is ``arena ARGS`` alone (no shell syntax) runs in this process, as the CLI tests
call it, the others in ``bash``. A block with the class ``slow`` makes its page a slow test.
Every page runs in a fresh folder,
its blocks in order, with ``arena`` and ``python`` on ``PATH`` running this checkout's code; a
page with a ``pip`` command gets a virtual environment of its own (over the shared packages),
so what it installs stays in its folder.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import signal
import site
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

_FENCE = re.compile(r"^(?P<fence>```+)(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.M | re.S)
_ATTRS = re.compile(r"\{(?P<attrs>[^}]*)\}")
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
#: seconds one command may take before the test fails (a loaded 2-core machine)
TIMEOUT = 900


@dataclass
class Block:
    """One fenced block: ``language``, ``classes`` (``run``, ``slow``, ``output``), ``attrs``
    (``title``), ``body`` and its 1-based ``line`` in the page."""

    language: str
    classes: set[str]
    attrs: dict[str, str]
    body: str
    line: int


def blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown page, in order."""
    text = path.read_text()
    out = []
    for m in _FENCE.finditer(text):
        info = m["info"].strip()
        classes: set[str] = set()
        attrs: dict[str, str] = {}
        language = info.split("{")[0].strip()
        a = _ATTRS.search(info)
        if a:
            for word in shlex.split(a["attrs"]):
                if word.startswith("."):
                    classes.add(word[1:])
                elif "=" in word:
                    key, value = word.split("=", 1)
                    attrs[key] = value
            if not language and classes:  # ``` {.console .run}: the first class is the language
                language = sorted(classes, key=a["attrs"].index)[0]
                classes.discard(language)
        out.append(Block(language, classes, attrs, m["body"], text.count("\n", 0, m.start()) + 1))
    return out


@dataclass
class Command:
    """A ``$`` line of a console block and the output expected from it."""

    text: str
    want: str
    line: int

    @property
    def background(self) -> bool:
        return self.text.rstrip().endswith("&")

    @property
    def status(self) -> int:
        return 2 if re.search(r"^error:", self.want, re.M) else 0


def commands(block: Block) -> list[Command]:
    """The commands of a console block with their expected output."""
    out: list[Command] = []
    lines = block.body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            if out:
                out[-1].want += line + "\n"
            i += 1
            continue
        text, start = line[2:], i
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i].strip()
        out.append(Command(text.strip(), "", block.line + 1 + start))
        i += 1
    return out


#: shell syntax that only a shell can run (a command with any of it runs in ``bash``)
_SHELL = re.compile(r"[|&;<>$()`*?~\\]")


def in_process(text: str) -> tuple[dict[str, str], list[str]] | None:
    """(environment, arguments) of a command that is ``[NAME=VALUE ...] arena ARGS`` and nothing
    else, or ``None`` (it needs a shell)."""
    if _SHELL.search(text):
        return None
    words = shlex.split(text)
    env = {}
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    return (env, words[1:]) if words[:1] == ["arena"] else None


def is_slow(path: Path) -> bool:
    return any("slow" in b.classes for b in blocks(path))


def runnable(path: Path) -> bool:
    return any("run" in b.classes for b in blocks(path))


def child_venv(venv: Path) -> str:
    """A virtual environment at ``venv`` that sees every package of the one running this code,
    below its own: the Python that runs it, as a path.

    ``venv --system-site-packages`` is not that: made from a virtual environment's Python, it
    exposes the base interpreter's packages, not the environment's. Instead a ``.pth`` file in
    the new environment's site-packages adds this interpreter's site directories (their own
    ``.pth`` files, such as an editable install's, included) after its own.

    Raises:
        subprocess.CalledProcessError: ``venv`` could not be made.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=TIMEOUT)
    python = str(venv / "bin" / "python")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, timeout=TIMEOUT, stdout=subprocess.PIPE, text=True).stdout.strip()
    shared = [p for p in site.getsitepackages() if os.path.isdir(p)]
    if site.ENABLE_USER_SITE and os.path.isdir(site.getusersitepackages()):
        shared.append(site.getusersitepackages())
    lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in shared)
    (Path(purelib) / "_arena_docs_shared.pth").write_text(lines)
    return python


@dataclass
class Page:
    """Runs the blocks of one page in ``folder``."""

    path: Path
    folder: Path
    env: dict[str, str] = field(default_factory=dict)
    python: str = sys.executable
    background: list[subprocess.Popen] = field(default_factory=list)

    def __post_init__(self) -> None:
        bin_dir = self.folder / ".bin"
        bin_dir.mkdir(parents=True, exist_ok=True)
        python = sys.executable
        wrappers = {}
        if any(c.text.startswith("pip ") for b in blocks(self.path) if "run" in b.classes and b.language == "console"
               for c in commands(b)):
            # a page that installs a package gets a virtual environment of its own (over the shared
            # one's packages), so nothing it installs reaches the environment running the tests
            python = child_venv(self.folder / ".venv")
            wrappers["pip"] = f'exec {shlex.quote(sys.executable)} -m pip --python {shlex.quote(python)} "$@"'
        wrappers["arena"] = f'exec {shlex.quote(python)} -m arena "$@"'
        wrappers["python"] = f'exec {shlex.quote(python)} "$@"'
        for name, target in wrappers.items():
            script = bin_dir / name
            script.write_text(f"#!/bin/sh\n{target}\n")
            script.chmod(0o755)
        self.python = python
        env = dict(os.environ)
        env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
                   PYTHONPATH=os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])]),
                   COLUMNS="120", NO_COLOR="1", TERM="dumb", PYTHONDONTWRITEBYTECODE="1")
        env.pop("FORCE_COLOR", None)
        self.env = env

    def where(self, line: int) -> str:
        return f"{self.path.relative_to(ROOT)}:{line}"

    def run(self) -> None:
        """Run every block marked ``run``, in order.

        Raises:
            AssertionError: a command failed or printed other than its page says.
        """
        try:
            page = blocks(self.path)
            for i, block in enumerate(page):
                if "run" not in block.classes:
                    continue
                if "title" in block.attrs:
                    self.write(block)
                elif block.language == "console":
                    for command in commands(block):
                        self.command(command)
                else:
                    after = page[i + 1] if i + 1 < len(page) and "output" in page[i + 1].classes else None
                    self.script(block, after)
        finally:
            self.stop()

    def write(self, block: Block) -> None:
        target = self.folder / block.attrs["title"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(block.body)
        if block.body.startswith("#!"):
            target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)

    def command(self, command: Command) -> None:
        if command.background:
            self.background.append(subprocess.Popen(
                ["bash", "-c", command.text.rstrip()[:-1]], cwd=self.folder, env=self.env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
            return
        plain = None if self.python != sys.executable else in_process(command.text)
        if plain is not None:
            status, got = self.arena(*plain)
        else:
            done = subprocess.run(["bash", "-c", command.text], cwd=self.folder, env=self.env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
            status, got = done.returncode, done.stdout
        assert status == command.status, (
            f"{self.where(command.line)}: `{command.text}` exited {status}, expected {command.status}:\n{got}")
        self.compare(command.want, got, command.line, command.text)

    def arena(self, env: dict[str, str], args: list[str]) -> tuple[int, str]:
        """``arena ARGS`` in this process (as the CLI tests call it), in the page's folder with
        the page's environment: the same output as a new process, without its start-up (the
        imports of pandas and scipy cost each process a second or two). Bot files are read
        afresh, as a new process would."""
        from arena.cli.app import main

        for name in [m for m in sys.modules if m.startswith("arena_user_bot_")]:
            del sys.modules[name]
        keys = {"PATH", "PYTHONPATH", "COLUMNS", "NO_COLOR", "TERM", *env}
        saved = {k: os.environ.get(k) for k in keys}
        cwd = os.getcwd()
        out = io.StringIO()
        try:
            os.environ.update({k: self.env[k] for k in keys if k in self.env})
            os.environ.update(env)
            os.chdir(self.folder)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                try:
                    main(args)
                    status = 0
                except SystemExit as exc:
                    status = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        finally:
            os.chdir(cwd)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        return status, out.getvalue()

    def script(self, block: Block, output: Block | None) -> None:
        script = self.folder / f".block{block.line}.py"
        script.write_text(block.body)
        done = subprocess.run([self.python, script.name], cwd=self.folder, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT)
        assert done.returncode == 0, f"{self.where(block.line)}: the block failed:\n{done.stdout}"
        if output is not None:
            self.compare(output.body, done.stdout, output.line, "the block above")

    def compare(self, want: str, got: str, line: int, what: str) -> None:
        if not want.strip():
            return
        want = re.sub(r"[ \t]*\.\.\.[ \t]*", "...", want)  # `│ me ... │`: the spaces belong to the "..."
        # a terminal shows no trailing spaces; rich 15 keeps the one at a wrapped line's break
        want, got = (re.sub(r"[ \t]+$", "", text, flags=re.M) for text in (want, got))
        if want.endswith("\n...\n"):  # a closing "..." may stand for nothing more
            want = want[:-len("\n...\n")] + "..."
        if not _CHECKER.check_output(want, got, _FLAGS):
            example = doctest.Example(what, want)
            diff = _CHECKER.output_difference(example, got, _FLAGS)
            raise AssertionError(f"{self.where(line)}: the output of {what} differs from the page:\n{diff}")

    def stop(self) -> None:
        """End the background commands this page started (their sessions: each is its own)."""
        for proc in self.background:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(10)
                except (ProcessLookupError, subprocess.TimeoutExpired):
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    proc.wait(10)
        self.background.clear()
