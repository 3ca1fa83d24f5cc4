#!/bin/sh
# tests/differential/run_diff.sh — the differential test against production
# Go: diff_gen writes N seeded op sequences (and N/4 idle-list sequences of
# the bundled wakeup protocol) and the C++ subject's outcomes;
# Go's own runtime (go1.27; runqcheck_export_test.go and runqcheck_diff_test.go
# added to package runtime with `go test -overlay`) runs the same sequences;
# the two outcome files must be identical.
#
# Usage: run_diff.sh <diff_gen> <workdir> <sequences> <seed> [<gocache>]
# Go: ci/find_go.sh ($RUNQCHECK_GO, else Debian's golang-1.27-go).
# Exit: 0 equal, 1 different (first difference printed), 77 skipped (no Go
# toolchain; CTest SKIP_RETURN_CODE), 2 setup error.
# RUNQCHECK_DIFF_EXPECT=differ inverts the verdict (a mutant build of
# diff_gen must be told apart from Go): 0 only if the Go side ran and the
# outcomes differ.
set -u
gen=$1 work=$2 n=$3 seed=$4 gocache=${5:-$2/gocache}
expect=${RUNQCHECK_DIFF_EXPECT:-same}
here=$(cd "$(dirname "$0")" && pwd)
if ! GO=$(sh "$here/../../ci/find_go.sh"); then
  echo "SKIP: no Go; differential test against Go not run"
  exit 77
fi
goroot=$("$GO" env GOROOT) || exit 2
gover=$("$GO" env GOVERSION) || exit 2
case $gover in
  go1.2[5-9]*|go1.[3-9]*) ;;
  *) echo "error: $GO is $gover; the overlay needs go1.25's runtime or later (golang-1.27-go)"
     exit 2;;
