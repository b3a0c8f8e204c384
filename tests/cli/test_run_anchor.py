"""``arena run --anchor LABEL=ELO`` with an unknown label is refused before the first game (it
was refused by the report, after every game was stored)."""

from __future__ import annotations

from tests.cli_run import run_cli


def test_an_unknown_anchor_is_refused_before_anything_is_stored(tmp_path, capsys):
    args = ["run", "--game", "interaction", "-p", "target=2", "--games", "2", "--workers", "1",
            "--results", str(tmp_path), "--name", "a", "-q"]
    code, out, err = run_cli([*args, "--bot", "random", "--bot", "greedy", "--anchor", "typo=1500"], capsys)
    assert code == 2 and err.strip() == ("error: --anchor typo=...: no bot 'typo' in the field or the stored games; "
                                         "accepted: random, greedy"), err
    assert list(tmp_path.iterdir()) == []
    code, out, err = run_cli([*args, "--bot", "random", "--bot", "greedy", "--anchor", "greedy=1500"], capsys)
    assert code == 0, err
    # a bot of the stored games that the new field leaves out is still a rated bot: accepted
    code, out, err = run_cli([*args, "--bot", "random", "--bot", "r2=random", "--anchor", "greedy=1500"], capsys)
    assert code == 0, err
