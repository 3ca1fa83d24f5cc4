// runqcheck/roles.hpp — the roles of the run-queue protocol as types
// (after crossbeam-deque's Worker/Stealer and tokio's Local/Steal).
//
//   local<B,Cap>    move-only handle of the owner P: the only way to put,
//                   get, drain, or steal into its ring.
//   stealer<B,Cap>  copyable handle other Ps hold: can only be stolen from
//                   (by a local) or asked runqempty.
// The handles wrap proc.go's functions; they do not rename them.
#pragma once

#include "runq.hpp"

namespace runqcheck {

template <class B, std::uint32_t Cap>
class stealer;

template <class B, std::uint32_t Cap = 256>
class local {
 public:
  explicit local(p<B, Cap>& pp) : pp_(&pp) {}
  local(local&& o) noexcept : pp_(o.pp_) { o.pp_ = nullptr; }
  local& operator=(local&& o) noexcept {
    pp_ = o.pp_;
    o.pp_ = nullptr;
    return *this;
  }
  local(const local&) = delete;
  local& operator=(const local&) = delete;

  void runqput(g<B>* gp, bool next) { runqcheck::runqput(*pp_, gp, next); }
  void runqputbatch(gQueue<B>& q) { runqcheck::runqputbatch(*pp_, q); }
  runqget_result<B> runqget() { return runqcheck::runqget(*pp_); }
  gQueue<B> runqdrain() { return runqcheck::runqdrain(*pp_); }
  bool runqempty() const { return runqcheck::runqempty(*pp_); }
  // Steal half of victim's queue into ours; returns one G to run now.
  g<B>* runqsteal(stealer<B, Cap> victim, bool stealRunNextG) {
    return runqcheck::runqsteal(*pp_, *victim.pp_, stealRunNextG);
  }
  stealer<B, Cap> stealer_handle() const { return stealer<B, Cap>(*pp_); }
  p<B, Cap>& state() const { return *pp_; }

 private:
  p<B, Cap>* pp_;
};

template <class B, std::uint32_t Cap = 256>
class stealer {
 public:
  explicit stealer(p<B, Cap>& pp) : pp_(&pp) {}
  bool runqempty() const { return runqcheck::runqempty(*pp_); }

 private:
  friend class local<B, Cap>;
  p<B, Cap>* pp_;
};

}  // namespace runqcheck
