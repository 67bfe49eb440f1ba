// runtime/sweep/metrics.h -- what a sweep measures in each scenario, and when
// it stops one early.
//
// A selector names one number at a point of the run:
//   ELEMENTS               one element: a variable or array element
//                          ("gen[1].delta"), or hypot(A, B) of two
//                          ("hypot(bus[5].Vr, bus[5].Vi)": a voltage
//                          magnitude |V| = sqrt(Vr² + Vi²) from its parts)
//   AGG(ELEMENTS)          an aggregate over the elements a glob selects
//                          (runtime/simulation/output_channels.h: "*", "?",
//                          brackets literal), or over hypot(GLOB_A, GLOB_B):
//                          min, max, mean, spread (max − min) or maxdev (the
//                          largest |x_i − mean x|)
//   mean(ELEMENTS, WEIGHTS), maxdev(ELEMENTS, WEIGHTS)
//                          the mean weighted by a second glob: Σ w_i x_i / Σ w_i,
//                          and the largest |x_i − that mean|. With rotor angles
//                          and inertias, maxdev(gen[*].delta, gen[*].H) is the
//                          largest rotor-angle separation from the centre of
//                          inertia (Kundur, Power System Stability and Control,
//                          §13.1.3: δ_COI = Σ H_i δ_i / Σ H_i).
// Pairing: the second glob of hypot and the weights must have the same
// wildcards in the same order as the first; the partner of a name is the
// second glob with its wildcards filled by what they matched in that name
// (gen[12].delta → gen[12].H). A name without its partner is Error(usage).
// Weights that do not sum to a positive number give NaN (like a NaN sample).
// A name that contains parentheses ("der(x)") is a name, not an aggregate,
// when no aggregate of that name exists.
//
// A metric is STAT:SELECTOR with STAT one of min, max, final, tmax (the time
// of the first maximum), tmin: "max:maxdev(gen[*].delta)",
// "min:min(hypot(bus[*].Vr, bus[*].Vi))". min, max, tmin and tmax take a
// window, STAT@FROM: only the samples at t >= FROM count ("min@1.2:min(hypot(
// bus[*].Vr, bus[*].Vi))", the lowest voltage once a fault is cleared); a run
// that ends before FROM has no value for it (empty). A stop condition is SELECTOR OP
// NUMBER with OP one of > >= < <=. Samples whose value is NaN are left out of
// min/max/tmax/tmin; hypot of a NaN is NaN.
//
// The evaluation order is fixed (elements in the first glob's ModelVariables
// order, sums left to right), so the same samples give the same bits.
#ifndef LSDAE_RUNTIME_SWEEP_METRICS_H
#define LSDAE_RUNTIME_SWEEP_METRICS_H

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "lsdae/model.h"
#include "lsdae/sweep.h"
#include "simulation/output_channels.h"

namespace lsdae::sweep {

struct Selector {
  enum class Aggregate { single, min, max, mean, spread, maxdev } aggregate = Aggregate::single;
  std::string text;
  // Indices into CompiledChecks::channels, one per element.
  std::vector<std::size_t> channels;
  std::vector<std::size_t> partners;  // hypot: element k is hypot(channels[k], partners[k]); empty: none
  std::vector<std::size_t> weights;   // mean / maxdev: the weight of element k; empty: all equal
  double element(const std::vector<double>& samples, std::size_t k) const;
  double value(const std::vector<double>& samples) const;
};

struct Metric {
  enum class Stat { min, max, final, tmax, tmin } stat = Stat::max;
  Selector selector;
  std::string text;
  double from = -HUGE_VAL;  // STAT@FROM: the samples at t >= from (min, max, tmin, tmax)
};

struct StopCondition {
  enum class Op { greater, greater_equal, less, less_equal } op = Op::greater;
  Selector selector;
  double threshold = 0;
  std::string text;
  bool holds(double value) const;
};

struct CompiledChecks {
  std::vector<simulation::OutputChannel> channels;  // every channel a selector reads, once
  std::vector<Metric> metrics;
  std::vector<StopCondition> stops;
  std::optional<Settle> settle;
};

// Error(usage) for a malformed text or a name the model does not have.
CompiledChecks compile_checks(const Model& model, const SweepOptions& options);

// The running values of the metrics over the samples of one scenario.
class MetricAccumulator {
 public:
  explicit MetricAccumulator(const CompiledChecks& checks);
  // `samples[c]` is channel c at time t. Returns the text of the first stop
  // condition that holds there (empty: none).
  std::string sample(double t, const std::vector<double>& samples);
  std::vector<std::optional<double>> results() const;

 private:
  const CompiledChecks& checks_;
  struct State {
    double best = std::nan(""), at = std::nan(""), last = std::nan("");
    bool any = false;
    bool reached = false;  // a sample at t >= the metric's window start
  };
  std::vector<State> state_;
  // Per stop condition: the metric with the same selector, whose value at the
  // sample it takes instead of evaluating the selector again (none: its own).
  std::vector<std::optional<std::size_t>> stop_metric_;
};

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_METRICS_H
