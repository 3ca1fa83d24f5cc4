#!/bin/sh
# tests/explore/lb_mutants.sh BINARY DIR — BINARY: explore__mutants; DIR:
# tests/explore/lb_scenarios. The port as written passes each scenario file
# under LB and C11; order:runqget_head_load fails get_then_steal and
# order:runqdrain_head_load fails drain_then_steal under C11 (the owner's
# steal stores into the slot a thief read before the owner's relaxed head
# load read the thief's CAS: docs/explore.md, "Load buffering").
bin=${1:?usage: lb_mutants.sh EXPLORE_MUTANTS DIR}
dir=${2:?usage: lb_mutants.sh EXPLORE_MUTANTS DIR}
for f in get_then_steal drain_then_steal; do
  RUNQCHECK_MUTANT= "$bin" lb,c11 --scenario "$dir/$f.txt" >/dev/null 2>&1 ||
    { echo "lb_mutants: the port as written fails $f"; exit 1; }
done
for pair in runqget_head_load:get_then_steal runqdrain_head_load:drain_then_steal; do
  m=${pair%%:*}
  f=${pair#*:}
  RUNQCHECK_MUTANT=order:$m "$bin" c11 --scenario "$dir/$f.txt" >/dev/null 2>&1 &&
    { echo "lb_mutants: C11 passed order:$m on $f"; exit 1; }
done
echo "lb_mutants: the port passes both files; C11 kills runqget_head_load, runqdrain_head_load"
