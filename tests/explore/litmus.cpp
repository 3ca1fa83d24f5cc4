// The litmus tests of proofs/weak/litmus.py (same names, shapes and orders)
// written on the seam and explored by the engine under SC, RC11, LB and C11. Prints
// every outcome found, one line each:
//   outcome <test> <model> t0:a=1,b=0;t1:...|x=1,y=0
// and per run a count line (complete, blocked, duplicates). litmus_check.py
// compares the outcomes with the axiomatic oracle, both directions.
//
// Usage: explore_litmus [--hash] [TEST...]   (--hash: count graphs met twice;
// exit 1 if any was)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runqcheck/backend/explore.hpp"
#include "explore/search.hpp"

namespace {

using B = runqcheck::explore_backend;
namespace ex = runqcheck::explore;
using mo = std::memory_order;
constexpr mo RLX = mo::relaxed, ACQ = mo::acquire, REL = mo::release, SC = mo::seq_cst;

struct mem {
  B::atomic<int> x{0}, y{0}, z{0};
  B::atomic<int>& at(char c) { return c == 'x' ? x : c == 'y' ? y : z; }
};
using regs = std::vector<std::pair<std::string, int>>;
using body = std::function<void(mem&, regs&)>;

struct test {
  std::string name;
  std::vector<body> threads;
  std::string locs;  // the final memory printed
};

std::optional<mo> none;

test mp(mo w2 = RLX, mo r1 = RLX, std::optional<mo> fw = none, std::optional<mo> fr = none,
        bool addr = false) {
  return {"MP",
          {[=](mem& m, regs&) {
             m.x.store(1, RLX);
             if (fw) B::fence(*fw);
             m.y.store(1, w2);
           },
           [=](mem& m, regs& r) {
             int a = m.y.load(r1);
             r.push_back({"a", a});
             if (addr) {
               r.push_back({"b", m.at(a == 0 || a == 1 ? 'x' : 'z').load(RLX)});
               return;
             }
             if (fr) B::fence(*fr);
             r.push_back({"b", m.x.load(RLX)});
           }},
          "xy"};
}

test sb(mo w = RLX, mo rd = RLX, std::optional<mo> f = none,
        std::optional<std::pair<mo, mo>> t1 = {}) {
  auto [w1, r1] = t1 ? *t1 : std::pair{w, rd};
  bool f1 = !t1;
  return {"SB",
          {[=](mem& m, regs& r) {
             m.x.store(1, w);
             if (f) B::fence(*f);
             r.push_back({"a", m.y.load(rd)});
           },
           [=](mem& m, regs& r) {
             m.y.store(1, w1);
             if (f && f1) B::fence(*f);
             r.push_back({"b", m.x.load(r1)});
           }},
          "xy"};
}

test lb(mo rd = RLX, mo w = RLX, std::string dep = "", std::optional<mo> f = none) {
  auto thread = [=](char src, char dst) -> body {
    return [=](mem& m, regs& r) {
      int a = m.at(src).load(rd);
      r.push_back({"a", a});
      if (dep == "ctrl") {
        if (a == 0 || a == 1) m.at(dst).store(1, w);
        return;
      }
      if (dep == "data") {
        m.at(dst).store((a ^ a) + 1, w);
        return;
      }
      if (f) B::fence(*f);
      m.at(dst).store(1, w);
    };
  };
  return {"LB", {thread('x', 'y'), thread('y', 'x')}, "xy"};
}

// LB where a relaxed CAS's write overtakes an earlier read and is read by an
// acquire read (runqgrab_head_cas relaxed vs the owner's acquire head load).
test lb_rmw_acq() {
  return {"LB+rmw+acq",
          {[](mem& m, regs& r) {
             r.push_back({"a", m.x.load(RLX)});
             int c = 0;
             m.y.compare_exchange_strong(c, 1, RLX, RLX);
             r.push_back({"c", c});
           },
           [](mem& m, regs& r) {
             r.push_back({"a", m.y.load(ACQ)});
             m.x.store(1, RLX);
           }},
          "xy"};
}

// proofs/weak/litmus.py's lb_recert(): thread 0 writes y = 1 if it read
// z = 0 first or z = 2 second; thread 2 writes z = 2 only after thread 0's
// x = 1; thread 1 writes z = 1 after its acquire read of y (it cannot promise).
test lb_recert() {
  return {"LB+recert",
          {[](mem& m, regs& r) {
             int b = m.z.load(RLX);
             r.push_back({"b", b});
             m.x.store(1, RLX);
             int c = m.z.load(RLX);
             r.push_back({"c", c});
             if (b == 0 || c == 2) m.y.store(1, RLX);
           },
           [](mem& m, regs& r) {
             r.push_back({"d", m.y.load(ACQ)});
             m.z.store(1, RLX);
           },
           [](mem& m, regs& r) {
             int f = m.x.load(RLX);
             r.push_back({"f", f});
             if (f == 1) m.z.store(2, RLX);
           }},
          "xyz"};
}

// The out-of-thin-air shapes of proofs/weak/litmus.py's oota(): thread 0
// copies x to y (data) or writes y = 1 if x != 0 (ctrl), thread 1 copies y
// to x (data) or writes x = 2 if y != 0 (ctrl); third: a thread writes x = 1.
test oota(bool ctrl, bool third) {
  auto thread = [=](char src, char dst, int val) -> body {
    return [=](mem& m, regs& r) {
      int a = m.at(src).load(RLX);
      r.push_back({"a", a});
      if (!ctrl)
        m.at(dst).store(a, RLX);
      else if (a != 0)
        m.at(dst).store(val, RLX);
    };
  };
  std::vector<body> th{thread('x', 'y', 1), thread('y', 'x', 2)};
  if (third) th.push_back([](mem& m, regs&) { m.x.store(1, RLX); });
  return {"OOTA", th, "xy"};
}

// LB whose reads are relaxed CASes (expected 1, new 1: the old value either way).
test lb_rmw() {
  auto thread = [](char src, char dst) -> body {
    return [=](mem& m, regs& r) {
      int c = 1;
      m.at(src).compare_exchange_strong(c, 1, RLX, RLX);
      r.push_back({"a", c});
      m.at(dst).store(1, RLX);
    };
  };
  return {"LB+rmws", {thread('x', 'y'), thread('y', 'x')}, "xy"};
}

test iriw(mo w = RLX, mo rd = RLX, bool addr = false, std::optional<mo> f = none) {
  auto reader = [=](char a, char b) -> body {
    return [=](mem& m, regs& r) {
      int va = m.at(a).load(rd);
      r.push_back({"a", va});
      if (addr) {
        r.push_back({"b", m.at(va == 0 || va == 1 ? b : 'z').load(rd)});
        return;
      }
      if (f) B::fence(*f);
      r.push_back({"b", m.at(b).load(rd)});
    };
  };
  return {"IRIW",
          {[=](mem& m, regs&) { m.x.store(1, w); }, reader('x', 'y'), reader('y', 'x'),
           [=](mem& m, regs&) { m.y.store(1, w); }},
          "xyz"};
}

test w22(mo w = RLX, std::optional<mo> f = none, bool one = false) {
  return {"2+2W",
          {[=](mem& m, regs&) {
             m.x.store(1, w);
             if (f) B::fence(*f);
             m.y.store(2, w);
           },
           [=](mem& m, regs&) {
             m.y.store(1, w);
             if (f && !one) B::fence(*f);
             m.x.store(2, w);
           }},
          "xy"};
}

test corr() {
  return {"CoRR",
          {[](mem& m, regs&) { m.x.store(1, RLX); },
           [](mem& m, regs& r) {
             r.push_back({"a", m.x.load(RLX)});
             r.push_back({"b", m.x.load(RLX)});
           }},
          "x"};
}

test mp_rmw() {
  return {"MP+rel+rmw+acq",
          {[](mem& m, regs&) {
             m.x.store(1, RLX);
             m.y.store(1, REL);
           },
           [](mem& m, regs& r) {
             int c = 1;
             m.y.compare_exchange_strong(c, 2, RLX, RLX);
             r.push_back({"c", c});  // the old value either way
           },
           [](mem& m, regs& r) {
             r.push_back({"a", m.y.load(ACQ)});
             r.push_back({"b", m.x.load(RLX)});
           }},
          "xy"};
}

// The exchange RMW (C11's atomic_exchange in a C port): two exchanges of one
// location, and MP through exchanges.
test xchg2() {
  return {"XCHG+XCHG",
          {[](mem& m, regs& r) { r.push_back({"a", m.x.exchange(1, RLX)}); },
           [](mem& m, regs& r) { r.push_back({"b", m.x.exchange(2, RLX)}); }},
          "x"};
}

test mp_xchg(mo w = RLX, mo rd = RLX) {
  return {"MP+xchg",
          {[=](mem& m, regs& r) {
             m.x.store(1, RLX);
             r.push_back({"c", m.y.exchange(1, w)});
           },
           [=](mem& m, regs& r) {
             r.push_back({"a", m.y.exchange(2, rd)});
             r.push_back({"b", m.x.load(RLX)});
           }},
          "xy"};
}

test named(std::string n, test t) {
  t.name = std::move(n);
  return t;
}

std::vector<test> tests() {
  using p = std::pair<mo, mo>;
  return {
      named("CoRR", corr()),
      named("MP+rel+rmw+acq", mp_rmw()),
      named("XCHG+XCHG", xchg2()),
      named("MP+xchg", mp_xchg()),
      named("MP+xchg.rel+xchg.acq", mp_xchg(REL, ACQ)),
      named("MP", mp()),
      named("MP+rel+acq", mp(REL, ACQ)),
      named("MP+fences(sc)", mp(RLX, RLX, SC, SC)),
      named("MP+fence.rel+fence.acq", mp(RLX, RLX, REL, ACQ)),
      named("MP+rel+addr", mp(REL, RLX, none, none, true)),
      named("MP+rel+po", mp(REL)),
      named("MP+fence(sc)+po", mp(RLX, RLX, SC)),
      named("SB", sb()),
      named("SB+rel+acq", sb(REL, ACQ)),
      named("SB+fences(sc)", sb(RLX, RLX, SC)),
      named("SB+sc", sb(SC, SC)),
      named("SB+fence(sc)+po", sb(RLX, RLX, SC, p{RLX, RLX})),
      named("SB+fence(sc)+rel-acq", sb(RLX, RLX, SC, p{REL, ACQ})),
      named("LB", lb()),
      named("LB+ctrls", lb(RLX, RLX, "ctrl")),
      named("LB+datas", lb(RLX, RLX, "data")),
      named("LB+rel", lb(RLX, REL)),
      named("LB+acq", lb(ACQ)),
      named("LB+acq+rel", lb(ACQ, REL)),
      named("IRIW", iriw()),
      named("IRIW+acq", iriw(RLX, ACQ)),
      named("IRIW+addrs", iriw(RLX, RLX, true)),
      named("IRIW+sc", iriw(SC, SC)),
      named("IRIW+fences(sc)", iriw(RLX, RLX, false, SC)),
      named("LB+fences(sc)", lb(RLX, RLX, "", SC)),
      named("LB+rmws", lb_rmw()),
      named("LB+rmw+acq", lb_rmw_acq()),
      named("LB+recert", lb_recert()),
      named("OOTA+datas", oota(false, false)),
      named("OOTA+ctrls", oota(true, false)),
      named("OOTA+ctrls+w", oota(true, true)),
      named("2+2W", w22()),
      named("2+2W+fence(sc)+po", w22(RLX, SC, true)),
      named("2+2W+rel", w22(REL)),
      named("2+2W+fences(sc)", w22(RLX, SC)),
      named("2+2W+sc", w22(SC)),
  };
}

struct prog final : ex::program {
  const test& t;
  std::optional<mem> m;
  std::vector<regs> r;
  std::set<std::string> outcomes;
  explicit prog(const test& x) : t(x) {}
  int threads() const override { return static_cast<int>(t.threads.size()); }
  void setup() override {
    m.emplace();
    r.assign(t.threads.size(), {});
  }
  void run(int i) override {
    t.threads[static_cast<std::size_t>(i)](*m, r[static_cast<std::size_t>(i)]);
  }
  void finish() override {
    std::string s;
    for (std::size_t i = 0; i < r.size(); i++) {
      auto v = r[i];
      std::sort(v.begin(), v.end());
      s += (i ? ";t" : "t") + std::to_string(i) + ":";
      for (std::size_t k = 0; k < v.size(); k++)
        s += (k ? "," : "") + v[k].first + "=" + std::to_string(v[k].second);
    }
    s += "|";
    for (std::size_t k = 0; k < t.locs.size(); k++)
      s += std::string(k ? "," : "") + t.locs[k] + "=" + std::to_string(m->at(t.locs[k]).load(RLX));
    outcomes.insert(s);
  }
  void teardown() override { m.reset(); }
};

}  // namespace


