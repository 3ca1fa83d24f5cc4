// tests/unit/core_protocol_contract.cpp — protocol_subject.hpp's list of
// what a world gives a protocol is all protocol.hpp uses: the bundled
// protocol, every member instantiated, in a world with exactly the listed
// Env functions and P and M fields (a field protocol.hpp reads and the list
// lacks fails this build); protocol_env rejects a world without one of them;
// idle_step's three values and the optional hooks' concepts hold; and that
// world runs a submission's wakeup (submit -> wakep -> startm).
#include "test_support.hpp"

#include <runqcheck/backend/native.hpp>
#include <runqcheck/go125.hpp>
#include <runqcheck/protocol.hpp>
#include <runqcheck/protocol_subject.hpp>

namespace {

using B = runqcheck::native;
using S = runqcheck::go125<B, 4>;
template <class T>
using at = B::atomic<T>;

// Each listed field in a base of its own, so that a test world can lack one.
template <class P, bool On = true>
struct p_link {
  P* link = nullptr;
};
template <class P>
struct p_link<P, false> {};
template <bool On = true>
struct m_nextp_of {
  template <class P>
  struct f {
    at<P*> nextp{nullptr};
  };
};
template <>
struct m_nextp_of<false> {
  template <class P>
  struct f {};
};

template <class M, bool Link>
struct P_ : S::p, p_link<P_<M, Link>, Link> {
  P_() : S::p(sched(), 0) {}
  static S::schedt& sched();
  at<bool> idle{false};
  at<M*> oldm{nullptr};
  at<std::uint32_t> syscalltick{0};
  std::uint32_t sysmontick = 0;
};
template <class Self, class P, bool Nextp>
struct M_ : runqcheck::m<B>, m_nextp_of<Nextp>::template f<P> {
  int id = 0;
  at<bool> spinning{false};
  at<P*> p{nullptr};
  runqcheck::idle_node<Self> idleNode;
  bool woken = false;  // the world's own park (not the protocol's)
};
struct M;
using P = P_<M, true>;
struct M : M_<M, P, true> {};

// The world: one of each, reached through the listed Env functions only.
template <class PP, class MM>
struct env_of {
  using B = ::B;
  using S = ::S;
  using P = PP;
  using M = MM;
  using proto = runqcheck::protocol<env_of>;
  static inline typename proto::state* state = nullptr;
  static inline int newms = 0;
  static auto& ws() { return *state; }
  static runqcheck::schedt<B>& core() { return P::sched(); }
  static S::schedt& sched() { return P::sched(); }
  static void newm(P*, bool) { newms++; }
  static void notewakeup(M* mp) { mp->woken = true; }
  static void acquirep(M* mp, P* pp) {
    pp->m.store(mp, std::memory_order::relaxed);  // relaxed: one thread
    mp->p.store(pp, std::memory_order::relaxed);
  }
  static P* releasep(M* mp) {
    P* pp = mp->p.load(std::memory_order::relaxed);  // relaxed: one thread
    pp->m.store(nullptr, std::memory_order::relaxed);
    mp->p.store(nullptr, std::memory_order::relaxed);
    return pp;
  }
  static S::p& owner(P* pp) { return *pp; }
  static void count_wakep() {}
  static bool handoff_gcstop(runqcheck::locked_sched<B>&, P*) { return false; }
  static M* g_m(runqcheck::g<B>*) { return nullptr; }
};
template <class M, bool Link>
S::schedt& P_<M, Link>::sched() {
  static S::schedt s(2);
  return s;
}
using env = env_of<P, M>;
using proto = runqcheck::protocol<env>;

static_assert(runqcheck::protocol_env<env>);
static_assert(runqcheck::protocol_subject<proto>);
// A world without a listed field is not a protocol world.
struct M_no_nextp : M_<M_no_nextp, P_<M_no_nextp, true>, false> {};
static_assert(!runqcheck::protocol_env<env_of<P_<M_no_nextp, true>, M_no_nextp>>,
              "M.nextp is required");
struct M_nolink : M_<M_nolink, P_<M_nolink, false>, true> {};
static_assert(!runqcheck::protocol_env<env_of<P_<M_nolink, false>, M_nolink>>,
              "P.link is required");

// The optional hooks the bundled protocol has, the stress scheduler's
// syscall thief among them.
static_assert(runqcheck::has_protocol_syscalls<proto> &&
              runqcheck::has_protocol_syscall_thief<proto> &&
              runqcheck::has_protocol_procresize<proto> &&
              runqcheck::has_protocol_idle_lists<proto>);

// stop_or_spin's idle_step must have the three values the world acts on.
template <bool Global>
struct steps : proto {
  enum class idle_step { released, again };
  template <class F>
  static idle_step stop_or_spin(M*, P*, runqcheck::globrunq_batch<B>&, F&&) {
    return idle_step::again;
  }
};
template <>
struct steps<true> : proto {
  enum class idle_step { released, again, global };
  template <class F>
  static idle_step stop_or_spin(M*, P*, runqcheck::globrunq_batch<B>&, F&&) {
    return idle_step::again;
  }
};
static_assert(runqcheck::protocol_subject<steps<true>>);
static_assert(!runqcheck::protocol_subject<steps<false>>, "idle_step::global is required");

}  // namespace

// Every member of the bundled protocol, in the world above (not only those
// this test calls): protocol.hpp may use of a world what the list gives.
template struct runqcheck::protocol<env>;
template runqcheck::protocol<env>::idle_step
runqcheck::protocol<env>::stop_or_spin<runqcheck::protocol_detail::never>(
    M*, P*, runqcheck::globrunq_batch<B>&, runqcheck::protocol_detail::never&&);

namespace {

// Go's submission with a P idle and an M parked: wakep starts that M,
// spinning, on the idle P (startm: nextp, then notewakeup).
TEST(CoreProtocolContract, SubmitWakesTheIdleMOnTheIdleP) {
  proto::state st;
  env::state = &st;
  P ps[2];
  ps[1].id = 1;
  M ms[2];
  env::acquirep(&ms[0], &ps[0]);
  {
    auto l = runqcheck::lock(env::core());
    proto::pidleput(l, &ps[1]);
    proto::mput(l, &ms[1]);
  }
  runqcheck::g<B> g0;
  proto::submit(&ps[0], &g0, true);
  EXPECT_TRUE(ms[1].woken);
  EXPECT_EQ(ms[1].nextp.load(std::memory_order::relaxed), &ps[1]);
  EXPECT_TRUE(ms[1].spinning.load(std::memory_order::relaxed));
  runqcheck::protocol_counts c = proto::observe();
  EXPECT_EQ(c.spinning, 1);
  EXPECT_EQ(c.idle_ps, 0);
  EXPECT_EQ(c.idle_ms, 0);
  EXPECT_EQ(env::newms, 0);
  EXPECT_EQ(S::runqget(ps[0]).gp, &g0);
  env::state = nullptr;
}

}  // namespace
