# kite's bug (include/kite/variants.hpp): its own lock left out of one
# section; the protocol columns must reject it (ci/test). After subject.cmake.
runqcheck_add_protocol_subject(NAME kite_release_unlocked HEADER kite/variants.hpp
  TEMPLATE kite::release_unlocked_bug QUEUE kite_runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
