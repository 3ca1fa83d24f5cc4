// Relacy smoke scenario: owner put/get vs one thief, ring capacity 4.
//
// The owner puts four Gs (one through runnext, so one put kicks runnext into
// the ring and one spills through runqputslow) and takes two; a thief steals
// (runnext included) and drains what it stole. After every execution each G
// must have been delivered exactly once (conservation), counting what is
// left on both Ps and the global queue. Relacy also reports any data race on
// the plain variables (schedlink, the global queue) and any failed RQ_CHECK.
//
// Usage: relacy_smoke [random N | bound K | full]   (default: random 20000)
//        relacy_smoke replay MODE STATE   re-runs the failing execution and
//        prints its history (MODE and STATE as printed by the failure)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "runqcheck_subject.hpp"
#include "runqcheck/backend/relacy.hpp"

namespace {

#ifndef RUNQCHECK_RELACY_BACKEND  // the mutant build sets mutant_backend<relacy>
#define RUNQCHECK_RELACY_BACKEND runqcheck::relacy
#endif
using B = RUNQCHECK_RELACY_BACKEND;
constexpr std::uint32_t kCap = 4;
using S = subject_under_test<B, kCap>;
using G = runqcheck::g<B>;
constexpr int kGs = 6;

struct owner_vs_thief : rl::test_suite<owner_vs_thief, 2> {
  S::schedt sched{2};
  S::p owner{sched, 0};
  S::p thief{sched, 1};
  G gs[kGs];
  int seen[2][kGs] = {};  // per-thread tallies: no shared writes

  void note(int thread, G* gp) {
    if (gp != nullptr) seen[thread][gp->goid]++;
  }

  void before() {
    for (int i = 0; i < kGs; i++) gs[i].goid = static_cast<std::uint64_t>(i);
  }

  void thread(unsigned idx) {
    if (idx == 0) {  // the owner P
      S::runqput(owner, &gs[0], false);
      S::runqput(owner, &gs[1], true);   // runnext
      S::runqput(owner, &gs[2], true);   // kicks gs[1] into the ring
      note(0, S::runqget(owner).gp);
      S::runqput(owner, &gs[3], false);
      S::runqput(owner, &gs[4], false);
      S::runqput(owner, &gs[5], false);  // may fill the ring: runqputslow
      note(0, S::runqget(owner).gp);
    } else {  // a thief P
      note(1, S::runqsteal(thief, owner, true));
      for (G* gp; (gp = S::runqget(thief).gp) != nullptr;) note(1, gp);
    }
  }

  void after() {
    int left[kGs] = {};
    for (G* gp; (gp = S::runqget(owner).gp) != nullptr;) left[gp->goid]++;
    for (G* gp; (gp = S::runqget(thief).gp) != nullptr;) left[gp->goid]++;
    for (G* gp; (gp = S::globrunqget(sched)) != nullptr;) left[gp->goid]++;
    for (int i = 0; i < kGs; i++) {
      int total = seen[0][i] + seen[1][i] + left[i];
      RL_ASSERT(total == 1);  // every G delivered exactly once
    }
  }
};

int usage() {
  std::fprintf(stderr, "usage: relacy_smoke [random N | bound K | full | replay MODE STATE]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  rl::test_params params;
  params.search_type = rl::random_scheduler_type;
  params.iteration_count = 20000;
  std::string mode = argc > 1 ? argv[1] : "random";
  char* end = nullptr;
  if (mode == "random" || mode == "bound") {
    if (argc > 3) return usage();
    if (argc == 3) {
      long v = std::strtol(argv[2], &end, 10);
      if (*end != '\0' || v <= 0) return usage();
      if (mode == "random") params.iteration_count = static_cast<rl::iteration_t>(v);
      else params.context_bound = static_cast<unsigned>(v);
    }
    if (mode == "bound") params.search_type = rl::fair_context_bound_scheduler_type;
  } else if (mode == "replay") {
    if (argc != 4) return usage();
    std::string m = argv[2];
    if (m == "random") params.search_type = rl::random_scheduler_type;
    else if (m == "bound") params.search_type = rl::fair_context_bound_scheduler_type;
    else if (m == "full") params.search_type = rl::fair_full_search_scheduler_type;
    else return usage();
    params.initial_state = argv[3];
    params.iteration_count = 1;
  } else if (mode == "full") {
    if (argc != 2) return usage();
    params.search_type = rl::fair_full_search_scheduler_type;
  } else {
    return usage();
  }
  std::printf("relacy_smoke: subject %s, owner put/get vs 1 thief, cap %u, mode %s\n", subject_name, kCap,
              mode.c_str());
  bool ok = rl::simulate<owner_vs_thief>(params);
  std::printf("relacy_smoke: %s after %llu executions\n", ok ? "passed" : "FAILED",
              static_cast<unsigned long long>(params.stop_iteration));
  if (!ok) {
    const char* mut = std::getenv("RUNQCHECK_MUTANT");
    std::printf("replay: %s%s%s replay %s '%s'\n", mut ? "RUNQCHECK_MUTANT=" : "", mut ? mut : "", mut ? " " : "",
                argv[0],
                params.search_type == rl::random_scheduler_type ? "random"
                : params.search_type == rl::fair_context_bound_scheduler_type ? "bound" : "full",
                params.final_state.c_str());
  }
  return ok ? 0 : 1;
}
