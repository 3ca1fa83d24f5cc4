// explore/runtime.hpp — what the explore backend calls: the engine running
// the current execution (explore/engine.hpp), behind one virtual interface so
// that the backend (and the port it runs) does not include the engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "graph.hpp"

namespace runqcheck::explore {

// One access a thread asks for.
struct request {
  op what = op::load;
  std::uint8_t mo = 0, mo_fail = 0;
  std::uint8_t bytes = 8;  // the value's size (fetch_add wraps at it)
  bool plain = false;
  bool spurious = false;  // see event::spurious
  std::uint32_t loc = 0;
  std::uint64_t a1 = 0, a2 = 0;  // see event::a1, a2
  std::uintptr_t site = 0;       // the source location, for spin detection
  // For a listener (options::on_access: the failure picture), not the search:
  const void* obj = nullptr;      // the B object accessed (null: a fence)
  bool atomic_obj = false;        // obj is a B::atomic read plainly (load_plain), not a var
  std::source_location where{};   // the port's line that made the access
  void (*show)(std::uint64_t v, char* buf, std::size_t n) = nullptr;  // v as text
};

inline std::uintptr_t site_of(const std::source_location& l) {
  return reinterpret_cast<std::uintptr_t>(l.file_name()) ^ (std::uintptr_t(l.line()) << 20) ^
         l.column();
}

// Thrown inside a thread to end it (a failure, or the execution stops).
struct stop_thread {};

class runtime {
 public:
  virtual std::uint32_t new_loc(std::uint64_t init) = 0;
  // Performs the access; returns the value read (a store: 0).
  virtual std::uint64_t access(const request& q) = 0;
  // A weak CAS at l: does it fail spuriously here? The engine explores both
  // answers (a choice event), a thread's weak CASes failing spuriously at
  // most once between two of its writes (a retry loop ends).
  virtual bool fail_spuriously(const std::source_location& l) {
    (void)l;
    return false;
  }
  // B::spin_pause(): blocks the thread if its iteration wrote nothing.
  virtual void spin() = 0;
  // A new operation of the running thread begins (its spin windows reset).
  virtual void op_boundary() = 0;
  [[noreturn]] virtual void fail(const std::string& what) = 0;
  // In the program's finish(): the complete execution's graph (else null).
  virtual const graph* finished() const { return nullptr; }
  // Where the running thread's next event goes: {thread, po index}; thread
  // -1 outside the threads (a deferred load's place: explore/observe.hpp).
  virtual eid place() const { return {}; }
  // A location's index in the graph (kNoGraphLoc: no event touched it) and
  // its initial value, by the key new_loc() gave it.
  static constexpr std::uint32_t kNoGraphLoc = UINT32_MAX;
  virtual std::uint32_t graph_loc(std::uint32_t key) const {
    (void)key;
    return kNoGraphLoc;
  }
  virtual std::uint64_t initial(std::uint32_t key) const {
    (void)key;
    return 0;
  }
  // In finish(): what a relaxed load of key placed at `at` (a place() of this
  // execution) may read in the complete execution, into out as {co index,
  // value} pairs, co-first first (explore/observe.hpp); none outside finish().
  virtual void readable(std::uint32_t key, eid at,
                        std::vector<std::pair<int, std::uint64_t>>& out) {
    (void)key, (void)at;
    out.clear();
  }
  // In finish(): whether the complete graph is SC-consistent; if so, sc_step(e)
  // is event e's place in one interleaving of it (checker::sc_order's).
  virtual bool finished_sc() { return false; }
  virtual std::uint32_t sc_step(eid e) const {
    (void)e;
    return 0;
  }
  // In finish(): a happens before b in the complete graph (the model's hb).
  virtual bool finished_hb(eid a, eid b) {
    (void)a, (void)b;
    return false;
  }
  virtual ~runtime() = default;
};

inline runtime* current = nullptr;

// A runtime in front of another while a backend records or answers some
// accesses itself (a set-up's, a harness hook's): what it does not override
// goes to `inner`. The finished execution's queries keep runtime's defaults:
// a stand-in lives only while a set-up or a hook runs.
class forwarding_runtime : public runtime {
 public:
  explicit forwarding_runtime(runtime* inner) : inner_(inner) {}
  std::uint32_t new_loc(std::uint64_t init) override { return inner_->new_loc(init); }
  std::uint64_t access(const request& q) override { return inner_->access(q); }
  void spin() override { inner_->spin(); }
  void op_boundary() override { inner_->op_boundary(); }
  [[noreturn]] void fail(const std::string& what) override {
    inner_->fail(what);
    std::abort();  // fail() does not return
  }

 protected:
  runtime* inner() const { return inner_; }

 private:
  runtime* inner_;
};

// Order advice (explore_scenarios --advise): the accesses of kind `what`
// made at a source line and column get the order given, stronger or weaker
// than the port's. A CAS keeps its failure order, raised to the load part
// of a stronger order (acquire, seq_cst) if below it. Set and cleared by
// the advice's runs only.
struct order_override {
  const char* file;
  std::uint32_t line, column;
  op what;
  std::uint8_t mo;
};
inline std::vector<order_override> order_overrides;

// q with the override that names its access applied (into tmp); q if none.
inline const request& with_override(const request& q, request& tmp) {
  for (const order_override& f : order_overrides) {
    if (q.what != f.what || q.where.line() != f.line || q.where.column() != f.column ||
        std::strcmp(q.where.file_name(), f.file) != 0)
      continue;
    tmp = q;
    tmp.mo = f.mo;
    auto acq = static_cast<std::uint8_t>(std::memory_order::acquire);
    auto sc = static_cast<std::uint8_t>(std::memory_order::seq_cst);
    auto rel = static_cast<std::uint8_t>(std::memory_order::release);
    std::uint8_t load_part = f.mo == sc ? sc : f.mo >= acq && f.mo != rel ? acq : 0;
    if (q.what == op::cas) tmp.mo_fail = std::max(q.mo_fail, load_part);
    return tmp;
  }
  return q;
}

}  // namespace runqcheck::explore
