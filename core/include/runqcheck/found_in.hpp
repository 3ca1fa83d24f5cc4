// runqcheck/found_in.hpp — where findRunnable found its G (Go's findRunnable
// returns the G only; the checkers and the reference model name the source).
#pragma once

#include <cstdint>

namespace runqcheck {

enum class found_in : std::uint8_t { none, fairness, local, global, steal };

}  // namespace runqcheck
