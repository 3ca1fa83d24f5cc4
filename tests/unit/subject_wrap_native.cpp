// The 2^32 counter wrap reached without hooks: a port with no
// set_runq_counters is driven past 2^32 on one P by its own operations
// (issue 30). Each round fills the ring, spills, is stolen from and is
// emptied, checking every G's place; one more put and get per round moves
// the counters by Cap + 1, so the rounds meet the wrap at every offset of a
// ring. 2^32 / (Cap + 1) rounds at Cap 256: about 1.5 minutes on one core,
// so it is DISABLED here and run by the nightly test unit_wrap_native.
#include "test_support.hpp"

#include <cstdint>
#include <string>

#include "runqcheck_subject.hpp"

// Named, not anonymous: the unit checker is one unity build of its sources,
// and subject_concurrent.cpp has its own Cap and Subj.
namespace wrap_native {

using rqtest::B;
using rqtest::G;
using rqtest::gpool;

constexpr std::uint32_t Cap = 256;
using Subj = subject_under_test<B, Cap>;

// "" or what went wrong in one round: the port's result against Go's.
std::string round(typename Subj::p& pp, typename Subj::p& thief, typename Subj::schedt& sched,
                  const gpool& gs) {
  auto want = [&](const char* what, G* got, std::size_t i) -> std::string {
    if (got == gs[i]) return "";
    return std::string(what) + ": got G" + (got ? std::to_string(gs.index(got)) : "nil") +
           ", want G" + std::to_string(i);
  };
  for (std::uint32_t i = 0; i <= Cap; i++) Subj::runqput(pp, gs[i], false);  // the last spills
  if (auto e = want("runqsteal", Subj::runqsteal(thief, pp, false), 3 * Cap / 4 - 1); !e.empty())
    return e;
  for (std::size_t i = 3 * Cap / 4; i < Cap; i++) {
    auto r = Subj::runqget(pp);
    if (auto e = want("runqget", r.gp, i); !e.empty()) return e;
  }
  for (std::size_t i = Cap / 2; i < 3 * Cap / 4 - 1; i++) {
    if (auto e = want("runqget(thief)", Subj::runqget(thief).gp, i); !e.empty()) return e;
  }
  for (std::size_t i = 0; i < Cap / 2; i++) {
    if (auto e = want("globrunqget", Subj::globrunqget(sched), i); !e.empty()) return e;
  }
  if (auto e = want("globrunqget", Subj::globrunqget(sched), Cap); !e.empty()) return e;
  Subj::runqput(pp, gs[Cap + 1], false);
  if (auto e = want("runqget", Subj::runqget(pp).gp, Cap + 1); !e.empty()) return e;
  if (G* gp = Subj::runqget(pp).gp; gp != nullptr) return "runqget: a G left over";
  if (G* gp = Subj::runqget(thief).gp; gp != nullptr) return "runqget(thief): a G left over";
  if (G* gp = Subj::globrunqget(sched); gp != nullptr) return "globrunqget: a G left over";
  return "";
}

TEST(WrapNative, DISABLED_PutSpillStealGetPast2To32WithoutHooks) {
  rqtest::fatal_throws guard;
  typename Subj::schedt sched(2);
  typename Subj::p pp(sched, 0), thief(sched, 1);
  gpool gs(Cap + 2);
  const std::uint64_t rounds = ((std::uint64_t{1} << 32) + 2 * Cap) / (Cap + 1) + 1;
  for (std::uint64_t r = 0; r < rounds; r++) {
    std::string e;
    try {
      e = round(pp, thief, sched, gs);
    } catch (const rqtest::fatal_exception& f) {
      e = "fatal error: " + f.msg + " " + f.values;
    }
    if (!e.empty()) {
      FAIL() << e << " (round " << r << ", after " << r * (Cap + 1)
             << " puts on the P: counters near " << (r * (Cap + 1)) % (std::uint64_t{1} << 32)
             << " mod 2^32 if they started at 0)";
    }
  }
  std::printf("unit WrapNative: %llu rounds, %llu puts on one P\n",
              static_cast<unsigned long long>(rounds),
              static_cast<unsigned long long>(rounds * (Cap + 1)));
}

}  // namespace wrap_native
