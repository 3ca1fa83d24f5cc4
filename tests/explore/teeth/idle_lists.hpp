// tests/explore/teeth/idle_lists.hpp — kite (examples/kite_sched) with an
// idle list that loses what it is given; the protocol world's idle-list
// check at quiescence (models/protocol/protocol_world.hpp, check_idle_lists)
// must fail each (tests explore_protocol_teeth/mput_loses_m, handoff_loses_p
// and mget_keeps_last). Before that check nothing did: an M parked where no mget
// finds it is replaced by a new one (newm: not judged), and a P neither held
// nor idle only makes the Ps fewer.
#pragma once

#include <cstddef>
#include <cstdint>

#include <kite/sched.hpp>

namespace teeth {

// mput writes the M into the sleeper stack but does not count it.
template <class Env>
struct mput_loses_m : kite::sched<Env> {
  using base = kite::sched<Env>;
  static constexpr const char* name = "mput_loses_m";
  static void mput(typename base::locked&, typename Env::M* mp) {
    auto& n = Env::ws();
    std::int32_t k = n.nsleep.load();
    n.sleepers[static_cast<std::size_t>(k)].store(mp);  // the bug: nsleep not raised
  }
};

// handoffp of a P without work drops it: neither freed nor handed to an M.
template <class Env>
struct handoff_loses_p : kite::sched<Env> {
  using base = kite::sched<Env>;
  static constexpr const char* name = "handoff_loses_p";
  static void handoffp(typename Env::P* pp) {
    if (!Env::S::runqempty(*pp) || Env::S::globrunqsize(Env::sched()) != 0) base::handoffp(pp);
    // the bug: an empty P goes nowhere
  }
};

// mget hands out the last sleeper but leaves it counted: the next mget hands
// it out again (a list whose head is left on an M already taken).
template <class Env>
struct mget_keeps_last : kite::sched<Env> {
  using base = kite::sched<Env>;
  static constexpr const char* name = "mget_keeps_last";
  static typename Env::M* mget(typename base::locked& l) {
    auto& n = Env::ws();
    if (n.nsleep.load() == 1) return n.sleepers[0].load();  // the bug: nsleep stays 1
    return base::mget(l);
  }
};

}  // namespace teeth
