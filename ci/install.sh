#!/usr/bin/env bash
# ci/install.sh PREFIX — install runqcheck from this tree into PREFIX (the
# Dockerfile's and action.yml's install step): the Debian packages the gate
# needs (ci/lib.sh; as root), then cmake --install of a build with no checker
# (the gate builds its own). PREFIX/bin/runqcheck is the command.
# Exit status: 0 installed, 2 bad usage or a failed step.
source "$(dirname "$0")/lib.sh"
[ $# -eq 1 ] && [ -n "$1" ] || rq_die "usage: ci/install.sh PREFIX"
prefix=$1
rq_ensure_packages
b=$(mktemp -d "${TMPDIR:-/tmp}/runqcheck-install.XXXXXX")
trap 'rm -rf "$b"' EXIT
cmake -S "$RQ_ROOT" -B "$b" -G Ninja -DRUNQCHECK_CHECKERS= -DRUNQCHECK_BUNDLED_SUBJECTS=OFF \
  -DRUNQCHECK_WITH_EXAMPLES=OFF >"$b/configure.log" 2>&1 \
  || { tail -20 "$b/configure.log" >&2; rq_die "configure failed"; }
cmake --install "$b" --prefix "$prefix" >/dev/null || rq_die "cmake --install failed"
rq_log "installed: $prefix/bin/runqcheck"
