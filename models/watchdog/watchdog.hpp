// models/watchdog/watchdog.hpp — turns a hang inside a subject into a prompt
// failure with a state dump, for the native checkers (unit, property_sched,
// lincheck_threads, diff_gen).
//
// runqcheck::watched<S> is a subject (subject.hpp) that forwards every
// operation and optional hook of S. Around each operation it records, in the
// calling thread's slot, the operation's name and its Ps; when the operation
// returns it ticks the slot's progress counter. A watchdog thread (started
// by the first operation) fails the run when an operation is in flight and
// none has returned for N seconds
// ($RUNQCHECK_WATCHDOG_SECONDS, default 5; 0 disables): it prints every
// thread's current operation, the Ps of the operations in flight (their
// counters and ring, through the runq_counters / describe_p hooks), the global
// queue (describe_sched, which never takes the lock), the harness's ledger
// and the reproducer the checker registered, then _exit(3).
//
// Only the Ps of operations in flight are dumped: such a P is alive (its
// operation has not returned), while a P the harness destroyed may be gone.
// Native only: under Relacy (its own livelock detection) or the fuzz backend
// watched<S> is never used; with RUNQCHECK_NO_WATCHDOG it adds nothing.
#pragma once

#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <mutex>
#include <runqcheck/subject.hpp>
#include <string>
#include <thread>
#include <utility>

