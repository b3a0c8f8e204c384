"""The prompts of a language-model bot: a Jinja2 template per game, rendered with the position.

The default template of game ``NAME`` is ``arena/llm/templates/NAME.j2`` when there is one (it
extends ``default.j2``, filling its ``rules`` block), else ``default.j2`` (the game's one-line
summary as its rules). A user's template (``template=FILE``) may extend them too
(``{% extends "default.j2" %}``). The rendered text is the one user message of the first
request. Variables (``docs/how-to/llm.md`` "Templates"):

- ``game`` (name), ``summary`` (one line), ``params`` (the game's parameters), ``players``;
- ``seat`` (0-based; the block ``seat_name`` names it);
- ``hidden``: the game has hidden information; ``position``: the position text
  (``State.to_text``), or the seat's view text (``View.text``) when ``hidden``;
  ``diagram``: a picture of the position (``State.diagram``; the view text when ``hidden``);
- ``history``: the moves played so far in notation (when ``hidden``: the seat's own moves),
  ``history_from_start``: whether it starts at the game's first ply;
- ``legal_moves``: the seat's legal moves in notation, or ``None`` (``legal=off``);
- ``example``: a move to show the answer format with (the first legal move, or ``MOVE``).

A template's identity (``template_identity``) is the SHA-256 of the user's file and of the
packaged templates: an edited template is a new version of the bot.
"""

from __future__ import annotations

import hashlib
import os
from collections import deque
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from arena.errors import BotSpecError
from arena.games import Game, State

#: the folder of the packaged templates
TEMPLATES = Path(__file__).with_name("templates")
#: the most positions searched to find the moves played between two of the bot's turns
HISTORY_SEARCH = 4000
#: the most plies between two of the bot's turns that are searched for
HISTORY_PLIES = 4


@cache
def packaged_digest() -> str:
    """SHA-256 (hex) of the packaged templates (names and bytes, sorted by name)."""
    h = hashlib.sha256()
    for path in sorted(TEMPLATES.glob("*.j2")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def template_identity(template: str | None) -> dict[str, str | None]:
    """What of the prompt templates a bot's version follows: ``templates`` (the packaged ones'
    digest) and ``template`` (the SHA-256 of the user's file, ``None`` without one).

    Raises:
        BotSpecError: the user's file cannot be read.
    """
    user = None
    if template is not None:
        try:
            user = hashlib.sha256(Path(template).read_bytes()).hexdigest()
        except OSError as exc:
            raise BotSpecError(f"llm template {template!r} cannot be read: {exc.strerror or exc}") from None
    return {"templates": packaged_digest(), "template": user}


def load(template: str | None, game: str) -> jinja2.Template:
    """The template for ``game``: the user's file, else the packaged one (``NAME.j2`` or
    ``default.j2``).

    Raises:
        BotSpecError: the user's file cannot be read or is no valid Jinja2 template (one line).
    """
    folders = [str(TEMPLATES)]
    if template is not None:
        folders.insert(0, os.path.dirname(os.path.abspath(template)))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folders), undefined=jinja2.StrictUndefined,
                             autoescape=False, trim_blocks=True, lstrip_blocks=True)
    try:
        if template is not None:
            return env.from_string(Path(template).read_text(encoding="utf-8"))
        name = f"{game}.j2" if (TEMPLATES / f"{game}.j2").is_file() else "default.j2"
        return env.get_template(name)
    except OSError as exc:
        raise BotSpecError(f"llm template {template!r} cannot be read: {exc.strerror or exc}") from None
    except jinja2.TemplateError as exc:
        raise BotSpecError(f"llm template {template or game!r} is not a valid Jinja2 template: {exc}") from None


def render(template: jinja2.Template, variables: dict[str, Any], where: str) -> str:
    """The template's text for ``variables``.

    Raises:
        BotSpecError: the template uses an unknown variable or fails (``where`` names it).
    """
    try:
        return template.render(**variables).strip() + "\n"
    except jinja2.TemplateError as exc:
        raise BotSpecError(f"llm template {where}: {exc}; the variables are {', '.join(sorted(variables))}") from None


def moves_between(game: Game, before: State, after: State) -> list[str] | None:
    """The moves (notation) that lead from ``before`` to ``after`` in a game of perfect
    information, found by a breadth-first search of at most ``HISTORY_PLIES`` plies and
    ``HISTORY_SEARCH`` positions (chance plies included); ``None`` when not found."""
    goal = after.to_text()
    if before.to_text() == goal:
        return []
    queue: deque[tuple[State, list[str]]] = deque([(before, [])])
    seen = 0
    while queue:
        state, path = queue.popleft()
        if len(path) >= HISTORY_PLIES or state.is_terminal():
            continue
        moves = state.legal_moves() or [m for m, _ in state.chance_outcomes()]
        for move in moves:
            seen += 1
            if seen > HISTORY_SEARCH:
                return None
            try:
                child = state.play(move)
            except Exception:  # noqa: BLE001 - a move that does not play is no path
                continue
            if child.to_text() == goal:
                return path + [str(move)]
            queue.append((child, path + [str(move)]))
    return None
