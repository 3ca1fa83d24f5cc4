#!/bin/sh
# tests/c11/libc_port_test.cpp compiled (C++20) and run with each compiler given: a C
# port's own #include of C's library headers and its assert() (docs/porting.md, section 8).
# usage: check_libc.sh CORE_INCLUDE SCRATCH_DIR CXX...
set -u
[ $# -ge 3 ] || { echo "usage: check_libc.sh CORE_INCLUDE SCRATCH_DIR CXX..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) inc=$1 out=$2
shift 2
mkdir -p "$out" || exit 2
cc=${CC:-cc}
if command -v "$cc" >/dev/null 2>&1; then  # the header is C11
  c="$cc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c $here/libc_port.h"
  $c || { echo "FAILED: libc_port.h is not C11; reproduce: $c"; exit 1; }
fi
for cxx in "$@"; do
  command -v "$cxx" >/dev/null 2>&1 || { echo "skipped: $cxx not found"; continue; }
  exe="$out/libc_port_$(basename "$cxx")"
  cmd="$cxx -std=c++20 -I$inc -I$here $here/libc_port_test.cpp -o $exe -pthread"
  $cmd || { echo "FAILED: does not compile with $cxx; reproduce: $cmd"; exit 1; }
  "$exe" || { echo "FAILED: $cxx; reproduce: $exe"; exit 1; }
done
