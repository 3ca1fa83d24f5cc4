#!/bin/sh
# action.yml's script (ci/action.sh): the gate command it builds from the
# action's inputs (RQ_DRY_RUN=1), and bad inputs refused in one line, exit 2.
# The gate it runs is run for real by ci/test's installed-package step.
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
out=$(printf '%s\n' "$out" | tail -1)
want="/t/runqcheck/bin/runqcheck gate --subject acme/subject.cmake"
want="$want --subject weak\|w/w.hpp\|w::w\|inc"
want="$want --presets native --columns unit --strict --build-dir /t/runqcheck-build --junit runqcheck.xml"
want="$want --sarif runqcheck.sarif "
[ "$out" = "$want" ] || { say "command: '$out', want '$want'"; fails=1; }
for bad in "RQ_SUBJECTS=" "RQ_SUBJECTS=x RQ_STRICT=yes"; do
  err=$(cd "$root" && env $bad RQ_DRY_RUN=1 ci/action.sh 2>&1 >/dev/null); rc=$?
  n=$(printf '%s\n' "$err" | wc -l)
  [ "$rc" = 2 ] && [ "$n" = 1 ] || { say "$bad: exit $rc, $n lines: $err"; fails=1; }
done
[ $fails = 0 ] && say passed
exit $fails
