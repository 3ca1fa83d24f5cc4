// fuzz/targets/fuzz_sequential.cpp — libFuzzer target (issue 5, 2b): long
// sequential runs of the scheduler-level operations of the stateful property
// tests (models/sched_ops/sched_ops.hpp) on the core subject with the
// production ring (capacity 256), side by side with the reference model
// (models/reference). After every op the outcome and the whole state
// (sut::compare: rings, runnext, global queue, who runs where, schedtick,
// conservation, the model's invariants) must agree. One thread, no
// interleavings: the concurrent side is fuzz_interleave's.
//
// Input format, version 1 (an "RQS" seed; a crash file is one):
//
//   0..3   "RQS" 0x01            magic and version (else: rejected, -1)
//   4      nprocs                1..4 (else: rejected, -1); G0 runs on P0
//   then ops, until the bytes run out or after kMaxOps ops, each:
//     kind byte b:   if b % 16 names an op kind (kSchedOps order: 0 spawn,
//                    1 spawn_many, 2 park, 3 ready, 4 gosched, 5 goexit,
//                    6 schedule, 7 steal_work, 8 glob_batch, 9 entersyscall,
//                    10 exitsyscall, 11 procresize, 12 drain, 13 inject)
//                    that is on the menu of kinds valid in the model's
//                    state (sched_ops.hpp menu_for, gen_op's menu), that
//                    kind; else b % (the menu's total weight) picks one by
//                    gen_op's weights.
//     argument bytes, by kind (x[i] = candidate list x, index i mod its size):
//       spawn, park, gosched, goexit, entersyscall   p: running[p]
//       spawn_many   p, c: running[p], count 1 + c (1..256)
//       ready        p, g: running[p], waiting[g]
//       schedule, steal_work, glob_batch   p, s: free[p], steal-order seed s
//       exitsyscall  g: insys[g]
//       procresize   n: gomaxprocs 1 + n % 4
//       drain        p: P p % nprocs
//       inject       p, k: P p % nprocs, the first 1 + k % |waiting| waiting Gs
//     An op that ends past the input is dropped; one the model still
//     rejects (valid(), e.g. more than kMaxG Gs, gomaxprocs unchanged) is
//     skipped, its bytes consumed.
//
// Any difference, or a fatal error thrown by the port (RQ_CHECK, through a
// throwing fatal_handler), prints the op list so far and the difference,
// and aborts: libFuzzer writes the crash file. Replay one:
//   RUNQCHECK_VERBOSE=1 build/fuzz/bin/fuzz_sequential <file>
// prints each op, its outcome and the model's queues after it.
// Seeds: fuzz/corpus/make_sequential_seeds.py; dictionary:
// fuzz/dict/fuzz_sequential.dict. The _mutant twin runs the same on
// the mutant schemata (models/mutants; RUNQCHECK_MUTANT picks the bug).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "runqcheck_subject.hpp"
#include "sched_ops.hpp"

