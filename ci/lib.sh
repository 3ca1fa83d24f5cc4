# ci/lib.sh — shared by ci/gate, ci/test and ci/mutants. Source it; do not run.
set -euo pipefail

RQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RQ_PY=/usr/bin/python3   # Debian's python: python3-z3 is installed for it
# ccache keys relative to the checkout, so that another clone of the same
# tree (a CI run, a user's second worktree) reuses the compiled objects.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$RQ_ROOT}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

# Debian packages (Debian 12), by what needs them (docs/porting.md, section 7).
# Any gate, and the command line (replay, explain, corpus, pct, stress) ci/install.sh builds:
RQ_PKGS_BASE=(build-essential cmake ninja-build ccache python3
  relacy-dev libcli11-dev libboost-context-dev)
# A gate preset's checks of a port (ci/gate --subject); the Go toolchain is the
# diff vs Go column's, the arm64 ones come from the arm64 architecture.
RQ_PKGS_native=(libgtest-dev libgmock-dev librapidcheck-dev golang-1.27-go golang-1.27-src)
RQ_PKGS_relacy=()
RQ_PKGS_asan=(libgtest-dev libgmock-dev librapidcheck-dev)
RQ_PKGS_tsan=(libgtest-dev libgmock-dev librapidcheck-dev)
RQ_PKGS_fuzz=(clang-16 libfuzzer-16-dev libclang-rt-16-dev)
RQ_PKGS_arm64=(g++-aarch64-linux-gnu qemu-user-static libgtest-dev:arm64
  librapidcheck-dev:arm64)
RQ_PKGS_arm64_tsan=("${RQ_PKGS_arm64[@]}")
# The harness's own builds and tests (ci/test, ci/gate without --subject, ci/mutants,
# ci/bench): the proofs (z3, SPIN), Google Benchmark, the explain page's browser check,
# the SARIF schema check, the C ports' second compiler (clang), the aarch64 disassembly
# audit (the cross compiler; the arm64 preset's libraries and qemu are that preset's).
RQ_PKGS_selftest=(git python3-z3 python3-jsonschema libbenchmark-dev spin chromium clang-16
  g++-aarch64-linux-gnu)
RQ_ALL_PRESETS=(native relacy asan tsan fuzz arm64 arm64-tsan)

rq_log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
rq_die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# rq_packages [PRESET... | selftest]: the packages those need, once each, in order (the
# base set first); no argument: every preset's and the self-tests'.
rq_packages() {
  local want=("$@") p v seen=" " out=()
  [ $# -gt 0 ] || want=("${RQ_ALL_PRESETS[@]}" selftest)
  for p in base "${want[@]}"; do
    v=RQ_PKGS_${p//-/_}
    [[ $p == base ]] && v=RQ_PKGS_BASE
    declare -p "$v" >/dev/null 2>&1 || rq_die "unknown preset '$p' (presets:" \
      "${RQ_ALL_PRESETS[*]})"
    local -n list=$v
    for x in "${list[@]}"; do
      case "$seen" in *" $x "*) ;; *) seen+="$x "; out+=("$x");; esac
    done
    unset -n list
  done
  printf '%s\n' "${out[@]}"
}

# rq_ensure_packages [PRESET... | selftest]: install what rq_packages names and is
# missing (apt-get, when root); otherwise name it and stop.
rq_ensure_packages() {
  local missing=() p pkgs
  pkgs=$(rq_packages "$@") || exit 2
  for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    rq_die "missing Debian packages (run as root or install them; golang-1.27-* come from" \
      "trixie-backports, see README): ${missing[*]}"
  fi
  rq_log "installing ${#missing[*]} Debian packages: ${missing[*]}"
  case " ${missing[*]} " in
    *":arm64 "*) dpkg --print-foreign-architectures | grep -qx arm64 \
                   || dpkg --add-architecture arm64;;
  esac
  case " ${missing[*]} " in *" golang-1.27-"*) rq_add_backports;; esac
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || rq_die "apt-get update failed"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || rq_die "apt-get install failed for: ${missing[*]}"
}

# Go 1.27 comes from trixie-backports (installable on Debian 12): a deb822
# source on the same mirror as the system's, signed by the Debian archive
# keyring. Backports keep their default pin (100): apt takes from there only
# what is asked for by name (golang-1.27-go pulls just golang-1.27-src).
RQ_BACKPORTS_FILE=/etc/apt/sources.list.d/runqcheck-trixie-backports.sources
rq_add_backports() {
  if grep -rqs 'trixie-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    return 0
  fi
  local mirror
  mirror=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\)[[:space:]]*$/\1/p' \
    /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  rq_log "adding trixie-backports ($RQ_BACKPORTS_FILE) for golang-1.27-go"
  printf '%s\n' 'Types: deb' "URIs: ${mirror:-http://deb.debian.org/debian}" \
    'Suites: trixie-backports' 'Components: main' \
    'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >"$RQ_BACKPORTS_FILE"
}

