"""Text the user gave (paths, bot specs) or a bot wrote (an exception's message) is printed as
it is: rich reads no ``[...]`` of it as markup. A ``[/b]`` in a path ended ``arena run`` in a
``MarkupError`` traceback (exit 1) after the games were stored, and ``[bold]`` vanished from
the printed path."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tests.cli_run import run_cli as cli

RUN = ["run", "--bot", "random", "--bot", "greedy", "--games", "2", "--workers", "1"]


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # a long path on one line


def test_a_results_path_with_brackets_is_printed_as_given(tmp_path, capsys):
    results = tmp_path / "[bold]res[/i]x"  # a closing tag that matches none, and a style's tag
    code, out, err = cli([*RUN, "--name", "t", "--results", str(results), "-q"], capsys)
    assert code == 0, err
    assert f"stored in {results}/t.sqlite; HTML report: {results}/t.html" in out, out
    code, out, err = cli([*RUN, "--name", "t", "--results", str(results)], capsys)  # the whole report
    assert code == 0, err
    assert f"stored in {results}/t.sqlite" in out and f"HTML report (plots, replays): {results}/t.html" in out


def test_an_html_page_path_with_brackets_is_printed_as_given(tmp_path, capsys):
    results, page = tmp_path / "res", tmp_path / "[" / "i]x[bold].html"
    page.parent.mkdir()
    assert cli([*RUN, "--name", "t", "--results", str(results), "-q"], capsys)[0] == 0
    code, out, err = cli(["report", "t", str(page), "--html", "--results", str(results)], capsys)
    assert code == 0, err
    assert f"wrote {page}" in out and page.is_file()
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0, err


BOT = '''
class Bot:
    def choose(self, state, limits):
        raise RuntimeError("[/b] a bracket [bold]here[/bold]")
'''


def test_a_bot_file_and_its_fault_with_brackets_are_printed_as_given(tmp_path, capsys):
    """A bot in a folder named ``[bold]bots`` that raises with brackets in its message: the
    fault line of the report and ``arena list``'s command show both verbatim."""
    folder = tmp_path / "[bold]bots"
    folder.mkdir()
    (folder / "b.py").write_text(BOT)
    results = tmp_path / "res"
    spec = f"me={folder}/b.py#Bot"
    code, out, err = cli(["run", "--bot", spec, "--bot", "random", "--games", "2", "--workers", "1", "--name", "t",
                          "--results", str(results)], capsys)
    assert code == 0, err
    assert "RuntimeError: [/b] a bracket [bold]here[/bold]" in out, out
    code, out, err = cli(["list", "--results", str(results)], capsys)
    assert code == 0, err
    assert f"--bot 'me={folder}/b.py#Bot'" in out, out


def test_styled_parts_are_never_markup_on_any_console():
    from arena.cli.console import make_console, styled

    out = io.StringIO()
    Console(file=out, width=200, markup=True).print(styled(("[/b]", "bold"), " [bold]x[/bold]"))
    assert out.getvalue() == "[/b] [bold]x[/bold]\n"
    console = make_console()
    with console.capture() as captured:
        console.print("[/b] [bold]y")
    assert captured.get() == "[/b] [bold]y\n"
