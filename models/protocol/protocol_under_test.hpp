// models/protocol/protocol_under_test.hpp — what a protocol runner checks:
// the protocol subject its registration names (the generated
// runqcheck_protocol_subject.hpp of runqcheck_add_protocol_subject:
// protocol_under_test, RUNQCHECK_PROTOCOL_SUBJECT, and with QUEUE
// protocol_queue and RUNQCHECK_PROTOCOL_QUEUE), else the bundled
// runqcheck::protocol around go125; and the world of both on a backend,
// world_under_test<B>, which each runner instantiates with its own.
#pragma once

#include <runqcheck/go125.hpp>
#include <runqcheck/protocol.hpp>

#include "protocol_world.hpp"
#if __has_include(<runqcheck_protocol_subject.hpp>)
#include <runqcheck_protocol_subject.hpp>
#else
template <class Env>
using protocol_under_test = runqcheck::protocol<Env>;
#define RUNQCHECK_PROTOCOL_SUBJECT "protocol"  // the bundled one's name
#endif

namespace rqproto {

// The queue subject the world runs around on backend B: QUEUE's, else go125.
#ifdef RUNQCHECK_PROTOCOL_QUEUE
template <class B>
using queue_under_test = ::protocol_queue<B, cap>;
#else
template <class B>
using queue_under_test = runqcheck::go125<B, cap>;
#endif

template <class B>
using world_under_test = world<B, protocol_under_test, queue_under_test<B>>;

}  // namespace rqproto
