#!/bin/sh
# tests/explore/wrap_teeth.sh BINARY pass|fail SCENARIO... — the wrap without
# hooks (issue 41): BINARY, the exhaustive column (explore_scenarios) built on
# a port without S::set_runq_counters, runs each SCENARIO (a wrap scenario)
# under SC and RC11 with the counters the harness finds by behaviour
# (models/scenarios/counters.hpp). It must print no "not applied" line for
# the scenario; `pass`: every scenario passes; `fail`: each fails under RC11
# with a reason and a replay: line whose run fails again with that reason.
bin=${1:?usage: wrap_teeth.sh BINARY pass|fail SCENARIO...}
want=${2:?usage: wrap_teeth.sh BINARY pass|fail SCENARIO...}
shift 2
for sc in "$@"; do
  out=$(RUNQCHECK_CASE=$sc "$bin" both 2>&1)
  rc=$?
  printf '%s\n' "$out"
  if printf '%s\n' "$out" | grep -q "^runqcheck: not applied: scenario $sc:"; then
    echo "wrap_teeth: $sc not applied"
    exit 1
  fi
  if [ "$want" = pass ]; then
    [ $rc -eq 0 ] || { echo "wrap_teeth: $sc failed"; exit 1; }
    echo "wrap_teeth: $sc passed, run across the wrap"
    continue
  fi
  [ $rc -ne 0 ] || { echo "wrap_teeth: $sc passed"; exit 1; }
  why=$(printf '%s\n' "$out" | grep -m1 -E "^explore [^ ]+ $sc RC11: ")
  line=$(printf '%s\n' "$out" | sed -n 's/^replay: //p' | grep -- ' rc11 ' | head -1)
  [ -n "$why" ] && [ -n "$line" ] \
    || { echo "wrap_teeth: $sc failed without an RC11 reason and a replay: line"; exit 1; }
  # shellcheck disable=SC2086 # the replay line is words
  again=$($line 2>&1)
  [ $? -ne 0 ] || { echo "wrap_teeth: the replay of $sc passed"; exit 1; }
  printf '%s\n' "$again" | grep -qxF "$why" \
    || { echo "wrap_teeth: the replay of $sc did not give: $why"; exit 1; }
  echo "wrap_teeth: $sc failed, and its replay reproduces it"
done
