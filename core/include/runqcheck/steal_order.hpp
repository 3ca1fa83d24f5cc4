// runqcheck/steal_order.hpp — the random coprime order in which stealWork
// visits Ps (Go: randomOrder, randomEnum, gcd).
//
// If X and count are coprime, (i + X) % count enumerates all of 0..count-1
// exactly once, so a thief visits every P once per pass in a pseudo-random
// order without repetition.
#pragma once

#include <cstdint>
#include <vector>

namespace runqcheck {

// Go: gcd
constexpr std::uint32_t gcd(std::uint32_t a, std::uint32_t b) {
  while (b != 0) {
    std::uint32_t r = a % b;
    a = b;
    b = r;
  }
  return a;
}

// Go: randomEnum
struct randomEnum {
  std::uint32_t i = 0;
  std::uint32_t count = 0;
  std::uint32_t pos = 0;
  std::uint32_t inc = 0;

  bool done() const { return i == count; }
  void next() {
    i++;
    pos = (pos + inc) % count;
  }
  std::uint32_t position() const { return pos; }
};

// Go: randomOrder. Not thread-safe: reset under the world stop (procresize),
// start() from any thread afterwards.
struct randomOrder {
  std::uint32_t count = 0;
  std::vector<std::uint32_t> coprimes;

  void reset(std::uint32_t n) {
    count = n;
    coprimes.clear();
    for (std::uint32_t i = 1; i <= n; i++) {
      if (gcd(i, n) == 1) {
        coprimes.push_back(i);
      }
    }
  }

  randomEnum start(std::uint32_t i) const {
    return randomEnum{0, count, i % count, coprimes[i / count % coprimes.size()]};
  }
};

}  // namespace runqcheck
