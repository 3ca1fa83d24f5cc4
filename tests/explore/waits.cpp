// How the engine ends a run whose threads wait (engine.hpp: "waits for
// good"), on small programs written on the seam, under SC and RC11:
//   await_sometimes  t0 waits for x; t1 sets x only if it reads y == 0; t2
//                    sets y. Where t1 reads y == 1, t0 waits for good: a
//                    hang, a failure, whose replay fails the same way.
//   spin_sometimes   the same with a CAS-style retry loop and no
//                    spin_pause (the repeated-read rule blocks it).
//   await_always     t1 always sets x: no failure, every run exhausted,
//                    none waits for good (t0's stale waits count blocked).
//   park_ends        with options::waits_end, t0 waits for a wakeup that
//                    only some runs send: each run is judged by finish()
//                    (counted complete), none is a failure.
//   finish_locked    finish() spins under a B::mutex on a value no thread
//                    sets: a failure naming the spin, its guard's unlock
//                    while that failure unwinds not a second one (which
//                    ended the process, std::terminate).
// Exit 0 only if every expectation holds; each line says what was found.
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "runqcheck/backend/explore.hpp"
#include "explore/search.hpp"

namespace {

using B = runqcheck::explore_backend;
namespace ex = runqcheck::explore;
using mo = std::memory_order;

struct mem {
  B::atomic<int> x{0}, y{0};
};
using body = std::function<void(mem&)>;

struct prog final : ex::program {
  std::vector<body> threads_;
  std::optional<mem> m;
  std::uint64_t finished = 0;
  explicit prog(std::vector<body> t) : threads_(std::move(t)) {}
  int threads() const override { return static_cast<int>(threads_.size()); }
  void setup() override { m.emplace(); }
  void run(int i) override { threads_[static_cast<std::size_t>(i)](*m); }
  void finish() override { finished++; }
  void teardown() override { m.reset(); }
};

void await_x(mem& m) {
  while (m.x.load(mo::acquire) == 0) B::spin_pause();
}
void spin_x(mem& m) {
  while (m.x.load(mo::acquire) == 0) {
  }
}
void set_x_if_y0(mem& m) {
  if (m.y.load(mo::relaxed) == 0) m.x.store(1, mo::release);
}

struct expect {
  const char* name;
  std::vector<body> threads;
  bool waits_end;
  bool hang;  // expect the "waits for good" failure
};

// One expectation: prints it, FAIL-marked when it does not hold.
bool expect_that(bool holds, const expect& c, ex::model md, const char* what) {
  std::printf("%s %s %s: %s\n", holds ? "ok  " : "FAIL", c.name, ex::model_name(md), what);
  return holds;
}

bool run(const expect& c, ex::model md) {
  prog p(c.threads);
  ex::options o;
  o.m = md;
  o.waits_end = c.waits_end;
  ex::stats s;
  {
    s = ex::explore(p, o);
  }
  std::string verdict = s.failed      ? "FAILED: " + s.failure + " (path " + s.path + ")"
                        : s.exhausted ? "exhausted"
                                      : "NOT exhausted";
  std::printf("%s %s: %llu complete, %llu blocked, %llu ended waiting for good, %s\n", c.name,
              ex::model_name(md), static_cast<unsigned long long>(s.complete),
              static_cast<unsigned long long>(s.blocked),
              static_cast<unsigned long long>(s.for_good), verdict.c_str());
  if (c.hang) {
    bool ok = expect_that(s.failed && s.failure.find("waits for good") != std::string::npos, c,
                          md, "fails: a thread waits for good");
    if (!ok) return false;
    prog q(c.threads);  // the replay: the same failure
    o.replay = s.path;
    ex::stats r = ex::explore(q, o);
    return expect_that(r.failed && r.failure == s.failure, c, md,
                       ("replay " + s.path + " fails the same way").c_str());
  }
  if (c.waits_end)
    return expect_that(!s.failed && s.exhausted && s.for_good > 0 && p.finished == s.complete &&
                           s.complete >= s.for_good,
                       c, md, "exhausted; the runs that wait for good are judged by finish()");
  return expect_that(!s.failed && s.exhausted && s.for_good == 0 && s.complete > 0, c, md,
                     "exhausted; no run waits for good");
}

// finish_locked: one thread that does nothing; finish() spins locked.
struct locked_finish final : ex::program {
  std::optional<mem> m;
  std::optional<B::mutex> mu;
  int threads() const override { return 1; }
  void setup() override { m.emplace(), mu.emplace(); }
  void run(int) override {}
  void finish() override {
    std::lock_guard<B::mutex> g(*mu);
    while (m->x.load(mo::acquire) == 0) {
    }
  }
  void teardown() override { m.reset(), mu.reset(); }
};

bool finish_locked(ex::model md) {
  locked_finish p;
  ex::options o;
  o.m = md;
  ex::stats s = ex::explore(p, o);
  std::printf("finish_locked %s: %s\n", ex::model_name(md),
              s.failed ? s.failure.c_str() : "passed");
  return expect_that(s.failed && s.failure.find("a spin that no thread can end") !=
                                     std::string::npos,
                     {"finish_locked", {}, false, true}, md,
                     "fails: the spin after the threads, named");
}

}  // namespace

int main(int argc, char**) {
  if (argc > 1) {
    std::fprintf(stderr, "usage: explore_waits (no arguments)\n");
    return 2;
  }
  const std::vector<expect> cases = {
      {"await_sometimes",
       {await_x, set_x_if_y0, [](mem& m) { m.y.store(1, mo::relaxed); }},
       false,
       true},
      {"spin_sometimes",
       {spin_x, set_x_if_y0, [](mem& m) { m.y.store(1, mo::relaxed); }},
       false,
       true},
      {"await_always", {await_x, [](mem& m) { m.x.store(1, mo::release); }}, false, false},
      {"park_ends",
       {await_x, set_x_if_y0, [](mem& m) { m.y.store(1, mo::relaxed); }},
       true,
       false},
  };
  bool ok = true;
  for (const auto& c : cases)
    for (ex::model md : {ex::model::sc, ex::model::rc11}) ok &= run(c, md);
  for (ex::model md : {ex::model::sc, ex::model::rc11}) ok &= finish_locked(md);
  std::printf("explore_waits: %s\n", ok ? "all as expected" : "FAILED");
  return ok ? 0 : 1;
}
