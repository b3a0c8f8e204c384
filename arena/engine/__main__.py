"""``python -m arena.engine [--user NAME] SPEC``: the server of ``arena engine`` without the
CLI's start-up cost (isolated bots are started this way)."""

import sys

from arena.engine.server import main
from arena.errors import ArenaError, one_line

args = sys.argv[1:]
user = None
if len(args) == 3 and args[0] == "--user":
    user, args = args[1], args[2:]
if len(args) != 1:
    sys.exit("usage: python -m arena.engine [--user NAME] SPEC")
try:
    code = main(args[0], user)
except ArenaError as exc:
    print(f"error: {one_line(exc)}", file=sys.stderr)
    code = 2
sys.stdout.flush()
sys.exit(code)
