// tests/relacy/protocol_suite.hpp — the Relacy suite of the wakeup
// protocol's world (models/protocol/protocol_world.hpp) on Relacy's backend,
// one per M count: relacy_protocol's searches (protocol.cpp) and
// fuzz_protocol's input-driven executions (fuzz/targets/fuzz_protocol.cpp).
// Include after relacy.hpp; with RUNQCHECK_PICTURES, after driver.hpp (the
// suite then records the picture of a failure).
#pragma once

#include <cstddef>
#include <vector>

#include "runqcheck/backend/relacy.hpp"
#include "protocol_under_test.hpp"
#ifdef RUNQCHECK_PICTURES
#include "protocol_picture.hpp"
#endif

namespace rqproto {

// The world of the protocol under test on Relacy's backend.
using relacy_world = world_under_test<runqcheck::relacy>;

// The scenario the suite runs (a test_suite is made by Relacy, argument-less).
inline const proto_scenario* current = nullptr;

// The Relacy suite of the scenario `current` with N Ms, in world World.
template <unsigned N, class World = relacy_world>
struct suite : rl::test_suite<suite<N, World>, N> {
  World w{*current};
#ifdef RUNQCHECK_PICTURES
  using ph = runqcheck::fuzz::recorder::phase;
  static std::vector<rqtest::fz::lane> picture_lanes() {
    std::vector<rqtest::fz::lane> out;
    for (int i = 0; i < threads_of(*current); i++)
      out.push_back(m_lane<rqtest::fz::lane>(*current, static_cast<std::size_t>(i)));
    return out;
  }
  void before() {
    W<World> = &w;
    rqtest::trace_begin([&](rqtest::fz::recorder& r) { name_objects(r, w); });
    w.init();
  }
  void thread(unsigned idx) {
    rqtest::trace_phase(ph::run);
    rqtest::trace_step(true, idx < current->ms.size() ? role_name(current->ms[idx].k) : "spare",
                       "M");
    w.run(static_cast<int>(idx));
    rqtest::trace_step(false, "done", "M");
  }
  void after() {
    rqtest::trace_phase(ph::final);
    w.check();
  }
#else
  void before() {
    W<World> = &w;
    w.init();
  }
  void thread(unsigned idx) { w.run(static_cast<int>(idx)); }
  void after() { w.check(); }
#endif
};

}  // namespace rqproto
