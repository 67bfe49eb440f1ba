// tests/structure/test_models.cpp -- see test_models.h.
#include "test_models.h"

#include <cmath>
#include <stdexcept>

namespace lsdae::structure::test {

ModelBuilder& ModelBuilder::state(const std::string& name, StateSelect select, std::vector<std::string> f_deps,
                                  bool dense_f) {
  input_.states.push_back({name, "der(" + name + ")", select, std::nullopt});
  f_deps_.push_back(std::move(f_deps));
  dense_f_.push_back(dense_f);
  return *this;
}

ModelBuilder& ModelBuilder::algebraic(const std::string& name) {
  input_.algebraic.push_back(name);
  return *this;
}

ModelBuilder& ModelBuilder::residual(std::vector<F> formulations) {
  groups_.push_back(std::move(formulations));
  return *this;
}

ModelBuilder& ModelBuilder::invariant(const std::string& name, std::vector<std::string> deps,
                                      std::optional<std::size_t> group, std::optional<std::size_t> level) {
  invariants_.push_back({name, std::move(deps), group, level});
  return *this;
}

VarRef ModelBuilder::ref(const std::string& name) const {
  for (std::size_t i = 0; i < input_.states.size(); ++i) {
    if (input_.states[i].name == name) return structure::state(i);
    if (input_.states[i].derivative_name == name) return derivative_of(i);
  }
  for (std::size_t j = 0; j < input_.algebraic.size(); ++j)
    if (input_.algebraic[j] == name) return structure::algebraic(j);
  throw std::invalid_argument("test model: unknown variable " + name);
}

DaeInput ModelBuilder::build() const {
  DaeInput out = input_;
  auto refs = [&](const std::vector<std::string>& names) {
    std::vector<VarRef> deps;
    for (const auto& n : names) deps.push_back(ref(n));
    return deps;
  };
  if (out.form == DaeForm::semi_explicit)
    for (std::size_t i = 0; i < out.states.size(); ++i)
      out.states[i].derivative_dependencies = dense_f_[i] ? Dependencies{} : Dependencies{refs(f_deps_[i])};
  for (const auto& group : groups_) {
    ResidualInput r;
    for (const auto& f : group)
      r.formulations.push_back({f.name, f.index > 0 ? std::optional<int>(f.index) : std::nullopt,
                                f.dense ? Dependencies{} : Dependencies{refs(f.deps)}});
    out.residuals.push_back(std::move(r));
  }
  for (const auto& inv : invariants_) out.invariants.push_back({inv.name, refs(inv.deps), inv.group, inv.level});
  return out;
}

JacobianCallback callback_from(const DaeSystem& system, NamedValues values) {
  return [&system, values = std::move(values)](std::span<const JacobianEntry> entries, std::span<double> out) {
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const auto key = std::make_pair(system.name(entries[k].row),
                                      system.column_names[system.layout.column(entries[k].column)]);
      const auto it = values.find(key);
      out[k] = it == values.end() ? 0.0 : it->second;
    }
  };
}

using F = ModelBuilder::F;

DaeInput hello_world_fully_implicit() {
  // r1 = der(x) - y, r2 = y + 2z - x, r3 = y - 3z - 2x
  return ModelBuilder(DaeForm::fully_implicit)
      .state("x")
      .algebraic("y")
      .algebraic("z")
      .residual({{"r[1]", 0, {"der(x)", "y"}}})
      .residual({{"r[2]", 0, {"x", "y", "z"}}})
      .residual({{"r[3]", 0, {"x", "y", "z"}}})
      .build();
}

DaeInput hello_world_semi_explicit() {
  return ModelBuilder(DaeForm::semi_explicit)
      .state("x", StateSelect::normal, {"y"})
      .algebraic("y")
      .algebraic("z")
      .residual({{"g[1]", 0, {"x", "y", "z"}}})
      .residual({{"g[2]", 0, {"x", "y", "z"}}})
      .build();
}

