// runqcheck/backend/relacy.hpp — the model-checking backend: Relacy's
// rl::atomic (C++ memory model, store history), rl::var (race-checked plain
// variables), rl::mutex and rl::dyn_thread.
//
// Include this header after every std/gtest header: relacy.hpp #defines new,
// delete, malloc, free, assert and the memory_order_* names. The core only
// uses std::memory_order::acquire-style scoped names, which those macros do
// not touch. Threads must be created inside a simulation (a test_suite's
// thread() or before()), as Relacy requires of every rl object.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include <relacy/relacy.hpp>

#include <runqcheck/backend.hpp>

// relacy.hpp turns `delete` into its allocation tracker; `= delete` below
// must stay the C++ keyword.
#pragma push_macro("delete")
#undef delete

namespace runqcheck {

// An optional observer of every access made through the relacy backend (the
// fuzzer's trace, fuzz/). Null by default: one predictable branch per access.
// Called by the accessing thread right after the access, before the next
// scheduling point, so calls arrive in execution order. Must not allocate.
struct access_observer {
  enum class kind : std::uint8_t {
    load, store, rmw, cas_fail, fence, read, write, lock, unlock, yield, check
  };
  // value: what was read or written (rmw: the new value); old: what a store
  // or rmw replaced ("" if unknown). Texts are valid during the call only.
  virtual void on_access(kind k, const void* obj, const char* value, const char* old,
                         std::memory_order mo, const loc& l) = 0;
  // Called before an atomic load's scheduling point.
  virtual void before_load(const void* obj) = 0;
  // Called before a plain access (Relacy may stop the execution inside it
  // with a data race; the observer then knows which access it was).
  virtual void before_plain(kind k, const void* obj, const loc& l) = 0;
  virtual ~access_observer() = default;
};

namespace detail {
// A value as text for the trace: Gs by goid ("G3", "nil"), numbers in decimal.
template <class T>
void format_value(const T& v, char* buf, std::size_t n) {
  if constexpr (std::is_pointer_v<T>) {
    if (v == nullptr) std::snprintf(buf, n, "nil");
    else if constexpr (requires { v->goid; })
      std::snprintf(buf, n, "G%llu", static_cast<unsigned long long>(v->goid));
    else std::snprintf(buf, n, "%p", static_cast<const void*>(v));
  } else if constexpr (std::is_same_v<T, bool>) {
    std::snprintf(buf, n, "%s", v ? "true" : "false");
  } else if constexpr (std::is_signed_v<T>) {
    std::snprintf(buf, n, "%lld", static_cast<long long>(v));
  } else {
    std::snprintf(buf, n, "%llu", static_cast<unsigned long long>(v));
  }
}
}  // namespace detail

struct relacy {
  static constexpr const char* name = "relacy";
  static inline access_observer* observer = nullptr;
  template <class T>
  static void note(access_observer::kind k, const void* obj, const T& value, const T* old,
                   std::memory_order mo, const loc& l) {
    char v[32], o[32] = "";
    detail::format_value(value, v, sizeof v);
    if (old != nullptr) detail::format_value(*old, o, sizeof o);
    observer->on_access(k, obj, v, o, mo, l);
  }

  // Relacy's history names the function of each access. GCC's
  // source_location gives the whole signature; keep the bare name
  // ("runqgrab"), cached in static storage (no allocation inside a run).
  // Called on every access: an open-addressed table keyed by the pointer
  // (a linear scan of the cache was 8% of a fuzz run).
  static const char* short_name(const char* pretty) {
    constexpr unsigned kSlots = 256;  // power of two; at most kMax in use
    constexpr unsigned kMax = 128;
    static const char* keys[kSlots];
    static char names[kSlots][40];
    static unsigned n = 0;
    auto h = static_cast<unsigned>((reinterpret_cast<std::uintptr_t>(pretty) >> 3) * 0x9E3779B1u);
    unsigned i = (h >> 8) & (kSlots - 1);
    for (; keys[i] != nullptr; i = (i + 1) & (kSlots - 1))
      if (keys[i] == pretty) return names[i];
    const char* paren = std::strchr(pretty, '(');
    if (paren == nullptr || n == kMax) return pretty;
    const char* b = paren;
    while (b > pretty && (std::isalnum(static_cast<unsigned char>(b[-1])) || b[-1] == '_')) b--;
    std::size_t len =
        std::min<std::size_t>(static_cast<std::size_t>(paren - b), sizeof names[0] - 1);
    std::memcpy(names[i], b, len);
    names[i][len] = '\0';
    keys[i] = pretty;
    n++;
    return names[i];
  }
  static rl::debug_info info(const loc& l) {
    return rl::debug_info(short_name(l.function_name()), l.file_name(), l.line());
  }
  static rl::memory_order to_rl(std::memory_order mo) {
    switch (mo) {
      case std::memory_order::relaxed: return rl::mo_relaxed;
      case std::memory_order::consume: return rl::mo_consume;
      case std::memory_order::acquire: return rl::mo_acquire;
      case std::memory_order::release: return rl::mo_release;
      case std::memory_order::acq_rel: return rl::mo_acq_rel;
      default: return rl::mo_seq_cst;
    }
  }

