#!/bin/sh
# tests/explore/advice_weaken.sh EXPECTED BINARY MODELS COLUMNS [--expect-mismatch]
# BINARY: explore__mutants (the port, no mutant selected); EXPECTED:
# models/mutants/expected.txt. Runs `BINARY MODELS --advise` and takes the
# order sites (the schemata's `site::NAME` on each line) it reports as
# stronger than needed. Passes iff they are exactly the order mutants that
# EXPECTED lets survive every column of COLUMNS (comma-separated; each
# mutant weakens its site one step, as the advice does): the kill matrix,
# run through the mutants' own path, is the oracle. --expect-mismatch (the
# teeth: a build whose check is broken) passes iff they differ.
expected=${1:?usage: advice_weaken.sh EXPECTED BINARY MODELS COLUMNS [--expect-mismatch]}
bin=${2:?}; models=${3:?}; columns=${4:?}; mode=${5:-}
out=$(RUNQCHECK_MUTANT=none "$bin" "$models" --advise 2>&1) \
  || { printf '%s\n' "$out" | tail -5; echo "advice_weaken: the port failed"; exit 1; }
got=$(printf '%s\n' "$out" |
  sed -n 's/^advice: stronger than needed: \(.*\):\([0-9]*\): .*/\1 \2/p' |
  while read -r file line; do
    sed -n "${line}p" "$file" | grep -o 'site::[a-z_]*' | sed 's/site:://'
  done | sort -u)
want=$(awk -v cols="$columns" '
  BEGIN { n = split(cols, c, ",") }
  /^# order:[a-z_]*: survives every column/ { s = $2; sub(/^order:/, "", s); sub(/:$/, "", s)
    print s; next }
  /^order:/ { s = $1; sub(/^order:/, "", s); k = split($2, by, ","); killed = 0
    for (i = 1; i <= k; i++) for (j = 1; j <= n; j++) if (by[i] == c[j]) killed = 1
    if (!killed) print s }' "$expected" | sort -u)
if [ "$got" = "$want" ]; then
  echo "advice_weaken: the sites reported stronger than needed under $models are the order" \
    "mutants that survive $columns: $(printf '%s' "$got" | tr '\n' ' ')"
  [ "$mode" = --expect-mismatch ] && { echo "advice_weaken: expected a mismatch"; exit 1; }
  exit 0
fi
echo "advice_weaken: reported but killed by $columns:" \
  "$(printf '%s\n' "$got" | grep -vxF "$want" | tr '\n' ' ')"
echo "advice_weaken: survive $columns but not reported:" \
  "$(printf '%s\n' "$want" | grep -vxF "$got" | tr '\n' ' ')"
[ "$mode" = --expect-mismatch ] && { echo "advice_weaken: mismatch, as expected"; exit 0; }
exit 1
