// SlidingMass: one mass on a line with a force port (seed 003, eq. 8, one
// mass per FMU), the component of system case 1 (README.md "coupled_masses").
//
//   der(s) = v
//   der(v) = (F + F0 sin(omega t)) / m
//
// F is the force INTO the mass at its port (an input: the coupling's flow,
// lsdae's coupling annotation convention), v the port's potential (an
// output). F0 sin(omega t) is a driving force of the mass's own, a parameter
// (F0 = 0: undriven). Two instances, m = 1, F0 = 1, omega = 2 and m = 2,
// F0 = 0, rigidly coupled (v1 = v2, F1 + F2 = 0) are CoupledMasses with
// Fz = F2 = -F1.
//
// Written the way equation-based exporters write a model whose output is a
// state: `v` is the state itself with causality="output" (no separate
// output variable), its <Output> depends on the state v; value references
// scattered (config value_references=scattered), the input declared first,
// the parameters last; no directional derivatives (the importer must use
// finite differences); a plain ODE FMU (no LS-DAE manifest). Also built as an
// FMI 2.0 variant (config fmi=2) from the same binary.
#include <cmath>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

constexpr ValueRef kTime = 0;  // the kit's independent variable

class SlidingMass final : public Model {
 public:
  explicit SlidingMass(const Config& config) : form_(config.get_choice("form", {"ode"})) {}

  void declare(Builder& b) override {
    b.model_name("SlidingMass", "A mass on a line with a force input and a velocity output (one mass of seed 003)");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::ode);
    {
      Variable f;
      f.name = "F";
      f.description = "force into the mass at its port (the coupling's flow)";
      f.causality = Causality::input;
      f.variability = Variability::continuous;
      f.start = 0.0;
      f.unit = "N";
      F_ = b.add(std::move(f));
    }
    {
      Variable v;
      v.name = "v";
      v.description = "velocity (a state and the port's potential)";
      v.causality = Causality::output;
      v.variability = Variability::continuous;
      v.initial = Initial::exact;
      v.start = 0.0;
      v.unit = "m/s";
      v_ = b.add(std::move(v));
    }
    s_ = b.state("s", 0.0, "m", "position");
    der_v_ = b.derivative(v_);
    der_s_ = b.derivative(s_);
    m_ = b.parameter("m", 2.0, "kg", "mass");
    F0_ = b.parameter("F0", 0.0, "N", "amplitude of the driving force F0 sin(omega t) (0: undriven)");
    omega_ = b.parameter("omega", 2.0, "rad/s", "angular frequency of the driving force");
    // The state vector is s, v although v is declared first.
    b.state_order({der_s_, der_v_});
    b.ode_dependencies(v_, {{v_, DepKind::constant}});
    b.ode_dependencies(der_s_, {{v_, DepKind::constant}});
    // Time enters through the driving force (zero for F0 = 0, but declared:
    // the dependency is the model's, not the parameter value's).
    b.ode_dependencies(der_v_, {{kTime, DepKind::dependent}, {F_, DepKind::fixed}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    v[der_s_] = v[v_];
    v[der_v_] = (v[F_] + v[F0_] * std::sin(v[omega_] * c.time)) / v[m_];
  }

 private:
  std::string form_;
  ValueRef F_ = 0, v_ = 0, s_ = 0, der_v_ = 0, der_s_ = 0, m_ = 0, F0_ = 0, omega_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(SlidingMass)