  // The race rule of plain accesses (rl::var's, with the threads' vector
  // clocks) for an atomic location that is also read plainly: per thread,
  // the logical time of its last plain read and of its last write.
  class plain_access {
   public:
    // Before an atomic write: races with a plain read not ordered before it.
    // The clock is advanced before the write, so that what a release write
    // publishes covers it. commit=false: a CAS, recorded by wrote() if it
    // succeeds.
    rl::timestamp_t writing(const loc& l, bool commit) {
      auto& th = *rl::ctx().threadx_;
      for (unsigned i = 0; i < n(); i++)
        if (i != static_cast<unsigned>(th.index_) && th.acq_rel_order_[i] < read_[i])
          race(l, "data race: atomic write to a location another thread read plainly "
                  "(no happens-before)");
      rl::timestamp_t ts = ++th.own_acq_rel_order_;
      if (commit) write_[th.index_] = ts;
      return ts;
    }
    void wrote(const loc&, rl::timestamp_t ts) { write_[rl::ctx().threadx_->index_] = ts; }
    void reading(const loc& l) {
      auto& th = *rl::ctx().threadx_;
      for (unsigned i = 0; i < n(); i++)
        if (i != static_cast<unsigned>(th.index_) && th.acq_rel_order_[i] < write_[i])
          race(l, "data race: plain read of a location another thread wrote atomically "
                  "(no happens-before)");
      read_[th.index_] = ++th.own_acq_rel_order_;
    }

   private:
    static constexpr unsigned kMax = 16;
    static unsigned n() { return std::min<unsigned>(rl::ctx().get_thread_count(), kMax); }
    static void race(const loc& l, const char* what) {
      rl::ctx().fail_test(what, rl::test_result_data_race, info(l));
    }
    rl::timestamp_t read_[kMax] = {};
    rl::timestamp_t write_[kMax] = {};
  };

  // --- the set-up's recording seam (models/scenarios/counters.hpp) ----------
  // One atomic access of the sequential set-up (before()), as a finder of
  // the port's counters sees it: the location, whether its type is an
  // unsigned integer, its value before and after, and how to set it.
  struct setup_access {
    std::uintptr_t key = 0;  // the atomic's address
    const void* obj = nullptr;
    void (*set)(const void* obj, std::uint64_t v) = nullptr;  // a relaxed store, at its type
    std::uint8_t bytes = 0;
    bool counter_type = false;
    bool writes = false;
    std::uint64_t before = 0, after = 0;
  };
  // Null but while a setup_recorder lives: one predictable branch per access.
  static inline std::vector<setup_access>* recording = nullptr;
  // While alive (in before() only: each access it sees also reads the
  // location first), every atomic access is also appended to `out`.
  class setup_recorder {
   public:
    explicit setup_recorder(std::vector<setup_access>& out) : prev_(recording) {
      recording = &out;
    }
    ~setup_recorder() { recording = prev_; }
    setup_recorder(const setup_recorder&) = delete;
    setup_recorder& operator=(const setup_recorder&) = delete;

   private:
    std::vector<setup_access>* prev_;
  };
  // Sets a location's value during the set-up (a relaxed store of before()).
  static void set_setup_value(const setup_access& a, std::uint64_t v) { a.set(a.obj, v); }
  // Whether the scenario world finds a hook-less port's counters for a wrap
  // scenario (exec.hpp): set by a runner that tried the finder first and
  // says "not applied" where it found nothing (relacy_scenarios). Off, the
  // world runs such a scenario from 0, as the fuzzer does and says.
  static inline bool setup_finds_counters = false;

