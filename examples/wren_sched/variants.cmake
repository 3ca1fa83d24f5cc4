# wren's bugs (include/wren/variants.hpp): each must be rejected by
# relacy_protocol with a replay line (ci/test).
runqcheck_add_protocol_subject(NAME wren_lost_wakeup HEADER wren/variants.hpp
  TEMPLATE wren::lost_wakeup_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_protocol_subject(NAME wren_drop_no_recheck HEADER wren/variants.hpp
  TEMPLATE wren::drop_no_recheck_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_protocol_subject(NAME wren_no_storeload HEADER wren/variants.hpp
  TEMPLATE wren::no_storeload_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
runqcheck_add_protocol_subject(NAME wren_handoff_parks HEADER wren/variants.hpp
  TEMPLATE wren::handoff_parks_bug INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
