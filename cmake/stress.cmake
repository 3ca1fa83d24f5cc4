# stress.cmake — the `stress` checker family (RUNQCHECK_CHECKERS): the M:N
# scheduler of stress/ on the core's queues (native backend), its CLI, and
# its ctest runs. With the `mutants` family too, the same scheduler on the
# mutant schemata (models/mutants) with its own protocol mutants
# (runqcheck_stress_mutant), the kill matrix's `stress` column (ci/mutants).
#
# Targets: runqcheck_stress_lib (static: the scheduler, the workloads and
# runqcheck::stress::add_command for the main CLI), runqcheck_stress (its
# own executable), runqcheck_stress_mutant, runqcheck_stress__<protocol
# subject> (with runqcheck_stress_protocol_common, the sources that do not
# see the protocol).
# Tests: stress/<workload> (gate: every workload briefly), stress/chaos_*
# (gate: more seeds, --sysmon), stress/cli_* (gate: flags, add_command),
# stress/tsan_sees_races (TSan builds), stress_deep/* (nightly).
#
# Each protocol subject (runqcheck_add_protocol_subject): the same scheduler
# on it, runqcheck_stress__<name> (proc.cpp's protocol_under_test), and its
# test stress_protocol/<name> (labels gate, port: the stress_protocol
# column; stress/protocol_column.sh). Built with RUNQCHECK_PORT_ONLY too
# (ci/gate --subject), where the self-tests below are not.
include_guard(GLOBAL)

find_package(Boost 1.66 REQUIRED COMPONENTS context)
find_package(CLI11 CONFIG REQUIRED)
find_package(Threads REQUIRED)
include(CheckCXXCompilerFlag)
check_cxx_compiler_flag(-Wno-tsan RUNQCHECK_HAVE_WNO_TSAN)

set(_rq_stress_dir "${RUNQCHECK_ROOT}/stress")
set(_rq_stress_src
  "${_rq_stress_dir}/src/proc.cpp" "${_rq_stress_dir}/src/fiber.cpp"
  "${_rq_stress_dir}/src/watchdog.cpp"
  "${_rq_stress_dir}/src/workloads.cpp" "${_rq_stress_dir}/src/command.cpp")

# The fiber switches must not be TSan-instrumented (stress/src/fiber.hpp
# says why); harmless in other builds.
set_source_files_properties("${_rq_stress_dir}/src/fiber.cpp" PROPERTIES
  COMPILE_OPTIONS "-fno-sanitize=thread")

# One scheduler library; `mutants` set: on the mutant schemata (models/mutants:
# the queue and the protocol mutants, both patches of core/).
function(_rq_stress_lib name mutants)
  add_library(${name} STATIC ${_rq_stress_src})
  target_include_directories(${name} PUBLIC "${_rq_stress_dir}/include")
  target_link_libraries(${name} PUBLIC runqcheck::core Boost::context CLI11::CLI11 Threads::Threads)
  target_compile_features(${name} PUBLIC cxx_std_20)
  if(mutants)
    target_include_directories(${name} BEFORE PUBLIC "${RUNQCHECK_MUTANTS_INCLUDE}")
  endif()
  # The wakeup protocol's seq_cst fences (proc.cpp's top comment explains
  # why TSan not modelling them is harmless here).
  if(RUNQCHECK_HAVE_WNO_TSAN)
    target_compile_options(${name} PRIVATE -Wno-tsan)
  endif()
endfunction()

