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
  -h|--help) cat <<'EOF'
usage: runqcheck gate --subject SPEC [--presets P,P] [--columns C,C] [--junit F] [--sarif F]
       runqcheck replay SEED           re-run a saved execution step by step (exit 1: it fails)
       runqcheck explain SEED --html F draw that execution as a swimlane page
       runqcheck corpus DIR|SEED...    replay many seeds (exit 1 if one fails)
       runqcheck pct SEED              search its scenario with PCT
       runqcheck stress --workload W   run the queues in an M:N scheduler on real threads
       runqcheck --version
gate checks your run-queue port with every checker and prints a verdict matrix
(runqcheck gate --help); SPEC is NAME|HEADER|TYPE|INCLUDE_DIR or a .cmake file
calling runqcheck_add_subject, paths relative to the current directory. The
other subcommands take --help. Exit status: 0 passed, 1 a check failed, 2 bad
usage or set-up. Docs: share/runqcheck/docs/porting.md, section 7.
EOF
             exit 0;;
  "") echo "runqcheck: no subcommand (runqcheck --help)" >&2; exit 2;;
  replay|explain|corpus|pct|stress) ;;
  *) echo "runqcheck: unknown subcommand '$1' (gate, replay, explain, corpus, pct, stress;" \
       "runqcheck --help)" >&2; exit 2;;
esac
[ -x "$cli" ] || { echo "runqcheck: '$1': this install has no command-line binary" \
  "($cli): install again with ci/install.sh PREFIX from a runqcheck checkout" >&2; exit 2; }
exec "$cli" "$@"
