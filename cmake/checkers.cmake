# checkers.cmake — every checker of the project, declared once; each runs
# against every subject (see runqcheck.cmake). RUNQCHECK_CHECKERS picks the
# families a build configures (presets set it): unit, mutants, relacy.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/runqcheck.cmake")

if(NOT DEFINED RUNQCHECK_CHECKERS)
  set(RUNQCHECK_CHECKERS unit)
endif()
find_package(Threads REQUIRED)

# Iteration scale for threaded tests (qemu and TSan presets lower it).
set(RUNQCHECK_TEST_SCALE "" CACHE STRING "RUNQCHECK_SCALE for threaded tests (empty: 1)")
set(_rq_env)
if(RUNQCHECK_TEST_SCALE)
  set(_rq_env RUNQCHECK_SCALE=${RUNQCHECK_TEST_SCALE})
endif()

file(GLOB _rq_subject_tests CONFIGURE_DEPENDS "${RUNQCHECK_ROOT}/tests/unit/subject_*.cpp")
file(GLOB _rq_core_tests CONFIGURE_DEPENDS "${RUNQCHECK_ROOT}/tests/unit/core_*.cpp")

if("unit" IN_LIST RUNQCHECK_CHECKERS OR "mutants" IN_LIST RUNQCHECK_CHECKERS)
  find_package(GTest REQUIRED)
endif()

if("unit" IN_LIST RUNQCHECK_CHECKERS)
  runqcheck_add_checker(NAME unit SOURCES ${_rq_subject_tests}
    LIBS GTest::gtest_main Threads::Threads LABELS gate unit TIMEOUT 900)
  runqcheck_add_checker(NAME unit_core CORE_ONLY SOURCES ${_rq_core_tests}
    LIBS GTest::gtest_main Threads::Threads LABELS gate unit TIMEOUT 900)
endif()

# The same unit tests, built on a backend that injects one selected bug.
# Run by ci/mutants (the kill matrix) and by the mutant/* tests below.
if("mutants" IN_LIST RUNQCHECK_CHECKERS)
  runqcheck_add_checker(NAME unit_mutant CORE_ONLY SOURCES ${_rq_subject_tests} ${_rq_core_tests}
    LIBS GTest::gtest_main Threads::Threads LABELS mutant_binary
    DEFINITIONS "RUNQCHECK_TEST_BACKEND=runqcheck::mutant_backend<runqcheck::native>"
    OPTIONS -include "${RUNQCHECK_ROOT}/models/mutants/mutant_backend.hpp")
endif()

if(NOT TARGET runqcheck_models)
  add_library(runqcheck_models INTERFACE)
  target_include_directories(runqcheck_models INTERFACE "${RUNQCHECK_ROOT}/models/scenarios")
endif()

if("relacy" IN_LIST RUNQCHECK_CHECKERS)
  runqcheck_find_relacy(_rq_relacy_dir)
  if(NOT TARGET runqcheck_relacy)
    add_library(runqcheck_relacy INTERFACE)
    target_include_directories(runqcheck_relacy SYSTEM INTERFACE "${_rq_relacy_dir}")
    # Relacy runs fibers: never with TSan; with ASan only without use-after-return.
    # Relacy replaces operator new/delete but not the sized delete that C++14+
    # containers call: without -fno-sized-deallocation a std::deque in a
    # scenario frees relacy memory with free() and aborts.
    target_compile_options(runqcheck_relacy INTERFACE -Wno-deprecated-declarations -fno-sized-deallocation)
  endif()
  # The scenario catalog (models/scenarios) under Relacy, for every subject.
  # Gate budget (one core, measured): 100k random executions per scenario
  # (~5 s a subject), context bound 2 (go125 ~5 s, locked_runq ~15 s), and
  # full search of the micro scenarios for the bundled port (~2 s).
  # Nightly: 10M random, context bound 3 and 5, full search of larger ones.
  runqcheck_add_checker(NAME relacy_scenarios SOURCES "${RUNQCHECK_ROOT}/tests/relacy/scenarios.cpp"
    LIBS runqcheck_relacy runqcheck_models LABELS gate relacy ARGS random 100000 TIMEOUT 600)
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _bound2
    LABELS gate relacy ARGS bound 2 TIMEOUT 600)
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _deep_bound3
    LABELS nightly relacy ARGS bound 3 TIMEOUT 7200)
  # Full search (every interleaving and every store each load may read) of
  # the micro scenarios: 2 threads, 1-2 Gs, ~2 s in all.
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _full CORE_ONLY
    LABELS gate relacy ARGS full TIMEOUT 600
    ENV "RUNQCHECK_CASE=steal_runnext_vs_runqget,empty_next1_next1,empty_next1_next0,empty_next0_next1,empty_next0_next0")
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _deep_full CORE_ONLY
    LABELS nightly relacy ARGS full TIMEOUT 7200
    ENV "RUNQCHECK_CASE=drain_vs_thief,put_kicks_runnext_during_steal,steal_overflow")
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _deep_random
    LABELS nightly relacy ARGS random 10000000 TIMEOUT 7200)
  runqcheck_add_checker_run(CHECKER relacy_scenarios SUFFIX _deep_bound
    LABELS nightly relacy ARGS bound 5 TIMEOUT 7200)
  # The same scenarios on the bug-injecting backend, for ci/mutants.
  runqcheck_add_checker(NAME relacy_scenarios_mutant CORE_ONLY
    SOURCES "${RUNQCHECK_ROOT}/tests/relacy/scenarios.cpp"
    LIBS runqcheck_relacy runqcheck_models LABELS mutant_binary ARGS random 20000
    DEFINITIONS "RUNQCHECK_RELACY_BACKEND=runqcheck::mutant_backend<runqcheck::relacy>"
    OPTIONS -include "${RUNQCHECK_ROOT}/models/mutants/mutant_backend.hpp")
endif()
