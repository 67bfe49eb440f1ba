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
// Values are parsed strictly for the variable's type (lsdae/values.h); an
// unknown column, a non-input, an array variable, a time that decreases or
// a row with the wrong number of fields is Error(usage) naming the file,
// the line and the column.
#ifndef LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H
#define LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H

#include <filesystem>
#include <optional>
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

 private:
  struct Column {
    const Variable* variable = nullptr;
    bool continuous = false;
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
  std::size_t discrete_row(double t) const;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INPUT_TABLE_H
