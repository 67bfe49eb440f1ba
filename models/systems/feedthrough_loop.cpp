// FeedthroughLoop: an algebraic loop through direct feedthrough across two
// FMUs (system case 3, README.md "algebraic_loop"), and the one FMU that
// holds both halves (the reference).
//
//   first:   der(x1) = -x1 + u1                 y1 = a u1 + x1
//   second:  der(x2) = u2 - c x2                 y2 = b u2 - x2
//   connected y1 -> u2 and y2 -> u1:
//            y1 = a y2 + x1,  y2 = b y1 - x2  =>  y1 = (x1 - a x2)/(1 - a b)
//   a = 0.5, b = -0.8, c = 2, x1(0) = 1, x2(0) = 0.
// Both outputs depend on both inputs' values at the same instant: neither
// FMU can be evaluated first, the loop must be solved (IDA's Newton on the
// whole system). Linear with constant coefficients: the exact solution is
// exp(M t) x(0) (reference/make_reference.py).
//
// Config key `part`:
//   first   plain FMI 3.0 ME (no manifest), no directional derivatives; the
//           ModelStructure lists y1's dependency on the input u1 (the
//           feedthrough) and on the state x1.
//   second  LS-DAE semi-explicit, manifest shape B (EnableDAEParameter,
//           starts in ODE mode): the feedthrough passes an algebraic
//           variable w = b u2 (residual res.w = w - b u2), y2 = w - x2. In ODE
//           mode the FMU computes w itself. Directional derivatives.
//   both    the loop in one FMU: LS-DAE fully implicit, manifest shape A, the
//           outputs y1, y2 algebraic variables, residuals
//             res.x1 = der(x1) + x1 - y2        res.x2 = der(x2) - y1 + c x2
//             res.y1 = y1 - a y2 - x1           res.y2 = y2 - b y1 + x2
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

ValueRef continuous_input(Builder& b, const std::string& name, const std::string& text) {
  Variable u;
  u.name = name;
  u.description = text;
  u.causality = Causality::input;
  u.variability = Variability::continuous;
  u.start = 0.0;
  return b.add(std::move(u));
}

class FeedthroughLoop final : public Model {
 public:
  explicit FeedthroughLoop(const Config& config) : part_(config.get_choice("part", {"first", "second", "both"})) {}

