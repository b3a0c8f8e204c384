"""A stored game replayed ply by ply, as the frames of the HTML report's replay viewer.

Replays the stored moves through the game's rules (as ``arena replay`` does): frame 0 is the
start position, frame ``k`` the position after ply ``k - 1``, each with its position text and
the game's SVG picture (``Game.render_svg``; ``None`` for a game that draws nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from arena.games import CHANCE, SIMULTANEOUS, Game
from arena.referee.check import round_answers  # noqa: F401 (re-exported: reports read rounds with it)


@dataclass(frozen=True)
class Frame:
    """One position of a replay.

    Attributes:
        ply: plies played to reach it (0 = the start position).
        move: the ply that led here in notation (``""`` at the start; a round's record at a
            simultaneous node).
        who: who played it (``"opening"``, ``"seat 1 alphabeta"``, ``"round"``, ``"chance"``).
        text: the position text (``State.to_text``).
        svg: the picture, or ``None`` when the game draws nothing.
        transcript: a network player's log of the ply that led here (``transcript_text``: its
            figures, then the prompt and answer of every attempt), or ``None``.
    """

    ply: int
    move: str
    who: str
    text: str
    svg: str | None
    transcript: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def replay_frames(
    game: Game,
    seed: int,
    moves: Sequence[str],
    seats: Sequence[str],
    opening_plies: int = 0,
    answers: dict[int, list[str]] | None = None,
    start: str | None = None,
    timing: dict[int, str] | None = None,
) -> tuple[list[Frame], str | None]:
    """The frames of a stored game, and why the replay stopped early (``None`` when every
    stored ply replayed).

    Args:
        game: the tournament's game, its parameters set.
        seed: the game's seed (``initial_state(seed)``).
        moves: the stored plies in notation, opening plies first.
        seats: bot labels by 0-based seat.
        opening_plies: how many of ``moves`` are forced opening plies.
        answers: at simultaneous rounds, ply -> each seat's answer text (``"-"`` for none),
            drawn as paths by games that draw answers (Ricochet).
        start: the position text the game started from (a series of an openings file,
            ``arena.results.store.load_series_start``); ``None``: ``initial_state(seed)``.
        timing: ply -> the time the move took and the clock left (``timing_notes``), added to
            its frame's ``who``.
    """
    state = game.parse_state(start) if start is not None else game.initial_state(seed)
    frames = [Frame(0, "", "start", state.to_text(), game.render_svg(state))]
    for ply, text in enumerate(moves):
        simultaneous = state.to_move == SIMULTANEOUS
        who = "opening" if ply < opening_plies else "round" if simultaneous else (
            "chance" if state.to_move == CHANCE else f"seat {state.to_move} {seats[state.to_move]}")
        if timing and ply in timing:
            who += f" ({timing[ply]})"
        try:
            move = round_answers(game, state, text) if simultaneous else game.parse_move(state, text)
            after = state.play(move)
        except Exception as exc:  # stored notation the rules no longer accept: stop there
            return frames, f"ply {ply} ({text!r}) does not replay: {type(exc).__name__}: {exc}"
        drawn = (answers or {}).get(ply, text) if simultaneous else text
        frames.append(Frame(ply + 1, text, who, after.to_text(), game.render_svg(after, drawn, state)))
        state = after
    return frames, None


def timing_notes(moves: Any) -> dict[int, str]:
    """ply -> ``0.41s`` (the move's thinking time) or ``0.41s, 9.63s left`` (and the mover's game
    clock after it, increment added), for the sequential plies of one game's stored moves
    (``arena.results.store.load_moves`` rows: ``ply``, ``seat``, ``seconds``, ``clock``, ``status``)."""
    out: dict[int, str] = {}
    for ply, seat, seconds, clock, status in zip(moves["ply"], moves["seat"], moves["seconds"], moves["clock"],
                                                 moves["status"]):
        if seat < 0 or status is not None or seconds != seconds:  # opening ply, a round's answer, no time
            continue
        out[int(ply)] = f"{float(seconds):.2f}s" + ("" if clock != clock else f", {float(clock):.2f}s left")
    return out


def transcript_text(log: dict[str, Any]) -> str:
    """A move's ``last_log`` (``bots.base.Player``) as the replay shows it: one line of figures
    (tokens in/out, latency in seconds, attempts, cost, cached), then each attempt's verdict,
    prompt and answer."""
    figures = [f"{key} {log[key]}" for key in ("tokens_in", "tokens_out", "latency", "attempts", "cost", "cached")
               if log.get(key) is not None]
    lines = ["; ".join(figures)] if figures else []
    for attempt in log.get("transcript") or []:
        if not isinstance(attempt, dict):
            continue
        verdict = attempt.get("verdict") or "?"
        reason = f": {attempt['reason']}" if attempt.get("reason") else ""
        finish = f", finish {attempt['finish_reason']}" if attempt.get("finish_reason") else ""
        prompt = attempt.get("prompt", "")
        if isinstance(prompt, list):  # chat messages: {"role", "content"} each
            prompt = "\n".join(f"[{m.get('role')}] {m.get('content')}" if isinstance(m, dict) else str(m)
                                for m in prompt)
        lines += [f"--- attempt {attempt.get('attempt', '?')} ({verdict}{reason}{finish})",
                  "prompt:", str(prompt), "answer:", str(attempt.get("answer", ""))]
    if "dropped" in log:
        lines.append(f"(log not stored: {log['dropped']})")
    return "\n".join(lines)


def with_transcripts(frames: list[Frame], logs: Sequence[dict[str, Any]] | None) -> list[Frame]:
    """``frames`` with each logged move's ``transcript`` (``logs``: a game's stored move logs,
    ``arena.results.logs.unpacked_log``; the log of ply ``p`` goes to frame ``p + 1``, several
    seats' at one round one after the other)."""
    if not logs:
        return frames
    texts: dict[int, list[str]] = {}
    for entry in logs:
        log = entry.get("log")
        if isinstance(log, dict):
            texts.setdefault(int(entry.get("ply", -1)) + 1, []).append(
                f"seat {entry.get('seat')}: " + transcript_text(log))
    return [replace(f, transcript="\n\n".join(texts[i])) if i in texts else f for i, f in enumerate(frames)]
