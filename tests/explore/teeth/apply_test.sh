#!/bin/sh
# Every patch of tests/explore/teeth applies to the engine exactly, and one that
# no longer fits (a removed line the engine lacks) fails with a one-line message
# naming it, exit 1; bad usage exits 2.  usage: apply_test.sh ROOT
set -u
root=$1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
src=$root/engine/explore
py=/usr/bin/python3
n=0
for p in "$root"/tests/explore/teeth/*.patch; do
  "$py" "$root/tests/explore/teeth/apply.py" "$src" "$p" "$tmp/$(basename "$p" .patch)" ||
    { echo "FAIL: $p does not apply"; exit 1; }
  same=1
  for f in "$src"/*.hpp; do
    cmp -s "$f" "$tmp/$(basename "$p" .patch)/explore/$(basename "$f")" || same=0
  done
  [ "$same" = 1 ] && { echo "FAIL: $p changes nothing"; exit 1; }
  n=$((n + 1))
done
printf '# stale\n--- a/engine.hpp\n+++ b/engine.hpp\n@@ -1 +1 @@\n-no such line\n+x\n' \
  > "$tmp/stale.patch"
"$py" "$root/tests/explore/teeth/apply.py" "$src" "$tmp/stale.patch" "$tmp/s" 2> "$tmp/err"
rc=$?
[ "$rc" = 1 ] && [ "$(wc -l < "$tmp/err")" = 1 ] &&
  grep -q "stale.patch no longer applies" "$tmp/err" ||
  { echo "FAIL: a stale patch: rc $rc, $(cat "$tmp/err")"; exit 1; }
"$py" "$root/tests/explore/teeth/apply.py" 2> /dev/null
[ $? = 2 ] || { echo "FAIL: bad usage not exit 2"; exit 1; }
echo "ok: $n patches apply, each changes the engine; a stale one fails: $(cat "$tmp/err")"
