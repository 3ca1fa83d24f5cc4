#!/bin/sh
# ci/find_go.sh — prints the Go binary the project runs: $RUNQCHECK_GO (a go
# binary or a GOROOT holding bin/go), else Debian's golang-1.27-go.
# Exit: 0 found, 77 not found (the message names the package; CTest
# SKIP_RETURN_CODE in the scripts that call it).
set -u
go=${RUNQCHECK_GO:-/usr/lib/go-1.27/bin/go}
[ -d "$go" ] && go=$go/bin/go
if [ ! -x "$go" ]; then
  echo "$go not found (ci/lib.sh rq_ensure_packages installs golang-1.27-go," \
    "or set RUNQCHECK_GO)" >&2
  exit 77
fi
echo "$go"
