// models/scenarios/invariant.hpp — RQ_INVARIANT: a checker's own invariant,
// reported through the backend's fatal like the port's RQ_CHECK but marked
// fatal_kind::invariant, so that no checker mistakes it for the port's fatal
// error. Its text starts with "invariant:" (the verdict's reason lines).
#pragma once

#include "runqcheck/check.hpp"

#define RQ_INVARIANT(B, cond, msg, ...)                                        \
  do {                                                                         \
    if (!(cond)) [[unlikely]]                                                  \
      B::fatal(::runqcheck::fatal_info{                                        \
          msg, ::runqcheck::detail::fmt_values(__VA_ARGS__),                   \
          std::source_location::current(), ::runqcheck::fatal_kind::invariant}); \
  } while (0)
