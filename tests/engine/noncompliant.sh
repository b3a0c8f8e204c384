#!/bin/sh
# An engine that breaks one rule of docs/engine-protocol.md, for `arena engine check`: noncompliant.sh MODE
# MODE: noaepok, illegal, noready, noquit, garbage, late (or anything else: a compliant engine)
mode=$1
first=-
while IFS= read -r line; do
  case "$line" in
    "aep "*)   [ "$mode" = noaepok ] || { echo "id name noncompliant-$mode"; echo "aepok 2"; } ;;
    isready)   [ "$mode" = noready ] || echo "readyok" ;;
    "legal "*) set -- $line; first=$2 ;;
    go*)
      case "$mode" in
        illegal) echo "bestmove pass" ;;
        garbage) echo "thinking hard..."; echo "bestmove $first" ;;
        late)    sleep 2; echo "bestmove $first" ;;
        *)       echo "bestmove $first" ;;
      esac ;;
    quit)      [ "$mode" = noquit ] || exit 0 ;;
  esac
done
[ "$mode" = noquit ] && sleep 5
