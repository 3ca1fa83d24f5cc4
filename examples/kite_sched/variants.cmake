# kite's bugs (include/kite/variants.hpp): its own lock left out of one
# section; the protocol columns must reject it (ci/test). After subject.cmake.
runqcheck_add_protocol_subject(NAME kite_release_unlocked HEADER kite/variants.hpp
  TEMPLATE kite::release_unlocked_bug QUEUE kite_runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
# A bug in kite's queue: kite's correct protocol around it must fail the
# protocol columns (they run around the QUEUE named, not go125).
runqcheck_add_subject(NAME kite_runq_empty_unlocked HEADER kite/variants.hpp
  TYPE kite::empty_unlocked_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_protocol_subject(NAME kite_on_empty_unlocked HEADER kite/sched.hpp
  TEMPLATE kite::sched QUEUE kite_runq_empty_unlocked
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
# A steal that leaves the stolen Gs in the victim's ring: kite around it
# must fail the exhaustive and the stress protocol columns (a G runs twice).
runqcheck_add_subject(NAME kite_runq_steal_keeps HEADER kite/variants.hpp
  TYPE kite::steal_keeps_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_protocol_subject(NAME kite_on_steal_keeps HEADER kite/sched.hpp
  TEMPLATE kite::sched QUEUE kite_runq_steal_keeps
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
