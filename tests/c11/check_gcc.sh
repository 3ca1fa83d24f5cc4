#!/bin/sh
# A C port in GCC's builtin style (gcc_port.h) under runqcheck (docs/porting.md, section 8):
#  1. the header is C11 (cc -std=c11 -pedantic), and gcc_port_main.c, built by the C
#     compiler with GCC's own builtins, prints each builtin's result;
#  2. gcc_builtins_test, the header compiled under runqcheck/c11.hpp, prints the same;
#  3. its message passing explored: no failure with release/acquire, a data race at the
#     port's line with either order relaxed (the orders reach the seam); two threads'
#     fetch_or on one word: both bits set, the RMWs ordered;
#  4. a builtin on an unmarked field, on a RUNQCHECK_PLAIN one, and an unmapped builtin do
#     not compile, each with a message that names the edit; pthread_mutex_destroy as a
#     statement compiles without a warning.
# usage: check_gcc.sh TEST_BINARY CORE_INCLUDE SCRATCH_DIR CXX
set -u
[ $# -eq 4 ] || { echo "usage: check_gcc.sh TEST_BINARY CORE_INCLUDE SCRATCH_DIR CXX" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) bin=$1 inc=$2 out=$3 cxx=$4
mkdir -p "$out" || exit 2
cc=${CC:-cc}
status=0
c="$cc -std=c11 -Wall -Wextra -pedantic -Werror -I$here $here/gcc_port_main.c -o $out/gcc_port_c"
$c || { echo "FAILED: gcc_port.h is not C11; reproduce: $c"; exit 1; }
want=$("$out/gcc_port_c") got=$("$bin" values)
if [ "$want" = "$got" ]; then echo "ok   every builtin's result as the C compiler's: $got"
else echo "FAILED: builtins under runqcheck gave '$got', the C compiler '$want'"; status=1; fi
"$bin" explore || { echo "FAILED: reproduce: $bin explore"; status=1; }
# probe NAME FIELD EXPR WANT: a port whose FIELD is declared as given and that calls EXPR
# must not compile, with WANT in the compiler's message.
probe() {
  f="$out/probe_$1.cpp"
  cat >"$f" <<PROBE
#include <runqcheck/c11.hpp>
#include <runqcheck/backend/native.hpp>
template <class B> struct port {
  RUNQCHECK_C11_PORT(B)
#include <runqcheck/c11/on.h>
  struct box { $2 n; };
  static unsigned get(struct box *b) { return $3; }
#include <runqcheck/c11/off.h>
};
using S = port<runqcheck::native>;
int main() { S::box b; return static_cast<int>(S::get(&b)); }
PROBE
  if "$cxx" -std=c++20 -I"$inc" -fsyntax-only "$f" >"$f.log" 2>&1; then
    echo "FAILED: probe $1 compiled; reproduce: $cxx -std=c++20 -I$inc -fsyntax-only $f"
    status=1
  elif grep -q "$4" "$f.log"; then echo "ok   probe $1: does not compile: ...$4..."
  else echo "FAILED: probe $1: no '$4' in $f.log"; status=1; fi
}
probe unmarked 'unsigned' '__atomic_load_n(&b->n, __ATOMIC_ACQUIRE)' \
  'declare it RUNQCHECK_ATOMIC(T) or _Atomic(T)'
probe plain_marked 'RUNQCHECK_PLAIN(unsigned)' '__atomic_load_n(&b->n, __ATOMIC_ACQUIRE)' \
  'marked RUNQCHECK_PLAIN(T): mark it RUNQCHECK_ATOMIC(T)'
probe fetch_nand 'RUNQCHECK_ATOMIC(unsigned)' \
  '__atomic_fetch_nand(&b->n, 1u, __ATOMIC_RELAXED)' 'this GCC builtin is not mapped'
# A POSIX mutex destroyed as a statement: no warning (-Werror).
f="$out/probe_mutex_destroy.cpp"
cat >"$f" <<PROBE
#include <runqcheck/c11.hpp>
#include <runqcheck/backend/native.hpp>
template <class B> struct port {
  RUNQCHECK_C11_PORT(B)
#include <runqcheck/c11/on.h>
  struct box { pthread_mutex_t mu; };
  static void done(struct box *b) { pthread_mutex_destroy(&b->mu); }
#include <runqcheck/c11/off.h>
};
int main() { port<runqcheck::native>::box b; port<runqcheck::native>::done(&b); }
PROBE
if "$cxx" -std=c++20 -I"$inc" -Wall -Wextra -Werror -fsyntax-only "$f" >"$f.log" 2>&1; then
  echo "ok   pthread_mutex_destroy(&m); as a statement: no warning"
else echo "FAILED: pthread_mutex_destroy as a statement warns: $f.log"; status=1; fi
[ $status -eq 0 ] && echo "PASS: a C port in GCC's builtin style, checked as written"
exit $status
