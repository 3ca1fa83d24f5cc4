#!/bin/sh
# tests/differential/crash_cause.sh SCRATCH — run_diff.sh names where a
# C++-side crash happened: a stand-in diff_gen writes two sequences and dies
# of SIGSEGV in the second; run_diff.sh must fail (exit 1) naming the
# signal, sequence 1, its operations and a reproduce line for it. Exit 77
# where run_diff.sh skips (no Go).
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: crash_cause.sh SCRATCH}
rm -rf "$work" && mkdir -p "$work" || exit 2
cat > "$work/gen.sh" <<'GEN'
#!/bin/sh
printf 'seq 0 2 3\nput 0 1 0\nend\nseq 1 2 3\nsteal 1 0 1\nend\n' > "$3"
: > "$4"
kill -SEGV $$
GEN
chmod +x "$work/gen.sh"
out=$(sh "$here/run_diff.sh" "$work/gen.sh" "$work/run" 2 4 "$work/gocache" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc -eq 77 ] && exit 77
fail() { echo "crash_cause.sh: $*"; exit 1; }
[ $rc -eq 1 ] || fail "exit $rc, want 1"
printf '%s\n' "$out" | grep -q 'crashed: SIGSEGV) on the C++ side, in sequence 1$' \
  || fail "the failure line names no signal or sequence"
printf '%s\n' "$out" | grep -q '^  steal 1 0 1$' || fail "sequence 1's operations not printed"
printf '%s\n' "$out" | grep -q '^  put 0 1 0$' && fail "sequence 0's operations printed"
printf '%s\n' "$out" | grep -q "^reproduce: .*gen.sh --check-model 2 4 " \
  || fail "no reproduce line up to sequence 1"
echo "crash_cause.sh: ok"
