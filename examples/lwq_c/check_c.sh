#!/bin/sh
# lwq is plain C11: its headers compile on their own with a C compiler
# (`cc -std=c11 -c`, warnings as errors) and smoke.c runs (one thread, every
# task back once). usage: check_c.sh SCRATCH_DIR  (CC picks the compiler)
set -u
[ $# -eq 1 ] || { echo "usage: check_c.sh SCRATCH_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd) out=$1 cc=${CC:-cc}
flags="-std=c11 -Wall -Wextra -pedantic -Werror -I$here/include"
mkdir -p "$out" || exit 2
for h in lwq/runq.h lwq/bugs.h lwq/inspect.h; do
  printf '#include "lwq/runq.h"\n#include "%s"\n' "$h" > "$out/only.c"
  $cc $flags -c "$out/only.c" -o "$out/only.o" ||
    { echo "FAILED: $h does not compile as C11; reproduce: $cc $flags -c $out/only.c"; exit 1; }
done
$cc $flags "$here/smoke.c" -o "$out/smoke" -lpthread ||
  { echo "FAILED: smoke.c does not build; reproduce: $cc $flags $here/smoke.c"; exit 1; }
"$out/smoke" || { echo "FAILED: reproduce: $out/smoke"; exit 1; }