  template <class T>
  class atomic {
    static constexpr bool counter_type = std::is_unsigned_v<T> && !std::is_same_v<T, bool>;

   public:
    atomic() : a_(T{}) {}
    explicit atomic(T v) : a_(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    T load(std::memory_order mo, loc l = loc::current()) const {
      T v = load_(mo, l);
      if (recording != nullptr) [[unlikely]] record(v, v, false);
      return v;
    }
    void store(T v, std::memory_order mo, loc l = loc::current()) {
      if (recording != nullptr) [[unlikely]] {
        T old = a_.load(rl::mo_relaxed, info(l));
        store_(v, mo, l);
        return record(old, v, true);
      }
      store_(v, mo, l);
    }
    bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                                 std::memory_order failure, loc l = loc::current()) {
      return cas_rec(expected, desired, success, failure, l, false);
    }
    // Relacy fails it spuriously now and then (its compare_exchange_weak), as LL/SC may.
    bool compare_exchange_weak(T& expected, T desired, std::memory_order success,
                               std::memory_order failure, loc l = loc::current()) {
      return cas_rec(expected, desired, success, failure, l, true);
    }
    T fetch_add(T d, std::memory_order mo, loc l = loc::current()) {
      T old = fetch_add_(d, mo, l);
      if (recording != nullptr) [[unlikely]] record(old, static_cast<T>(old + d), true);
      return old;
    }
    T fetch_sub(T d, std::memory_order mo, loc l = loc::current()) {
      T old = fetch_sub_(d, mo, l);
      if (recording != nullptr) [[unlikely]] record(old, static_cast<T>(old - d), true);
      return old;
    }
    T exchange(T v, std::memory_order mo, loc l = loc::current()) {
      T old = exchange_(v, mo, l);
      if (recording != nullptr) [[unlikely]] record(old, v, true);
      return old;
    }
    // Bitwise RMWs (integers): rl::atomic's, with the order given.
    T fetch_or(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(mo, l, [&](auto& a, auto o, auto i) { return a.fetch_or(d, o, i); },
                        [d](T old) { return static_cast<T>(old | d); });
    }
    T fetch_and(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(mo, l, [&](auto& a, auto o, auto i) { return a.fetch_and(d, o, i); },
                        [d](T old) { return static_cast<T>(old & d); });
    }
    T fetch_xor(T d, std::memory_order mo, loc l = loc::current())
      requires std::is_integral_v<T>
    {
      return fetch_bits(mo, l, [&](auto& a, auto o, auto i) { return a.fetch_xor(d, o, i); },
                        [d](T old) { return static_cast<T>(old ^ d); });
    }
    // A plain (non-atomic) read of a location written atomically elsewhere,
    // as Go's runtime and real ports do (Go: `t := pp.runqtail`). It reads
    // like a relaxed load and is race-checked like an rl::var: a DATA RACE
    // unless every write to the location happens before it, or if a later
    // write does not happen after it. Plain reads never conflict.
    T load_plain(loc l = loc::current()) const {
      T v = load(std::memory_order::relaxed, l);
      plain_.reading(l);
      return v;
    }

