#!/bin/sh
# tests/explore/lb_mutants.sh BINARY DIR — BINARY: explore__mutants; DIR:
# tests/explore/lb_scenarios (the same two programs as spec text, for the
# generated runner's tests). The exhaustive LB column runs the catalog's
# lb_catalog (get_then_steal, drain_then_steal: findRunnable's order) under
# LB and C11 only: the port as written passes both; order:runqget_head_load
# fails get_then_steal and order:runqdrain_head_load fails drain_then_steal
# under C11 (the owner's steal stores into the slot a thief read before the
# owner's relaxed head load read the thief's CAS: docs/explore.md, "Load
# buffering"); each file is the catalog's program (the same counts).
bin=${1:?usage: lb_mutants.sh EXPLORE_MUTANTS DIR}
dir=${2:?usage: lb_mutants.sh EXPLORE_MUTANTS DIR}
counts() { grep -o '[0-9,]* complete, [0-9,]* blocked' | tr '\n' ' '; }
for f in get_then_steal drain_then_steal; do
  a=$(RUNQCHECK_MUTANT= RUNQCHECK_CASE=$f "$bin" lb,c11 2>&1) ||
    { echo "lb_mutants: the port as written fails $f"; exit 1; }
  b=$(RUNQCHECK_MUTANT= "$bin" lb,c11 --scenario "$dir/$f.txt" 2>&1) ||
    { echo "lb_mutants: the port as written fails $dir/$f.txt"; exit 1; }
  [ -n "$(echo "$a" | counts)" ] && [ "$(echo "$a" | counts)" = "$(echo "$b" | counts)" ] ||
    { echo "lb_mutants: $f: the catalog's program and $dir/$f.txt differ"; exit 1; }
  RUNQCHECK_MUTANT= "$bin" both 2>&1 | grep -q " $f " &&
    { echo "lb_mutants: $f runs under SC or RC11 (lb_catalog is LB and C11 only)"; exit 1; }
done
for pair in runqget_head_load:get_then_steal runqdrain_head_load:drain_then_steal; do
  m=${pair%%:*}
  f=${pair#*:}
  RUNQCHECK_MUTANT=order:$m "$bin" lb,c11 >/dev/null 2>&1 &&
    { echo "lb_mutants: the exhaustive LB column passed order:$m"; exit 1; }
  RUNQCHECK_MUTANT=order:$m RUNQCHECK_CASE=$f "$bin" c11 >/dev/null 2>&1 &&
    { echo "lb_mutants: C11 passed order:$m on $f"; exit 1; }
done
echo "lb_mutants: the port passes lb_catalog; its column kills runqget_head_load," \
  "runqdrain_head_load"
