"""Reading a language model's answer: the move it names, and the verdict on it.

The answer format (``docs/how-to/llm.md`` "Answers"): the move in the game's notation between
``<move>`` and ``</move>`` (the last such tag counts); without a tag, the last non-empty line,
with surrounding backticks, asterisks, quotes and a final full stop taken off and a leading
``move:`` or ``answer:`` dropped. The move is read by the game's own parser
(``Game.parse_move``) and checked against the seat's legal moves.

Verdicts: ``legal``; ``illegal`` (a move of the game that cannot be played here: the reason is
the game's); ``unparsable`` (no move can be read); ``cut_off`` (the server stopped the answer at
``max_tokens``: ``finish_reason == "length"``); ``provider_error`` (no answer: the request
failed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from arena.games import Game, State, View

LEGAL, ILLEGAL, UNPARSABLE, CUT_OFF, PROVIDER_ERROR = "legal", "illegal", "unparsable", "cut_off", "provider_error"

_TAG = re.compile(r"<move>(.*?)</move>", re.S | re.I)
_LEAD = re.compile(r"^(?:final\s+)?(?:move|answer)\s*[:=-]\s*", re.I)


@dataclass(frozen=True)
class Verdict:
    """The verdict on one answer.

    Attributes:
        verdict: ``legal``, ``illegal``, ``unparsable`` or ``cut_off``.
        reason: why it is not legal, in words (``""`` when legal).
        text: the move text read from the answer (``""`` when none).
        move: the legal move (one of the seat's legal moves) when ``legal``, else ``None``.
    """

    verdict: str
    reason: str
    text: str
    move: Any = None


def move_text(answer: str) -> str:
    """The move text of an answer (see the module doc); ``""`` when it has none."""
    tags = _TAG.findall(answer)
    if tags:
        return tags[-1].strip()
    lines = [line.strip() for line in answer.splitlines() if line.strip()]
    if not lines:
        return ""
    text = _LEAD.sub("", lines[-1].strip("`*\"' ")).strip("`*\"' ")
    text = text[:-1] if text.endswith(".") else text
    return text.strip("`*\"' ")


def judge(game: Game, state: State | View, answer: str, finish_reason: str | None, max_tokens: int) -> Verdict:
    """The verdict on ``answer`` at ``state`` (the seat's view in a game with hidden information)."""
    text = move_text(answer)
    if finish_reason == "length":
        return Verdict(CUT_OFF, f"the answer was cut off at max_tokens={max_tokens} tokens before it ended", text)
    if not text:
        return Verdict(UNPARSABLE, "it names no move: end it with <move>YOUR MOVE</move>", text)
    if isinstance(state, View):
        by_text = {str(m): m for m in state.moves}
        if text in by_text:
            return Verdict(LEGAL, "", text, by_text[text])
    try:
        move = game.parse_move(state, text)  # type: ignore[arg-type]  # a game's parser reads a view's moves too
    except Exception as exc:  # noqa: BLE001 - any failure of the parser: no move read
        return Verdict(UNPARSABLE, f"{text[:80]!r} is not a move in {game.name}'s notation ({exc})", text)
    legal = state.legal_moves()
    for candidate in legal:
        if candidate == move or str(candidate) == str(move):
            return Verdict(LEGAL, "", text, candidate)
    reason = f"{text[:80]!r} is not one of your legal moves here"
    if not isinstance(state, View):
        try:
            state.play(move)
        except Exception as exc:  # noqa: BLE001 - the game's own words on why the move is illegal
            reason = f"{text[:80]!r} is illegal here: {exc}"
    return Verdict(ILLEGAL, reason, text)