   private:
    void record(T before, T after, bool writes) const {
      setup_access a;
      a.key = reinterpret_cast<std::uintptr_t>(this);
      a.obj = this;
      a.set = &set_at;
      a.bytes = sizeof(T);
      a.writes = writes;
      if constexpr (counter_type) {
        a.counter_type = true;
        a.before = before;
        a.after = after;
      }
      recording->push_back(a);
    }
    static void set_at(const void* obj, std::uint64_t v) {
      if constexpr (counter_type)
        const_cast<atomic*>(static_cast<const atomic*>(obj))
            ->store(static_cast<T>(v), std::memory_order::relaxed);
    }
    T load_(std::memory_order mo, loc l) const {
      if (observer == nullptr) return a_.load(to_rl(mo), info(l));
      observer->before_load(this);
      T v = a_.load(to_rl(mo), info(l));
      note<T>(access_observer::kind::load, this, v, nullptr, mo, l);
      return v;
    }
    void store_(T v, std::memory_order mo, loc l) {
      plain_.writing(l, true);
      if (observer == nullptr) return a_.store(v, to_rl(mo), info(l));
      a_.store(v, to_rl(mo), info(l));
      note<T>(access_observer::kind::store, this, v, nullptr, mo, l);
    }
    bool cas_rec(T& expected, T desired, std::memory_order success, std::memory_order failure,
                 loc l, bool weak) {
      T want = expected;
      bool ok = cas_(expected, desired, success, failure, l, weak);
      if (recording != nullptr) [[unlikely]]
        record(ok ? want : expected, ok ? desired : expected, ok);
      return ok;
    }
    // Relacy takes C++11's order pairs only (the failure order no stronger
    // than the success's, relaxed with a release or relaxed success): its
    // atomic.hpp runs another pair's failure as relaxed, or fails the CAS
    // outright for (acquire, seq_cst), its checks compiled out. C++17 allows
    // any failure order but release and acq_rel (a held-out port's steal
    // retried with (release, acquire) and Relacy reported a race no other
    // checker saw). Such a pair runs as the CAS with the strongest failure
    // order Relacy takes, then, when it fails, a fence of the order asked: a
    // relaxed read and an acquire fence after it synchronize with the write
    // read, as an acquire read does (seq_cst: a seq_cst fence).
    bool rl_cas(T& expected, T desired, std::memory_order s, std::memory_order f, loc l,
                bool weak) {
      std::memory_order rf = relacy_failure(s, f);
      bool ok = weak ? a_.compare_exchange_weak(expected, desired, to_rl(s), info(l), to_rl(rf),
                                                info(l))
                     : a_.compare_exchange_strong(expected, desired, to_rl(s), info(l),
                                                  to_rl(rf), info(l));
      if (!ok && rf != f)
        rl::atomic_thread_fence(to_rl(f == std::memory_order::seq_cst ? f
                                                                      : std::memory_order::acquire),
                                info(l));
      return ok;
    }
    // The strongest failure order up to f that Relacy takes with success s.
    static std::memory_order relacy_failure(std::memory_order s, std::memory_order f) {
      using mo = std::memory_order;
      switch (s) {
        case mo::relaxed:
        case mo::release: return mo::relaxed;
        case mo::consume: return f == mo::relaxed ? f : mo::consume;
        case mo::acquire:
        case mo::acq_rel: return f == mo::seq_cst ? mo::acquire : f;
        default: return f;  // seq_cst: every failure order
      }
    }
    bool cas_(T& expected, T desired, std::memory_order success, std::memory_order failure,
              loc l, bool weak) {
      auto ts = plain_.writing(l, false);
      if (observer == nullptr) {
        bool ok = rl_cas(expected, desired, success, failure, l, weak);
        if (ok) plain_.wrote(l, ts);
        return ok;
      }
      T want = expected;
      bool ok = rl_cas(expected, desired, success, failure, l, weak);
      if (ok) plain_.wrote(l, ts);
      if (ok) note<T>(access_observer::kind::rmw, this, desired, &want, success, l);
      else note<T>(access_observer::kind::cas_fail, this, expected, &want, failure, l);
      return ok;
    }
    T fetch_add_(T d, std::memory_order mo, loc l) {
      plain_.writing(l, true);
      T old = a_.fetch_add(d, to_rl(mo), info(l));
      if (observer != nullptr)
        note<T>(access_observer::kind::rmw, this, static_cast<T>(old + d), &old, mo, l);
      return old;
    }
    // rl::atomic's fetch_sub and exchange: RMWs with the order given.
    T fetch_sub_(T d, std::memory_order mo, loc l) {
      plain_.writing(l, true);
      T old = a_.fetch_sub(d, to_rl(mo), info(l));
      if (observer != nullptr)
        note<T>(access_observer::kind::rmw, this, static_cast<T>(old - d), &old, mo, l);
      return old;
    }
    // A bitwise RMW: rmw(a_, order, info) is rl::atomic's, after(old) the value it wrote.
    template <class Rmw, class After>
    T fetch_bits(std::memory_order mo, loc l, Rmw rmw, After after) {
      plain_.writing(l, true);
      T old = rmw(a_, to_rl(mo), info(l));
      T now = after(old);
      if (observer != nullptr) note<T>(access_observer::kind::rmw, this, now, &old, mo, l);
      if (recording != nullptr) [[unlikely]] record(old, now, true);
      return old;
    }
    T exchange_(T v, std::memory_order mo, loc l) {
      plain_.writing(l, true);
      T old = a_.exchange(v, to_rl(mo), info(l));
      if (observer != nullptr) note<T>(access_observer::kind::rmw, this, v, &old, mo, l);
      return old;
    }

