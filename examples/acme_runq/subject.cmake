# Registers acme::workq (a port in its own style) with runqcheck.
runqcheck_add_subject(NAME acme_workq
  HEADER acme/workq.hpp
  TYPE acme::workq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
