#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: builds the libFuzzer targets of
# fuzz/ and puts each in $OUT with its dictionary (<target>.dict) and seed
# corpus (<target>_seed_corpus.zip).
#
# Compiler and flags come from the environment ($CXX, $CXXFLAGS,
# $LIB_FUZZING_ENGINE, $SANITIZER), never from this file: the same flags
# the `fuzz` preset uses, minus the sanitizers, which ClusterFuzzLite picks.
# Local check without Docker (clang-16, libFuzzer):
#   SRC=$PWD/.. OUT=/tmp/out CXX=clang++-16 SANITIZER=address \
#   CXXFLAGS="-O1 -g -fsanitize=address,fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer .clusterfuzzlite/build.sh
#
# RUNQCHECK_FUZZ_TARGETS overrides the list (space-separated).
root="$SRC/runqcheck"
[ -d "$root" ] || root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
read -r -a targets <<<"${RUNQCHECK_FUZZ_TARGETS:-fuzz_interleave fuzz_sequential fuzz_seedfile}"

flags="$CXXFLAGS"
# Relacy switches fibers on every step: ASan's fake stacks make that ~280x
# slower (docs: toolchain-notes.md), so use-after-return stays off.
if [ "${SANITIZER:-}" = address ]; then
  flags="$flags -fsanitize-address-use-after-return=never"
fi

build="$root/build/cflite-${SANITIZER:-none}"
cmake -S "$root" -B "$build" -G Ninja \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_CXX_FLAGS="$flags" \
  -DRUNQCHECK_CHECKERS=fuzz \
  -DRUNQCHECK_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DRUNQCHECK_WITH_EXAMPLES=OFF \
  -DRUNQCHECK_PRE125_FLAVOR=OFF
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"

for t in "${targets[@]}"; do
  cp "$build/bin/$t" "$OUT/$t"
  if [ -f "$root/fuzz/dict/$t.dict" ]; then
    cp "$root/fuzz/dict/$t.dict" "$OUT/$t.dict"
  fi
  corpus="$root/fuzz/corpus/$t"
  if [ -d "$corpus" ] && [ -n "$(find "$corpus" -type f -print -quit)" ]; then
    rm -f "$OUT/${t}_seed_corpus.zip"
    (cd "$corpus" && find . -type f | zip -q -j "$OUT/${t}_seed_corpus.zip" -@)
  fi
done
