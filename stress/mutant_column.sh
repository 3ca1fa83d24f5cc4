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
#                          the last run does 40 rounds (~2.5 s idle): a count,
#                          not a time, so a loaded machine gets as many chances
#                          (procresize with a runnext on a dying P: 8/8 kills)
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
run --workload chaos --size 1000 --seed 2 --procs 3 --rounds 40
exit 0
