#!/usr/bin/env bash
# ci/action.sh — the script of action.yml (a composite GitHub Action): checks
# the port(s) of the calling repository with `runqcheck gate`, writing JUnit
# and SARIF. Its inputs come as environment variables:
#   RQ_SUBJECTS  subject specs, one a line (NAME|HEADER|TYPE|INCLUDE_DIR, or a
#                .cmake file calling runqcheck_add_subject), paths relative to
#                the current directory (the repository)
#   RQ_PRESETS   gate presets, comma-separated (default native,relacy)
#   RQ_COLUMNS   only these columns (ids or titles, comma-separated; default all)
#   RQ_STRICT    true: a check that did not apply fails
#   RQ_BUILD_DIR the build folder (default ${RUNNER_TEMP:-/tmp}/runqcheck-build)
#   RQ_GATE_JOBS at most this many compilers and tests at once (gate --jobs; default the gate's)
#   RQ_JUNIT, RQ_SARIF  output files (default runqcheck.xml, runqcheck.sarif)
#   RQ_ARTIFACT  the artifact's name (default runqcheck; a shard's: NAME-shard-I-of-N)
#   RQ_ARTIFACTS the folder the gate collects the failures' files into (--artifacts) and
#                the action uploads (default ${RUNNER_TEMP:-/tmp}/runqcheck-artifacts)
#   RQ_SHARD     I/N: this job runs shard I of N of the exhaustive column (gate --shard)
#   RQ_MERGE     true: build nothing; the verdict of the shards' artifacts, which the
#                action downloaded into ${RUNNER_TEMP:-/tmp}/runqcheck-shards (gate --merge)
#   RQ_PREFIX    where runqcheck is installed; installed there from this tree
#                (ci/install.sh, with the Debian packages of RQ_PRESETS only) when
#                PREFIX/bin/runqcheck is missing (default ${RUNNER_TEMP:-/tmp}/runqcheck)
#   RQ_ACTION_REPOSITORY  owner/name of this action: SARIF's informationUri is its
#                page on $GITHUB_SERVER_URL (empty: from $GITHUB_ACTION_PATH)
#   RQ_DRY_RUN   1: print the install command (install: ...), the informationUri
#                (info: ...) and the gate command instead of running them
# Writes junit=, sarif=, artifacts= (the folder) and artifact= (its name) to $GITHUB_OUTPUT
# when set. Exit status: the gate's (0 passed, 1 failed), 2 bad input.
source "$(dirname "$0")/lib.sh"
specs=()
while IFS= read -r line; do
  line=${line#"${line%%[![:space:]]*}"}; line=${line%"${line##*[![:space:]]}"}
  [ -z "$line" ] || specs+=(--subject "$line")
done <<<"${RQ_SUBJECTS:-}"
case "${RQ_MERGE:-false}" in
  true|false|"") ;; *) rq_die "input 'merge' is '$RQ_MERGE', not true or false";;
esac
merge=${RQ_MERGE:-false} shard=${RQ_SHARD:-}
[ ${#specs[@]} -gt 0 ] || [ "$merge" = true ] \
  || rq_die "input 'subjects' is empty (one subject spec a line)"
case "${RQ_STRICT:-false}" in
  true) strict=(--strict);; false|"") strict=();;
  *) rq_die "input 'strict' is '$RQ_STRICT', not true or false";;
esac
name=${RQ_ARTIFACT:-runqcheck}
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || rq_die "input 'artifact' is '$name': letters, digits, . _ -"
if [ -n "$shard" ]; then
  [[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ] \
    || rq_die "input 'shard' is '$shard', not I/N with 0 <= I < N"
  [ "$merge" != true ] || rq_die "inputs 'shard' and 'merge': a job shards or merges"
  name=$name-shard-${BASH_REMATCH[1]}-of-${BASH_REMATCH[2]}
fi
tmp=${RUNNER_TEMP:-/tmp}
artifacts=${RQ_ARTIFACTS:-$tmp/runqcheck-artifacts}
prefix=${RQ_PREFIX:-$tmp/runqcheck}
junit=${RQ_JUNIT:-runqcheck.xml} sarif=${RQ_SARIF:-runqcheck.sarif}
columns=()
[ -z "${RQ_COLUMNS:-}" ] || columns=(--columns "$RQ_COLUMNS")
[ -z "${RQ_GATE_JOBS:-}" ] || [[ $RQ_GATE_JOBS =~ ^[1-9][0-9]{0,2}$ ]] \
  || rq_die "input 'jobs' is '$RQ_GATE_JOBS', not 1..999"
gate_jobs=()
if [ -n "${RQ_GATE_JOBS:-}" ]; then  # the install's build too
  gate_jobs=(--jobs "$RQ_GATE_JOBS"); export RQ_JOBS=$RQ_GATE_JOBS
fi
cmd=("$prefix/bin/runqcheck" gate "${specs[@]}" --presets "${RQ_PRESETS:-native,relacy}"
     "${columns[@]}" "${gate_jobs[@]}" "${strict[@]}"
     --build-dir "${RQ_BUILD_DIR:-$tmp/runqcheck-build}"
     --junit "$junit" --sarif "$sarif" --artifacts "$artifacts" ${shard:+--shard "$shard"})
if [ "$merge" = true ]; then  # this tree's gate: python3 only, nothing to install
  artifacts=$tmp/runqcheck-shards
  cmd=("$RQ_ROOT/ci/gate" --merge "$artifacts" "${strict[@]}" --junit "$junit" --sarif "$sarif")
fi
install=("$RQ_ROOT/ci/install.sh" --presets "${RQ_PRESETS:-native,relacy}" "$prefix")
[ "$merge" != true ] || install=()
# A composite action's github.action_repository is empty on GitHub (actions/runner#2525):
# then the action's checkout path, .../_actions/OWNER/NAME/REF, names it.
repo=${RQ_ACTION_REPOSITORY:-}
if [ -z "$repo" ] && [[ ${GITHUB_ACTION_PATH:-} =~ /_actions/([^/]+/[^/]+)/[^/]+/?$ ]]; then
  repo=${BASH_REMATCH[1]}
fi
if [ -n "$repo" ]; then
  export RUNQCHECK_INFO_URI="${GITHUB_SERVER_URL:-https://github.com}/$repo"
fi
if [ "${RQ_DRY_RUN:-0}" = 1 ]; then
  printf 'install: '; [ ${#install[@]} = 0 ] || printf '%q ' "${install[@]}"; echo
  echo "info: ${RUNQCHECK_INFO_URI:-}"
  echo "artifact: $name $artifacts"
  printf '%q ' "${cmd[@]}"; echo
  exit 0
fi
[ ${#install[@]} = 0 ] || [ -x "$prefix/bin/runqcheck" ] || "${install[@]}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf 'junit=%s\nsarif=%s\nartifacts=%s\nartifact=%s\n' "$junit" "$sarif" "$artifacts" \
    "$name" >>"$GITHUB_OUTPUT"
fi
exec "${cmd[@]}"
