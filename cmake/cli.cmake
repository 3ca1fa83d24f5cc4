# cmake/cli.cmake — the command line (bin/runqcheck: replay, explain, corpus, pct, gate)
# and its tests, included by cmake/fuzz.cmake where RUNQCHECK_CLI is on (not in the fuzz
# preset: the command line's own code is tested in native; its replay machinery is the
# fuzz targets', which the fuzz preset runs under ASan). Uses fuzz.cmake's corpus paths.

find_package(CLI11 CONFIG REQUIRED)

# The command line. Its go125 is the mutant schemata (RUNQCHECK_MUTANT unset:
# the port itself) so that seeds found on a mutant replay too.
add_executable(runqcheck "${RUNQCHECK_ROOT}/cli/runqcheck.cpp")
target_link_libraries(runqcheck PRIVATE runqcheck_fuzz_common CLI11::CLI11)
if(RUNQCHECK_MUTANTS_INCLUDE)
  target_include_directories(runqcheck BEFORE PRIVATE "${RUNQCHECK_MUTANTS_INCLUDE}")
endif()
set_target_properties(runqcheck PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
if(TARGET runqcheck_stress_lib)
  target_link_libraries(runqcheck PRIVATE runqcheck_stress_lib)
  target_compile_definitions(runqcheck PRIVATE RUNQCHECK_WITH_STRESS=1)
endif()

# Tests of the command line (any compiler). Gate: the seed corpus and every
# regression seed on the faithful port (all must pass); each regression on
# the mutant it was found on (must fail); one crash seed replayed 100 times
# with byte-identical traces; bad input exits 2 with one line; explain's page
# checked in headless Chromium (skipped, exit 77, without it); PCT passes on
# the port and finds a memory-order mutant.
set(_rq_py /usr/bin/python3)
add_test(NAME fuzz_corpus_replay
  COMMAND runqcheck corpus "${_rq_il_corpus}" "${_rq_il_regress}" "${_rq_il_pass}" --expect pass)
file(GLOB _rq_il_files CONFIGURE_DEPENDS "${_rq_il_regress}/*.rqf")
foreach(f IN LISTS _rq_il_files)
  get_filename_component(m "${f}" NAME_WLE)
  string(REGEX REPLACE "^order[.]" "order:" mname "${m}")
  add_test(NAME fuzz_regress/${mname} COMMAND runqcheck corpus "${f}" --expect fail)
  set_tests_properties(fuzz_regress/${mname} PROPERTIES ENVIRONMENT "RUNQCHECK_MUTANT=${mname}")
endforeach()
# The scenario executor's FIFO invariant has teeth: this mutant breaks only
# the owner's order, and the seed must fail with that invariant's message.
set_tests_properties(fuzz_regress/runqget_second_first PROPERTIES
  PASS_REGULAR_EXPRESSION "invariant: owner's runqget out of FIFO order")
set(_rq_det_seed "${_rq_il_regress}/order.runqput_tail_store.rqf")
add_test(NAME fuzz_replay_determinism
  COMMAND "${_rq_py}" "${RUNQCHECK_ROOT}/fuzz/tests/replay_determinism.py" $<TARGET_FILE:runqcheck>
    "${_rq_det_seed}" 100 1
    order:runqput_tail_store)
add_test(NAME fuzz_bad_input
  COMMAND "${_rq_py}" "${RUNQCHECK_ROOT}/fuzz/tests/bad_input.py" $<TARGET_FILE:runqcheck>
    "${CMAKE_BINARY_DIR}/bad_input"
    "${_rq_il_corpus}/seed-owner_vs_thief.rqf")
# The installed command (CMakeLists.txt's install rules, docs/porting.md
# section 7): this build installed into a prefix, whose bin/runqcheck runs the
# command-line binary it installed in libexec (a seed that must pass); --help
# is for users; no subcommand, or an unknown one: one line, exit 2.
set(_rq_pfx "${CMAKE_BINARY_DIR}/install_test")
add_test(NAME install_command COMMAND sh -c "rm -rf '${_rq_pfx}' \
  && '${CMAKE_COMMAND}' --install '${CMAKE_BINARY_DIR}' --prefix '${_rq_pfx}' >/dev/null \
  && '${_rq_pfx}/bin/runqcheck' --version \
  && '${_rq_pfx}/bin/runqcheck' --help | grep -q '^usage: runqcheck gate --subject' \
  && '${_rq_pfx}/bin/runqcheck' corpus '${_rq_il_corpus}/seed-owner_vs_thief.rqf' --expect pass \
  && { '${_rq_pfx}/bin/runqcheck'; [ $? = 2 ]; } \
  && { '${_rq_pfx}/bin/runqcheck' frob 2>&1 | grep -q \"unknown subcommand 'frob'\"; } \
  && { '${_rq_pfx}/bin/runqcheck' frob 2>/dev/null; [ $? = 2 ]; }")
set_tests_properties(install_command PROPERTIES LABELS "gate;selftest" TIMEOUT 120)
# The seed encoder: every expressible catalog scenario round-trips through
# the parser; the checked-in fuzz_interleave corpus is exactly what
# `runqcheck corpus --from-catalog` writes (regenerate it with that command).
add_executable(fuzz_encode_roundtrip "${RUNQCHECK_ROOT}/fuzz/tests/encode_roundtrip.cpp")
target_include_directories(fuzz_encode_roundtrip PRIVATE "${RUNQCHECK_ROOT}/fuzz/include"
  "${RUNQCHECK_ROOT}/models/scenarios")
target_compile_options(fuzz_encode_roundtrip PRIVATE -Wno-missing-field-initializers)
add_test(NAME fuzz_encode_roundtrip COMMAND fuzz_encode_roundtrip)
# Which access a data race's cause names (runqcheck_fuzz/hand_over.hpp, the
# rule both recorders share), on recordings written by hand.
if(TARGET GTest::gtest_main)
  # (with conservation.hpp's: where a G lost or delivered twice went)
  add_executable(fuzz_hand_over_rules "${RUNQCHECK_ROOT}/fuzz/tests/hand_over_rules.cpp"
    "${RUNQCHECK_ROOT}/fuzz/tests/conservation_rules.cpp")
  target_include_directories(fuzz_hand_over_rules PRIVATE "${RUNQCHECK_ROOT}/fuzz/include")
  target_link_libraries(fuzz_hand_over_rules PRIVATE GTest::gtest_main)
  target_compile_options(fuzz_hand_over_rules PRIVATE -Wno-missing-field-initializers)
  add_test(NAME fuzz_hand_over_rules COMMAND fuzz_hand_over_rules --gtest_brief=1)
  set_tests_properties(fuzz_hand_over_rules PROPERTIES LABELS "gate;fuzz;selftest" TIMEOUT 60)
endif()
set(_rq_cat "${CMAKE_BINARY_DIR}/corpus_from_catalog")
add_test(NAME fuzz_corpus_from_catalog
  COMMAND sh -c "rm -rf \"$1\" && \"$0\" corpus --from-catalog \"$1\" && diff -r \"$1\" \"$2\""
    $<TARGET_FILE:runqcheck> "${_rq_cat}" "${_rq_il_corpus}")
set_tests_properties(fuzz_encode_roundtrip fuzz_corpus_from_catalog PROPERTIES
  LABELS "gate;fuzz;selftest" TIMEOUT 60)
# A Relacy failure's .replay file (tests/relacy/picture.hpp) through replay
# and explain, with a stand-in scenario binary; bad files exit 2, one line.
add_test(NAME fuzz_replay_file
  COMMAND "${_rq_py}" "${RUNQCHECK_ROOT}/fuzz/explain/replay_file_test.py" $<TARGET_FILE:runqcheck>
    "${CMAKE_BINARY_DIR}/replay_file_test")
string(CONCAT _rq_sh
  "command -v chromium >/dev/null || { echo 'chromium not installed: skipped'; exit 77; }; "
  "RUNQCHECK_MUTANT=order:runqput_tail_store \"$0\" explain '${_rq_det_seed}' "
  "--html '${CMAKE_BINARY_DIR}/explain/lost-g.html' "
  "--json '${CMAKE_BINARY_DIR}/explain/lost-g.json' && "
  "'${_rq_py}' '${RUNQCHECK_ROOT}/fuzz/explain/check_dom.py' "
  "'${CMAKE_BINARY_DIR}/explain/lost-g.json' '${CMAKE_BINARY_DIR}/explain/lost-g.html'")
add_test(NAME fuzz_explain_dom
  COMMAND sh -c "${_rq_sh}"
    $<TARGET_FILE:runqcheck>)
set_tests_properties(fuzz_explain_dom PROPERTIES SKIP_RETURN_CODE 77)
add_test(NAME fuzz_pct COMMAND runqcheck pct "${_rq_il_corpus}/seed-owner_vs_two_thieves.rqf"
  --runs 20000 --depth 3 --out "${CMAKE_BINARY_DIR}/pct")
add_test(NAME fuzz_pct_finds_mutant COMMAND runqcheck pct "${_rq_il_corpus}/seed-torn_read.rqf"
  --runs 2000 --out "${CMAKE_BINARY_DIR}/pct-mutant")
set_tests_properties(fuzz_pct_finds_mutant PROPERTIES WILL_FAIL TRUE
  ENVIRONMENT "RUNQCHECK_MUTANT=order:runqput_tail_store")
set_tests_properties(fuzz_corpus_replay fuzz_replay_determinism fuzz_bad_input fuzz_replay_file
  fuzz_explain_dom fuzz_pct fuzz_pct_finds_mutant PROPERTIES LABELS "gate;fuzz;selftest"
  TIMEOUT 300)
foreach(f IN LISTS _rq_il_files)
  get_filename_component(m "${f}" NAME_WLE)
  string(REGEX REPLACE "^order[.]" "order:" mname "${m}")
  set_tests_properties(fuzz_regress/${mname} PROPERTIES LABELS "gate;fuzz;mutant;selftest"
    TIMEOUT 60)
endforeach()
add_test(NAME fuzz_pct_deep COMMAND runqcheck pct "${_rq_il_corpus}/seed-owner_vs_two_thieves.rqf"
  --runs 2000000 --depth 3 --out "${CMAKE_BINARY_DIR}/pct")
set_tests_properties(fuzz_pct_deep PROPERTIES LABELS "nightly;fuzz" TIMEOUT 7200)
