# Registers packed::runq (a tokio-style port: the head packs two counters in
# one 64-bit word) with runqcheck.
runqcheck_add_subject(NAME packed_runq
  HEADER packed_runq/runq.hpp
  TYPE packed::runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
