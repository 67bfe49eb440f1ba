// runtime/run/run_loop.cpp -- see run_loop.h.
#include "run/run_loop.h"

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <thread>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::run {

void log_verdict(const JacobianCheck& check) {
  if (check.agree()) log_info(to_string(check));
  else log_warning(to_string(check));
}

void initialize(Simulation& sim, bool check_jacobian, const std::function<void(const JacobianCheck&)>& report) {
  if (sim.initialized()) return;
  sim.initialize();
  if (check_jacobian) report(sim.check_jacobian());
}

namespace {

// The observers run() puts on the simulation, removed however it returns.
struct Observers {
  Simulation& sim;
  ~Observers() {
    sim.observe_events({});
    sim.observe_steps({});
  }
};

}  // namespace

Ending run(Simulation& sim, const OutputPlan& plan, RowSink& sink, const StopToken& stop) {
  // Paused at an event (pause_before_event_at, Simulation::restore): the run
  // goes on from there -- the rows up to the event are the sink's already.
  const bool resuming = sim.initialized() && sim.paused_at_event();
  if (!resuming)
    initialize(sim, plan.check_jacobian, [&sink](const JacobianCheck& check) { sink.jacobian_checked(check); });
  Observers observers{sim};
  std::int64_t rows = 0;
  double last_row_time = std::nan("");
  auto row = [&](RowKind kind) {
    sink.row(sim, kind);
    ++rows;
    last_row_time = sim.time();
  };
  // A row just before and just after every event (same time, two rows).
  sim.observe_events([&](double, EventPhase phase) {
    row(phase == EventPhase::after ? RowKind::after_event : RowKind::before_event);
  });
  // --output-steps: a row at every step IDA accepts (every K-th with
  // --output-every), as many as --max-rows allows.
  std::int64_t steps_seen = 0;
  if (!plan.record_points)
    sim.observe_steps([&](double t) {
      if (++steps_seen % plan.every != 0 || t == last_row_time) return;
      if (rows >= plan.max_rows)
        throw Error(ErrorKind::output, "results: --output-steps reached --max-rows " + std::to_string(plan.max_rows) +
                                           " rows at t = " + format_number(t) +
                                           " → raise --max-rows, keep every K-th step (--output-every K), or use "
                                           "an output grid");
      row(RowKind::ordinary);
    });
  if (!resuming) {
    sink.begin(sim);
    row(RowKind::ordinary);
  }
  // A stop request reaches the run inside an output interval too: this
  // watcher cancels the simulation at its next IDA step, so one long interval
  // (tiny steps, a storm of events) does not hold the stop up until its end.
  // It goes (joined) when the loop is left.
  std::jthread watcher;
  if (stop.can_stop())
    watcher = std::jthread([&stop, s = &sim](std::stop_token done) {
      std::mutex m;
      std::condition_variable_any wake;
      std::unique_lock lock(m);
      while (!done.stop_requested()) {
        if (stop.stop_requested()) {
          s->cancel();
          return;
        }
        wake.wait_for(lock, done, std::chrono::milliseconds(20), [] { return false; });
      }
    });
  for (std::int64_t k = 1; k <= plan.points; ++k) {
    if (stop.stop_requested()) return Ending::stopped;
    if (sink.finished()) return Ending::finished;
    const double target = plan.at(k);
    // A stepped simulation goes on from where it stands (a paused one handles its event at time() first).
    if (target < sim.time() || (target == sim.time() && !sim.paused_at_event())) continue;
    try {
      sim.advance_to(target);
    } catch (const Error& e) {
      // The watcher's cancel(): a stop request like one seen between rows.
      if (e.kind() == ErrorKind::interrupted && stop.stop_requested()) return Ending::stopped;
      throw;
    }
    if (sim.paused_at_event()) return Ending::paused;  // pause_before_event_at: no row yet at the event
    if (sim.terminated()) {
      if (sim.time() != last_row_time) row(RowKind::ordinary);
      return Ending::terminated;
    }
    // An event at an output time already wrote its rows there.
    if (plan.records(k) && sim.time() != last_row_time) row(RowKind::ordinary);
    if (!plan.record_points && k == plan.points && sim.time() != last_row_time) row(RowKind::ordinary);
    sink.point(k, plan.points, sim.time());
  }
  // A stop requested during the last interval is honoured too.
  if (stop.stop_requested()) return Ending::stopped;
  return Ending::completed;
}

}  // namespace lsdae::run
