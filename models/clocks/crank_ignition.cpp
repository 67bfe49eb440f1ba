// CrankIgnition: a countdown clock armed by a state event (README.md): the
// ignition of an engine fires a fixed delay after the crank passes its
// firing angle, the FMI 3.0 standard's example of a countdown clock.
//
//   der(theta) = w                      theta(0) = 0, w = 2 pi rad/s
//   event indicator  z = theta - theta_fire       (theta_fire discrete, start pi/2)
//   state event (z <= 0 -> z > 0):  theta_fire += 2 pi, and the countdown
//                                   clock `ignite` is armed with interval `delay`
//   at every tick of `ignite`:      sparks := previous(sparks) + 1,
//                                   spark_angle := theta
//
//   delay = 0.1 s. The crank passes its firing angle at t = 0.25 + k and the
//   sparks fire at t = 0.35 + k; spark_angle = 2 pi (0.35 + k).
//
// Between a tick and the next crossing the countdown's interval is not yet
// known (fmi3GetIntervalDecimal answers fmi3IntervalNotYetKnown); an importer
// must ask in every Event Mode.
#include <cmath>
#include <numbers>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class CrankIgnition final : public Model {
 public:
  explicit CrankIgnition(const Config&) {}

  void declare(Builder& b) override {
    b.model_name("CrankIgnition", "Ignition a fixed delay after the crank passes its firing angle: a countdown clock");
    b.default_experiment({0.0, 3.0, 1e-8, 0.05});
    b.form(Form::ode);
    b.provides_partials();
    w_ = b.parameter("w", 2.0 * std::numbers::pi, "rad/s", "crank speed");
    delay_ = b.parameter("delay", 0.1, "s", "ignition delay after the firing angle");
    ClockProperties p;
    p.interval_variability = IntervalVariability::countdown;
    ignite_ = b.input_clock("ignite", p, "countdown clock: armed at each firing angle, ticks `delay` later");
    Variable fire;
    fire.name = "theta_fire";
    fire.description = "the next firing angle";
    fire.variability = Variability::discrete;
    fire.initial = Initial::exact;
    fire.start = std::numbers::pi / 2.0;
    fire.unit = "rad";
    theta_fire_ = b.add(std::move(fire));
    const ClockedState sparks =
        b.clocked_state("sparks", 0.0, {ignite_}, VarType::int32, Causality::output, "number of ignitions");
    sparks_ = sparks.value;
    previous_sparks_ = sparks.previous;
    spark_angle_ = b.clocked("spark_angle", {ignite_}, VarType::float64, Causality::output,
                             "crank angle at the last ignition");
    theta_ = b.state("theta", 0.0, "rad", "crank angle");
    der_theta_ = b.derivative(theta_);
    z_ = b.local("z", "rad", "event indicator: theta - theta_fire");
    b.event_indicator(z_);
    b.ode_dependencies(der_theta_, {});
    b.ode_dependencies(z_, {{theta_, DepKind::constant}});
    b.ode_dependencies(sparks_, {{ignite_, DepKind::dependent}});
    b.ode_dependencies(spark_angle_, {{ignite_, DepKind::dependent}, {theta_, DepKind::dependent}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.event_mode && c.active(ignite_)) {
      v[sparks_] = v[previous_sparks_] + 1.0;
      v[spark_angle_] = v[theta_];
    }
    v[der_theta_] = v[w_];
    v[z_] = v[theta_] - v[theta_fire_];
  }

  void partials(const Context&, PartialSink& s) override { s.add(z_, theta_, 1.0); }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate u;
    double* v = c.v;
    if (c.initialization || v[theta_] < v[theta_fire_]) return u;  // no crossing (or not yet)
    v[theta_fire_] += 2.0 * std::numbers::pi;
    u.clock_intervals.push_back({ignite_, v[delay_]});
    return u;
  }

  ClockTiming clock_timing(const Context&, ValueRef) override { return {}; }  // not armed at the start

 private:
  ValueRef w_ = 0, delay_ = 0, ignite_ = 0, theta_fire_ = 0, sparks_ = 0, previous_sparks_ = 0, spark_angle_ = 0,
           theta_ = 0, der_theta_ = 0, z_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(CrankIgnition)
