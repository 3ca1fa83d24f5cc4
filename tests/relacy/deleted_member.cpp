// tests/relacy/deleted_member.cpp — a queue and a protocol with `= delete`
// members compile where relacy_protocol includes them: after the Relacy
// backend, which leaves `delete` a macro for the drivers, through the
// generated runqcheck_protocol_subject.hpp.
#include <cstdio>
#include <type_traits>

#include <runqcheck/go125.hpp>
#include <runqcheck/backend/relacy.hpp>

#include "runqcheck_protocol_subject.hpp"

int main() {
  using q = protocol_queue<runqcheck::relacy, 4>;
  using l = protocol_under_test<int>::locked;
  if (std::is_copy_constructible_v<q> || std::is_copy_constructible_v<l>) return 1;
  std::printf("relacy_deleted_member: %s around %s compiles under Relacy\n",
              RUNQCHECK_PROTOCOL_SUBJECT, RUNQCHECK_PROTOCOL_QUEUE);
  return 0;
}
