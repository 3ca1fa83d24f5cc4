#!/usr/bin/env bash
# ci/install.sh — install runqcheck from this tree into a prefix (the step of the
# Dockerfile, action.yml and ci/test).
#
# usage: ci/install.sh [--presets P,P...] [--build-dir DIR] [--dry-run] PREFIX
#   --presets   the gate presets to install the Debian packages for (default native,relacy;
#               `all`: every preset and the self-tests'): ci/lib.sh's rq_packages, as root
#   --build-dir where the command line binary is built (default build/install in this
#               tree when writable, else a temporary dir); keep it (and ccache's dir)
#               between CI runs and a re-install takes seconds
#   --dry-run   print the packages and the build dir; change nothing
# Installs PREFIX/bin/runqcheck (`gate`, and `replay`, `explain`, `corpus`, `pct`, `stress`
# through the binary in PREFIX/libexec/runqcheck, built with the native preset's flags) and
# PREFIX/share/runqcheck (the tree the gate builds from, docs/ included), and lists what
# it installed in PREFIX/share/runqcheck/install.txt.
# Exit status: 0 installed, 2 bad usage or a failed step (one error: line).
source "$(dirname "$0")/lib.sh"
presets=(native relacy) prefix="" bdir="" dry=0
need() { [ $# -ge 2 ] && [ -n "$2" ] || rq_die "$1 needs a value (usage: ci/install.sh" \
  "[--presets P,P...] [--build-dir DIR] [--dry-run] PREFIX)"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --presets) need "$@"; IFS=', ' read -r -a presets <<<"$2"; shift 2;;
    --presets=*) IFS=', ' read -r -a presets <<<"${1#*=}"; shift;;
    --build-dir) need "$@"; bdir=$2; shift 2;;
    --build-dir=*) bdir=${1#*=}; shift;;
    --dry-run) dry=1; shift;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    -*) rq_die "unknown flag '$1' (usage: ci/install.sh [--presets P,P...] [--build-dir DIR]" \
          "[--dry-run] PREFIX)";;
    *) [ -z "$prefix" ] || rq_die "two prefixes: '$prefix' and '$1'"; prefix=$1; shift;;
  esac
done
[ -n "$prefix" ] || rq_die "usage: ci/install.sh [--presets P,P...] [--build-dir DIR]" \
  "[--dry-run] PREFIX"
[ "${presets[*]}" != all ] || presets=()
pkgs=$(rq_packages "${presets[@]}") || exit 2
if [ -z "$bdir" ]; then
  if [ -w "$RQ_ROOT" ]; then bdir=$RQ_ROOT/build/install
  else bdir=$(mktemp -d "${TMPDIR:-/tmp}/runqcheck-install.XXXXXX") || exit 2
       trap 'rm -rf "$bdir"' EXIT; fi
fi
if [ "$dry" = 1 ]; then
  echo "presets: ${presets[*]:-all}"
  echo "packages: $(echo $pkgs)"
  echo "build dir: $bdir"
  exit 0
fi
rq_ensure_packages "${presets[@]}"
mkdir -p "$bdir" "$prefix" && bdir=$(cd "$bdir" && pwd) && prefix=$(cd "$prefix" && pwd) \
  || rq_die "cannot create '$bdir' or '$prefix'"
cd "$RQ_ROOT"
# The command line binary, with the native preset's flags (ccache then serves it from
# any native build of the same tree) and only the families it needs.
rq_log "building the command line (replay, explain, ...) in $bdir"
if ! { cmake --preset native -B "$bdir" -DRUNQCHECK_CHECKERS="mutants;fuzz;stress" \
         && cmake --build "$bdir" -j "$(rq_jobs)" --target runqcheck; } >"$bdir/install.log" 2>&1
then
  tail -20 "$bdir/install.log" >&2
  rq_die "building the command line failed (log: $bdir/install.log)"
fi
cmake --install "$bdir" --prefix "$prefix" >/dev/null || rq_die "cmake --install failed"
{ echo "presets: ${presets[*]:-all}"; echo "packages: $(echo $pkgs)"; } \
  >"$prefix/share/runqcheck/install.txt" || rq_die "cannot write $prefix/share/runqcheck"
rq_log "installed: $prefix/bin/runqcheck (gate, replay, explain, corpus, pct, stress)"
