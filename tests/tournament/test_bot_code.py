"""A bot file's version follows its code, not its bytes (issue 41): a comment, a docstring or a
reformatting keeps the version; the file imports modules beside it without ``PYTHONPATH``, and
an edit to one of them is a new version; an import by a computed name is said in one line; a
store whose versions are digests of the files' bytes resumes with no new version."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from pathlib import Path

from arena.tournament import build, run_tournament
from arena.tournament.bot_code import file_code
from arena.tournament.members import identify
from arena.tournament.observers import Observer, RunStart
from bots.registry import parse_spec

FIXTURES = Path(__file__).parents[1] / "fixtures"
BOT = '''"""My bot."""
import {module}


class Bot:
    def choose(self, state, limits):
        return {module}.pick(state.legal_moves())
'''
PICK = "def pick(moves):\n    return moves[{index}]\n"


class Notes(Observer):
    def __init__(self) -> None:
        self.notes: tuple[str, ...] = ()

    def started(self, start: RunStart) -> None:
        self.notes = start.notes


def run(tmp_path, bots, **extra):
    notes = Notes()
    cfg = build(dict(game="nim", params={"pile": "9"}, bots=bots, games=4, workers=1, results=str(tmp_path / "r"),
                     opening_plies=1, name="pool") | extra)
    return run_tournament(cfg, [notes]), notes.notes


def labels(path):
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT label FROM bots ORDER BY position")]
    finally:
        conn.close()


def test_comments_docstrings_and_formatting_keep_the_version(tmp_path):
    bot = tmp_path / "mybot.py"
    plain = "class Bot:\n    def choose(self, state, limits):\n        return state.legal_moves()[0]\n"
    bot.write_text(plain)
    first, _ = run(tmp_path, [f"me={bot}#Bot", "random"])
    assert first.played == 4
    bot.write_text('"""A bot."""\n\n\nclass Bot:  # the first move\n    """Plays first."""\n\n'
                   "    def choose(self, state, limits) :\n        return (state.legal_moves() [0])  # it\n")
    again, notes = run(tmp_path, [f"me={bot}#Bot", "random"])
    assert again.played == 0 and notes == ()
    bot.write_text(plain.replace("[0]", "[-1]"))  # what it does changed: a new version
    changed, notes = run(tmp_path, [f"me={bot}#Bot", "random"])
    assert changed.played == 4 and notes == (f"bot 'me' changed since its 4 stored games ({bot}): "
                                             "playing them again as me@2",)


def test_a_bot_file_imports_a_module_beside_it_and_its_edit_is_a_new_version(tmp_path, monkeypatch):
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "mybot.py").write_text(BOT.format(module="pickrule"))
    (folder / "pickrule.py").write_text(PICK.format(index=0))
    monkeypatch.chdir(tmp_path)  # not the bot's folder: nothing but the arena puts it on the path
    assert str(folder) not in sys.path
    first, notes = run(tmp_path, ["me=bot/mybot.py#Bot", "random"])
    assert first.played == first.done == 4 and notes == ()
    (folder / "pickrule.py").write_text("# a comment\n" + PICK.format(index=0))
    assert run(tmp_path, ["me=bot/mybot.py#Bot", "random"])[0].played == 0
    (folder / "pickrule.py").write_text(PICK.format(index=-1))
    changed, notes = run(tmp_path, ["me=bot/mybot.py#Bot", "random"])
    assert changed.played == 4
    assert notes == ("bot 'me' changed since its 4 stored games (pickrule.py): playing them again as me@2",)
    assert labels(changed.path) == ["me", "random", "me@2"]


def test_modules_of_a_package_beside_are_followed_and_others_are_not(tmp_path):
    (tmp_path / "mybot.py").write_text("import json\nfrom pkg import sub\n\n\ndef f():\n    import late\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("from . import inner\n")
    (tmp_path / "pkg" / "sub.py").write_text("X = 1\n")
    (tmp_path / "pkg" / "inner.py").write_text("from .sub import X\n")
    (tmp_path / "late.py").write_text("Y = 2\n")
    (tmp_path / "unused.py").write_text("Z = 3\n")
    code = file_code(tmp_path / "mybot.py")
    assert code is not None and code.unfollowed == []
    assert list(code.modules) == ["late.py", "pkg/__init__.py", "pkg/inner.py", "pkg/sub.py"]


def test_an_import_by_a_computed_name_is_said_in_one_line(tmp_path):
    bot = tmp_path / "mybot.py"
    bot.write_text("import importlib\n\n\nclass Bot:\n    def choose(self, state, limits):\n"
                   "        rule = importlib.import_module('pick' + 'rule')\n"
                   "        return rule.pick(state.legal_moves())\n")
    (tmp_path / "pickrule.py").write_text(PICK.format(index=0))
    summary, notes = run(tmp_path, [f"me={bot}#Bot", "random"])
    assert summary.played == 4
    assert notes == (f"bot 'me' ({bot}) imports modules its version cannot follow (mybot.py:6 import_module): "
                     "edits to those keep its version; give it another label to play it again",)


def test_a_store_of_byte_digests_resumes_with_no_new_version(tmp_path, monkeypatch):
    folder = tmp_path / "store"
    shutil.copytree(FIXTURES / "bytes_digest_store", folder)
    monkeypatch.chdir(folder)
    values = dict(bots=["me=mybot.py#First", "greedy"], games=4, workers=1, name="bytes", results=".")
    notes = Notes()
    resumed = run_tournament(build(values), [notes])
    assert resumed.played == 0 and resumed.done == 4 and notes.notes == ()
    assert labels("bytes.sqlite") == ["me", "greedy"]
    ident = identify(parse_spec("me=mybot.py#First"))
    conn = sqlite3.connect("bytes.sqlite")
    # its row brought up to date
    assert conn.execute("SELECT digest FROM bots WHERE label = 'me'").fetchone() == (ident.digest,)
    conn.close()
    with open("mybot.py", "a") as f:
        f.write("# a comment after the upgrade\n")
    again = run_tournament(build(values), [notes])
    assert again.played == 0 and notes.notes == () and labels("bytes.sqlite") == ["me", "greedy"]


def test_the_arenas_own_packages_beside_a_bot_are_not_followed(tmp_path):
    """A bot file in a checkout of the arena imports ``bots`` and ``arena`` from it: those are the
    arena's, already imported, and its version stays the bot's own code."""
    (tmp_path / "mybot.py").write_text("from bots.base import Bot\nimport arena.errors\nimport json\nimport mine\n")
    for package in ("bots", "arena"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "bots" / "base.py").write_text("class Bot:\n    pass\n")
    (tmp_path / "json.py").write_text("X = 1\n")  # the standard library's json is the one imported
    (tmp_path / "mine.py").write_text("Y = 2\n")
    code = file_code(tmp_path / "mybot.py")
    assert code is not None and list(code.modules) == ["mine.py"]
