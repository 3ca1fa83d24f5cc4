#!/bin/sh
# tests/stall/mutant_column.sh STALL_BIN BIN_DIR — ci/mutants' stall column.
# RUNQCHECK_MUTANT=subject:<name> runs the stall checker built on that buggy
# port (BIN_DIR/stall_teeth__<name>); any other mutant runs STALL_BIN (the
# checker of the subject `mutants`, which reads RUNQCHECK_MUTANT).
case ${RUNQCHECK_MUTANT:-} in
  subject:*)
    name=${RUNQCHECK_MUTANT#subject:}
    unset RUNQCHECK_MUTANT
    exec "$2/stall_teeth__$name" ;;
  *) exec "$1" ;;
esac
