#!/bin/sh
# tests/explore/generated_cli.sh GENERATED EXPLORE WORK — the generated column's
# commands as docs/generated.md shows them: --count, run SPEC, run FILE, a saved
# file through the catalog's runner (explore_scenarios --scenario FILE), and bad
# input (a garbage program, a P two threads own, a bad flag, a missing file, a
# replay under the wrong model): one line on stderr and exit 2, never a run;
# the progress lines; the retry reduction on and off; --jobs: the counts of one
# process.
gen=${1:?usage: generated_cli.sh GENERATED EXPLORE WORK}
exp=${2:?usage: generated_cli.sh GENERATED EXPLORE WORK}
work=${3:?usage: generated_cli.sh GENERATED EXPLORE WORK}
rm -rf "$work" && mkdir -p "$work" || exit 1
status=0
fail() { echo "FAIL $*"; status=1; }
# want RC PATTERN CMD...: CMD exits RC and prints PATTERN (for 2: one stderr line).
want() {
  rc=$1 pat=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  got=$?
  lines=$(wc -l <"$work/err")
  if [ "$got" -ne "$rc" ] || ! grep -q -- "$pat" "$work/out" "$work/err" \
     || { [ "$rc" -eq 2 ] && [ "$lines" -ne 1 ]; }; then
    fail "$*: exit $got (want $rc), stderr lines $lines, want '$pat':"
    cat "$work/out" "$work/err" | tail -5
  else
    echo "ok   $*: exit $got"
  fi
}
spec='cap=4 P0=0,1,2,3 | put(0,4) | empty(0)'
want 0 'up to 3 threads, k=2: [0-9,]* programs' "$gen" --count --ops 2
want 0 'program RC11: .* exhausted' "$gen" run "$spec"
printf '# a saved program\n%s\n' "$spec" >"$work/spill.scn"
want 0 'program SC: .* exhausted' "$gen" run "$work/spill.scn" sc
want 0 'spill .*exhausted' "$exp" --scenario "$work/spill.scn" both
want 2 "not an operation: 'garbage'" "$gen" run 'cap=4 | put(0,1) | garbage'
want 2 'no thread' "$gen" run 'cap=4 P0=0'
want 2 'P0 has two owners: threads 0 and 1' "$gen" run 'cap=4 | put(0,0) | get(0)'
printf 'cap=4 P0=0 | get(0) | steal(1,0) steal(0,1)\n' >"$work/owners.scn"
want 2 'P0 has two owners' "$exp" --scenario "$work/owners.scn"
want 2 "cannot read" "$gen" run "$work/nothere.scn"
want 2 "cannot read" "$exp" --scenario "$work/nothere.scn"
want 2 "is not 1..4" "$gen" --ops 9
want 2 "is not 2 or 3" "$gen" --threads 7
want 2 "found under RC11, not SC" "$gen" replay "$spec" sc rc11/0:0
# A long run says how far it is (RUNQCHECK_PROGRESS_SECONDS=0: after every program), on
# stderr, and the run's own lines are unchanged.
RUNQCHECK_PROGRESS_SECONDS=0 "$gen" both --total 2 >"$work/out" 2>"$work/err"
n=$(grep -c '^generated [^:]*: progress: [0-9,]* of [0-9,]* programs taken' "$work/err")
if [ "$n" -gt 0 ] && grep -q 'all passed' "$work/out" && ! grep -q progress "$work/out"; then
  echo "ok   progress: $n lines on stderr"
else
  fail "progress: $n lines on stderr (want some), or stdout changed"
fi
# The retry reduction: said on, after its check; RUNQCHECK_NO_RETRY_ASSUME=1: neither, and
# still all passed (the histories judged, each with its precedence, differ a little).
want 0 'the retry reduction is on (checked on [0-9,]* programs' "$gen" both --total 2
on=$(sed -n 's/^generated [^:]*: .* \([0-9,]*\) distinct histories.*/\1/p' "$work/out")
RUNQCHECK_NO_RETRY_ASSUME=1 "$gen" both --total 2 >"$work/out" 2>&1
off=$(sed -n 's/^generated [^:]*: .* \([0-9,]*\) distinct histories.*/\1/p' "$work/out")
if ! grep -q 'retry reduction' "$work/out" && grep -q 'all passed' "$work/out"; then
  echo "ok   RUNQCHECK_NO_RETRY_ASSUME=1: no reduction, all passed ($off histories; on: $on)"
else
  fail "RUNQCHECK_NO_RETRY_ASSUME=1: said the reduction, or did not pass"
fi
# --jobs J: the programs and counts of one process (a worker's programs or
# counts lost show here), whatever J.
counts() {
  "$gen" both --total 3 --jobs "$1" |
    sed -n 's/^generated [^:]*: \(.* judged linearizable\),.*/\1/p'
}
one=$(counts 1) three=$(counts 3)
if [ -n "$one" ] && [ "$one" = "$three" ]; then
  echo "ok   --jobs 3: $three"
else
  fail "--jobs 3: '$three', --jobs 1: '$one'"
fi
exit "$status"
