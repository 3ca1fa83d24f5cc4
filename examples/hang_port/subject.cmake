# The three hanging ports (include/hang_port/hang_port.hpp) as subjects; only
# tests/selftest/hang_port.sh registers them (RUNQCHECK_EXTRA_SUBJECTS).
runqcheck_add_subject(NAME hang_livelock HEADER hang_port/hang_port.hpp TYPE hang_port::livelock
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_subject(NAME hang_deadlock HEADER hang_port/hang_port.hpp TYPE hang_port::deadlock
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_subject(NAME hang_fatal HEADER hang_port/hang_port.hpp TYPE hang_port::fatal_locked
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