namespace runqcheck::wd {

inline constexpr int exit_code = 3;  // the watchdog's exit status
inline constexpr int max_threads = 256;

// One thread's current operation. The owner thread writes the fields, then
// publishes with a release store of op; the watchdog reads op with acquire
// (synchronizes with that store) and then the fields. The fields change
// under a dump only if the stuck op returned after all (then the dump mixes
// two ops; the run was stuck for N seconds either way).
struct slot {
  std::atomic<bool> used{false};         // owned by a live thread (see my_slot)
  std::atomic<const char*> op{nullptr};  // nullptr: not in an operation
  // Ops of this slot that returned; only its thread writes it (relaxed: the
  // watchdog only sums successive values). One counter per thread, so the
  // watched ops of different threads share no cache line for it.
  alignas(64) std::atomic<std::uint64_t> returned{0};
  std::atomic<std::int32_t> pid[2]{{-1}, {-1}};
  std::atomic<const void*> pp[2]{{nullptr}, {nullptr}};
  std::atomic<std::string (*)(const void*)> describe{nullptr};  // of pp
  // The last operation of this thread that an exception ended (a fatal error
  // the checker throws) and the exception's text. Only this thread writes
  // them; threw's release store publishes them to dump()'s acquire load.
  std::atomic<const char*> threw{nullptr};  // the operation
  std::atomic<std::int64_t> threw_ns{0};    // when (steady clock)
  char threw_text[256] = {};
};

inline std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct state {
  std::array<slot, max_threads> slots;
  std::atomic<int> nslots{0};  // slots ever used (a bound for scans); relaxed: op publishes a slot
  // The schedt in use and how to describe it (relaxed; dumps only).
  std::atomic<const void*> sched{nullptr};
  std::atomic<std::string (*)(const void*)> describe_sched{nullptr};
  std::mutex m;                         // guards the two below
  std::string reproducer;               // the current test's reproducer command
  std::function<std::string()> ledger;  // the harness's own ledger, if any
  std::once_flag started;
};

// Never destroyed: the detached watchdog thread may read it during exit.
inline state& st() {
  static state* s = new state;
  return *s;
}

// $RUNQCHECK_WATCHDOG_SECONDS (default 5); 0 disables the watchdog.
inline long limit_seconds() {
  const char* e = std::getenv("RUNQCHECK_WATCHDOG_SECONDS");
  if (e == nullptr || *e == '\0') return 5;
  char* end = nullptr;
  long v = std::strtol(e, &end, 10);
  if (end == e || *end != '\0' || v < 0) {
    std::fprintf(stderr, "runqcheck: bad RUNQCHECK_WATCHDOG_SECONDS '%s' (want seconds >= 0)\n", e);
    std::exit(2);
  }
  return v;
}

inline void set_reproducer(std::string r) {
  std::lock_guard<std::mutex> lk(st().m);
  st().reproducer = std::move(r);
}
inline void set_ledger(std::function<std::string()> f) {
  std::lock_guard<std::mutex> lk(st().m);
  st().ledger = std::move(f);
}

// The dump, on stderr; called by the watchdog thread with the world stopped
// in the hung operation(s).
// stuck_ns: when the last operation returned.
inline void dump(long secs, std::int64_t stuck_ns) {
  state& s = st();
  const int n = s.nslots.load(std::memory_order_relaxed);
  // An exception that ended the last operation to return comes first: a fatal
  // error raised with the port's lock held leaves the others waiting.
  for (int i = 0; i < n && i < max_threads; i++) {
    const char* op = s.slots[i].threw.load(std::memory_order_acquire);  // pairs with threw()
    // relaxed: published by threw's release; 1 s covers the 100 ms polling
    std::int64_t at = s.slots[i].threw_ns.load(std::memory_order_relaxed);
    if (op == nullptr || at < stuck_ns - 1000000000) continue;
    std::fprintf(stderr, "\nrunqcheck: watchdog: FAILED: %s (it ended thread %d's %s; then no "
                 "subject operation returned for %lds)\n", s.slots[i].threw_text, i, op, secs);
    break;
  }
  std::fprintf(stderr,
               "\nrunqcheck: watchdog: FAILED: no subject operation returned for %lds "
               "(livelock or deadlock in the port); state dump:\n",
               secs);
  for (int i = 0; i < n && i < max_threads; i++) {
    slot& t = s.slots[i];
    const char* op = t.op.load(std::memory_order_acquire);  // pairs with enter()'s release
    if (op == nullptr) continue;
    std::fprintf(stderr, "  thread %d: in %s", i, op);
    for (int k = 0; k < 2; k++) {
      std::int32_t id = t.pid[k].load(std::memory_order_relaxed);
      if (id >= 0) std::fprintf(stderr, "%sP%d", k == 0 ? " on " : ", ", id);
    }
    std::fprintf(stderr, " (its op #%llu)\n",
                 static_cast<unsigned long long>(t.returned.load(std::memory_order_relaxed) + 1));
    auto* d = t.describe.load(std::memory_order_relaxed);
    for (int k = 0; k < 2; k++) {
      const void* p = t.pp[k].load(std::memory_order_relaxed);
      if (p == nullptr) continue;
      std::fprintf(stderr, "    P%d: %s\n", t.pid[k].load(std::memory_order_relaxed),
                   d != nullptr ? d(p).c_str() : "(no hook)");
    }
  }
  const void* sched = s.sched.load(std::memory_order_relaxed);
  auto* ds = s.describe_sched.load(std::memory_order_relaxed);
  if (sched != nullptr && ds != nullptr)
    std::fprintf(stderr, "  global queue: %s\n", ds(sched).c_str());
  else
    std::fprintf(stderr, "  global queue: not known (no live schedt)\n");
  // try_lock: a thread stuck while setting these must not stop the dump.
  std::unique_lock<std::mutex> lk(s.m, std::try_to_lock);
  if (lk.owns_lock()) {
    if (s.ledger) std::fprintf(stderr, "  harness ledger: %s\n", s.ledger().c_str());
    if (!s.reproducer.empty()) std::fprintf(stderr, "reproduce: %s\n", s.reproducer.c_str());
  }
  std::fflush(stderr);
}

// The watchdog thread: polls the progress counter a few times a second.
inline void start() {
  // Set by the first caller, which then starts the thread (relaxed: the flag
  // only spares later operations the call_once; call_once orders the start,
  // and a caller that skips it while the first is still starting loses
  // nothing: the watchdog is up a moment later).
  static std::atomic<bool> once{false};
  if (once.load(std::memory_order_relaxed)) return;
  once.store(true, std::memory_order_relaxed);
  std::call_once(st().started, [] {
    long secs = limit_seconds();
    if (secs == 0) return;
    std::thread([secs] {
      state& s = st();
      std::uint64_t last = 0;
      auto since = std::chrono::steady_clock::now();
      for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::uint64_t cur = 0;  // ops returned, all threads
        bool busy = false;
        const int n = s.nslots.load(std::memory_order_relaxed);
        for (int i = 0; i < n && i < max_threads; i++) {
          busy |= s.slots[i].op.load(std::memory_order_relaxed) != nullptr;
          cur += s.slots[i].returned.load(std::memory_order_relaxed);
        }
        auto now = std::chrono::steady_clock::now();
        if (cur != last || !busy) {
          last = cur;
          since = now;
          continue;
        }
        if (now - since >= std::chrono::seconds(secs)) {
          dump(secs, std::chrono::duration_cast<std::chrono::nanoseconds>(
                         since.time_since_epoch()).count());
          ::_exit(exit_code);
        }
      }
    }).detach();
  });
}

