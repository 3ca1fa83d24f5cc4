#!/bin/sh
# A race's hand-over under load buffering: the thief's head CAS relaxed
# (order:runqgrab_head_cas) fails under C11, the thief having read a slot the
# owner wrote after it read the head that CAS wrote. The reason names the slot
# load, says load buffering and blames the thief's CAS, the write nothing
# orders after the read (not the slot's store: a release there fixes nothing),
# with an at: line at runqgrab; it never names runq_counters, the harness's
# relaxed read of the victim's tail around a steal.
# usage: hook_blame.sh EXPLORE_BINARY   (RUNQCHECK_MUTANT is set here)
set -u
[ $# -eq 1 ] || { echo "usage: hook_blame.sh EXPLORE_BINARY" >&2; exit 2; }
out=$(RUNQCHECK_MUTANT=order:runqgrab_head_cas "$1" c11 2>&1)
echo "$out" | grep -q 'FAILED' || { echo "FAILED: the mutant passed: $out"; exit 1; }
blamed=$(echo "$out" | grep 'took it over' | grep -E '\((set_)?runq_counters|describe_')
[ -z "$blamed" ] || { echo "FAILED: a hook named as the hand-over: $blamed"; exit 1; }
want='owner_vs_thief C11: .*took it over through P0.runq\[0\]: its load of P0.runq\[0\] .*'
want="$want"'(load buffering).*rmw of P0.runqhead at runq.hpp:[0-9]* (runqgrab), relaxed, '
want="$want"'made after that read: nothing orders the read before that write'
echo "$out" | grep -q "$want" || { echo "FAILED: the thief's CAS not blamed: $out"; exit 1; }
echo "$out" | grep -A3 'owner_vs_thief C11: ' | grep -q '^at: .*runq.hpp' \
  || { echo "FAILED: no at: line for the CAS: $out"; exit 1; }
echo "ok: the hand-over is the thief's CAS, under load buffering, no hook"
