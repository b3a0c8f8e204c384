#!/bin/sh
# A complete engine in POSIX shell (docs/engine-protocol.md): it plays the first legal move,
# and answers "-" (no answer) at a Ricochet round. Try: arena run --bot sh=exec:examples/engines/first_legal.sh
first=-
while IFS= read -r line; do
  case "$line" in
    "aep "*)   echo "id name first-legal-sh"; echo "aepok" ;;
    isready)   echo "readyok" ;;
    "legal "*) set -- $line; first=$2 ;;
    "position "*) first=- ;;
    go*)       echo "bestmove $first" ;;
    quit)      exit 0 ;;
  esac
done
