// tests/unit/isolate_selftest.cpp — the binary isolate.py's self-test runs:
// a test that crashes (SIGSEGV) between one that passes and two that run
// after it (one failing with a port's fatal error, one passing).
#include <gtest/gtest.h>

#include <csignal>

#include "runqcheck/check.hpp"
#include "test_support.hpp"

TEST(Isolate, Passes) {}
TEST(Isolate, Crashes) { std::raise(SIGSEGV); }
TEST(Isolate, FatalShowsItsMessage) {
  rqtest::fatal_throws guard;
  runqcheck::native::fatal(runqcheck::fatal_info{"acme: ring overflow", "h=1 t=9", {}});
}
TEST(Isolate, RunsAfterTheCrash) {}
