#!/bin/sh
# Teeth of "nothing hangs": registers the hanging ports of this folder
# (subject.cmake) in a scratch build, builds only their checkers, and asserts
# that every native checker (unit, property_sched, lincheck_threads,
# diff_go_gen) exits with the watchdog's status (3) and a state dump within
# seconds, and that relacy_scenarios and explore (the exhaustive engine:
# a spin no thread can end, or no execution that completes) report each
# port as a failure with a reproducer; for
# hang_fatal (a fatal error raised with the port's lock held) that every
# checker fails showing the fatal error's own text.
#
# Usage: check.sh <runqcheck source> <scratch build dir> [<c++ compiler> [<ports>]]
#   <ports>: livelock (hang_livelock), deadlock (hang_deadlock), hangs (both),
#   fatal (hang_fatal) or all (the default); the gate runs livelock, nightly
#   deadlock and fatal.
# The scratch build is unoptimized and without debug info: these checks wait
# for a watchdog, not for speed, and -O0 compiles Relacy's TU 4x faster.
# Exit 0 only if every checker failed as it should; 1 otherwise; 2 on a
# setup error (bad arguments, configure or build failure).
set -u
usage="usage: check.sh <runqcheck source> <scratch build dir> [<c++ compiler> [<ports>]]"
ports_usage="livelock, deadlock, hangs, fatal or all"
src=${1:?$usage} dir=${2:?$usage} cxx=${3:-c++} ports=${4:-all}
if [ ! -f "$src/examples/hang_port/subject.cmake" ]; then
  echo "check.sh: $src is not a runqcheck tree" >&2
  exit 2
fi
case $ports in
  livelock) subjects=hang_livelock fatal= ;;
  deadlock) subjects=hang_deadlock fatal= ;;
  hangs) subjects="hang_livelock hang_deadlock" fatal= ;;
  fatal) subjects= fatal=hang_fatal ;;
  all) subjects="hang_livelock hang_deadlock" fatal=hang_fatal ;;
  *) echo "check.sh: unknown ports '$ports' (want $ports_usage)" >&2; exit 2 ;;
esac
fatal_text="hang_port: globrunqput onto a non-empty queue"
if ! cmake -S "$src" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" \
    -DRUNQCHECK_CHECKERS="unit;relacy;explore" -DRUNQCHECK_BUNDLED_SUBJECTS=OFF \
    -DRUNQCHECK_WITH_EXAMPLES=OFF \
    -DRUNQCHECK_EXTRA_SUBJECTS="$src/examples/hang_port/subject.cmake" \
    >"$dir.configure.log" 2>&1; then
  echo "check.sh: configure failed, see $dir.configure.log"
  exit 2
fi
targets=
for s in $subjects $fatal; do
  for c in unit property_sched lincheck_threads diff_go_gen relacy_scenarios explore; do
    targets="$targets ${c}__$s"
  done
done
# shellcheck disable=SC2086
if ! cmake --build "$dir" --target $targets >"$dir.build.log" 2>&1; then
  echo "check.sh: build failed, see $dir.build.log"
  exit 2
fi

status=0
# run_to <label> <seconds> <command...>: runs it (the watchdog fires after 2 s
# without progress) with its output in $out and its status in $rc.
run_to() {
  label=$1 secs=$2
  shift 2
  out="$dir/$(echo "$label" | tr / _).out"
  RUNQCHECK_WATCHDOG_SECONDS=2 timeout "$secs" "$@" >"$out" 2>&1
  rc=$?
}
# expect_watchdog <label> <command...>: exit 3, a dump and a reproducer, well
# before the outer 60 s bound.
expect_watchdog() {
  l=$1
  shift
  run_to "$l" 60 "$@"
  if [ "$rc" -eq 3 ] && grep -q "runqcheck: watchdog: FAILED" "$out" \
     && grep -q "^  thread .*: in " "$out" && grep -q "^reproduce: " "$out"; then
    echo "ok   $label: watchdog exit 3 with a state dump: $(grep -m1 '^  thread' "$out")"
  else
    echo "FAIL $label: exit $rc (want 3 with a state dump and a reproduce: line); output in $out"
    status=1
  fi
}
for s in $subjects; do
  b="$dir/bin"
  expect_watchdog "unit/$s" "$b/unit__$s" --gtest_filter='*Steal*:*steal*:*Globrunq*:*globrunq*'
  expect_watchdog "property_sched/$s" "$b/property_sched__$s" --sequences 200
  expect_watchdog "lincheck_threads/$s" "$b/lincheck_threads__$s" 50
  expect_watchdog "diff_go_gen/$s" "$b/diff_go_gen__$s" --check-model 200 4
  out="$dir/relacy_scenarios_$s.out"
  timeout 300 "$b/relacy_scenarios__$s" random 2000 >"$out" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -Eq "LIVELOCK|DEADLOCK" "$out"; then
    echo "ok   relacy_scenarios/$s: exit $rc: $(grep -Em1 "LIVELOCK|DEADLOCK" "$out")"
  else
    echo "FAIL relacy_scenarios/$s: exit $rc (want a reported failure); output in $out"
    status=1
  fi
  out="$dir/explore_$s.out"
  RUNQCHECK_STOP_ON_FAIL=1 timeout 300 "$b/explore__$s" both >"$out" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "FAILED" "$out" \
     && grep -Eq "^(replay|reproduce): " "$out"; then
    echo "ok   explore/$s: exit $rc: $(grep -E -m1 "(RC11|SC): " "$out" | cut -c1-150)"
  else
    echo "FAIL explore/$s: exit $rc (want a failure with a replay: or reproduce: line);"\
      "output in $out"
    status=1
  fi
done
# expect_fatal <label> <command...>: fails (any non-zero status) showing the fatal's text.
expect_fatal() {
  l=$1
  shift
  run_to "$l" 300 "$@"
  # a watchdog exit (3) must lead with the fatal error that left the lock held
  lead=$(grep -m1 "runqcheck: watchdog: FAILED" "$out")
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "$fatal_text" "$out" \
     && { [ "$rc" -ne 3 ] || echo "$lead" | grep -q "$fatal_text"; }; then
    echo "ok   $label: exit $rc: $(grep -m1 "$fatal_text" "$out" | cut -c1-160)"
  else
    echo "FAIL $label: exit $rc (want a failure showing '$fatal_text', first in a"\
      "watchdog's dump); output in $out"
    status=1
  fi
}
b="$dir/bin"
if [ -n "$fatal" ]; then
expect_fatal unit/hang_fatal "$b/unit__hang_fatal"
expect_fatal property_sched/hang_fatal "$b/property_sched__hang_fatal" --sequences 200
expect_fatal lincheck_threads/hang_fatal "$b/lincheck_threads__hang_fatal" 50
expect_fatal diff_go_gen/hang_fatal "$b/diff_go_gen__hang_fatal" --check-model 200 4
expect_fatal relacy_scenarios/hang_fatal "$b/relacy_scenarios__hang_fatal" random 2000
expect_fatal explore/hang_fatal env RUNQCHECK_STOP_ON_FAIL=1 "$b/explore__hang_fatal" both
fi
[ "$status" -eq 0 ] && echo "PASS: every checker FAILED each hanging port ($ports) as it should"
exit "$status"
