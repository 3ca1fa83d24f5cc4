// Await in-place revisits (engine.hpp, options::ipr) against plain TruSt,
// on small programs written on the seam, under SC and RC11: for each, the
// complete graphs explored with them and without them are the same set,
// neither run meets a graph twice, and with them fewer executions end
// blocked. The programs wait as the protocol's Ms do:
//   two_waiters     t0 and t1 wait for x; t2 writes x twice.
//   two_locations   t0 waits for x and y in one iteration; t1, t2 write them.
//   handshake       t0 waits for x, then sets y; t1 sets x, waits for y.
//   lock_three      three threads take one lock (B::mutex) around a plain
//                   counter: failed lock()s that its unlocks end.
//   lock_then_wait  t0 takes the lock, sets x, unlocks; t1 takes it and
//                   waits for x outside; t2 takes it twice.
// Exit 0 only if every expectation holds (each printed ok or FAIL). With
// --expect-mismatch (the teeth builds: an engine whose in-place revisits a
// patch of tests/explore/teeth breaks on purpose), exit 0 only if some
// program's graphs differ or repeat.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runqcheck/backend/explore.hpp"
#include "explore/search.hpp"
#include "selftest.hpp"

namespace {

using B = runqcheck::explore_backend;
namespace ex = runqcheck::explore;
using mo = std::memory_order;

struct mem {
  B::atomic<int> x{0}, y{0};
  B::mutex mu;
  B::var<int> n{0};
};
using body = std::function<void(mem&)>;

struct prog final : ex::program {
  std::vector<body> threads_;
  std::optional<mem> m;
  explicit prog(std::vector<body> t) : threads_(std::move(t)) {}
  int threads() const override { return static_cast<int>(threads_.size()); }
  void setup() override { m.emplace(); }
  void run(int i) override { threads_[static_cast<std::size_t>(i)](*m); }
  void finish() override {}
  void teardown() override { m.reset(); }
};

void await_x(mem& m) {
  while (m.x.load(mo::acquire) == 0) B::spin_pause();
}
void await_y(mem& m) {
  while (m.y.load(mo::acquire) == 0) B::spin_pause();
}
void count(mem& m) {
  m.mu.lock();
  m.n.store(m.n.load() + 1);
  m.mu.unlock();
}

struct program_case {
  const char* name;
  std::vector<body> threads;
};

ex::stats explore(const program_case& c, ex::model md, bool ipr) {
  prog p(c.threads);
  ex::options o;
  o.m = md;
  o.ipr = ipr;
  o.hash_graphs = true;
  ex::stats s = ex::explore(p, o);
  std::sort(s.hashes.begin(), s.hashes.end());
  return s;
}

bool expect_that(bool holds, const program_case& c, ex::model md, const std::string& what) {
  return ex::selftest::expect(holds, std::string(c.name) + " " + ex::model_name(md) + ": " + what);
}

struct outcome {
  bool same = true;  // the same graphs, none met twice
  std::uint64_t blocked_ipr = 0, blocked_plain = 0, in_place = 0;
};

outcome run(const program_case& c, ex::model md) {
  ex::stats s = explore(c, md, true), t = explore(c, md, false);
  std::printf("%s %s: %llu complete, %llu blocked, %llu revisited in place; plain TruSt: "
              "%llu complete, %llu blocked\n",
              c.name, ex::model_name(md), static_cast<unsigned long long>(s.complete),
              static_cast<unsigned long long>(s.blocked),
              static_cast<unsigned long long>(s.in_place),
              static_cast<unsigned long long>(t.complete),
              static_cast<unsigned long long>(t.blocked));
  outcome r;
  r.same &= expect_that(!s.failed && !t.failed && s.exhausted && t.exhausted && s.complete > 0,
                        c, md, "both exhausted, no failure, some execution complete");
  r.same &= expect_that(s.hashes == t.hashes, c, md,
                        "the same complete graphs (" + std::to_string(s.hashes.size()) +
                            " with in-place revisits, " + std::to_string(t.hashes.size()) +
                            " without)");
  r.same &= expect_that(s.duplicates == 0 && t.duplicates == 0, c, md,
                        "no graph met twice (" + std::to_string(s.duplicates) + " and " +
                            std::to_string(t.duplicates) + ")");
  r.blocked_ipr = s.blocked;
  r.blocked_plain = t.blocked;
  r.in_place = s.in_place;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_mismatch = argc == 2 && std::strcmp(argv[1], "--expect-mismatch") == 0;
  if (argc > 2 || (argc == 2 && !expect_mismatch)) {
    std::fprintf(stderr, "usage: explore_await [--expect-mismatch]\n");
    return 2;
  }
  const std::vector<program_case> cases = {
      {"two_waiters",
       {await_x, await_x,
        [](mem& m) {
          m.x.store(1, mo::release);
          m.x.store(2, mo::release);
        }}},
      {"two_locations",
       {[](mem& m) {
          while (m.x.load(mo::acquire) == 0 || m.y.load(mo::acquire) == 0) B::spin_pause();
        },
        [](mem& m) { m.x.store(1, mo::release); }, [](mem& m) { m.y.store(1, mo::release); }}},
      {"handshake",
       {[](mem& m) {
          await_x(m);
          m.y.store(1, mo::release);
        },
        [](mem& m) {
          m.x.store(1, mo::release);
          await_y(m);
        }}},
      {"lock_three", {count, count, count}},
      {"lock_then_wait",
       {[](mem& m) {
          m.mu.lock();
          m.x.store(1, mo::relaxed);
          m.mu.unlock();
        },
        [](mem& m) {
          count(m);
          await_x(m);
        },
        [](mem& m) {
          count(m);
          count(m);
        }}},
  };
  bool same = true;
  outcome total;
  for (const auto& c : cases)
    for (ex::model md : {ex::model::sc, ex::model::rc11}) {
      outcome r = run(c, md);
      same &= r.same;
      total.blocked_ipr += r.blocked_ipr;
      total.blocked_plain += r.blocked_plain;
      total.in_place += r.in_place;
    }
  std::printf("in all: %llu revisited in place; %llu executions end blocked, %llu without "
              "in-place revisits\n",
              static_cast<unsigned long long>(total.in_place),
              static_cast<unsigned long long>(total.blocked_ipr),
              static_cast<unsigned long long>(total.blocked_plain));
  bool fewer = expect_mismatch ||
               ex::selftest::expect(total.in_place > 0 && total.blocked_ipr < total.blocked_plain,
                                    "in-place revisits were made and fewer executions end blocked");
  return ex::selftest::verdict("explore_await", same, fewer, expect_mismatch);
}
