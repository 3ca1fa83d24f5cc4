// Symmetry reduction (engine.hpp, program::symmetric_to) against the
// search without it, on small programs written on the seam with symmetric
// threads, under SC and RC11: for each, the complete graphs up to a
// permutation of the symmetric threads (hashed as the least of their
// permutations) are the same set with and without it (with await in-place
// revisits and without), none met twice with it, the final memory states
// are the same set, the verdict the same, and with it fewer executions run
// and fewer judged in all. The programs (sym: the symmetric threads):
//   add3         sym t0-t2 fetch_add x.
//   lock3        sym t0-t2 take one lock around a plain counter.
//   waiters      sym t0, t1 wait for x; t2 writes x twice.
//   sb           sym t0, t1 store x, load y; t2 stores y, loads x.
//   mp           t0 stores x, then y (release); sym t1, t2 load y (acquire), x.
//   cas_flag     sym t0-t2 CAS x 0->1; the winner stores y, the others load it.
//   own          sym t0, t1 each make an atomic of their own, store and
//                load it, then fetch_add x by what they read.
//   two_classes  sym t0, t1 fetch_add x; sym t2, t3 take the lock twice.
//   lost_update  sym t0-t2 load x and store it plus one: the final check
//                (x is 3) fails in both searches.
//   random_N     generated (a fixed seed): two or three symmetric threads
//                running one script of 2-4 steps on x and y (load, store of
//                what was read plus one, fetch_add, CAS, exchange, a branch
//                on a value read, a locked add to a plain counter), beside a
//                thread with a script of its own; those whose search without
//                the reduction passes 3,000 executions are left out.
// --naive (explore_random): the engine itself on generated programs that
// may also fence and wait (spin_pause until a location is not 0), the
// reduction off: TruSt meets the same graphs as the naive search, none
// twice; with in-place revisits too where no step waits. --ipr-waits
// (explore_random_ipr_waits): with in-place revisits where a step waits.
// --weak: the generated programs' steps include weak CASes (once, and in
// a retry loop), whose spurious failures the engine explores as a choice;
// with --naive, TruSt against the naive search on them; and weak_once (t0
// makes one weak CAS of x from 0 to 1, stores y if it failed): its
// spurious failure (x 0, y 1) is among the final states; and weak_retry (a
// retry loop failing plainly, then spuriously on the same write) never blocks,
// nor weak_retry_pause (the same loop with B::spin_pause() after each try).
// --generated N: N generated programs (200; random_435 of 800 and random_1034
// of 2,000 are gate cases of --ipr-waits, docs/explore.md).
// Exit 0 only if every expectation holds (each printed ok or FAIL). With
// --expect-mismatch (the teeth builds: an engine a patch of tests/explore/teeth
// breaks on purpose), exit 0 only if some program's graphs, states or
// verdict differ, or a graph repeats.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <tuple>
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
using state = std::tuple<int, int, int>;  // x, y, n after the threads

struct program_case {
  std::string name;
  std::vector<body> threads;
  std::vector<int> sym;  // per thread: symmetric_to
  bool fails = false;    // lost_update: its final check fails
  bool waits = false;    // generated: a step waits
};

struct prog final : ex::program {
  const program_case& c;
  std::optional<mem> m;
  std::set<state> states;
  explicit prog(const program_case& pc) : c(pc) {}
  int threads() const override { return static_cast<int>(c.threads.size()); }
  int symmetric_to(int t) const override { return c.sym[static_cast<std::size_t>(t)]; }
  void setup() override { m.emplace(); }
  void run(int i) override { c.threads[static_cast<std::size_t>(i)](*m); }
  void finish() override {
    state s{m->x.load(mo::relaxed), m->y.load(mo::relaxed), m->n.load()};
    states.insert(s);
    if (c.fails && std::get<0>(s) != 3) ex::current->fail("lost_update: x is not 3");
  }
  void teardown() override { m.reset(); }
};

void await_x(mem& m) {
  while (m.x.load(mo::acquire) == 0) B::spin_pause();
}
void count(mem& m) {
  m.mu.lock();
  m.n.store(m.n.load() + 1);
  m.mu.unlock();
}
void add(mem& m) { m.x.fetch_add(1, mo::relaxed); }

struct run_result {
  ex::stats s;
  std::set<state> states;
};

