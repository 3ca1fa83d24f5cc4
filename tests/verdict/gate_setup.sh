#!/bin/sh
# ci/gate's set-up errors found after the flags are read: exit 2 and one `error:` line,
# never 1 (a port's failure): a .cmake spec whose header CMake does not find (the
# configure; its --artifacts folder, an earlier gate's, is taken) or with a misspelt
# keyword (named), a TYPE that names no template (the subject header the gate
# generates), and no --subject from an installed prefix (nothing built in the prefix).
# A port that does not compile (tests/verdict/broken_port) is the port's failure: exit 1.
# Usage: gate_setup.sh <runqcheck source> <work dir> <cmake> <build dir to install>
src=${1:?usage: gate_setup.sh SRC WORK CMAKE BUILD}
work=${2:?usage: gate_setup.sh SRC WORK CMAKE BUILD}
cmake=${3:?usage: gate_setup.sh SRC WORK CMAKE BUILD}
build=${4:?usage: gate_setup.sh SRC WORK CMAKE BUILD}
rm -rf "$work" && mkdir -p "$work" || exit 1
status=0
# expect RC WANT GATE ARGS...: the gate exits RC; with 2, one error line holding WANT.
expect() {
  want_rc=$1 want=$2 gate=$3
  shift 3
  out=$("$gate" "$@" 2>&1)
  rc=$?
  errs=$(printf '%s\n' "$out" | grep -c '^error:')
  if [ "$rc" -eq "$want_rc" ] && { [ "$rc" -ne 2 ] || [ "$errs" -eq 1 ]; } \
     && printf '%s\n' "$out" | grep -q -- "$want"; then
    echo "ok   exit $rc: $(printf '%s\n' "$out" | grep -m1 -- "$want" | cut -c1-150)"
  else
    echo "FAIL gate $*: exit $rc, $errs error lines (want $want_rc and '$want'):"
    printf '%s\n' "$out" | tail -5
    status=1
  fi
}
printf '%s\n' "runqcheck_add_subject(NAME nohdr HEADER nothere.hpp TYPE weak::weak_port" \
  "  INCLUDE_DIRS $src/examples/weak_port/include)" >"$work/nohdr.cmake"
g="$src/ci/gate"
# (its --artifacts folder holds an earlier gate's collection: taken, not "not empty")
mkdir -p "$work/art/native" && echo '{}' >"$work/art/native/collected.json" \
  && echo 'runqcheck gate: the failures' >"$work/art/REPRODUCE.txt" || exit 1
expect 2 "configure failed (the set-up or a subject spec" "$g" --subject "$work/nohdr.cmake" \
  --presets native --columns unit --build-dir "$work/nohdr" --artifacts "$work/art"
printf '%s\n' "runqcheck_add_subject(NAME typo HEADR weak_port/weak_port.hpp" \
  "  TYPE weak::weak_port INCLUDE_DIRS $src/examples/weak_port/include)" >"$work/typo.cmake"
expect 2 "unknown argument 'HEADR'" "$g" --subject "$work/typo.cmake" --presets native \
  --columns unit --build-dir "$work/typo"
# (on the weak memory column: its one small TU fails in 2 s; the unit column's unity
# build, a cascade of errors from every test, in 70)
expect 2 "TYPE or HEADER does not compile" "$g" \
  --subject "notype|weak_port/weak_port.hpp|weak::nope|$src/examples/weak_port/include" \
  --presets native --columns weak_memory --build-dir "$work/notype"
bp="broken|broken/broken_port.hpp|broken::broken_port|$src/tests/verdict/broken_port/include"
expect 1 "broken_port.hpp:17" "$g" --subject "$bp" --presets native --columns weak_memory \
  --build-dir "$work/broken"
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null || exit 1
expect 2 "no --subject: an installed runqcheck checks your port" "$work/prefix/bin/runqcheck" \
  gate --presets native
[ ! -e "$work/prefix/share/runqcheck/build" ] || { echo "FAIL the prefix has a build/"; status=1; }
exit "$status"
