// runtime/simulation/output_channels.h -- what a result records, and reading
// it at each output point.
//
// A channel is one scalar column of a result: a scalar variable of any FMI
// 3.0 type, or one element of an array variable ("A[2,3]", row-major,
// 1-based). select_output_channels picks them:
//   default     the outputs (every type) and the continuous states, in
//               ModelVariables order;
//   patterns    names or globs (`*` any run of characters, `?` one
//               character; brackets are literal, so "L[1].i" and "L[*].i"
//               work). A pattern is matched against variable names (an
//               array matches with all its elements) and against element
//               names ("A[2,3]", "A[*]"). A pattern that matches nothing is
//               Error(usage) naming it; the independent variable (time,
//               always the first column) and duplicates are left out, and a
//               pattern that matches the name "time" is accepted for any
//               model (a system, whose components' independent variables
//               are "A.time"; an FMU whose independent variable is named
//               otherwise or, FMI 2.0, not declared): time is recorded anyway;
//   roles       variables by role, in ModelVariables order: outputs, inputs
//               (causality), states, derivatives (of the continuous
//               states), algebraic (continuous Float locals and outputs that
//               are neither states nor derivatives), parameters (parameter,
//               calculated and structural parameters), locals (causality);
//               with patterns, both (roles first, no duplicates);
//   all         every variable except the independent one and Clocks.
// split_output_patterns splits a comma-separated list, keeping commas inside
// brackets ("A[2,3],x" is two patterns).
//
// OutputReader reads all channels with one bulk Get<Type> call per type
// (an array variable is read whole and its selected elements picked; FMI 2.0
// aliases, several names sharing one value reference, are read once and
// recorded under each name), and keeps every value exactly (lsdae/values.h).
#ifndef LSDAE_RUNTIME_SIMULATION_OUTPUT_CHANNELS_H
#define LSDAE_RUNTIME_SIMULATION_OUTPUT_CHANNELS_H

#include <span>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "lsdae/simulation.h"
#include "lsdae/values.h"
#include "results/row_values.h"

namespace lsdae::simulation {

struct OutputChannel {
  const Variable* variable = nullptr;
  std::size_t element = 0;  // 0-based, row-major; 0 for a scalar
  std::string name;         // "x" or "A[2,3]"
};

std::vector<OutputChannel> select_output_channels(const Model& model, const std::vector<std::string>& patterns,
                                                  bool all, const std::vector<std::string>& roles = {});
std::vector<std::string> split_output_patterns(const std::string& list);
bool glob_match(const std::string& pattern, const std::string& name);

// What the result writers store about each channel (results/row_values.h).
std::vector<results::Column> result_columns(const std::vector<OutputChannel>& channels);

class OutputReader final : public results::RowValues {
 public:
  explicit OutputReader(std::vector<OutputChannel> channels);
  const std::vector<OutputChannel>& channels() const { return channels_; }
  std::size_t size() const override { return channels_.size(); }
  std::vector<std::string> names() const;

  // Reads every channel at the simulation's current point.
  void read(Simulation& sim);
  // Channel c's last value: exactly as text (integers in decimal, reals in
  // the shortest round-trip form, Booleans 0/1, Strings as they are,
  // Binary as hex), or as a double.
  std::string text(std::size_t c) const override;
  double number(std::size_t c) const;
  // Every channel's number(c) into out[c] (out.size() == size()), the type's
  // storage looked up once per group instead of once per value.
  void numbers(std::span<double> out) const;
  // Channel c's last value in its own storage (lsdae/values.h).
  ValueStorage storage(std::size_t c) const override;
  double real(std::size_t c) const override;
  std::int64_t integer(std::size_t c) const override;
  std::uint64_t unsigned_integer(std::size_t c) const override;
  bool is_text(std::size_t c) const;  // a String or Binary channel
  // Appends channel c's value as text to `out` without allocating for numbers.
  void append_text(std::size_t c, std::string& out) const override;

 private:
  struct Group {  // the variables of one type: one bulk read
    std::vector<ValueReference> vrs;
    Values values;
    bool real = false;  // stored as doubles (Values::reals)
  };
  struct Slot {
    std::size_t group, index;  // channel c is groups_[group].values[index]
  };
  std::vector<OutputChannel> channels_;
  std::vector<Group> groups_;
  std::vector<Slot> slots_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_OUTPUT_CHANNELS_H
