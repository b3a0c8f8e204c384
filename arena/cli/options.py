"""Options that several commands take in the same words (``arena run``, ``arena ladder``,
``arena report``, ...), declared once as ``Annotated`` types: a command's parameter
``seed: Seed = None`` is ``--seed`` with its help. Numbers arrive as text (``None``: not given),
checked by ``arena.tournament.build``, which names the accepted range in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from arena.cli.console import WIDE_HELP

#: ``--allow-version-change`` of ``arena run`` and ``arena ladder``
VERSION_CHANGE_HELP = ("resume or extend a tournament whose games were played under another version of OpenSpiel "
                       "(its games may differ between versions); the report then names both versions (default: "
                       "refused, in one line)")

Workers = Annotated[Optional[str], typer.Option("--workers", metavar="N", help="worker processes (default: all cores)")]
Seed = Annotated[Optional[str], typer.Option("--seed", metavar="N", help="tournament seed (default 1)")]
Results = Annotated[Optional[str], typer.Option("--results", help="results directory (default results/)")]
#: ``--results`` of the commands that read stored tournaments (``arena report``; ``arena list``,
#: ``arena serve`` and ``arena openings select`` declare it in the same words), default ``results``
ResultsFolder = Annotated[Path, typer.Option("--results", help="Folder of the results databases.")]
OpeningsOrder = Annotated[Optional[str], typer.Option(
    "--openings-order", help="sequential (file order, default) | random (seeded shuffle)")]
AllowVersionChange = Annotated[bool, typer.Option("--allow-version-change", help=VERSION_CHANGE_HELP)]
Anchor = Annotated[Optional[str], typer.Option(
    "--anchor", metavar="BOT[=ELO]",
    help="the field table's anchor: BOT rated ELO, or BOT alone rated 0, the others relative to it (default: mean 0)")]
Wide = Annotated[bool, typer.Option("--wide", help=WIDE_HELP)]
