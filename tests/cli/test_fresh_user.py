"""Defects a fresh-user tester found: a bot file calling ``sys.exit`` at import, ``[[engine]]``
tables beside ``--bot``, single-value options given twice, and messages that named the wrong
thing."""

from __future__ import annotations

import pytest

from arena.cli.app import main

PUZZLE = "1A,2B,4A,3B R:c5,G:k12,B:a1,Y:p16 RC"


def run_cli(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def one_line_error(code, out, err, needle):
    assert code == 2, (code, out, err)
    assert err.count("\n") == 1 and err.startswith("error: ") and needle in err, err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("command", [
    ["run", "--bot", "x=exitimport.py#A", "--bot", "random", "--games", "2", "-q", "--results", "r"],
    ["play", "interaction", "--bot", "x=exitimport.py#A"],
    ["solve", "--bot", "exitimport.py#A", PUZZLE],
    ["engine", "x=exitimport.py#A"],
])
def test_bot_file_calling_sys_exit_at_import_is_one_line_exit_2(command, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "exitimport.py").write_text("import sys; sys.exit(1)\n")
    code, out, err = run_cli(command, capsys)
    one_line_error(code, out, err, "cannot load bot file 'exitimport.py': it called sys.exit(1) at import")
    assert not (tmp_path / "r").exists()


def test_dotted_bot_module_calling_sys_exit_at_import_is_reported(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "exitmod_fresh.py").write_text("import sys; sys.exit('bye')\n")
    code, out, err = run_cli(["play", "interaction", "--bot", "exitmod_fresh.Foo"], capsys)
    one_line_error(code, out, err, "cannot import bot class 'exitmod_fresh.Foo': it called sys.exit('bye') at import")
