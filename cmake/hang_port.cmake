# The watchdog's teeth (examples/hang_port): every native checker must fail
# a livelocking and a deadlocking port with exit 3 and a state dump, and
# Relacy must report both. A scratch configure of only those two subjects
# (plain flags, this compiler), registered once: in the native build (the
# one with the mutants family), not in the sanitizer or cross presets.
if("unit" IN_LIST RUNQCHECK_CHECKERS AND "mutants" IN_LIST RUNQCHECK_CHECKERS
   AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING
   AND EXISTS "${RUNQCHECK_ROOT}/examples/hang_port/check.sh")
  add_test(NAME hang_port_selftest
    COMMAND sh "${RUNQCHECK_ROOT}/examples/hang_port/check.sh" "${RUNQCHECK_ROOT}"
            "${CMAKE_BINARY_DIR}/hang_port" "${CMAKE_CXX_COMPILER}")
  set_tests_properties(hang_port_selftest PROPERTIES LABELS "gate;selftest" TIMEOUT 1200)
endif()
