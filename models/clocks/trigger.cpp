// Trigger: a triggered output clock that ticks at a state event (README.md);
// models/systems/clocked_counter connects it to ClockTicks_triggered's input
// clock, so the second FMU counts the first one's events.
//
//   der(x) = 1                         x(0) = 0 (x is time)
//   event indicator  z = x - level     (level discrete, start 0.3)
//   state event (z <= 0 -> z > 0): the output clock `crossed` ticks in that
//                                  Event Mode, crossings := previous(crossings) + 1,
//                                  and level += spacing (0.4)
//
//   crossed ticks at t = 0.3 + 0.4 k. The clock is active from the moment the
//   FMU finds x >= level in Event Mode (fmi3GetClock) until
//   fmi3UpdateDiscreteStates deactivates it.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class Trigger final : public Model {
 public:
  explicit Trigger(const Config&) {}

  void declare(Builder& b) override {
    b.model_name("Trigger", "A triggered output clock ticking at a state event");
    b.default_experiment({0.0, 2.0, 1e-8, 0.1});
    b.form(Form::ode);
    b.provides_partials();
    spacing_ = b.parameter("spacing", 0.4, "s", "distance between two crossings");
    Variable level;
    level.name = "level";
    level.description = "the value of x at the next crossing";
    level.variability = Variability::discrete;
    level.initial = Initial::exact;
    level.start = 0.3;
    level_ = b.add(std::move(level));
    crossed_ = b.output_clock("crossed", "ticks when x passes level");
    const ClockedState crossings = b.clocked_state("crossings", 0.0, {crossed_}, VarType::int32, Causality::output,
                                                   "number of ticks of crossed");
    crossings_ = crossings.value;
    previous_crossings_ = crossings.previous;
    x_ = b.state("x", 0.0, "s", "a clock of its own: x = t");
    der_x_ = b.derivative(x_);
    z_ = b.local("z", "s", "event indicator: x - level");
    b.event_indicator(z_);
    b.ode_dependencies(der_x_, {});
    b.ode_dependencies(z_, {{x_, DepKind::constant}});
    b.ode_dependencies(crossed_, {{x_, DepKind::dependent}});
    b.ode_dependencies(crossings_, {{x_, DepKind::dependent}});  // what makes `crossed` tick (an output clock is no known)
  }

  void compute(Context& c) override {
    double* v = c.v;
    c.b[crossed_] = c.event_mode && v[x_] >= v[level_] ? 1 : 0;
    if (c.active(crossed_)) v[crossings_] = v[previous_crossings_] + 1.0;
    v[der_x_] = 1.0;
    v[z_] = v[x_] - v[level_];
  }

  void partials(const Context&, PartialSink& s) override { s.add(z_, x_, 1.0); }

  DiscreteUpdate update_discrete(Context& c) override {
    double* v = c.v;
    if (c.active(crossed_)) v[level_] += v[spacing_];
    return {};
  }

 private:
  ValueRef spacing_ = 0, level_ = 0, crossed_ = 0, crossings_ = 0, previous_crossings_ = 0, x_ = 0, der_x_ = 0, z_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(Trigger)
