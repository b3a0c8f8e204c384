import sys
import types

from typer.testing import CliRunner

import arena.cli.bench as bench_cli
from arena.bench import Figure
from arena.cli.app import app


def fake_modules(monkeypatch):
    ok = types.ModuleType("arena.bench.fake_ok")
    ok.run = lambda quick: [Figure("fake", "widgets", 123456.0 if quick else 1.0, "widgets/s", "≥ 5", "[note]")]
    bad = types.ModuleType("arena.bench.fake_bad")

    def boom(quick):
        raise RuntimeError("no [red]widgets[/red]\nat all")

    bad.run = boom
    monkeypatch.setitem(sys.modules, "arena.bench.fake_ok", ok)
    monkeypatch.setitem(sys.modules, "arena.bench.fake_bad", bad)
    monkeypatch.setattr(bench_cli, "MODULES", ["fake_bad", "fake_ok"])


def test_failures_are_rows_not_crashes(monkeypatch):
    fake_modules(monkeypatch)
    result = CliRunner().invoke(app, ["bench", "--quick"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "failed" in result.output and "RuntimeError: no [red]widgets[/red] at all" in result.output
    assert "widgets/s" in result.output and "123,456" in result.output and "[note]" in result.output


def test_only_selects_one_module_and_rejects_unknown(monkeypatch):
    fake_modules(monkeypatch)
    rows = bench_cli.run_modules(quick=False, only="fake_ok")
    assert [(name, err) for name, _, err in rows] == [("fake_ok", None)]
    assert rows[0][1][0].value == 1.0
    result = CliRunner().invoke(app, ["bench", "--only", "nope"])
    assert result.exit_code != 0 and "fake_bad, fake_ok" in str(result.exception)
