#!/bin/sh
# ci/install.sh sized to the presets (--dry-run: nothing installed): native,relacy takes
# Relacy, GoogleTest and Go and none of chromium, clang-16, qemu, the aarch64 cross
# compiler, SPIN, z3 or Google Benchmark (issue 44: every install took all of them);
# `all` takes chromium; a bad preset or flag is one error line, exit 2.
# Usage: install_test.sh <runqcheck source>
src=${1:?usage: install_test.sh <runqcheck source>}
status=0
say() { echo "install_test: $*"; }
out=$("$src/ci/install.sh" --dry-run --presets native,relacy /nonexistent/prefix 2>&1)
pk=" $(printf '%s\n' "$out" | sed -n 's/^packages: //p') "
for p in relacy-dev libgtest-dev golang-1.27-go build-essential ccache; do
  case "$pk" in *" $p "*) ;; *) say "native,relacy lacks $p"; status=1;; esac
done
for p in chromium clang-16 qemu-user-static g++-aarch64-linux-gnu spin python3-z3 \
         libbenchmark-dev; do
  case "$pk" in *" $p "*) say "native,relacy installs $p"; status=1;; esac
done
[ -e /nonexistent/prefix ] && { say "--dry-run made the prefix"; status=1; }
pk=" $("$src/ci/install.sh" --dry-run --presets all /x 2>&1 | sed -n 's/^packages: //p') "
case "$pk" in *" chromium "*) ;; *) say "all lacks chromium"; status=1;; esac
for bad in "--presets bogus /x" "--frob /x" "--dry-run"; do
  # shellcheck disable=SC2086 # the words are the flags
  err=$("$src/ci/install.sh" $bad 2>&1); rc=$?
  n=$(printf '%s\n' "$err" | grep -c '^error:')
  [ "$rc" = 2 ] && [ "$n" = 1 ] || { say "'$bad': exit $rc, $n error lines: $err"; status=1; }
done
[ $status = 0 ] && say "passed"
exit $status
