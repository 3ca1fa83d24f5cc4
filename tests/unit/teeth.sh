#!/bin/sh
# tests/unit/teeth.sh BINARY FILTER WANT — passes iff the unit test BINARY (built on
# a buggy port) fails the tests FILTER selects with exit 1 (a gtest failure, not a
# crash) and prints WANT.
bin=${1:?usage: teeth.sh UNIT_BINARY FILTER WANT}
out=$("$bin" --gtest_filter="${2:?}" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -15
[ $rc -eq 1 ] || { echo "unit_teeth: exit $rc, want 1 (a failed test, no crash)"; exit 1; }
printf '%s\n' "$out" | grep -qF -- "${3:?}" || { echo "unit_teeth: no '$3' in the output"; exit 1; }
echo "unit_teeth: failed with: $3"
