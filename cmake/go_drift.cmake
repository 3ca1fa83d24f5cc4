# Upstream-drift alarm (issue #14, ci/go-drift, models/go/drift.txt): the
# installed Go's ported runtime functions against the recorded fingerprints.
# Skipped (77) without Go source. go_drift_teeth: a proc.go copy with runqgrab
# changed must fail, printing the diff and the port line.
add_test(NAME go_drift COMMAND /usr/bin/python3 "${RUNQCHECK_ROOT}/ci/go-drift" --check)
set_tests_properties(go_drift PROPERTIES LABELS "gate;selftest;drift" TIMEOUT 60
  SKIP_RETURN_CODE 77)
add_test(NAME go_drift_teeth COMMAND /usr/bin/python3 "${RUNQCHECK_ROOT}/ci/go-drift" --teeth)
set_tests_properties(go_drift_teeth PROPERTIES LABELS "gate;selftest;drift" TIMEOUT 60
  SKIP_RETURN_CODE 77)
