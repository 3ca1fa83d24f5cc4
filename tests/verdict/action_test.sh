#!/bin/sh
# action.yml's script (ci/action.sh): the gate command it builds from the
# action's inputs (RQ_DRY_RUN=1), the artifact it names (a shard's, the merge's),
# bad inputs refused in one line, exit 2; action.yml uploads the folder the script names.
# The gate it runs is run for real by ci/test's installed-package step and
# tests/verdict/shard_test.sh.
# usage: action_test.sh ROOT
set -u
root=$1 fails=0
say() { echo "action_test: $*"; }
out=$(cd "$root" && RQ_DRY_RUN=1 RUNNER_TEMP=/t RQ_STRICT=true RQ_PRESETS=native \
  RQ_COLUMNS=unit RQ_ACTION_REPOSITORY=o/rq GITHUB_SERVER_URL=https://g.example \
  RQ_SUBJECTS="$(printf '  acme/subject.cmake\n\nweak|w/w.hpp|w::w|inc  \n')" ci/action.sh)
# The install takes the presets' packages only; SARIF's informationUri is the action's page.
inst=$(printf '%s\n' "$out" | sed -n 's/^install: //p')
[ "$inst" = "$root/ci/install.sh --presets native /t/runqcheck " ] \
  || { say "install: '$inst'"; fails=1; }
info=$(printf '%s\n' "$out" | sed -n 's/^info: //p')
[ "$info" = "https://g.example/o/rq" ] || { say "info: '$info'"; fails=1; }
# The input jobs: gate --jobs (a small runner), checked like the gate's.
out2=$(cd "$root" && RQ_DRY_RUN=1 RUNNER_TEMP=/t RQ_SUBJECTS=a.cmake RQ_GATE_JOBS=1 ci/action.sh)
case "$out2" in *" --jobs 1 --build-dir "*) ;; *) say "jobs: $out2"; fails=1;; esac
grep -qF 'RQ_GATE_JOBS: ${{ inputs.jobs }}' "$root/action.yml" \
  || { say "action.yml does not pass the input jobs"; fails=1; }
# On GitHub a composite action's github.action_repository is empty: its path names it.
info=$(cd "$root" && RQ_DRY_RUN=1 RQ_SUBJECTS=a.cmake RQ_ACTION_REPOSITORY= \
  GITHUB_ACTION_PATH=/home/runner/work/_actions/o/rq/0123abc ci/action.sh | sed -n 's/^info: //p')
[ "$info" = "https://github.com/o/rq" ] || { say "info (from its path): '$info'"; fails=1; }
art=$(printf '%s\n' "$out" | sed -n 's/^artifact: //p')
[ "$art" = "runqcheck /t/runqcheck-artifacts" ] || { say "artifact: '$art'"; fails=1; }
out=$(printf '%s\n' "$out" | tail -1)
want="/t/runqcheck/bin/runqcheck gate --subject acme/subject.cmake"
want="$want --subject weak\|w/w.hpp\|w::w\|inc"
want="$want --presets native --columns unit --strict --build-dir /t/runqcheck-build"
want="$want --junit runqcheck.xml"
want="$want --sarif runqcheck.sarif --artifacts /t/runqcheck-artifacts "
[ "$out" = "$want" ] || { say "command: '$out', want '$want'"; fails=1; }
# A shard: its own artifact name; the merge: nothing installed, this tree's gate --merge
# on the folder the action downloads the shards' artifacts into.
out=$(cd "$root" && RQ_DRY_RUN=1 RUNNER_TEMP=/t RQ_SHARD=1/3 RQ_ARTIFACT=rq RQ_SUBJECTS=a.cmake \
  ci/action.sh)
case "$out" in *"artifact: rq-shard-1-of-3 /t/runqcheck-artifacts"*"--shard 1/3 ") ;;
  *) say "shard: $out"; fails=1;; esac
out=$(cd "$root" && RQ_DRY_RUN=1 RUNNER_TEMP=/t RQ_MERGE=true ci/action.sh)
want="$root/ci/gate --merge /t/runqcheck-shards --junit runqcheck.xml --sarif runqcheck.sarif "
case "$out" in *"install: "*"artifact: runqcheck /t/runqcheck-shards"*"$want") ;;
  *) say "merge: $out"; fails=1;; esac
[ "$(printf '%s\n' "$out" | sed -n 's/^install: //p')" = "" ] || { say "merge installs"; fails=1; }
for bad in "RQ_SUBJECTS=" "RQ_SUBJECTS=x RQ_STRICT=yes" "RQ_SUBJECTS=x RQ_SHARD=3/3" \
           "RQ_SUBJECTS=x RQ_SHARD=1/2 RQ_MERGE=true" "RQ_MERGE=yes" \
           "RQ_SUBJECTS=x RQ_ARTIFACT=a/b" "RQ_SUBJECTS=x RQ_GATE_JOBS=0"; do
  # shellcheck disable=SC2086 # the words are assignments
  err=$(cd "$root" && env $bad RQ_DRY_RUN=1 ci/action.sh 2>&1 >/dev/null); rc=$?
  n=$(printf '%s\n' "$err" | wc -l)
  [ "$rc" = 2 ] && [ "$n" = 1 ] || { say "$bad: exit $rc, $n lines: $err"; fails=1; }
done
# action.yml: the gate step's outputs name the folder and the artifact that the upload
# step (actions/upload-artifact, run even when the gate failed) takes; a merge downloads
# the shards' artifacts where the script reads them.
y=$root/action.yml
for line in "uses: actions/upload-artifact@v4" \
    "if: always() && steps.gate.outputs.artifacts != ''" \
    'name: ${{ steps.gate.outputs.artifact }}' 'path: ${{ steps.gate.outputs.artifacts }}' \
    "uses: actions/download-artifact@v4" "if: inputs.merge == 'true'" \
    'pattern: ${{ inputs.artifact }}-shard-*' 'path: ${{ runner.temp }}/runqcheck-shards' \
    'RQ_SHARD: ${{ inputs.shard }}' 'RQ_MERGE: ${{ inputs.merge }}' \
    'RQ_ARTIFACT: ${{ inputs.artifact }}'; do
  grep -qF -- "$line" "$y" || { say "action.yml lacks '$line'"; fails=1; }
done
[ $fails = 0 ] && say passed
exit $fails