// The calling thread's slot, taken on its first operation and given back when
// the thread exits (checkers start threads per execution).
inline slot& my_slot() {
  struct holder {
    slot* s = nullptr;
    holder() {
      state& g = st();
      for (int i = 0; i < max_threads && s == nullptr; i++) {
        bool free = false;
        // acq_rel: pairs with the release in ~holder() of the slot's last user.
        if (g.slots[i].used.compare_exchange_strong(free, true, std::memory_order_acq_rel))
          s = &g.slots[i];
      }
      if (s == nullptr) {
        std::fprintf(stderr, "runqcheck: watchdog: more than %d threads at once\n", max_threads);
        std::abort();
      }
      int n = g.nslots.load(std::memory_order_relaxed);
      int want = static_cast<int>(s - g.slots.data()) + 1;
      while (n < want && !g.nslots.compare_exchange_weak(n, want, std::memory_order_relaxed)) {
      }
    }
    ~holder() { s->used.store(false, std::memory_order_release); }  // pairs with the CAS above
  };
  thread_local holder h;
  return *h.s;
}

// RAII: the calling thread is in operation `op` on up to two Ps.
class in_op {
 public:
  in_op(const char* op, std::int32_t id0, const void* p0, std::int32_t id1, const void* p1,
        std::string (*describe)(const void*))
      : t_(my_slot()) {
    start();
    t_.pid[0].store(id0, std::memory_order_relaxed);
    t_.pid[1].store(id1, std::memory_order_relaxed);
    t_.pp[0].store(p0, std::memory_order_relaxed);
    t_.pp[1].store(p1, std::memory_order_relaxed);
    t_.describe.store(describe, std::memory_order_relaxed);
    t_.op.store(op, std::memory_order_release);  // publishes the fields above to dump()
  }
  ~in_op() {
    t_.op.store(nullptr, std::memory_order_relaxed);
    // Only this thread writes it: no read-modify-write needed.
    t_.returned.store(t_.returned.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  in_op(const in_op&) = delete;
  in_op& operator=(const in_op&) = delete;

  // The operation ends by exception `what` (kept for the dump).
  void threw(const char* what) {
    std::snprintf(t_.threw_text, sizeof t_.threw_text, "%s", what);
    t_.threw_ns.store(now_ns(), std::memory_order_relaxed);  // published by the store below
    // release: publishes threw_text to dump()'s acquire load
    t_.threw.store(t_.op.load(std::memory_order_relaxed), std::memory_order_release);
  }

 private:
  slot& t_;
};

}  // namespace runqcheck::wd

namespace runqcheck {

// watched<S>: S with every operation recorded for the watchdog. Its p and
// schedt derive from S's (so S's functions and hooks accept them) and a p
// remembers its id for the dump.
template <class S>
struct watched {
  static constexpr const char* name = S::name;

  // The newest live schedt is the one the dump describes (registered here,
  // so a hang before any global-queue op still shows it).
  struct schedt : S::schedt {
    template <class... A>
    explicit schedt(A&&... a) : S::schedt(std::forward<A>(a)...) {
      wd::st().describe_sched.store(&describe_s, std::memory_order_relaxed);
      wd::st().sched.store(this, std::memory_order_relaxed);
    }
    ~schedt() {
      const void* me = this;
      wd::st().sched.compare_exchange_strong(me, nullptr, std::memory_order_relaxed);
    }
    schedt(const schedt&) = delete;
    schedt& operator=(const schedt&) = delete;
  };
  struct p : S::p {
    p(schedt& s, std::int32_t id) : S::p(s, id), wd_id(id) {}
    std::int32_t wd_id;
  };

