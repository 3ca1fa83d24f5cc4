// tests/c11/gcc_builtins_test.cpp — a C port in GCC's builtin style (tests/c11/gcc_port.h:
// __atomic_* and __sync_* on fields marked RUNQCHECK_ATOMIC) compiled inside an adapter's
// class with runqcheck/c11.hpp, as docs/porting.md section 8 says.
//
// Usage: gcc_builtins_test values    every builtin's results on the native backend, one
//                                    line (check_gcc.sh compares it with the C compiler's)
//        gcc_builtins_test explore   the message passing explored exhaustively under SC
//                                    and RC11: the seam gets each builtin's order at the
//                                    port's line; with release/acquire no failure, with
//                                    either order relaxed a data race on the payload;
//                                    two threads' fetch_or on one word: both bits, ordered
// Exit 0: each held.
#include <runqcheck/c11.hpp>
#include <runqcheck/backend/explore.hpp>
#include <runqcheck/backend/native.hpp>
#include <runqcheck/check.hpp>

#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "explore/search.hpp"

namespace {

template <class B>
struct port {
  RUNQCHECK_C11_PORT(B)
#include <runqcheck/c11/on.h>
#include "gcc_port.h"
#include <runqcheck/c11/off.h>
};
// The same header with the publication's release, then the consumer's acquire, relaxed.
template <class B>
struct relaxed_publish {
  RUNQCHECK_C11_PORT(B)
#undef GP_PUBLISH_ORDER
#define GP_PUBLISH_ORDER __ATOMIC_RELAXED
#include <runqcheck/c11/on.h>
#undef GCC_PORT_H
#include "gcc_port.h"
#include <runqcheck/c11/off.h>
#undef GP_PUBLISH_ORDER
};
template <class B>
struct relaxed_consume {
  RUNQCHECK_C11_PORT(B)
#undef GP_CONSUME_ORDER
#define GP_CONSUME_ORDER __ATOMIC_RELAXED
#include <runqcheck/c11/on.h>
#undef GCC_PORT_H
#include "gcc_port.h"
#include <runqcheck/c11/off.h>
#undef GP_CONSUME_ORDER
};

int values() {
  using S = port<runqcheck::native>;
  S::gp_box b;
  S::gp_init(&b);
  std::uint32_t got[64];
  int k = S::gp_exercise(&b, got);
  for (int i = 0; i < k; i++) std::printf("%u ", got[i]);
  std::printf("\n");
  return 0;
}

namespace ex = runqcheck::explore;
using E = runqcheck::explore_backend;

// Thread 0 publishes 7; thread 1 reads it if `ready` says so.
template <template <class> class Port>
struct message final : ex::program {
  using S = Port<E>;
  std::optional<typename S::gp_box> box;
  int threads() const override { return 2; }
  void setup() override {
    box.emplace();
    S::gp_init(&*box);
  }
  void run(int t) override {
    if (t == 0) return S::gp_publish(&*box, 7);
    std::uint32_t v = 0;
    if (S::gp_consume(&*box, &v)) RQ_CHECK(E, v == 7, "gcc_port: a torn message", "v", v);
  }
  void finish() override {}
  void teardown() override { box.reset(); }
};

// The order of the access from FN's line in gcc_port.h that is no plain one
// (gp_publish's store of `ready`, gp_consume's load of it), as the seam got it.
struct seen {
  int publish = -1, consume = -1;
  bool payload_lines = false;  // the payload's plain accesses name gcc_port.h
  void record(const ex::request& r) {
    std::string file = r.where.file_name(), fn = r.where.function_name();
    if (!file.ends_with("gcc_port.h")) return;
    if (r.plain) payload_lines = true;
    else if (fn.find("gp_publish") != std::string::npos && r.what == ex::op::store)
      publish = r.mo;
    else if (fn.find("gp_consume") != std::string::npos && r.what == ex::op::load)
      consume = r.mo;
  }
};

int order(std::memory_order mo) { return static_cast<int>(mo); }

// The message passing explored under SC and RC11: the orders the seam got are
// PUBLISH and CONSUME; with both release/acquire no failure, else a data race
// (the relaxed flag orders nothing, under either model).
template <template <class> class Port>
bool run(const char* name, std::memory_order publish, std::memory_order consume) {
  bool ok = true;
  bool want_race = publish != std::memory_order::release || consume != std::memory_order::acquire;
  for (ex::model m : {ex::model::sc, ex::model::rc11}) {
    message<Port> p;
    seen at;
    ex::options o;
    o.m = m;
    o.on_access = [&at](int, const ex::event&, const ex::request& r) { at.record(r); };
    ex::stats s = ex::explore(p, o);
    bool orders = at.publish == order(publish) && at.consume == order(consume);
    bool race = s.failed && s.failure.starts_with("data race");
    bool good = orders && at.payload_lines && (want_race ? race : !s.failed && s.exhausted);
    std::printf("%s %s %s: the seam got publish %d, consume %d (want %d, %d); %s%s\n",
                good ? "ok  " : "FAIL", name, ex::model_name(m), at.publish, at.consume,
                order(publish), order(consume),
                s.failed ? "failed: " : (s.exhausted ? "exhausted, no failure" : "not exhausted"),
                s.failed ? s.failure.c_str() : "");
    ok &= good;
  }
  return ok;
}

// Threads 0 and 1 each set a bit of one flag word (gp_set_flag: a relaxed fetch_or):
// in every execution the word ends with both bits, and exactly one thread saw the
// word empty (the two RMWs are ordered); two executions, one per order.
struct flags final : ex::program {
  using S = port<E>;
  std::optional<S::gp_box> box;
  std::uint32_t before[2] = {};
  bool bad = false;
  int threads() const override { return 2; }
  void setup() override {
    box.emplace();
    S::gp_init(&*box);
  }
  void run(int t) override { before[t] = S::gp_set_flag(&*box, t == 0 ? 1u : 2u); }
  void finish() override {
    std::uint32_t now = box->n.load(std::memory_order::relaxed);
    bad |= now != 3 || (before[0] == 0) == (before[1] == 0);
  }
  void teardown() override { box.reset(); }
};

bool run_flags() {
  bool ok = true;
  for (ex::model m : {ex::model::sc, ex::model::rc11}) {
    flags p;
    ex::options o;
    o.m = m;
    ex::stats s = ex::explore(p, o);
    bool good = !s.failed && s.exhausted && !p.bad && s.complete == 2;
    std::printf("%s bitwise RMWs %s: %llu complete executions (want 2), %s\n",
                good ? "ok  " : "FAIL", ex::model_name(m),
                static_cast<unsigned long long>(s.complete),
                p.bad ? "a bit lost or both saw the word empty" : "both bits set, ordered");
    ok &= good;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "values") == 0) return values();
  if (argc == 2 && std::strcmp(argv[1], "explore") == 0) {
    constexpr auto rx = std::memory_order::relaxed, rel = std::memory_order::release,
                   acq = std::memory_order::acquire;
    bool ok = run<port>("release/acquire", rel, acq);
    ok &= run<relaxed_publish>("relaxed publish", rx, acq);
    ok &= run<relaxed_consume>("relaxed consume", rel, rx);
    ok &= run_flags();
    return ok ? 0 : 1;
  }
  std::fprintf(stderr, "usage: %s values|explore\n", argv[0]);
  return 2;
}
