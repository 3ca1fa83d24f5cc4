#!/bin/sh
# tests/explore/teeth.sh BINARY MUTANT SCENARIO... — passes iff the explore
# checker BINARY (explore_scenarios or explore_protocol, built on the mutant
# schemata) fails every SCENARIO under RC11 with RUNQCHECK_MUTANT=MUTANT,
# prints a replay: line for each, and each replay fails again with the same
# reason. TEETH_BUDGET=N: at most N executions a scenario (a mutant the
# search does not reach in them passes: the test fails).
bin=${1:?usage: teeth.sh EXPLORE_BINARY MUTANT SCENARIO...}
mut=${2:?usage: teeth.sh EXPLORE_BINARY MUTANT SCENARIO...}
shift 2
for sc in "$@"; do
  out=$(RUNQCHECK_MUTANT=$mut RUNQCHECK_CASE=$sc "$bin" rc11 \
    ${TEETH_BUDGET:+--budget "$TEETH_BUDGET"} 2>&1)
  rc=$?
  printf '%s\n' "$out" | grep -v '^runqcheck: not applied'
  [ $rc -ne 0 ] || { echo "explore_teeth: $mut passed $sc"; exit 1; }
  why=$(printf '%s\n' "$out" | grep -m1 -E "^explore(_protocol)? [^ ]+ $sc RC11: ")
  line=$(printf '%s\n' "$out" | sed -n 's/^replay: RUNQCHECK_MUTANT=[^ ]* //p' | head -1)
  [ -n "$why" ] && [ -n "$line" ] \
    || { echo "explore_teeth: $sc failed without a reason and a replay: line"; exit 1; }
  # shellcheck disable=SC2086 # the replay line is words
  again=$(RUNQCHECK_MUTANT=$mut $line 2>&1)
  [ $? -ne 0 ] || { echo "explore_teeth: the replay of $sc passed"; exit 1; }
  printf '%s\n' "$again" | grep -qxF "$why" \
    || { echo "explore_teeth: the replay of $sc did not give: $why"; exit 1; }
  echo "explore_teeth: $mut killed on $sc, and its replay reproduces it"
done
