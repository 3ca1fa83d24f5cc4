// explore/engine.cpp — the engine compiled once per build (engine.hpp): the
// searches search.hpp declares, for every driver.
#include "explore/engine.hpp"

namespace runqcheck::explore {

stats explore(program& p, options o) {
  engine e(p, std::move(o));
  return e.run();
}

double estimate(program& p, options o, unsigned n, std::uint64_t seed) {
  engine e(p, std::move(o));
  return e.estimate(n, seed);
}

}  // namespace runqcheck::explore
