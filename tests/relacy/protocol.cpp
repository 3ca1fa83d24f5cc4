// Relacy harness for the wakeup protocol (core/include/runqcheck/
// protocol.hpp, the code the stress scheduler runs): the protocol scenarios,
// world and invariants of models/protocol under Relacy's searches
// (protocol_suite.hpp), every load deciding under the C++ memory model.
//
// Usage: relacy_protocol [random N | bound K | full | replay MODE STATE
//        | explain MODE STATE --html OUT [--json OUT]] (tests/relacy/driver.hpp),
//        `relacy_protocol list`, RUNQCHECK_CASE=<scenario>; built as
//        relacy_protocol_mutant (on the mutant schemata) it reads RUNQCHECK_MUTANT;
//        built as relacy_protocol__<name> for a protocol subject
//        (runqcheck_add_protocol_subject), on the generated
//        runqcheck_protocol_subject.hpp's protocol_under_test.
//        A failing search also draws the failing execution (picture.hpp: a
//        lane per M, the protocol's objects by name) and prints `picture:`.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <runqcheck/go125.hpp>
#include <runqcheck/sched_policy.hpp>
#include <runqcheck/protocol.hpp>

#include "scenario.hpp"
#include "driver.hpp"
#include "protocol_catalog.hpp"
#include "protocol_suite.hpp"  // relacy_world: protocol_under_test on Relacy's backend

namespace {

using namespace rqproto;

// One scenario in world World (models/protocol/protocol_world.hpp). A
// scenario that needs a hook its protocol lacks is not applied, and said so.
template <class World>
bool run_one(const char* prog, const proto_scenario& sc, rqtest::search& s) {
  using PS = typename World::proto;
  if (report_missing<World>("relacy_protocol", sc)) return true;
  runqcheck::model::scenario info;  // what the driver prints and replays by
  info.name = sc.name;
  info.targets = sc.targets;
  if (by_name_only(sc) && std::getenv("RUNQCHECK_CASE") == nullptr) {
    std::printf("%s: skipped (runs only by name)\n", std::string(sc.name).c_str());
    return true;
  }
  info.cap = cap;  // the picture's header
  info.nprocs = sc.nprocs;
  std::string what = std::string(PS::name) + ": " + std::string(sc.targets);
  World::unjudged_executions = 0;
  bool ok = false;
  const char* subj = RUNQCHECK_PROTOCOL_SUBJECT;  // the picture's file name
  switch (threads_of(sc)) {
    case 2: ok = rqtest::run<suite<2, World>>(prog, info, subj, what.c_str(), s); break;
    case 3: ok = rqtest::run<suite<3, World>>(prog, info, subj, what.c_str(), s); break;
    case 4: ok = rqtest::run<suite<4, World>>(prog, info, subj, what.c_str(), s); break;
    default:
      std::fprintf(stderr, "%s: scenario %s: %d Ms not supported\n", prog,
                   std::string(sc.name).c_str(), threads_of(sc));
      return false;
  }
  auto unjudged = static_cast<unsigned long long>(World::unjudged_executions);
  if (sc.newm_unjudged || unjudged > 0)
    std::printf("%s: %llu executions reached newm (no spare M): not judged%s\n",
                std::string(sc.name).c_str(), unjudged,
                sc.newm_unjudged ? "" : " (the protocol starts an M more than the scenario has)");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "list") == 0) {
    for (const auto& sc : catalog)
      std::printf("%-28s %zu Ms, %d Ps: %.*s\n", std::string(sc.name).c_str(), sc.ms.size(),
                  sc.nprocs, static_cast<int>(sc.targets.size()), sc.targets.data());
    return 0;
  }
  rqtest::search search;
  if (!rqtest::parse(argc, argv, search)) return 2;
  bool ok = true;
  int ran = 0;
  for (const auto& sc : catalog) {
    if (!rqtest::selected(std::string(sc.name).c_str())) continue;
    current = &sc;
    ran++;
    ok &= run_one<relacy_world>(argv[0], sc, search);
    if (!ok && std::getenv("RUNQCHECK_STOP_ON_FAIL") != nullptr) break;
  }
  if (ran == 0) {
    std::fprintf(stderr, "%s: no scenario named '%s' (see: %s list)\n", argv[0],
                 std::getenv("RUNQCHECK_CASE"), argv[0]);
    return 2;
  }
  if (search.mode == "explain") return 0;
  std::printf("%s: %d scenarios, %llu executions, %s\n", argv[0], ran, rqtest::total_executions(),
              ok ? "all passed" : "FAILED");
  return ok ? 0 : 1;
}