# The stress_protocol column: per protocol subject, the scheduler on its
# protocol (proc.cpp, the only source that sees it) and the column's runs.
# The command line (command.cpp, main.cpp: runtime.hpp, no queue) is built
# once. The other sources are built once too, unless the subject's include
# dirs replace core headers (a runqcheck/ folder, as the mutant schemata's:
# then they are built on them) or it names a QUEUE (_rq_pqueue): they are
# then built once per QUEUE, on that queue subject's header
# (runqcheck_subject.hpp, RUNQCHECK_STRESS_OWN_QUEUE: stress/sched.hpp's S).
# _rq_stress_protocol_exe: the binary _rq_t on the include dirs _rq_pinc
# (the generated header's folder first).
macro(_rq_stress_protocol_exe)
  set(_rq_own_core OFF)
  foreach(_rq_d IN LISTS _rq_pinc)
    if(IS_DIRECTORY "${_rq_d}/runqcheck")
      set(_rq_own_core ON)
    endif()
  endforeach()
  if(NOT TARGET runqcheck_stress_cli)
    add_library(runqcheck_stress_cli OBJECT "${_rq_stress_dir}/src/command.cpp"
      "${_rq_stress_dir}/main.cpp")
    target_include_directories(runqcheck_stress_cli PUBLIC "${_rq_stress_dir}/include")
    target_link_libraries(runqcheck_stress_cli PUBLIC CLI11::CLI11 Threads::Threads)
    target_compile_features(runqcheck_stress_cli PUBLIC cxx_std_20)
  endif()
  # The sources besides proc.cpp and the command line (an object library).
  set(_rq_common runqcheck_stress_protocol_common)
  if(_rq_own_core)
    set(_rq_common ${_rq_t}_common)
  elseif(_rq_pqueue)
    set(_rq_common runqcheck_stress_common__${_rq_pqueue})
  endif()
  if(NOT TARGET ${_rq_common})
    add_library(${_rq_common} OBJECT "${_rq_stress_dir}/src/fiber.cpp"
      "${_rq_stress_dir}/src/watchdog.cpp" "${_rq_stress_dir}/src/workloads.cpp")
    if(_rq_own_core)
      target_include_directories(${_rq_common} BEFORE PUBLIC ${_rq_pinc})
    endif()
    if(_rq_pqueue)
      runqcheck_subject_header(${_rq_pqueue} _rq_qgen)
      get_property(_rq_qinc GLOBAL PROPERTY RUNQCHECK_SUBJECT_${_rq_pqueue}_INCLUDE_DIRS)
      target_include_directories(${_rq_common} BEFORE PUBLIC "${_rq_qgen}" ${_rq_qinc})
      target_compile_definitions(${_rq_common} PUBLIC RUNQCHECK_STRESS_OWN_QUEUE=1)
    endif()
    target_include_directories(${_rq_common} PUBLIC "${_rq_stress_dir}/include")
    target_link_libraries(${_rq_common} PUBLIC runqcheck::core Boost::context Threads::Threads)
    target_compile_features(${_rq_common} PUBLIC cxx_std_20)
    if(RUNQCHECK_HAVE_WNO_TSAN)
      target_compile_options(${_rq_common} PRIVATE -Wno-tsan)
    endif()
  endif()
  add_executable(${_rq_t} "${_rq_stress_dir}/src/proc.cpp")
  # proc.cpp on the subject's protocol (its generated header first)
  target_include_directories(${_rq_t} BEFORE PRIVATE ${_rq_pinc})
  target_compile_definitions(${_rq_t} PRIVATE RUNQCHECK_STRESS_PROTOCOL_SUBJECT=1)
  target_link_libraries(${_rq_t} PRIVATE ${_rq_common} runqcheck_stress_cli)
  if(RUNQCHECK_HAVE_WNO_TSAN)
    target_compile_options(${_rq_t} PRIVATE -Wno-tsan)
  endif()
  set_target_properties(${_rq_t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
endmacro()
get_property(_rq_psubs GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECTS)
foreach(_rq_ps IN LISTS _rq_psubs)
  set(_rq_t runqcheck_stress__${_rq_ps})
  if(TARGET ${_rq_t})
    continue()
  endif()
  get_property(_rq_pinc GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECT_${_rq_ps}_INCLUDE_DIRS)
  get_property(_rq_pqueue GLOBAL PROPERTY RUNQCHECK_PROTOCOL_SUBJECT_${_rq_ps}_QUEUE)
  _rq_stress_protocol_exe()
  set(_rq_small)
  if(RUNQCHECK_TEST_SCALE)
    set(_rq_small small)
  endif()
  add_test(NAME stress_protocol/${_rq_ps}
    COMMAND sh "${_rq_stress_dir}/protocol_column.sh" $<TARGET_FILE:${_rq_t}> ${_rq_small})
  set_tests_properties(stress_protocol/${_rq_ps} PROPERTIES LABELS "gate;stress;port" TIMEOUT 300
    SKIP_RETURN_CODE 77)  # no workload applied: the column did not apply
endforeach()
# The rest is the harness's own (not built by ci/gate --subject).
if(NOT "stress" IN_LIST RUNQCHECK_CHECKERS)
  return()
endif()

if(NOT TARGET runqcheck_stress_lib)
  _rq_stress_lib(runqcheck_stress_lib "")
  add_executable(runqcheck_stress "${_rq_stress_dir}/main.cpp")
  target_link_libraries(runqcheck_stress PRIVATE runqcheck_stress_lib)
  set_target_properties(runqcheck_stress
    PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  if("mutants" IN_LIST RUNQCHECK_CHECKERS AND RUNQCHECK_MUTANTS_INCLUDE)
    _rq_stress_lib(runqcheck_stress_mutant_lib ON)
    add_executable(runqcheck_stress_mutant "${_rq_stress_dir}/main.cpp")
    target_link_libraries(runqcheck_stress_mutant PRIVATE runqcheck_stress_mutant_lib)
    set_target_properties(runqcheck_stress_mutant
      PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  endif()
endif()

# Gate sizes: a few seconds at most per workload natively (2 cores), less
# under TSan (presets that set RUNQCHECK_TEST_SCALE get the small column).
# workload | native K | small K
set(_rq_stress_gate
  "CreateGoroutines|1000000|20000"
  "CreateGoroutinesParallel|1000000|20000"
  "CreateGoroutinesSingle|1000000|5000"
  "PingPongHog|500000|10000"
  "WakeupParallelSpinning|20000|1000"
  "WakeupParallelSyscall|2000|300"
  "Matmult|256|64"
  "ChanProdCons|1000000|20000"
  "skynet|1000000|5000"
  "GoroutineParallelism2|10|3"
  "chaos|20000|1000"
  "WakeupFromIdle|200|50"
  "SubmitVsSpinnerDrop|50|20")
set(_rq_stress_bin $<TARGET_FILE:runqcheck_stress>)
# The watchdog deadline in tests: a hang detector, generous on purpose.
set(_rq_stress_common --procs 4 --watchdog-ms 30000)
foreach(_rq_e IN LISTS _rq_stress_gate)
  string(REPLACE "|" ";" _rq_f "${_rq_e}")
  list(GET _rq_f 0 _rq_w)
  if(RUNQCHECK_TEST_SCALE)
    list(GET _rq_f 2 _rq_k)
  else()
    list(GET _rq_f 1 _rq_k)
  endif()
  add_test(NAME stress/${_rq_w} COMMAND ${_rq_stress_bin} --workload ${_rq_w} --size ${_rq_k}
    --rounds 2 ${_rq_stress_common})
  set_tests_properties(stress/${_rq_w} PROPERTIES LABELS "gate;stress;selftest" TIMEOUT 300)
  # nightly: minutes of each workload at full size
  add_test(NAME stress_deep/${_rq_w} COMMAND ${_rq_stress_bin} --workload ${_rq_w} --seconds 60
    ${_rq_stress_common})
  set_tests_properties(stress_deep/${_rq_w} PROPERTIES LABELS "nightly;stress" TIMEOUT 900)
endforeach()
if(RUNQCHECK_TEST_SCALE)
  set(_rq_chaos_k 1000)
else()
  set(_rq_chaos_k 10000)
endif()
# chaos: more seeds, and with sysmon's retake. Under TSan (each run ~10 s there) the
# extra seeds and two Ps are nightly: chaos and chaos_sysmon stay in its gate, and the
# native build runs every seed.
set(_rq_tsan_build FALSE)
string(TOUPPER "${CMAKE_BUILD_TYPE}" _rq_bt_up)
if("${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_rq_bt_up}}" MATCHES "-fsanitize=thread")
  set(_rq_tsan_build TRUE)
endif()
if(_rq_tsan_build)
  set(_rq_chaos_more_labels "nightly;stress;selftest")
else()
  set(_rq_chaos_more_labels "gate;stress;selftest")
endif()
foreach(_rq_seed 2 3 4 5 6)
  add_test(NAME stress/chaos_seed${_rq_seed} COMMAND ${_rq_stress_bin} --workload chaos
           --size ${_rq_chaos_k} --rounds 2 --seed ${_rq_seed} ${_rq_stress_common})
  set_tests_properties(stress/chaos_seed${_rq_seed} PROPERTIES
                       LABELS "${_rq_chaos_more_labels}" TIMEOUT 300)
endforeach()
add_test(NAME stress/chaos_sysmon COMMAND ${_rq_stress_bin} --workload chaos
         --size ${_rq_chaos_k} --rounds 2 --seed 7 --sysmon ${_rq_stress_common})
add_test(NAME stress/WakeupParallelSyscall_sysmon COMMAND ${_rq_stress_bin}
         --workload WakeupParallelSyscall --size 300 --rounds 2 --sysmon ${_rq_stress_common})
add_test(NAME stress/chaos_procs2 COMMAND ${_rq_stress_bin} --workload chaos
         --size ${_rq_chaos_k} --rounds 2 --seed 8 --procs 2 --watchdog-ms 30000)
set_tests_properties(stress/chaos_sysmon stress/WakeupParallelSyscall_sysmon
                     PROPERTIES LABELS "gate;stress;selftest" TIMEOUT 300)
set_tests_properties(stress/chaos_procs2 PROPERTIES LABELS "${_rq_chaos_more_labels}"
                     TIMEOUT 300)
# The command line: a bad flag and a missing bound are one-line errors, exit 2.
add_test(NAME stress/cli_bad_flag COMMAND sh -c
         "\"$0\" --workload chaos --rounds 1 --bogus; test $? -eq 2"
         ${_rq_stress_bin})
add_test(NAME stress/cli_unbounded COMMAND sh -c "\"$0\" --workload chaos; test $? -eq 2"
         ${_rq_stress_bin})
# WakeupFromIdle needs a second P; protocol_column.sh takes `small` or nothing.
add_test(NAME stress/cli_min_procs COMMAND sh -c
         "\"$0\" --workload WakeupFromIdle --procs 1 --rounds 1; test $? -eq 2" ${_rq_stress_bin})
add_test(NAME stress/cli_protocol_column_bad_size COMMAND sh -c
         "sh \"$0\" \"$1\" large; test $? -eq 2" "${_rq_stress_dir}/protocol_column.sh"
         ${_rq_stress_bin})
# No workload applied (every one `not applied`): exit 77, not a pass; one ran: 0.
add_test(NAME stress/cli_protocol_column_not_applied COMMAND sh -c
         "sh \"$0\" \"$1\"; test $? -eq 77 && sh \"$0\" /bin/true"
         "${_rq_stress_dir}/protocol_column.sh" "${_rq_stress_dir}/tests/not_applied.sh")
# The subcommand the main CLI adds (runqcheck::stress::add_command).
add_executable(runqcheck_stress_subcommand_test "${_rq_stress_dir}/tests/subcommand.cpp")
target_link_libraries(runqcheck_stress_subcommand_test PRIVATE runqcheck_stress_lib)
set_target_properties(runqcheck_stress_subcommand_test
  PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
add_test(NAME stress/cli_subcommand COMMAND runqcheck_stress_subcommand_test stress
         --workload chaos --procs 2 --size 200 --rounds 1)
add_test(NAME stress/cli_subcommand_bad_flag COMMAND sh -c
         "\"$0\" stress --workload nope --rounds 1; test $? -eq 2"
         $<TARGET_FILE:runqcheck_stress_subcommand_test>)
set_tests_properties(stress/cli_bad_flag stress/cli_unbounded stress/cli_subcommand
                     stress/cli_subcommand_bad_flag
                     stress/cli_min_procs stress/cli_protocol_column_bad_size
                     stress/cli_protocol_column_not_applied
                     PROPERTIES LABELS "gate;stress;selftest" TIMEOUT 60)
# The end-state checks' teeth (stress/teeth.sh), each protocol entering as a
# user's does (the generated protocol_under_test header): wren's searcher
# that gives up without its recheck (examples/wren_sched's
# wren_drop_no_recheck, which the column's other workloads pass in most
# runs) on SubmitVsSpinnerDrop, where the window is made: quiescent_others
# fails it every run, naming where the G waits; and wren keeping a
# searcher's count (stress/tests/wren_keeps_count.hpp) on a run that ends:
# judge_round_end fails it. Exit 1 and `reproduce:` with the full path; wren
# itself passes the first run.
set(_rq_wren "${RUNQCHECK_ROOT}/examples/wren_sched/include")
foreach(_rq_wv "wren|wren/sched.hpp|wren::sched"
               "wren_drop_no_recheck|wren/variants.hpp|wren::drop_no_recheck_bug"
               "wren_keeps_count|wren_keeps_count.hpp|stress_teeth::keeps_count_bug")
  string(REPLACE "|" ";" _rq_wv "${_rq_wv}")
  list(GET _rq_wv 0 _rq_wn)
  list(GET _rq_wv 1 _rq_wh)
  list(GET _rq_wv 2 _rq_wt)
  set(_rq_t runqcheck_stress_teeth__${_rq_wn})
  _runqcheck_protocol_header(stress_teeth__${_rq_wn} ${_rq_wh} ${_rq_wt}
    "${_rq_wren};${_rq_stress_dir}/tests" _rq_pinc)
  set(_rq_pqueue)  # go125's queues
  _rq_stress_protocol_exe()
endforeach()
set(_rq_drop --workload SubmitVsSpinnerDrop --procs 2 --rounds 1 --size 20 --watchdog-ms 30000)
add_test(NAME stress_teeth/wren_drop_no_recheck COMMAND sh "${_rq_stress_dir}/teeth.sh"
         "g[0-9]+ in P[0-9]+'s" $<TARGET_FILE:runqcheck_stress_teeth__wren_drop_no_recheck>
         ${_rq_drop})
add_test(NAME stress_teeth/wren_keeps_count COMMAND sh "${_rq_stress_dir}/teeth.sh"
         "counts a spinning M" $<TARGET_FILE:runqcheck_stress_teeth__wren_keeps_count>
         --workload CreateGoroutines --procs 2 --rounds 1 --size 1000 --watchdog-ms 30000)
add_test(NAME stress_teeth/wren COMMAND $<TARGET_FILE:runqcheck_stress_teeth__wren> ${_rq_drop})
set_tests_properties(stress_teeth/wren_drop_no_recheck stress_teeth/wren_keeps_count
                     stress_teeth/wren PROPERTIES LABELS "gate;stress;selftest" TIMEOUT 120)
# A lost M (the mutant idle_list_pop_drops_rest: parked, off the idle M list) held
# the shutdown's join forever (300 s, the kill matrix's timeout); the watchdog now
# fails the shutdown within its deadline (exit 3; a hang: this test's timeout).
if(TARGET runqcheck_stress_mutant)
  add_test(NAME stress_teeth/lost_m_shutdown COMMAND runqcheck_stress_mutant --watchdog-ms 2000
           --workload GoroutineParallelism2 --size 10 --procs 4 --rounds 1)
  set_tests_properties(stress_teeth/lost_m_shutdown PROPERTIES LABELS "gate;stress;selftest"
    TIMEOUT 60 ENVIRONMENT "RUNQCHECK_MUTANT=idle_list_pop_drops_rest"
    PASS_REGULAR_EXPRESSION "fatal error: watchdog: shutdown: .*a lost M")
endif()

# nightly: chaos over many seeds, each a minute, with and without sysmon.
foreach(_rq_seed RANGE 10 19)
  add_test(NAME stress_deep/chaos_seed${_rq_seed} COMMAND ${_rq_stress_bin} --workload chaos
           --seconds 60 --seed ${_rq_seed} ${_rq_stress_common})
  add_test(NAME stress_deep/chaos_sysmon_seed${_rq_seed} COMMAND ${_rq_stress_bin}
           --workload chaos --seconds 60 --seed ${_rq_seed} --sysmon ${_rq_stress_common})
  set_tests_properties(stress_deep/chaos_seed${_rq_seed} stress_deep/chaos_sysmon_seed${_rq_seed}
                       PROPERTIES LABELS "nightly;stress" TIMEOUT 900)
endforeach()

# Under TSan: a deliberate race between two Gs must be reported through the
# fibers (stress/tests/tsan_canary.cpp); exit 66 is TSan's (halt_on_error=1),
# followed by the reproducer (tsan_canary.sh).
if(_rq_tsan_build)
  add_executable(runqcheck_stress_tsan_canary "${_rq_stress_dir}/tests/tsan_canary.cpp")
  target_link_libraries(runqcheck_stress_tsan_canary PRIVATE runqcheck_stress_lib)
  set_target_properties(runqcheck_stress_tsan_canary
    PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  add_test(NAME stress/tsan_sees_races COMMAND sh "${_rq_stress_dir}/tests/tsan_canary.sh"
           $<TARGET_FILE:runqcheck_stress_tsan_canary>)
  set_tests_properties(stress/tsan_sees_races PROPERTIES LABELS "gate;stress;selftest" TIMEOUT 120
                       ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1")
endif()
