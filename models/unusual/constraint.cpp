// An index-2 constraint between two capacitor-like states, with the grouped
// <Residual> (constraint and its derivative) declared before the other
// residuals and the residual variables scattered among the other variables.
// Fully implicit, DAE-only (no enable switch), with directional derivatives.
//
//   r1  = C1 der(x1) + y          = 0
//   r2  = C2 der(x2) - y + 1      = 0
//   c0  = x1 - a x2               = 0   index 2 (original constraint)
//   c1  = der(x1) - a der(x2)     = 0   index 1 (its derivative), grouped with c0
//   C1 = 1, C2 = 2, a = 2, x1(0) = 2, x2(0) = 1 (consistent)
//   exact: x2 = 1 - t/(a C1 + C2), x1 = a x2, y = a C1/(a C1 + C2)
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class UnusualConstraint final : public Model {
 public:
  explicit UnusualConstraint(const Config&) {}

  void declare(Builder& b) override {
    b.model_name("UnusualConstraint", "index-2 constraint, its group declared first");
    b.default_experiment({0.0, 2.0, 1e-8, 0.02});
    b.form(Form::fully_implicit);
    b.provides_partials();
    c1_ = b.residual_variable("c1", "der(x1) - a der(x2)");
    a_ = b.parameter("a", 2.0, "", "ratio of the constrained states");
    x2_ = b.state("x2", 1.0);
    r2_ = b.residual_variable("r2", "C2 der(x2) - y + 1");
    y_ = b.algebraic("y", 0.0, "", "constraint force");
    x1_ = b.state("x1", 2.0);
    c0_ = b.residual_variable("c0", "x1 - a x2");
    cap1_ = b.parameter("C1", 1.0);
    der_x2_ = b.derivative(x2_);
    r1_ = b.residual_variable("r1", "C1 der(x1) + y");
    der_x1_ = b.derivative(x1_);
    cap2_ = b.parameter("C2", 2.0);
    b.state_order({der_x1_, der_x2_});
    // The constraint group first; coefficients made of parameters are `fixed`
    // and the parameters themselves are not listed.
    b.residual_group({{{c0_, 2, {{x2_, DepKind::fixed}, {x1_, DepKind::constant}}},
                       {c1_, 1, {{der_x2_, DepKind::fixed}, {der_x1_, DepKind::constant}}}}});
    b.residual_group({{{r2_, 0, {{der_x2_, DepKind::fixed}, {y_, DepKind::constant}}}}});
    b.residual_group({{{r1_, 0, {{y_, DepKind::constant}, {der_x1_, DepKind::fixed}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    v[r1_] = v[cap1_] * v[der_x1_] + v[y_];
    v[r2_] = v[cap2_] * v[der_x2_] - v[y_] + 1.0;
    v[c0_] = v[x1_] - v[a_] * v[x2_];
    v[c1_] = v[der_x1_] - v[a_] * v[der_x2_];
  }

  void partials(const Context& c, PartialSink& s) override {
    s.add(r1_, der_x1_, c.v[cap1_]);
    s.add(r1_, y_, 1.0);
    s.add(r2_, der_x2_, c.v[cap2_]);
    s.add(r2_, y_, -1.0);
    s.add(c0_, x1_, 1.0);
    s.add(c0_, x2_, -c.v[a_]);
    s.add(c1_, der_x1_, 1.0);
    s.add(c1_, der_x2_, -c.v[a_]);
  }

 private:
  ValueRef c1_ = 0, a_ = 0, x2_ = 0, r2_ = 0, y_ = 0, x1_ = 0, c0_ = 0, cap1_ = 0, der_x2_ = 0, r1_ = 0, der_x1_ = 0,
           cap2_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(UnusualConstraint)
