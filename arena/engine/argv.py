"""``exec:COMMAND`` as an argument vector: the executable and arguments of an engine spec.

``engine_argv`` splits ``COMMAND`` as a shell would (``shlex``) and makes a relative
executable path absolute; an unquoted path with spaces (cutechess #465) is found as a whole,
or refused with a message saying to quote it, never run as another program. Used by
``arena.engine.client.engine_class`` (the bot class of an ``exec:`` spec).
"""

from __future__ import annotations

import os
import re
import shlex

from arena.errors import BotSpecError


def engine_argv(command: str) -> list[str]:
    """The executable and arguments of ``exec:COMMAND``, split as a shell would (``shlex``:
    ``exec:'/opt/my eng/x.sh' --flag``); an executable path with ``os.sep`` in it, or an
    existing file, is made absolute (relative to the current directory).

    A command with spaces and no quotes (cutechess #465: ``exec:/opt/my eng/x.sh``) never runs
    another program silently: when the whole of it is an existing file, that file is the
    engine; when a longer part of it than its first word is one (``/opt/my eng/x.sh`` of
    ``/opt/my eng/x.sh --flag``), it is refused with a message saying to quote it; otherwise it
    is words, and the first is the executable tried (the one a start-up error names).

    Raises:
        BotSpecError: an empty or badly quoted command, or an unquoted path with spaces
            followed by arguments.
    """
    text = command.strip()
    whole = _unquoted_path(text)
    if whole is not None:
        return [os.path.abspath(whole)]
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise BotSpecError(f"bad engine command {command!r}: {exc}") from None
    if not argv:
        raise BotSpecError("exec: needs an executable, e.g. exec:./my_engine or exec:/usr/local/bin/engine")
    if os.sep in argv[0] or os.path.exists(argv[0]):  # relative to the current directory, made absolute
        argv[0] = os.path.abspath(argv[0])
    return argv


def _unquoted_path(text: str) -> str | None:
    """``text`` when it has spaces, no quotes, and is an existing file as a whole; ``None``
    when no part of it longer than its first word is an existing file.

    Raises:
        BotSpecError: such a part is followed by more words (quote the path)."""
    words = list(re.finditer(r"\S+", text))
    if len(words) < 2 or any(c in text for c in "'\"\\"):
        return None
    for n in range(len(words), 1, -1):
        path = text[:words[n - 1].end()]
        if os.path.isfile(path):
            if n == len(words):
                return path
            rest = text[words[n].start():]
            raise BotSpecError(f"engine path {path!r} has spaces: quote it to give it arguments, "
                               f"e.g. exec:{shlex.quote(path)} {rest}")
    return None
