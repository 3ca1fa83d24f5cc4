// explore/graph.hpp — the execution graph of the exploring engine: per
// thread, its events in program order (po); per read, the write it reads
// from (rf); per location, the coherence order of its writes (co) and
// its accesses. The shape of Kokologiannakis, Raad, Vafeiadis, PLDI 2019
// (section 3): a graph is the whole state of an exploration step, the
// program is re-run to reach it (its events replayed), never stored.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace runqcheck::explore {

inline constexpr int kMaxThreads = 8;
// A vector clock: per thread, the last po index that happens before (-1:
// none).
using clock = std::array<std::int32_t, kMaxThreads>;

// An event's name: thread and po index; thread -1 is a location's initial
// value (co-first, happens before everything).
struct eid {
  std::int16_t t = -1;
  std::int32_t i = -1;
  bool init() const { return t < 0; }
  friend bool operator==(eid a, eid b) = default;
};

enum class ek : std::uint8_t {
  read,   // a load, a failed CAS, a lock() that found the lock taken
  write,  // a store
  rmw,    // a successful CAS, a fetch_add/sub, an exchange, a lock() that took it
  fence,
};

// What produced a read-like event; it fixes how the value read turns into
// success and the value written (a revisit changes the value read).
// choice: a weak CAS's choice to fail spuriously (no location: a relaxed
// fence to the checks; rval 0, then 1; engine.hpp's fail_spuriously()).
// fbits: fetch_or, fetch_and or fetch_xor (a2: which, a `bits`).
enum class op : std::uint8_t { load, store, cas, fadd, lock, fence, xchg, choice, fbits };
enum class bits : std::uint8_t { or_, and_, xor_ };

// The value a bitwise RMW (op::fbits, `which` its a2) writes over v.
inline std::uint64_t apply_bits(std::uint64_t which, std::uint64_t v, std::uint64_t operand) {
  switch (static_cast<bits>(which)) {
    case bits::or_: return v | operand;
    case bits::and_: return v & operand;
    default: return v ^ operand;
  }
}

struct event {
  ek kind = ek::read;
  op what = op::load;
  std::uint8_t mo = 0;       // std::memory_order of the access (a CAS: success)
  std::uint8_t mo_fail = 0;  // a CAS's failure order
  bool plain = false;        // a non-atomic access (B::var, load_plain)
  // A read that reads a promise (model::lb: rf is not replayed before it;
  // engine.hpp's lb_revisit()).
  bool lb = false;
  // A weak CAS's spurious failure: a load that read a1, the expected value.
  // One that read another value is a plain failure met twice: the engine
  // drops its execution unjudged (engine.hpp's finish_execution()).
  bool spurious = false;
  std::uint8_t bytes = 8;    // the value's size (fetch_add wraps at it)
  std::uint32_t loc = 0;     // location: its index among those in use (engine.hpp's used)
  std::uint32_t stamp = 0;   // the order events were added (TruSt's <=_G)
  eid rf;                    // reads: the write read from
  std::uint64_t rval = 0;    // value read
  std::uint64_t wval = 0;    // value written (write, rmw)
  std::uint64_t a1 = 0;      // CAS: expected; fetch_add, fbits: operand; store, xchg: value
  std::uint64_t a2 = 0;      // CAS: desired; fbits: which (a `bits`)
  // Kept by the consistency checker (consistency.hpp) for the graph the
  // event is in: its hb clock, and what a read that synchronises with it
  // (a write) acquires. Not zeroed when an event is made (the checker
  // sets them before any read; an event is made per candidate).
  clock vc, msg;
  bool reads() const { return kind == ek::read || kind == ek::rmw; }
  bool writes() const { return kind == ek::write || kind == ek::rmw; }
};

// What tells two events of one kind apart in a graph's hash or shape
// beyond rf and co: a choice's value.
inline std::uint64_t choice_bits(const event& e) {
  return e.what == op::choice ? (e.rval + 1) << 4 : 0;
}

// A read-like event's outcome for the value it reads: success, the value
// written. Used when it is added and when a revisit changes its rf.
inline void settle(event& e, std::uint64_t v) {
  e.rval = v;
  switch (e.what) {
    case op::cas:
      e.kind = v == e.a1 ? ek::rmw : ek::read;
      e.wval = e.a2;
      break;
    case op::fadd:
      e.kind = ek::rmw;
      e.wval = v + e.a1;
      if (e.bytes < 8) e.wval &= (std::uint64_t(1) << (8 * e.bytes)) - 1;
      break;
    case op::xchg:
      e.kind = ek::rmw;
      e.wval = e.a1;
      break;
    case op::fbits:
      e.kind = ek::rmw;
      e.wval = apply_bits(e.a2, v, e.a1);
      break;
    case op::lock:
      e.kind = v == 0 ? ek::rmw : ek::read;
      e.wval = 1;
      break;
    default:
      break;
  }
}

