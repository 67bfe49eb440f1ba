// Two masses rigidly coupled by a velocity constraint (index 2; seed 003,
// eq. 8 and 15).
//
//   Fa      = F0 sin(omega t)                 driving force on mass 1
//   der(s1) = v1,   der(s2) = v2
//   der(v1) = (Fa - Fz)/m1,   der(v2) = Fz/m2
//   0       = v1 - v2                         Fz: constraint force
//
// Start s1 = s2 = v1 = v2 = 0 (fixed), Fz = 0. Exact solution:
//   v1 = v2 = F0 (1 - cos(omega t)) / (omega (m1 + m2)),
//   s1 = s2 = F0 (omega t - sin(omega t)) / (omega^2 (m1 + m2)),
//   Fz = m2 Fa / (m1 + m2).
//
// One form (config form=semi_explicit, manifest shape A, DAE mode from the
// start): der(s1..v2) from fmi3GetContinuousStateDerivatives over the states,
// Fz and time (through Fa), plus one residual group, highest index first;
// the derivative formulation eliminates der(v1), der(v2) with the model's own
// differential equations, as an equation-based exporter does:
//   g    = v1 - v2                        index 2
//   gdot = (Fa - Fz)/m1 - Fz/m2  (dg/dt)  index 1
#include <cmath>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

constexpr ValueRef kTime = 0;  // the kit gives the independent variable value reference 0

class CoupledMasses final : public Model {
 public:
  explicit CoupledMasses(const Config& config) : form_(config.get_choice("form", {"semi_explicit"})) {}

  void declare(Builder& b) override {
    b.model_name("CoupledMasses", "Two masses rigidly coupled by a velocity constraint, index 2 (" + form_ + " form)");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::semi_explicit);
    b.provides_partials();

    m1_ = b.parameter("m1", 1.0, "kg", "mass 1 (driven)");
    m2_ = b.parameter("m2", 2.0, "kg", "mass 2");
    F0_ = b.parameter("F0", 1.0, "N", "amplitude of the driving force");
    omega_ = b.parameter("omega", 2.0, "rad/s", "angular frequency of the driving force");

    s1_ = b.state("s1", 0.0, "m", "position of mass 1");
    s2_ = b.state("s2", 0.0, "m", "position of mass 2");
    v1_ = b.state("v1", 0.0, "m/s", "velocity of mass 1");
    v2_ = b.state("v2", 0.0, "m/s", "velocity of mass 2");
    der_s1_ = b.derivative(s1_);
    der_s2_ = b.derivative(s2_);
    der_v1_ = b.derivative(v1_);
    der_v2_ = b.derivative(v2_);
    Fz_ = b.algebraic("Fz", 0.0, "N", "constraint force (mass 1 on mass 2)");

    g_ = b.residual_variable("g", "v1 - v2 (velocity constraint, index 2)");
    gdot_ = b.residual_variable("gdot", "(Fa - Fz)/m1 - Fz/m2 (dg/dt, index 1)");
    Fa_ = b.local("Fa", "N", "driving force F0 sin(omega t)");

    // Time is a known of Continuous-Time Mode (FMI 3.0) and Fa depends on it.
    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    b.dae_dependencies(der_s1_, {{v1_, kC}});
    b.dae_dependencies(der_s2_, {{v2_, kC}});
    b.dae_dependencies(der_v1_, {{kTime, kD}, {Fz_, kF}});
    b.dae_dependencies(der_v2_, {{Fz_, kF}});
    b.residual_group({{
        {g_, 2, {{v1_, kC}, {v2_, kC}}},
        {gdot_, 1, {{kTime, kD}, {Fz_, kF}}},
    }});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double m1 = v[m1_], m2 = v[m2_];
    const double Fa = v[F0_] * std::sin(v[omega_] * c.time);
    const double Fz = v[Fz_];
    v[Fa_] = Fa;
    v[der_s1_] = v[v1_];
    v[der_s2_] = v[v2_];
    v[der_v1_] = (Fa - Fz) / m1;
    v[der_v2_] = Fz / m2;
    v[g_] = v[v1_] - v[v2_];
    v[gdot_] = (Fa - Fz) / m1 - Fz / m2;
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double m1 = v[m1_], m2 = v[m2_];
    const double dFa_dt = v[F0_] * v[omega_] * std::cos(v[omega_] * c.time);
    s.add(der_v1_, kTime, dFa_dt / m1);
    s.add(gdot_, kTime, dFa_dt / m1);
    s.add(der_s1_, v1_, 1.0);
    s.add(der_s2_, v2_, 1.0);
    s.add(der_v1_, Fz_, -1.0 / m1);
    s.add(der_v2_, Fz_, 1.0 / m2);
    s.add(g_, v1_, 1.0);
    s.add(g_, v2_, -1.0);
    s.add(gdot_, Fz_, -1.0 / m1 - 1.0 / m2);
  }

 private:
  std::string form_;
  ValueRef m1_ = 0, m2_ = 0, F0_ = 0, omega_ = 0;
  ValueRef s1_ = 0, s2_ = 0, v1_ = 0, v2_ = 0;
  ValueRef der_s1_ = 0, der_s2_ = 0, der_v1_ = 0, der_v2_ = 0;
  ValueRef Fz_ = 0, g_ = 0, gdot_ = 0, Fa_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(CoupledMasses)