    mutable rl::atomic<T> a_;
    mutable plain_access plain_;
  };

  template <class T>
  class var {
   public:
    var() : v_(T{}) {}
    explicit var(T v) : v_(v) {}
    var(const var&) = delete;
    var& operator=(const var&) = delete;
    T load(loc l = loc::current()) const {
      if (observer != nullptr) observer->before_plain(access_observer::kind::read, this, l);
      T v = v_(info(l));
      if (observer != nullptr)
        note<T>(access_observer::kind::read, this, v, nullptr, std::memory_order::relaxed, l);
      return v;
    }
    void store(T v, loc l = loc::current()) {
      if (observer != nullptr) observer->before_plain(access_observer::kind::write, this, l);
      v_(info(l)) = v;
      if (observer != nullptr)
        note<T>(access_observer::kind::write, this, v, nullptr, std::memory_order::relaxed, l);
    }

   private:
    rl::var<T> v_;
  };

  class mutex {
   public:
    void lock(loc l = loc::current()) {
      m_.lock(info(l));
      if (observer != nullptr)
        note<int>(access_observer::kind::lock, this, 1, nullptr, std::memory_order::acquire, l);
    }
    void unlock(loc l = loc::current()) {
      m_.unlock(info(l));
      if (observer != nullptr)
        note<int>(access_observer::kind::unlock, this, 0, nullptr, std::memory_order::release, l);
    }
    bool held_by_me() const { return true; }  // relacy reports misuse itself

   private:
    rl::mutex m_;
  };

  // A dynamic relacy thread running a callable. The object must outlive the
  // thread (it lives in the spawning frame until join), so it does not move.
  class thread {
   public:
    template <class F>
    explicit thread(F&& f) : fn_(std::forward<F>(f)) { t_.start(&trampoline, this); }
    thread(const thread&) = delete;
    thread& operator=(const thread&) = delete;
    void join() { t_.join(); }

   private:
    static void* trampoline(void* self) {
      static_cast<thread*>(self)->fn_();
      return nullptr;
    }
    std::function<void()> fn_;
    rl::dyn_thread t_;
  };

  static void fence(std::memory_order mo, loc l = loc::current()) {
    rl::atomic_thread_fence(to_rl(mo), info(l));
    if (observer != nullptr) note<int>(access_observer::kind::fence, nullptr, 0, nullptr, mo, l);
  }
  // Under the model checker the 3µs sleep is a scheduling point.
  static void runqgrab_backoff(loc l = loc::current()) { yield(l); }
  static void spin_pause(loc l = loc::current()) { yield(l); }
  static void yield(const loc& l) {
    if (observer != nullptr)
      note<int>(access_observer::kind::yield, nullptr, 0, nullptr, std::memory_order::relaxed, l);
    rl::yield(1, info(l));
  }
  // The last failed check's text (a static buffer, not a std::string:
  // memory allocated inside a simulation belongs to Relacy's heap).
  static inline char fatal_text[512] = {};
  static inline fatal_kind fatal_seen = fatal_kind::port;  // the kind of fatal_text's error
  static void fatal(const fatal_info& f) {
    fatal_seen = f.kind;
    std::snprintf(fatal_text, sizeof fatal_text, "%s: %s%s%s",
                  fatal_label(f.kind), f.msg,
                  f.values.empty() ? "" : " ", f.values.c_str());
    if (observer != nullptr)
      observer->on_access(access_observer::kind::check, nullptr, fatal_text, "",
                          std::memory_order::relaxed, f.where);
    rl::ctx().fail_test(fatal_text, rl::test_result_user_assert_failed, info(f.where));
  }
};

static_assert(backend<relacy>);

}  // namespace runqcheck

#pragma pop_macro("delete")