// Per location, a list of events, every location's in one array so that a
// graph copies as flat arrays: location l's list is its first len_[l]
// entries of its slab ws_[off_[l], off_[l+1]) (locations are small
// integers: engine.hpp's used). A slab keeps room to grow, so an insert or
// erase moves the entries of its own list only; a full slab is widened
// (every later slab moved once). Rejected: one packed array (each insert
// moved every later list and renumbered every later offset: insert and
// erase were 7% of generated --total 3's instructions under callgrind).
// The graph's co (writes in co order) and its accesses per location.
class loc_lists {
 public:
  // The list of loc (empty for a location never named).
  [[gnu::always_inline]] std::span<const eid> of(std::uint32_t loc) const {
    if (loc >= len_.size()) return {};
    return {ws_.data() + off_[loc], len_[loc]};
  }
  // co: the index of a write: 0 for the initial value, then 1, 2, ...
  int index(std::uint32_t loc, eid w) const {
    if (w.init()) return 0;
    auto v = of(loc);
    return static_cast<int>(std::find(v.begin(), v.end(), w) - v.begin()) + 1;
  }
  // w placed at position pos (co: 0 is co-first) of loc's list.
  void insert(std::uint32_t loc, std::size_t pos, eid w) {
    if (loc >= len_.size()) name(loc);
    if (len_[loc] == off_[loc + 1] - off_[loc]) widen(loc);
    eid* b = ws_.data() + off_[loc];
    std::copy_backward(b + pos, b + len_[loc], b + len_[loc] + 1);
    b[pos] = w;
    len_[loc]++;
  }
  // w placed right after after (co: init places it co-first).
  void insert_after(std::uint32_t loc, eid after, eid w) {
    insert(loc, static_cast<std::size_t>(index(loc, after)), w);
  }
  // w taken out of loc's list.
  void erase(std::uint32_t loc, eid w) {
    eid* b = ws_.data() + off_[loc];
    eid* e = b + len_[loc];
    eid* at = std::find(b, e, w);
    std::copy(at + 1, e, at);
    len_[loc]--;
  }
  // Keeps the events e with keep(e), in their order.
  template <class Keep>
  void filter(Keep&& keep) {
    for (std::uint32_t l = 0; l < len_.size(); l++) {
      eid* b = ws_.data() + off_[l];
      std::uint32_t n = 0;
      for (std::uint32_t k = 0; k < len_[l]; k++)
        if (keep(b[k])) b[n++] = b[k];
      len_[l] = n;
    }
  }
  // The number of locations named (each() visits them).
  std::size_t size_hint() const { return len_.size(); }
  // f(loc, list) for each location (empty lists too), in order.
  template <class F>
  void each(F&& f) const {
    for (std::uint32_t l = 0; l < len_.size(); l++) f(l, of(l));
  }

 private:
  // Locations up to loc named, each with an empty slab of kSlab entries
  // (named to be inserted into: a slab of none was widened at once).
  void name(std::uint32_t loc) {
    if (off_.empty()) off_.push_back(0);
    std::size_t from = len_.size();
    off_.resize(loc + 2);
    for (std::size_t l = from; l <= loc; l++) off_[l + 1] = off_[l] + kSlab;
    len_.resize(loc + 1, 0);
    ws_.resize(off_[loc + 1]);
  }
  static constexpr std::uint32_t kSlab = 4;
  // loc's slab given room for as many entries again (at least kSlab).
  void widen(std::uint32_t loc) {
    std::uint32_t more = std::max<std::uint32_t>(kSlab, off_[loc + 1] - off_[loc]);
    ws_.insert(ws_.begin() + off_[loc + 1], more, eid{});
    for (std::size_t j = loc + 1; j < off_.size(); j++) off_[j] += more;
  }

  std::vector<std::uint32_t> off_;  // empty, or each slab's start then ws_'s size
  std::vector<std::uint32_t> len_;  // per location: its list's length
  std::vector<eid> ws_;
};

struct graph {
  std::vector<std::vector<event>> th;  // per thread, po order
  // Per location, its writes in co order (the initial value is implicit,
  // co-before all of them).
  loc_lists co;
  // Per location, its accesses (every event but fences), by thread, then po.
  loc_lists acc;
  std::uint32_t next_stamp = 1;
  // False: no event is (or was, before an undo) a seq_cst access or fence
  // (RC11's psc is then empty and not built).
  bool any_sc = false;

  event& at(eid e) { return th[e.t][e.i]; }
  const event& at(eid e) const { return th[e.t][e.i]; }
  std::size_t size() const {
    std::size_t n = 0;
    for (auto& t : th) n += t.size();
    return n;
  }
  int co_index(std::uint32_t loc, eid w) const { return co.index(loc, w); }
  // Event e (the last of its thread, not a fence) into acc.
  void add_access(std::uint32_t loc, eid e) {
    auto v = acc.of(loc);
    std::size_t pos = 0;
    while (pos < v.size() && v[pos].t <= e.t) pos++;
    acc.insert(loc, pos, e);
  }
  [[gnu::always_inline]] std::span<const eid> writes(std::uint32_t loc) const {
    return co.of(loc);
  }
  // The value of a write (or of the location's initial value).
  std::uint64_t value(eid w, std::uint64_t init) const { return w.init() ? init : at(w).wval; }
};

}  // namespace runqcheck::explore
