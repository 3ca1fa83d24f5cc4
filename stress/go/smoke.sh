#!/bin/sh
# stress/go/smoke.sh — the gate check of the Go peer (rqbench): go vet, a
# build, and every workload of bench/workloads.txt once at its smoke size;
# each run must print a well-formed `bench:` line for that workload.
#
# Usage: smoke.sh <workdir> [<gocache>]
# Go: ci/find_go.sh ($RUNQCHECK_GO, else Debian's golang-1.27-go).
# Exit: 0 pass, 1 fail, 77 skipped (no Go toolchain; CTest
# SKIP_RETURN_CODE).
set -u
work=$1 gocache=${2:-$1/gocache}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if ! GO=$(sh "$root/ci/find_go.sh"); then
  echo "SKIP: no Go; Go benchmark peer not checked"
  exit 77
fi
mkdir -p "$work/home" "$gocache" || exit 1
work=$(cd "$work" && pwd) gocache=$(cd "$gocache" && pwd)
export GOCACHE="$gocache" HOME="$work/home" GOPROXY=off GOFLAGS= GO111MODULE=on
cd "$here" || exit 1
"$GO" vet . || { echo "FAIL: go vet"; exit 1; }
"$GO" build -o "$work/rqbench" . || { echo "FAIL: go build"; exit 1; }
fail=0 n=0 bad=0
while read -r w _ _ size; do
  case $w in ''|\#*) continue ;; esac
  n=$((n + 1))
  line=$(timeout 120 "$work/rqbench" -workload "$w" -procs 2 -size "$size" -rounds 1 \
    | grep '^bench:')
  re="^bench: workload=$w procs=[0-9]+ size=$size rounds=1"
  re="$re median_ns=[0-9]+ min_ns=[0-9]+ max_ns=[0-9]+\$"
  if echo "$line" | grep -Eq "$re"; then
    echo "ok   $line"
  else
    echo "FAIL $w: no well-formed bench: line (got '$line')"
    fail=1 bad=$((bad + 1))
  fi
done < "$root/bench/workloads.txt"
# Bad flags: one line on stderr, exit 2.
"$work/rqbench" -workload nosuch -size 1 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown workload does not exit 2"; fail=1; }
echo "workloads: $((n - bad)) passed, $bad failed (ran once, bench: line parsed)"
[ $fail -eq 0 ] && echo "PASS: go vet clean, every workload printed its bench: line"
exit $fail
