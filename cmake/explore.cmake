# explore.cmake — the exploring engine (engine/, issue 26), family
# `explore`: every scenario of the catalog, every consistent execution graph
# under SC and RC11 (optimal DPOR, docs/explore.md), for every subject:
# explore/<subject>, the verdict's `exhaustive` column.
# Self-tests (gate selftest): the litmus tests of proofs/weak through the
# engine against the axiomatic oracle, both directions, with no graph met
# twice (explore_litmus), and the same test failing on two broken engines
# (explore_teeth/revisits: no backward revisits; explore_teeth/coherence:
# no coherence axiom), each a patch of tests/explore/teeth; explore_teeth/mutants:
# runqput's tail store relaxed (order:runqput_tail_store, subject mutants) is
# a failure on owner_vs_thief and owner_vs_two_thieves whose replay: line
# fails again the same way (tests/explore/teeth.sh); explore_crosscheck: on
# the catalog's smaller scenarios (go125; and locked_runq, whose lock()s
# wait), the complete graphs the reduction explores are exactly those of an
# unreduced search (every thread may add the next event, no revisits, each
# partial graph once) and those of plain TruSt, without the await in-place
# revisits (explore_await, explore_protocol_crosscheck); explore_picture:
# a failure's swimlane page (below); explore_shards: the counts of 3 runs
# with --shard I/3 sum to the unsharded counts (tests/explore/shards.sh).
include_guard(GLOBAL)
find_package(Boost 1.66 REQUIRED COMPONENTS context)
# runqcheck_explore: the engine compiled once per build (engine/explore/engine.cpp;
# a driver includes explore/search.hpp only); runqcheck_explore_headers: its
# headers alone, for a target built on an engine broken on purpose (below).
if(NOT TARGET runqcheck_explore)
  add_library(runqcheck_explore_headers INTERFACE)
  target_include_directories(runqcheck_explore_headers INTERFACE "${RUNQCHECK_ROOT}/engine"
    "${RUNQCHECK_ROOT}/models/backend")
  target_link_libraries(runqcheck_explore_headers INTERFACE Boost::context)
  add_library(runqcheck_explore STATIC "${RUNQCHECK_ROOT}/engine/explore/engine.cpp")
  target_link_libraries(runqcheck_explore PUBLIC runqcheck_explore_headers)
endif()

