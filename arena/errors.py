"""The ArenaError family: every error a user can cause by bad input.

Each message names what was wrong and what is accepted. The CLI prints ``str(error)`` as one
line and exits with code 2.
"""

import re


class ArenaError(Exception):
    """Base class of every error caused by bad input (never by a bug in arena)."""


class UnknownGameError(ArenaError, KeyError):
    """A game name that is not registered."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class PositionSyntaxError(ArenaError, ValueError):
    """Position (state) text that cannot be parsed, or describes an impossible position."""


class MoveSyntaxError(ArenaError, ValueError):
    """Move text that is not in the game's notation."""


class IllegalMoveError(ArenaError, ValueError):
    """A well-formed move that is not legal in the given position."""


class BotSpecError(ArenaError, ValueError):
    """A bot spec string naming an unknown kind, a bad key or a bad value."""


class ConfigError(ArenaError, ValueError):
    """A bad option, game parameter, tournament setting or configuration file.

    Attributes:
        setting: the tournament setting whose value was refused (``"move_time"``), when the
            check knew it (a TOML file's key is then named, ``config_file.ConfigFile.explain``);
            ``None`` otherwise.
    """

    setting: str | None = None


class PuzzleSyntaxError(PositionSyntaxError):
    """A Ricochet puzzle text that cannot be parsed."""


class ResultsError(ArenaError):
    """A results directory or database that cannot be read or written, or a refused run."""


class RunLockedError(ResultsError):
    """A tournament whose run lock another process holds now (a run, ``arena play`` storing a
    game): the same open may succeed once it is released."""


#: a byte that is not UTF-8, as Python decodes the command line (PEP 383 ``surrogateescape``)
_RAW_BYTE = re.compile("[\udc80-\udcff]")
#: the same, after ``repr`` (``'\\udcff'``), not preceded by an escaped backslash
_REPR_BYTE = re.compile(r"(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])")


def one_line(error: BaseException) -> str:
    """The error as one line of text (``as_line``), for the CLI."""
    return as_line(str(error) or type(error).__name__)


def as_line(text: str) -> str:
    """``text`` as one line (newlines folded). Bytes of the command line that are not UTF-8
    (``arena solve $'\\xff'``: Python's ``surrogateescape``, PEP 383) read as ``\\xff``, raw
    or inside a quoted ``repr``, never as ``\\udcff``."""
    text = _RAW_BYTE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}", text)
    text = _REPR_BYTE.sub(r"\1\\x\2", text)
    return " ".join(text.split())


class BotFault(Exception):
    """Raised by a bot's ``choose`` to lose with a named fault (a ``Termination`` among
    ``FAULTS``) rather than ``exception``: an engine process that timed out or died
    (``arena.engine.client``; ``docs/engine-protocol.md`` "Faults").

    Attributes:
        reason: the termination reason. detail: one line on what happened.
    """

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason, self.detail = reason, detail


class ProviderFailure(Exception):
    """A bot's remote provider failed, not the bot: a language model's server timed out, refused
    the connection, answered HTTP 429 or 5xx, or answered no chat completion on every retry
    (``arena.llm``). Raised from a
    bot's ``choose``; the referee ends the game as ``void`` (no rating effect, replayed later),
    blaming nobody. Not an ``ArenaError``: it is no bad input of the user's."""


class ClusterError(ArenaError):
    """A Dask cluster (``--cluster``) that cannot be reached, cannot take the bots, or was lost
    mid-run (the games already stored are kept)."""
