// tests/unit/repro_listener.hpp — for every failed test, a command line that
// re-runs only it ("reproduce: <binary> --gtest_filter=Suite.Test" plus the
// environment that changes the run); it also hands that command to the
// watchdog (models/watchdog) so a hang prints it too.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "../../models/watchdog/watchdog.hpp"

namespace rqtest {

inline std::string self_exe() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("<this binary>");
}

// "VAR=value " for each variable that changes what a test does.
inline std::string repro_env() {
  std::string out;
  for (const char* v : {"RUNQCHECK_SCALE", "RUNQCHECK_WATCHDOG_S", "RUNQCHECK_WATCHDOG_SECONDS",
                        "RUNQCHECK_MUTANT"}) {
    if (const char* e = std::getenv(v)) out += std::string(v) + "='" + e + "' ";
  }
  return out;
}

inline std::string repro_command(const ::testing::TestInfo& t) {
  std::string cmd =
      repro_env() + self_exe() + " --gtest_filter=" + t.test_suite_name() + "." + t.name();
  if (::testing::GTEST_FLAG(shuffle))
    cmd +=
        " --gtest_random_seed=" + std::to_string(::testing::UnitTest::GetInstance()->random_seed());
  return cmd;
}

class repro_listener : public ::testing::EmptyTestEventListener {
  void OnTestStart(const ::testing::TestInfo& t) override {
    runqcheck::wd::set_reproducer(repro_command(t));
  }
  void OnTestEnd(const ::testing::TestInfo& t) override {
    if (t.result() != nullptr && t.result()->Failed())
      std::printf("reproduce: %s\n", repro_command(t).c_str());
    std::fflush(stdout);
  }
};

// Registered before main (gtest_main) runs: UnitTest is a function-local static.
inline const bool repro_listener_registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new repro_listener);
  return true;
}();

}  // namespace rqtest
