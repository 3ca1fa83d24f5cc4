#!/bin/sh
# stress/mutant_column.sh BIN — the kill matrix's `stress` column (ci/mutants):
# a short set of stress runs on BIN (runqcheck_stress_mutant, which reads
# RUNQCHECK_MUTANT), stopping at the first failure. Exit 0 iff every run
# passed: a failed invariant (exit 1) or the watchdog (exit 3) kills the
# mutant. About 3-4 s in all on 2 cores when nothing fails; the watchdog's
# 2 s deadline is far above any gap between two Gs created, readied or
# finished in these runs.
#   GoroutineParallelism2  Go's lost-wakeup detector (spinning Gs, no yields)
#   chaos                  syscalls (handoffp), procresize, park/ready, yields;
#                          the last run repeats rounds for 1.5 s (procresize
#                          with a runnext on a dying P needs a few thousand)
#   CreateGoroutinesParallel, skynet  runnext/ring/steal/global-queue traffic
set -u
bin=${1:?usage: stress/mutant_column.sh BIN}
run() {
  "$bin" --watchdog-ms 2000 "$@" >/dev/null || exit $?
}
run --workload GoroutineParallelism2 --size 10 --procs 4 --rounds 1
run --workload chaos --size 1000 --seed 1 --procs 4 --rounds 1
run --workload CreateGoroutinesParallel --size 20000 --procs 4 --rounds 1
run --workload skynet --size 20000 --procs 4 --rounds 1
run --workload chaos --size 1000 --seed 2 --procs 3 --seconds 1.5
exit 0
