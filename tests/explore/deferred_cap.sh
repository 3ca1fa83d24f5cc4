#!/bin/sh
# The cap on a deferred steal's readings (exec.hpp, world::max_readings): a
# steal with more coherent readings than RUNQCHECK_MAX_READINGS says, once, that
# the rest were not judged, and the run still ends; a steal with no more than the
# cap says nothing. Usage: deferred_cap.sh <generated binary>
gen=${1:?usage: deferred_cap.sh GENERATED}
line='not applied: steal-size invariant (some readings): a steal.s loads may read more'
status=0
# run WANT CAP SPEC: WANT 1: the line once, 0: not at all; the run passes either way.
run() {
  out=$(RUNQCHECK_MAX_READINGS=$2 "$gen" run "$3" rc11 2>&1)
  rc=$?
  n=$(printf '%s\n' "$out" | grep -c "$line")
  if [ "$rc" -ne 0 ] || [ "$n" -ne "$1" ] \
     || ! printf '%s\n' "$out" | grep -q 'RC11: .* exhausted'; then
    echo "FAIL cap $2, '$3': exit $rc, the line $n times (want $1)"
    printf '%s\n' "$out" | tail -5
    status=1
  else
    echo "ok   cap $2, '$3': the line $n times"
  fi
}
run 1 1 'cap=4 procs=2 P0=0,1 | put(0,2) | steal(1,0)'     # a steal racing a put
run 0 1000 'cap=4 procs=2 P0=0,1 | put(0,2) | steal(1,0)'  # within the cap
run 0 1 'cap=4 procs=2 P0=0 | | steal(1,0)'                # one reading only
exit $status