DaeInput robertson_semi_explicit() {
  return ModelBuilder(DaeForm::semi_explicit)
      .state("y1", StateSelect::normal, {"y1", "y2", "y3"})
      .state("y2", StateSelect::normal, {"y1", "y2", "y3"})
      .algebraic("y3")
      .residual({{"g", 0, {"y1", "y2", "y3"}}})
      .build();
}

namespace {

ModelBuilder pendulum_base() {
  ModelBuilder b(DaeForm::fully_implicit);
  b.state("x").state("y").state("vx").state("vy").algebraic("lambda");
  b.residual({{"r[1]", 0, {"vx", "der(x)"}}});
  b.residual({{"r[2]", 0, {"vy", "der(y)"}}});
  b.residual({{"r[3]", 0, {"x", "der(vx)", "lambda"}}});
  b.residual({{"r[4]", 0, {"y", "der(vy)", "lambda"}}});
  return b;
}

}  // namespace

DaeInput pendulum() {
  return pendulum_base()
      .residual({{"c0", 3, {"x", "y"}},
                 {"c1", 2, {"x", "y", "vx", "vy"}},
                 {"c2", 1, {"x", "y", "vx", "vy", "der(vx)", "der(vy)"}}})
      .build();
}

DaeInput pendulum_unsubstituted() {
  return pendulum_base()
      .residual({{"c0", 3, {"x", "y"}},
                 {"c1'", 2, {"x", "y", "der(x)", "der(y)"}},
                 {"c2'", 1, {"x", "y", "der(x)", "der(y)", "der(vx)", "der(vy)"}}})
      .build();
}

DaeInput pendulum_without_group() { return pendulum_base().residual({{"c0", 0, {"x", "y"}}}).build(); }

DaeInput coupled_masses() {
  return ModelBuilder(DaeForm::semi_explicit)
      .state("s1", StateSelect::normal, {"v1"})
      .state("s2", StateSelect::normal, {"v2"})
      .state("v1", StateSelect::normal, {"Fz"})
      .state("v2", StateSelect::normal, {"Fz"})
      .algebraic("Fz")
      .residual({{"g", 2, {"v1", "v2"}}, {"gdot", 1, {"Fz"}}})
      .build();
}

namespace {

ModelBuilder two_capacitors_base() {
  ModelBuilder b(DaeForm::fully_implicit);
  b.state("C1.v").state("C2.v");
  for (const char* z : {"source.v", "R.v", "R.i", "C1.i", "C2.i"}) b.algebraic(z);
  b.residual({{"r[1]", 0, {"source.v"}}});
  b.residual({{"r[2]", 0, {"R.v", "R.i"}}});
  b.residual({{"r[3]", 0, {"der(C1.v)", "C1.i"}}});
  b.residual({{"r[4]", 0, {"der(C2.v)", "C2.i"}}});
  b.residual({{"r[5]", 0, {"C1.v", "source.v", "R.v"}}});
  return b;
}

}  // namespace

DaeInput two_capacitors() {
  return two_capacitors_base()
      .residual({{"r[6]", 2, {"C1.v", "C2.v"}}, {"dr[6]", 1, {"der(C1.v)", "der(C2.v)"}}})
      .residual({{"r[7]", 0, {"R.i", "C1.i", "C2.i"}}})
      .build();
}

DaeInput two_capacitors_without_derivative() {
  return two_capacitors_base()
      .residual({{"r[6]", 0, {"C1.v", "C2.v"}}})
      .residual({{"r[7]", 0, {"R.i", "C1.i", "C2.i"}}})
      .build();
}

