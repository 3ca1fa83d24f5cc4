#!/bin/sh
# tests/explore/replay_model.sh BINARY SCENARIO — an exploring checker
# (explore_scenarios, explore_protocol) given a replay path found under RC11
# but asked to replay it under SC (and the reverse) says so in one line on
# stderr and exits 2 (tests/explore/cli.hpp's parse). Exit 0 if both do.
bin=${1:?usage: replay_model.sh BINARY SCENARIO}
sc=${2:?usage: replay_model.sh BINARY SCENARIO}
for pair in "sc rc11 RC11 SC" "rc11 sc SC RC11"; do
  # shellcheck disable=SC2086 # four words
  set -- $pair
  out=$("$bin" replay "$sc" "$1" "$2/0:1" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  [ "$rc" -eq 2 ] || { echo "replay_model.sh: exit $rc, want 2"; exit 1; }
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "replay_model.sh: not one line"; exit 1; }
  printf '%s\n' "$out" | grep -q "found under $3, not $4" \
    || { echo "replay_model.sh: the line does not name both models"; exit 1; }
done
echo "replay_model.sh: ok: a path under the other model is refused in one line"
