#!/bin/sh
# runqcheck — the installed command (CMakeLists.txt's install rules).
#   runqcheck gate [ci/gate's flags]   check a port: ci/gate of the installed tree,
#                                      run from your own directory (relative paths
#                                      are yours; --build-dir wherever you like)
#   runqcheck replay|explain|corpus|... the command-line binary (cli/runqcheck.cpp)
#   runqcheck --version
# Exit status: the subcommand's; 2 bad usage.
set -eu
here=$(dirname "$(readlink -f "$0")")
prefix=$(dirname "$here")
share=$prefix/share/runqcheck
cli=$prefix/libexec/runqcheck/runqcheck
case "${1:-}" in
  gate) shift; exec "$share/ci/gate" "$@";;
  --version) sed -n 's/^project(runqcheck VERSION \([0-9.]*\).*/runqcheck \1/p' \
               "$share/CMakeLists.txt"; exit 0;;
  -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
  "") echo "runqcheck: no subcommand (runqcheck --help)" >&2; exit 2;;
esac
[ -x "$cli" ] || { echo "runqcheck: '$1': this install has no command-line binary" \
  "($cli; install from a build of the native preset)" >&2; exit 2; }
exec "$cli" "$@"
