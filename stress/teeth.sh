#!/bin/sh
# stress/teeth.sh BIN ARGS... — the end-state check's teeth (cmake/stress.cmake):
# BIN ARGS... (a stress run on a buggy protocol) must fail that check: exit 1,
# a `fatal error: quiescence:` or `checkdead:` line naming where a G waits
# (`gN in P<i>'s ...`), and a `reproduce:` line with BIN's full path. Exit 0
# if it did, 1 if not (the output is shown either way).
set -u
bin=${1:?usage: stress/teeth.sh BIN ARGS...}
shift
out=$("$bin" "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^P[0-9]*:' | tail -n 30
fail() { echo "teeth.sh: FAILED: $*"; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc, want 1 (the end-state check)"
printf '%s\n' "$out" | grep -Eq "^fatal error: (quiescence|checkdead)[^ ]*: .*g[0-9]+ in " ||
  fail "no quiescence failure naming where a G waits"
case $bin in
  /*) abs=$bin ;;
  *) abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;;
esac
printf '%s\n' "$out" | grep -Fq "reproduce: $abs " || fail "no reproduce: line with $abs"
echo "teeth.sh: ok: the end-state check caught it"
