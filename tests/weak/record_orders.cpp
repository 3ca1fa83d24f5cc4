// tests/weak/record_orders.cpp — the weak-memory audit's recorder, built per
// subject (checker weak_record): small sequential scenarios through the
// subject API on the recording backend, every atomic access printed with the
// subject operation that made it and the P object its address lies in.
// proofs/weak/port_orders.py reads the listing, tells each location's role
// by its behaviour (ring slot, head, tail, runnext) and derives the port's
// order table, which proofs/weak/audit.py --recorded judges (weak_memory/<subject>).
//
// Listing (stdout), one line each:
//   subject NAME CAP P_SIZE
//   op SCENARIO STEP OPERATION P_ROLES       P_ROLES: owner=P0, or thief=P1,victim=P0
//   a WHERE OFFSET SIZE PTR KIND ORDER FAILURE_ORDER READ WRITTEN OK FILE:LINE
//     WHERE: P0, P1, sched, G (a harness G), - (elsewhere); KIND: L P S C A F (load, plain
//     load, store, CAS, RMW, fence); values of pointers: gN, nil or ?; PTR: 1 also for an
//     integer access of a G's address (a G held as a uintptr_t); OK: 1 or 0;
//     FILE:LINE: the port's line that made the access (the rest of the line).
// Exit status: 0 recorded; 1 the port failed a sequential run (fatal error or
// a spin), with a FAILED: line.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "record_backend.hpp"
#include "runqcheck_subject.hpp"

