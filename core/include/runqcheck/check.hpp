// runqcheck/check.hpp — Go's throw() as a fatal check that every checker sees.
//
// Go's run-queue code calls throw("runqsteal: runq overflow") and friends when
// an invariant breaks. The port keeps every such check, on in every build type
// (they are one predictable branch each), and routes the failure through the
// backend: natively it calls the installed fatal handler (default: print the
// message with the values involved and abort), under Relacy it fails the
// current execution so the model checker prints the interleaving and the state
// that replays it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <source_location>
#include <string>

namespace runqcheck {

// Who raised a fatal error: the port (its RQ_CHECKs: Go's throws), a
// checker's invariant that the port broke (RQ_INVARIANT: "invariant: ..."),
// or the harness itself (a backend's own check, such as the native mutex's
// self-deadlock). A checker that accepts "the port may raise a fatal error
// here" accepts only fatal_kind::port.
enum class fatal_kind : unsigned char { port, invariant, harness };

// The word that starts a fatal error's line: "fatal error" for the port's
// and for an invariant (whose text says "invariant:"), as every backend
// prints it; "harness fatal error" only where the harness itself failed.
constexpr const char* fatal_label(fatal_kind k) {
  return k == fatal_kind::harness ? "harness fatal error" : "fatal error";
}

// A failed check: Go's throw message plus up to three named values
// ("h=5 t=9"), formatted once so every backend prints the same text.
struct fatal_info {
  const char* msg;     // Go's throw text, verbatim
  std::string values;  // "name=value ..." of the operands, may be empty
  std::source_location where;
  fatal_kind kind = fatal_kind::port;
};

// Native fatal handler. Tests install one that records or throws; the default
// prints "fatal error: <msg> [values] at file:line" like Go's throw and aborts.
using fatal_handler_fn = void (*)(const fatal_info&);

inline void default_fatal_handler(const fatal_info& f) {
  std::fprintf(stderr, "%s: %s%s%s at %s:%u\n",
               fatal_label(f.kind), f.msg,
               f.values.empty() ? "" : " ", f.values.c_str(),
               f.where.file_name(), static_cast<unsigned>(f.where.line()));
  std::fflush(stderr);
  std::abort();
}

inline fatal_handler_fn& fatal_handler() {
  static fatal_handler_fn h = &default_fatal_handler;
  return h;
}

namespace detail {
inline std::string fmt_values() { return {}; }
template <class V, class... Rest>
std::string fmt_values(const char* name, V v, Rest... rest) {
  std::string s = std::string(name) + "=" + std::to_string(v);
  std::string tail = fmt_values(rest...);
  return tail.empty() ? s : s + " " + tail;
}
}  // namespace detail

}  // namespace runqcheck

// RQ_CHECK(B, cond, "go throw text", "h", h, "t", t): if !cond, report through
// backend B. Never compiled out: Go's throws are not debug-only either.
#define RQ_CHECK(B, cond, msg, ...)                                            \
  do {                                                                         \
    if (!(cond)) [[unlikely]]                                                  \
      B::fatal(::runqcheck::fatal_info{                                        \
          msg, ::runqcheck::detail::fmt_values(__VA_ARGS__),                   \
          std::source_location::current()});                                   \
  } while (0)
