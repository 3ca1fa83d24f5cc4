// stress/src/protocol_mutants.hpp — the stress scheduler's own mutants: bugs
// in the wakeup protocol around the queues (models/mutants/protocol.txt).
// Only the kill matrix's binary (runqcheck_stress_mutant, built on the
// mutant schemata with RUNQCHECK_STRESS_MUTANTS) reads RUNQCHECK_MUTANT; in
// runqcheck_stress every check below is a constant false.
#pragma once

#include <cstdlib>
#include <string_view>

namespace runqcheck::stress {

enum class protocol_mutant {
  none,
  submit_no_wakep,
  spinning_drop_no_recheck,
  wakep_no_storeload,
  exitsyscall_loses_g,
  procresize_drops_runnext,
};

#ifdef RUNQCHECK_STRESS_MUTANTS
inline protocol_mutant parse_protocol_mutant() {
  constexpr std::string_view names[] = {"none", "submit_no_wakep", "spinning_drop_no_recheck",
                                        "wakep_no_storeload", "exitsyscall_loses_g",
                                        "procresize_drops_runnext"};
  const char* env = std::getenv("RUNQCHECK_MUTANT");
  for (int i = 1; env != nullptr && i < static_cast<int>(std::size(names)); i++)
    if (names[i] == env) return static_cast<protocol_mutant>(i);
  return protocol_mutant::none;  // a queue mutant, or none: the schemata parses it
}
inline const protocol_mutant active_protocol_mutant = parse_protocol_mutant();
inline bool mutated(protocol_mutant m) { return active_protocol_mutant == m; }
#else
constexpr bool mutated(protocol_mutant) { return false; }
#endif

}  // namespace runqcheck::stress
