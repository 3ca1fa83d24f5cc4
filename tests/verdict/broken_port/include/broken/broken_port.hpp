// broken/broken_port.hpp — a port that does not compile (tests/verdict:
// a build failure's verdict, JUnit and SARIF: its result at line 17).
// NOT registered anywhere: it must fail to build.
#pragma once

#include <cstdint>

#include <runqcheck/go125.hpp>

namespace broken {

template <class B, std::uint32_t Cap>
struct broken_port : runqcheck::go125<B, Cap> {
  using base = runqcheck::go125<B, Cap>;
  using p = typename base::p;
  static constexpr const char* name = "broken-port";
  static bool runqempty(const p& pp) { return pp.no_such_field == 0; }  // the error: line 17
};

}  // namespace broken
