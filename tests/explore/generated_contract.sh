#!/bin/sh
# tests/explore/generated_contract.sh MUTANTS GO125 DIR — MUTANTS, GO125: the
# generated runner on the mutant schemata and on go125; DIR:
# tests/explore/lb_scenarios. The shrinker keeps a program in the contract
# (models/generate's smaller): each hand-written file fails under C11 on its
# mutant and shrinks to a program the port as written passes under C11 (its
# owner's steal still finds room in its ring). Without the room rule the get's
# file shrank to `P0=0,1,2,3 P1=4 | steal(0,1) | get(1)`: a steal into a full
# ring, which the port as written fails too.
mut=${1:?usage: generated_contract.sh MUTANTS GO125 DIR}
go=${2:?usage: generated_contract.sh MUTANTS GO125 DIR}
dir=${3:?usage: generated_contract.sh MUTANTS GO125 DIR}
for pair in runqget_head_load:get_then_steal runqdrain_head_load:drain_then_steal; do
  m=${pair%%:*}
  f=${pair#*:}
  out=$(RUNQCHECK_MUTANT=order:$m "$mut" run "$dir/$f.txt" c11 2>&1)
  [ $? -eq 1 ] || { echo "generated_contract: order:$m passed $f"; exit 1; }
  prog=$(printf '%s\n' "$out" | sed -n 's/^  program: //p')
  [ -n "$prog" ] || { echo "generated_contract: $f: no shrunk program"; exit 1; }
  "$go" run "$prog" c11 >/dev/null 2>&1 ||
    { echo "generated_contract: $f shrank to '$prog', which the port as written fails"; exit 1; }
  echo "generated_contract: $f shrank to '$prog' (the port as written passes it)"
done
