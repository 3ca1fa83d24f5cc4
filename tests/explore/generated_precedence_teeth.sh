#!/bin/sh
# tests/explore/generated_precedence_teeth.sh GO125 GOOD — the teeth of the
# generated column's precedence (generated.cpp's history::precedence,
# docs/generated.md): GO125 the generated runner on go125, GOOD a program it
# passes under SC and RC11 whose histories need the precedence the graph
# gives (`| put(0,0) | empty(0) empty(0)`: a runqempty that saw the put
# comes before the second). With the precedence inverted
# (RUNQCHECK_PRECEDENCE_BROKEN=invert) GOOD fails lincheck; dropped (=drop,
# operations of different threads unordered) it still passes; any other
# value is refused.
use="usage: generated_precedence_teeth.sh GO125 GOOD"
go=${1:?$use}
good=${2:?$use}
lin="history not linearizable"
t=generated_precedence_teeth

"$go" run "$good" both >/dev/null 2>&1 || { echo "$t: go125 fails '$good'"; exit 1; }
echo "$t: go125 passes '$good' under SC and RC11"
for m in SC RC11; do
  out=$(RUNQCHECK_PRECEDENCE_BROKEN=invert "$go" run "$good" "$(echo $m | tr A-Z a-z)" 2>&1)
  case $out in
    *"fails under $m: fatal error: $lin"*) echo "$t: inverted, it fails under $m: $lin" ;;
    *) echo "$t: with the precedence inverted go125 still passes '$good' under $m"; exit 1 ;;
  esac
done
RUNQCHECK_PRECEDENCE_BROKEN=drop "$go" run "$good" both >/dev/null 2>&1 ||
  { echo "$t: with the precedence dropped go125 fails '$good'"; exit 1; }
echo "$t: dropped, it passes (a weaker precedence)"
out=$(RUNQCHECK_PRECEDENCE_BROKEN=sideways "$go" run "$good" both 2>&1)
[ $? -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] ||
  { echo "$t: RUNQCHECK_PRECEDENCE_BROKEN=sideways not refused in one line: $out"; exit 1; }
echo "$t: an unknown value is refused: $out"