  static std::string describe(const void* v) {
    auto& pp = *static_cast<p*>(const_cast<void*>(v));
    std::string out;
    if constexpr (has_runq_counters<S>) {
      auto c = S::runq_counters(pp);
      out = "head=" + std::to_string(c.head) + " tail=" + std::to_string(c.tail) + " ";
    } else {
      out = "no runq_counters hook; ";
    }
    if constexpr (has_describe<S>)
      out += S::describe_p(pp);
    else
      out += "no describe_p hook";
    return out;
  }
  static std::string describe_s(const void* v) {
    if constexpr (has_describe<S>)
      return S::describe_sched(*static_cast<schedt*>(const_cast<void*>(v)));
    else
      return "no describe_sched hook";
  }
  static wd::in_op on(const char* op, p& a) { return {op, a.wd_id, &a, -1, nullptr, &describe}; }
  static wd::in_op on(const char* op, p& a, p& b) {
    return {op, a.wd_id, &a, b.wd_id, &b, &describe};
  }
  static wd::in_op on(const char* op, schedt& s) {
    wd::st().sched.store(&s, std::memory_order_relaxed);  // the one in use
    return {op, -1, nullptr, -1, nullptr, &describe};
  }
  // f() inside operation w; an exception that ends it is kept for the dump.
  template <class F>
  static decltype(auto) run(wd::in_op w, F f) {
    try {
      return f();
    } catch (const std::exception& e) {
      w.threw(e.what());
      throw;
    }
  }

  static bool runqempty(p& pp) {
    return run(on("runqempty", pp), [&] { return S::runqempty(pp); });
  }
  template <class G>
  static void runqput(p& pp, G* gp, bool next) {
    return run(on("runqput", pp), [&] { return S::runqput(pp, gp, next); });
  }
  template <class Q>
  static void runqputbatch(p& pp, Q& q) {
    return run(on("runqputbatch", pp), [&] { return S::runqputbatch(pp, q); });
  }
  static auto runqget(p& pp) {
    return run(on("runqget", pp), [&] { return S::runqget(pp); });
  }
  static auto runqdrain(p& pp) {
    return run(on("runqdrain", pp), [&] { return S::runqdrain(pp); });
  }
  static auto runqsteal(p& thief, p& victim, bool stealRunNextG) {
    return run(on("runqsteal", thief, victim),
               [&] { return S::runqsteal(thief, victim, stealRunNextG); });
  }
  template <class G>
  static void globrunqput(schedt& s, G* gp) {
    return run(on("globrunqput", s), [&] { return S::globrunqput(s, gp); });
  }
  static auto globrunqget(schedt& s) {
    return run(on("globrunqget", s), [&] { return S::globrunqget(s); });
  }
  static auto findRunnable_globrunq(p& pp) {
    return run(on("findRunnable_globrunq", pp), [&] { return S::findRunnable_globrunq(pp); });
  }
  static void destroy(p& pp) {
    return run(on("destroy", pp), [&] { return S::destroy(pp); });
  }
  static auto globrunqsize(schedt& s) {
    return run(on("globrunqsize", s), [&] { return S::globrunqsize(s); });
  }

  // Optional hooks, present exactly when S has them.
  static auto runq_counters(p& pp) requires has_runq_counters<S> {
    return S::runq_counters(pp);
  }
  static void set_runq_counters(p& pp, runq_counter_t<S> v) requires has_set_runq_counters<S> {
    S::set_runq_counters(pp, v);
  }
  static void set_gomaxprocs(schedt& s, std::int32_t n) requires has_set_gomaxprocs<S> {
    auto w = on("set_gomaxprocs", s);
    S::set_gomaxprocs(s, n);
  }
  static std::string describe_p(p& pp) requires has_describe<S> { return S::describe_p(pp); }
  static std::string describe_sched(schedt& s) requires has_describe<S> {
    return S::describe_sched(s);
  }
};

}  // namespace runqcheck
