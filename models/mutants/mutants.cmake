# models/mutants/mutants.cmake — the subject `mutants`: every mutant of
# models/mutants compiled into one copy of the port (schemata.py), chosen at
# run time by RUNQCHECK_MUTANT (unset: the port itself). It is registered the
# way a user's port is: `ci/gate --subject models/mutants/mutants.cmake` builds
# and judges it with the checkers a user's port gets, and ci/mutants runs those
# binaries once per mutant.
#
# The self-test builds (CMakeLists.txt) set RUNQCHECK_MUTANTS_CHECKERS: then
# only those checkers are built for it, with no test of their own (the teeth
# tests of cmake/checkers.cmake run them with a mutant selected).
include_guard(GLOBAL)

set(_rq_mut_dir "${RUNQCHECK_ROOT}/models/mutants")
set(RUNQCHECK_MUTANTS_INCLUDE "${CMAKE_BINARY_DIR}/mutants/include" CACHE INTERNAL "")
file(GLOB _rq_mut_inputs CONFIGURE_DEPENDS "${_rq_mut_dir}/logic/*.patch"
  "${_rq_mut_dir}/protocol/*.patch" "${RUNQCHECK_ROOT}/core/include/runqcheck/*.hpp")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_rq_mut_inputs}
  "${_rq_mut_dir}/schemata.py")
if(NOT Python3_EXECUTABLE)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
endif()
execute_process(
  COMMAND "${Python3_EXECUTABLE}" "${_rq_mut_dir}/schemata.py"
    --core "${RUNQCHECK_ROOT}/core/include" --mutants "${_rq_mut_dir}"
    --out "${RUNQCHECK_MUTANTS_INCLUDE}"
  RESULT_VARIABLE _rq_mut_rc ERROR_VARIABLE _rq_mut_err)
if(NOT _rq_mut_rc EQUAL 0)
  message(FATAL_ERROR "mutant schemata: ${_rq_mut_err}")
endif()

if(DEFINED RUNQCHECK_MUTANTS_CHECKERS)
  # CORE: the schemata is the core port, so its internals tests (unit_core,
  # the kill matrix's harness-only column) are built for it too.
  runqcheck_add_subject(NAME mutants HEADER runqcheck/go125.hpp TYPE runqcheck::go125
    INCLUDE_DIRS "${RUNQCHECK_MUTANTS_INCLUDE}" CORE NO_TESTS
    CHECKERS ${RUNQCHECK_MUTANTS_CHECKERS})
else()
  runqcheck_add_subject(NAME mutants HEADER runqcheck/go125.hpp TYPE runqcheck::go125
    INCLUDE_DIRS "${RUNQCHECK_MUTANTS_INCLUDE}")
  # The wakeup protocol's copy in the schemata (models/mutants/protocol's
  # patches), a protocol subject: the kill matrix's protocol columns run its
  # relacy_protocol__mutants_protocol as a user's protocol is run.
  runqcheck_add_protocol_subject(NAME mutants_protocol HEADER runqcheck/protocol.hpp
    TEMPLATE runqcheck::protocol INCLUDE_DIRS "${RUNQCHECK_MUTANTS_INCLUDE}")
endif()

# runqcheck_mutants_gate_teeth(COLUMN PREFIX): ci/test's quick kill matrix leaves COLUMN
# (ci/checkers.json, "quick": false) to the self-tests PREFIX/<mutant>; each mutant
# expected.txt requires COLUMN to kill must have one here, or the configuration fails.
function(runqcheck_mutants_gate_teeth column prefix)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${RUNQCHECK_ROOT}/models/mutants/expected.txt")
  execute_process(COMMAND "${Python3_EXECUTABLE}" "${RUNQCHECK_ROOT}/ci/killmatrix.py"
      --required ${column} "${RUNQCHECK_ROOT}/models/mutants/expected.txt"
    OUTPUT_VARIABLE mutants OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ci/killmatrix.py --required ${column}: exit ${rc}")
  endif()
  separate_arguments(mutants)
  foreach(mutant IN LISTS mutants)
    if(NOT TEST ${prefix}/${mutant})
      message(FATAL_ERROR "models/mutants/expected.txt requires ${column} to kill ${mutant}; "
        "the quick kill matrix leaves that to the self-test ${prefix}/${mutant}, not declared")
    endif()
  endforeach()
endfunction()
