# weak.cmake — the weak-memory orders of a port (issue #17), family `weak`.
# weak_record__<subject> (tests/weak/record_orders.cpp) runs small sequential
# scenarios through the subject API on a recording backend and lists every
# atomic access; weak_memory/<subject> has proofs/weak/audit.py --recorded tell
# each location's role by its behaviour, derive the port's order at each site
# of the audit's idioms and judge them under RC11, C11 with load buffering and
# ARMv8: FAILED if an idiom's bad outcome is reachable (the witness printed,
# and drawn as the swimlane page of fuzz/explain: a `picture:` line),
# a report of the orders stronger than needed, or `not applied` with the
# reason (exit 77: skipped) when the port's structure does not map onto the
# idioms (a queue under a lock has no orders to audit).
# Host builds only (the test runs the binary directly); < 2 s a subject.
include_guard(GLOBAL)
if(CMAKE_CROSSCOMPILING OR NOT EXISTS "${RUNQCHECK_ROOT}/proofs/weak/audit.py")
  return()
endif()
function(_rq_weak_memory_test s)
  add_test(NAME weak_memory/${s}
    COMMAND /usr/bin/python3 "${RUNQCHECK_ROOT}/proofs/weak/audit.py"
      --recorded $<TARGET_FILE:weak_record__${s}> --pictures "${CMAKE_BINARY_DIR}/weak_memory")
  set_tests_properties(weak_memory/${s} PROPERTIES LABELS "gate;weak;port" TIMEOUT 120
    SKIP_RETURN_CODE 77)
endfunction()
# The recorder's own run (weak_record/<subject>, label weak: not in the gate)
# only lists the accesses; the gate's test is weak_memory/<subject>.
runqcheck_add_checker(NAME weak_record HOOK _rq_weak_memory_test
  SOURCES "${RUNQCHECK_ROOT}/tests/weak/record_orders.cpp" LABELS weak TIMEOUT 60)
# Teeth (gate selftest, ~8 s): every order mutant of the schemata (subject
# `mutants`, RUNQCHECK_MUTANT=order:<site>) is rejected, naming the site with a
# witness, exactly when proofs/weak's table says the site is necessary.
if(TARGET weak_record__mutants AND NOT RUNQCHECK_PORT_ONLY)
  add_test(NAME weak_memory_teeth COMMAND /usr/bin/python3 "${RUNQCHECK_ROOT}/tests/weak/teeth.py"
    mutants $<TARGET_FILE:weak_record__mutants>)
  set_tests_properties(weak_memory_teeth PROPERTIES LABELS "gate;weak;selftest" TIMEOUT 300)
endif()
# Teeth through a user's port: examples/lb_port (runqput's head load relaxed:
# load buffering, which Relacy does not explore), built like a registered
# subject (the generated header, the contract check) but registered nowhere
# else. weak_memory_teeth/lb_port passes iff its verdict is FAILED, naming
# runqput_head_load, with a witness under C11 with LB and its swimlane page
# (checked in headless Chromium by fuzz/explain/check_dom.py). ~5 s.
set(_rq_lb "${RUNQCHECK_ROOT}/examples/lb_port/include")
if(EXISTS "${_rq_lb}/lb_port/lb_port.hpp" AND NOT TARGET weak_record__lb_port
   AND NOT RUNQCHECK_PORT_ONLY AND CMAKE_PROJECT_NAME STREQUAL "runqcheck")
  runqcheck_example_exe(weak_record__lb_port "${RUNQCHECK_ROOT}/tests/weak/record_orders.cpp"
    lb_port lb_port/lb_port.hpp lb::lb_port "${_rq_lb}")
  add_test(NAME weak_memory_teeth/lb_port COMMAND /usr/bin/python3
    "${RUNQCHECK_ROOT}/tests/weak/teeth.py" lb_port $<TARGET_FILE:weak_record__lb_port>
    "${CMAKE_BINARY_DIR}/weak_memory_teeth")
  set_tests_properties(weak_memory_teeth/lb_port PROPERTIES LABELS "gate;weak;selftest"
    TIMEOUT 120)
endif()
# The role and site rules on edited recordings of go125 (a peek, a plain read,
# a fence, a heap slot, two tails, a missing write): tests/weak/rules_test.py. ~4 s.
if(TARGET weak_record__go125 AND NOT RUNQCHECK_PORT_ONLY
   AND CMAKE_PROJECT_NAME STREQUAL "runqcheck")
  add_test(NAME weak_memory_rules COMMAND /usr/bin/python3
    "${RUNQCHECK_ROOT}/tests/weak/rules_test.py" $<TARGET_FILE:weak_record__go125>)
  set_tests_properties(weak_memory_rules PROPERTIES LABELS "gate;weak;selftest" TIMEOUT 120)
endif()
