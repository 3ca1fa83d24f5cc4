#!/bin/sh
# A race's hand-over under load buffering: the thief's head CAS relaxed
# (order:runqgrab_head_cas) fails under C11, the thief having read a slot the
# owner wrote after it. The hand-over names that slot's store (its rf filled
# in once the store is recorded) and says load buffering; it never names
# runq_counters, the harness's relaxed read of the victim's tail around a steal.
# usage: hook_blame.sh EXPLORE_BINARY   (RUNQCHECK_MUTANT is set here)
set -u
[ $# -eq 1 ] || { echo "usage: hook_blame.sh EXPLORE_BINARY" >&2; exit 2; }
out=$(RUNQCHECK_MUTANT=order:runqgrab_head_cas "$1" c11 2>&1)
echo "$out" | grep -q 'FAILED' || { echo "FAILED: the mutant passed: $out"; exit 1; }
blamed=$(echo "$out" | grep 'took it over' | grep -E '\((set_)?runq_counters|describe_')
[ -z "$blamed" ] || { echo "FAILED: a hook named as the hand-over: $blamed"; exit 1; }
want='owner_vs_thief C11: .*took it over through P0.runq\[0\]: '
want=$want'the store of P0.runq\[0\] .*(load buffering'
echo "$out" | grep -q "$want" || { echo "FAILED: no slot store with load buffering: $out"; exit 1; }
echo "ok: the hand-over is the slot's store, under load buffering, no hook"
