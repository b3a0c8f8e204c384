"""``python -m arena.engine [--user NAME] [--memory MIB] SPEC``: the server of ``arena engine``
without the CLI's start-up cost; isolated bots are started this way, confined (``--user``: drop
to that user; ``--memory``: MiB the bot may add; see ``arena.engine.server``)."""

import sys

from arena.engine.server import main
from arena.errors import ArenaError, one_line

args = sys.argv[1:]
user = memory = None
while len(args) > 2 and args[0] in ("--user", "--memory"):
    if args[0] == "--user":
        user = args[1]
    else:
        memory = int(args[1])
    args = args[2:]
if len(args) != 1:
    sys.exit("usage: python -m arena.engine [--user NAME] [--memory MIB] SPEC")
try:
    code = main(args[0], user, memory)
except ArenaError as exc:
    print(f"error: {one_line(exc)}", file=sys.stderr)
    code = 2
sys.stdout.flush()
sys.exit(code)
