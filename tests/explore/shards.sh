#!/bin/sh
# tests/explore/shards.sh BINARY N SCENARIO,... — passes iff, per scenario
# and model (SC, RC11), the complete and the blocked executions of the N
# runs `BINARY both --shard I/N` sum to those of the unsharded run, and at
# least one scenario's tree was split (not all counted by shard 0).
bin=${1:?usage: shards.sh EXPLORE_BINARY N SCENARIO,...}
n=${2:?usage: shards.sh EXPLORE_BINARY N SCENARIO,...}
cases=${3:?usage: shards.sh EXPLORE_BINARY N SCENARIO,...}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# "scenario model complete blocked" per line, commas dropped.
re='^explore [^ ]* \([^ ]*\) *\(SC\|RC11\) *\([0-9,]*\) complete, \([0-9,]*\) blocked.*'
counts() { sed -n "s/$re/\\1 \\2 \\3 \\4/p" | tr -d ,; }
RUNQCHECK_CASE=$cases "$bin" both >"$tmp/all.out" 2>&1 \
  || { cat "$tmp/all.out"; echo "shards: the unsharded run failed"; exit 1; }
counts <"$tmp/all.out" | sort >"$tmp/all"
i=0
while [ "$i" -lt "$n" ]; do
  RUNQCHECK_CASE=$cases "$bin" both --shard "$i/$n" >"$tmp/s$i.out" 2>&1 \
    || { cat "$tmp/s$i.out"; echo "shards: shard $i/$n failed"; exit 1; }
  counts <"$tmp/s$i.out" >>"$tmp/parts"
  i=$((i + 1))
done
awk '{ c[$1 " " $2] += $3; b[$1 " " $2] += $4 }
     END { for (k in c) print k, c[k], b[k] }' "$tmp/parts" | sort >"$tmp/sum"
cat "$tmp/s"*.out | grep '^explore ' | grep -v 'not applied'
if ! cmp -s "$tmp/all" "$tmp/sum" || [ ! -s "$tmp/all" ]; then
  echo "shards: the shards' sums differ from the unsharded counts"
  echo "(scenario model complete blocked; <: unsharded, >: the shards' sum):"
  diff "$tmp/all" "$tmp/sum"
  echo "reproduce: RUNQCHECK_CASE=$cases $bin both [--shard I/$n]"
  exit 1
fi
if ! grep '(shard 0/' "$tmp/s0.out" | grep -qv 'tree not split'; then
  echo "shards: no tree was split: shard 0 counted everything"
  exit 1
fi
echo "shards: $n shards sum to the unsharded counts for every scenario and model"
