#!/bin/sh
# tests/explore/conservation_cause.sh BINARY MODEL WANT CULPRIT — BINARY: the catalog under
# the engine for a port that loses a G or hands one out twice with no data race. Passes iff
# it fails under MODEL, each conservation failure says where in the port ("...; left on the
# queues at the end 0; thread 0's store of ... at FILE:LINE ..."), one holds WANT and its
# last `at:` line (where the verdict's SARIF points) matches CULPRIT.
bin=${1:?usage: conservation_cause.sh EXPLORE_BINARY MODEL WANT CULPRIT}
want=${3:?usage: conservation_cause.sh EXPLORE_BINARY MODEL WANT CULPRIT}
culprit=${4:?usage: conservation_cause.sh EXPLORE_BINARY MODEL WANT CULPRIT}
out=$("$bin" "$2" 2>&1) && { echo "conservation_cause: the port passed"; exit 1; }
bare=$(printf '%s\n' "$out" | grep 'invariant: conservation' | grep -v "at the end [0-9]*; thread ")
if [ -n "$bare" ]; then
  printf '%s\n' "$bare" | head -3
  echo "conservation_cause: a conservation failure without its cause"
  exit 1
fi
# each cause with the last of the at: lines after it
got=$(printf '%s\n' "$out" | awk '
  /invariant: conservation .* at the end [0-9]+; thread / {
    if (c != "") print c " @@ " a
    c = $0; a = ""; next
  }
  c != "" && /^at: / { a = $2; next }
  c != "" { print c " @@ " a; c = "" }
  END { if (c != "") print c " @@ " a }')
if [ -z "$got" ]; then
  printf '%s\n' "$out" | tail -5
  echo "conservation_cause: no conservation failure"
  exit 1
fi
printf '%s\n' "$got" | head -3 | cut -c1-400
if ! printf '%s\n' "$got" | grep -F -- "$want" | grep -qE -- "@@ .*$culprit\$"; then
  echo "conservation_cause: no cause holds '$want' with its last at: line at $culprit"
  exit 1
fi
echo "conservation_cause: a cause holds '$want', its culprit at $culprit"
