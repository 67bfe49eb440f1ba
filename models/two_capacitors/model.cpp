// Two capacitors in parallel (FMI-LS-DAE draft, section 2, "Example of
// Structural Singularity"; Cellier & Kofman, Continuous System Simulation, 7.7).
//
//   source --R-- node --+-- C1 --+-- ground
//                       +-- C2 --+
//
//   v0 = f(t) = V sin(omega t)        r[1] = source.v - source.V*sin(source.omega*time)
//   vR = R i0                         r[2] = R.v - R.R*R.i
//   i1 = C1 der(v1)                   r[3] = C1.i - C1.C*der(C1.v)
//   i2 = C2 der(v2)                   r[4] = C2.i - C2.C*der(C2.v)
//   v0 = vR + v1                      r[5] = source.v - R.v - C1.v
//   v2 = v1                           r[6] = C2.v - C1.v                 (index 2)
//                                     dr[6] = der(C2.v) - der(C1.v)      (index 1)
//   i0 = i1 + i2                      r[7] = R.i - C1.i - C2.i
//
//   V = 1, omega = 1, R = 1, C1 = 1, C2 = 2, C1.v(0) = C2.v(0) = 0.
//   Exact solution, tau = R (C1 + C2):
//     v1 = v2 = V/(1 + omega^2 tau^2) (sin(omega t) - omega tau cos(omega t) + omega tau e^(-t/tau))
//
// Fully implicit, shape A only (DAE mode from the start): the importer writes
// der(C1.v), der(C2.v) and the algebraic variables source.v, R.v, R.i, C1.i,
// C2.i; the FMU returns r[1..7] and dr[6]. r[6] is grouped with dr[6].
#include <cmath>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

// "r[k]", built by appending (GCC 12 -O3 reports a false -Wrestrict positive
// for "literal" + std::string).
std::string name_of_residual(int k) {
  std::string s("r[");
  s += std::to_string(k);
  s += ']';
  return s;
}

class TwoCapacitors final : public Model {
 public:
  explicit TwoCapacitors(const Config&) {}

  void declare(Builder& b) override {
    b.model_name("TwoCapacitors", "Two capacitors in parallel behind a resistor (structural singularity, index 2)");
    b.default_experiment({0.0, 10.0, 1e-6, 0.01});
    b.form(Form::fully_implicit);
    b.provides_partials();
    v1_ = b.state("C1.v", 0.0, "V", "voltage of capacitor C1");
    v2_ = b.state("C2.v", 0.0, "V", "voltage of capacitor C2");
    der_v1_ = b.derivative(v1_);
    der_v2_ = b.derivative(v2_);
    v0_ = b.algebraic("source.v", 0.0, "V", "source voltage v0");
    vr_ = b.algebraic("R.v", 0.0, "V", "resistor voltage vR");
    i0_ = b.algebraic("R.i", 0.0, "A", "resistor current i0");
    i1_ = b.algebraic("C1.i", 0.0, "A", "current into capacitor C1");
    i2_ = b.algebraic("C2.i", 0.0, "A", "current into capacitor C2");
    for (int k = 0; k < 7; ++k) {
      r_[k] = b.residual_variable(name_of_residual(k + 1), kResidualText[k]);
      if (k == 5) dr6_ = b.residual_variable("dr[6]", "der(r[6]) = der(C2.v) - der(C1.v)");
    }
    amp_ = b.parameter("source.V", 1.0, "V", "amplitude of the sine source");
    omega_ = b.parameter("source.omega", 1.0, "rad/s", "angular frequency of the sine source");
    res_ = b.parameter("R.R", 1.0, "Ohm", "resistance");
    cap1_ = b.parameter("C1.C", 1.0, "F", "capacitance of C1");
    cap2_ = b.parameter("C2.C", 2.0, "F", "capacitance of C2");

    const ValueRef time = 0;  // the independent variable is a known of Continuous-Time Mode
    b.residual_group({{{r_[0], 0, {{time, DepKind::dependent}, {v0_, DepKind::constant}}}}});
    b.residual_group({{{r_[1], 0, {{vr_, DepKind::constant}, {i0_, DepKind::fixed}}}}});
    b.residual_group({{{r_[2], 0, {{der_v1_, DepKind::fixed}, {i1_, DepKind::constant}}}}});
    b.residual_group({{{r_[3], 0, {{der_v2_, DepKind::fixed}, {i2_, DepKind::constant}}}}});
    b.residual_group(
        {{{r_[4], 0, {{v1_, DepKind::constant}, {v0_, DepKind::constant}, {vr_, DepKind::constant}}}}});
    b.residual_group({{{r_[5], 2, {{v1_, DepKind::constant}, {v2_, DepKind::constant}}},
                       {dr6_, 1, {{der_v1_, DepKind::constant}, {der_v2_, DepKind::constant}}}}});
    b.residual_group(
        {{{r_[6], 0, {{i0_, DepKind::constant}, {i1_, DepKind::constant}, {i2_, DepKind::constant}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    v[r_[0]] = v[v0_] - v[amp_] * std::sin(v[omega_] * c.time);
    v[r_[1]] = v[vr_] - v[res_] * v[i0_];
    v[r_[2]] = v[i1_] - v[cap1_] * v[der_v1_];
    v[r_[3]] = v[i2_] - v[cap2_] * v[der_v2_];
    v[r_[4]] = v[v0_] - v[vr_] - v[v1_];
    v[r_[5]] = v[v2_] - v[v1_];
    v[dr6_] = v[der_v2_] - v[der_v1_];
    v[r_[6]] = v[i0_] - v[i1_] - v[i2_];
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    s.add(r_[0], v0_, 1.0);
    s.add(r_[1], vr_, 1.0);
    s.add(r_[1], i0_, -v[res_]);
    s.add(r_[2], i1_, 1.0);
    s.add(r_[2], der_v1_, -v[cap1_]);
    s.add(r_[3], i2_, 1.0);
    s.add(r_[3], der_v2_, -v[cap2_]);
    s.add(r_[4], v0_, 1.0);
    s.add(r_[4], vr_, -1.0);
    s.add(r_[4], v1_, -1.0);
    s.add(r_[5], v2_, 1.0);
    s.add(r_[5], v1_, -1.0);
    s.add(dr6_, der_v2_, 1.0);
    s.add(dr6_, der_v1_, -1.0);
    s.add(r_[6], i0_, 1.0);
    s.add(r_[6], i1_, -1.0);
    s.add(r_[6], i2_, -1.0);
  }

 private:
  static constexpr const char* kResidualText[7] = {
      "source.v - source.V*sin(source.omega*time)",
      "R.v - R.R*R.i",
      "C1.i - C1.C*der(C1.v)",
      "C2.i - C2.C*der(C2.v)",
      "source.v - R.v - C1.v",
      "C2.v - C1.v (the structural singularity v2 = v1)",
      "R.i - C1.i - C2.i"};

  ValueRef v1_ = 0, v2_ = 0, der_v1_ = 0, der_v2_ = 0;
  ValueRef v0_ = 0, vr_ = 0, i0_ = 0, i1_ = 0, i2_ = 0;
  ValueRef r_[7] = {}, dr6_ = 0;
  ValueRef amp_ = 0, omega_ = 0, res_ = 0, cap1_ = 0, cap2_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(TwoCapacitors)
