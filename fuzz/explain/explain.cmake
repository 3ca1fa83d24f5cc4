# explain.cmake — runqcheck_explain: the trace recorder and the swimlane page
# (fuzz/include/runqcheck_fuzz/{trace,page}.hpp and the page template
# fuzz/explain/swimlane.html as a string, explain_html.hpp). Used by the
# runqcheck command line (fuzz family) and by the Relacy scenario binaries,
# which draw their own counterexamples (RUNQCHECK_PICTURES).
include_guard(GLOBAL)

function(runqcheck_explain_target)
  if(TARGET runqcheck_explain)
    return()
  endif()
  set(gen "${CMAKE_BINARY_DIR}/runqcheck_explain_gen")
  file(READ "${RUNQCHECK_ROOT}/fuzz/explain/swimlane.html" html)
  # (file(WRITE), not CONFIGURE: the page's @…@ placeholder must survive.)
  file(WRITE "${gen}/explain_html.hpp.tmp"
"// Generated from fuzz/explain/swimlane.html. Do not edit.
#pragma once
inline const char* const runqcheck_explain_html = R\"RQHTML(${html})RQHTML\";
")
  file(COPY_FILE "${gen}/explain_html.hpp.tmp" "${gen}/explain_html.hpp" ONLY_IF_DIFFERENT)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    "${RUNQCHECK_ROOT}/fuzz/explain/swimlane.html")
  add_library(runqcheck_explain INTERFACE)
  target_include_directories(runqcheck_explain INTERFACE "${RUNQCHECK_ROOT}/fuzz/include" "${gen}")
  target_compile_definitions(runqcheck_explain INTERFACE RUNQCHECK_PICTURES=1)
endfunction()
