# picture.cmake — relacy_picture/<subject>: on a subject that must fail (the
# user-written examples/weak_port, registered as porting.md section 5 says),
# the failing Relacy run prints `picture:`, the page and its .replay file
# exist, the replay fails again, `explain` redraws the same page, and the page
# renders in headless Chromium (fuzz/explain/check_dom.py; skipped, exit 77,
# without chromium). Registered only in a build that has such a subject.
if(NOT TARGET runqcheck_explain)
  return()
endif()
get_property(_rq_subjects GLOBAL PROPERTY RUNQCHECK_SUBJECTS)
foreach(s IN LISTS _rq_subjects)
  get_property(h GLOBAL PROPERTY RUNQCHECK_SUBJECT_${s}_HEADER)
  if(h STREQUAL "weak_port/weak_port.hpp" AND TARGET relacy_scenarios__${s})
    add_test(NAME relacy_picture/${s}
      COMMAND /usr/bin/python3 "${RUNQCHECK_ROOT}/tests/relacy/picture_test.py"
        $<TARGET_FILE:relacy_scenarios__${s}> "${CMAKE_BINARY_DIR}/picture_test/${s}"
        owner_vs_thief)
    set_tests_properties(relacy_picture/${s} PROPERTIES LABELS "gate;selftest" TIMEOUT 300
      SKIP_RETURN_CODE 77)
  endif()
endforeach()
