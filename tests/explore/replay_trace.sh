#!/bin/sh
# tests/explore/replay_trace.sh BINARY SCENARIO MODEL — an exploring checker's
# replay prints the execution's trace as text (tests/explore/picture.hpp's
# text(), cli.hpp's write_failure_page): the search of SCENARIO (one that
# fails or reports, with a `replay:` line) is replayed, and the replay must
# print its verdict, `trace of SCENARIO`, a row per access (`#N T<thread>
# function: access object`, with `file:line`), the failing check last, and
# the search's own output no trace (only a replay prints one).
bin=${1:?usage: replay_trace.sh BINARY SCENARIO MODEL}
sc=${2:?usage: replay_trace.sh BINARY SCENARIO MODEL}
model=${3:?usage: replay_trace.sh BINARY SCENARIO MODEL}
fail() { echo "replay_trace.sh: $*"; exit 1; }
out=$(RUNQCHECK_CASE=$sc "$bin" "$model" 2>&1)
path=$(printf '%s\n' "$out" | sed -n "s/.*replay: [^ ]* replay $sc $model \([^ ;]*\).*/\1/p" \
  | head -1)
[ -n "$path" ] || fail "the search of $sc printed no replay: line"
printf '%s\n' "$out" | grep -q "^trace of " && fail "the search printed a trace (a replay only)"
rep=$("$bin" replay "$sc" "$model" "$path" 2>&1)
printf '%s\n' "$rep"
printf '%s\n' "$rep" | grep -q "^trace of $sc" || fail "no 'trace of $sc' line"
row='^  #[0-9]+ +T[0-9]+ +[A-Za-z_0-9]+: [a-z_]+ .* [a-z_0-9]+\.(hpp|h|cpp|c):[0-9]+$'
rows=$(printf '%s\n' "$rep" | grep -cE "$row")
[ "$rows" -ge 10 ] || fail "$rows access rows, want 10 or more"
last=$(printf '%s\n' "$rep" | grep -E '^  #[0-9]+ ' | tail -1)
printf '%s\n' "$last" | grep -q ' check fatal error: ' \
  || fail "the last row is no failed check: $last"
echo "replay_trace.sh: ok: $rows access rows, the failing check last"