# The pictures' recorders (Relacy's, this engine's) name a C port's ring: a C
# array with Go's field names; the engine's shows a G kept in a uintptr_t as the G
# (fuzz/tests/c_array_names.cpp).
if(TARGET runqcheck_fuzz_common AND NOT RUNQCHECK_PORT_ONLY AND NOT TARGET fuzz_c_array_names)
  add_executable(fuzz_c_array_names "${RUNQCHECK_ROOT}/fuzz/tests/c_array_names.cpp")
  target_include_directories(fuzz_c_array_names PRIVATE "${RUNQCHECK_ROOT}/tests/explore")
  target_link_libraries(fuzz_c_array_names PRIVATE runqcheck_fuzz_common runqcheck_explore)
  set_target_properties(fuzz_c_array_names PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_test(NAME fuzz_c_array_names COMMAND fuzz_c_array_names)
  set_tests_properties(fuzz_c_array_names PROPERTIES LABELS "gate;fuzz;selftest" TIMEOUT 60)
endif()
# A failure draws its execution (tests/explore/picture.hpp) with the explain
# page of fuzz/explain (absent from an install: no pictures).
runqcheck_picture_lib(_rq_pic)
# RUNQCHECK_SHARD I/N (ci/gate --shard): explore/<subject> searches shard I of N.
set(RUNQCHECK_SHARD "" CACHE STRING "I/N: the exhaustive column's searches, shard I of N")
set(_rq_shard)
if(RUNQCHECK_SHARD)
  if(NOT RUNQCHECK_SHARD MATCHES "^([0-9]+)/([0-9]+)$" OR CMAKE_MATCH_1 GREATER_EQUAL CMAKE_MATCH_2)
    message(FATAL_ERROR "RUNQCHECK_SHARD '${RUNQCHECK_SHARD}' is not I/N with 0 <= I < N")
  endif()
  set(_rq_shard --shard "${RUNQCHECK_SHARD}")
endif()
# Each scenario and model at most 120 s (lb, c11: 60 s), so that a tree too large for the
# gate is said, NOT exhausted with what it covered, before ctest's timeout would cut the
# whole run (a held-out port's retry that writes before it fails made one endless; the
# bundled ports' largest take 0.5 s).
runqcheck_add_checker(NAME explore SOURCES "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp"
  LIBS runqcheck_explore runqcheck_models ${_rq_pic} LABELS gate explore
  ARGS both --seconds 120 ${_rq_shard} TIMEOUT 900)
# The same catalog with load buffering (docs/explore.md, "Load buffering"):
# explore_lb/<subject>, the `exhaustive LB` column, under LB (certified
# promises) and C11 (uncertified: C11 as written). ~2 s for go125. The
# column's other half, generated_lb/<subject>, is below with `generated`.
runqcheck_add_checker_run(CHECKER explore SUFFIX _lb ARGS lb,c11 --seconds 60 LABELS gate explore
  TIMEOUT 300)

# Teeth through a user's port: examples/lb_port (runqput's head load relaxed),
# built like a subject but registered nowhere else (as cmake/weak.cmake
# builds it): explore_lb_teeth/lb_port passes iff the catalog passes under LB
# and fails under C11 with a replay that fails again (tests/explore/lb_teeth.sh).
set(_rq_lbp "${RUNQCHECK_ROOT}/examples/lb_port/include")
if(EXISTS "${_rq_lbp}/lb_port/lb_port.hpp" AND NOT TARGET explore_lb_port
   AND NOT RUNQCHECK_PORT_ONLY AND CMAKE_PROJECT_NAME STREQUAL "runqcheck")
  runqcheck_example_exe(explore_lb_port "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp"
    lb_port lb_port/lb_port.hpp lb::lb_port "${_rq_lbp}" runqcheck_explore runqcheck_models
    ${_rq_pic})
  add_test(NAME explore_lb_teeth/lb_port COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/lb_teeth.sh"
    $<TARGET_FILE:explore_lb_port>)
  set_tests_properties(explore_lb_teeth/lb_port PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
  # Its order advice: the head load alone, relaxed -> acquire, on the whole
  # catalog under LB and C11 (tests/explore/advice.sh, ~3 s).
  add_test(NAME explore_advice/lb_port COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/advice.sh"
    $<TARGET_FILE:explore_lb_port> lb,c11 "THE BUG" "load relaxed -> acquire")
  set_tests_properties(explore_advice/lb_port PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
endif()

# The engine broken on purpose for a teeth build: a copy of engine/explore
# with tests/explore/teeth/<patch>.patch applied (tests/explore/teeth/apply.py;
# the engine itself has no fault switches), put before the engine on target's
# include path. A patch that no longer fits the engine fails the configuration.
function(_rq_explore_broken target patch)
  set(_src "${RUNQCHECK_ROOT}/engine/explore")
  set(_p "${RUNQCHECK_ROOT}/tests/explore/teeth/${patch}.patch")
  set(_out "${CMAKE_BINARY_DIR}/explore_teeth/${patch}")
  file(GLOB _engine CONFIGURE_DEPENDS "${_src}/*.hpp")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_engine} "${_p}"
    "${RUNQCHECK_ROOT}/tests/explore/teeth/apply.py")
  if(NOT Python3_EXECUTABLE)
    find_package(Python3 REQUIRED COMPONENTS Interpreter)
  endif()
  execute_process(COMMAND "${Python3_EXECUTABLE}" "${RUNQCHECK_ROOT}/tests/explore/teeth/apply.py"
    "${_src}" "${_p}" "${_out}" RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_err}")
  endif()
  target_include_directories(${target} BEFORE PRIVATE "${_out}")
  # Its own engine, compiled against the patched copy (the target links
  # runqcheck_explore_headers, not the library).
  target_sources(${target} PRIVATE "${RUNQCHECK_ROOT}/engine/explore/engine.cpp")
endfunction()

# The generated runner on go125 (tests/explore/generated.cpp) as target, built on
# the engine broken by PATCH (_rq_explore_broken): a crosscheck's teeth.
function(_rq_generated_broken target patch)
  add_executable(${target} "${RUNQCHECK_ROOT}/tests/explore/generated.cpp")
  target_include_directories(${target} BEFORE PRIVATE
    "${CMAKE_BINARY_DIR}/runqcheck_subjects/go125")
  target_link_libraries(${target} PRIVATE runqcheck::core runqcheck_explore_headers
    runqcheck_models runqcheck_generate)
  _rq_explore_broken(${target} ${patch})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endfunction()

# generated_NAME_crosscheck: go125's `--crosscheck-NAME --total TOTAL`; its teeth,
# generated_NAME_crosscheck_teeth: the same at 3 operations on the engine broken by
# PATCH, which must find programs differing.
function(_rq_generated_crosscheck name total patch timeout)
  add_test(NAME generated_${name}_crosscheck
    COMMAND $<TARGET_FILE:generated__go125> --crosscheck-${name} --total ${total})
  _rq_generated_broken(generated_${patch} ${patch})
  add_test(NAME generated_${name}_crosscheck_teeth
    COMMAND generated_${patch} --crosscheck-${name} --total 3)
  set_tests_properties(generated_${name}_crosscheck_teeth PROPERTIES
    PASS_REGULAR_EXPRESSION "; [1-9][0-9,]* differ\n")
  set_tests_properties(generated_${name}_crosscheck generated_${name}_crosscheck_teeth
    PROPERTIES LABELS "gate;explore;selftest" TIMEOUT ${timeout})
endfunction()

# A self-test program of the engine (tests/explore/NAME.cpp) as target;
# PATCH: built on the engine broken by that patch (_rq_explore_broken), for the teeth.
function(_rq_explore_selftest target name)
  cmake_parse_arguments(A "" "PATCH" "" ${ARGN})
  add_executable(${target} "${RUNQCHECK_ROOT}/tests/explore/${name}.cpp")
  if(A_PATCH)
    target_link_libraries(${target} PRIVATE runqcheck::core runqcheck_explore_headers)
    _rq_explore_broken(${target} ${A_PATCH})
  else()
    target_link_libraries(${target} PRIVATE runqcheck::core runqcheck_explore)
  endif()
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endfunction()

# Test explore_teeth/NAME: tests/explore/SOURCE.cpp built as TARGET on the engine broken
# by PATCH, run as COMMAND (TARGET's file is $<TARGET_FILE:TARGET>), which passes iff the
# check fails; SMALL: its search is small (runqcheck_small_search). The gate runs one per
# reduction or model; the others are nightly, and with RUNQCHECK_NIGHTLY_BUILDS off
# neither they nor their engines are made.
function(_rq_explore_teeth name)
  cmake_parse_arguments(A "SMALL" "TARGET;SOURCE;PATCH;TIMEOUT;ENV" "COMMAND" ${ARGN})
  set(night coherence recertify ipr_no_skip sym_prune_any weak_choice_any ipr_any_loop
    ipr_keep_stamp ipr_one_rmw_child rmw_no_revisit)
  set(labels "gate;explore;selftest")
  if(name IN_LIST night)
    if(NOT RUNQCHECK_NIGHTLY_BUILDS)
      return()
    endif()
    set(labels "nightly;explore;selftest")
  endif()
  _rq_explore_selftest(${A_TARGET} ${A_SOURCE} PATCH ${A_PATCH})
  if(A_SMALL)
    runqcheck_small_search(${A_TARGET})
  endif()
  add_test(NAME explore_teeth/${name} COMMAND ${A_COMMAND})
  set_tests_properties(explore_teeth/${name} PROPERTIES LABELS "${labels}"
    TIMEOUT ${A_TIMEOUT})
  if(A_ENV)
    set_tests_properties(explore_teeth/${name} PROPERTIES ENVIRONMENT "${A_ENV}")
  endif()
endfunction()

if(NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING AND NOT TARGET explore_litmus)
  set(_rq_check "${RUNQCHECK_ROOT}/tests/explore/litmus_check.py")
  _rq_explore_selftest(explore_litmus litmus)
  add_test(NAME explore_litmus
    COMMAND /usr/bin/python3 "${_rq_check}" $<TARGET_FILE:explore_litmus>)
  set_tests_properties(explore_litmus PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  # A C port in GCC's builtin style (tests/c11/gcc_port.h, docs/porting.md section 8): the
  # builtins' results against the C compiler's, its orders explored, the compile errors.
  add_executable(c11_gcc_builtins "${RUNQCHECK_ROOT}/tests/c11/gcc_builtins_test.cpp")
  target_link_libraries(c11_gcc_builtins PRIVATE runqcheck::core runqcheck_explore)
  set_target_properties(c11_gcc_builtins PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_test(NAME c11_gcc_builtins COMMAND sh "${RUNQCHECK_ROOT}/tests/c11/check_gcc.sh"
    $<TARGET_FILE:c11_gcc_builtins> "${RUNQCHECK_ROOT}/core/include"
    "${CMAKE_BINARY_DIR}/c11_gcc_builtins" "${CMAKE_CXX_COMPILER}")
  set_tests_properties(c11_gcc_builtins PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  # Its teeth: an engine whose fetch_or writes the operand alone loses a bit.
  add_executable(c11_gcc_builtins_fbits_broken "${RUNQCHECK_ROOT}/tests/c11/gcc_builtins_test.cpp")
  target_link_libraries(c11_gcc_builtins_fbits_broken PRIVATE runqcheck::core
    runqcheck_explore_headers)
  set_target_properties(c11_gcc_builtins_fbits_broken PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  _rq_explore_broken(c11_gcc_builtins_fbits_broken fbits_operand)
  runqcheck_small_search(c11_gcc_builtins_fbits_broken)
  add_test(NAME explore_teeth/fbits_operand COMMAND sh -c
    "out=$(\"$0\" explore); [ $? -eq 1 ] && echo \"$out\" | grep -q '^FAIL bitwise RMWs'"
    $<TARGET_FILE:c11_gcc_builtins_fbits_broken>)
  set_tests_properties(explore_teeth/fbits_operand PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
  # explore_teeth/lb: model::lb without its promises; explore_teeth/certify:
  # promises taken uncertified (out-of-thin-air outcomes); recertify:
  # certified where made only (LB+recert's outcome no thread fulfils alone).
  foreach(_rq_v IN ITEMS revisits coherence lb certify recertify)
    _rq_explore_teeth(${_rq_v} TARGET explore_litmus_no_${_rq_v} SOURCE litmus SMALL
      PATCH drop_${_rq_v} TIMEOUT 120 COMMAND /usr/bin/python3 "${_rq_check}"
      $<TARGET_FILE:explore_litmus_no_${_rq_v}> --expect-mismatch)
  endforeach()
  # Every fault patch applies exactly; a stale one fails the configuration, named.
  add_test(NAME explore_teeth/patches COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/teeth/apply_test.sh" "${RUNQCHECK_ROOT}")
  set_tests_properties(explore_teeth/patches PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 60)
  # A run that ends with a thread waiting for good: a hang (a failure with a
  # replay that repeats it), or, with options::waits_end, the run's end.
  _rq_explore_selftest(explore_waits waits)
  add_test(NAME explore_waits COMMAND explore_waits)
  set_tests_properties(explore_waits PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  # A model of lock-aware TruSt apart from the engine (issue 42 item 1;
  # docs/explore.md, "A model of lock-aware TruSt"), on random straight-line
  # programs against brute force: without locks its TruSt meets every graph
  # once (explore_lapor_model), and does not when a revisit places its write
  # co-last only (explore_lapor_model_teeth); with LAPOR's order-free locks,
  # TruSt's own maximality loses classes (explore_lapor_model_plain: the
  # finding the docs measure the next design against), and the design there
  # meets no graph twice (explore_lapor_model_design).
  add_executable(explore_lapor_model "${RUNQCHECK_ROOT}/tests/explore/lapor_model.cpp")
  set_target_properties(explore_lapor_model PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_test(NAME explore_lapor_model COMMAND explore_lapor_model --no-sections --expect exact)
  add_test(NAME explore_lapor_model_teeth
    COMMAND explore_lapor_model --no-sections --break --expect loses)
  add_test(NAME explore_lapor_model_plain
    COMMAND explore_lapor_model --maximality plain --expect loses)
  add_test(NAME explore_lapor_model_design
    COMMAND explore_lapor_model --programs 5000 --seed 6 --expect optimal)
  set_tests_properties(explore_lapor_model explore_lapor_model_teeth explore_lapor_model_plain
    explore_lapor_model_design PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 60)
  # Await in-place revisits against plain TruSt on small waiting programs:
  # the same complete graphs, none twice, fewer blocked (explore_await);
  # the same test failing on two engines that break them on purpose
  # (explore_teeth/ipr_*: no in-place child, the revisit it stands for not
  # skipped; the revisited read keeping its stamp: with explore_random below).
  _rq_explore_selftest(explore_await await)
  add_test(NAME explore_await COMMAND explore_await)
  set_tests_properties(explore_await PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  foreach(_rq_v IN ITEMS ipr_drop_child ipr_no_skip)
    _rq_explore_teeth(${_rq_v} TARGET explore_await_${_rq_v} SOURCE await PATCH ${_rq_v}
      SMALL TIMEOUT 120 COMMAND explore_await_${_rq_v} --expect-mismatch)
  endforeach()
  # Symmetry reduction against the search without it on small programs with
  # symmetric threads: the same graphs up to permutation, none twice, the
  # same final states and verdicts (explore_symmetry); the same test
  # failing on engines that break it on purpose (explore_teeth/sym_*).
  _rq_explore_selftest(explore_symmetry symmetry)
  add_test(NAME explore_symmetry COMMAND explore_symmetry)
  set_tests_properties(explore_symmetry PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  foreach(_rq_v IN ITEMS sym_prune_any sym_no_leaf)
    _rq_explore_teeth(${_rq_v} TARGET explore_symmetry_${_rq_v} SOURCE symmetry
      PATCH ${_rq_v} TIMEOUT 120 COMMAND explore_symmetry_${_rq_v} --expect-mismatch)
  endforeach()
  # The engine on the generated programs against the naive search: the same
  # graphs, none twice (explore_random; with in-place revisits only where no
  # step waits); its teeth: a read that a revisit makes an RMW not revisiting
  # with its write (graphs missing). explore_random_ipr_waits: in-place
  # revisits where a step waits; its teeth (explore_teeth/ipr_no_unblock,
  # ipr_any_loop, ipr_keep_stamp): a backward revisit leaving other waiters
  # blocked on the old value, a read before a wait's loop revisited in place,
  # a read revisited in place keeping its stamp.
  add_test(NAME explore_random COMMAND explore_symmetry --naive)
  set_tests_properties(explore_random PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
  # Weak CASes (their spurious failures a choice the engine explores): the
  # generated programs with weak CAS steps against the naive search,
  # weak_once's spurious failure met and weak_retry's loop ended; its teeth:
  # a spurious failure taken as added maximally (graphs met twice), none
  # ever made (weak_once's state missing).
  add_test(NAME explore_random_weak COMMAND explore_symmetry --naive --weak --generated 100)
  set_tests_properties(explore_random_weak PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
  foreach(_rq_v IN ITEMS weak_choice_any weak_never)
    _rq_explore_teeth(${_rq_v} TARGET explore_symmetry_${_rq_v} SOURCE symmetry
      PATCH ${_rq_v} TIMEOUT 300
      COMMAND explore_symmetry_${_rq_v} --naive --weak --generated 100 --expect-mismatch)
  endforeach()
  add_test(NAME explore_random_ipr_waits COMMAND explore_symmetry --ipr-waits)
  set_tests_properties(explore_random_ipr_waits PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 300)
  foreach(_rq_v IN ITEMS ipr_no_unblock ipr_any_loop ipr_keep_stamp)
    _rq_explore_teeth(${_rq_v} TARGET explore_symmetry_${_rq_v} SOURCE symmetry
      PATCH ${_rq_v} TIMEOUT 300
      COMMAND explore_symmetry_${_rq_v} --ipr-waits --expect-mismatch)
  endforeach()
  # One generated waiting program each (SYMMETRY_CASE, of --generated N):
  # passes, and fails on the engine broken on purpose. random_435 of 800 (a
  # CAS revisited into an RMW beside a waiter; without the waiter's second
  # child), random_1034 of 2,000 (lock waiters beside a wait; a lock taken in
  # place where its revisit deletes others' events).
  foreach(_rq_c IN ITEMS "random_435;800;ipr_one_rmw_child" "random_1034;2000;ipr_lock_deletes")
    list(GET _rq_c 0 _rq_case)
    list(GET _rq_c 1 _rq_n)
    list(GET _rq_c 2 _rq_v)
    add_test(NAME explore_random_ipr_waits/${_rq_case}
      COMMAND explore_symmetry --ipr-waits --generated ${_rq_n})
    set_tests_properties(explore_random_ipr_waits/${_rq_case} PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 120 ENVIRONMENT "SYMMETRY_CASE=${_rq_case}")
    _rq_explore_teeth(${_rq_v} TARGET explore_symmetry_${_rq_v} SOURCE symmetry
      PATCH ${_rq_v} TIMEOUT 120 ENV "SYMMETRY_CASE=${_rq_case}"
      COMMAND explore_symmetry_${_rq_v} --ipr-waits --generated ${_rq_n} --expect-mismatch)
  endforeach()
  _rq_explore_teeth(rmw_no_revisit TARGET explore_symmetry_rmw_no_revisit SOURCE symmetry
    PATCH rmw_no_revisit TIMEOUT 300
    COMMAND explore_symmetry_rmw_no_revisit --naive --expect-mismatch)
endif()

if(TARGET explore__mutants AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME explore_teeth/mutants COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/teeth.sh"
    $<TARGET_FILE:explore__mutants> order:runqput_tail_store owner_vs_thief owner_vs_two_thieves)
  set_tests_properties(explore_teeth/mutants PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
  # A G lost with no data race (the thief read the slot's old value): the cause names the
  # put's store, the stale load and the relaxed tail store last (the verdict's location);
  # a G handed out twice: each operation's read of its pointer.
  set(_rq_cc sh "${RUNQCHECK_ROOT}/tests/explore/conservation_cause.sh"
    $<TARGET_FILE:explore__mutants>)
  string(CONCAT _rq_cc_lost "read nil (the initial value), not G0; thread 1 took it over "
    "through P0.runqtail: the store of P0.runqtail at runq.hpp:237 (runqput) is relaxed")
  add_test(NAME explore_cause/conservation_lost COMMAND ${_rq_cc} rc11 "${_rq_cc_lost}"
    runq.hpp:237)
  string(CONCAT _rq_cc_twice "g=0 delivered=2 put=1; taken by T1 1; left on the queues at "
    "the end 1; thread 0's load of P0.runnext at runq.hpp:")
  add_test(NAME explore_cause/conservation_twice COMMAND ${_rq_cc} sc "${_rq_cc_twice}"
    "runq.hpp:[0-9]+")
  # A G no store held (runnext's CAS failed, no retry): the put's last access.
  add_test(NAME explore_cause/conservation_dropped COMMAND ${_rq_cc} sc
    "runqput(P0, G2, next=true) never stored its pointer: its last access, the cas_fail of"
    "runq.hpp:[0-9]+")
  set_tests_properties(explore_cause/conservation_dropped PROPERTIES
    ENVIRONMENT "RUNQCHECK_MUTANT=runqput_runnext_no_retry")
  set_tests_properties(explore_cause/conservation_lost PROPERTIES
    ENVIRONMENT "RUNQCHECK_MUTANT=order:runqput_tail_store")
  set_tests_properties(explore_cause/conservation_twice PROPERTIES
    ENVIRONMENT "RUNQCHECK_MUTANT=runqgrab_runnext_load_store")
  # A CAS made of a load and a store (the thief's claim): the G handed out twice is
  # followed to the update its store lost, named last.
  add_test(NAME explore_cause/lost_update COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/race_cause.sh" $<TARGET_FILE:explore__mutants>
    "; an update lost: thread 1's store of P0.runqhead at runq.hpp:")
  set_tests_properties(explore_cause/lost_update PROPERTIES
    ENVIRONMENT "RUNQCHECK_MUTANT=runqgrab_cas_as_load_store")
  set_tests_properties(explore_cause/conservation_lost explore_cause/conservation_twice
    explore_cause/conservation_dropped explore_cause/lost_update
    PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  # A scenario expecting the port's fatal error (steal_overflow) that fails
  # otherwise first (runqsteal_no_overflow_check: the conservation invariant)
  # says what failed instead, with a replay: line that fails again so.
  add_test(NAME explore_teeth/expect_fatal_instead COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/teeth.sh" $<TARGET_FILE:explore__mutants>
    runqsteal_no_overflow_check steal_overflow)
  set_tests_properties(explore_teeth/expect_fatal_instead PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 60)
  # Load buffering on the catalog's lb_catalog (LB and C11 only): the
  # column kills order:runqget_head_load and order:runqdrain_head_load under
  # C11; the spec files are the same programs (< 5 s).
  add_test(NAME explore_lb_teeth/steal_after COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/lb_mutants.sh" $<TARGET_FILE:explore__mutants>
    "${RUNQCHECK_ROOT}/tests/explore/lb_scenarios")
  set_tests_properties(explore_lb_teeth/steal_after PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
  # Order advice (--advise): runqput's tail store relaxed, the advice names
  # that line and the release it needs, checked on the whole catalog
  # (tests/explore/advice.sh, ~1 s).
  add_test(NAME explore_advice COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/advice.sh"
    $<TARGET_FILE:explore__mutants> rc11 runqput_tail_store "store relaxed -> release")
  set_tests_properties(explore_advice PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120
    ENVIRONMENT "RUNQCHECK_MUTANT=order:runqput_tail_store")
  # A race's hand-over never names a hook (runq_counters: the harness's relaxed read
  # around a steal), here the thief's relaxed head CAS under C11 (~1 s).
  add_test(NAME explore_hook_blame COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/hook_blame.sh"
    $<TARGET_FILE:explore__mutants>)
  set_tests_properties(explore_hook_blame PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120)
  # Orders stronger than needed (--advise on a passing port): the sites it
  # reports are exactly the order mutants that expected.txt lets survive the
  # explore column (RC11, ~9 s; nightly: all four models against explore and
  # explore_lb, ~35 s). Teeth: the same on a build whose check runs one
  # scenario, not all (ADVISE_CHECK_ONE): it reports sites the matrix kills.
  set(_rq_weaken sh "${RUNQCHECK_ROOT}/tests/explore/advice_weaken.sh"
    "${RUNQCHECK_ROOT}/models/mutants/expected.txt")
  add_test(NAME explore_advice/weaken COMMAND ${_rq_weaken} $<TARGET_FILE:explore__mutants>
    rc11 explore)
  set_tests_properties(explore_advice/weaken PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 300)
  add_test(NAME explore_advice/weaken_all COMMAND ${_rq_weaken}
    $<TARGET_FILE:explore__mutants> all explore,explore_lb)
  set_tests_properties(explore_advice/weaken_all PROPERTIES LABELS "nightly;explore;selftest"
    TIMEOUT 900)
  runqcheck_example_exe(explore_advise_check_one__mutants
    "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" mutants runqcheck/go125.hpp
    runqcheck::go125 "${RUNQCHECK_MUTANTS_INCLUDE}" runqcheck_explore runqcheck_models)
  target_compile_definitions(explore_advise_check_one__mutants PRIVATE ADVISE_CHECK_ONE)
  add_test(NAME explore_advice_teeth/weaken COMMAND ${_rq_weaken}
    $<TARGET_FILE:explore_advise_check_one__mutants> rc11 explore --expect-mismatch)
  set_tests_properties(explore_advice_teeth/weaken PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 300)
endif()
# explore_picture: the failing run of a mutant prints `picture:` after
# `replay:`; the page holds the trace with its rf edges, the replay line
# writes the same page byte for byte, and the page renders in headless
# Chromium (fuzz/explain/check_dom.py; skipped, exit 77, without chromium).
if(TARGET explore__mutants AND TARGET runqcheck_explain AND NOT RUNQCHECK_PORT_ONLY
   AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME explore_picture COMMAND /usr/bin/python3
    "${RUNQCHECK_ROOT}/tests/explore/picture_test.py" $<TARGET_FILE:explore__mutants>
    "${CMAKE_BINARY_DIR}/picture_test/explore" order:runqput_tail_store owner_vs_thief)
  set_tests_properties(explore_picture PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300
    SKIP_RETURN_CODE 77)
endif()
if(TARGET explore__go125 AND NOT RUNQCHECK_PORT_ONLY)
  string(CONCAT _rq_small "steal_runnext_vs_runqget,put_kicks_runnext_during_steal,"
    "overflow_vs_grab,"
    "drain_vs_thief,drain_vs_thief_relink,overflow_vs_global,empty_next1_next1,empty_next1_next0,"
    "empty_next0_next1,empty_next0_next0,chained_steal,globbatch_vs_thief,destroy_after_thief,"
    "steal_never_fails")
  add_test(NAME explore_crosscheck COMMAND $<TARGET_FILE:explore__go125> both --crosscheck)
  set_tests_properties(explore_crosscheck PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300
    ENVIRONMENT "RUNQCHECK_CASE=${_rq_small}")
  if(TARGET explore__locked_runq)  # failed lock()s revisited in place (a mutex port)
    add_test(NAME explore_crosscheck/locked_runq COMMAND $<TARGET_FILE:explore__locked_runq> both
      --crosscheck)
    set_tests_properties(explore_crosscheck/locked_runq PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 300
      ENVIRONMENT "RUNQCHECK_CASE=${_rq_small},owner_vs_thief,owner_vs_two_thieves")
    # A queue under a lock has no counters to find: the wrap scenario is not
    # applied, with why (models/scenarios/counters.hpp), never a silent pass.
    add_test(NAME explore_wrap/locked_runq COMMAND $<TARGET_FILE:explore__locked_runq> both)
    set_tests_properties(explore_wrap/locked_runq PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 120 ENVIRONMENT "RUNQCHECK_CASE=wrap_2_32" PASS_REGULAR_EXPRESSION
      "runqcheck: not applied: scenario wrap_2_32: [^\n]*not found: no atomic of an unsigned")
    # The flag a user A/Bs with: plain TruSt, its blocked executions counted.
    add_test(NAME explore_no_ipr COMMAND $<TARGET_FILE:explore__locked_runq> both --no-ipr
      --hash)
    set_tests_properties(explore_no_ipr PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 120
      ENVIRONMENT "RUNQCHECK_CASE=owner_vs_two_thieves"
      PASS_REGULAR_EXPRESSION
      "owner_vs_two_thieves +RC11 +30 complete, 114 blocked, [^\n]*exhausted, 0 graphs met twice")
  endif()
  add_test(NAME explore_replay_model COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/replay_model.sh"
    $<TARGET_FILE:explore__go125> owner_vs_thief)
  set_tests_properties(explore_replay_model PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 60)
  add_test(NAME explore_shards COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/shards.sh"
    $<TARGET_FILE:explore__go125> 3 "owner_vs_thief,chained_steal,overflow_vs_global,slot_reuse")
  set_tests_properties(explore_shards PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
endif()

# The wakeup protocol's scenarios and world (models/protocol, shared with
# relacy_protocol and fuzz_protocol) under the engine
# (tests/explore/protocol.cpp): explore_protocol on the bundled protocol
# (self-test), and explore_protocol__<name> for each protocol subject
# (runqcheck_add_protocol_subject): test explore_protocol/<name>, labels
# gate and port (the explore_protocol column), within a budget per scenario
# and model that says what it covered when it cuts (20,000: 8 of the 15
# scenarios exhaust under both models for the bundled protocol, ~30 s a
# subject on one core; nightly: explore_protocol_deep/<name>, 1,000,000).
# The mutant gate's
# explore_protocol__mutants_protocol (models/mutants/mutants.cmake) is the kill
# matrix's explore_protocol column (tests/explore/protocol_column.sh).
set(RUNQCHECK_EXPLORE_PROTOCOL_BUDGET 20000 CACHE STRING
  "executions per scenario and model of explore_protocol/<protocol subject> (gate)")
# Every small program of the wakeup protocol (models/generate/protocol.hpp),
# each explored under SC and RC11 (tests/explore/protocol_generated.cpp):
# generated_protocol/<protocol subject>, the verdict's `generated protocol`
# column, labels gate and port; nightly: generated_protocol_deep/<name>.
# Gate: Ms 2..3, Gs <= 2 (<= 1 with 3 Ms), Ps 1..3 (4 with a resizer), 1,000
# executions per program and model (808 programs, ~67 s on one core for the
# bundled protocol); nightly: Gs <= 2 with 3 Ms too, 20,000 (docs/generated.md).
set(RUNQCHECK_GENERATED_PROTOCOL_ARGS both --gs 2 --gs3 1 --budget 1000)
set(RUNQCHECK_GENERATED_PROTOCOL_DEEP_ARGS both --gs 2 --gs3 2 --budget 20000)
function(_rq_explore_protocol target)
  _rq_protocol_exe(${target} protocol ${ARGN})
endfunction()
# An executable of tests/explore/SOURCE.cpp on a protocol subject (ARGN: its
# include folders): explore_protocol's, generated_protocol's.
function(_rq_protocol_exe target source)
  add_executable(${target} "${RUNQCHECK_ROOT}/tests/explore/${source}.cpp")
  target_include_directories(${target} PRIVATE ${ARGN}
    "${RUNQCHECK_ROOT}/tests/explore" "${RUNQCHECK_ROOT}/models/generate")
  target_link_libraries(${target} PRIVATE runqcheck::core runqcheck_explore
    runqcheck_protocol_models ${_rq_pic})
  target_compile_features(${target} PRIVATE cxx_std_20)
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endfunction()
if(NOT CMAKE_CROSSCOMPILING)
  if(NOT RUNQCHECK_PORT_ONLY AND NOT TARGET explore_protocol
     AND EXISTS "${RUNQCHECK_ROOT}/core/include/runqcheck/protocol.hpp")
    _rq_explore_protocol(explore_protocol)
    _rq_protocol_exe(generated_protocol protocol_generated)
    # On the mutant schemata (RUNQCHECK_MUTANT picks a protocol mutant), as
    # relacy_protocol_mutant: the teeth below.
    if(RUNQCHECK_MUTANTS_INCLUDE)
      _rq_explore_protocol(explore_protocol_mutant)
      _rq_protocol_exe(generated_protocol_mutant protocol_generated)
      target_include_directories(explore_protocol_mutant BEFORE PRIVATE
        "${RUNQCHECK_MUTANTS_INCLUDE}")
      target_include_directories(generated_protocol_mutant BEFORE PRIVATE
        "${RUNQCHECK_MUTANTS_INCLUDE}")
      # Teeth of generated_protocol: protocol mutants killed at the gate's
      # bound, the shrunk program printed, its replay: failing again (~1 s
      # each); retake_no_resume, handoffp_spinning_store,
      # handoffp_no_global_check and newm_drops_spinning (the spare M's) are on
      # paths no catalog scenario drives (docs/generated.md, "Teeth"). MUTANT:G:B:
      # Gs <= G, B executions per program, to stay a few seconds (the gate's
      # bound kills these two too, at programs 323 and 722: 16 s, 61 s CPU).
      foreach(_rq_mt IN ITEMS submit_no_wakep exitsyscall_loses_g retake_no_resume:2:100
                              handoffp_spinning_store handoffp_no_global_check:2:100
                              handoffp_runnext_blind
                              dance_no_global_recheck:2:100
                              mgetSpecific_no_unlink:1:100 newm_drops_spinning
                              mput_no_count idle_list_pop_drops_rest)
        string(REPLACE ":" ";" _rq_mt "${_rq_mt}")
        list(GET _rq_mt 0 _rq_m)
        set(_rq_ga ${RUNQCHECK_GENERATED_PROTOCOL_ARGS})
        list(LENGTH _rq_mt _rq_n)
        if(_rq_n EQUAL 3)
          list(GET _rq_mt 1 _rq_g)
          list(GET _rq_mt 2 _rq_b)
          set(_rq_ga both --gs ${_rq_g} --gs3 1 --budget ${_rq_b})
        endif()
        add_test(NAME generated_protocol_teeth/${_rq_m} COMMAND sh
          "${RUNQCHECK_ROOT}/tests/explore/protocol_generated_teeth.sh"
          $<TARGET_FILE:generated_protocol_mutant> ${_rq_m} ${_rq_ga})
        set_tests_properties(generated_protocol_teeth/${_rq_m} PROPERTIES
          LABELS "gate;explore;selftest" TIMEOUT 300)
      endforeach()
      runqcheck_mutants_gate_teeth(generated_protocol generated_protocol_teeth)
      # A shrunk program stays in the generated space (protocol.hpp's
      # in_space): handoffp_no_spinning_m's failure shrank to `procs=2 |
      # busy@0 0` (one M; a busy M beside an idle P) without the check.
      # The enumeration's failure and a run of a 3-M program (~4 s).
      add_test(NAME generated_protocol_shrink_space COMMAND sh
        "${RUNQCHECK_ROOT}/tests/explore/protocol_shrink_space.sh"
        $<TARGET_FILE:generated_protocol_mutant> handoffp_no_spinning_m
        "procs=2 | busy@0 0 | syscall_block@1 | idle" ${RUNQCHECK_GENERATED_PROTOCOL_ARGS})
      set_tests_properties(generated_protocol_shrink_space PROPERTIES
        LABELS "gate;explore;selftest" TIMEOUT 300)
      # Teeth: each protocol mutant on the scenario it breaks fails under
      # RC11 within 20,000 executions, with a replay: line that fails again
      # the same way (tests/explore/teeth.sh; < 2 s each). wakep_no_storeload
      # breaks only under RC11 (SC passes: a missing fence). #55160's two
      # halves on gosched_vs_dropping_spinner (174 executions exhaust it).
      # Not: pidleput_fifo (no invariant breaks; diff_go kills it).
      foreach(_rq_mc wakep_no_storeload:submit_vs_spinner_drop
                     spinning_drop_no_recheck:submit_vs_spinner_drop
                     submit_no_wakep:submit_vs_spinner_drop
                     handoffp_no_spinning_m:handoffp_after_wakep
                     syscall_steal_no_scan_bit:exitsyscall_steals_oldp
                     injectglist_no_final_wakep:injectglist_vs_idle
                     injectglist_no_startidle:injectglist_no_p
                     procresize_drops_runnext:procresize_vs_spinner
                     mgetSpecific_no_unlink:procresize_handback
                     handoffp_runnext_blind:handoffp_with_work
                     no_needspinning:go125_window_2m
                     exitsyscall_loses_g:syscall_exit_no_idle_p
                     dance_no_global_recheck:gosched_vs_dropping_spinner
                     gosched_no_wakep:gosched_vs_dropping_spinner
                     mput_no_count:submit_vs_spinner_drop
                     idle_list_pop_drops_rest:submit_vs_spinner_drop)
        string(REPLACE ":" ";" _rq_mc "${_rq_mc}")
        list(GET _rq_mc 0 _rq_m)
        list(GET _rq_mc 1 _rq_c)
        add_test(NAME explore_protocol_teeth/${_rq_m} COMMAND sh
          "${RUNQCHECK_ROOT}/tests/explore/teeth.sh" $<TARGET_FILE:explore_protocol_mutant>
          ${_rq_m} ${_rq_c})
        set_tests_properties(explore_protocol_teeth/${_rq_m} PROPERTIES
          ENVIRONMENT "TEETH_BUDGET=20000" LABELS "gate;explore;selftest" TIMEOUT 300)
      endforeach()
      runqcheck_mutants_gate_teeth(explore_protocol explore_protocol_teeth)
      # A protocol failure's reason in the verdict (ci/verdict.py on the real
      # output): the failing invariant, not the statistics line (< 1 s).
      add_test(NAME explore_protocol_reason COMMAND /usr/bin/python3
        "${RUNQCHECK_ROOT}/tests/explore/protocol_reason.py" $<TARGET_FILE:explore_protocol_mutant>
        "${RUNQCHECK_ROOT}/ci/verdict.py" gosched_no_wakep gosched_vs_dropping_spinner)
      set_tests_properties(explore_protocol_reason PROPERTIES LABELS "gate;explore;selftest"
        TIMEOUT 120)
      # A protocol failure's page: a lane per M, the same page on replay.
      if(TARGET runqcheck_explain)
        add_test(NAME explore_protocol_picture COMMAND /usr/bin/python3
          "${RUNQCHECK_ROOT}/tests/explore/picture_test.py"
          $<TARGET_FILE:explore_protocol_mutant> "${CMAKE_BINARY_DIR}/picture_test/explore_protocol"
          wakep_no_storeload submit_vs_spinner_drop)
        set_tests_properties(explore_protocol_picture PROPERTIES LABELS "gate;explore;selftest"
          TIMEOUT 300 SKIP_RETURN_CODE 77)
        # Under SC its rows are in an SC order, not the replay's (a read of runnext's
        # initial value drawn after the CAS that wrote it, before).
        add_test(NAME explore_protocol_picture_sc COMMAND /usr/bin/python3
          "${RUNQCHECK_ROOT}/tests/explore/picture_test.py"
          $<TARGET_FILE:explore_protocol_mutant> "${CMAKE_BINARY_DIR}/picture_test/protocol_sc"
          spinning_drop_no_recheck submit_vs_spinner_drop sc)
        set_tests_properties(explore_protocol_picture_sc PROPERTIES
          LABELS "gate;explore;selftest" TIMEOUT 300)
      endif()
    endif()
    # The bundled protocol in the two exhaustive protocol columns. The gate: every scenario
    # within the kill matrix column's budget, 2,000 executions (~6 s), and every generated
    # program at 100 executions a program and model (~10 s): the quick kill matrix leaves
    # the protocol columns, and with them their no-mutant baselines on the schemata at the
    # columns' budgets, to the self-tests. Nightly: the columns' own budgets and deeper.
    add_test(NAME explore_protocol_bundled COMMAND explore_protocol both --budget 2000)
    add_test(NAME explore_protocol_bundled_column COMMAND explore_protocol both
      --budget ${RUNQCHECK_EXPLORE_PROTOCOL_BUDGET})
    add_test(NAME explore_protocol_bundled_deep COMMAND explore_protocol both --budget 1000000)
    add_test(NAME generated_protocol_bundled COMMAND generated_protocol
      both --gs 2 --gs3 1 --budget 100)
    add_test(NAME generated_protocol_bundled_column COMMAND generated_protocol
      ${RUNQCHECK_GENERATED_PROTOCOL_ARGS})
    set_tests_properties(explore_protocol_bundled generated_protocol_bundled PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 300)
    set_tests_properties(explore_protocol_bundled_column generated_protocol_bundled_column
      PROPERTIES LABELS "nightly;explore;selftest" TIMEOUT 900)
    set_tests_properties(explore_protocol_bundled_deep PROPERTIES
      LABELS "nightly;explore;selftest" TIMEOUT 10800)
    # The space's one predicate: every generated program is in_space as
    # numbered (--count checks each; Gs 4, 2 with 3 Ms: < 1 s).
    add_test(NAME generated_protocol_space COMMAND generated_protocol --count --gs 4 --gs3 2)
    set_tests_properties(generated_protocol_space PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 60)
    # QUEUE (issue 42): kite (examples/kite_sched, its own lock) runs around
    # the queue subject its header names. Around kite's queue it passes; around
    # a queue bug (runqempty without the perch's lock) the same protocol must
    # report the race: a world that ignored QUEUE (go125) would not. ~2 s each.
    # (An installed tree has no examples/.)
    set(_rq_kinc "${RUNQCHECK_ROOT}/examples/kite_sched/include")
    set(_rq_kqs)
    if(EXISTS "${_rq_kinc}/kite/sched.hpp")
      set(_rq_kqs "kite_runq|kite/runq.hpp|kite::runq"
                  "kite_empty_unlocked|kite/variants.hpp|kite::empty_unlocked_bug")
    endif()
    foreach(_rq_kq IN LISTS _rq_kqs)
      string(REPLACE "|" ";" _rq_kq "${_rq_kq}")
      list(GET _rq_kq 0 _rq_kn)
      _runqcheck_protocol_header(explore_queue__${_rq_kn} kite/sched.hpp kite::sched
        "${_rq_kinc}" _rq_kgen ${_rq_kq})
      _rq_explore_protocol(explore_protocol_queue__${_rq_kn} ${_rq_kgen})
      runqcheck_small_search(explore_protocol_queue__${_rq_kn})
      add_test(NAME explore_protocol_queue/${_rq_kn} COMMAND explore_protocol_queue__${_rq_kn}
        both --budget 2000)
      set_tests_properties(explore_protocol_queue/${_rq_kn} PROPERTIES
        LABELS "gate;explore;selftest" TIMEOUT 120
        ENVIRONMENT "RUNQCHECK_CASE=submit_vs_spinner_drop")
    endforeach()
    if(_rq_kqs)
      # The race said in the port's terms (the verdict's reason): its object and line.
      string(CONCAT _rq_kcause "runqcheck: cause: explore_protocol [^ ]+ submit_vs_spinner_drop "
        "SC: data race on [^:]+: [^\n]* at runq[.]hpp:[0-9]+")
      set_tests_properties(explore_protocol_queue/kite_empty_unlocked PROPERTIES
        PASS_REGULAR_EXPRESSION "${_rq_kcause}")
      # A handoffp that frees a P holding a G (tests/explore/teeth): failed
      # by handoffp_with_work, the catalog's one handoff of a P with work.
      _runqcheck_protocol_header(explore_teeth__handoff_frees_work
        teeth/handoff_frees_work.hpp teeth::handoff_frees_work
        "${RUNQCHECK_ROOT}/tests/explore;${_rq_kinc}" _rq_hgen kite_runq kite/runq.hpp kite::runq)
      _rq_explore_protocol(explore_protocol_teeth__handoff_frees_work ${_rq_hgen})
      runqcheck_small_search(explore_protocol_teeth__handoff_frees_work)
      add_test(NAME explore_protocol_teeth/handoff_frees_work
        COMMAND explore_protocol_teeth__handoff_frees_work both --budget 2000)
      set_tests_properties(explore_protocol_teeth/handoff_frees_work PROPERTIES
        LABELS "gate;explore;selftest" TIMEOUT 120 ENVIRONMENT "RUNQCHECK_CASE=handoffp_with_work"
        PASS_REGULAR_EXPRESSION "handoffp_with_work SC: fatal error")
      # An idle list that loses what it is given, or hands an M out twice
      # (tests/explore/teeth/idle_lists.hpp): the idle-list check at quiescence fails
      # each, naming the lost M or P, or the M handed out twice.
      foreach(_rq_lt mput_loses_m:submit_vs_spinner_drop:.a.lost.M.
                     handoff_loses_p:handoffp_after_wakep:.a.lost.P.
                     mget_keeps_last:submit_vs_spinner_drop:handed.out.an.M.twice)
        string(REPLACE ":" ";" _rq_lt "${_rq_lt}")
        list(GET _rq_lt 0 _rq_ln)
        list(GET _rq_lt 1 _rq_lc)
        list(GET _rq_lt 2 _rq_lw)
        _runqcheck_protocol_header(explore_teeth__${_rq_ln} teeth/idle_lists.hpp
          teeth::${_rq_ln} "${RUNQCHECK_ROOT}/tests/explore;${_rq_kinc}" _rq_lgen kite_runq
          kite/runq.hpp kite::runq)
        _rq_explore_protocol(explore_protocol_teeth__${_rq_ln} ${_rq_lgen})
        runqcheck_small_search(explore_protocol_teeth__${_rq_ln})
        add_test(NAME explore_protocol_teeth/${_rq_ln}
          COMMAND explore_protocol_teeth__${_rq_ln} both --budget 2000)
        set_tests_properties(explore_protocol_teeth/${_rq_ln} PROPERTIES
          LABELS "gate;explore;selftest" TIMEOUT 120 ENVIRONMENT "RUNQCHECK_CASE=${_rq_lc}"
          PASS_REGULAR_EXPRESSION "${_rq_lc} SC: fatal error: invariant: .*${_rq_lw}")
      endforeach()
      # The summary counts only what was explored (kite has no procresize hook).
      add_test(NAME explore_protocol_summary COMMAND explore_protocol_queue__kite_runq
        both --budget 2000)
      set_tests_properties(explore_protocol_summary PROPERTIES
        LABELS "gate;explore;selftest" TIMEOUT 120
        ENVIRONMENT "RUNQCHECK_CASE=submit_vs_spinner_drop,procresize_vs_spinner"
        PASS_REGULAR_EXPRESSION ": 1 scenarios explored [(]1 not applied, 0 skipped[)], all passed")
    endif()
    # A replay path under the other model: one line, exit 2 (tests/explore/cli.hpp).
    add_test(NAME explore_protocol_replay_model COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/replay_model.sh" $<TARGET_FILE:explore_protocol>
      submit_vs_spinner_drop)
    set_tests_properties(explore_protocol_replay_model PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 60)
    # A replay prints its trace as text, the failing check last (Go's own window).
    add_test(NAME explore_protocol_replay_trace COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/replay_trace.sh" $<TARGET_FILE:explore_protocol>
      handoffp_vs_submit rc11)
    set_tests_properties(explore_protocol_replay_trace PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 60)
    # Bad input: one line, exit 2, nothing run (a negative budget ran without one, a
    # path that was no path replayed the first execution and passed).
    add_test(NAME explore_protocol_bad_input COMMAND sh
      "${RUNQCHECK_ROOT}/tests/style/bad_input.sh" $<TARGET_FILE:explore_protocol>
      "both --budget -5" "both --budget 0" "replay submit_vs_spinner_drop sc garbage"
      "replay submit_vs_spinner_drop sc sc/33:1," "replay submit_vs_spinner_drop sc sc/-1:0"
      "--windows bogus")
    set_tests_properties(explore_protocol_bad_input PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 60)
    # --lock-classes (what LAPOR would explore) against its trace oracle.
    add_test(NAME explore_protocol_lock_classes COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/lock_classes.sh" $<TARGET_FILE:explore_protocol>
      "${RUNQCHECK_ROOT}/tests/explore/lock_classes.py")
    set_tests_properties(explore_protocol_lock_classes PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 60)
    # Await in-place revisits on the protocol: the complete graphs of the
    # scenarios that exhaust in seconds are those of plain TruSt (--no-ipr).
    add_test(NAME explore_protocol_crosscheck COMMAND explore_protocol both --crosscheck)
    string(CONCAT _rq_pcx "submit_vs_spinner_drop,submit_ring_vs_spinner_drop,"
      "syscall_exit_vs_submit,exitsyscall_steals_oldp,retake_vs_exitsyscall,"
      "syscall_exit_no_idle_p,injectglist_no_p,handoffp_after_wakep")
    set_tests_properties(explore_protocol_crosscheck PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 300 ENVIRONMENT "RUNQCHECK_CASE=${_rq_pcx}")
    # Go's own windows, reported (tests/explore/windows.sh): the bundled protocol
    # reaches both under each model, as Go 1.27 does (~9 s); docs/proofs.md's
    # candidate fix of handoffp's (tests/explore/teeth) closes that one (< 1 s).
    add_test(NAME explore_protocol_windows/go COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/windows.sh" $<TARGET_FILE:explore_protocol>
      "Go's own window handoffp_vs_submit (SC): reached"
      "Go's own window handoffp_vs_submit (RC11): reached"
      "Go's own window go125_window_go_peek (SC): reached"
      "Go's own window go125_window_go_peek (RC11): reached")
    _runqcheck_protocol_header(explore_teeth__handoff_serves_needspinning
      teeth/handoff_serves_needspinning.hpp teeth::handoff_serves_needspinning
      "${RUNQCHECK_ROOT}/tests/explore" _rq_wgen)
    _rq_explore_protocol(explore_protocol_teeth__handoff_serves_needspinning ${_rq_wgen})
    runqcheck_small_search(explore_protocol_teeth__handoff_serves_needspinning)
    add_test(NAME explore_protocol_windows/closed COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/windows.sh"
      $<TARGET_FILE:explore_protocol_teeth__handoff_serves_needspinning>
      "Go's own window handoffp_vs_submit (SC): closed"
      "Go's own window handoffp_vs_submit (RC11): closed")
    set_tests_properties(explore_protocol_windows/go explore_protocol_windows/closed
      PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
    set_tests_properties(explore_protocol_windows/closed PROPERTIES
      ENVIRONMENT "RUNQCHECK_CASE=handoffp_vs_submit")
  endif()
  get_property(_rq_psubs GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECTS)
  foreach(_rq_ps IN LISTS _rq_psubs)
    if(TARGET explore_protocol__${_rq_ps})
      continue()
    endif()
    get_property(_rq_pinc GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECT_${_rq_ps}_INCLUDE_DIRS)
    _rq_explore_protocol(explore_protocol__${_rq_ps} ${_rq_pinc})
    add_test(NAME explore_protocol/${_rq_ps} COMMAND explore_protocol__${_rq_ps} both
      --budget ${RUNQCHECK_EXPLORE_PROTOCOL_BUDGET})
    add_test(NAME explore_protocol_deep/${_rq_ps} COMMAND explore_protocol__${_rq_ps} both
      --budget 1000000)
    set_tests_properties(explore_protocol/${_rq_ps} PROPERTIES LABELS "gate;explore;port"
      TIMEOUT 900)
    set_tests_properties(explore_protocol_deep/${_rq_ps} PROPERTIES
      LABELS "nightly;explore;port" TIMEOUT 10800)
    _rq_protocol_exe(generated_protocol__${_rq_ps} protocol_generated ${_rq_pinc})
    add_test(NAME generated_protocol/${_rq_ps} COMMAND generated_protocol__${_rq_ps}
      ${RUNQCHECK_GENERATED_PROTOCOL_ARGS})
    add_test(NAME generated_protocol_deep/${_rq_ps} COMMAND generated_protocol__${_rq_ps}
      ${RUNQCHECK_GENERATED_PROTOCOL_DEEP_ARGS})
    set_tests_properties(generated_protocol/${_rq_ps} PROPERTIES LABELS "gate;explore;port"
      TIMEOUT 900)
    set_tests_properties(generated_protocol_deep/${_rq_ps} PROPERTIES
      LABELS "nightly;explore;port" TIMEOUT 10800)
  endforeach()
endif()

# The wrap without hooks (issue 41): the exhaustive column on ports of
# examples/acme_runq that lack S::set_runq_counters (cmake/wrap_teeth.cmake):
# explore_wrap/acme_<port> must run wrap_2_32 (no "not applied") and pass it
# for the correct ports (bare_workq: 32-bit, widebare: 64-bit) and fail it,
# with a replay: that fails again, for the wrap bugs (wrapbare_bug: `last <
# first + Cap`; widebare_wrap_bug: `>=`); widebare_sign_bug passes it (its bug
# is at 2^63: generated_sign below).
include("${CMAKE_CURRENT_LIST_DIR}/wrap_teeth.cmake")
runqcheck_wrap_teeth(PREFIX explore_wrap SOURCE "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp"
  LIB runqcheck_explore LABEL explore
  PORTS bare_workq:pass widebare:pass wrapbare_bug:fail widebare_wrap_bug:fail
        widebare_sign_bug:pass)
# The same on a head that packs two counters in one 64-bit word (tokio's
# pack(steal, real), examples/packed_runq): found, not "not applied".
runqcheck_wrap_teeth(PREFIX explore_wrap SOURCE "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp"
  LIB runqcheck_explore LABEL explore EXAMPLE packed_runq HEADER packed_runq/runq.hpp
  NS packed TAG packed PORTS runq:pass wrap_bug:fail)
set(_rq_acme_inc "${RUNQCHECK_ROOT}/examples/acme_runq/include")
# Order advice on a port in its own style (examples/acme_runq): acme::strict,
# acme::workq with runqput's tail store seq_cst, is reported stronger than
# needed there (tests/explore/advice_strict.sh, ~7 s).
if(NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING AND TARGET explore__go125
   AND EXISTS "${_rq_acme_inc}/acme/variants.hpp")
  runqcheck_example_exe(explore_advise__acme_strict "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp"
    acme_strict acme/variants.hpp acme::strict "${_rq_acme_inc}" runqcheck_explore
    runqcheck_models)
  add_test(NAME explore_advice/acme_strict COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/advice_strict.sh" $<TARGET_FILE:explore_advise__acme_strict>)
  set_tests_properties(explore_advice/acme_strict PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 300)
endif()
# A data race's cause names the port's hand-over, never a hook's read (runq_counters):
# teeth::steal_next_store (tests/explore/teeth) takes runnext by load + store.
if(NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING AND TARGET explore__go125)
  runqcheck_example_exe(explore_teeth__steal_next_store
    "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" steal_next_store
    teeth/steal_next_store.hpp teeth::steal_next_store "${RUNQCHECK_ROOT}/tests/explore"
    runqcheck_explore runqcheck_models ${_rq_pic})
  add_test(NAME explore_teeth/steal_next_store COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/race_cause.sh" $<TARGET_FILE:explore_teeth__steal_next_store>)
  # teeth::grab_after_cas reads the slots after its CAS: the cause names that load as
  # read after the thief's own write (the CAS) that the owner read before refilling;
  # grab_after_relaxed_cas, the same with the CAS relaxed (not the owner's relaxed store).
  foreach(_rq_tn IN ITEMS grab_after_cas grab_after_relaxed_cas)
    runqcheck_example_exe(explore_teeth__${_rq_tn}
      "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" ${_rq_tn}
      teeth/grab_after_cas.hpp teeth::${_rq_tn} "${RUNQCHECK_ROOT}/tests/explore"
      runqcheck_explore runqcheck_models ${_rq_pic})
    add_test(NAME explore_teeth/${_rq_tn} COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/race_cause.sh" $<TARGET_FILE:explore_teeth__${_rq_tn}>
      "its load of P0.runq[0] at grab_after_cas.hpp:28 (runqsteal) came after its own rmw of")
  endforeach()
  # teeth::fence_publish orders by fences and drops the thief's: the cause names that
  # load, as the owner's release fence makes its relaxed store a release.
  runqcheck_example_exe(explore_teeth__fence_publish
    "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" fence_publish
    teeth/fence_publish.hpp teeth::fence_publish "${RUNQCHECK_ROOT}/tests/explore"
    runqcheck_explore runqcheck_models ${_rq_pic})
  add_test(NAME explore_teeth/fence_publish COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/race_cause.sh" $<TARGET_FILE:explore_teeth__fence_publish>
    "the load of P0.runqtail at fence_publish.hpp:30 (runqsteal) is relaxed, not an acquire")
  # teeth::early_publish releases the tail before it writes the slot: the cause names
  # that release as made before the write it was to publish.
  runqcheck_example_exe(explore_teeth__early_publish
    "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" early_publish
    teeth/early_publish.hpp teeth::early_publish "${RUNQCHECK_ROOT}/tests/explore"
    runqcheck_explore runqcheck_models ${_rq_pic})
  add_test(NAME explore_teeth/early_publish COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/race_cause.sh" $<TARGET_FILE:explore_teeth__early_publish>
    "read the store of P0.runqtail at early_publish.hpp:24 (runqput), a release made before")
  set_tests_properties(explore_teeth/fence_publish explore_teeth/early_publish PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 120)
  # teeth::counters_by_value: a runq_counters hook whose loads depend on the values it
  # reads; the deferred steal-size rule says which readings it could not judge.
  runqcheck_example_exe(explore_teeth__counters_by_value
    "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" counters_by_value
    teeth/counters_by_value.hpp teeth::counters_by_value "${RUNQCHECK_ROOT}/tests/explore"
    runqcheck_explore runqcheck_models ${_rq_pic})
  string(CONCAT _rq_sh "out=$(RUNQCHECK_CASE=owner_vs_two_thieves \"$0\" rc11 2>&1) && "
    "test $(printf '%s\\n' \"$out\" | grep -c 'not applied: steal-size invariant "
    "(some readings): S::runq_counters loaded other locations') -eq 1")
  add_test(NAME explore_teeth/counters_by_value COMMAND sh -c "${_rq_sh}"
    $<TARGET_FILE:explore_teeth__counters_by_value>)
  set_tests_properties(explore_teeth/counters_by_value PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 120)
  # teeth::get_next_weak takes runnext by one weak CAS and no retry (shared with
  # relacy_weak_cas/teeth): the engine's spurious failure leaves a G in runnext, which
  # the generated programs find (no catalog scenario needs a runner of its own here).
  runqcheck_example_exe(generated_teeth__get_next_weak
    "${RUNQCHECK_ROOT}/tests/explore/generated.cpp" get_next_weak
    teeth/get_next_weak.hpp teeth::get_next_weak "${RUNQCHECK_ROOT}/tests/relacy"
    runqcheck_explore runqcheck_models runqcheck_generate ${_rq_pic})
  add_test(NAME explore_teeth/get_next_weak COMMAND /usr/bin/python3
    "${RUNQCHECK_ROOT}/tests/explore/generated_teeth.py"
    $<TARGET_FILE:generated_teeth__get_next_weak> - 3
    --reason "runqget found nothing though runnext held a G" both --total 3)
  set_tests_properties(explore_teeth/get_next_weak PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 300)
  # Users' C ports' bugs, each one program whose failure must say what broke:
  # teeth::get_stale hands a G out twice (the cause says so, at the port's read);
  # teeth::drain_keeps_next leaves runnext set when it drains an empty ring (named
  # runqdrain, not the final check's runqget that finds the G).
  set(_rq_tp_get_stale "cap=4 procs=2 P0=0,1 | get(0) | steal(1,0)")
  set(_rq_tw_get_stale "G0 delivered twice[^\n]*get_stale.hpp:")
  set(_rq_tp_drain_keeps_next "cap=4 procs=2 P0=/0 | drain(0) | steal(1,0)")
  set(_rq_tw_drain_keeps_next "FAILED under SC: [^\n]*runqdrain left a G in runnext")
  foreach(_rq_tn IN ITEMS get_stale drain_keeps_next)
    runqcheck_example_exe(generated_teeth__${_rq_tn}
      "${RUNQCHECK_ROOT}/tests/explore/generated.cpp" ${_rq_tn}
      teeth/${_rq_tn}.hpp teeth::${_rq_tn} "${RUNQCHECK_ROOT}/tests/explore"
      runqcheck_explore runqcheck_models runqcheck_generate ${_rq_pic})
    add_test(NAME explore_teeth/${_rq_tn} COMMAND generated_teeth__${_rq_tn} run
      "${_rq_tp_${_rq_tn}}" sc)
    set_tests_properties(explore_teeth/${_rq_tn} PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 120 PASS_REGULAR_EXPRESSION "${_rq_tw_${_rq_tn}}")
  endforeach()
  set_tests_properties(explore_teeth/steal_next_store explore_teeth/grab_after_cas
    explore_teeth/grab_after_relaxed_cas PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
  runqcheck_small_search(explore_teeth__steal_next_store explore_teeth__grab_after_cas
    explore_teeth__grab_after_relaxed_cas
    explore_teeth__fence_publish explore_teeth__early_publish explore_teeth__counters_by_value
    generated_teeth__get_stale generated_teeth__drain_keeps_next generated_teeth__get_next_weak)
  # examples/packed_runq's bugs, each a scenario whose failure must say what broke:
  # stale_settle hands a G out twice with no race (a steal's steal := real moves real
  # back): the conservation failure says who took it and what the final drain found;
  # pop_lags moves only the low half of its head: the wrap's "not applied" says what
  # runqput and runqget wrote.
  set(_rq_packed_inc "${RUNQCHECK_ROOT}/examples/packed_runq/include")
  set(_rq_pc_stale_settle owner_vs_thief)
  set(_rq_pw_stale_settle
    "conservation [(]each G delivered exactly once[)] g=[0-9]+ delivered=2 put=1. taken by T")
  set(_rq_pc_pop_lags wrap_2_32)
  set(_rq_pw_pop_lags "not applied: scenario wrap_2_32: [^\n]*runqput wrote 4-byte 0 -> 1, \
runqget wrote 8-byte 0 -> 1[)]")
  foreach(_rq_tn IN ITEMS stale_settle pop_lags)
    runqcheck_example_exe(explore_teeth__packed_${_rq_tn}
      "${RUNQCHECK_ROOT}/tests/explore/scenarios.cpp" packed_${_rq_tn}
      packed_runq/runq.hpp packed::${_rq_tn} "${_rq_packed_inc}"
      runqcheck_explore runqcheck_models ${_rq_pic})
    runqcheck_small_search(explore_teeth__packed_${_rq_tn})
    add_test(NAME explore_teeth/packed_${_rq_tn} COMMAND explore_teeth__packed_${_rq_tn} sc)
    set_tests_properties(explore_teeth/packed_${_rq_tn} PROPERTIES
      LABELS "gate;explore;selftest" TIMEOUT 120 ENVIRONMENT "RUNQCHECK_CASE=${_rq_pc_${_rq_tn}}"
      PASS_REGULAR_EXPRESSION "${_rq_pw_${_rq_tn}}")
  endforeach()
endif()

# Every small queue program (models/generate), each explored exhaustively
# under SC and RC11 (tests/explore/generated.cpp): generated/<subject>, the
# verdict's `generated` column: the gate's bound, every program of at most 4
# operations (two threads with k = 2 each, three with 4 in all; 40,756
# programs); nightly: generated_deep/<subject>, three threads with k = 2 each
# and two with k = 3 (docs/generated.md).
if(NOT TARGET runqcheck_generate)
  add_library(runqcheck_generate INTERFACE)
  target_include_directories(runqcheck_generate INTERFACE "${RUNQCHECK_ROOT}/models/generate"
    "${RUNQCHECK_ROOT}/models/reference" "${RUNQCHECK_ROOT}/models/lincheck")
endif()
option(RUNQCHECK_GENERATED_CAP2
  "generated programs also at ring capacity 2 (every subject of the build must take Cap 2)" OFF)
set(_rq_gen_defs)
if(RUNQCHECK_GENERATED_CAP2)
  set(_rq_gen_defs RUNQCHECK_GENERATED_CAP2)
endif()
runqcheck_add_checker(NAME generated SOURCES "${RUNQCHECK_ROOT}/tests/explore/generated.cpp"
  DEFINITIONS ${_rq_gen_defs}
  LIBS runqcheck_explore runqcheck_models runqcheck_generate ${_rq_pic}
  LABELS gate explore ARGS both --total 4 TIMEOUT 1200)
# The programs across the wrap: generated_wrap/<subject>, each started at
# 2^32 - 2 (the port's hook, else its counters found by behaviour; a port
# with neither: `not applied`), so a bug of the counters' wrap on a path a
# program drives fails the column: at most 3 operations (7,033 programs,
# 0.5 s for go125); nightly, generated_wrap_deep/<subject>: at most 4 (5 s).
# generated_sign/<subject>: the same started at 2^(W-1) - 2, across the sign
# boundary (a held-out port comparing 64-bit counters as signed passed every
# other column).
runqcheck_add_checker_run(CHECKER generated SUFFIX _wrap LABELS gate explore TIMEOUT 1200
  ARGS both --total 3 --wrap)
runqcheck_add_checker_run(CHECKER generated SUFFIX _sign LABELS gate explore TIMEOUT 1200
  ARGS both --total 3 --sign)
runqcheck_add_checker_run(CHECKER generated SUFFIX _wrap_deep LABELS nightly explore
  TIMEOUT 3600 ARGS both --total 4 --wrap)
runqcheck_add_checker_run(CHECKER generated SUFFIX _deep LABELS nightly explore TIMEOUT 10800
  ARGS both --jobs 2)
runqcheck_add_checker_run(CHECKER generated SUFFIX _deep_k3 LABELS nightly explore TIMEOUT 10800
  ARGS both --threads 2 --ops 3 --jobs 2)
# The same programs with load buffering, in the `exhaustive LB` column
# (ci/checkers.json): generated_lb/<subject>, every program of at most 3
# operations under LB and C11 (8,927 programs, ~51,000 executions per model,
# ~2.4 s for go125); nightly: generated_lb_deep/<subject>, at most 4 (40,756
# programs, ~2,000,000 per model, ~1 min), and generated_lb_deep_k3/<subject>,
# two threads with k = 3, 4 in all (50,745 programs, ~11 s), where the owner's
# get then steal kills order:runqget_head_load (docs/generated.md).
runqcheck_add_checker_run(CHECKER generated SUFFIX _lb LABELS gate explore TIMEOUT 300
  ARGS lb,c11 --total 3)
runqcheck_add_checker_run(CHECKER generated SUFFIX _lb_deep LABELS nightly explore TIMEOUT 3600
  ARGS lb,c11 --total 4 --jobs 2)
runqcheck_add_checker_run(CHECKER generated SUFFIX _lb_deep_k3 LABELS nightly explore
  TIMEOUT 3600 ARGS lb,c11 --threads 2 --ops 3 --total 4 --jobs 2)

# The finder against the hooks (tests/explore/counters.cpp): on ports that
# have S::runq_counters (Go's, acme's 32- and 64-bit, the C port, a packed
# head), the
# counters found by behaviour are the ones the hook reads, at its width.
if(NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING AND TARGET explore__go125
   AND EXISTS "${_rq_acme_inc}/acme/variants.hpp")
  set(_rq_lwq_inc "${RUNQCHECK_ROOT}/examples/lwq_c/include")
  set(_rq_packed_inc "${RUNQCHECK_ROOT}/examples/packed_runq/include")
  foreach(_rq_cs IN ITEMS "go125|runqcheck/go125.hpp|runqcheck::go125|"
                          "acme_workq|acme/workq.hpp|acme::workq|${_rq_acme_inc}"
                          "acme_wide|acme/variants.hpp|acme::wide|${_rq_acme_inc}"
                          "lwq_c|lwq/subject.hpp|lwq_c::runq|${_rq_lwq_inc}"
                          "packed_runq|packed_runq/runq.hpp|packed::runq|${_rq_packed_inc}")
    string(REPLACE "|" ";" _rq_cs "${_rq_cs}")
    list(GET _rq_cs 0 _rq_n)
    list(GET _rq_cs 1 _rq_h)
    list(GET _rq_cs 2 _rq_t)
    list(GET _rq_cs 3 _rq_i)
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${_rq_n}_HEADER ${_rq_h})
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${_rq_n}_TYPE ${_rq_t})
    runqcheck_subject_header(${_rq_n} _rq_cgen)
    add_executable(explore_counters__${_rq_n} "${RUNQCHECK_ROOT}/tests/explore/counters.cpp")
    target_include_directories(explore_counters__${_rq_n} BEFORE PRIVATE "${_rq_cgen}" ${_rq_i}
      "${RUNQCHECK_ROOT}/tests/explore")
    target_link_libraries(explore_counters__${_rq_n} PRIVATE runqcheck::core runqcheck_explore
      runqcheck_models)
    set_target_properties(explore_counters__${_rq_n} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
    add_test(NAME explore_counters/${_rq_n} COMMAND explore_counters__${_rq_n})
    set_tests_properties(explore_counters/${_rq_n} PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 60)
  endforeach()
endif()

# The wrap without hooks through the generated programs (--wrap: each starts
# its counters at 2^32 - 2): generated_wrap/acme_<port> for the hook-less
# ports above, on the programs of at most 2 operations: bare_workq passes
# every one, and wrapbare_bug fails one, printed with its `counter=` (the
# program line of a failure); neither may say "not applied". Across the sign
# boundary (--sign: 2^31 - 2, 2^63 - 2 for 64-bit counters): generated_sign/
# acme_<port>, widebare passes, widebare_sign_bug (64-bit counters compared
# as signed) fails with `counter=2147483646`; its generated_wrap passes.
if(TARGET explore_wrap__acme_bare_workq)
  foreach(_rq_wv IN ITEMS bare_workq:passed:wrap wrapbare_bug:FAILED:wrap
                          widebare:passed:sign widebare_sign_bug:FAILED:sign
                          widebare_sign_bug:passed:wrap)
    string(REPLACE ":" ";" _rq_wv "${_rq_wv}")
    list(GET _rq_wv 0 _rq_w)
    list(GET _rq_wv 1 _rq_want)
    list(GET _rq_wv 2 _rq_how)
    set(_rq_at 4294967294)
    if(_rq_how STREQUAL "sign")
      set(_rq_at 2147483646)
    endif()
    if(NOT TARGET generated_wrap__acme_${_rq_w})  # a port run both ways: built once
      add_executable(generated_wrap__acme_${_rq_w}
        "${RUNQCHECK_ROOT}/tests/explore/generated.cpp")
      target_include_directories(generated_wrap__acme_${_rq_w} BEFORE PRIVATE
        "${CMAKE_BINARY_DIR}/runqcheck_subjects/acme_${_rq_w}" "${_rq_acme_inc}")
      target_link_libraries(generated_wrap__acme_${_rq_w} PRIVATE runqcheck::core
        runqcheck_explore runqcheck_models runqcheck_generate)
      set_target_properties(generated_wrap__acme_${_rq_w} PROPERTIES
        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
      runqcheck_small_search(generated_wrap__acme_${_rq_w})
    endif()
    set(_rq_t generated_${_rq_how}/acme_${_rq_w})
    add_test(NAME ${_rq_t} COMMAND generated_wrap__acme_${_rq_w} both --total 2 --${_rq_how})
    if(_rq_want STREQUAL "FAILED")
      set_tests_properties(${_rq_t} PROPERTIES
        PASS_REGULAR_EXPRESSION "\n  program: [^\n]* counter=${_rq_at} ")
    endif()
    set_tests_properties(${_rq_t} PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300
      FAIL_REGULAR_EXPRESSION "not applied: --${_rq_how}")
  endforeach()
endif()
# The retry reduction of the generated column (engine.hpp's options::retry_assume)
# against the full search, on go125 at most 4 operations: the same outcomes and
# access lines (generated_retry_crosscheck); its teeth, the same check on an
# engine that blocks a failed try even after it wrote (a lost write) finds
# programs differing. On a port whose loop changes course after a failed try
# (acme::retry_next_bug): the check finds the full search failing a program the
# reduction passes (generated_retry_crosscheck/acme_retry_next_bug), and the
# column's own check turns the reduction off and fails the port
# (generated_retry/acme_retry_next_bug).
if(TARGET generated__go125 AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING)
  _rq_generated_crosscheck(retry 4 retry_assume_writes 300)
  set(_rq_n acme_retry_next_bug)
  set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${_rq_n}_HEADER acme/variants.hpp)
  set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${_rq_n}_TYPE acme::retry_next_bug)
  runqcheck_subject_header(${_rq_n} _rq_gen)
  add_executable(generated_retry__${_rq_n} "${RUNQCHECK_ROOT}/tests/explore/generated.cpp")
  target_include_directories(generated_retry__${_rq_n} BEFORE PRIVATE "${_rq_gen}"
    "${_rq_acme_inc}")
  target_link_libraries(generated_retry__${_rq_n} PRIVATE runqcheck::core runqcheck_explore
    runqcheck_models runqcheck_generate)
  set_target_properties(generated_retry__${_rq_n} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  runqcheck_small_search(generated_retry_assume_writes generated_retry__${_rq_n})
  add_test(NAME generated_retry_crosscheck/${_rq_n}
    COMMAND generated_retry__${_rq_n} --crosscheck-retry --total 3)
  set_tests_properties(generated_retry_crosscheck/${_rq_n} PROPERTIES
    PASS_REGULAR_EXPRESSION "the full search fails it [^\n]*, the reduction not")
  add_test(NAME generated_retry/${_rq_n} COMMAND generated_retry__${_rq_n} both --total 3)
  set_tests_properties(generated_retry/${_rq_n} PROPERTIES
    PASS_REGULAR_EXPRESSION "the retry reduction is off [^\n]*\n.*\n  program: ")
  set_tests_properties(generated_retry_crosscheck/${_rq_n} generated_retry/${_rq_n} PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 300)
endif()
# The retry reduction's check in a run that stops at its first failure ends at the first
# program both searches fail; the run fails it, as the full search does (retry_stop.sh).
if(TARGET generated__mutants AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME generated_retry_stop COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/retry_stop.sh"
    $<TARGET_FILE:generated__mutants> runqput_spill_new_g runqget_second_first)
  set_tests_properties(generated_retry_stop PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
endif()
# Teeth of the generated column (tests/explore/generated_teeth.py): each mutant
# fails, shrunk to a program no larger than the catalog scenario that kills it
# (the last argument), saved, with replay: and picture: lines, and the replay
# fails again the same way. runqputslow_takes_all passes every catalog scenario;
# runqgrab_no_torn_guard needs the lone thief's own Gs at the start (torn_read: 17).
if(TARGET generated__mutants AND NOT RUNQCHECK_PORT_ONLY AND NOT CMAKE_CROSSCOMPILING)
  foreach(_rq_mc runqputslow_takes_all:6 order:runqsteal_tail_store:9
                 runqdrain_link_before_cas:7 destroy_runnext_last:4 order:runqempty_head_load:4
                 runqgrab_no_torn_guard:17)
    string(REPLACE ":" ";" _rq_mc "${_rq_mc}")
    list(LENGTH _rq_mc _rq_n)
    math(EXPR _rq_last "${_rq_n} - 1")
    list(GET _rq_mc ${_rq_last} _rq_max)
    list(REMOVE_AT _rq_mc ${_rq_last})
    string(REPLACE ";" ":" _rq_m "${_rq_mc}")
    add_test(NAME generated_teeth/${_rq_m} COMMAND /usr/bin/python3
      "${RUNQCHECK_ROOT}/tests/explore/generated_teeth.py" $<TARGET_FILE:generated__mutants>
      ${_rq_m} ${_rq_max})
    set_tests_properties(generated_teeth/${_rq_m} PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 300 ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  endforeach()
  # The owner's steal (findRunnable: runqget, then stealWork) under C11: the
  # head loads only load buffering shows, each shrunk to a program no larger
  # than its hand-written file in tests/explore/lb_scenarios (12, 11); the
  # get needs the owner's third operation (two threads, k = 3, 4 in all).
  foreach(_rq_mc "order:runqget_head_load|12|c11;--threads;2;--ops;3;--total;4"
                 "order:runqdrain_head_load|11|c11;--total;4")
    string(REPLACE "|" ";" _rq_mc "${_rq_mc}")
    list(POP_FRONT _rq_mc _rq_m _rq_max)
    add_test(NAME generated_teeth/${_rq_m} COMMAND /usr/bin/python3
      "${RUNQCHECK_ROOT}/tests/explore/generated_teeth.py" $<TARGET_FILE:generated__mutants>
      ${_rq_m} ${_rq_max} ${_rq_mc})
    set_tests_properties(generated_teeth/${_rq_m} PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 300 ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  endforeach()
  # Two head orders only load buffering killed before lincheck judged every
  # RC11 execution under hb (generated.cpp's history::precedence): the
  # thief's relaxed head load sees a stale head and takes too few (6), its
  # relaxed head CAS lets runqempty miss the put the thief saw (5); with the
  # interleavings alone judged, both pass `rc11 --total 4`.
  foreach(_rq_mc "order:runqgrab_head_load|6" "order:runqgrab_head_cas|5")
    string(REPLACE "|" ";" _rq_mc "${_rq_mc}")
    list(POP_FRONT _rq_mc _rq_m _rq_max)
    add_test(NAME generated_teeth/${_rq_m} COMMAND /usr/bin/python3
      "${RUNQCHECK_ROOT}/tests/explore/generated_teeth.py" $<TARGET_FILE:generated__mutants>
      ${_rq_m} ${_rq_max} --under RC11 rc11 --total 4)
    set_tests_properties(generated_teeth/${_rq_m} PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 300 ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  endforeach()
  # The exhaustive LB column's generated programs (generated_lb: lb,c11
  # --total 3) kill three order mutants under C11, each shrunk to a program
  # no larger than the catalog scenario that column kills it on
  # (owner_vs_thief, 11; drain_then_steal, 11). runqput_head_load is
  # examples/lb_port's bug: LB passes every program (the cycle runs through
  # runqput's control dependency; ci/test checks lb_port's own cell).
  foreach(_rq_m runqput_head_load runqgrab_head_cas runqdrain_head_load)
    add_test(NAME generated_lb_teeth/order:${_rq_m} COMMAND /usr/bin/python3
      "${RUNQCHECK_ROOT}/tests/explore/generated_teeth.py" $<TARGET_FILE:generated__mutants>
      order:${_rq_m} 11 --under C11 lb,c11 --total 3)
  endforeach()
  add_test(NAME generated_lb_teeth/lb_passes_runqput_head_load
    COMMAND $<TARGET_FILE:generated__mutants> lb --total 3)
  set_tests_properties(generated_lb_teeth/order:runqput_head_load
    generated_lb_teeth/order:runqgrab_head_cas generated_lb_teeth/order:runqdrain_head_load
    generated_lb_teeth/lb_passes_runqput_head_load PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 300
    ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  set_property(TEST generated_lb_teeth/lb_passes_runqput_head_load APPEND PROPERTY
    ENVIRONMENT "RUNQCHECK_MUTANT=order:runqput_head_load")
  # The shrinker stays in the contract (tests/explore/generated_contract.sh):
  # get_then_steal and drain_then_steal shrink to programs the port as
  # written passes (no steal into a full ring), and a spec where two threads
  # own one P is refused (one line, exit 2).
  if(TARGET generated__go125)
    add_test(NAME generated_contract COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/generated_contract.sh" $<TARGET_FILE:generated__mutants>
      $<TARGET_FILE:generated__go125> "${RUNQCHECK_ROOT}/tests/explore/lb_scenarios")
    set_tests_properties(generated_contract PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 120 ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  endif()
  # The precedence lincheck judges each execution under (generated.cpp's
  # history::precedence): inverted on purpose (RUNQCHECK_PRECEDENCE_BROKEN),
  # a program go125 passes fails under SC and RC11.
  if(TARGET generated__go125)
    add_test(NAME generated_precedence_teeth COMMAND sh
      "${RUNQCHECK_ROOT}/tests/explore/generated_precedence_teeth.sh"
      $<TARGET_FILE:generated__go125> "cap=4 procs=2 | put(0,0) | empty(0) empty(0)")
    set_tests_properties(generated_precedence_teeth PROPERTIES LABELS "gate;explore;selftest"
      TIMEOUT 120 ENVIRONMENT "RUNQCHECK_FAILURE_DIR=${CMAKE_BINARY_DIR}/failures/generated_teeth")
  endif()
  # The passing side: runqputslow_takes_all passes every catalog scenario.
  add_test(NAME generated_teeth/catalog_misses_runqputslow_takes_all
    COMMAND $<TARGET_FILE:explore__mutants> both)
  set_tests_properties(generated_teeth/catalog_misses_runqputslow_takes_all PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 300
    ENVIRONMENT "RUNQCHECK_MUTANT=runqputslow_takes_all")
endif()
# The program space's pruning (models/generate: twins, unread global starts,
# threads that share nothing) drops only programs a kept one covers, over
# three threads with k = 2; and the same check finds the hole when one kept
# program is left out (its teeth, in the same run).
if(TARGET generated__go125 AND NOT RUNQCHECK_PORT_ONLY)
  add_test(NAME generated_pruning COMMAND $<TARGET_FILE:generated__go125> --check-pruning)
  set_tests_properties(generated_pruning PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
endif()
# Await in-place revisits on the generated programs (at most 3 operations in
# all, both models): the same complete graphs as plain TruSt, none twice.
if(TARGET generated__go125 AND NOT RUNQCHECK_PORT_ONLY)
  add_test(NAME generated_ipr_crosscheck
    COMMAND $<TARGET_FILE:generated__go125> --crosscheck-ipr --total 3)
  set_tests_properties(generated_ipr_crosscheck PROPERTIES LABELS "gate;explore;selftest"
    TIMEOUT 120)
  # SC and RC11 as one tree (what `both` runs): SC's executions as the RC11
  # tree's SC-consistent ones are SC's own search's (at most 3 operations);
  # its teeth, generated_models_crosscheck_teeth: the same check on an
  # engine whose SC filter is broken on purpose (every RC11 graph SC's).
  _rq_generated_crosscheck(models 3 sc_filter_broken 120)
  # The steal-size rule's loads deferred (explore/observe.hpp: no events, judged at each
  # execution's end over what they may read) against the same loads made as events: per
  # execution, the same readings under RC11, none lost under SC, LB and C11 (at most 3
  # operations); its teeth, the same check on engines whose deferred loads read too much (a
  # po ∪ rf cycle; gate) or too little (the co-first value only; nightly, not built with
  # RUNQCHECK_NIGHTLY_BUILDS off).
  add_test(NAME generated_deferred_crosscheck
    COMMAND $<TARGET_FILE:generated__go125> sc,rc11,lb,c11 --crosscheck-deferred --total 3)
  set_tests_properties(generated_deferred_crosscheck PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 120)
  # The cap on one steal's readings: said when it cuts, silent when it does not.
  add_test(NAME generated_deferred_cap COMMAND sh
    "${RUNQCHECK_ROOT}/tests/explore/deferred_cap.sh" $<TARGET_FILE:generated__go125>)
  set_tests_properties(generated_deferred_cap PROPERTIES
    LABELS "gate;explore;selftest" TIMEOUT 60)
  set(_rq_observe_teeth no_porf)
  if(RUNQCHECK_NIGHTLY_BUILDS)
    list(APPEND _rq_observe_teeth lo_only)
  endif()
  foreach(_rq_v IN LISTS _rq_observe_teeth)
    _rq_generated_broken(generated_observe_${_rq_v} observe_${_rq_v})
    add_test(NAME generated_deferred_crosscheck_teeth/${_rq_v}
      COMMAND generated_observe_${_rq_v} rc11 --crosscheck-deferred --total 3)
    set(_rq_l "gate;explore;selftest")
    if(_rq_v STREQUAL "lo_only")
      set(_rq_l "nightly;explore;selftest")
    endif()
    set_tests_properties(generated_deferred_crosscheck_teeth/${_rq_v} PROPERTIES
      PASS_REGULAR_EXPRESSION "; [1-9][0-9,]* differ\n" LABELS "${_rq_l}" TIMEOUT 120)
  endforeach()
endif()
# The generated column's commands as docs/generated.md shows them, and its bad input.
if(TARGET generated__go125 AND TARGET explore__go125 AND NOT RUNQCHECK_PORT_ONLY)
  add_test(NAME generated_cli COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/generated_cli.sh"
    $<TARGET_FILE:generated__go125> $<TARGET_FILE:explore__go125>
    "${CMAKE_BINARY_DIR}/generated_cli")
  set_tests_properties(generated_cli PROPERTIES LABELS "gate;explore;selftest" TIMEOUT 300)
endif()
