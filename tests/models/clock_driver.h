// tests/models/clock_driver.h -- the importer's side of FMI 3.0 Model Exchange
// clocks, for the tests of the kit's clocked FMUs, independent of lsdae:
// ClockDriver keeps the tick schedule of one instance's time-based input
// clocks and does the importer's duties (FMI 3.0 2.2.9 and 2.3.5);
// ClockedRun integrates one or two such instances with a fixed-step RK4,
// exact time events and state events located by bisection (FMI 3.0 3.1.1:
// a domain change between z > 0 and z <= 0), coupling an output clock of the
// first to a triggered input clock of the second.
//
// Schedule: periodic clocks tick at t_start + shift + k·interval (interval
// and shift read with fmi3GetIntervalDecimal / fmi3GetShiftDecimal in
// Initialization Mode); changing and countdown clocks at the event time of
// the fmi3GetIntervalDecimal that answered fmi3IntervalChanged plus that
// interval. Every call whose status is not fmi3OK throws std::runtime_error
// with the FMU's log.
#ifndef LSDAE_TESTS_MODELS_CLOCK_DRIVER_H
#define LSDAE_TESTS_MODELS_CLOCK_DRIVER_H

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fmu_fixture.h"

namespace lsdae::test {

class ClockDriver {
 public:
  ClockDriver(const Fmi3Functions& f, fmi3Instance instance, const ParsedFmu& fmu, const LogSink& log);
  // Initialization Mode: reads the timing of every time-based input clock.
  void read_initial_timing(double t_start);
  // The earliest due tick of a time-based input clock.
  std::optional<double> next_tick() const;
  // Event Mode at t: activates the time-based input clocks due at t (within
  // 1e-9 relative); returns them.
  std::vector<fmi3ValueReference> activate_due(double t);
  void activate(fmi3ValueReference clock);
  // Event Mode: the output clocks that are active now.
  std::vector<fmi3ValueReference> active_output_clocks();
  // Event Mode at t, after fmi3UpdateDiscreteStates: the next ticks of the
  // clocks that ticked, and every aperiodic clock's interval (a duty in each
  // Event Mode for countdown clocks).
  void after_update(double t, const std::vector<fmi3ValueReference>& ticked);
  bool has_clocks() const { return !fmu_.clocks.empty(); }

 private:
  struct Entry {
    fmi3ValueReference vr;
    std::string kind;
    double interval = 0.0, shift = 0.0, start = 0.0;
    std::optional<double> due;
    unsigned long ticks = 0;
  };
  void check(fmi3Status s, const std::string& what) const;
  const Fmi3Functions& f_;
  fmi3Instance instance_;
  const ParsedFmu& fmu_;
  const LogSink& log_;
  std::vector<Entry> time_based_;
};

// One instance of a kit FMU driven to the end of a run. `values` lists the
// variables recorded (Float64 or Int32, by name).
class ClockedRun {
 public:
  struct Part {
    const CatalogEntry* entry = nullptr;
    ParsedFmu fmu;
    Fmi3Functions fns;
    fmi3Instance instance = nullptr;
    LogSink log;
    std::unique_ptr<ClockDriver> clocks;
    std::vector<fmi3ValueReference> states, recorded;
    std::vector<bool> recorded_int;
  };
  struct Sample {
    double time;
    bool at_event;  // a pair of rows at an event: before (first) and after (second)
    std::vector<double> values;
  };
  // `coupling`: {output clock of part 0, triggered input clock of part 1}.
  ClockedRun(std::vector<const CatalogEntry*> entries, std::vector<std::vector<std::string>> recorded,
             std::optional<std::pair<std::string, std::string>> coupling = std::nullopt);
  ~ClockedRun();
  ClockedRun(const ClockedRun&) = delete;
  ClockedRun& operator=(const ClockedRun&) = delete;
  // Runs to `stop` with RK4 steps of at most h, recording at every `grid` time
  // and before/after every event where a clock ticked. Returns the samples of
  // part `which`; the times of its clock ticks in `ticks`.
  void run(double stop, double h, const std::vector<double>& grid);
  const std::vector<Sample>& samples(std::size_t which) const { return samples_[which]; }
  const std::vector<double>& tick_times(std::size_t which) const { return tick_times_[which]; }
  std::size_t events() const { return events_; }

 private:
  void record(std::size_t which, double t, bool at_event);
  std::vector<double> indicators(Part& p);
  void event(double t, bool state_event);
  void ok(Part& p, fmi3Status s, const std::string& what);
  std::vector<std::unique_ptr<Part>> parts_;
  std::optional<std::pair<fmi3ValueReference, fmi3ValueReference>> coupling_;
  std::vector<std::vector<Sample>> samples_;
  std::vector<std::vector<double>> tick_times_;
  std::size_t events_ = 0;
  std::vector<std::optional<double>> next_time_event_;
  std::vector<std::vector<double>> held_;  // per part, per recorded variable: clocked values at their last tick
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_MODELS_CLOCK_DRIVER_H
