// runtime/sweep/metrics.h -- what a sweep measures in each scenario, and when
// it stops one early.
//
// A selector names one number at a point of the run:
//   NAME                   a variable or array element ("gen[1].delta")
//   AGG(GLOB)              an aggregate over the channels a glob selects
//                          (runtime/simulation/output_channels.h: "*", "?",
//                          brackets literal): min, max, mean, spread (max −
//                          min) or maxdev (the largest |x_i − mean x| : the
//                          largest rotor-angle separation from the centre of
//                          inertia when all inertias are equal).
// A metric is STAT:SELECTOR with STAT one of min, max, final, tmax (the time
// of the first maximum), tmin: "max:maxdev(gen[*].delta)",
// "min:min(bus[*].Vr)". A stop condition is SELECTOR OP NUMBER with OP one of
// > >= < <=. Samples whose value is NaN are left out of min/max/tmax/tmin.
//
// The evaluation order is fixed (channels in ModelVariables order, sums left
// to right), so the same samples give the same bits.
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
  std::vector<std::size_t> channels;  // indices into CompiledChecks::channels
  double value(const std::vector<double>& samples) const;
};

struct Metric {
  enum class Stat { min, max, final, tmax, tmin } stat = Stat::max;
  Selector selector;
  std::string text;
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
  };
  std::vector<State> state_;
};

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_METRICS_H