run_result explore(const program_case& c, ex::model md, bool sym, bool ipr,
                   bool read_spins = false) {
  prog p(c);
  ex::options o;
  o.m = md;
  o.ipr = ipr;
  o.read_spins = read_spins;  // off: the generated scripts read one line again and again
  o.symmetry = sym;
  o.hash_graphs = true;
  o.canonical = true;
  if (std::getenv("EXPLORE_TRACE") != nullptr) o.trace = stdout;
  run_result r{ex::explore(p, o), std::move(p.states)};
  std::sort(r.s.hashes.begin(), r.s.hashes.end());
  return r;
}

bool expect_that(bool holds, const program_case& c, ex::model md, const std::string& what) {
  return ex::selftest::expect(holds, std::string(c.name) + " " + ex::model_name(md) + ": " + what);
}

struct outcome {
  bool same = true;
  // Executions run with and without the reduction, and judged with it.
  std::uint64_t reduced = 0, full = 0, judged = 0;
};

outcome run(const program_case& c, ex::model md) {
  run_result f = explore(c, md, false, true);
  outcome r;
  r.full = f.s.executions();
  for (bool ipr : {true, false}) {
    run_result s = explore(c, md, true, ipr);
    const char* how = ipr ? "" : " (no ipr)";
    std::printf("%s %s%s: %llu complete, %llu blocked, %llu prefixes and %llu ends dropped by "
                "symmetry; without it: %llu complete, %llu blocked\n",
                c.name.c_str(), ex::model_name(md), how,
                static_cast<unsigned long long>(s.s.complete),
                static_cast<unsigned long long>(s.s.blocked),
                static_cast<unsigned long long>(s.s.symmetric),
                static_cast<unsigned long long>(s.s.sym_leaves),
                static_cast<unsigned long long>(f.s.complete),
                static_cast<unsigned long long>(f.s.blocked));
    std::string h = how;
    if (c.fails) {
      r.same &= expect_that(s.s.failed && f.s.failed, c, md, "both fail" + h);
      continue;
    }
    r.same &= expect_that(!s.s.failed && !f.s.failed && s.s.exhausted && f.s.exhausted &&
                              s.s.complete > 0,
                          c, md, "both exhausted, no failure, some execution complete" + h);
    r.same &= expect_that(s.s.hashes == f.s.hashes, c, md,
                          "the same graphs up to permutation (" +
                              std::to_string(s.s.hashes.size()) + " with symmetry, " +
                              std::to_string(f.s.hashes.size()) + " without)" + h);
    r.same &= expect_that(s.s.duplicates == 0, c, md,
                          "no graph met twice up to permutation (" +
                              std::to_string(s.s.duplicates) + "; " +
                              std::to_string(f.s.duplicates) + " without symmetry)" + h);
    r.same &= expect_that(s.states == f.states, c, md,
                          "the same final states (" + std::to_string(s.states.size()) + ")" + h);
    if (ipr) r.reduced += s.s.executions() + s.s.sym_leaves, r.judged += s.s.executions();
  }
  return r;
}

