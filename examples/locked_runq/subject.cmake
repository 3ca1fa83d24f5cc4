# Registers the example subject with runqcheck: every checker now runs
# against example::locked_runq as well. Included by the top-level build
# (RUNQCHECK_WITH_EXAMPLES) and by this folder's standalone CMakeLists.txt.
runqcheck_add_subject(NAME locked_runq
  HEADER locked_runq/locked_runq.hpp
  TYPE example::locked_runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
