#!/bin/sh
# stress/protocol_column.sh BIN [small] — the stress_protocol column
# (cmake/stress.cmake): the workloads that drive the wakeup protocol, run on
# BIN (runqcheck_stress__<protocol subject>), bounded by counts (--size,
# --rounds 1), stopping at the first failure (exit 1: a failed check, 3: the
# watchdog; each prints the scheduler's state and a `reproduce:` line). A
# workload that needs an optional hook the protocol lacks prints
# `runqcheck: not applied: ...` (or `declared absent`: its registration's
# WITHOUT) and exits 0; if none applied, exit 77
# (ctest: skipped; the verdict: not applied). `small`: the TSan sizes.
#   WakeupFromIdle         submit with every other M idle: a lost wakeup fails
#   SubmitVsSpinnerDrop    submit while a searcher is held after its failed
#                          steal: a drop without the recheck fails
#   GoroutineParallelism2  Go's lost-wakeup detector (spinning Gs, no yields)
#   WakeupParallelSpinning two Gs hand a token back and forth: park/ready
#   CreateGoroutinesParallel, ChanProdCons, skynet  submit/steal/global traffic
#   chaos, chaos --sysmon, WakeupParallelSyscall  syscalls (handoffp), procresize
set -u
bin=${1:?usage: stress/protocol_column.sh BIN [small]}
small=${2:-}
case $small in
  "" | small) ;;
  *) echo "protocol_column.sh: error: bad size '$small' (small or nothing)" >&2; exit 2;;
esac
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
ran=0  # workloads that ran (not `not applied`)
run() {  # run NATIVE_K SMALL_K ARGS...
  k=$1; [ -n "$small" ] && k=$2
  shift 2
  echo "+ ${bin##*/} $* --size $k"
  "$bin" --watchdog-ms 10000 --rounds 1 "$@" --size "$k" >"$out" 2>&1
  rc=$?
  cat "$out"
  [ $rc = 0 ] || exit $rc
  grep -qE '^runqcheck: (not applied|declared absent):' "$out" || ran=$((ran + 1))
}
run 200 50 --workload WakeupFromIdle --procs 2
run 50 20 --workload SubmitVsSpinnerDrop --procs 2
run 10 3 --workload GoroutineParallelism2 --procs 4
run 20000 1000 --workload WakeupParallelSpinning --procs 4
run 200000 20000 --workload CreateGoroutinesParallel --procs 4
run 200000 20000 --workload ChanProdCons --procs 4
run 100000 5000 --workload skynet --procs 4
run 2000 500 --workload chaos --procs 4 --seed 1
run 2000 500 --workload chaos --procs 3 --seed 2 --sysmon
run 2000 300 --workload WakeupParallelSyscall --procs 4
# None ran: the column did not apply (ctest's SKIP_RETURN_CODE), not a pass.
[ $ran -gt 0 ] || { echo "protocol_column.sh: no workload applied"; exit 77; }
exit 0
