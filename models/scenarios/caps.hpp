// models/scenarios/caps.hpp — the one place a run-time ring capacity becomes
// the template parameter Cap of p<B, Cap> (each checker builds the Caps it
// needs: the engine 4 and 8, the fuzzer 4 … 256; Relacy's catalog runner
// builds the catalog's 4 alone, tests/relacy/scenarios.cpp).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace runqcheck::model {

// f(std::integral_constant<std::uint32_t, C>{}) for the C of Caps equal to
// cap, or for the last of Caps when none is.
template <std::uint32_t C, std::uint32_t... Rest, class F>
decltype(auto) with_cap(std::uint32_t cap, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return std::forward<F>(f)(std::integral_constant<std::uint32_t, C>{});
  } else {
    if (cap == C) return std::forward<F>(f)(std::integral_constant<std::uint32_t, C>{});
    return with_cap<Rest...>(cap, std::forward<F>(f));
  }
}

}  // namespace runqcheck::model