esac
mkdir -p "$gocache" "$work/home" || exit 2
gocache=$(cd "$gocache" && pwd) || exit 2  # Go wants an absolute GOCACHE
work=$(cd "$work" && pwd) || exit 2        # go test runs in $work: absolute paths below
cp "$here/runqcheck_diff_test.go" "$here/runqcheck_export_test.go" "$work/" || exit 2
# The overlay adds the two files and removes the runtime's own *_test.go
# (an empty replacement deletes a file): the test binary then holds the
# runtime and `testing`, not Go's ~130 runtime tests and what they import
# (cold: half the CPU time of the compile, 19 s against 37 s).
{
  echo '{"Replace": {'
  for f in "$goroot"/src/runtime/*_test.go; do echo "  \"$f\": \"\","; done
  echo "  \"$goroot/src/runtime/runqcheck_diff_test.go\": \"$work/runqcheck_diff_test.go\","
  echo "  \"$goroot/src/runtime/runqcheck_export_test.go\": \"$work/runqcheck_export_test.go\"}}"
} > "$work/overlay.json" || exit 2

# Bounded: a port's endless loop or endless output (a G queued twice makes a
# list a cycle) fails here in minutes, not at ctest's timeout with a full disk.
( ulimit -f 1048576 && exec timeout 300 "$gen" "$n" "$seed" "$work/seqs.txt" "$work/cpp.txt" )
rc=$?
if [ $rc -ne 0 ]; then
  # A crash (status 128+N) names its signal.
  how="exit $rc"
  [ $rc -gt 128 ] && how="crashed: SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
  [ $rc -eq 124 ] && how="no end after 300 s (an endless loop in the port?)"
  [ $rc -eq 153 ] && how="$how: its output passed the file size limit (an endless list?)"
  # The sequence it ended in: the last one written (diff_gen flushes each before
  # running it), its operations, and a command that runs up to it.
  last=$(grep -nE '^i?seq [0-9]+ ' "$work/seqs.txt" 2>/dev/null | tail -1)
  id=$(printf '%s\n' "$last" | cut -d' ' -f2)
  echo "FAIL: diff_gen failed ($how) on the C++ side${id:+, in sequence $id}"
  if [ -n "$id" ]; then
    line=${last%%:*}
    echo "sequence $id's operations (kind a b c; $work/seqs.txt from line $line):"
    tail -n +"$line" "$work/seqs.txt" | sed -n '2,/^end$/{/^end$/!p}' | head -40 | sed 's/^/  /'
    case $last in
      *:seq\ *) echo "reproduce: $gen --check-model $((id + 1)) $seed   (sequences 0..$id)" ;;
      *) echo "reproduce: $gen $n $seed $work/seqs.txt $work/cpp.txt   (idle-list sequence $id)" ;;
    esac
  else
    echo "reproduce: $gen $n $seed $work/seqs.txt $work/cpp.txt"
  fi
  exit 1
fi

start=$(date +%s)
# GOMAXPROCS=1: no other P can pick the fake Gs from the global queue
# (see runqcheck_diff_test.go). cd: `go test runtime` needs no module.
( cd "$work" && env GOCACHE="$gocache" HOME="$work/home" GOPROXY=off GOFLAGS= GO111MODULE=off \
    GOMAXPROCS=1 RUNQCHECK_DIFF_IN="$work/seqs.txt" RUNQCHECK_DIFF_OUT="$work/go.txt" \
    "$GO" test -vet=off -count=1 -overlay "$work/overlay.json" \
      runtime -run '^TestRunqcheckDiff$' ) \
    > "$work/go-test.log" 2>&1
rc=$?
end=$(date +%s)
echo "go test runtime ($gover): exit $rc in $((end - start)) s (log: $work/go-test.log)"
if [ $rc -ne 0 ] || [ ! -s "$work/go.txt" ]; then
  tail -30 "$work/go-test.log"
  echo "error: the Go side did not run"
  exit 2
fi
if cmp -s "$work/cpp.txt" "$work/go.txt"; then
  if [ "$expect" = differ ]; then
    echo "FAIL (inverted test): the mutant diff_gen agrees with Go on $n sequences:" \
      "the comparison has no teeth"
    exit 1
  fi
  nops=$(grep -cv '^seq \|^iseq \|^end' "$work/seqs.txt")
  nidle=$(grep -c '^iseq ' "$work/seqs.txt")
  byop=$(awk '$1 != "seq" && $1 != "iseq" && $1 != "end" {c[$1]++}
    END {for (k in c) {printf "%s%s=%d", s, k, c[k]; s = " "}}' "$work/seqs.txt")
  echo "PASS: $n queue and $nidle idle-list sequences ($nops ops; by op: $byop)," \
    "C++ subject and $gover's"
  nout=$(wc -l < "$work/cpp.txt")
  echo "  runtime agree on every result and final queue ($nout outcome lines;" \
    "the idle lists are the bundled protocol's, whatever the subject)"
  exit 0
fi
line=$(cmp "$work/cpp.txt" "$work/go.txt" | sed -n 's/.* line \([0-9]*\).*/\1/p')
seqline=$(head -n "$line" "$work/cpp.txt" | grep -n '^seq ' | tail -1)
echo "FAIL: outcomes differ at line $line of $work/cpp.txt vs $work/go.txt (in ${seqline#*:})"
sh "$(dirname "$0")/diff_lines.sh" "$(sed -n "${line}p" "$work/cpp.txt")" \
  "$(sed -n "${line}p" "$work/go.txt")"
id=$(echo "${seqline#*:}" | awk '{print $2}')
echo "  the sequence (from $work/seqs.txt):"
awk -v id="$id" '($1=="seq" || $1=="iseq") && $2==id {p=1} p {print "    " $0}
  p && $1=="end" {exit}' "$work/seqs.txt" | head -60
# Regenerates the same sequences (same seed) and compares again.
echo "reproduce: sh $0 $gen $work $n $seed $gocache   (sequence $id, seed $seed)"
if [ "$expect" = differ ]; then
  echo "PASS (inverted test): the mutant ${RUNQCHECK_MUTANT:-?} was told apart from $gover," \
    "as it must be"
  exit 0
fi
exit 1
