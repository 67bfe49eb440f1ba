// Modelica.Electrical.Analog.Examples.CauerLowPassAnalog (FMI-LS-DAE draft,
// section 3.1.1): a fifth-order Cauer low-pass filter driven by a voltage step.
//
//   V --R1-- n1 --(C2 || L1)-- n2 --(C4 || L2)-- n3
//            |                 |                 |
//            C1                C3             C5 || R2          (all to ground)
//
//   l1 = 1.304, l2 = 0.8586, c1 = 1.072, c2 = 1/(1.704992^2 l1), c3 = 1.682,
//   c4 = 1/(1.179945^2 l2), c5 = 0.7262, R1 = R2 = 1,
//   V.v = V.offset + (0 if time < V.startTime else V.V), V.V = 1, V.startTime = 1.
//
// Nine state candidates with der(...): C1.v..C5.v, L1.i, L2.i, L1.v, L2.v;
// seven algebraic variables: C1.i..C5.i, R1.i, R2.i; 16 residual groups:
//   r[k]   = C_k.i - c_k der(C_k.v)                  k = 1..5  (capacitors)
//   r[6]   = L1.v - l1 der(L1.i)                               (inductors)
//   r[7]   = L2.v - l2 der(L2.i)
//   r[8]   = V.v - C1.v - R1.R R1.i                            (resistors)
//   r[9]   = C5.v - R2.R R2.i
//   r[10]  = R1.i - C1.i - C2.i - L1.i                         (KCL at n1)
//   r[11]  = C2.i + L1.i - C3.i - C4.i - L2.i                  (KCL at n2)
//   r[12]  = C4.i + L2.i - C5.i - R2.i                         (KCL at n3)
//   r[13]  = L1.v - (C1.v - C3.v)   index 2,  dr[13] = der(L1.v) - der(C1.v) + der(C3.v)  index 1
//   r[14]  = C2.v - L1.v            index 2,  dr[14] = der(C2.v) - der(L1.v)              index 1
//   r[15]  = L2.v - (C3.v - C5.v)   index 2,  dr[15] = der(L2.v) - der(C3.v) + der(C5.v)  index 1
//   r[16]  = C4.v - L2.v            index 2,  dr[16] = der(C4.v) - der(L2.v)              index 1
// The DAE has index 2; dummy derivatives leave the 5 states C1.v, C3.v, C5.v,
// L1.i, L2.i. The step is a time event: V.v is a discrete variable switched in
// update_discrete(), which reports the next event time V.startTime until it
// has passed.
//
// Fully implicit, shape A only (DAE mode from the start).
#include <array>
#include <string>
#include <utility>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

// prefix + k + suffix, built by appending (GCC 12 -O3 reports a false
// -Wrestrict positive for "literal" + std::string).
std::string indexed(const char* prefix, std::size_t k, const char* suffix = "") {
  std::string s(prefix);
  s += std::to_string(k);
  s += suffix;
  return s;
}

class CauerLowPass final : public Model {
 public:
  explicit CauerLowPass(const Config&) {}