DaeInput cauer_low_pass() {
  ModelBuilder b(DaeForm::fully_implicit);
  // initial="exact" states stay normal, initial="approx" ones are avoid (README: C2, C4, L1.v, L2.v approx).
  for (const char* x : {"C1.v", "C2.v", "C3.v", "C4.v", "C5.v", "L1.i", "L2.i", "L1.v", "L2.v"}) {
    const std::string name = x;
    const bool approx = name == "C2.v" || name == "C4.v" || name == "L1.v" || name == "L2.v";
    b.state(name, approx ? StateSelect::avoid : StateSelect::normal);
  }
  for (const char* z : {"C1.i", "C2.i", "C3.i", "C4.i", "C5.i", "R1.i", "R2.i"}) b.algebraic(z);
  for (int k = 1; k <= 5; ++k) {
    const std::string c = "C" + std::to_string(k);
    b.residual({{"r[" + std::to_string(k) + "]", 0, {"der(" + c + ".v)", c + ".i"}}});
  }
  b.residual({{"r[6]", 0, {"L1.v", "der(L1.i)"}}});
  b.residual({{"r[7]", 0, {"L2.v", "der(L2.i)"}}});
  b.residual({{"r[8]", 0, {"C1.v", "R1.i"}}});
  b.residual({{"r[9]", 0, {"C5.v", "R2.i"}}});
  b.residual({{"r[10]", 0, {"L1.i", "C1.i", "C2.i", "R1.i"}}});
  b.residual({{"r[11]", 0, {"L1.i", "L2.i", "C2.i", "C3.i", "C4.i"}}});
  b.residual({{"r[12]", 0, {"L2.i", "C4.i", "C5.i", "R2.i"}}});
  b.residual({{"r[13]", 2, {"C1.v", "C3.v", "L1.v"}}, {"dr[13]", 1, {"der(C1.v)", "der(C3.v)", "der(L1.v)"}}});
  b.residual({{"r[14]", 2, {"C2.v", "L1.v"}}, {"dr[14]", 1, {"der(C2.v)", "der(L1.v)"}}});
  b.residual({{"r[15]", 2, {"C3.v", "C5.v", "L2.v"}}, {"dr[15]", 1, {"der(C3.v)", "der(C5.v)", "der(L2.v)"}}});
  b.residual({{"r[16]", 2, {"C4.v", "L2.v"}}, {"dr[16]", 1, {"der(C4.v)", "der(L2.v)"}}});
  return b.build();
}

DaeInput index2_example(int manifest_case) {
  ModelBuilder b(DaeForm::fully_implicit);
  b.state("x1").state("x2").algebraic("y");
  b.residual({{"r1", 0, {"y", "der(x1)"}}});
  b.residual({{"r2", 0, {"y", "der(x2)"}}});
  if (manifest_case == 1) b.residual({{"r3", 0, {"x1", "x2"}}});
  if (manifest_case == 2) b.residual({{"r3", 2, {"x1", "x2"}}});
  if (manifest_case == 3) b.residual({{"r3", 2, {"x1", "x2"}}, {"dr3", 1, {"der(x1)", "der(x2)"}}});
  return b.build();
}

DaeInput transmission_line(std::size_t n) {
  // Value-reference order of the FMU: filter states, then per segment
  // L[k].i, C[k].v (states) and R[k].v, L[k].v, C[k].i (algebraic), load.i last.
  ModelBuilder b(DaeForm::fully_implicit);
  b.state("filter.y").state("filter.yd");
  for (std::size_t k = 1; k <= n; ++k) {
    const std::string s = std::to_string(k);
    b.state("L[" + s + "].i").state("C[" + s + "].v");
    b.algebraic("R[" + s + "].v").algebraic("L[" + s + "].v").algebraic("C[" + s + "].i");
  }
  b.algebraic("load.i");
  b.residual({{"res.filter_y", 0, {"der(filter.y)", "filter.yd"}}});
  b.residual({{"res.filter_yd", 0, {"der(filter.yd)", "filter.y", "filter.yd"}}});
  for (std::size_t k = 1; k <= n; ++k) {
    const std::string s = std::to_string(k), p = std::to_string(k - 1), q = std::to_string(k + 1);
    const std::string v_prev = k == 1 ? "filter.y" : "C[" + p + "].v";
    const std::string i_next = k == n ? "load.i" : "L[" + q + "].i";
    b.residual({{"res.R[" + s + "]", 0, {"L[" + s + "].i", "R[" + s + "].v"}}});
    b.residual({{"res.L[" + s + "]", 0, {"der(L[" + s + "].i)", "L[" + s + "].v"}}});
    b.residual({{"res.KVL[" + s + "]", 0, {v_prev, "C[" + s + "].v", "R[" + s + "].v", "L[" + s + "].v"}}});
    b.residual({{"res.C[" + s + "]", 0, {"der(C[" + s + "].v)", "C[" + s + "].i"}}});
    b.residual({{"res.KCL[" + s + "]", 0, {"L[" + s + "].i", "C[" + s + "].i", i_next}}});
  }
  b.residual({{"res.load", 0, {"C[" + std::to_string(n) + "].v", "load.i"}}});
  return b.build();
}

