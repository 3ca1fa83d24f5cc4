# stall.cmake — the stall checker (tests/stall): one thread held between two
# of its accesses, for every stall point, while the others run 2^17-op
# sequences (ABA on narrow counters, index reuse). Deterministic (one thread
# at a time), every wait bounded; ~1-3 s a subject.
include_guard(GLOBAL)
# Not under TSan or qemu: one thread runs at a time, so TSan has nothing to
# see, and both are 10-50x slower (acme_workq's 16 s became > 300 s under
# TSan). Under ASan (its memory errors are ASan's to see) the others' sequences
# keep their full length, but a scenario holds at most 128 of its stall points
# (--points: the first and last 32, 64 drawn between): runqputslow's batch
# copy has ~900 at capacity 256, and ASan's slowdown made them 51-96 s of a
# port's gate (13 s now). Native holds every point.
if(CMAKE_CROSSCOMPILING OR "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_DEBUG}" MATCHES "sanitize=thread")
  return()
endif()
set(_rq_stall_args)
if("${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_DEBUG}" MATCHES "sanitize=address")
  set(_rq_stall_args ARGS --points 128)
endif()
runqcheck_add_checker(NAME stall SOURCES "${RUNQCHECK_ROOT}/tests/stall/stall.cpp"
  LIBS runqcheck_models Threads::Threads LABELS gate port TIMEOUT 300 ${_rq_stall_args})

# Teeth: buggy ports, each built like a registered subject (the same
# generated header and contract check) but registered nowhere else:
# stall_teeth/<name> passes iff the stall checker fails on it with a
# reproducer that fails again (teeth.sh; --expect: the failure's text).
# Host builds without a sanitizer (teeth.sh runs the binary directly).
function(_rq_stall_tooth name header type incdir)
  cmake_parse_arguments(PARSE_ARGV 4 arg "" "EXPECT" "")
  set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${name}_HEADER ${header})
  set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${name}_TYPE ${type})
  runqcheck_subject_header(${name} gen)
  add_executable(stall_teeth__${name} "${RUNQCHECK_ROOT}/tests/stall/stall.cpp")
  target_include_directories(stall_teeth__${name} PRIVATE "${gen}" "${incdir}")
  target_link_libraries(stall_teeth__${name} PRIVATE runqcheck::core runqcheck_models
    Threads::Threads)
  set_target_properties(stall_teeth__${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  set(expect)
  if(arg_EXPECT)
    set(expect --expect "${arg_EXPECT}")
  endif()
  add_test(NAME stall_teeth/${name} COMMAND sh "${RUNQCHECK_ROOT}/tests/stall/teeth.sh"
    ${expect} $<TARGET_FILE:stall_teeth__${name}>)
  set_tests_properties(stall_teeth/${name} PROPERTIES LABELS "gate;selftest" TIMEOUT 300)
endfunction()
# The teeth once, in the host build without a sanitizer (ASan's --points path:
# narrow_index_points, below).
set(_rq_stall_teeth OFF)
if(NOT CMAKE_CROSSCOMPILING AND NOT _rq_stall_args)
  set(_rq_stall_teeth ON)
endif()
if(_rq_stall_teeth)
  # go1.25 whose runqsteal moves head by a plain store: a livelock in the
  # leftovers' drain, on the checker's own thread, reported and replayed.
  _rq_stall_tooth(plain_head plain_head.hpp stall_teeth::plain_head
    "${RUNQCHECK_ROOT}/tests/stall" EXPECT "an operation made 4000000 accesses")
endif()
# 16-bit ring counters (examples/narrow_index): the ABA the held thief's CAS
# misses; also with --points, as under ASan.
if(EXISTS "${RUNQCHECK_ROOT}/examples/narrow_index/include/narrow_index/narrow_index.hpp"
   AND _rq_stall_teeth)
  _rq_stall_tooth(narrow_index narrow_index/narrow_index.hpp narrow::narrow_index
    "${RUNQCHECK_ROOT}/examples/narrow_index/include")
  add_test(NAME stall_teeth/narrow_index_points COMMAND sh "${RUNQCHECK_ROOT}/tests/stall/teeth.sh"
    $<TARGET_FILE:stall_teeth__narrow_index> --points 16)
  set_tests_properties(stall_teeth/narrow_index_points PROPERTIES LABELS "gate;selftest"
    TIMEOUT 300)
  # RUNQCHECK_STOP_ON_FAIL (a kill cell): the first failing scenario ends the run (the
  # two failing scenarios of the whole run above: one).
  add_test(NAME stall_teeth/narrow_index_stop COMMAND sh "${RUNQCHECK_ROOT}/tests/stall/teeth.sh"
    $<TARGET_FILE:stall_teeth__narrow_index>)
  set_tests_properties(stall_teeth/narrow_index_stop PROPERTIES LABELS "gate;selftest"
    TIMEOUT 300 ENVIRONMENT RUNQCHECK_STOP_ON_FAIL=1
    PASS_REGULAR_EXPRESSION "FAILED \\([0-9]+ cases, 1 failed\\)\nstall_teeth: killed")
endif()
