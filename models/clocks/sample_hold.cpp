// SampleHold: a sine sampled by a shifted fixed-period clock and held, the
// held value driving a first-order lag (README.md).
//
//   der(s) = w c,  der(c) = -w s      s(0) = 0, c(0) = 1:  s = sin(w t)
//   at every tick of `sample`:        held := s
//   der(y) = (held - y)/T             y(0) = 0
//
//   w = 2 pi (1 Hz), T = 0.1 s; `sample` is a fixed periodic clock with
//   intervalDecimal 0.2 and shiftDecimal 0.05: ticks at 0.05 + 0.2 k (an
//   importer may set another interval or shift in Initialization Mode).
//   held starts at 0 and is a clocked output (clocked variable with no
//   previous: it is assigned, not accumulated).
//
// Exact solution: held_k = sin(w t_k) on [t_k, t_k+1); y relaxes towards it,
// y(t) = held_k + (y(t_k) - held_k) exp(-(t - t_k)/T).
//
// Config key source = sine (the default) | input: with `input` the sample is
// a clocked Float64 input u (clocks="sample", start 0) instead of s: held := u
// at every tick. FMI 3.0 2.2.6.2 lets the importer set u only while `sample`
// is active (Event Mode, after fmi3SetClock); the kit refuses it otherwise.
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class SampleHold final : public Model {
 public:
  explicit SampleHold(const Config& config) : input_(config.get_string("source", "sine") == "input") {
    const std::string source = config.get_string("source", "sine");
    if (source != "sine" && source != "input")
      throw std::invalid_argument("model configuration: key \"source\" is \"" + source + "\"; allowed values: sine, input");
  }

  void declare(Builder& b) override {
    b.model_name("SampleHold", "A sine sampled by a shifted fixed-period clock, held, and filtered");
    b.default_experiment({0.0, 2.0, 1e-8, 0.1});
    b.form(Form::ode);
    b.provides_partials();
    w_ = b.parameter("w", 2.0 * std::numbers::pi, "rad/s", "angular frequency of the sampled sine");
    T_ = b.parameter("T", 0.1, "s", "time constant of the lag behind the hold");
    ClockProperties p;
    p.interval_variability = IntervalVariability::fixed;
    p.interval_decimal = 0.2;
    p.shift_decimal = 0.05;
    sample_ = b.input_clock("sample", p, "sampling clock: ticks at shift + k interval");
    Variable held;
    held.name = "held";
    held.description = "the sine's value at the last tick";
    held.causality = Causality::output;
    held.variability = Variability::discrete;
    held.initial = Initial::exact;
    held.start = 0.0;
    held.clocks = {sample_};
    held_ = b.add(std::move(held));
    if (input_) {
      Variable u;
      u.name = "u";
      u.description = "the sampled input, set by the importer at the ticks of sample";
      u.causality = Causality::input;
      u.variability = Variability::discrete;
      u.start = 0.0;
      u.clocks = {sample_};
      u_ = b.add(std::move(u));
    }
    s_ = b.state("s", 0.0, "", "sin(w t)");
    der_s_ = b.derivative(s_);
    c_ = b.state("c", 1.0, "", "cos(w t)");
    der_c_ = b.derivative(c_);
    y_ = b.state("y", 0.0, "", "lag behind the held value");
    der_y_ = b.derivative(y_);
    b.ode_dependencies(der_s_, {{c_, DepKind::fixed}});
    b.ode_dependencies(der_c_, {{s_, DepKind::fixed}});
    b.ode_dependencies(der_y_, {{y_, DepKind::fixed}});
    if (input_) b.ode_dependencies(held_, {{sample_, DepKind::dependent}, {u_, DepKind::dependent}});
    else b.ode_dependencies(held_, {{sample_, DepKind::dependent}, {s_, DepKind::dependent}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.event_mode && c.active(sample_)) v[held_] = input_ ? v[u_] : v[s_];
    v[der_s_] = v[w_] * v[c_];
    v[der_c_] = -v[w_] * v[s_];
    v[der_y_] = (v[held_] - v[y_]) / v[T_];
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    s.add(der_s_, c_, v[w_]);
    s.add(der_c_, s_, -v[w_]);
    s.add(der_y_, y_, -1.0 / v[T_]);
  }

 private:
  bool input_ = false;
  ValueRef u_ = 0;
  ValueRef w_ = 0, T_ = 0, sample_ = 0, held_ = 0, s_ = 0, der_s_ = 0, c_ = 0, der_c_ = 0, y_ = 0, der_y_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(SampleHold)