  void declare(Builder& b) override {
    b.model_name("CauerLowPass", "Modelica.Electrical.Analog.Examples.CauerLowPassAnalog as a fully implicit index-2 DAE");
    b.default_experiment({0.0, 60.0, 1e-6, 0.1});
    b.form(Form::fully_implicit);
    b.provides_partials();
    b.has_time_events();

    // States: capacitor voltages, inductor currents, inductor voltages.
    for (std::size_t k = 0; k < 5; ++k) {
      const bool fixed = k % 2 == 0;  // C1, C3, C5 have fixed start values in the Modelica model
      cv_[k] = b.state(indexed("C", k + 1, ".v"), 0.0, "V", indexed("voltage drop of capacitor C", k + 1), fixed);
    }
    for (std::size_t k = 0; k < 2; ++k)
      li_[k] = b.state(indexed("L", k + 1, ".i"), 0.0, "A", indexed("current through inductor L", k + 1));
    for (std::size_t k = 0; k < 2; ++k)
      lv_[k] = b.state(indexed("L", k + 1, ".v"), 0.0, "V", indexed("voltage drop of inductor L", k + 1), false);
    for (std::size_t k = 0; k < 5; ++k) der_cv_[k] = b.derivative(cv_[k]);
    for (std::size_t k = 0; k < 2; ++k) der_li_[k] = b.derivative(li_[k]);
    for (std::size_t k = 0; k < 2; ++k) der_lv_[k] = b.derivative(lv_[k]);

    // Algebraic variables: capacitor and resistor currents.
    for (std::size_t k = 0; k < 5; ++k)
      ci_[k] = b.algebraic(indexed("C", k + 1, ".i"), 0.0, "A", indexed("current into capacitor C", k + 1));
    r1i_ = b.algebraic("R1.i", 0.0, "A", "current through R1 (source to n1)");
    r2i_ = b.algebraic("R2.i", 0.0, "A", "current through the load R2");

    // The step source output, switched at the time event.
    // (The strings are moved in: GCC 12 at -O3 reports a false -Wrestrict
    // positive for std::string::operator=(const char*).)
    Variable step;
    step.name = std::string("V.v");
    step.description = std::string("step source voltage: V.offset + (0 if time < V.startTime else V.V)");
    step.causality = Causality::local;
    step.variability = Variability::discrete;
    step.initial = Initial::calculated;
    step.unit = std::string("V");
    vv_ = b.add(std::move(step));

    for (std::size_t k = 0; k < 16; ++k) {
      r_[k] = b.residual_variable(indexed("r[", k + 1, "]"), kResidualText[k]);
      if (k >= 12) dr_[k - 12] = b.residual_variable(indexed("dr[", k + 1, "]"), kDerivativeText[k - 12]);
    }

    static constexpr double kC[5] = {1.072, 1.0 / (1.704992 * 1.704992 * 1.304), 1.682,
                                     1.0 / (1.179945 * 1.179945 * 0.8586), 0.7262};
    static constexpr double kL[2] = {1.304, 0.8586};
    for (std::size_t k = 0; k < 2; ++k)
      l_[k] = b.parameter(indexed("l", k + 1), kL[k], "H", indexed("filter coefficient l", k + 1));
    for (std::size_t k = 0; k < 5; ++k)
      c_[k] = b.parameter(indexed("c", k + 1), kC[k], "F", indexed("filter coefficient c", k + 1));
    rr1_ = b.parameter("R1.R", 1.0, "Ohm", "resistance of R1");
    rr2_ = b.parameter("R2.R", 1.0, "Ohm", "resistance of the load R2");
    height_ = b.parameter("V.V", 1.0, "V", "height of the voltage step");
    offset_ = b.parameter("V.offset", 0.0, "V", "voltage offset of the step source");
    start_time_ = b.parameter("V.startTime", 1.0, "s", "time of the voltage step");

    const DepKind K = DepKind::constant;
    for (std::size_t k = 0; k < 5; ++k) b.residual_group({{{r_[k], 0, {{der_cv_[k], DepKind::fixed}, {ci_[k], K}}}}});
    for (std::size_t k = 0; k < 2; ++k) b.residual_group({{{r_[5 + k], 0, {{lv_[k], K}, {der_li_[k], DepKind::fixed}}}}});
    b.residual_group({{{r_[7], 0, {{cv_[0], K}, {r1i_, DepKind::fixed}}}}});
    b.residual_group({{{r_[8], 0, {{cv_[4], K}, {r2i_, DepKind::fixed}}}}});
    b.residual_group({{{r_[9], 0, {{li_[0], K}, {ci_[0], K}, {ci_[1], K}, {r1i_, K}}}}});
    b.residual_group({{{r_[10], 0, {{li_[0], K}, {li_[1], K}, {ci_[1], K}, {ci_[2], K}, {ci_[3], K}}}}});
    b.residual_group({{{r_[11], 0, {{li_[1], K}, {ci_[3], K}, {ci_[4], K}, {r2i_, K}}}}});
    // Inductor voltage L_k.v across the capacitors C_(2k+1) and C_(2k+3), and
    // the parallel capacitor C_(2k+2) sharing it.
    for (std::size_t k = 0; k < 2; ++k) {
      const std::size_t left = 2 * k, mid = 2 * k + 1, right = 2 * k + 2;
      b.residual_group({{{r_[12 + 2 * k], 2, {{cv_[left], K}, {cv_[right], K}, {lv_[k], K}}},
                         {dr_[2 * k], 1, {{der_cv_[left], K}, {der_cv_[right], K}, {der_lv_[k], K}}}}});
      b.residual_group({{{r_[13 + 2 * k], 2, {{cv_[mid], K}, {lv_[k], K}}},
                         {dr_[2 * k + 1], 1, {{der_cv_[mid], K}, {der_lv_[k], K}}}}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.initialization) v[vv_] = step_value(c);
    for (std::size_t k = 0; k < 5; ++k) v[r_[k]] = v[ci_[k]] - v[c_[k]] * v[der_cv_[k]];
    for (std::size_t k = 0; k < 2; ++k) v[r_[5 + k]] = v[lv_[k]] - v[l_[k]] * v[der_li_[k]];
    v[r_[7]] = v[vv_] - v[cv_[0]] - v[rr1_] * v[r1i_];
    v[r_[8]] = v[cv_[4]] - v[rr2_] * v[r2i_];
    v[r_[9]] = v[r1i_] - v[ci_[0]] - v[ci_[1]] - v[li_[0]];
    v[r_[10]] = v[ci_[1]] + v[li_[0]] - v[ci_[2]] - v[ci_[3]] - v[li_[1]];
    v[r_[11]] = v[ci_[3]] + v[li_[1]] - v[ci_[4]] - v[r2i_];
    for (std::size_t k = 0; k < 2; ++k) {
      const std::size_t left = 2 * k, mid = 2 * k + 1, right = 2 * k + 2;
      v[r_[12 + 2 * k]] = v[lv_[k]] - (v[cv_[left]] - v[cv_[right]]);
      v[dr_[2 * k]] = v[der_lv_[k]] - (v[der_cv_[left]] - v[der_cv_[right]]);
      v[r_[13 + 2 * k]] = v[cv_[mid]] - v[lv_[k]];
      v[dr_[2 * k + 1]] = v[der_cv_[mid]] - v[der_lv_[k]];
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    for (std::size_t k = 0; k < 5; ++k) {
      s.add(r_[k], ci_[k], 1.0);
      s.add(r_[k], der_cv_[k], -v[c_[k]]);
    }
    for (std::size_t k = 0; k < 2; ++k) {
      s.add(r_[5 + k], lv_[k], 1.0);
      s.add(r_[5 + k], der_li_[k], -v[l_[k]]);
    }
    s.add(r_[7], cv_[0], -1.0);
    s.add(r_[7], r1i_, -v[rr1_]);
    s.add(r_[8], cv_[4], 1.0);
    s.add(r_[8], r2i_, -v[rr2_]);
    s.add(r_[9], r1i_, 1.0);
    s.add(r_[9], ci_[0], -1.0);
    s.add(r_[9], ci_[1], -1.0);
    s.add(r_[9], li_[0], -1.0);
    s.add(r_[10], ci_[1], 1.0);
    s.add(r_[10], li_[0], 1.0);
    s.add(r_[10], ci_[2], -1.0);
    s.add(r_[10], ci_[3], -1.0);
    s.add(r_[10], li_[1], -1.0);
    s.add(r_[11], ci_[3], 1.0);
    s.add(r_[11], li_[1], 1.0);
    s.add(r_[11], ci_[4], -1.0);
    s.add(r_[11], r2i_, -1.0);
    for (std::size_t k = 0; k < 2; ++k) {
      const std::size_t left = 2 * k, mid = 2 * k + 1, right = 2 * k + 2;
      s.add(r_[12 + 2 * k], lv_[k], 1.0);
      s.add(r_[12 + 2 * k], cv_[left], -1.0);
      s.add(r_[12 + 2 * k], cv_[right], 1.0);
      s.add(dr_[2 * k], der_lv_[k], 1.0);
      s.add(dr_[2 * k], der_cv_[left], -1.0);
      s.add(dr_[2 * k], der_cv_[right], 1.0);
      s.add(r_[13 + 2 * k], cv_[mid], 1.0);
      s.add(r_[13 + 2 * k], lv_[k], -1.0);
      s.add(dr_[2 * k + 1], der_cv_[mid], 1.0);
      s.add(dr_[2 * k + 1], der_lv_[k], -1.0);
    }
  }

  DiscreteUpdate update_discrete(Context& c) override {
    c.v[vv_] = step_value(c);
    DiscreteUpdate update;
    if (c.time < c.v[start_time_]) update.next_event_time = c.v[start_time_];
    return update;
  }

 private:
  // Modelica.Electrical.Analog.Sources.StepVoltage: offset + (if time < startTime then 0 else V).
  double step_value(const Context& c) const {
    return c.v[offset_] + (c.time < c.v[start_time_] ? 0.0 : c.v[height_]);
  }

  static constexpr const char* kResidualText[16] = {
      "C1.i - c1*der(C1.v)",
      "C2.i - c2*der(C2.v)",
      "C3.i - c3*der(C3.v)",
      "C4.i - c4*der(C4.v)",
      "C5.i - c5*der(C5.v)",
      "L1.v - l1*der(L1.i)",
      "L2.v - l2*der(L2.i)",
      "V.v - C1.v - R1.R*R1.i",
      "C5.v - R2.R*R2.i",
      "R1.i - C1.i - C2.i - L1.i (KCL at n1)",
      "C2.i + L1.i - C3.i - C4.i - L2.i (KCL at n2)",
      "C4.i + L2.i - C5.i - R2.i (KCL at n3)",
      "L1.v - (C1.v - C3.v)",
      "C2.v - L1.v",
      "L2.v - (C3.v - C5.v)",
      "C4.v - L2.v"};
  static constexpr const char* kDerivativeText[4] = {
      "der(r[13]) = der(L1.v) - (der(C1.v) - der(C3.v))",
      "der(r[14]) = der(C2.v) - der(L1.v)",
      "der(r[15]) = der(L2.v) - (der(C3.v) - der(C5.v))",
      "der(r[16]) = der(C4.v) - der(L2.v)"};

  std::array<ValueRef, 5> cv_{}, der_cv_{}, ci_{}, c_{};
  std::array<ValueRef, 2> li_{}, lv_{}, der_li_{}, der_lv_{}, l_{};
  std::array<ValueRef, 16> r_{};
  std::array<ValueRef, 4> dr_{};
  ValueRef r1i_ = 0, r2i_ = 0, vv_ = 0, rr1_ = 0, rr2_ = 0, height_ = 0, offset_ = 0, start_time_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(CauerLowPass)
