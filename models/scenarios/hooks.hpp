// models/scenarios/hooks.hpp — the checks of the scenario runners that need an
// optional subject hook (runqcheck/subject.hpp), and the one line a checker
// prints for each check it cannot apply. ci/verdict.py collects those lines
// into the verdict; `ci/gate --strict` fails on any.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "runqcheck/subject.hpp"
#include "counters.hpp"
#include "scenario.hpp"

namespace runqcheck::model {

inline void not_applied(const std::string& check, const char* why, const char* subject) {
  std::printf("runqcheck: not applied: %s: %s (subject %s)\n", check.c_str(), why, subject);
  std::fflush(stdout);
}

// A scenario that starts the counters near the wrap needs S::set_runq_counters,
// or a runner whose backend found the counters by behaviour (counters.hpp):
// `unfound` is then "" (found) or why not; nullptr: the runner has no finder.
template <class S>
bool runs_as_written(const scenario& sc, const std::string* unfound = nullptr) {
  return sc.start_counter == 0 || has_set_runq_counters<S> ||
         (unfound != nullptr && unfound->empty());
}

// The value `below` short of the wrap of S's counters: 2^W - below, W the
// width of runq_counter_t<S> (subject.hpp).
template <class S>
runq_counter_t<S> before_wrap(std::uint64_t below) {
  using C = runq_counter_t<S>;
  return static_cast<C>(C(0) - static_cast<C>(below));
}

// A scenario's start_counter at S's width: written 2^32 - k, it is 2^W - k;
// written 2^31 - k, 2^(W-1) - k (counters.hpp's start_at_width).
template <class S>
runq_counter_t<S> start_counter(const scenario& sc) {
  if (sc.start_counter == 0) return 0;
  using C = runq_counter_t<S>;
  return static_cast<C>(start_at_width(sc.start_counter, static_cast<std::uint8_t>(sizeof(C))));
}

// Prints a line for every scenario of `cat` that S cannot run as written and,
// when the runner checks it, for the steal-size invariant. Returns how many.
// `unfound` as for runs_as_written.
template <class S>
int report_not_applied(const char* subject, const std::vector<scenario>& cat, bool steal_size,
                       const std::string* unfound = nullptr) {
  int n = 0;
  std::string why = "needs S::set_runq_counters (counters near the wrap)";
  if (unfound != nullptr)
    why = "needs S::set_runq_counters or counters found by behaviour (counters near the wrap), "
          "not found: " + *unfound;
  for (const scenario& sc : cat) {
    if (runs_as_written<S>(sc, unfound)) continue;
    not_applied("scenario " + std::string(sc.name), why.c_str(), subject);
    n++;
  }
  if (steal_size && !has_runq_counters<S>) {
    not_applied("steal-size invariant (a lone steal takes ceil(n/2))", "needs S::runq_counters",
                subject);
    n++;
  }
  return n;
}

}  // namespace runqcheck::model
