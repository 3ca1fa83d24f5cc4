# The watchdog's teeth (examples/hang_port): every native checker must fail
# a livelocking and a deadlocking port with exit 3 and a state dump, and
# Relacy and the exhaustive engine must report both; every checker must
# show the text of a fatal error raised with the port's lock held. A scratch
# configure of only those subjects (plain flags, this compiler), registered
# once: in the native build (the one with the mutants family), not in the
# sanitizer or cross presets.
if("unit" IN_LIST RUNQCHECK_CHECKERS AND "mutants" IN_LIST RUNQCHECK_CHECKERS
   AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING
   AND EXISTS "${RUNQCHECK_ROOT}/examples/hang_port/check.sh")
  # Nightly, all three (the livelock, the deadlock and the fatal error with the lock
  # held): six -O0 builds each, 70-90 s each on the 2-core box, which the CI budget no
  # longer holds (2026-12-01). Each in its own scratch dir: ctest may run them at once.
  add_test(NAME hang_port_selftest
    COMMAND sh "${RUNQCHECK_ROOT}/examples/hang_port/check.sh" "${RUNQCHECK_ROOT}"
            "${CMAKE_BINARY_DIR}/hang_port" "${CMAKE_CXX_COMPILER}" livelock)
  set_tests_properties(hang_port_selftest PROPERTIES LABELS "nightly;selftest" TIMEOUT 1200)
  add_test(NAME hang_port_selftest_deadlock
    COMMAND sh "${RUNQCHECK_ROOT}/examples/hang_port/check.sh" "${RUNQCHECK_ROOT}"
            "${CMAKE_BINARY_DIR}/hang_port_deadlock" "${CMAKE_CXX_COMPILER}" deadlock)
  set_tests_properties(hang_port_selftest_deadlock PROPERTIES LABELS "nightly;selftest"
    TIMEOUT 1200)
  add_test(NAME hang_port_selftest_fatal
    COMMAND sh "${RUNQCHECK_ROOT}/examples/hang_port/check.sh" "${RUNQCHECK_ROOT}"
            "${CMAKE_BINARY_DIR}/hang_port_fatal" "${CMAKE_CXX_COMPILER}" fatal)
  set_tests_properties(hang_port_selftest_fatal PROPERTIES LABELS "nightly;selftest"
    TIMEOUT 1200)
endif()
