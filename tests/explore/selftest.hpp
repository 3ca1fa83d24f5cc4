// tests/explore/selftest.hpp — what the engine's A/B self-tests share
// (await.cpp, symmetry.cpp): an expectation printed ok or FAIL, and the
// exit status of a run on the engine as built, or on one broken on purpose
// (the teeth builds, --expect-mismatch).
#pragma once

#include <cstdio>
#include <string>

namespace runqcheck::explore::selftest {

// Prints "ok  " or "FAIL" and what; returns holds.
inline bool expect(bool holds, const std::string& what) {
  std::printf("%s %s\n", holds ? "ok  " : "FAIL", what.c_str());
  return holds;
}

// The exit status of test name. same: every A/B comparison held; ok: the
// rest of its expectations. With expect_mismatch, 0 only if a comparison
// failed (the broken engine was caught).
inline int verdict(const char* name, bool same, bool ok, bool expect_mismatch) {
  if (expect_mismatch) {
    std::printf("%s: %s\n", name,
                same ? "FAILED: the broken engine went unnoticed" : "the broken engine was caught");
    return same ? 1 : 0;
  }
  std::printf("%s: %s\n", name, same && ok ? "all as expected" : "FAILED");
  return same && ok ? 0 : 1;
}

}  // namespace runqcheck::explore::selftest
