#!/bin/sh
# A protocol version 3 engine in POSIX shell (docs/engine-protocol.md "Views"): it plays the first
# legal move, reads no view (it needs none: the legal line has its moves), and answers "-" when it
# has no move. For the view tests: tests/engine/test_views.py, tests/engine/test_trace_views.py.
set -f  # a move is never a file pattern
first=-
while IFS= read -r line; do
  case "$line" in
    "aep "*)   echo "id name first-view-sh"; echo "aepok 3" ;;
    isready)   echo "readyok" ;;
    "legal"*)  set -- $line; first=${2:--} ;;
    "position "*|"view "*) first=- ;;
    go*)       echo "bestmove $first" ;;
    quit)      exit 0 ;;
  esac
done
