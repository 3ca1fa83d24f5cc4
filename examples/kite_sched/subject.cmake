# kite: a whole scheduler in its own style, as a user registers it: its
# queue (include/kite/runq.hpp) as a queue subject, its wakeup protocol
# (include/kite/sched.hpp, with its own lock) as a protocol subject around
# that queue (QUEUE):
#   ci/gate --subject examples/kite_sched/subject.cmake
runqcheck_add_subject(NAME kite_runq HEADER kite/runq.hpp TYPE kite::runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
# kite has no syscall paths and never changes GOMAXPROCS (WITHOUT: those
# checks are `declared absent`, and ci/gate --strict can pass it).
runqcheck_add_protocol_subject(NAME kite HEADER kite/sched.hpp TEMPLATE kite::sched
  QUEUE kite_runq INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include"
  WITHOUT syscalls procresize)
