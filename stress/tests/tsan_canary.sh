#!/bin/sh
# stress/tests/tsan_canary.sh BIN — stress/tsan_sees_races: BIN (tsan_canary.cpp)
# must exit 66 (TSan's, halt_on_error=1) with its reproducer after the report.
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
"${1:?usage: tsan_canary.sh BIN}" >"$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 66 ] || { echo "tsan_canary.sh: exit $rc, want 66 (TSan's report)"; exit 1; }
grep -q '^reproduce: runqcheck_stress_tsan_canary$' "$out" ||
  { echo "tsan_canary.sh: no 'reproduce:' line after TSan's report"; exit 1; }
