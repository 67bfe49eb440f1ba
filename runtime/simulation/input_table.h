// runtime/simulation/input_table.h -- time-varying inputs read from a table,
// as FMPy and fmusim read them.
//
// The CSV: a header with `time` first and one column per input variable
// (causality="input", names quoted or not), then one row per time point,
// times non-decreasing. Two rows with the same time are a step at that time:
// the first row is the value just before, the last the value just after.
// Between rows:
//   continuous inputs (Float32/Float64 with variability="continuous") are
//     interpolated linearly, and held at the first/last value outside the
//     table;
//   discrete inputs (every other type and variability) hold the value of
//     the last row at or before the time.
// Every time where a discrete input changes or a continuous one steps is a
// time event (next_event_after): the importer enters Event Mode there and
// sets the new values, as FMI 3.0 requires for discrete inputs (§3.2.3).
// Clocked inputs (FMI 3.0 2.2.6.2: an input with the attribute clocks may be
// set only while one of its clocks is active) are samples: apply() leaves
// them alone, apply_clocked() sets them at a tick of one of their clocks,
// in Event Mode after fmi3SetClock, to the table's value at the tick (the
// last row at or before it, the value right of a step); their changes
// between ticks make no event.
// Values are parsed strictly for the variable's type (lsdae/values.h); an
// unknown column, a non-input, an array variable, a time that decreases or
// a row with the wrong number of fields is Error(usage) naming the file,
// the line and the column.
#ifndef LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H
#define LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model_description.h"
#include "lsdae/values.h"

namespace lsdae::simulation {

class InputTable {
 public:
  static InputTable read_csv(const std::filesystem::path& path, const ModelDescription& md);

  bool empty() const { return columns_.empty(); }
  bool has_continuous() const { return continuous_count_ > 0; }
  std::size_t columns() const { return columns_.size(); }
  // The first time strictly after t where a discrete input changes or a
  // continuous input steps.
  std::optional<double> next_event_after(double t) const;
  // The point where the current stretch of integration starts (the start
  // or the last event): at this time the values right of a step apply.
  void set_stretch_start(double t) { stretch_start_ = t; }

  // Sets the inputs at time t on `instance`: the continuous ones (during
  // integration: the left limit at a step, except at the stretch's start),
  // and with `discrete` also the discrete ones (at the start and in Event
  // Mode: the values right of a step). Returns discard if the FMU did.
  // Thread-safe for distinct instances (Jacobian colours in parallel).
  CallStatus apply(Instance& instance, double t, bool discrete) const;
  // Event Mode at a tick of the input clocks `ticked` (after fmi3SetClock):
  // the clocked inputs of those clocks, at time t. Returns discard if the FMU did.
  CallStatus apply_clocked(Instance& instance, double t, std::span<const ValueReference> ticked) const;

 private:
  struct Column {
    const Variable* variable = nullptr;
    bool continuous = false;
    bool clocked = false;       // the variable has clocks: set at their ticks only
    std::vector<double> reals;  // continuous: one per row
    Values values;              // discrete: one per row
  };
  std::vector<double> times_;
  std::vector<Column> columns_;
  std::vector<double> event_times_;  // sorted, unique
  std::size_t continuous_count_ = 0;
  double stretch_start_ = -1e300;
  std::vector<ValueReference> continuous_vrs_;  // of the continuous columns, in column order

  double continuous_value(const Column& c, double t, bool right) const;
  CallStatus set_discrete(Instance& instance, const Column& c, std::size_t row) const;
  std::size_t discrete_row(double t) const;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H
