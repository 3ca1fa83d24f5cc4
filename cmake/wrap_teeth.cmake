# wrap_teeth.cmake — the wrap without hooks (issue 41): a scenario checker
# (SOURCE: tests/explore/scenarios.cpp or tests/relacy/scenarios.cpp, on
# LIB's backend) built on each of examples/acme_runq's hook-less ports,
# like a subject but registered nowhere else (as stall_teeth/narrow_index),
# and the test <PREFIX>/acme_<port>: tests/explore/wrap_teeth.sh runs
# wrap_2_32 (ENV: its arguments) with the counters found by behaviour
# (models/scenarios/counters.hpp) and wants it to pass or fail (PORTS:
# <port>:pass|fail), never "not applied". Label selftest.
include_guard(GLOBAL)
function(runqcheck_wrap_teeth)
  cmake_parse_arguments(A "" "PREFIX;SOURCE;LIB;LABEL;ENV" "PORTS" ${ARGN})
  set(inc "${RUNQCHECK_ROOT}/examples/acme_runq/include")
  if(RUNQCHECK_PORT_ONLY OR CMAKE_CROSSCOMPILING OR NOT EXISTS "${inc}/acme/variants.hpp")
    return()
  endif()
  foreach(pw IN LISTS A_PORTS)
    string(REPLACE ":" ";" pw "${pw}")
    list(GET pw 0 w)
    list(GET pw 1 want)
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_acme_${w}_HEADER acme/variants.hpp)
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_acme_${w}_TYPE acme::${w})
    runqcheck_subject_header(acme_${w} gen)
    set(t ${A_PREFIX}__acme_${w})
    add_executable(${t} "${A_SOURCE}")
    target_include_directories(${t} BEFORE PRIVATE "${gen}" "${inc}")
    target_link_libraries(${t} PRIVATE runqcheck::core ${A_LIB} runqcheck_models)
    set_target_properties(${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
    add_test(NAME ${A_PREFIX}/acme_${w} COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/wrap_teeth.sh"
      $<TARGET_FILE:${t}> ${want} wrap_2_32)
    set_tests_properties(${A_PREFIX}/acme_${w} PROPERTIES
      LABELS "gate;${A_LABEL};selftest" TIMEOUT 300 ENVIRONMENT "${A_ENV}")
  endforeach()
endfunction()
