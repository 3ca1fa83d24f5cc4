#!/bin/sh
# tests/explore/wrap_teeth.sh BINARY pass|fail SCENARIO... — the wrap without
# hooks (issue 41): BINARY, a scenario checker (explore_scenarios; or
# relacy_scenarios, with WRAP_ARGS='random 10000') built on a port without
# S::set_runq_counters, runs each SCENARIO (a wrap scenario) with the
# counters the harness finds by behaviour (models/scenarios/counters.hpp).
# It must print no "not applied" line for the scenario; `pass`: every
# scenario passes; `fail`: each fails with a replay: line whose run fails
# again (explore: under RC11, with the same reason line).
bin=${1:?usage: wrap_teeth.sh BINARY pass|fail SCENARIO...}
want=${2:?usage: wrap_teeth.sh BINARY pass|fail SCENARIO...}
shift 2
for sc in "$@"; do
  # shellcheck disable=SC2086 # WRAP_ARGS is words
  out=$(RUNQCHECK_CASE=$sc "$bin" ${WRAP_ARGS:-both} 2>&1)
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
  line=$(printf '%s\n' "$out" | sed -n 's/^replay: //p' | tail -1)
  [ -n "$line" ] || { echo "wrap_teeth: $sc failed without a replay: line"; exit 1; }
  # shellcheck disable=SC2086 # the replay line is words
  again=$(eval "$line" 2>&1)
  [ $? -ne 0 ] || { echo "wrap_teeth: the replay of $sc passed: $line"; exit 1; }
  [ -z "$why" ] || printf '%s\n' "$again" | grep -qxF "$why" \
    || { echo "wrap_teeth: the replay of $sc did not give: $why"; exit 1; }
  echo "wrap_teeth: $sc failed, and its replay fails again"
done