DaeInput chain(std::size_t length) {
  // Built directly (no names lookup): der(x_k) - z_k = 0, z_k - x_k - z_{k-1} = 0.
  DaeInput in;
  in.form = DaeForm::fully_implicit;
  in.states.resize(length);
  in.algebraic.resize(length);
  in.residuals.reserve(2 * length);
  for (std::size_t k = 0; k < length; ++k) {
    in.residuals.push_back({{{"", std::nullopt, std::vector<VarRef>{derivative_of(k), structure::algebraic(k)}}}});
    std::vector<VarRef> deps{structure::state(k), structure::algebraic(k)};
    if (k > 0) deps.push_back(structure::algebraic(k - 1));
    in.residuals.push_back({{{"", std::nullopt, std::move(deps)}}});
  }
  return in;
}

DaeInput mass_chain(std::size_t n) {
  DaeInput in;
  in.form = DaeForm::semi_explicit;
  const std::size_t z = n - 1;  // constraint forces
  for (std::size_t k = 0; k < n; ++k)
    in.states.push_back({"s" + std::to_string(k), "", StateSelect::normal, std::vector<VarRef>{structure::state(n + k)}});
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<VarRef> f;
    if (k < z) f.push_back(structure::algebraic(k));
    if (k > 0) f.push_back(structure::algebraic(k - 1));
    in.states.push_back({"v" + std::to_string(k), "", StateSelect::normal, f});
  }
  for (std::size_t k = 0; k < z; ++k) {
    in.algebraic.push_back("Fz" + std::to_string(k));
    std::vector<VarRef> d{structure::algebraic(k)};
    if (k > 0) d.push_back(structure::algebraic(k - 1));
    if (k + 1 < z) d.push_back(structure::algebraic(k + 1));
    in.residuals.push_back(
        {{{"g" + std::to_string(k), 2, std::vector<VarRef>{structure::state(n + k), structure::state(n + k + 1)}},
          {"gdot" + std::to_string(k), 1, d}}});
  }
  return in;
}

NamedValues pendulum_values(double theta, double omega) {
  const double x = std::sin(theta), y = -std::cos(theta);
  const double vx = std::cos(theta) * omega, vy = std::sin(theta) * omega;
  NamedValues v;
  // c0 = x² + y² − 1, c1 = x vx + y vy
  v[{"c0", "x"}] = 2 * x;
  v[{"c0", "y"}] = 2 * y;
  v[{"c1", "x"}] = vx;
  v[{"c1", "y"}] = vy;
  v[{"c1", "vx"}] = x;
  v[{"c1", "vy"}] = y;
  // unsubstituted c1' = x der(x) + y der(y), with der(x) = vx, der(y) = vy
  v[{"c1'", "x"}] = vx;
  v[{"c1'", "y"}] = vy;
  v[{"c1'", "der(x)"}] = x;
  v[{"c1'", "der(y)"}] = y;
  // r[1] = der(x) − vx, r[2] = der(y) − vy
  v[{"r[1]", "der(x)"}] = 1;
  v[{"r[1]", "vx"}] = -1;
  v[{"r[2]", "der(y)"}] = 1;
  v[{"r[2]", "vy"}] = -1;
  return v;
}

}  // namespace lsdae::structure::test
