// runqcheck/backend/explore.hpp — the exploring backend: every access goes
// to the engine (engine/explore/engine.hpp), which decides what a
// read reads (its rf) and replays earlier choices. Threads are the engine's
// fibers, run one at a time; nothing here is shared state of its own.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <runqcheck/backend.hpp>

#include "explore/runtime.hpp"

namespace runqcheck {

struct explore_backend {
  static constexpr const char* name = "explore";
  // A run whose blocked threads all wait for good may end there (the
  // engine's options::waits_end): a harness needs no counter of its own to
  // tell parked threads when to leave.
  static constexpr bool ends_waits = true;

  template <class T>
  static std::uint64_t enc(T v) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8);
    std::uint64_t u = 0;
    std::memcpy(&u, &v, sizeof v);
    return u;
  }
  template <class T>
  static T dec(std::uint64_t u) {
    T v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  }
  static explore::runtime& rt() { return *explore::current; }
  // A value as text for the failure picture: Gs by goid ("G3", "nil"), as
  // the Relacy backend's trace shows them.
  template <class T>
  static void show(std::uint64_t u, char* buf, std::size_t n) {
    T v = dec<T>(u);
    if constexpr (std::is_pointer_v<T>) {
      if (v == nullptr) std::snprintf(buf, n, "nil");
      else if constexpr (requires { v->goid; })
        std::snprintf(buf, n, "G%llu", static_cast<unsigned long long>(v->goid));
      else std::snprintf(buf, n, "%p", static_cast<const void*>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      std::snprintf(buf, n, "%s", v ? "true" : "false");
    } else if constexpr (std::is_enum_v<T> || std::is_unsigned_v<T>) {
      std::snprintf(buf, n, "%llu", static_cast<unsigned long long>(v));
    } else if constexpr (std::is_integral_v<T>) {
      std::snprintf(buf, n, "%lld", static_cast<long long>(v));
    } else {
      std::snprintf(buf, n, "%#llx", static_cast<unsigned long long>(u));  // its bytes
    }
  }
  template <class T = std::uint64_t>
  static explore::request req(explore::op w, std::memory_order mo, std::uint32_t key,
                              std::uint8_t bytes, const loc& l, const void* obj = nullptr) {
    explore::request q;
    q.what = w;
    q.mo = static_cast<std::uint8_t>(mo);
    q.loc = key;
    q.bytes = bytes;
    q.site = explore::site_of(l);
    q.obj = obj;
    q.where = l;
    q.show = &show<T>;
    return q;
  }

  template <class T>
  class atomic {
   public:
    atomic() : atomic(T{}) {}
    explicit atomic(T v) : loc_(rt().new_loc(enc(v))) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc l = loc::current()) const {
      return dec<T>(rt().access(req<T>(explore::op::load, mo, loc_, sizeof(T), l, this)));
    }
    // A plain read: relaxed in the graph, race-checked (conflicting accesses
    // unordered by hb are a data race).
    T load_plain(loc l = loc::current()) const {
      auto q = req<T>(explore::op::load, std::memory_order::relaxed, loc_, sizeof(T), l, this);
      q.plain = true;
      q.atomic_obj = true;
      return dec<T>(rt().access(q));
    }
    void store(T v, std::memory_order mo, loc l = loc::current()) {
      auto q = req<T>(explore::op::store, mo, loc_, sizeof(T), l, this);
      q.a1 = enc(v);
      rt().access(q);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order s, std::memory_order f,
                                 loc l = loc::current()) {
      auto q = req<T>(explore::op::cas, s, loc_, sizeof(T), l, this);
      q.mo_fail = static_cast<std::uint8_t>(f);
      q.a1 = enc(expected);
      q.a2 = enc(desired);
      std::uint64_t v = rt().access(q);
      if (v == q.a1) return true;
      expected = dec<T>(v);
      return false;
    }
    // The strong CAS, or a spurious failure: a load with the failure order
    // that reads the expected value (the engine's choice, both explored;
    // runtime.hpp's fail_spuriously(): at most once between two writes of
    // the thread, so that a retry loop ends).
    bool compare_exchange_weak(T& expected, T desired, std::memory_order s, std::memory_order f,
                               loc l = loc::current()) {
      if (!rt().fail_spuriously(l)) return compare_exchange_strong(expected, desired, s, f, l);
      auto q = req<T>(explore::op::load, f, loc_, sizeof(T), l, this);
      q.spurious = true;
      q.a1 = enc(expected);
      expected = dec<T>(rt().access(q));
      return false;
    }
    T fetch_add(T d, std::memory_order mo, loc l = loc::current()) {
      auto q = req<T>(explore::op::fadd, mo, loc_, sizeof(T), l, this);
      q.a1 = enc(d);
      return dec<T>(rt().access(q));
    }
    // An RMW adding the two's complement: the engine wraps at sizeof(T).
    T fetch_sub(T d, std::memory_order mo, loc l = loc::current()) {
      auto q = req<T>(explore::op::fadd, mo, loc_, sizeof(T), l, this);
      q.a1 = std::uint64_t{0} - enc(d);
      return dec<T>(rt().access(q));
    }
    // Bitwise RMWs (integers): op::fbits, the operation in a2.
    T fetch_or(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(explore::bits::or_, d, mo, l);
    }
    T fetch_and(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(explore::bits::and_, d, mo, l);
    }
    T fetch_xor(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(explore::bits::xor_, d, mo, l);
    }
    // An RMW whose write is v whatever it reads.
    T exchange(T v, std::memory_order mo, loc l = loc::current()) {
      auto q = req<T>(explore::op::xchg, mo, loc_, sizeof(T), l, this);
      q.a1 = enc(v);
      return dec<T>(rt().access(q));
    }

   private:
    T fetch_bits(explore::bits which, T d, std::memory_order mo, loc l) {
      auto q = req<T>(explore::op::fbits, mo, loc_, sizeof(T), l, this);
      q.a1 = enc(d);
      q.a2 = static_cast<std::uint64_t>(which);
      return dec<T>(rt().access(q));
    }
    std::uint32_t loc_;
  };

  template <class T>
  class var {
   public:
    var() : var(T{}) {}
    explicit var(T v) : loc_(rt().new_loc(enc(v))) {}
    var(const var&) = delete;
    var& operator=(const var&) = delete;
    T load(loc l = loc::current()) const {
      auto q = req<T>(explore::op::load, std::memory_order::relaxed, loc_, sizeof(T), l, this);
      q.plain = true;
      return dec<T>(rt().access(q));
    }
    void store(T v, loc l = loc::current()) {
      auto q = req<T>(explore::op::store, std::memory_order::relaxed, loc_, sizeof(T), l, this);
      q.plain = true;
      q.a1 = enc(v);
      rt().access(q);
    }

   private:
    std::uint32_t loc_;
  };

  // sched.lock: an acquire RMW 0 -> 1 that blocks the thread while it reads
  // a taken lock, and a release store of 0.
  class mutex {
   public:
    mutex() : loc_(rt().new_loc(0)) {}
    void lock(loc l = loc::current()) {
      auto q = req(explore::op::lock, std::memory_order::acquire, loc_, 1, l, this);
      q.a1 = 0;
      q.a2 = 1;
      rt().access(q);
    }
    void unlock(loc l = loc::current()) {
      auto q = req(explore::op::store, std::memory_order::release, loc_, 1, l, this);
      rt().access(q);
    }
    bool held_by_me() const { return true; }  // a second lock() blocks: reported as blocked

   private:
    std::uint32_t loc_;
  };

  // The engine runs the scenario's threads itself; a port that spawns one
  // is outside what this backend explores.
  class thread {
   public:
    template <class F>
    explicit thread(F&&) {
      rt().fail("explore: B::thread is not supported (the scenario's threads are the engine's)");
    }
    void join() {}
  };

  // --- the set-up's recording seam (models/scenarios/counters.hpp) ----------
  // One access of the sequential set-up (before the threads start), as a
  // finder of the port's counters sees it: which location, whether its type
  // is an unsigned integer, its value before and after.
  struct setup_access {
    std::uint32_t key = 0;  // the location
    std::uint8_t bytes = 0;
    bool counter_type = false;  // an atomic of an unsigned integer type (no plain write)
    bool writes = false;
    std::uint64_t before = 0, after = 0;
  };
  // While alive (during the set-up only: each access it adds reads the
  // location first), every access is also appended to `out`. It stands
  // between the backend and the engine's runtime (explore::current): the
  // engine is not told, and the set-up's accesses are not events.
  class setup_recorder final : explore::forwarding_runtime {
   public:
    explicit setup_recorder(std::vector<setup_access>& out)
        : forwarding_runtime(explore::current), out_(out) {
      explore::current = this;
    }
    ~setup_recorder() override { explore::current = inner(); }
    setup_recorder(const setup_recorder&) = delete;
    setup_recorder& operator=(const setup_recorder&) = delete;
    std::uint64_t access(const explore::request& q) override {
      if (q.what == explore::op::fence) return inner()->access(q);
      explore::request r = q;
      r.what = explore::op::load;
      setup_access a;
      a.key = q.loc;
      a.bytes = q.bytes;
      a.before = inner()->access(r);
      std::uint64_t v = inner()->access(q);
      std::uint64_t mask = q.bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << 8 * q.bytes) - 1;
      switch (q.what) {
        case explore::op::store: a.writes = true, a.after = q.a1; break;
        case explore::op::cas: a.writes = v == q.a1, a.after = a.writes ? q.a2 : v; break;
        case explore::op::fadd: a.writes = true, a.after = (v + q.a1) & mask; break;
        case explore::op::xchg: a.writes = true, a.after = q.a1; break;
        case explore::op::fbits:
          a.writes = true, a.after = explore::apply_bits(q.a2, v, q.a1) & mask;
          break;
        default: a.after = a.before; break;  // a load; a lock (no counter)
      }
      a.counter_type = counter_show(q.show) && q.what != explore::op::lock &&
                       !(q.plain && a.writes) && q.obj != nullptr;
      out_.push_back(a);
      return v;
    }

   private:
    std::vector<setup_access>& out_;
  };
  // Sets a location's value during the set-up (as a store of the set-up
  // does: the threads start from it).
  static void set_setup_value(const setup_access& a, std::uint64_t v) {
    explore::request q;
    q.what = explore::op::store;
    q.mo = static_cast<std::uint8_t>(std::memory_order::relaxed);
    q.loc = a.key;
    q.bytes = a.bytes;
    q.a1 = v;
    rt().access(q);
  }
  // The scenario world finds a hook-less port's counters for a wrap scenario
  // (exec.hpp; every runner on this backend tries the finder first).
  static constexpr bool setup_finds_counters = true;
  // Whether an access's value type is an unsigned integer (by its printer).
  static bool counter_show(void (*f)(std::uint64_t, char*, std::size_t)) {
    return f == &show<unsigned char> || f == &show<unsigned short> || f == &show<unsigned> ||
           f == &show<unsigned long> || f == &show<unsigned long long>;
  }

  // --- deferred loads (explore/observe.hpp; exec.hpp's steal-size rule) ----
  // A load a harness makes only to judge (the port's counters around a
  // steal), kept as a place instead of made as an event: it adds no
  // execution to the search. Judged once the execution is complete, over
  // every value coherence lets it read there.
  static constexpr bool defers_loads = true;
  // The oracle of deferral (generated --crosscheck-deferred): the same loads
  // made as events, each then judged at the one value it read.
  static inline bool loads_as_events = false;
  // explore::current replaced while alive (restored however f leaves).
  struct swap_runtime {
    explore::runtime* was;
    explicit swap_runtime(explore::runtime* r) : was(explore::current) { explore::current = r; }
    ~swap_runtime() { explore::current = was; }
    swap_runtime(const swap_runtime&) = delete;
    swap_runtime& operator=(const swap_runtime&) = delete;
  };
  struct deferred_load {
    std::uint32_t key = 0;  // the location
    explore::eid at;        // the thread and the po index of its next event
  };
  // Runs f, whose accesses must all be loads, with each load kept in `out`
  // (in order) and answered 0: its result is not the harness's to use. A
  // store or an RMW in f fails the execution (a hook that writes).
  template <class F>
  static void defer_loads(std::vector<deferred_load>& out, F&& f) {
    struct recorder final : explore::forwarding_runtime {
      std::vector<deferred_load>& out;
      recorder(std::vector<deferred_load>& o, explore::runtime* in)
          : forwarding_runtime(in), out(o) {}
      std::uint64_t access(const explore::request& q) override {
        if (q.what != explore::op::load)
          inner()->fail("explore: a hook the harness only reads through (runq_counters) wrote");
        out.push_back({q.loc, inner()->place()});
        if (!loads_as_events) return 0;
        swap_runtime engine(inner());  // the thread may yield to the engine in between
        return inner()->access(q);
      }
      void spin() override {}
      void op_boundary() override {}
    } r(out, explore::current);
    swap_runtime in(&r);
    f();
  }
  // In the program's finish(): what load d may read, {co index, value}, co-first first.
  static void deferred_values(const deferred_load& d,
                              std::vector<std::pair<int, std::uint64_t>>& out) {
    if (!loads_as_events) return rt().readable(d.key, d.at, out);
    out.clear();
    if (const explore::graph* g = rt().finished(); g != nullptr) {
      const explore::event& e = g->at(d.at);
      out.emplace_back(g->co_index(e.loc, e.rf), e.rval);
    }
  }
  // Runs f again with its loads answered by vals in order (f's loads must be
  // as many, at the same locations: else false, and f's result is not to be
  // used).
  template <class F>
  static bool feed_loads(const std::vector<deferred_load>& loads,
                         const std::vector<std::uint64_t>& vals, F&& f) {
    struct feeder final : explore::forwarding_runtime {
      const std::vector<deferred_load>& loads;
      const std::vector<std::uint64_t>& vals;
      std::size_t next = 0;
      bool same = true;
      feeder(const std::vector<deferred_load>& l, const std::vector<std::uint64_t>& v,
             explore::runtime* in)
          : forwarding_runtime(in), loads(l), vals(v) {}
      std::uint64_t access(const explore::request& q) override {
        if (q.what != explore::op::load || next >= loads.size() || loads[next].key != q.loc) {
          same = false;
          return 0;
        }
        return vals[next++];
      }
      void spin() override {}
      void op_boundary() override {}
    } fd(loads, vals, explore::current);
    {
      swap_runtime in(&fd);
      f();
    }
    return fd.same && fd.next == loads.size();
  }

  static void fence(std::memory_order mo, loc l = loc::current()) {
    rt().access(req(explore::op::fence, mo, 0, 0, l));
  }
  // Go's usleep(3): no time passes in a graph; every order is explored.
  static void runqgrab_backoff() {}
  static void spin_pause() { rt().spin(); }
  [[noreturn]] static void fatal(const fatal_info& f) {
    rt().fail(std::string(fatal_label(f.kind)) + ": " + f.msg +
              (f.values.empty() ? "" : " " + f.values));
    std::abort();  // fail() does not return
  }
};

static_assert(backend<explore_backend>);

}  // namespace runqcheck