// A generated script: each step an access of x or y; r is the value last
// read. Deterministic in the values read, as the engine requires.
struct step {
  // 0 load, 1 store r+1, 2 fetch_add, 3 CAS r -> r+1, 4 exchange, 5 skip the next
  // step if r, 6 lock, add r to the plain counter, unlock, 7 a fence, 8 wait
  // until the location is not 0 (spin_pause), 9 weak CAS r -> r+1, 10 add 1
  // by a weak CAS in a retry loop
  int what;
  bool on_y;
  mo order;
};
std::string text(const std::vector<step>& steps) {
  static const char* names[] = {"load", "store", "fadd", "cas",  "xchg",  "skip",
                                "lock", "fence", "wait", "weak", "weak_loop"};
  static const char* orders[] = {"rlx", "con", "acq", "rel", "acq_rel", "sc"};
  std::string t;
  for (const step& s : steps) {
    std::string where = s.what == 5 || s.what == 6 || s.what == 7 ? "" : s.on_y ? ".y" : ".x";
    if (s.what < 5 || s.what == 7 || s.what >= 9)
      where += std::string(".") + orders[static_cast<int>(s.order)];
    t += std::string(t.empty() ? "" : " ") + names[s.what] + where;
  }
  return t;
}
body script(std::vector<step> steps) {
  return [steps](mem& m) {
    int r = 0;
    for (std::size_t i = 0; i < steps.size(); i++) {
      const step& s = steps[i];
      B::atomic<int>& a = s.on_y ? m.y : m.x;
      switch (s.what) {
        case 0: r = a.load(s.order == mo::release ? mo::relaxed : s.order); break;
        case 1: a.store(r + 1, s.order == mo::acquire ? mo::relaxed : s.order); break;
        case 2: r = a.fetch_add(1, s.order); break;
        case 3: {
          int e = r;
          (void)a.compare_exchange_strong(e, r + 1, s.order, mo::relaxed);
          r = e;
          break;
        }
        case 4: r = a.exchange(r + 2, s.order); break;
        case 6:
          m.mu.lock();
          m.n.store(m.n.load() + r);
          m.mu.unlock();
          break;
        case 7: B::fence(s.order); break;
        case 8:
          while ((r = a.load(mo::acquire)) == 0) B::spin_pause();
          break;
        case 9: {
          int e = r;
          (void)a.compare_exchange_weak(e, r + 1, s.order, mo::relaxed);
          r = e;
          break;
        }
        case 10: {
          int e = a.load(mo::relaxed);
          while (!a.compare_exchange_weak(e, e + 1, s.order, mo::relaxed)) {
          }
          r = e;
          break;
        }
        default:
          if (r != 0) i++;
          break;
      }
    }
  };
}
constexpr int kGenerated = 200;
// weak: steps 9 and 10 drawn too (and another seed).
std::vector<program_case> generated(int n, int ops, bool weak = false) {
  std::uint64_t rng = weak ? 0xD1B54A32D192ED03ull : 0x9E3779B97F4A7C15ull;
  auto next = [&](std::uint64_t k) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return static_cast<int>(rng % k);
  };
  const mo orders[] = {mo::relaxed, mo::acquire, mo::release, mo::seq_cst};
  auto gen = [&] {
    std::vector<step> v(static_cast<std::size_t>(2 + next(3)));
    for (auto& s : v) {
      int k = next(ops + (weak ? 2 : 0));
      s = {k < ops ? k : 9 + (k - ops), next(2) == 1, orders[next(4)]};
    }
    return v;
  };
  std::vector<program_case> cs;
  for (int k = 0; k < n; k++) {
    program_case c;
    c.name = "random_" + std::to_string(k);
    int nsym = 2 + next(2);
    bool other_first = next(2) == 1;  // the other thread before the symmetric ones or after
    auto sv = gen(), ov = gen();
    for (const auto& v : {sv, ov})
      for (const step& st : v) c.waits |= st.what == 8;
    body b = script(sv);
    c.name += " (" + std::to_string(nsym) + " x [" + text(sv) + "], [" + text(ov) + "] " +
              (other_first ? "first)" : "last)");
    if (other_first) c.threads.push_back(script(ov)), c.sym.push_back(-1);
    int first = static_cast<int>(c.threads.size());
    for (int t = 0; t < nsym; t++)
      c.threads.push_back(b), c.sym.push_back(t == 0 ? -1 : first + t - 1);
    if (!other_first) c.threads.push_back(script(ov)), c.sym.push_back(-1);
    cs.push_back(std::move(c));
  }
  return cs;
}

// The engine itself on the generated programs, symmetry reduction off:
// TruSt, with await in-place revisits and without, meets the same graphs as
// the naive search (every pending thread adds the next event, no revisits,
// each partial graph once), none twice.
bool naive_check(const program_case& c, ex::model md, bool ipr_waits) {
  auto hashes = [&](bool naive, bool ipr, std::uint64_t& twice) {
    prog p(c);
    ex::options o;
    o.m = md;
    o.read_spins = false;
    o.symmetry = false;
    o.hash_graphs = true;
    o.naive = naive;
    o.ipr = ipr;
    o.waits_end = true;  // a run whose waits no thread ends is the program's end
    ex::stats st = ex::explore(p, o);
    twice = st.duplicates;
    std::sort(st.hashes.begin(), st.hashes.end());
    return st.hashes;
  };
  std::uint64_t d0 = 0, d1 = 0, d2 = 0;
  auto n = hashes(true, false, d0);
  bool ipr_ok = true;
  std::string ipr_note;
  if (!c.waits || ipr_waits) {  // in-place revisits: apart where it waits (docs/explore.md)
    auto t = hashes(false, true, d1);
    ipr_ok = n == t && d1 == 0;
    ipr_note = std::to_string(t.size()) + " with ipr, " + std::to_string(d1) + " twice";
  }
  if (ipr_waits)
    return expect_that(ipr_ok, c, md,
                       "TruSt meets the naive search's " + std::to_string(n.size()) +
                           " graphs (" + ipr_note + ")");
  auto u = hashes(false, false, d2);
  return expect_that(ipr_ok && n == u && d2 == 0, c, md,
                     "TruSt meets the naive search's " + std::to_string(n.size()) + " graphs (" +
                         std::to_string(u.size()) + " without ipr, " + std::to_string(d2) +
                         " twice" + (ipr_note.empty() ? "" : "; " + ipr_note) + ")");
}

