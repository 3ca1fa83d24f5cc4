# Registers lwq (a run queue written in plain C11, examples/lwq_c/include/lwq/runq.h)
# through its C++ adapter lwq/subject.hpp.
runqcheck_add_subject(NAME lwq_c
  HEADER lwq/subject.hpp
  TYPE lwq_c::runq
  INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}/include")
