#!/bin/sh
# tests/unit/isolate_test.sh BIN — isolate.py on isolate_selftest's binary:
# the crash is named with its signal, test and reproducer, the tests after it
# still run, the crashing one is re-run alone, a fatal shows its message; after
# three hangs (the watchdog's exit 3) the rest is not run, and said so.
out=$(/usr/bin/python3 "$(dirname "$0")/isolate.py" "$1" 2>&1); rc=$?
echo "$out"
fail() { echo "isolate_test: FAILED: $*"; exit 1; }
[ $rc = 1 ] || fail "exit $rc, not 1"
for want in "runqcheck: crash: SIGSEGV in Isolate.Crashes" \
            "reproduce: $1 --gtest_filter=Isolate.Crashes" \
            "[       OK ] Isolate.RunsAfterTheCrash" \
            "fatal error: acme: ring overflow h=1 t=9" \
            "Isolate.Crashes (SIGSEGV) run alone: dies again" \
            "runqcheck: crash: watchdog exit 3 (a hang) in Hang.Third" \
            "isolate.py: stopped after 3 hangs: 2 tests not run" \
            "isolate.py: to run them: $1 --gtest_filter=Hang.Fourth:Hang.Last"; do
  echo "$out" | grep -qF -- "$want" || fail "no line '$want'"
done
# After the third hang, nothing runs: each hang costs the watchdog's wait.
echo "$out" | grep -qF -- "[ RUN      ] Hang.Fourth" && fail "Hang.Fourth ran after 3 hangs"
# Under a cross build's emulator (--emulator ARGs first; `env RQ_EMULATED=1` here): the
# same crash, its reproduce: line running the binary through the emulator.
out=$(/usr/bin/python3 "$(dirname "$0")/isolate.py" --emulator=env --emulator=RQ_EMULATED=1 \
  "$1" --gtest_filter='Isolate.*' 2>&1)
for want in "runqcheck: crash: SIGSEGV in Isolate.Crashes" \
            "reproduce: env RQ_EMULATED=1 $1 --gtest_filter=Isolate.Crashes" \
            "Isolate.Crashes (SIGSEGV) run alone: dies again"; do
  echo "$out" | grep -qF -- "$want" || { echo "$out"; fail "emulated: no line '$want'"; }
done
echo "isolate_test: passed"