namespace {

// No using-directive: a port's own namespace may have any name.
namespace rec = runqcheck::record;
using B = rec::recorder;
constexpr std::uint32_t Cap = 8;
using S = subject_under_test<B, Cap>;
using G = runqcheck::g<B>;

struct port_fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One scenario's world: the global state, two Ps, the Gs. Built per scenario.
struct world {
  typename S::schedt sched{2};
  typename S::p p0{sched, 0}, p1{sched, 1};
  std::vector<std::unique_ptr<G>> gs;
  std::uint32_t next_g = 0;
  G* fresh() { return gs.at(next_g++).get(); }
  world() {
    for (int i = 0; i < 64; i++) gs.push_back(std::make_unique<G>(i + 1));
  }
};

// C++20 declares memory_order's enumerators in this order, from 0.
constexpr const char* order_names[] = {"relaxed", "consume", "acquire",
                                       "release", "acq_rel", "seq_cst"};
static_assert(static_cast<int>(std::memory_order::seq_cst) == 5);
const char* order_name(std::memory_order mo) { return order_names[static_cast<int>(mo)]; }

// Where an address lies: P0, P1, the schedt (byte offset), a harness G, or elsewhere.
std::string where(const world& w, const void* a, std::size_t& off) {
  auto in = [&](const void* base, std::size_t size) {
    auto b = reinterpret_cast<std::uintptr_t>(base), x = reinterpret_cast<std::uintptr_t>(a);
    off = x - b;
    return x >= b && x < b + size;
  };
  if (in(&w.p0, sizeof w.p0)) return "P0";
  if (in(&w.p1, sizeof w.p1)) return "P1";
  if (in(&w.sched, sizeof w.sched)) return "sched";
  for (auto& gp : w.gs)
    if (in(gp.get(), sizeof(G))) return "G";
  off = 0;
  return "-";
}

// The harness G at address v: 1.., or 0.
std::size_t g_at(const world& w, std::uint64_t v) {
  for (std::size_t i = 0; i < w.gs.size(); i++)
    if (reinterpret_cast<std::uintptr_t>(w.gs[i].get()) == v) return i + 1;
  return 0;
}

// An integer access that reads or writes a G's address (a G held as a uintptr_t, as Go's
// guintptr runnext): listed as a pointer access, its values as Gs.
bool holds_g(const world& w, const rec::access& a) {
  return a.ptr || g_at(w, a.read) != 0 || g_at(w, a.written) != 0;
}

std::string value(const world& w, const rec::access& a, std::uint64_t v) {
  if (!holds_g(w, a)) return std::to_string(v);
  if (v == 0) return "nil";
  if (std::size_t k = g_at(w, v)) return "g" + std::to_string(k);
  return "?";
}

// Prints the accesses made since the operation began.
void flush(const world& w) {
  for (std::size_t i = rec::journal.op_start; i < rec::journal.log.size(); i++) {
    const rec::access& a = rec::journal.log[i];
    std::size_t off = 0;
    std::string at = a.k == rec::kind::fence ? "-" : where(w, a.addr, off);
    std::printf("a %s %zu %u %d %c %s %s %s %s %d %s:%u\n", at.c_str(), off, a.size,
                holds_g(w, a) ? 1 : 0, static_cast<char>(a.k), order_name(a.mo),
                order_name(a.mo_fail),
                value(w, a, a.read).c_str(), value(w, a, a.written).c_str(), a.ok ? 1 : 0,
                a.file, a.line);
  }
  rec::journal.log.clear();
  rec::journal.op_start = 0;
}

// Runs one subject operation, labelled, and prints its accesses.
struct runner {
  world& w;
  const char* scenario;
  int step = 0;
  template <class F>
  void op(const char* name, const char* roles, F&& f) {
    std::printf("op %s %d %s %s\n", scenario, step++, name, roles);
    rec::journal.log.clear();
    rec::journal.op_start = 0;
    f();
    flush(w);
  }
  void put(bool next) {
    G* gp = w.fresh();
    op("runqput", "owner=P0", [&] { S::runqput(w.p0, gp, next); });
  }
};

// The scenarios: each site of the audit's idioms is reached at least once.
void put_get(world& w) {
  runner r{w, "put_get"};
  r.op("runqempty", "owner=P0", [&] { (void)S::runqempty(w.p0); });
  r.put(false);
  r.put(false);
  r.op("runqempty", "owner=P0", [&] { (void)S::runqempty(w.p0); });
  r.op("runqget", "owner=P0", [&] { (void)S::runqget(w.p0); });
  r.put(true);  // runnext nil -> G
  r.put(true);  // kicks the old runnext into the ring
  r.op("runqget", "owner=P0", [&] { (void)S::runqget(w.p0); });  // runnext
  r.put(true);
  r.op("runqdrain", "owner=P0", [&] { (void)S::runqdrain(w.p0); });
}

void batch(world& w) {
  runner r{w, "batch"};
  runqcheck::gQueue<B> q;
  for (int i = 0; i < 3; i++) q.pushBack(w.fresh());
  r.op("runqputbatch", "owner=P0", [&] { S::runqputbatch(w.p0, q); });
  r.op("runqget", "owner=P0", [&] { (void)S::runqget(w.p0); });
}

void full(world& w) {
  runner r{w, "full"};
  for (std::uint32_t i = 0; i <= Cap; i++) r.put(false);  // the last one spills half
}

void steal(world& w) {
  runner r{w, "steal"};
  for (int i = 0; i < 4; i++) r.put(false);
  r.op("runqsteal", "thief=P1,victim=P0", [&] { (void)S::runqsteal(w.p1, w.p0, true); });
}

void steal_runnext(world& w) {
  runner r{w, "steal_runnext"};
  r.put(true);
  r.op("runqsteal", "thief=P1,victim=P0", [&] { (void)S::runqsteal(w.p1, w.p0, true); });
}

}  // namespace

int main() {
  runqcheck::fatal_handler() = [](const runqcheck::fatal_info& f) {
    throw port_fatal(std::string(f.msg) + (f.values.empty() ? "" : " " + f.values));
  };
  std::printf("subject %s %u %zu\n", subject_name, Cap, sizeof(typename S::p));
  for (auto* scenario : {put_get, batch, full, steal, steal_runnext}) {
    try {
      world w;
      scenario(w);
    } catch (const port_fatal& e) {
      std::fflush(stdout);
      std::printf("FAILED: weak-memory orders: the port's fatal error in a sequential run: "
                  "%s (subject %s)\n", e.what(), subject_name);
      return 1;
    } catch (const rec::livelock& e) {
      std::printf("FAILED: weak-memory orders: no progress: %s (subject %s)\n", e.what(),
                  subject_name);
      return 1;
    }
  }
  return 0;
}