# Parallel jobs of a build: ci/gate --jobs N (RQ_JOBS), else one per core.
rq_jobs() { echo "${RQ_JOBS:-$(nproc 2>/dev/null || echo 2)}"; }

# rq_port_tests PRESET DIR: run `ctest -L port -LE nightly` in DIR (built by
# rq_build_preset DIR port); results: DIR/junit.xml.
# $RQ_COLUMNS (ci/gate --columns: column ids): only the checks of those columns.
# A check that passed before with the same binaries and inputs is not run
# again (ci/test_cache.py); $RUNQCHECK_NO_CACHE=1 (ci/gate --no-cache) runs
# every check (and records the results).
rq_port_tests() {
  local preset=$1 dir=$2 only=() skip rc=0
  [ -z "${RQ_COLUMNS:-}" ] || only=(-L "^column:(${RQ_COLUMNS// /|})\$")
  local sel=(-L port -LE nightly "${only[@]}")
  local reuse=()
  [ "${RUNQCHECK_NO_CACHE:-0}" != 1 ] || reuse=(--no-reuse)
  if ! skip=$("$RQ_PY" "$RQ_ROOT/ci/test_cache.py" plan "${reuse[@]}" "$dir" -- "${sel[@]}")
  then
    rq_ctest "$preset" "$dir" junit "${sel[@]}"; return
  fi
  case "$skip" in
    ALL) rq_log "preset $preset: every check cached (passed before, same binaries and inputs)";;
    "") rq_ctest "$preset" "$dir" junit "${sel[@]}" || rc=$?;;
    *) rq_ctest "$preset" "$dir" junit "${sel[@]}" -E "$skip" || rc=$?;;
  esac
  "$RQ_PY" "$RQ_ROOT/ci/test_cache.py" merge "$dir" >&2 || rc=1
  return "$rc"
}

# rq_port_targets DIR: the targets whose binaries DIR's port checks (label
# port, not nightly; of the columns $RQ_COLUMNS names, when set) run
# (ci/ctest_files.py). Prints nothing when a check names none (then the whole
# tree is built).
rq_port_targets() {
  "$RQ_PY" "$RQ_ROOT/ci/ctest_files.py" port-targets "$1"
}

# rq_build_preset PRESET DIR all|port [cmake -D args...]: configure and
# build the whole tree (all) or what its port checks run (port); log in
# DIR/build.log.
rq_build_preset() {
  local preset=$1 dir=$2 what=$3; shift 3
  mkdir -p "$dir"
  local log=$dir/build.log
  rm -f "$dir/stage-failed" "$dir/junit.xml"
  rq_log "preset $preset: configure ($dir)"
  if ! cmake --preset "$preset" -B "$dir" "$@" >"$log" 2>&1; then
    grep -m3 -A2 'CMake Error' "$log" >&2 || tail -20 "$log" >&2
    echo "configure $log" >"$dir/stage-failed"; return 1
  fi
  local targets=()
  if [ "$what" = port ]; then read -r -a targets <<<"$(rq_port_targets "$dir")"; fi
  rq_log "preset $preset: build${targets[0]:+ (${#targets[@]} targets of the port checks)}"
  if ! cmake --build "$dir" -j "$(rq_jobs)" ${targets[0]:+--target "${targets[@]}"} \
       >>"$log" 2>&1; then
    grep -m5 -E 'error:|static assertion' "$log" >&2 || tail -20 "$log" >&2
    echo "build $log" >"$dir/stage-failed"; return 1
  fi
  rq_log "preset $preset: built"
}

# rq_ctest PRESET DIR NAME [ctest args...]: the preset's test environment,
# JUnit to DIR/NAME.xml, log to DIR/NAME.log. Returns ctest's status.
rq_ctest() {
  local preset=$1 dir=$2 name=$3; shift 3
  local env=()
  case "$preset" in
    asan|fuzz) env=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
                    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1);;
    tsan) env=(TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1);;
    arm64-tsan) env=(TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1); set -- "$@" -R '^unit';;
  esac
  rq_log "preset $preset: ctest $*"
  env "${env[@]}" ctest --test-dir "$dir" -j "${RQ_JOBS:-2}" --output-on-failure \
    --output-junit "$dir/$name.xml" \
    --test-output-size-passed 400000 --test-output-size-failed 4000000 "$@" 2>&1 \
    | tee "$dir/$name.log"
  return "${PIPESTATUS[0]}"
}
