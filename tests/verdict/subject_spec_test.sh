#!/bin/sh
# cmake/subject_spec.cmake reads the subjects a .cmake spec registers: NAMEs made by a
# foreach are computed (not read as the literal text before `${`), and a computed NAME
# in a file that does not run alone is one error, not a subject named by its prefix.
# Usage: subject_spec_test.sh <runqcheck source> <work dir> <cmake>
src=${1:?usage: subject_spec_test.sh SRC WORK CMAKE}
work=${2:?usage: subject_spec_test.sh SRC WORK CMAKE}
cmake=${3:?usage: subject_spec_test.sh SRC WORK CMAKE}
rm -rf "$work" && mkdir -p "$work" || exit 1
status=0
# expect FILE WANT: the parser's output for spec FILE is WANT (a prefix of its line).
expect() {
  out=$("$cmake" -DSPECS="$work/$1" -DBASE="$work" -P "$src/cmake/subject_spec.cmake" 2>&1)
  case "$out" in
    "$2"*) echo "ok   $1: $out" | cut -c1-150;;
    *) echo "FAIL $1: got '$out', want '$2...'"; status=1;;
  esac
}
printf '%s\n' 'foreach(v a b)' \
  '  runqcheck_add_subject(NAME loop_${v} HEADER x.hpp TYPE x::y' \
  '    INCLUDE_DIRS "${CMAKE_CURRENT_LIST_DIR}")' 'endforeach()' \
  'runqcheck_add_protocol_subject(NAME proto HEADER x.hpp TEMPLATE x::z QUEUE loop_a)' \
  >"$work/loop.cmake"
expect loop.cmake "subject loop_a,loop_b,proto $work/loop.cmake"
printf '%s\n' 'find_package(runqcheck CONFIG REQUIRED)' \
  'runqcheck_add_subject(NAME lit HEADER x.hpp TYPE x::y INCLUDE_DIRS .)' >"$work/lit.cmake"
expect lit.cmake "subject lit $work/lit.cmake"
printf '%s\n' 'find_package(runqcheck CONFIG REQUIRED)' 'set(v a)' \
  'runqcheck_add_subject(NAME c_${v} HEADER x.hpp TYPE x::y INCLUDE_DIRS .)' >"$work/comp.cmake"
expect comp.cmake "error: --subject: '$work/comp.cmake': NAME c_\${v} is computed"
exit "$status"
