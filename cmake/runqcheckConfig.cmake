# find_package(runqcheck CONFIG) entry point, in the source tree
# (runqcheck_DIR=<repo>/cmake) and installed (<prefix>/share/runqcheck/cmake).
# Gives runqcheck::core, runqcheck_add_subject() and every checker of the
# project, so a user's subject is checked by the same tests as the bundled one.
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(GTest)
include("${CMAKE_CURRENT_LIST_DIR}/runqcheck.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/checkers.cmake")
