#!/bin/sh
# tests/explore/lb_teeth.sh BINARY — BINARY: the catalog under the engine for
# examples/lb_port (runqput's head load relaxed). Passes iff the catalog
# passes under LB (the cycle that loses a G runs through a real control
# dependency: no certified promise makes it) and fails owner_vs_thief under
# C11 (C11 as written admits it) with a replay: line that fails again.
bin=${1:?usage: lb_teeth.sh EXPLORE_BINARY}
"$bin" lb >/dev/null 2>&1 || { echo "lb_teeth: LB rejected lb_port"; exit 1; }
out=$(RUNQCHECK_CASE=owner_vs_thief "$bin" c11 2>&1)
[ $? -ne 0 ] || { echo "lb_teeth: C11 passed lb_port"; exit 1; }
line=$(printf '%s\n' "$out" | sed -n 's/^replay: //p' | head -1)
[ -n "$line" ] || { echo "lb_teeth: C11 failed without a replay: line"; exit 1; }
# shellcheck disable=SC2086 # the replay line is words
$line >/dev/null 2>&1 && { echo "lb_teeth: the replay passed"; exit 1; }
echo "lb_teeth: lb_port passes under LB, fails owner_vs_thief under C11, and its replay fails"
