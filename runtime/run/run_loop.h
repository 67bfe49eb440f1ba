// runtime/run/run_loop.h -- THE run loop: one Simulation from where it stands
// to its stop time, a row at every output point of an OutputPlan and on both
// sides of every event. `lsdae simulate`, a sweep's scenarios, lsdae_run (C)
// and Python's run() all run through it.
//
//   Ending end = run(sim, plan, sink, stop);
//
// What run() does, in order:
//   1. initializes the simulation when it is not yet (Simulation::initialize),
//      and with plan.check_jacobian compares the finite-difference and
//      directional Jacobians there (Simulation::check_jacobian; the one
//      --jacobian check of every front door) and hands the verdict to
//      sink.jacobian_checked;
//   2. sink.begin(sim), then a row at sim.time() (the start, or where a
//      stepped simulation stands: output points up to it are passed over);
//   3. for each output point k = 1..plan.points: ends early when `stop` asks
//      (Ending::stopped) or sink.finished() says so (Ending::finished);
//      Simulation::advance_to(plan.at(k)); a row there when plan.records(k)
//      and no event row was written at that time; sink.point(k, ...). When the
//      FMU asks to terminate, a row at the time reached and Ending::terminated.
//   Events: a row just before and one just after (RowKind before_event,
//   after_event, the same time). With plan.record_points false
//   (--output-steps) a row at every plan.every-th step IDA accepts instead,
//   at most plan.max_rows rows (Error(output) past them: "results:
//   --output-steps reached --max-rows ..."), and at the stop time.
//
// Pausing and resuming (lsdae/simulation.h, "snapshots"): when advance_to
// stops before an event because of Simulation::pause_before_event_at, run()
// returns Ending::paused with no row at the event (the rows before and after
// it come when it is handled). Called with a simulation paused at an event
// (that one, or one restored from a snapshot), run() resumes: no
// initialization, no begin(), no first row; the event is handled inside the
// advance_to of the output point at or after it, exactly as in an unpaused
// run, so the sink sees the same rows in the same order.
//
// Stop requests: `stop` is polled before each output point, and a watcher
// thread (only when `stop` can ask at all) calls Simulation::cancel() within
// 20 ms of a request, so one long output interval does not hold it up; the
// cancelled advance_to ends the run as Ending::stopped with the simulation
// at the last point IDA accepted (no row there). A cancel() from elsewhere
// (lsdae_cancel, Python's Ctrl-C) arrives as Error(interrupted).
//
// Contract: what Simulation::initialize and advance_to throw, and what the
// sink throws, propagates (lsdae::Error), the simulation at the last point
// reached and every row the sink took kept; the caller says what was kept.
// The event and step observers run() installs are removed when it returns,
// however it returns. Rows are deterministic: the same plan on the same
// simulation gives the same rows whoever calls.
#ifndef LSDAE_RUNTIME_RUN_RUN_LOOP_H
#define LSDAE_RUNTIME_RUN_RUN_LOOP_H

#include <cstdint>
#include <functional>
#include <string>

#include "lsdae/simulation.h"
#include "results/result_writer.h"
#include "run/output_plan.h"

namespace lsdae::run {

using results::RowKind;

// Logs the verdict of --jacobian check: info when the two Jacobians agree, a
// warning when they differ.
void log_verdict(const JacobianCheck& check);

// Initializes `sim` when it is not yet (Simulation::initialize) and, with
// `check_jacobian`, compares the finite-difference and directional Jacobians
// there and hands the verdict to `report`: the one --jacobian check of every
// front door. run() starts with it; a front door that steps (lsdae_initialize,
// Python's initialize()) calls it itself.
void initialize(Simulation& sim, bool check_jacobian,
                const std::function<void(const JacobianCheck&)>& report = log_verdict);

// Where the rows of a run go: a result file (run_to_files.h), a sweep's
// metrics, Python's columns.
class RowSink {
 public:
  virtual ~RowSink() = default;
  // Initialized (and checked): before the first row. What it throws ends the run.
  virtual void begin(Simulation& /*sim*/) {}
  // One row at sim.time().
  virtual void row(Simulation& sim, RowKind kind) = 0;
  // After output point k of `points` (its row written): progress.
  virtual void point(std::int64_t /*k*/, std::int64_t /*points*/, double /*t*/) {}
  // True: end the run before the next output point (a sweep's stop condition).
  virtual bool finished() { return false; }
  // The verdict of --jacobian check; the default logs it (log_verdict).
  virtual void jacobian_checked(const JacobianCheck& check) { log_verdict(check); }
};

// A stop request from outside the run: a signal, a time limit. The default
// token never asks.
class StopToken {
 public:
  StopToken() = default;
  // `requested` is polled from the run's thread and from a watcher thread:
  // it must be thread-safe. `reason`, when it returns text, makes the stop a
  // failure with that message (a time limit) instead of an interruption.
  explicit StopToken(std::function<bool()> requested, std::function<std::string()> reason = {})
      : requested_(std::move(requested)), reason_(std::move(reason)) {}
  bool can_stop() const { return static_cast<bool>(requested_); }
  bool stop_requested() const { return requested_ && requested_(); }
  std::string reason() const { return reason_ ? reason_() : std::string(); }

 private:
  std::function<bool()> requested_;
  std::function<std::string()> reason_;
};

enum class Ending {
  completed,   // the stop time reached
  terminated,  // the FMU asked to terminate
  stopped,     // the StopToken asked
  finished,    // the sink's finished() said so
  paused,      // Simulation::pause_before_event_at: stopped before an event, no row at it yet
};

Ending run(Simulation& sim, const OutputPlan& plan, RowSink& sink, const StopToken& stop = {});

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_RUN_LOOP_H
