// tests/unit/isolate_selftest.cpp — the binary isolate.py's self-test runs:
// a test that crashes (SIGSEGV) between one that passes and two that run
// after it (one failing with a port's fatal error, one passing), then hangs.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "runqcheck/check.hpp"
#include "test_support.hpp"

TEST(Isolate, Passes) {}
TEST(Isolate, Crashes) { std::raise(SIGSEGV); }
TEST(Isolate, FatalShowsItsMessage) {
  rqtest::fatal_throws guard;
  runqcheck::native::fatal(runqcheck::fatal_info{"acme: ring overflow", "h=1 t=9", {}});
}
TEST(Isolate, RunsAfterTheCrash) {}
// Four hangs (the watchdog's exit status, at once): isolate.py stops after the
// third, leaving the fourth and Hang.Last not run.
TEST(Hang, First) { std::_Exit(3); }
TEST(Hang, Second) { std::_Exit(3); }
TEST(Hang, Third) { std::_Exit(3); }
TEST(Hang, Fourth) { std::_Exit(3); }
TEST(Hang, Last) {}
