#!/bin/sh
# tests/explore/protocol_shrink_space.sh BINARY MUTANT SPEC ARGS... — passes
# iff generated_protocol BINARY (on the mutant schemata) under
# RUNQCHECK_MUTANT=MUTANT fails with ARGS and shrinks to a program inside
# the generated space, and `run SPEC` (a larger program, inside) fails and
# shrinks inside it too, and `run` of that shrunk program's step outside
# (the first M alone) is named as outside in one line.
bin=${1:?usage: protocol_shrink_space.sh BINARY MUTANT SPEC ARGS...}
mut=${2:?usage: protocol_shrink_space.sh BINARY MUTANT SPEC ARGS...}
spec=${3:?usage: protocol_shrink_space.sh BINARY MUTANT SPEC ARGS...}
shift 3
check() {  # $1: what ran; $2: its output
  printf '%s\n' "$2" | grep -E '^  (program|in the generated space):'
  printf '%s\n' "$2" | grep -q '^  in the generated space: yes$' \
    || { echo "shrink_space: $mut: $1: the shrunk program is not in the generated space"; exit 1; }
}
out=$(RUNQCHECK_MUTANT=$mut "$bin" "$@" 2>&1)
[ $? -eq 1 ] || { echo "shrink_space: $mut: expected a failure: $out"; exit 1; }
check "the enumeration" "$out"
out=$(RUNQCHECK_MUTANT=$mut "$bin" run "$spec" sc 2>&1)
[ $? -eq 1 ] || { echo "shrink_space: $mut: run '$spec' expected to fail: $out"; exit 1; }
printf '%s\n' "$out" | grep -q 'outside the generated space' \
  && { echo "shrink_space: $mut: '$spec' is named outside the space"; exit 1; }
check "run '$spec'" "$out"
one=$(printf '%s\n' "$out" | sed -n 's/^  program: \([^|]*|[^|]*\).*/\1/p')
out=$(RUNQCHECK_MUTANT=$mut "$bin" run "$one" sc 2>&1)
printf '%s\n' "$out" | grep '^runqcheck: note:' | grep -q 'outside the generated space' \
  || { echo "shrink_space: $mut: run '$one' not named outside the space: $out"; exit 1; }
echo "shrink_space: $mut: every shrunk program in the generated space; '$one' named outside"
