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
#   RQ_JUNIT, RQ_SARIF  output files (default runqcheck.xml, runqcheck.sarif)
#   RQ_PREFIX    where runqcheck is installed; installed there from this tree
#                (ci/install.sh, with the Debian packages of RQ_PRESETS only) when
#                PREFIX/bin/runqcheck is missing (default ${RUNNER_TEMP:-/tmp}/runqcheck)
#   RQ_ACTION_REPOSITORY  owner/name of this action: SARIF's informationUri is its
#                page on $GITHUB_SERVER_URL
#   RQ_DRY_RUN   1: print the install command (install: ...), the informationUri
#                (info: ...) and the gate command instead of running them
# Writes junit= and sarif= to $GITHUB_OUTPUT when set. Exit status: the gate's
# (0 passed, 1 failed), 2 bad input.
source "$(dirname "$0")/lib.sh"
specs=()
while IFS= read -r line; do
  line=${line#"${line%%[![:space:]]*}"}; line=${line%"${line##*[![:space:]]}"}
  [ -z "$line" ] || specs+=(--subject "$line")
done <<<"${RQ_SUBJECTS:-}"
[ ${#specs[@]} -gt 0 ] || rq_die "input 'subjects' is empty (one subject spec a line)"
case "${RQ_STRICT:-false}" in
  true) strict=(--strict);; false|"") strict=();;
  *) rq_die "input 'strict' is '$RQ_STRICT', not true or false";;
esac
tmp=${RUNNER_TEMP:-/tmp}
prefix=${RQ_PREFIX:-$tmp/runqcheck}
junit=${RQ_JUNIT:-runqcheck.xml} sarif=${RQ_SARIF:-runqcheck.sarif}
columns=()
[ -z "${RQ_COLUMNS:-}" ] || columns=(--columns "$RQ_COLUMNS")
cmd=("$prefix/bin/runqcheck" gate "${specs[@]}" --presets "${RQ_PRESETS:-native,relacy}"
     "${columns[@]}" "${strict[@]}" --build-dir "${RQ_BUILD_DIR:-$tmp/runqcheck-build}"
     --junit "$junit" --sarif "$sarif")
install=("$RQ_ROOT/ci/install.sh" --presets "${RQ_PRESETS:-native,relacy}" "$prefix")
if [ -n "${RQ_ACTION_REPOSITORY:-}" ]; then
  export RUNQCHECK_INFO_URI="${GITHUB_SERVER_URL:-https://github.com}/$RQ_ACTION_REPOSITORY"
fi
if [ "${RQ_DRY_RUN:-0}" = 1 ]; then
  printf 'install: '; printf '%q ' "${install[@]}"; echo
  echo "info: ${RUNQCHECK_INFO_URI:-}"
  printf '%q ' "${cmd[@]}"; echo
  exit 0
fi
[ -x "$prefix/bin/runqcheck" ] || "${install[@]}"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  printf 'junit=%s\nsarif=%s\n' "$junit" "$sarif" >>"$GITHUB_OUTPUT"
fi
exec "${cmd[@]}"
