#!/bin/sh
# stress/mutant_column.sh BIN — the kill matrix's `stress` column (ci/mutants):
# a short set of stress runs on BIN (runqcheck_stress_mutant, which reads
# RUNQCHECK_MUTANT), stopping at the first failure. Exit 0 iff every run
# passed: a failed invariant (exit 1) or the watchdog (exit 3) kills the
# mutant. About 2-3 s in all on 2 cores when nothing fails; the watchdog's
# 1 s deadline is far above any gap between two executes in these runs.
#   GoroutineParallelism2  Go's lost-wakeup detector (spinning Gs, no yields)
#   chaos                  syscalls (handoffp), procresize, park/ready, yields
#   CreateGoroutinesParallel, skynet  runnext/ring/steal/global-queue traffic
set -u
bin=${1:?usage: stress/mutant_column.sh BIN}
run() {
  "$bin" --procs 4 --rounds 1 --watchdog-ms 1000 "$@" >/dev/null || exit $?
}
run --workload GoroutineParallelism2 --size 10
run --workload chaos --size 1000 --seed 1
run --workload chaos --size 1000 --seed 2 --procs 2
run --workload CreateGoroutinesParallel --size 20000
run --workload skynet --size 20000
exit 0
