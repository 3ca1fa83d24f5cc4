// runqcheck/stress/protocol_mutants.hpp — the wakeup protocol's mutants:
// bugs in the protocol around the queues (models/mutants/protocol.txt), in
// protocol.hpp and stress/src/proc.cpp. Only binaries built with
// RUNQCHECK_PROTOCOL_MUTANTS read RUNQCHECK_MUTANT (the kill matrix's:
// runqcheck_stress_mutant, relacy_protocol_mutant); elsewhere every check
// below is a constant false.
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
  no_needspinning,
  dance_no_global_recheck,
  gosched_no_wakep,
  injectglist_no_final_wakep,
  injectglist_no_startidle,
  handoffp_no_spinning_m,
  mgetSpecific_no_unlink,
  syscall_steal_no_scan_bit,
  pidleput_fifo,
};

#ifdef RUNQCHECK_PROTOCOL_MUTANTS
inline protocol_mutant parse_protocol_mutant() {
  constexpr std::string_view names[] = {"none", "submit_no_wakep", "spinning_drop_no_recheck",
                                        "wakep_no_storeload", "exitsyscall_loses_g",
                                        "procresize_drops_runnext", "no_needspinning",
                                        "dance_no_global_recheck", "gosched_no_wakep",
                                        "injectglist_no_final_wakep", "injectglist_no_startidle",
                                        "handoffp_no_spinning_m", "mgetSpecific_no_unlink",
                                        "syscall_steal_no_scan_bit", "pidleput_fifo"};
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
