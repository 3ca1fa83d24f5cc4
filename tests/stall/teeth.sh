#!/bin/sh
# tests/stall/teeth.sh [--expect TEXT] BINARY [ARGS...] — passes iff the stall
# checker BINARY (built on a buggy port), run with ARGS (--points M: as under
# ASan), fails, prints a reproducer, and the reproducer fails again with the
# same verdict line (which contains TEXT, when given).
expect=
if [ "${1:-}" = --expect ]; then
  expect=${2:?usage: teeth.sh [--expect TEXT] STALL_BINARY [ARGS...]}
  shift 2
fi
bin=${1:?usage: teeth.sh [--expect TEXT] STALL_BINARY [ARGS...]}
shift
out=$("$bin" "$@" 2>&1)
rc=$?
printf '%s\n' "$out" | tail -15
[ $rc -ne 0 ] || { echo "stall_teeth: the stall checker passed the buggy port"; exit 1; }
[ $rc -eq 1 ] || { echo "stall_teeth: exit status $rc, not a verdict's 1 (a crash?)"; exit 1; }
repro=$(printf '%s\n' "$out" | sed -n 's/^reproduce: \(RUNQCHECK_STALL=[^ ]*\) .*/\1/p' | head -1)
[ -n "$repro" ] || { echo "stall_teeth: failed (rc $rc) without a reproduce: line"; exit 1; }
first=$(printf '%s\n' "$out" | grep -m1 '^stall/.*: FAILED ')
case $first in
  *"$expect"*) ;;
  *) echo "stall_teeth: the first failure is not '$expect': $first"; exit 1 ;;
esac
again=$(env "$repro" "$bin" 2>&1)
[ $? -ne 0 ] || { echo "stall_teeth: the reproducer $repro passed"; exit 1; }
printf '%s\n' "$again" | grep -qxF "$first" \
  || { echo "stall_teeth: the reproducer $repro did not give: $first"; exit 1; }
echo "stall_teeth: killed, and $repro reproduces: $first"
