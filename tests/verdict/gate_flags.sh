#!/bin/sh
# ci/gate's flags that stop before any build: a bad --columns (an unknown
# column, or none that the given presets run), an unknown flag, a --junit or
# --sarif file or a --build-dir that cannot be written, a bad --shard, an
# --artifacts folder that holds other files (left as they were) and a --merge
# with nothing to merge are one error line (besides the gate's [time] log
# lines) and exit 2; --help is for users.
# (--columns on real subjects: ci/test's acme variants.)
# Usage: gate_flags.sh <runqcheck source>
src=${1:?usage: gate_flags.sh <runqcheck source>}
status=0
expect2() {
  want=$1
  shift
  out=$("$src/ci/gate" "$@" 2>&1)
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c 'error:')" -eq 1 ] \
     && [ "$(printf '%s\n' "$out" | grep -cvE '^\[[0-9:]{8}\] ')" -eq 1 ] \
     && printf '%s\n' "$out" | grep -q "$want"; then
    echo "ok   ci/gate $*: exit 2, $(printf '%s\n' "$out" | grep 'error:')"
  else
    echo "FAIL ci/gate $*: exit $rc (want 2 and only one error line with '$want'):"
    printf '%s\n' "$out" | head -5
    status=1
  fi
}
expect2 "unknown column 'nope'" --columns nope
expect2 "no preset runs them" --columns relacy_random --presets native
expect2 "needs a value" --columns
expect2 "unknown flag '--frobnicate'" --frobnicate
expect2 "is not 1..999" --jobs 0
expect2 "is not 1..999" --jobs=two
expect2 "needs a value" --jobs
# --jobs N reaches the builds and tests (ci/lib.sh); without it, a build per core.
jobs=$(RQ_JOBS=3 bash -c ". '$src/ci/lib.sh' && rq_jobs")
cores=$(RQ_JOBS= bash -c "unset RQ_JOBS; . '$src/ci/lib.sh' && rq_jobs")
if [ "$jobs" = 3 ] && [ "$cores" = "$(nproc)" ]; then
  echo "ok   rq_jobs: RQ_JOBS=3 gives 3, unset gives nproc ($cores)"
else
  echo "FAIL rq_jobs: RQ_JOBS=3 gave '$jobs', unset gave '$cores' (nproc $(nproc))"; status=1
fi
expect2 "cannot write there" --junit /proc/no-such-dir/verdict.xml
expect2 "cannot write there" --sarif /
expect2 "cannot create build dir" --build-dir /proc/no-such-dir/build
expect2 "is not I/N" --shard 2/2
expect2 "holds no sharded column" --shard 1/2 --columns unit
expect2 "takes only --junit" --merge /tmp --presets native
expect2 "takes only --junit" --merge /tmp --latest
expect2 "latest narrows the bundled gate" --latest --subject examples/locked_runq/subject.cmake
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo mine >"$tmp/keep.txt"
expect2 "not empty" --artifacts "$tmp"
[ -f "$tmp/keep.txt" ] || { echo "FAIL --artifacts removed a file it did not write"; status=1; }
rm "$tmp/keep.txt"
expect2 "no verdict below" --merge "$tmp"
# --help: for users (a usage line and each flag), not the script's comments.
help=$("$src/ci/gate" --help 2>&1)
if [ $? -eq 0 ] && [ "$(printf '%s\n' "$help" | head -c 6)" = usage: ] \
   && ! printf '%s\n' "$help" | grep -q '^#' \
   && [ "$(printf '%s\n' "$help" \
          | grep -cE '^  --(subject|presets|columns|strict|no-cache|build-dir|junit|sarif) ')" \
        -eq 8 ] \
   && [ "$(printf '%s\n' "$help" | grep -cE '^  --(jobs|artifacts|shard|merge) ')" -eq 4 ]
then
  echo "ok   ci/gate --help: a usage line and each flag"
else
  echo "FAIL ci/gate --help:"; printf '%s\n' "$help" | head -5; status=1
fi
exit "$status"
