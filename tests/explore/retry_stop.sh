#!/bin/sh
# tests/explore/retry_stop.sh GENERATED MUTANT... — the retry reduction's check in a run
# that stops at its first failure (generated.cpp's use_retry_reduction): it ends at the
# first program both searches fail, says which, and the run fails that very program with
# the same first failure as the full search (RUNQCHECK_NO_RETRY_ASSUME=1), and a
# --keep-going run's check covers every program. GENERATED reads RUNQCHECK_MUTANT.
gen=${1:?usage: retry_stop.sh GENERATED MUTANT...}
shift
status=0
first() { grep -m1 'FAILED under'; }
for m in "$@"; do
  stop=$(RUNQCHECK_MUTANT=$m "$gen" both --total 4 2>&1)
  all=$(RUNQCHECK_MUTANT=$m "$gen" both --total 2 --keep-going 2>&1)
  full=$(RUNQCHECK_MUTANT=$m RUNQCHECK_NO_RETRY_ASSUME=1 "$gen" both --total 4 2>&1)
  at=$(printf '%s\n' "$stop" |
         sed -n 's/.*up to the first that both searches fail, program \([0-9,]*\):.*/\1/p')
  f=$(printf '%s\n' "$stop" | first)
  case $f in
    *"(program $at of "*) ;;
    *) echo "FAIL $m: the check stopped at program '${at:-none}', the run failed: $f"
       status=1; continue ;;
  esac
  if [ "$f" != "$(printf '%s\n' "$full" | first)" ]; then
    echo "FAIL $m: the first failure differs from the full search's: $f"
    printf '%s\n' "$full" | first
    status=1
  elif ! printf '%s\n' "$all" | grep -q 'retry reduction is on (checked on [0-9,]* programs[^,]*:'
  then
    echo "FAIL $m: --keep-going's check stopped too"; status=1
  else
    echo "ok   $m: the check stopped at program $at, the run's first failure: $f"
  fi
done
exit $status
