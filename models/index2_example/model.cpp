// Index-2 example of the FMI-LS-DAE draft (section 4.2.1, "Example").
//
//   r1 = C1 der(x1) + y       = 0
//   r2 = C2 der(x2) - y + 1   = 0
//   r3 = x1 - x2              = 0        (index 2: no unknown of the system appears)
//   dr3 = der(x1) - der(x2)   = 0        (its time derivative, index 1; case 3 only)
//   C1 = 1, C2 = 2, x1(0) = x2(0) = x0 = 1
//   exact solution: x1 = x2 = x0 - t/(C1+C2), y = C1/(C1+C2)
//
// Fully implicit: the importer writes der(x1), der(x2) and y; the FMU returns
// the residuals. Value references follow the draft's table: x1=1, x2=2, y=3,
// der(x1)=4, der(x2)=5, r1=6, r2=7, r3=8, dr3=9 (case 3), then C1, C2.
//
// Variants (config key `case`, all shape A):
//   1  no structure: three single-formulation residual groups, no index.
//   2  as 1, but r3 carries index="2".
//   3  r3 (index 2) grouped with dr3 (index 1) in one <Residual>.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class Index2Example final : public Model {
 public:
  explicit Index2Example(const Config& config)
      : case_(config.get_choice("case", {"1", "2", "3"})) {}

  void declare(Builder& b) override {
    b.model_name("Index2Example", "Index-2 example of the FMI-LS-DAE draft (manifest case " + case_ + ")");
    b.default_experiment({0.0, 1.0, 1e-6, 0.01});
    b.form(Form::fully_implicit);
    b.provides_partials();
    x1_ = b.state("x1", 1.0, "", "differential variable");
    x2_ = b.state("x2", 1.0, "", "differential variable");
    y_ = b.algebraic("y", 0.0, "", "algebraic variable");
    der_x1_ = b.derivative(x1_);
    der_x2_ = b.derivative(x2_);
    r1_ = b.residual_variable("r1", "C1*der(x1) + y");
    r2_ = b.residual_variable("r2", "C2*der(x2) - y + 1");
    r3_ = b.residual_variable("r3", "x1 - x2");
    if (case_ == "3") dr3_ = b.residual_variable("dr3", "der(r3) = der(x1) - der(x2)");
    c1_ = b.parameter("C1", 1.0, "", "coefficient of der(x1) in r1");
    c2_ = b.parameter("C2", 2.0, "", "coefficient of der(x2) in r2");

    b.residual_group({{{r1_, 0, {{y_, DepKind::constant}, {der_x1_, DepKind::fixed}}}}});
    b.residual_group({{{r2_, 0, {{y_, DepKind::constant}, {der_x2_, DepKind::fixed}}}}});
    const std::vector<Dependency> r3_deps = {{x1_, DepKind::constant}, {x2_, DepKind::constant}};
    if (case_ == "1") {
      b.residual_group({{{r3_, 0, r3_deps}}});
    } else if (case_ == "2") {
      b.residual_group({{{r3_, 2, r3_deps}}});
    } else {
      b.residual_group({{{r3_, 2, r3_deps},
                         {dr3_, 1, {{der_x1_, DepKind::constant}, {der_x2_, DepKind::constant}}}}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    v[r1_] = v[c1_] * v[der_x1_] + v[y_];
    v[r2_] = v[c2_] * v[der_x2_] - v[y_] + 1.0;
    v[r3_] = v[x1_] - v[x2_];
    if (dr3_ != kNoValueRef) v[dr3_] = v[der_x1_] - v[der_x2_];
  }

  void partials(const Context& c, PartialSink& s) override {
    s.add(r1_, der_x1_, c.v[c1_]);
    s.add(r1_, y_, 1.0);
    s.add(r2_, der_x2_, c.v[c2_]);
    s.add(r2_, y_, -1.0);
    s.add(r3_, x1_, 1.0);
    s.add(r3_, x2_, -1.0);
    if (dr3_ != kNoValueRef) {
      s.add(dr3_, der_x1_, 1.0);
      s.add(dr3_, der_x2_, -1.0);
    }
  }

 private:
  std::string case_;
  ValueRef x1_ = 0, x2_ = 0, y_ = 0, der_x1_ = 0, der_x2_ = 0;
  ValueRef r1_ = 0, r2_ = 0, r3_ = 0, dr3_ = kNoValueRef, c1_ = 0, c2_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(Index2Example)
