#!/bin/sh
# A misbehaving engine for the fault tests (docs/engine-protocol.md "Faults"): misbehave.sh MODE
mode=$1
[ "$mode" = silent ] && exec sleep 60   # never answers aep
first=-
while IFS= read -r line; do
  case "$line" in
    "aep "*)   echo "id name misbehave-$mode"; echo "option name depth type int default 1"; echo "aepok" ;;
    isready)   echo "readyok" ;;
    "legal "*) set -- $line; first=$2 ;;
    go*)
      case "$mode" in
        garbage) echo "hello, arena"; echo "info depth 3 nodes 42 score cp 17 time 5"; echo "bestmove $first" ;;
        badmove) echo "bestmove !!!" ;;
        bare)    echo "bestmove" ;;
        illegal) echo "bestmove pass" ;;
        hang)    sleep 60 ;;
        exit)    exit 1 ;;
        stderr)  yes "noise on standard error, noise on standard error" | head -c 4000000 >&2; echo "bestmove $first" ;;
        longline) head -c 10000000 /dev/zero | tr '\0' a | sed 's/^/bestmove /'; echo ;;
        chatty)  i=0; while [ $i -lt 20000 ]; do echo "debug line $i" >&2; i=$((i+1)); done; echo "bestmove $first" ;;
        *)       echo "bestmove $first" ;;
      esac ;;
    quit)      exit 0 ;;
  esac
done
