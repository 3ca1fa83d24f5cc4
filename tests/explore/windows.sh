#!/bin/sh
# tests/explore/windows.sh BINARY TEXT... — Go's own windows in explore_protocol
# (tests/explore/protocol.cpp, --windows): BINARY (an explore_protocol build)
# reports them under both models within 50,000 executions, exits 0 (a window
# is a report, never a failure), and prints each TEXT (a report's words, such
# as "Go's own window handoffp_vs_submit (SC): reached"). RUNQCHECK_CASE, if
# set, names the windows to run.
usage="usage: windows.sh EXPLORE_PROTOCOL_BINARY TEXT..."
bin=${1:?$usage}
shift
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
out=$("$bin" --windows both --budget 50000 2>&1)
rc=$?
printf '%s\n' "$out" | grep -E '^runqcheck: report: |explored'
status=0
[ $rc -eq 0 ] || { echo "windows.sh: exit $rc, want 0 (a window is a report)"; status=1; }
for want in "$@"; do
  printf '%s\n' "$out" | grep -qF -- "runqcheck: report: $want" \
    || { echo "windows.sh: no report '$want'"; status=1; }
done
exit $status