// Is c small enough for the test (the search without symmetry reduction
// exhausts within kLargest executions under RC11)? Large ones are left out
// (a naive search of them takes minutes). ends: a run whose waits no thread
// ends is the program's end, as the naive check takes it (--weak; else such a
// run fails, and the program is kept).
constexpr std::uint64_t kLargest = 3000;
bool small(const program_case& c, bool ends) {
  prog p(c);
  ex::options o;
  o.read_spins = false;
  o.symmetry = false;
  o.waits_end = ends;
  o.budget = kLargest;
  ex::stats st = ex::explore(p, o);
  return st.exhausted || st.failed;
}

}  // namespace

int main(int argc, char** argv) {
  bool expect_mismatch = false, naive = false, ipr_waits = false, weak = false;
  int n_generated = kGenerated;
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], "--expect-mismatch") == 0) {
      expect_mismatch = true;
    } else if (std::strcmp(argv[i], "--generated") == 0 && i + 1 < argc) {
      char* end = nullptr;
      long v = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || v < 1 || v > 100000) {
        std::fprintf(stderr, "explore_symmetry: --generated: '%s' is not 1..100000\n", argv[i]);
        return 2;
      }
      n_generated = static_cast<int>(v);
    } else if (std::strcmp(argv[i], "--naive") == 0) {
      naive = true;
    } else if (std::strcmp(argv[i], "--weak") == 0) {
      weak = true;
    } else if (std::strcmp(argv[i], "--ipr-waits") == 0) {
      naive = ipr_waits = true;
    } else {
      std::fprintf(stderr,
                   "usage: explore_symmetry [--naive | --ipr-waits] [--weak] [--generated N] "
                   "[--expect-mismatch]\n");
      return 2;
    }
  }
  auto sb = [](mem& m) {
    m.x.store(1, mo::relaxed);
    (void)m.y.load(mo::relaxed);
  };
  auto mp_read = [](mem& m) {
    if (m.y.load(mo::acquire) == 1) (void)m.x.load(mo::relaxed);
  };
  auto cas = [](mem& m) {
    int e = 0;
    if (m.x.compare_exchange_strong(e, 1, mo::acq_rel, mo::acquire))
      m.y.store(1, mo::release);
    else
      (void)m.y.load(mo::acquire);
  };
  auto own = [](mem& m) {
    B::atomic<int> l{0};
    l.store(1, mo::relaxed);
    m.x.fetch_add(l.load(mo::relaxed), mo::relaxed);
  };
  auto lost = [](mem& m) { m.x.store(m.x.load(mo::relaxed) + 1, mo::relaxed); };
  const std::vector<program_case> cases = {
      {"add3", {add, add, add}, {-1, 0, 1}},
      {"lock3", {count, count, count}, {-1, 0, 1}},
      {"waiters",
       {await_x, await_x,
        [](mem& m) {
          m.x.store(1, mo::release);
          m.x.store(2, mo::release);
        }},
       {-1, 0, -1}},
      {"sb",
       {sb, sb,
        [](mem& m) {
          m.y.store(1, mo::relaxed);
          (void)m.x.load(mo::relaxed);
        }},
       {-1, 0, -1}},
      {"mp",
       {[](mem& m) {
          m.x.store(1, mo::relaxed);
          m.y.store(1, mo::release);
        },
        mp_read, mp_read},
       {-1, -1, 1}},
      {"cas_flag", {cas, cas, cas}, {-1, 0, 1}},
      {"own", {own, own}, {-1, 0}},
      {"two_classes",
       {add, add,
        [](mem& m) {
          count(m);
          count(m);
        },
        [](mem& m) {
          count(m);
          count(m);
        }},
       {-1, 0, -1, 2}},
      {"lost_update", {lost, lost, lost}, {-1, 0, 1}, true},
  };
  std::vector<program_case> all = naive ? std::vector<program_case>{} : cases;
  int left_out = 0;
  // --naive: fences and waits too (the symmetry test's set has none)
  const char* only = std::getenv("SYMMETRY_CASE");  // one program (a name's first word)
  auto named = [&](const program_case& c) {
    return only == nullptr || c.name.substr(0, c.name.find(' ')) == only;
  };
  for (auto& c : generated(n_generated, naive ? 9 : 7, weak))
    if (!named(c))
      continue;
    else if (small(c, weak))
      all.push_back(std::move(c));
    else
      left_out++;
  std::printf("%d of %d generated programs left out: over %llu executions\n", left_out,
              n_generated, static_cast<unsigned long long>(kLargest));
  std::erase_if(all, [&](const program_case& c) { return !named(c); });
  bool spurious_met = true;
  if (weak && named(program_case{"weak_once", {}, {}})) {
    program_case c{"weak_once",
                   {[](mem& m) {
                     int e = 0;
                     if (!m.x.compare_exchange_weak(e, 1, mo::acq_rel, mo::relaxed))
                       m.y.store(1, mo::relaxed);
                   }},
                   {-1}};
    for (ex::model md : {ex::model::sc, ex::model::rc11}) {
      run_result r = explore(c, md, false, true);
      bool both = r.states.count({0, 1, 0}) == 1 && r.states.count({1, 0, 0}) == 1;
      spurious_met &= expect_that(both && r.s.complete == 2,
                                  c, md,
                                  "the CAS and its spurious failure (x 0, y 1), one execution "
                                  "each (" + std::to_string(r.s.complete) + " complete)");
    }
  }
  if (weak && named(program_case{"weak_retry", {}, {}})) {
    // A retry loop whose CAS fails (t1 wrote x), then fails spuriously reading
    // the same write: the next try succeeds, so the thread must not block
    // there as a loop repeating itself (read_spins, as the port columns run).
    program_case c{"weak_retry",
                   {[](mem& m) {
                      int e = 0;
                      while (!m.x.compare_exchange_weak(e, e + 10, mo::relaxed, mo::relaxed)) {
                      }
                    },
                    [](mem& m) { m.x.store(1, mo::relaxed); }},
                   {-1, -1}};
    for (ex::model md : {ex::model::sc, ex::model::rc11}) {
      run_result r = explore(c, md, false, true, true);
      bool ends = r.states.count({10, 0, 0}) == 0 && r.states.count({11, 0, 0}) == 1;
      spurious_met &= expect_that(!r.s.failed && r.s.blocked == 0 && ends, c, md,
                                  "a spurious failure after a plain one ends in a retry (" +
                                      std::to_string(r.s.blocked) + " blocked" +
                                      (r.s.failed ? ", failed: " + r.s.failure : "") + ")");
    }
  }
  if (weak && named(program_case{"weak_retry_pause", {}, {}})) {
    // The same loop pausing as porting.md asks (B::spin_pause() after each
    // failed try): the pause after the spurious failure must not block the
    // thread either (it did: a held-out port's false "waits for good").
    program_case c{"weak_retry_pause",
                   {[](mem& m) {
                      m.y.store(1, mo::relaxed);  // the operation wrote before its loop
                      int e = 0;
                      while (!m.x.compare_exchange_weak(e, e + 10, mo::relaxed, mo::relaxed))
                        B::spin_pause();
                    },
                    [](mem& m) { m.x.store(1, mo::relaxed); }},
                   {-1, -1}};
    for (ex::model md : {ex::model::sc, ex::model::rc11}) {
      run_result r = explore(c, md, false, true, true);
      bool ends = r.states.count({10, 1, 0}) == 0 && r.states.count({11, 1, 0}) == 1;
      spurious_met &= expect_that(!r.s.failed && r.s.blocked == 0 && ends, c, md,
                                  "a pause after a spurious failure ends in a retry (" +
                                      std::to_string(r.s.blocked) + " blocked" +
                                      (r.s.failed ? ", failed: " + r.s.failure : "") + ")");
    }
  }
  if (naive) {
    bool same = spurious_met;
    for (const auto& c : all)
      if (!ipr_waits || c.waits)
        for (ex::model md : {ex::model::sc, ex::model::rc11}) same &= naive_check(c, md, ipr_waits);
    return ex::selftest::verdict("explore_symmetry --naive", same, true, expect_mismatch);
  }
  bool same = spurious_met;
  outcome total;
  for (const auto& c : all)
    for (ex::model md : {ex::model::sc, ex::model::rc11}) {
      outcome r = run(c, md);
      same &= r.same;
      total.reduced += r.reduced;
      total.full += r.full;
      total.judged += r.judged;
    }
  std::printf("in all: %llu executions run with symmetry reduction (%llu judged), %llu "
              "without\n",
              static_cast<unsigned long long>(total.reduced),
              static_cast<unsigned long long>(total.judged),
              static_cast<unsigned long long>(total.full));
  bool fewer = expect_mismatch ||
               ex::selftest::expect(total.reduced < total.full && total.judged < total.reduced,
                                    "fewer executions run and judged with symmetry reduction");
  return ex::selftest::verdict("explore_symmetry", same, fewer, expect_mismatch);
}
