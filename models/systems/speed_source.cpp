// SpeedSource: a prescribed velocity v = V sin(omega t) with a force port
// whose force the source absorbs without using it (an ideal source), for
// the bad-input system "bad_singular_coupling" (README.md): two sources
// rigidly coupled give the coupling row v1(t) - v2(t) = 0, which contains
// no unknown, and the flows F1, F2, which appear in no equation but their
// sum: the composed system is structurally singular.
//
//   der(s) = v,   v = V sin(omega t)           F: input, used nowhere
//
// Plain FMI 3.0 ME FMU (no manifest), exact directional derivatives.
#include <cmath>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

constexpr ValueRef kTime = 0;

class SpeedSource final : public Model {
 public:
  explicit SpeedSource(const Config& config) : form_(config.get_choice("form", {"ode"})) {}

  void declare(Builder& b) override {
    b.model_name("SpeedSource", "A prescribed velocity V sin(omega t) with a force port (an ideal source)");
    b.default_experiment({0.0, 1.0, 1e-8, 0.01});
    b.form(Form::ode);
    b.provides_partials();
    V_ = b.parameter("V", 1.0, "m/s", "amplitude of the velocity");
    omega_ = b.parameter("omega", 2.0, "rad/s", "angular frequency");
    s_ = b.state("s", 0.0, "m", "position");
    der_s_ = b.derivative(s_);
    v_ = b.output("v", "m/s", "prescribed velocity (the port's potential)");
    Variable f;
    f.name = "F";
    f.description = "force into the source at its port (absorbed, used in no equation)";
    f.causality = Causality::input;
    f.variability = Variability::continuous;
    f.start = 0.0;
    f.unit = "N";
    b.add(std::move(f));
    b.ode_dependencies(der_s_, {{kTime, DepKind::dependent}});
    b.ode_dependencies(v_, {{kTime, DepKind::dependent}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    v[v_] = v[V_] * std::sin(v[omega_] * c.time);
    v[der_s_] = v[v_];
  }

 private:
  std::string form_;
  ValueRef V_ = 0, omega_ = 0, s_ = 0, der_s_ = 0, v_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(SpeedSource)
