# ci/lib.sh — shared by ci/gate, ci/test and ci/mutants. Source it; do not run.
set -euo pipefail

RQ_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RQ_PY=/usr/bin/python3   # Debian's python: python3-z3 is installed for it

# Debian packages the project needs (Debian 12). See docs/ARCHITECTURE.md.
RQ_PACKAGES=(
  chromium
  build-essential cmake ninja-build ccache git python3 python3-z3
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev relacy-dev
  clang-16 libfuzzer-16-dev libclang-rt-16-dev
  g++-aarch64-linux-gnu qemu-user-static
  spin libboost-context-dev libcli11-dev golang-1.19-go golang-1.19-src
)
RQ_ARM64_PACKAGES=(libgtest-dev:arm64 librapidcheck-dev:arm64)

rq_log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
rq_die() { printf 'error: %s\n' "$*" >&2; exit 2; }

# Install what is missing (apt-get, when root); otherwise name it and stop.
rq_ensure_packages() {
  local missing=() p
  for p in "${RQ_PACKAGES[@]}" "${RQ_ARM64_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" != 0 ]; then
    rq_die "missing Debian packages (run as root or install them): ${missing[*]}"
  fi
  rq_log "installing ${#missing[*]} Debian packages: ${missing[*]}"
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || rq_die "apt-get update failed"
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || rq_die "apt-get install failed for: ${missing[*]}"
}

rq_jobs() { nproc 2>/dev/null || echo 2; }

# rq_preset NAME [ctest args...]: configure, build and test one preset;
# results go to build/NAME/junit.xml. Returns ctest's status.
rq_preset() {
  local preset=$1; shift
  cd "$RQ_ROOT"
  mkdir -p build/logs
  rm -f "build/$preset/stage-failed"
  rq_log "preset $preset: configure"
  cmake --preset "$preset" >"$RQ_ROOT/build/logs/$preset.log" 2>&1 || { rq_configure_failed "$preset"; return 1; }
  rq_log "preset $preset: build"
  if ! cmake --build --preset "$preset" -j "$(rq_jobs)" >>"$RQ_ROOT/build/logs/$preset.log" 2>&1; then
    tail -40 "$RQ_ROOT/build/logs/$preset.log" >&2
    rq_build_failed "$preset"
    return 1
  fi
  rq_log "preset $preset: test $*"
  local junit="$RQ_ROOT/build/$preset/junit.xml"
  rm -f "$junit"
  ctest --preset "$preset" --output-junit "$junit" --test-output-size-passed 400000 \
    --test-output-size-failed 4000000 "$@" 2>&1 | tee "build/$preset/ctest.log"
  return "${PIPESTATUS[0]}"
}

rq_configure_failed() { mkdir -p "$RQ_ROOT/build/$1"; tail -30 "$RQ_ROOT/build/logs/$1.log" >&2; echo "configure" >"$RQ_ROOT/build/$1/stage-failed"; }
rq_build_failed() { mkdir -p "$RQ_ROOT/build/$1"; echo "build" >"$RQ_ROOT/build/$1/stage-failed"; }