int main(int argc, char** argv) {
  bool hash = false;
  std::set<std::string> only;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--hash") == 0)
      hash = true;
    else
      only.insert(argv[i]);
  }
  auto all = tests();
  for (const auto& n : only)
    if (std::none_of(all.begin(), all.end(), [&](const test& t) { return t.name == n; })) {
      std::fprintf(stderr, "%s: no litmus test named '%s'\n", argv[0], n.c_str());
      return 2;
    }
  bool ok = true;
  for (const auto& t : all) {
    if (!only.empty() && !only.count(t.name)) continue;
    for (ex::model md : {ex::model::sc, ex::model::rc11, ex::model::lb, ex::model::c11}) {
      prog p(t);
      ex::options o;
      o.m = md;
      o.hash_graphs = hash;
      ex::stats s = ex::explore(p, o);
      for (const auto& oc : p.outcomes)
        std::printf("outcome %s %s %s\n", t.name.c_str(), ex::model_name(md), oc.c_str());
      std::printf("count %s %s complete=%llu blocked=%llu duplicates=%llu promises=%llu "
                  "uncertified=%llu diverged=%llu%s\n",
                  t.name.c_str(), ex::model_name(md), static_cast<unsigned long long>(s.complete),
                  static_cast<unsigned long long>(s.blocked),
                  static_cast<unsigned long long>(s.duplicates),
                  static_cast<unsigned long long>(s.lb_revisits),
                  static_cast<unsigned long long>(s.uncertified),
                  static_cast<unsigned long long>(s.diverged), s.exhausted ? " exhausted" : "");
      if (s.failed)
        std::printf("FAIL %s %s: %s (path %s)\n", t.name.c_str(), ex::model_name(md),
                    s.failure.c_str(), s.path.c_str());
      // LB's promises are not optimal: a cycle is met once per rf edge promised.
      ok &= !s.failed && s.exhausted && (s.duplicates == 0 || ex::has_lb(md));
    }
  }
  return ok ? 0 : 1;
}
