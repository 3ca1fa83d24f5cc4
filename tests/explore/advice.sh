#!/bin/sh
# tests/explore/advice.sh BINARY — BINARY: explore__mutants. The order mutant
# order:runqput_tail_store fails owner_vs_thief under RC11; passes iff
# --advise then names that site (the line of the mutants' runq.hpp that holds
# runqput_tail_store) as `store relaxed -> release`.
bin=${1:?usage: advice.sh EXPLORE_MUTANTS_BINARY}
out=$(RUNQCHECK_MUTANT=order:runqput_tail_store RUNQCHECK_CASE=owner_vs_thief "$bin" rc11 \
  --advise 2>&1)
adv=$(printf '%s\n' "$out" | grep '^advice: ')
[ -n "$adv" ] || { echo "advice.sh: no advice printed"; exit 1; }
printf '%s\n' "$adv"
# shellcheck disable=SC2046 # file and line, two words
set -- $(printf '%s\n' "$adv" |
  sed -n 's/^advice: \(.*\):\([0-9]*\): store relaxed -> release .*/\1 \2/p' | head -1)
[ $# -eq 2 ] || { echo "advice.sh: no store relaxed -> release advised"; exit 1; }
sed -n "${2}p" "$1" | grep -q runqput_tail_store \
  || { echo "advice.sh: $1:$2 is not runqput's tail store"; exit 1; }
echo "advice.sh: the advice names runqput's tail store"
