// tests/models/najafi_pendulum_test.cpp -- the constraint extension of
// Najafi et al. on the kit's Najafi pendulum (models/najafi_pendulum), through
// the fmi2 functions directly (fmi2_harness.h): the XML attributes, the
// constraint values and Jacobian, the projection step and the projection
// (tolerance, apply, Discard), the switches that leave functions out, and a
// test-side fixed-step RK4 showing the drift without projection and its bound
// with it (the paper's section 4.1 experiments, at T = 10 s and 300 s).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

#include "fmi2_harness.h"

namespace lsdae::test {
namespace {

namespace f2 = lsdae::test::fmi2;

const CatalogEntry& entry(const std::string& name) {
  static const std::vector<CatalogEntry> catalog = f2::read_catalog_fmi2();
  for (const auto& e : catalog)
    if (e.name == name) return e;
  throw std::runtime_error("no FMU " + name + " in catalog_fmi2.tsv");
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

// One Najafi pendulum instance in Continuous-Time Mode, with its state vector
// addressed by name (the XML's order is the FMU's, not assumed here).
class Pendulum {
 public:
  explicit Pendulum(const std::string& name)
      : entry_(entry(name)), d_(f2::parse(entry_.stage_dir)), f_(f2::load(entry_.stage_dir, d_.model_identifier)),
        session_(std::make_unique<f2::Session>(f_, d_, entry_.stage_dir, log_)) {
    const std::vector<std::size_t> states = d_.state_indices();
    for (std::size_t i = 0; i < states.size(); ++i) position_[d_.at(states[i]).name] = i;
    m_ = d_.max_number_of_constraints;
  }
  ~Pendulum() {
    session_.reset();
    f2::unload(f_);
  }
  fmi2Component c() const { return session_->c(); }
  const f2::Functions& f() const { return f_; }
  const f2::Description& d() const { return d_; }
  const f2::Log& log() const { return log_; }
  std::size_t n() const { return position_.size(); }
  std::size_t m() const { return m_; }

  // {x, y, vx, vy} <-> the FMU's state vector.
  std::vector<double> to_fmu(const std::array<double, 4>& s) const {
    std::vector<double> x(4);
    x[position_.at("x")] = s[0];
    x[position_.at("y")] = s[1];
    x[position_.at("vx")] = s[2];
    x[position_.at("vy")] = s[3];
    return x;
  }
  std::array<double, 4> from_fmu(const std::vector<double>& x) const {
    return {x[position_.at("x")], x[position_.at("y")], x[position_.at("vx")], x[position_.at("vy")]};
  }
  void set(const std::array<double, 4>& s) {
    const std::vector<double> x = to_fmu(s);
    ASSERT_EQ(f_.set_states(c(), x.data(), 4), fmi2OK) << log_.all();
  }
  std::vector<double> states() const {
    std::vector<double> x(4);
    EXPECT_EQ(f_.get_states(c(), x.data(), 4), fmi2OK);
    return x;
  }
  std::vector<double> constraints() const {
    std::vector<double> C(m_, 0.0);
    EXPECT_EQ(f_.constraint(c(), C.data()), fmi2OK) << log_.all();
    return C;
  }
  std::vector<double> jacobian() const {
    std::vector<double> J(m_ * 4, 0.0);
    EXPECT_EQ(f_.constraint_jacobian(c(), J.data()), fmi2OK) << log_.all();
    return J;
  }
  double output(const std::string& name) const {
    double v = 0;
    const fmi2ValueReference vr = d_.named(name).vr;
    EXPECT_EQ(f_.get_real(c(), &vr, 1, &v), fmi2OK);
    return v;
  }
  std::string last_message() const { return log_.messages.empty() ? "" : log_.messages.back(); }

 private:
  CatalogEntry entry_;
  f2::Description d_;
  f2::Functions f_;
  f2::Log log_;
  std::unique_ptr<f2::Session> session_;
  std::map<std::string, std::size_t> position_;
  std::size_t m_ = 0;
};

// A point of the exact motion (on the circle at y = -0.8, swinging down with the
// speed that energy conservation from the horizontal gives) moved off the
// constraint manifold by about 1 %.
const double kSpeed = std::sqrt(2 * 9.81 * 0.8);
const std::array<double, 4> kPerturbed = {0.6 + 0.012, -0.8 - 0.007, -0.8 * kSpeed + 0.03, -0.6 * kSpeed - 0.02};

TEST(NajafiPendulum, ModelDescriptionDeclaresTheExtension) {
  const f2::Description full = f2::parse(entry("NajafiPendulum_fmi2").stage_dir);
  EXPECT_EQ(full.max_number_of_constraints, 2u);
  EXPECT_EQ(full.provides_constraints, "withJacobian");
  EXPECT_TRUE(full.provides_projection);
  EXPECT_TRUE(full.provides_projection_step);
  const f2::Description energy = f2::parse(entry("NajafiPendulum_fmi2_energy").stage_dir);
  EXPECT_EQ(energy.max_number_of_constraints, 3u);
  const f2::Description plain = f2::parse(entry("NajafiPendulum_fmi2_plain").stage_dir);
  EXPECT_EQ(plain.max_number_of_constraints, 0u) << "a standard FMU: no attribute";
  EXPECT_EQ(plain.provides_constraints, "false");
  EXPECT_FALSE(plain.provides_directional);
  const f2::Description values = f2::parse(entry("NajafiPendulum_fmi2_values_only").stage_dir);
  EXPECT_EQ(values.provides_constraints, "true");
  EXPECT_FALSE(values.provides_projection);
  EXPECT_FALSE(values.provides_projection_step);
  const f2::Description no_projection = f2::parse(entry("NajafiPendulum_fmi2_no_projection").stage_dir);
  EXPECT_EQ(no_projection.provides_constraints, "withJacobian");
  EXPECT_FALSE(no_projection.provides_projection);
  EXPECT_TRUE(no_projection.provides_projection_step);
}

TEST(NajafiPendulum, NumberOfConstraints) {
  for (auto [name, count] : {std::pair<const char*, std::size_t>{"NajafiPendulum_fmi2", 2},
                             {"NajafiPendulum_fmi2_energy", 3}}) {
    Pendulum p(name);
    std::size_t n = 99;
    ASSERT_EQ(p.f().get_number_of_constraints(p.c(), &n), fmi2OK);
    EXPECT_EQ(n, count) << name;
  }
}

TEST(NajafiPendulum, ConstraintsVanishOnTheManifold) {
  Pendulum p("NajafiPendulum_fmi2_energy");
  EXPECT_EQ(max_abs(p.constraints()), 0.0) << "at the start: horizontal, at rest, E = E0";
  // Reference rows (the exact solution) satisfy the three constraints to rounding.
  const ReferenceTable ref = read_reference(entry("NajafiPendulum_fmi2_energy").reference_csv);
  auto col = [&](const std::string& name) {
    return static_cast<std::size_t>(std::find(ref.columns.begin(), ref.columns.end(), name) - ref.columns.begin());
  };
  for (std::size_t r = 0; r < ref.rows.size(); r += 97) {
    const auto& row = ref.rows[r];
    p.set({row[col("x")], row[col("y")], row[col("vx")], row[col("vy")]});
    EXPECT_LE(max_abs(p.constraints()), 1e-9) << "t = " << row[0];
    EXPECT_NEAR(p.output("drift"), 0.0, 1e-12);
  }
  // Off the manifold: the values of the formulas.
  p.set(kPerturbed);
  const auto [x, y, vx, vy] = kPerturbed;
  const std::vector<double> C = p.constraints();
  EXPECT_DOUBLE_EQ(C[0], x * x + y * y - 1.0);
  EXPECT_DOUBLE_EQ(C[1], x * vx + y * vy);
  EXPECT_DOUBLE_EQ(C[2], (vx * vx + vy * vy) / 2 + 9.81 * y);
}

TEST(NajafiPendulum, JacobianMatchesFiniteDifferences) {
  for (const char* name : {"NajafiPendulum_fmi2", "NajafiPendulum_fmi2_energy"}) {
    Pendulum p(name);
    p.set(kPerturbed);
    const std::vector<double> J = p.jacobian();
    const std::vector<double> x0 = p.states();
    const double h = 1e-6;
    for (std::size_t j = 0; j < 4; ++j) {
      std::vector<double> plus = x0, minus = x0;
      plus[j] += h;
      minus[j] -= h;
      ASSERT_EQ(p.f().set_states(p.c(), plus.data(), 4), fmi2OK);
      const std::vector<double> cp = p.constraints();
      ASSERT_EQ(p.f().set_states(p.c(), minus.data(), 4), fmi2OK);
      const std::vector<double> cm = p.constraints();
      for (std::size_t i = 0; i < p.m(); ++i)
        EXPECT_NEAR(J[i * 4 + j], (cp[i] - cm[i]) / (2 * h), 1e-8) << name << " row " << i << " column " << j;
    }
  }
}

TEST(NajafiPendulum, ProjectionStepIsAGaussNewtonStep) {
  Pendulum p("NajafiPendulum_fmi2");
  p.set(kPerturbed);
  const double before = max_abs(p.constraints());
  std::vector<double> S(4), x = p.states();
  ASSERT_EQ(p.f().projection_step(p.c(), S.data()), fmi2OK) << p.log().all();
  EXPECT_EQ(p.states(), x) << "fmi2ProjectionStep does not move the states";
  for (std::size_t i = 0; i < 4; ++i) x[i] += S[i];
  ASSERT_EQ(p.f().set_states(p.c(), x.data(), 4), fmi2OK);
  const double after = max_abs(p.constraints());
  EXPECT_LE(after, 10 * before * before) << "quadratic convergence: " << before << " -> " << after;
}

TEST(NajafiPendulum, ProjectionLandsWithinTheTolerance) {
  for (const char* name : {"NajafiPendulum_fmi2", "NajafiPendulum_fmi2_energy"}) {
    Pendulum p(name);
    p.set(kPerturbed);
    const std::vector<double> start = p.states();
    std::vector<double> P(4);
    ASSERT_EQ(p.f().projection(p.c(), P.data(), 1e-12, 10, fmi2True), fmi2OK) << p.log().all();
    const std::vector<double> end = p.states();
    for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(end[i], start[i] + P[i], 1e-15);
    EXPECT_LE(max_abs(p.constraints()), 1e-12) << name;
    EXPECT_NEAR(p.output("drift"), 0.0, 1e-12) << "the length is restored";
    if (p.m() == 3) {
      EXPECT_NEAR(p.output("totalEnergy"), 0.0, 1e-12) << "the energy E0 = 0 is restored";
    }
    // The correction is (to second order in its size) orthogonal to the
    // manifold: its component in the tangent space at the end point is small.
    const std::vector<double> J = p.jacobian();
    const std::size_t m = p.m();
    // Residual of P after removing its part in the row space of J (Gram-Schmidt).
    std::vector<std::vector<double>> basis;
    for (std::size_t i = 0; i < m; ++i) {
      std::vector<double> r(J.begin() + static_cast<long>(i * 4), J.begin() + static_cast<long>(i * 4 + 4));
      for (const auto& b : basis) {
        double dot = 0;
        for (std::size_t k = 0; k < 4; ++k) dot += r[k] * b[k];
        for (std::size_t k = 0; k < 4; ++k) r[k] -= dot * b[k];
      }
      double norm = 0;
      for (double v : r) norm += v * v;
      norm = std::sqrt(norm);
      for (double& v : r) v /= norm;
      basis.push_back(r);
    }
    std::vector<double> tangential = P;
    for (const auto& b : basis) {
      double dot = 0;
      for (std::size_t k = 0; k < 4; ++k) dot += P[k] * b[k];
      for (std::size_t k = 0; k < 4; ++k) tangential[k] -= dot * b[k];
    }
    EXPECT_LE(max_abs(tangential), 0.05 * max_abs(P)) << name;
  }
}

TEST(NajafiPendulum, ProjectionWithoutApplyLeavesTheStates) {
  Pendulum p("NajafiPendulum_fmi2");
  p.set(kPerturbed);
  const std::vector<double> start = p.states();
  std::vector<double> P_dry(4), P(4);
  ASSERT_EQ(p.f().projection(p.c(), P_dry.data(), 1e-12, 10, fmi2False), fmi2OK);
  const std::vector<double> after_dry = p.states();
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_EQ(std::memcmp(&after_dry[i], &start[i], sizeof(double)), 0) << "state " << i << " moved";
  EXPECT_GT(max_abs(P_dry), 1e-3);
  ASSERT_EQ(p.f().projection(p.c(), P.data(), 1e-12, 10, fmi2True), fmi2OK);
  EXPECT_EQ(P, P_dry) << "apply changes only whether the correction is kept";
}

TEST(NajafiPendulum, DiscardWhenNoProjectionExists) {
  Pendulum p("NajafiPendulum_fmi2");
  // At the origin the Jacobian's rows are zero: no projection.
  p.set({0.0, 0.0, 0.0, 0.0});
  std::vector<double> P(4, 7.0);
  EXPECT_EQ(p.f().projection(p.c(), P.data(), 1e-10, 10, fmi2True), fmi2Discard);
  EXPECT_NE(p.last_message().find("fmi2Projection: no projection onto the constraints"), std::string::npos)
      << p.log().all();
  EXPECT_EQ(p.states(), std::vector<double>(4, 0.0));
  EXPECT_EQ(P, std::vector<double>(4, 0.0));
  std::vector<double> S(4);
  EXPECT_EQ(p.f().projection_step(p.c(), S.data()), fmi2Error);
  EXPECT_NE(p.last_message().find("rank-deficient"), std::string::npos) << p.log().all();
  // Too few iterations for the tolerance: Discard, states unchanged.
  p.set(kPerturbed);
  const std::vector<double> start = p.states();
  EXPECT_EQ(p.f().projection(p.c(), P.data(), 1e-14, 0, fmi2True), fmi2Discard);
  EXPECT_NE(p.last_message().find("after iterationLimit = 0 steps"), std::string::npos) << p.log().all();
  EXPECT_EQ(p.states(), start);
  EXPECT_EQ(p.f().projection(p.c(), P.data(), -1.0, 10, fmi2True), fmi2Error);
  EXPECT_NE(p.last_message().find("projectionTolerance"), std::string::npos) << p.log().all();
}

TEST(NajafiPendulum, FunctionsLeftOutAnswerErrorNamingTheFlag) {
  std::vector<double> C(3), J(12), S(4), P(4);
  {
    Pendulum p("NajafiPendulum_fmi2_plain");
    std::size_t n = 0;
    EXPECT_EQ(p.f().get_number_of_constraints(p.c(), &n), fmi2Error);
    EXPECT_EQ(p.f().constraint(p.c(), C.data()), fmi2Error);
    EXPECT_NE(p.last_message().find("fmi2Constraint: this FMU does not provide it (providesConstraints"),
              std::string::npos)
        << p.log().all();
    EXPECT_EQ(p.f().projection(p.c(), P.data(), 1e-8, 5, fmi2True), fmi2Error);
  }
  {
    Pendulum p("NajafiPendulum_fmi2_values_only");
    EXPECT_EQ(p.f().constraint(p.c(), C.data()), fmi2OK);
    EXPECT_EQ(p.f().constraint_jacobian(p.c(), J.data()), fmi2Error);
    EXPECT_NE(p.last_message().find("providesConstraints=\"withJacobian\""), std::string::npos) << p.log().all();
    EXPECT_EQ(p.f().projection_step(p.c(), S.data()), fmi2Error);
    EXPECT_EQ(p.f().projection(p.c(), P.data(), 1e-8, 5, fmi2True), fmi2Error);
  }
  {
    Pendulum p("NajafiPendulum_fmi2_no_projection");
    EXPECT_EQ(p.f().constraint_jacobian(p.c(), J.data()), fmi2OK);
    EXPECT_EQ(p.f().projection_step(p.c(), S.data()), fmi2OK);
    EXPECT_EQ(p.f().projection(p.c(), P.data(), 1e-8, 5, fmi2True), fmi2Error);
    EXPECT_NE(p.last_message().find("providesProjection"), std::string::npos) << p.log().all();
  }
}

// ---- a test-side fixed-step RK4 over the FMU ---------------------------------
struct Rk4Run {
  std::vector<double> drift;   // |x^2 + y^2 - L^2| after each step
  std::vector<double> energy;  // totalEnergy after each step
  double max_residual = 0;     // max_i |C_i| after each step (after projection, if any)
  std::size_t projections = 0;
  std::array<double, 4> end{};
};

// Integrates from the start values to `stop` with step h; after each step,
// when `tolerance` > 0 and max|C| exceeds it, projects with fmi2Projection.
Rk4Run integrate(Pendulum& p, double stop, double h, double tolerance) {
  Rk4Run run;
  const std::size_t n = p.n(), steps = static_cast<std::size_t>(std::llround(stop / h));
  std::vector<double> x = p.states(), k1(n), k2(n), k3(n), k4(n), tmp(n), P(n);
  auto f = [&](double t, const std::vector<double>& state, std::vector<double>& dx) {
    EXPECT_EQ(p.f().set_time(p.c(), t), fmi2OK);
    EXPECT_EQ(p.f().set_states(p.c(), state.data(), n), fmi2OK);
    EXPECT_EQ(p.f().get_derivatives(p.c(), dx.data(), n), fmi2OK);
  };
  for (std::size_t s = 0; s < steps; ++s) {
    const double t = static_cast<double>(s) * h;
    f(t, x, k1);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = x[i] + 0.5 * h * k1[i];
    f(t + 0.5 * h, tmp, k2);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = x[i] + 0.5 * h * k2[i];
    f(t + 0.5 * h, tmp, k3);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = x[i] + h * k3[i];
    f(t + h, tmp, k4);
    for (std::size_t i = 0; i < n; ++i) x[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    EXPECT_EQ(p.f().set_time(p.c(), t + h), fmi2OK);
    EXPECT_EQ(p.f().set_states(p.c(), x.data(), n), fmi2OK);
    if (tolerance > 0 && max_abs(p.constraints()) > tolerance) {
      EXPECT_EQ(p.f().projection(p.c(), P.data(), tolerance, 10, fmi2True), fmi2OK) << p.log().all();
      x = p.states();
      ++run.projections;
    }
    if (p.m() != 0 && p.d().provides_constraints != "false")
      run.max_residual = std::max(run.max_residual, max_abs(p.constraints()));
    run.drift.push_back(std::fabs(p.output("drift")));
    run.energy.push_back(p.output("totalEnergy"));
  }
  run.end = p.from_fmu(x);
  return run;
}

TEST(NajafiPendulumRk4, DriftGrowsWithoutProjectionAndStaysBelowTheToleranceWithIt) {
  const double h = 0.05, stop = 10.0, tolerance = 1e-8;
  Pendulum free("NajafiPendulum_fmi2_plain");
  const Rk4Run without = integrate(free, stop, h, 0.0);
  Pendulum projected("NajafiPendulum_fmi2");
  const Rk4Run with = integrate(projected, stop, h, tolerance);
  // The drift oscillates with the swing: compare its envelope (max |drift|)
  // over the first, the fifth and the tenth second.
  const std::size_t per_second = static_cast<std::size_t>(std::llround(1.0 / h));
  auto envelope = [&](std::size_t second) {
    const auto begin = without.drift.begin() + static_cast<long>((second - 1) * per_second);
    return *std::max_element(begin, begin + static_cast<long>(per_second));
  };
  const double first = envelope(1), fifth = envelope(5), tenth = envelope(10);
  std::printf("RK4 h = %g: max |drift| without projection in second 1, 5, 10: %.3g %.3g %.3g; with projection "
              "(tolerance %g): max |C| = %.3g, %zu projections\n",
              h, first, fifth, tenth, tolerance, with.max_residual, with.projections);
  EXPECT_GT(tenth, 1e-4) << "the drift of the unprojected ODE is visible";
  EXPECT_GT(fifth, 2 * first) << "and grows";
  EXPECT_GT(tenth, 1.5 * fifth) << "and keeps growing";
  EXPECT_LE(with.max_residual, tolerance);
  EXPECT_GT(with.projections, 0u);
  for (double d : with.drift) ASSERT_LE(d, tolerance);
  // The projected solution follows the exact one (reference at 10 s).
  const ReferenceTable ref = read_reference(entry("NajafiPendulum_fmi2").reference_csv);
  const auto& row = ref.rows.back();
  ASSERT_DOUBLE_EQ(row[0], 10.0);
  EXPECT_NEAR(with.end[0], row[1], 1e-2);
  EXPECT_NEAR(with.end[1], row[2], 1e-2);
  std::printf("with projection at 10 s: x = %.9f, y = %.9f; exact x = %.9f, y = %.9f\n", with.end[0], with.end[1],
              row[1], row[2]);
}

// The paper's T = 300 s experiment: projection on the two hidden constraints
// keeps the length but lets the energy drift; adding the energy constraint
// keeps E = E0 to the tolerance.
TEST(NajafiPendulumRk4, EnergyConstraintStopsTheEnergyDriftOver300s) {
  const double h = 0.05, stop = 300.0, tolerance = 1e-8;
  Pendulum two("NajafiPendulum_fmi2");
  const Rk4Run length_only = integrate(two, stop, h, tolerance);
  Pendulum three("NajafiPendulum_fmi2_energy");
  const Rk4Run with_energy = integrate(three, stop, h, tolerance);
  double drift_two = 0, drift_three = 0;
  for (double e : length_only.energy) drift_two = std::max(drift_two, std::fabs(e));
  for (double e : with_energy.energy) drift_three = std::max(drift_three, std::fabs(e));
  std::printf("RK4 h = %g over %g s: max |E - E0| with 2 constraints %.3g (%zu projections), with the energy "
              "constraint %.3g (%zu projections)\n",
              h, stop, drift_two, length_only.projections, drift_three, with_energy.projections);
  EXPECT_GT(drift_two, 100 * tolerance) << "the energy drifts when only the length is projected";
  EXPECT_LE(drift_three, tolerance);
  EXPECT_LE(with_energy.max_residual, tolerance);
}

}  // namespace
}  // namespace lsdae::test
