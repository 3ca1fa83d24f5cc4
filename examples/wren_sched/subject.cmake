# wren: a wakeup protocol in its own style (include/wren/sched.hpp), checked
# by relacy_protocol around the bundled go125 queues:
#   ci/gate --subject examples/wren_sched/subject.cmake --presets relacy
# It has no syscall paths and never changes GOMAXPROCS: WITHOUT says so, and
# the checks of those paths are `declared absent`, not `not applied`.
runqcheck_add_protocol_subject(NAME wren HEADER wren/sched.hpp TEMPLATE wren::sched
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include" WITHOUT syscalls procresize)
