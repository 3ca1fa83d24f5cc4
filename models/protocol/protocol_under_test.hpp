// models/protocol/protocol_under_test.hpp — what a protocol runner checks:
// the protocol subject its registration names (the generated
// runqcheck_protocol_subject.hpp of runqcheck_add_protocol_subject:
// protocol_under_test, RUNQCHECK_PROTOCOL_SUBJECT, and with QUEUE
// protocol_queue and RUNQCHECK_PROTOCOL_QUEUE), else the bundled
// runqcheck::protocol around go125; and the world of both on a backend,
// world_under_test<B>, which each runner instantiates with its own.
#pragma once

#include <cstdio>
#include <string_view>

#include <runqcheck/go125.hpp>
#include <runqcheck/protocol.hpp>

#include "protocol_world.hpp"
#if __has_include(<runqcheck_protocol_subject.hpp>)
#include <runqcheck_protocol_subject.hpp>
#else
template <class Env>
using protocol_under_test = runqcheck::protocol<Env>;
#define RUNQCHECK_PROTOCOL_SUBJECT "protocol"  // the bundled one's name
#endif

namespace rqproto {

// The queue subject the world runs around on backend B: QUEUE's, else go125.
#ifdef RUNQCHECK_PROTOCOL_QUEUE
template <class B>
using queue_under_test = ::protocol_queue<B, cap>;
#else
template <class B>
using queue_under_test = runqcheck::go125<B, cap>;
#endif

template <class B>
using world_under_test = world<B, protocol_under_test, queue_under_test<B>>;

// What a runner prints for a check that needs a hook PS lacks, for feature
// ("syscalls", "procresize"): `declared absent` where the registration says
// the scheduler has none (WITHOUT: cmake/runqcheck.cmake), else `not
// applied`. A registration WITHOUT a feature whose hooks PS has fails here.
template <class PS>
const char* absent_word(std::string_view feature) {
  constexpr bool sys = runqcheck::has_protocol_syscalls<PS>;
  constexpr bool rs = runqcheck::has_protocol_procresize<PS>;
  bool declared = false;
#ifdef RUNQCHECK_PROTOCOL_WITHOUT_SYSCALLS
  static_assert(!sys, "registered WITHOUT syscalls, yet the protocol has the syscall hooks "
                      "(protocol_subject.hpp): drop WITHOUT syscalls");
  declared = declared || feature == "syscalls";
#endif
#ifdef RUNQCHECK_PROTOCOL_WITHOUT_PROCRESIZE
  static_assert(!rs, "registered WITHOUT procresize, yet the protocol has the procresize "
                     "hooks (protocol_subject.hpp): drop WITHOUT procresize");
  declared = declared || feature == "procresize";
#endif
  (void)sys, (void)rs, (void)feature;
  return declared ? "declared absent" : "not applied";
}

// Where scenario sc needs a hook World's protocol lacks, prints the runner's
// line, `runqcheck: not applied|declared absent: COLUMN WHAT: why (subject
// S)` (WHAT: the scenario's name unless given), and returns true.
template <class World>
bool report_missing(const char* column, const proto_scenario& sc, std::string_view what = {}) {
  const char* why = World::missing_hook(sc);
  if (why == nullptr) return false;
  if (what.empty()) what = sc.name;
  std::printf("runqcheck: %s: %s %.*s: %s (subject %s)\n",
              absent_word<typename World::proto>(World::missing_feature(sc)), column,
              static_cast<int>(what.size()), what.data(), why, RUNQCHECK_PROTOCOL_SUBJECT);
  return true;
}

}  // namespace rqproto
