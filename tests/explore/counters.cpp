// tests/explore/counters.cpp — the finder of a port's ring counters by
// behaviour (models/scenarios/counters.hpp) against the port's own hooks,
// for the subject under test (one with S::runq_counters): on a fresh P, in
// the set-up of a one-execution program, the two locations it finds, set to
// 2^W - 2 (W the width it found), must be what S::runq_counters reads (head
// = tail = 2^W - 2, W the hook's width); then Cap Gs put and got again
// cross the wrap in FIFO order and leave head = tail = Cap - 2 (mod 2^W).
// Exit 0: agreed; 1: not, with a line saying how.
#include <cstdio>
#include <string>

#include "runqcheck_subject.hpp"
#include "scenario_prog.hpp"

namespace {

namespace ex = runqcheck::explore;
namespace model = runqcheck::model;
using B = runqcheck::explore::scenario_run::B;
constexpr std::uint32_t Cap = 4;
using S = subject_under_test<B, Cap>;
using C = runqcheck::runq_counter_t<S>;
static_assert(runqcheck::has_runq_counters<S>, "the finder is checked against S::runq_counters");

struct finder final : ex::program {
  std::string bad = "the set-up did not run";
  std::optional<typename S::schedt> sched;
  std::optional<runqcheck::g<B>> gs[Cap + 1];
  std::optional<typename S::p> pp;
  int threads() const override { return 1; }
  void setup() override {
    sched.emplace(1);
    for (std::uint32_t i = 0; i <= Cap; i++) gs[i].emplace(i);
    pp.emplace(*sched, 0);
    model::found_counters<B> f = model::find_counters<S, B>(*pp, *gs[Cap]);
    if (!f.why.empty()) {
      bad = "not found: " + f.why;
      return;
    }
    if (f.bytes != sizeof(C)) {
      bad = "found " + std::to_string(f.bytes) + "-byte counters, the hooks' are " +
            std::to_string(sizeof(C));
      return;
    }
    const C v = static_cast<C>(model::start_at_width(0xFFFFFFFEu, f.bytes));
    B::set_setup_value(f.head, f.head_value(v));
    B::set_setup_value(f.tail, v);
    auto c = S::runq_counters(*pp);
    if (c.head != v || c.tail != v) {
      bad = "set head and tail to " + std::to_string(v) + ", the hook reads head " +
            std::to_string(c.head) + " tail " + std::to_string(c.tail);
      return;
    }
    for (std::uint32_t i = 0; i < Cap; i++) S::runqput(*pp, &*gs[i], false);
    for (std::uint32_t i = 0; i < Cap; i++) {
      auto r = S::runqget(*pp);
      if (r.gp != &*gs[i]) {
        bad = "across the wrap, runqget " + std::to_string(i) + " did not return G" +
              std::to_string(i);
        return;
      }
    }
    c = S::runq_counters(*pp);
    const C end = static_cast<C>(v + Cap);
    if (c.head != end || c.tail != end) {
      bad = "after the wrap the hook reads head " + std::to_string(c.head) + " tail " +
            std::to_string(c.tail) + ", not " + std::to_string(end);
      return;
    }
    bad.clear();
  }
  void run(int) override {}
  void finish() override {}
  void teardown() override {
    pp.reset();
    for (auto& g : gs) g.reset();
    sched.reset();
  }
};

}  // namespace

int main() {
  finder p;
  ex::options o;
  o.budget = 1;
  ex::stats st = ex::explore(p, o);
  if (st.failed) p.bad = "the port failed: " + st.failure;
  if (!p.bad.empty()) {
    std::printf("explore_counters %s: FAILED: %s\n", subject_name, p.bad.c_str());
    return 1;
  }
  std::printf("explore_counters %s: the counters found by behaviour are the hooks' (%zu bytes), "
              "and run across the wrap\n", subject_name, sizeof(C));
  return 0;
}
