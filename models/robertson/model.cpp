// Robertson's chemical kinetics (stiff, semi-explicit index 1; the classic
// DAE test, SUNDIALS idaRoberts_dns).
//
//   der(y1) = -k1 y1 + k3 y2 y3
//   der(y2) =  k1 y1 - k3 y2 y3 - k2 y2^2
//   0       =  y1 + y2 + y3 - 1
//   k1 = 0.04, k2 = 3e7, k3 = 1e4;  y1(0) = 1, y2(0) = 0 (fixed), y3 = 0
//   (y3(0) = 0 is exactly consistent; it is only a start value).
//
// One form (config form=semi_explicit), two manifest shapes (config manifest):
//   DAE mode   der(y1), der(y2) from fmi3GetContinuousStateDerivatives over
//              y1, y2 and the algebraic variable y3 (written by the importer),
//              residual g = y1 + y2 + y3 - 1 (one group, index 1).
//   ODE mode   (shape B with EnableDAE off, the default) y3 = 1 - y1 - y2 is
//              computed and written, then the same derivative formulas; g is 0.
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class Robertson final : public Model {
 public:
  explicit Robertson(const Config& config) : form_(config.get_choice("form", {"semi_explicit"})) {}

  void declare(Builder& b) override {
    b.model_name("Robertson", "Robertson chemical kinetics, stiff index-1 DAE (" + form_ + " form)");
    b.default_experiment({0.0, 4e10, 1e-8, 4e7});
    b.form(Form::semi_explicit);
    b.provides_partials();

    k1_ = b.parameter("k1", 0.04, "", "rate constant of y1 -> y2");
    k2_ = b.parameter("k2", 3e7, "", "rate constant of 2 y2 -> y2 + y3");
    k3_ = b.parameter("k3", 1e4, "", "rate constant of y2 + y3 -> y1 + y3");

    y1_ = b.state("y1", 1.0, "", "concentration of species 1");
    y2_ = b.state("y2", 0.0, "", "concentration of species 2 (at most 3.7e-5)");
    der_y1_ = b.derivative(y1_);
    der_y2_ = b.derivative(y2_);
    y3_ = b.algebraic("y3", 0.0, "", "concentration of species 3 (1 - y1 - y2)");
    g_ = b.residual_variable("g", "y1 + y2 + y3 - 1 (mass conservation)");

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    b.dae_dependencies(der_y1_, {{y1_, kF}, {y2_, kD}, {y3_, kD}});
    b.dae_dependencies(der_y2_, {{y1_, kF}, {y2_, kD}, {y3_, kD}});
    b.residual_group({{{g_, 1, {{y1_, kC}, {y2_, kC}, {y3_, kC}}}}});
    // ODE mode: y3 = 1 - y1 - y2 substituted, so every entry depends on the states.
    b.ode_dependencies(der_y1_, {{y1_, kD}, {y2_, kD}});
    b.ode_dependencies(der_y2_, {{y1_, kD}, {y2_, kD}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double k1 = v[k1_], k2 = v[k2_], k3 = v[k3_];
    const double y1 = v[y1_], y2 = v[y2_];
    double y3 = 0.0;
    if (c.dae_mode) {
      y3 = v[y3_];
      v[g_] = y1 + y2 + y3 - 1.0;
    } else {
      y3 = 1.0 - y1 - y2;
      v[y3_] = y3;
      v[g_] = 0.0;  // holds identically with y3 substituted
    }
    v[der_y1_] = -k1 * y1 + k3 * y2 * y3;
    v[der_y2_] = k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2;
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double k1 = v[k1_], k2 = v[k2_], k3 = v[k3_];
    const double y1 = v[y1_], y2 = v[y2_];
    if (c.dae_mode) {
      const double y3 = v[y3_];
      s.add(der_y1_, y1_, -k1);
      s.add(der_y1_, y2_, k3 * y3);
      s.add(der_y1_, y3_, k3 * y2);
      s.add(der_y2_, y1_, k1);
      s.add(der_y2_, y2_, -k3 * y3 - 2.0 * k2 * y2);
      s.add(der_y2_, y3_, -k3 * y2);
      s.add(g_, y1_, 1.0);
      s.add(g_, y2_, 1.0);
      s.add(g_, y3_, 1.0);
      return;
    }
    // d/dy1 and d/dy2 with y3 = 1 - y1 - y2 (dy3/dy1 = dy3/dy2 = -1).
    const double y3 = 1.0 - y1 - y2;
    s.add(der_y1_, y1_, -k1 - k3 * y2);
    s.add(der_y1_, y2_, k3 * (y3 - y2));
    s.add(der_y2_, y1_, k1 + k3 * y2);
    s.add(der_y2_, y2_, -k3 * (y3 - y2) - 2.0 * k2 * y2);
    s.add(y3_, y1_, -1.0);
    s.add(y3_, y2_, -1.0);
  }

 private:
  std::string form_;
  ValueRef k1_ = 0, k2_ = 0, k3_ = 0;
  ValueRef y1_ = 0, y2_ = 0, der_y1_ = 0, der_y2_ = 0, y3_ = 0, g_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(Robertson)
