# subject_spec.cmake — the one parser of a subject spec (ci/gate --subject,
# RUNQCHECK_EXTRA_SUBJECTS): a .cmake file calling runqcheck_add_subject() or
# runqcheck_add_protocol_subject(), or
# NAME|HEADER|TYPE|INCLUDE_DIR. Included by CMakeLists.txt; run by ci/gate as
#   cmake -DSPECS=<spec;...> -DBASE=<dir> -P cmake/subject_spec.cmake
# which prints, per spec, "subject <names,...> <spec with absolute paths>",
# or one "error: <why>" line.
include_guard(GLOBAL)
set(_rq_subject_spec_file "${CMAKE_CURRENT_LIST_FILE}")

# runqcheck_subject_spec(<spec> <base> <names_var> <spec_var> <error_var>):
# <names_var> the subjects it registers, <spec_var> the spec with paths made
# absolute (relative ones are taken from <base>), <error_var> why it is bad.
function(runqcheck_subject_spec spec base names_var spec_var error_var)
  set(err "")
  set(names "")
  set(out "")
  if(spec MATCHES "\\.cmake$")
    get_filename_component(out "${spec}" ABSOLUTE BASE_DIR "${base}")
    if(NOT EXISTS "${out}")
      set(err "--subject: file '${spec}' not found")
    else()
      # The names the file registers: the file run on its own with both calls stubbed
      # (a foreach or a variable makes a NAME that no regex reads), else, where it
      # cannot run alone (it needs a project), the literal NAMEs after each call.
      execute_process(COMMAND "${CMAKE_COMMAND}" "-DRQ_SPEC_PROBE=${out}"
        -P "${_rq_subject_spec_file}"
        RESULT_VARIABLE probe_rc OUTPUT_VARIABLE probe_out ERROR_VARIABLE probe_err)
      if(probe_rc EQUAL 0 AND probe_err MATCHES "(^|\n)rq-name ")
        string(REGEX MATCHALL "rq-name [^\n]*" calls "${probe_err}")
        foreach(c IN LISTS calls)
          string(REGEX REPLACE "^rq-name " "" n "${c}")
          if(NOT n MATCHES "^[A-Za-z0-9_.-]+$")
            set(err "--subject: '${spec}': bad NAME '${n}' (letters, digits, _ . - only)")
          endif()
          list(APPEND names ${n})
        endforeach()
      else()
        file(READ "${out}" text)
        # (runqcheck_add_protocol_subject too: a wakeup protocol.)
        string(REGEX MATCHALL
          "runqcheck_add_(protocol_)?subject\\([ \t\r\n]*NAME[ \t\r\n]+[A-Za-z0-9_.{}$-]+"
          calls "${text}")
        foreach(c IN LISTS calls)
          string(REGEX REPLACE ".*[ \t\r\n]" "" n "${c}")
          if(n MATCHES "[$]")
            set(err "--subject: '${spec}': NAME ${n} is computed and the file does not run \
alone (cmake -P) to compute it: write each NAME literally")
          endif()
          list(APPEND names ${n})
        endforeach()
      endif()
      list(REMOVE_DUPLICATES names)
      if(NOT names)
        set(err "--subject: '${spec}' calls no runqcheck_add_[protocol_]subject(NAME ...)")
      endif()
    endif()
  else()
    string(REPLACE "|" ";" f "${spec}")
    list(LENGTH f n)
    if(NOT n EQUAL 4 OR spec MATCHES "\\|$")
      set(err "--subject: '${spec}' is not NAME|HEADER|TYPE|INCLUDE_DIR (or a .cmake file)")
    else()
      list(GET f 0 name)
      list(GET f 1 header)
      list(GET f 2 type)
      list(GET f 3 dir)
      get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${base}")
      if(NOT name MATCHES "^[A-Za-z0-9_.-]+$")
        set(err "--subject: bad NAME '${name}' (letters, digits, _ . - only)")
      elseif(NOT IS_DIRECTORY "${dir}")
        set(err "--subject ${name}: INCLUDE_DIR '${dir}' not found")
      elseif(NOT EXISTS "${dir}/${header}")
        set(err "--subject ${name}: HEADER '${header}' not found in '${dir}'")
      elseif(NOT type MATCHES "^[A-Za-z_][A-Za-z0-9_:]*$")
        set(err "--subject ${name}: bad TYPE '${type}'")
      endif()
      set(names ${name})
      set(out "${name}|${header}|${type}|${dir}")
    endif()
  endif()
  set(${names_var} "${names}" PARENT_SCOPE)
  set(${spec_var} "${out}" PARENT_SCOPE)
  set(${error_var} "${err}" PARENT_SCOPE)
endfunction()

# runqcheck_add_subject_spec(<spec>): registers what the spec names.
macro(runqcheck_add_subject_spec spec)
  runqcheck_subject_spec("${spec}" "${CMAKE_CURRENT_SOURCE_DIR}" _rq_sn _rq_ss _rq_se)
  if(_rq_se)
    message(FATAL_ERROR "RUNQCHECK_EXTRA_SUBJECTS: ${_rq_se}")
  elseif(_rq_ss MATCHES "\\.cmake$")
    include("${_rq_ss}")
  else()
    string(REPLACE "|" ";" _rq_sf "${_rq_ss}")
    list(GET _rq_sf 0 _rq_sname)
    list(GET _rq_sf 1 _rq_sheader)
    list(GET _rq_sf 2 _rq_stype)
    list(GET _rq_sf 3 _rq_sinc)
    runqcheck_add_subject(NAME ${_rq_sname} HEADER ${_rq_sheader} TYPE ${_rq_stype}
      INCLUDE_DIRS ${_rq_sinc})
  endif()
endmacro()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE AND DEFINED RQ_SPEC_PROBE)
  # Probe mode (runqcheck_subject_spec): the file run with the calls stubbed, each
  # NAME printed on stderr as `rq-name <NAME>`.
  function(runqcheck_add_subject)
    cmake_parse_arguments(A "" "NAME" "" ${ARGN})
    message(NOTICE "rq-name ${A_NAME}")
  endfunction()
  function(runqcheck_add_protocol_subject)
    cmake_parse_arguments(A "" "NAME" "" ${ARGN})
    message(NOTICE "rq-name ${A_NAME}")
  endfunction()
  include("${RQ_SPEC_PROBE}")
elseif(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  foreach(spec IN LISTS SPECS)
    runqcheck_subject_spec("${spec}" "${BASE}" names out err)
    if(err)
      message(NOTICE "error: ${err}")
      return()
    endif()
    list(JOIN names "," names)
    message(NOTICE "subject ${names} ${out}")
  endforeach()
endif()
