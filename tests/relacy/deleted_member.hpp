// tests/relacy/deleted_member.hpp — a queue and a protocol that declare
// members `= delete` (test relacy_deleted_member): Relacy's relacy.hpp makes
// `delete` a macro, and the generated headers include a port past it.
#pragma once

#include <cstdint>

#include <runqcheck/go125.hpp>

namespace deleted_member {

struct no_copy {
  no_copy() = default;
  no_copy(const no_copy&) = delete;
  no_copy& operator=(const no_copy&) = delete;
};

template <class B, std::uint32_t Cap>
struct port : runqcheck::go125<B, Cap> {
  static constexpr const char* name = "deleted_member";
  no_copy guard;
};

template <class Env>
struct proto {
  struct locked {
    locked() = default;
    locked(const locked&) = delete;
  };
};

}  // namespace deleted_member
