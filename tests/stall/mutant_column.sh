#!/bin/sh
# tests/stall/mutant_column.sh STALL_MUTANT_BIN BIN_DIR — ci/mutants' stall
# column. RUNQCHECK_MUTANT=subject:<name> runs the stall checker built on
# that buggy port (BIN_DIR/stall_teeth__<name>); any other mutant runs the
# checker on the bug-injecting backend (go125).
case ${RUNQCHECK_MUTANT:-} in
  subject:*)
    name=${RUNQCHECK_MUTANT#subject:}
    unset RUNQCHECK_MUTANT
    exec "$2/stall_teeth__$name" ;;
  *) exec "$1" ;;
esac
