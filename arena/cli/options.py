"""Numeric options read from text and range-checked with the same one-line message as
``arena run`` (``--seed -1 is out of range; accepted: 0 to ...``)."""

from __future__ import annotations

from arena.errors import ConfigError

#: Largest seed (as ``arena run``): 63 bits.
MAX_SEED = 2**63 - 1


def number(option: str, text: str | None, low: float, high: float, integer: bool = False) -> float | int | None:
    """``text`` of a numeric option read and range-checked (``None`` stays ``None``), with the
    same one-line message as ``arena run``.

    Raises:
        ConfigError: not a number (an integer), or outside ``low`` to ``high``.
    """
    if text is None:
        return None
    kind = "an integer" if integer else "a number"
    accepted = "accepted: " + " to ".join(str(int(x)) if float(x).is_integer() else f"{x:g}" for x in (low, high))
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise ConfigError(f"{option} {text!r} is not {kind}; {accepted}") from None
    if not low <= value <= high:  # NaN fails too
        raise ConfigError(f"{option} {text} is out of range; {accepted}")
    return value
