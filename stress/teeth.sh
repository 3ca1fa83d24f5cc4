#!/bin/sh
# stress/teeth.sh WANT BIN ARGS... — the end-state checks' teeth
# (cmake/stress.cmake): BIN ARGS... (a stress run on a buggy protocol) must
# fail one: exit 1, a `fatal error: quiescence...` or `checkdead...` line
# that matches the extended regex WANT (`g[0-9]+ in `: it names where a G
# waits), and a `reproduce:` line with BIN's full path. Exit 0 if it did, 1
# if not (the output is shown either way).
set -u
want=${1:?usage: stress/teeth.sh WANT BIN ARGS...}
bin=${2:?usage: stress/teeth.sh WANT BIN ARGS...}
shift 2
out=$("$bin" "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | grep -v '^P[0-9]*:' | tail -n 30
fail() { echo "teeth.sh: FAILED: $*"; exit 1; }
[ "$rc" -eq 1 ] || fail "exit $rc, want 1 (the end-state check)"
printf '%s\n' "$out" | grep -E "^fatal error: (quiescence|checkdead)" | grep -Eq "$want" ||
  fail "no end-state failure matching '$want'"
case $bin in
  /*) abs=$bin ;;
  *) abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;;
esac
printf '%s\n' "$out" | grep -Fq "reproduce: $abs " || fail "no reproduce: line with $abs"
echo "teeth.sh: ok: the end-state check caught it"