  void declare(Builder& b) override {
    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    b.default_experiment({0.0, 5.0, 1e-8, 0.05});
    if (part_ == "first") {
      b.model_name("LoopFirst", "first half of an algebraic loop: der(x1) = -x1 + u1, y1 = a u1 + x1");
      b.form(Form::ode);
      y1_ = b.output("y1", "", "a u1 + x1 (direct feedthrough of u1)");
      x1_ = b.state("x1", 1.0, "", "state of the first FMU");
      a_ = b.parameter("a", 0.5, "", "feedthrough gain of the first FMU");
      u1_ = continuous_input(b, "u1", "input of the first FMU");
      der_x1_ = b.derivative(x1_);
      b.ode_dependencies(der_x1_, {{x1_, kC}, {u1_, kC}});
      b.ode_dependencies(y1_, {{u1_, kF}, {x1_, kC}});
      return;
    }
    if (part_ == "second") {
      b.model_name("LoopSecond", "second half of an algebraic loop: der(x2) = u2 - c x2, y2 = b u2 - x2");
      b.form(Form::semi_explicit);
      b.provides_partials();
      u2_ = continuous_input(b, "u2", "input of the second FMU");
      b_ = b.parameter("b", -0.8, "", "feedthrough gain of the second FMU");
      c_ = b.parameter("c", 2.0, "1/s", "decay rate of the second FMU");
      w_ = b.algebraic("w", 0.0, "", "b u2 (the feedthrough, an algebraic variable in DAE mode)");
      x2_ = b.state("x2", 0.0, "", "state of the second FMU");
      der_x2_ = b.derivative(x2_);
      res_w_ = b.residual_variable("res.w", "w - b u2");
      y2_ = b.output("y2", "", "w - x2 = b u2 - x2");
      b.dae_dependencies(der_x2_, {{u2_, kC}, {x2_, kF}});
      b.dae_dependencies(y2_, {{w_, kC}, {x2_, kC}});
      b.residual_group({{{res_w_, 0, {{w_, kC}, {u2_, kF}}}}});
      b.ode_dependencies(der_x2_, {{u2_, kC}, {x2_, kF}});
      b.ode_dependencies(y2_, {{u2_, kF}, {x2_, kC}});
      return;
    }
    b.model_name("LoopBoth", "both halves of the algebraic loop in one FMU (the reference of system case 3)");
    b.form(Form::fully_implicit);
    b.provides_partials();
    x1_ = b.state("x1", 1.0);
    x2_ = b.state("x2", 0.0);
    der_x1_ = b.derivative(x1_);
    der_x2_ = b.derivative(x2_);
    y1_ = b.algebraic("y1", 1.0 / 1.4, "", "output of the first half (= its u2)");
    y2_ = b.algebraic("y2", -0.8 / 1.4, "", "output of the second half (= its u1)");
    a_ = b.parameter("a", 0.5);
    b_ = b.parameter("b", -0.8);
    c_ = b.parameter("c", 2.0, "1/s");
    res_x1_ = b.residual_variable("res.x1", "der(x1) + x1 - y2");
    res_x2_ = b.residual_variable("res.x2", "der(x2) - y1 + c x2");
    res_y1_ = b.residual_variable("res.y1", "y1 - a y2 - x1");
    res_y2_ = b.residual_variable("res.y2", "y2 - b y1 + x2");
    b.residual_group({{{res_x1_, 0, {{der_x1_, kC}, {x1_, kC}, {y2_, kC}}}}});
    b.residual_group({{{res_x2_, 0, {{der_x2_, kC}, {y1_, kC}, {x2_, kF}}}}});
    b.residual_group({{{res_y1_, 0, {{y1_, kC}, {y2_, kF}, {x1_, kC}}}}});
    b.residual_group({{{res_y2_, 0, {{y2_, kC}, {y1_, kF}, {x2_, kC}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (part_ == "first") {
      v[der_x1_] = -v[x1_] + v[u1_];
      v[y1_] = v[a_] * v[u1_] + v[x1_];
    } else if (part_ == "second") {
      if (c.dae_mode) {
        v[res_w_] = v[w_] - v[b_] * v[u2_];
      } else {
        v[w_] = v[b_] * v[u2_];
        v[res_w_] = 0.0;
      }
      v[der_x2_] = v[u2_] - v[c_] * v[x2_];
      v[y2_] = v[w_] - v[x2_];
    } else {
      v[res_x1_] = v[der_x1_] + v[x1_] - v[y2_];
      v[res_x2_] = v[der_x2_] - v[y1_] + v[c_] * v[x2_];
      v[res_y1_] = v[y1_] - v[a_] * v[y2_] - v[x1_];
      v[res_y2_] = v[y2_] - v[b_] * v[y1_] + v[x2_];
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    if (part_ == "second") {
      s.add(der_x2_, u2_, 1.0);
      s.add(der_x2_, x2_, -v[c_]);
      s.add(y2_, x2_, -1.0);
      if (c.dae_mode) {
        s.add(y2_, w_, 1.0);
        s.add(res_w_, w_, 1.0);
        s.add(res_w_, u2_, -v[b_]);
      } else {
        s.add(y2_, u2_, v[b_]);
        s.add(w_, u2_, v[b_]);
      }
    } else if (part_ == "both") {
      s.add(res_x1_, der_x1_, 1.0);
      s.add(res_x1_, x1_, 1.0);
      s.add(res_x1_, y2_, -1.0);
      s.add(res_x2_, der_x2_, 1.0);
      s.add(res_x2_, y1_, -1.0);
      s.add(res_x2_, x2_, v[c_]);
      s.add(res_y1_, y1_, 1.0);
      s.add(res_y1_, y2_, -v[a_]);
      s.add(res_y1_, x1_, -1.0);
      s.add(res_y2_, y2_, 1.0);
      s.add(res_y2_, y1_, -v[b_]);
      s.add(res_y2_, x2_, 1.0);
    }
  }

 private:
  std::string part_;
  ValueRef u1_ = 0, y1_ = 0, x1_ = 0, der_x1_ = 0, a_ = 0;
  ValueRef u2_ = 0, y2_ = 0, x2_ = 0, der_x2_ = 0, b_ = 0, c_ = 0, w_ = 0, res_w_ = 0;
  ValueRef res_x1_ = 0, res_x2_ = 0, res_y1_ = 0, res_y2_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(FeedthroughLoop)
