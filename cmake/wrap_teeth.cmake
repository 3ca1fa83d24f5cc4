# wrap_teeth.cmake — the wrap without hooks (issue 41): a scenario checker
# (SOURCE: tests/explore/scenarios.cpp or tests/relacy/scenarios.cpp, on
# LIB's backend) built on each of an example's hook-less ports (EXAMPLE,
# HEADER, NS; default examples/acme_runq's acme/variants.hpp, acme::),
# like a subject but registered nowhere else (as stall_teeth/narrow_index),
# and the test <PREFIX>/<TAG>_<port> (TAG default acme):
# tests/explore/wrap_teeth.sh runs wrap_2_32 (ENV: its arguments) with the
# counters found by behaviour (models/scenarios/counters.hpp) and wants it
# to pass or fail (PORTS: <port>:pass|fail), never "not applied". Label selftest; built
# at -O0 (runqcheck_small_search).
include_guard(GLOBAL)
function(runqcheck_wrap_teeth)
  cmake_parse_arguments(A "" "PREFIX;SOURCE;LIB;LABEL;ENV;EXAMPLE;HEADER;NS;TAG" "PORTS" ${ARGN})
  foreach(k IN ITEMS EXAMPLE:acme_runq HEADER:acme/variants.hpp NS:acme TAG:acme)
    string(REPLACE ":" ";" k "${k}")
    list(GET k 0 key)
    list(GET k 1 def)
    if(NOT A_${key})
      set(A_${key} ${def})
    endif()
  endforeach()
  set(inc "${RUNQCHECK_ROOT}/examples/${A_EXAMPLE}/include")
  if(RUNQCHECK_PORT_ONLY OR CMAKE_CROSSCOMPILING OR NOT EXISTS "${inc}/${A_HEADER}")
    return()
  endif()
  foreach(pw IN LISTS A_PORTS)
    string(REPLACE ":" ";" pw "${pw}")
    list(GET pw 0 w)
    list(GET pw 1 want)
    set(n ${A_TAG}_${w})
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${n}_HEADER ${A_HEADER})
    set_property(GLOBAL PROPERTY RUNQCHECK_SUBJECT_${n}_TYPE ${A_NS}::${w})
    runqcheck_subject_header(${n} gen)
    set(t ${A_PREFIX}__${n})
    add_executable(${t} "${A_SOURCE}")
    target_include_directories(${t} BEFORE PRIVATE "${gen}" "${inc}")
    target_link_libraries(${t} PRIVATE runqcheck::core ${A_LIB} runqcheck_models)
    set_target_properties(${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
    runqcheck_small_search(${t})
    add_test(NAME ${A_PREFIX}/${n} COMMAND sh "${RUNQCHECK_ROOT}/tests/explore/wrap_teeth.sh"
      $<TARGET_FILE:${t}> ${want} wrap_2_32)
    set_tests_properties(${A_PREFIX}/${n} PROPERTIES
      LABELS "gate;${A_LABEL};selftest" TIMEOUT 300 ENVIRONMENT "${A_ENV}")
  endforeach()
endfunction()