namespace {

using namespace runqcheck::schedops;

constexpr std::uint32_t kCap = 256;  // the production ring
constexpr int kMaxOps = 2000;
constexpr std::uint8_t kMagic[4] = {'R', 'Q', 'S', 1};
constexpr int kKinds = static_cast<int>(std::size(kSchedOps));

void throwing_fatal(const runqcheck::fatal_info& f) {
  throw std::runtime_error(std::string("fatal error: ") + f.msg + " " + f.values);
}

bool verbose() {
  static const bool v = [] {
    const char* e = std::getenv("RUNQCHECK_VERBOSE");
    return e != nullptr && *e != '\0' && *e != '0';
  }();
  return v;
}

// The input's bytes, read front to back.
struct reader {
  std::span<const std::uint8_t> in;
  std::size_t at = 0;
  bool next(std::uint8_t& b) {
    if (at >= in.size()) return false;
    b = in[at++];
    return true;
  }
};

// Decodes the next op for model state m (menus: m's menu, kept up to date);
// false when the input ran out.
bool decode(reader& r, const ref::world& m, menu_cache& menus, op& o) {
  const menu_t& c = menus.update(m);
  std::uint8_t kb;
  if (!r.next(kb)) return false;
  o = op{};
  bool direct = false;
  if (kb % 16 < kKinds)
    for (auto& [w, k] : c.menu)
      if (sched_index(k) == kb % 16) {
        o.k = k;
        direct = true;
      }
  if (!direct) {
    int roll = kb % c.total;
    for (auto& [w, k] : c.menu) {
      if (roll < w) {
        o.k = k;
        break;
      }
      roll -= w;
    }
  }
  std::uint8_t x, y;
  auto pick = [](const std::vector<int>& v, std::uint8_t i) { return v[i % v.size()]; };
  switch (o.k) {
    case op_kind::spawn:
    case op_kind::park:
    case op_kind::gosched:
    case op_kind::goexit:
    case op_kind::entersyscall:
      if (!r.next(x)) return false;
      o.a = pick(c.running, x);
      break;
    case op_kind::spawn_many:
      if (!r.next(x) || !r.next(y)) return false;
      o.a = pick(c.running, x);
      o.b = 1 + y;
      break;
    case op_kind::ready:
      if (!r.next(x) || !r.next(y)) return false;
      o.a = pick(c.running, x);
      o.b = pick(c.waiting, y);
      break;
    case op_kind::schedule:
    case op_kind::steal_work:
    case op_kind::glob_batch:
      if (!r.next(x) || !r.next(y)) return false;
      o.a = pick(c.free, x);
      o.seed = y;
      break;
    case op_kind::exitsyscall:
      if (!r.next(x)) return false;
      o.b = pick(c.insys, x);
      break;
    case op_kind::procresize:
      if (!r.next(x)) return false;
      o.a = 1 + x % kMaxP;
      break;
    case op_kind::drain:
      if (!r.next(x)) return false;
      o.a = x % m.nprocs();
      break;
    case op_kind::inject:
      if (!r.next(x) || !r.next(y)) return false;
      o.a = x % m.nprocs();
      o.list.assign(c.waiting.begin(), c.waiting.begin() + 1 + y % c.waiting.size());
      break;
    default: break;  // not on a menu: the menus hold scheduler events only
  }
  return true;
}

[[noreturn]] void fail(int nprocs, const std::vector<op>& ops, const std::string& what) {
  std::fprintf(stderr, "\nrunqcheck fuzz_sequential: subject %s, cap %u, nprocs %d; %zu ops:\n",
               subject_name, kCap, nprocs, ops.size());
  for (std::size_t i = 0; i < ops.size(); i++)
    std::fprintf(stderr, "%5zu %s\n", i + 1, show_op(ops[i]).c_str());
  std::fprintf(stderr, "MISMATCH at op %zu: %s\n", ops.size(), what.c_str());
  const char* mu = std::getenv("RUNQCHECK_MUTANT");
  std::fprintf(
      stderr,
      "runqcheck: reproduce with: %s%s%sRUNQCHECK_VERBOSE=1 %s <the crash file named below>\n",
      mu ? "RUNQCHECK_MUTANT=" : "", mu ? mu : "", mu ? " " : "",
#ifdef RUNQCHECK_FUZZ_MUTANT
      "build/fuzz/bin/fuzz_sequential_mutant"
#else
      "build/fuzz/bin/fuzz_sequential"
#endif
  );
  std::abort();
}

// One run of an input. The full compare (every ring drained and put back,
// the global queue, conservation, the model's invariants: O(Gs)) runs every
// `every` ops and after the last; between them quick_compare (O(Ps)) and the
// outcomes. A difference stays in the state until it is compared, so a
// sparse run finds what a dense one finds, some ops later (the caller
// re-runs a failing input with every = 1 to name the first op that differs).
// Returns the failure ("" if none); `log` gets the ops run.
std::string run_input(std::span<const std::uint8_t> in, int nprocs, int every,
                      std::vector<op>& log) {
  const bool v = verbose();
  ref::world m = initial_world(kCap, nprocs);
  sut<kCap> s(nprocs);
  s.track_seen = false;  // rapidcheck's coverage tally: not ours
  initial_sut(s);
  if (v)
    std::printf("fuzz_sequential: subject %s, cap %u, nprocs %d\n     model: %s\n", subject_name,
                kCap, nprocs, m.q.describe().c_str());
  reader r{in};
  menu_cache menus;
  op o;
  std::string e;
  for (int n = 0; n < kMaxOps && e.empty();) {
    bool more = decode(r, m, menus, o);
    if (more && !valid(m, o)) {
      if (v) std::printf("      %-40s  (invalid in this state: skipped)\n", show_op(o).c_str());
      continue;
    }
    if (!more) {  // the input ran out: a last full compare (the state is thrown away next)
      try {
        if (n % every != 0) e = s.compare(m, false);
      } catch (const std::exception& ex) {
        e = ex.what();
      }
      break;
    }
    n++;
    bool logged = false;  // s.apply logs o first
    try {
      outcome want = model_do(m, o);
      logged = true;
      outcome got = s.apply(o);
      if (!(want == got))
        e = "subject returned " + show_outcome(got) + ", model " + show_outcome(want);
      else e = n % every == 0 ? s.compare(m) : s.quick_compare(m);
      if (e.empty() && n == kMaxOps && n % every != 0) e = s.compare(m, false);
      if (v)
        std::printf("%5d %-40s  -> %s\n     model: %s\n", n, show_op(o).c_str(),
                    show_outcome(got).c_str(), m.q.describe().c_str());
    } catch (const std::exception& ex) {
      if (!logged) s.log.push_back(o);  // thrown by the model
      e = ex.what();
    }
  }
  if (v && e.empty())
    std::printf("fuzz_sequential: %zu ops, subject and model agree\n", s.log.size());
  log = std::move(s.log);
  return e;
}

// The full compare's period: 1 (every op) with RUNQCHECK_VERBOSE, else 256.
int compare_every() { return verbose() ? 1 : 256; }

}  // namespace

// stdout's buffer, allocated here rather than on the first verbose printf
// (libFuzzer would take that for a leak and run the input a second time).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  static char buf[1 << 16];
  std::setvbuf(stdout, buf, _IOFBF, sizeof buf);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5 || !std::equal(std::begin(kMagic), std::end(kMagic), data)) return -1;
  const int nprocs = data[4];
  if (nprocs < 1 || nprocs > kMaxP) return -1;
  runqcheck::fatal_handler() = &throwing_fatal;
  std::span<const std::uint8_t> ops{data + 5, size - 5};
  std::vector<op> log;
  const int every = compare_every();
  std::string e = run_input(ops, nprocs, every, log);
  if (e.empty()) return 0;
  // Found on a sparse run: run it again comparing after every op, so the
  // report names the first op whose state differs (deterministic: same ops).
  if (every > 1) {
    std::vector<op> dense;
    if (std::string d = run_input(ops, nprocs, 1, dense); !d.empty()) {
      e = std::move(d);
      log = std::move(dense);
    }
  }
  fail(nprocs, log, e);
}
