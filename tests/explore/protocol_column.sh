#!/bin/sh
# tests/explore/protocol_column.sh BINARY BUDGET [SCENARIO=N]... — ci/mutants'
# explore_protocol column: BINARY (explore_protocol__<protocol subject>, here
# the mutant schemata's, RUNQCHECK_MUTANT choosing) on each scenario of its
# catalog but those that run only by name (Go's own windows), in catalog
# order, under RC11, within BUDGET executions, or N for a SCENARIO named;
# stops at the first failure with its status (and its replay: line). A cut
# scenario passes as a sample (tests/explore/protocol.cpp): the budgets bound
# the column, and the engine is deterministic, so a kill at execution N is
# one at every run of the same build.
usage="usage: protocol_column.sh EXPLORE_PROTOCOL_BINARY BUDGET [SCENARIO=N]..."
bin=${1:?$usage}
budget=${2:?$usage}
shift 2
list=$("$bin" list) || exit 2
scenarios=$(printf '%s\n' "$list" | sed -n '/(by name only)$/!s/ .*//p')
for o in "$@"; do  # a budget for a scenario the catalog does not have is a typo
  printf '%s\n' "$scenarios" | grep -qxF "${o%%=*}" \
    || { echo "protocol_column.sh: no scenario '${o%%=*}' (see: $bin list)" >&2; exit 2; }
done
for sc in $scenarios; do
  n=$budget
  for o in "$@"; do
    [ "${o%%=*}" = "$sc" ] && n=${o#*=}
  done
  RUNQCHECK_CASE=$sc "$bin" rc11 --budget "$n" || exit $?
done
