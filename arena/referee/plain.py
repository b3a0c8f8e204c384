"""Plain values: what a bot hands the referee, made exact ``int``, ``float`` and ``str`` once,
so no subclass of a bot's (and none of its methods) travels in a record or crosses a process
boundary (the wire formats of ``arena.referee.records`` and ``messages``; issue 29, "in-process mode").
"""

from __future__ import annotations

from typing import Any


def plain_int(value: Any) -> int:
    """``value`` as an exact ``int`` (never a subclass: no bot code travels with it).

    Raises:
        TypeError, ValueError, OverflowError: ``int(value)`` refuses it.
    """
    return int.__int__(value if isinstance(value, int) else int(value))


def plain_float(value: Any) -> float:
    """``value`` as an exact ``float`` (never a subclass).

    Raises:
        TypeError, ValueError, OverflowError: ``float(value)`` refuses it.
    """
    return float.__float__(value if isinstance(value, float) else float(value))


def plain_text(value: Any) -> str:
    """``value`` as an exact ``str``: a ``str`` (subclass) by its characters
    (``str.__str__``, whatever its ``__str__`` says), anything else by ``str(value)``, read once.

    Raises:
        Exception: whatever the object's ``__str__`` raises.
    """
    return str.__str__(value if isinstance(value, str) else str(value))


def number(value: Any) -> int | float:
    """A score as an exact ``int`` or ``float`` (an ``int`` stays one)."""
    return plain_int(value) if isinstance(value, int) else plain_float(value)
