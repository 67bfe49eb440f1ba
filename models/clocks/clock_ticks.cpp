// ClockTicks: a counter on an input clock, one FMU per interval variability
// of FMI 3.0 (README.md). Config key clock = constant | fixed | tunable |
// changing | triggered.
//
//   at every tick of `tick`:   count := previous(count) + 1,  t_tick := time
//   between ticks:             der(x) = count,  x(0) = 0
//
// so x(t) is the integral of a staircase: a clock that never ticks leaves
// x = 0, one that ticks at the wrong times gives a wrong slope.
//
//   clock       tick times (start time 0)                 timing from
//   constant    0, 0.2, 0.4, ...                           intervalDecimal 0.2 (= 1/5, supportsFraction)
//   fixed       0.1, 0.35, 0.6, ...                        intervalDecimal 0.25, shiftDecimal 0.1
//   tunable     0.05, 0.35, 0.65, ...                      parameters period 0.3 (tunable), phase 0.05
//   changing    0.1, 0.3, 0.6, 1.0, 1.5 (0.1·k(k+1)/2)     next interval step·(count+1), step = 0.1
//   triggered   whenever the importer activates it         (an output clock of another FMU)
//
// count is an Int32 clocked state (previous(count) its value at the previous
// tick), t_tick a Float64 clocked output. Config key clocked_access=lenient
// (kit) makes them readable between ticks, as some exporters allow.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class ClockTicks final : public Model {
 public:
  explicit ClockTicks(const Config& config)
      : kind_(config.get_choice("clock", {"constant", "fixed", "tunable", "changing", "triggered"})) {}

  void declare(Builder& b) override {
    b.model_name("ClockTicks", "A counter on a " + kind_ + " input clock; der(x) = count");
    b.default_experiment({0.0, 2.0, 1e-8, 0.1});
    b.form(Form::ode);
    b.provides_partials();
    ClockProperties p;
    if (kind_ == "constant") {
      p.interval_variability = IntervalVariability::constant;
      p.interval_decimal = 0.2;
      p.supports_fraction = true;
      p.resolution = 5;
      p.interval_counter = 1;
    } else if (kind_ == "fixed") {
      p.interval_variability = IntervalVariability::fixed;
      p.interval_decimal = 0.25;
      p.shift_decimal = 0.1;
    } else if (kind_ == "tunable") {
      p.interval_variability = IntervalVariability::tunable;
      period_ = b.tunable_parameter("period", 0.3, "s", "interval of the tunable clock");
      phase_ = b.parameter("phase", 0.05, "s", "delay of the first tick of the tunable clock");
    } else if (kind_ == "changing") {
      p.interval_variability = IntervalVariability::changing;
      step_ = b.parameter("step", 0.1, "s", "the interval after the k-th tick is step*(k+1)");
    } else {
      p.interval_variability = IntervalVariability::triggered;
    }
    tick_ = b.input_clock("tick", p, "the input clock that the counter counts");
    const ClockedState count = b.clocked_state("count", 0.0, {tick_}, VarType::int32, Causality::output,
                                               "number of ticks so far");
    count_ = count.value;
    previous_count_ = count.previous;
    t_tick_ = b.clocked("t_tick", {tick_}, VarType::float64, Causality::output, "time of the last tick");
    x_ = b.state("x", 0.0, "", "integral of count");
    der_x_ = b.derivative(x_);
    b.ode_dependencies(der_x_, {});  // count is discrete: no continuous known
    b.ode_dependencies(count_, {{tick_, DepKind::dependent}});
    b.ode_dependencies(t_tick_, {{tick_, DepKind::dependent}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.event_mode && c.active(tick_)) {
      v[count_] = v[previous_count_] + 1.0;
      v[t_tick_] = c.time;
    }
    v[der_x_] = v[count_];
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate u;
    if (kind_ == "changing" && c.active(tick_)) u.clock_intervals.push_back({tick_, c.v[step_] * (c.v[count_] + 1.0)});
    return u;
  }

  ClockTiming clock_timing(const Context& c, ValueRef) override {
    if (kind_ == "tunable") return {c.v[period_], c.v[phase_]};
    return {c.v[step_], 0.0};  // changing: the first interval
  }

 private:
  std::string kind_;
  ValueRef period_ = 0, phase_ = 0, step_ = 0, tick_ = 0, count_ = 0, previous_count_ = 0, t_tick_ = 0, x_ = 0,
           der_x_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(ClockTicks)
