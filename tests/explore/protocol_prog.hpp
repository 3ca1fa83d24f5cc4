// tests/explore/protocol_prog.hpp — a protocol scenario as the exploring
// engine's program (the world made afresh each run, an M per thread, the
// quiescence checks after them), the engine's options for the protocol and
// a failure's picture: shared by explore_protocol (tests/explore/protocol.cpp)
// and generated_protocol (tests/explore/protocol_generated.cpp), on the
// protocol subject under test (models/protocol/protocol_under_test.hpp: the
// world on the explore backend). Include after the std headers.
#pragma once

#include <string>
#include <vector>

#include "runqcheck/backend/explore.hpp"
#include "explore/search.hpp"
#ifdef RUNQCHECK_PICTURES
#include "picture.hpp"
#endif

#include "protocol_catalog.hpp"
#include "protocol_under_test.hpp"  // world_under_test, RUNQCHECK_PROTOCOL_SUBJECT
#ifdef RUNQCHECK_PICTURES
#include "protocol_picture.hpp"
#endif

#include "cli.hpp"

namespace {

namespace ex = runqcheck::explore;
namespace cli = runqcheck::explore::cli;
using namespace rqproto;
// The world of the protocol under test on the exploring engine's backend.
using world_t = world_under_test<runqcheck::explore_backend>;
using PS = world_t::proto;
const char* const subject = RUNQCHECK_PROTOCOL_SUBJECT;

// The verdict's report of the complete executions a run did not judge: each
// started an M (newm) where the program had no spare one, so what follows a
// startm that finds no idle M is not checked by this column.
inline void print_unjudged(const char* column, std::uint64_t unjudged, std::uint64_t complete) {
  std::printf("runqcheck: report: %s: %s of %s complete executions reached newm (startm found "
              "no idle M) and were not judged: a bug on that path is not checked here (the "
              "stress column runs it)\n",
              column, cli::fmt(unjudged).c_str(), cli::fmt(complete).c_str());
}

#ifdef RUNQCHECK_PICTURES
using picture = ex::picture;
#else
struct picture {};  // built without fuzz/explain: no pictures
#endif

// One run of a scenario: the world made afresh, an M per thread, the
// quiescence checks after them.
struct prog final : ex::program {
  const proto_scenario& sc;
  std::optional<world_t> w;
  picture* pic = nullptr;  // the picture being taken (each run starts it afresh)
  bool finishing = false;  // in the final check (a failure there is no M's)
  explicit prog(const proto_scenario& s) : sc(s) {}
  int threads() const override { return threads_of(sc); }
  void setup() override {
    w.emplace(sc);
    W<world_t> = &*w;
#ifdef RUNQCHECK_PICTURES
    if (pic != nullptr) {
      pic->begin(threads());
      name_objects(*pic, *w);
    }
#endif
    finishing = false;
    w->init();
  }
  void run(int t) override { w->run(t); }
  void finish() override {
    finishing = true;
    w->check();
  }
  void teardown() override {
    w.reset();
    W<world_t> = nullptr;
  }
};

// The engine's options for the protocol: the repeated-read rule off, as the
// protocol's straight-line code repeats reads (engine.hpp, options::read_spins).
ex::options protocol_options(ex::options o) {
  o.read_spins = false;
  o.waits_end = true;  // parked Ms at quiescence: the run's end (the world's check)
  return o;
}

#ifdef RUNQCHECK_PICTURES
// Re-runs the failing execution at path alone, recording it, and writes its
// page: a lane per M. Returns the page's path, or "" with err set.
// cause: a data race in the port's terms (picture::cause; "" if the
// failure is none); at: the FILE:LINE of each access it names.
std::string take_picture(const char* checker, const proto_scenario& sc, ex::model m,
                         const std::string& path, const std::string& replay_line,
                         std::string& err, std::string* cause = nullptr,
                         std::vector<std::string>* at = nullptr) {
  std::string base = cli::page_base(checker, subject, sc.name, m, err);
  if (base.empty()) return "";
  picture pic;
  ex::options o = protocol_options({});
  o.m = m;
  o.replay = path;
  o.on_access = [&](int t, const ex::event& e, const ex::request& q) { pic.access(t, e, q); };
  o.on_final = [&](const ex::request& q, std::uint64_t r, std::uint64_t w) {
    pic.final_access(q, r, w);
  };
  o.on_end = [&](const ex::graph& g) { pic.order_sc(g); };
  prog p(sc);
  p.pic = &pic;
  ex::stats r = ex::explore(p, o);
  std::vector<std::string> named;
  std::string said = pic.cause(r.failure, at != nullptr ? *at : named);
  if (cause != nullptr) *cause = said;
  runqcheck::model::scenario info_sc;  // the page's header: the scenario's shape
  info_sc.name = sc.name;
  info_sc.targets = sc.targets;
  info_sc.cap = cap;
  info_sc.nprocs = sc.nprocs;
  runqcheck::fuzz::trace_info info;
  info.sc = &info_sc;
  info.subject = subject;
  info.checker = checker;
  info.scenario = std::string(sc.name);
  for (int i = 0; i < threads_of(sc); i++)
    info.lanes.push_back(m_lane<runqcheck::fuzz::lane>(sc, static_cast<std::size_t>(i)));
  return cli::write_failure_page(pic, r, p.finishing, info, m, path, replay_line, base, err);
}
#else
std::string take_picture(const char*, const proto_scenario&, ex::model, const std::string&,
                         const std::string&, std::string& err, std::string* = nullptr,
                         std::vector<std::string>* = nullptr) {
  err = "built without the page template (fuzz/explain)";
  return "";
}
#endif

}  // namespace
