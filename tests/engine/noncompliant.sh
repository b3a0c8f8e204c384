#!/bin/sh
# An engine that breaks one rule of docs/engine-protocol.md, for `arena engine check`: noncompliant.sh MODE
# MODE: noaepok, illegal, noready, noquit, garbage, late (or anything else: a compliant engine);
# orphan TOKEN: as noquit, after starting `sleep TOKEN` in a session of its own (setsid), which outlives it
mode=$1
[ "$mode" = orphan ] && setsid sleep "$2" </dev/null >/dev/null 2>&1 &
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
    quit)      case "$mode" in noquit|orphan) ;; *) exit 0 ;; esac ;;
  esac
done
case "$mode" in noquit|orphan) sleep 5 ;; esac
