// tests/runtime/simulation/constraint_projection_test.cpp --
// runtime/simulation/constraint_projection.cpp on the index-3 pendulum
// (c0 = x² + y² − L², c1 = x·vx + y·vy, L = 1): the projected point satisfies
// the constraints, the correction is the minimal one in IDA's weighted norm,
// only the differential unknowns the constraints depend on move, and the
// failures (singular, no convergence, bad arguments) say what happened.
// The shape-B case uses a private copy of the pendulum whose manifest lists
// c0 and c1 as <Invariant>s (no corpus FMU has invariants).
#include "simulation/constraint_projection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {
namespace {

// One pendulum FMU, analysed for the projection method, with an instance in
// Continuous-Time Mode.
struct Pendulum {
  std::shared_ptr<Fmu> fmu;
  ModelDae dae;
  structure::StructureOutcome structure;
  std::unique_ptr<Instance> instance;
  std::unique_ptr<ModelResidual> residual;
  std::size_t ix = 0, iy = 0, ivx = 0, ivy = 0, ilambda = 0;  // IDA unknowns

  explicit Pendulum(const std::filesystem::path& path) {
    fmu = Fmu::open(path);
    dae = build_model_dae(*fmu);
    structure::PipelineOptions options;
    options.method = structure::ReductionMethod::projection;
    structure = structure::run_structure(dae.input, nullptr, options);
    if (!structure.index1) throw std::runtime_error("structure failed: " + structure.analysis.error);
    instance = fmu->instantiate("projection");
    instance->enable_dae_mode();
    instance->enter_initialization_mode(1e-8, 0.0, 10.0);
    instance->exit_initialization_mode();
    instance->update_discrete_states();
    instance->enter_continuous_time_mode();
    residual = std::make_unique<ModelResidual>(*instance, dae, system(), index1());
    for (std::size_t k = 0; k < index1().unknowns.size(); ++k) {
      const std::string& name = structure::unknown_name(system(), index1().unknowns[k]);
      (name == "x" ? ix : name == "y" ? iy : name == "vx" ? ivx : name == "vy" ? ivy : ilambda) = k;
    }
  }
  const structure::DaeSystem& system() const { return structure.analysis.system; }
  const structure::Index1System& index1() const { return *structure.index1; }
  std::size_t size() const { return index1().unknowns.size(); }
  structure::EquationRef constraint(const std::string& name) const {
    for (const auto& e : index1().projection_constraints)
      if (system().name(e) == name) return e;
    throw std::runtime_error("no projection constraint " + name);
  }
  ConstraintProjector projector(std::vector<std::string> names, ProjectionOptions options = {}) {
    std::vector<structure::EquationRef> refs;
    for (const auto& n : names) refs.push_back(constraint(n));
    return ConstraintProjector(*residual, dae, system(), index1(), refs, std::move(options));
  }
  // A point with the given states; lambda = −3, y' arbitrary but fixed.
  std::vector<double> point(double x, double y, double vx, double vy) const {
    std::vector<double> p(size(), 0.0);
    p[ix] = x, p[iy] = y, p[ivx] = vx, p[ivy] = vy, p[ilambda] = -3.0;
    return p;
  }
  std::vector<double> derivatives() const {
    std::vector<double> p(size(), 0.0);
    p[ix] = 0.1, p[iy] = 0.2, p[ivx] = -3.03, p[ivy] = -9.96;
    return p;
  }
  double c0(const std::vector<double>& y) const { return y[ix] * y[ix] + y[iy] * y[iy] - 1.0; }
  double c1(const std::vector<double>& y) const { return y[ix] * y[ivx] + y[iy] * y[ivy]; }
};

Pendulum& shape_a() {
  static Pendulum p(test::fmu_path("Pendulum_dae_shapeA"));
  return p;
}

double wrms(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& w) {
  double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += std::pow(w[k] * (a[k] - b[k]), 2);
  return std::sqrt(s / static_cast<double>(a.size()));
}

// The exact minimal-change point on {|p| = 1, p·v = 0} for equal weights:
// for a position p the nearest velocity is v0 − (p·v0)p, so minimise
// f(θ) = |p(θ) − p0|² + (p(θ)·v0)² over the angle (ternary search).
std::vector<double> exact_projection(const Pendulum& P, const std::vector<double>& y0) {
  const double x0 = y0[P.ix], yy0 = y0[P.iy], vx0 = y0[P.ivx], vy0 = y0[P.ivy];
  auto f = [&](double th) {
    const double px = std::cos(th), py = std::sin(th);
    return std::pow(px - x0, 2) + std::pow(py - yy0, 2) + std::pow(px * vx0 + py * vy0, 2);
  };
  double lo = std::atan2(yy0, x0) - 0.5, hi = lo + 1.0;
  for (int i = 0; i < 300; ++i) {
    const double a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3;
    (f(a) < f(b) ? hi : lo) = (f(a) < f(b) ? b : a);
  }
  const double th = 0.5 * (lo + hi), px = std::cos(th), py = std::sin(th), pv = px * vx0 + py * vy0;
  std::vector<double> y = y0;
  y[P.ix] = px, y[P.iy] = py, y[P.ivx] = vx0 - pv * px, y[P.ivy] = vy0 - pv * py;
  return y;
}

TEST(ConstraintProjection, TheProjectionSystemHasC0AndC1AsConstraints) {
  Pendulum& P = shape_a();
  ASSERT_EQ(P.index1().method, structure::ReductionMethod::projection);
  ASSERT_EQ(P.index1().projection_constraints.size(), 2u);
  EXPECT_EQ(P.system().name(P.index1().projection_constraints[0]), "c0");
  EXPECT_EQ(P.system().name(P.index1().projection_constraints[1]), "c1");
  ConstraintProjector both = P.projector({"c0", "c1"});
  EXPECT_EQ(both.constraint_count(), 2u);
  EXPECT_EQ(std::vector<std::size_t>(both.moved_unknowns().begin(), both.moved_unknowns().end()),
            (std::vector<std::size_t>{P.ix, P.iy, P.ivx, P.ivy}));
  EXPECT_TRUE(both.exact_through_reinitialization()) << "c0, c1 depend on states only";
  EXPECT_TRUE(both.uses_directional_derivatives());
  EXPECT_EQ(both.jacobian_colors(), 4u) << "c1 touches all four moved columns: one directional derivative each";
  ConstraintProjector position = P.projector({"c0"});
  EXPECT_EQ(std::vector<std::size_t>(position.moved_unknowns().begin(), position.moved_unknowns().end()),
            (std::vector<std::size_t>{P.ix, P.iy}));
}

TEST(ConstraintProjection, ViolationIsTheLargestAbsoluteConstraint) {
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const auto y = P.point(1.01, 0.05, 0.1, 0.2), yp = P.derivatives();
  EXPECT_NEAR(proj.violation(0.5, y, yp), std::max(std::fabs(P.c0(y)), std::fabs(P.c1(y))), 1e-15);
  EXPECT_NEAR(proj.values()[0], P.c0(y), 1e-15);
  EXPECT_NEAR(proj.values()[1], P.c1(y), 1e-15);
  EXPECT_EQ(proj.violation(0.5, P.point(1, 0, 0, 0), yp), 0.0);
}

TEST(ConstraintProjection, ProjectsOntoBothConstraintsMovingOnlyTheStates) {
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const auto y0 = P.point(1.01, 0.05, 0.1, 0.2), yp0 = P.derivatives();
  auto y = y0, yp = yp0;
  const std::vector<double> w(P.size(), 1e6);
  const ProjectionResult r = proj.project(0.5, y, yp, w, 1e-9);
  ASSERT_TRUE(r.projected);
  EXPECT_FALSE(r.discarded);
  EXPECT_LE(std::fabs(P.c0(y)), 1e-10);
  EXPECT_LE(std::fabs(P.c1(y)), 1e-10);
  EXPECT_LE(r.violation_after, 1e-10);
  EXPECT_DOUBLE_EQ(r.violation_before, std::max(std::fabs(P.c0(y0)), std::fabs(P.c1(y0))));
  EXPECT_EQ(y[P.ilambda], y0[P.ilambda]) << "the algebraic variable is held";
  EXPECT_EQ(yp, yp0) << "y' is left to IDA's re-initialization";
  EXPECT_LE(r.iterations, 6);
  EXPECT_GE(r.iterations, 2) << "a perturbation of 0.1 is not solved in one linear step";
  EXPECT_EQ(r.jacobians, 1) << "contraction is fast: the Jacobian at the start point serves all iterations";
  EXPECT_NEAR(r.correction, wrms(y, y0, w), 1e-9 * r.correction);
  // Minimal change: within O(|Δ|²) of the exact nearest point, never shorter.
  const auto exact = exact_projection(P, y0);
  const double ours = wrms(y, y0, w), best = wrms(exact, y0, w);
  EXPECT_GE(ours, best * (1 - 1e-9));
  EXPECT_LE(ours, best * 1.001) << "first-order optimal: 1.0002 for this 10 % perturbation";
}

TEST(ConstraintProjection, SmallDriftGivesTheNearestPoint) {
  // Drift of the size a step leaves: the correction agrees with the exact
  // nearest point to second order.
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const double th = 0.7;
  const auto y0 = P.point(std::sin(th) + 3e-4, -std::cos(th) - 2e-4, 2 * std::cos(th) + 5e-4, 2 * std::sin(th) - 4e-4);
  auto y = y0;
  const std::vector<double> w(P.size(), 1e4);
  const ProjectionResult r = proj.project(1.0, y, P.derivatives(), w, 1e-10);
  ASSERT_TRUE(r.projected);
  EXPECT_LE(r.iterations, 3);
  const auto exact = exact_projection(P, y0);
  for (std::size_t k : {P.ix, P.iy, P.ivx, P.ivy})  // |Δ| ≈ 5e-4, so |Δ|² ≈ 2.5e-7
    EXPECT_NEAR(y[k], exact[k], 1e-7) << "unknown " << k;
  EXPECT_LE(std::fabs(P.c0(y)), 1e-11);
  EXPECT_LE(std::fabs(P.c1(y)), 1e-11);
}

// The in-step projection keeps J from one step to the next: a second
// call at a nearby point (the next step) evaluates no Jacobian, and an
// increment below correction_tolerance (WRMS) ends the iteration without
// evaluating C again.
TEST(ConstraintProjection, AKeptJacobianServesTheNextCall) {
  Pendulum& P = shape_a();
  ProjectionOptions o;
  o.keep_jacobian = true;
  o.correction_tolerance = 0.1;
  ConstraintProjector proj = P.projector({"c0", "c1"}, o);
  const std::vector<double> w(P.size(), 1e8);  // local errors of about 1e-8
  double th = 0.7;
  auto drifted = [&](double angle, double drift) {
    return P.point(std::sin(angle) + drift, -std::cos(angle) - drift, 2 * std::cos(angle) + drift,
                   2 * std::sin(angle) - drift);
  };
  auto y = drifted(th, 3e-8);
  ProjectionResult r = proj.project(1.0, y, P.derivatives(), w, std::numeric_limits<double>::min());
  ASSERT_TRUE(r.projected);
  EXPECT_EQ(r.jacobians, 1) << "the first call has no J yet";
  EXPECT_LE(std::fabs(P.c0(y)), 1e-12);
  EXPECT_LE(std::fabs(P.c1(y)), 1e-12);
  for (int step = 1; step <= 5; ++step) {  // the rod turns by 1e-3 rad per step
    th += 1e-3;
    auto y_step = drifted(th, 5e-10);
    const ProjectionResult rs = proj.project(1.0 + 1e-3 * step, y_step, P.derivatives(), w,
                                             std::numeric_limits<double>::min());
    ASSERT_TRUE(rs.projected);
    EXPECT_EQ(rs.jacobians, 0) << "step " << step << ": the kept J contracts well enough";
    EXPECT_EQ(rs.iterations, 1) << "step " << step << ": a drift of 0.05 in WRMS is corrected in one iteration";
    // A J kept from up to 5e-3 rad back leaves that fraction of the drift:
    // far below the 1e-8 local error the weights stand for.
    EXPECT_LE(std::fabs(P.c0(y_step)), 1e-11) << "step " << step;
    EXPECT_LE(std::fabs(P.c1(y_step)), 1e-11) << "step " << step;
  }
  // A forgotten J is evaluated again.
  proj.invalidate_jacobian();
  auto y_again = drifted(th, 5e-10);
  EXPECT_EQ(proj.project(1.1, y_again, P.derivatives(), w, std::numeric_limits<double>::min()).jacobians, 1);
}

TEST(ConstraintProjection, AStaleKeptJacobianIsRefreshed) {
  // A J kept from a point a quarter turn away points the wrong way: the
  // iteration must notice the slow contraction and evaluate J again, and
  // still end on the constraints.
  Pendulum& P = shape_a();
  ProjectionOptions o;
  o.keep_jacobian = true;
  o.correction_tolerance = 0.1;
  ConstraintProjector proj = P.projector({"c0", "c1"}, o);
  const std::vector<double> w(P.size(), 1e8);
  auto y = P.point(1.0 + 1e-3, 1e-3, 1e-3, 2.0);
  ASSERT_TRUE(proj.project(0.0, y, P.derivatives(), w, 1e-10).projected);
  auto far = P.point(1e-3, -1.0 - 1e-3, 2.0, 1e-3);
  const ProjectionResult r = proj.project(1.0, far, P.derivatives(), w, 1e-10);
  ASSERT_TRUE(r.projected);
  EXPECT_GE(r.jacobians, 1);
  EXPECT_LE(std::fabs(P.c0(far)), 1e-9);
  EXPECT_LE(std::fabs(P.c1(far)), 1e-9);
}

TEST(ConstraintProjection, CorrectionToleranceIsChecked) {
  Pendulum& P = shape_a();
  ProjectionOptions o;
  o.correction_tolerance = -1;
  EXPECT_THROW(P.projector({"c0"}, o), Error);
  o.correction_tolerance = std::numeric_limits<double>::infinity();
  EXPECT_THROW(P.projector({"c0"}, o), Error);
}

TEST(ConstraintProjection, PositionConstraintAloneScalesRadiallyForEqualWeights) {
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0"});
  const auto y0 = P.point(1.01, 0.05, 0.1, 0.2);
  auto y = y0;
  const ProjectionResult r = proj.project(0.0, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-10);
  ASSERT_TRUE(r.projected);
  // Along the radius (the correction is parallel to ∇c0 = 2(x, y)), onto the
  // circle within the target 0.1·tolerance on c0 ≈ 2·(radial error).
  EXPECT_NEAR(y[P.ix] * y0[P.iy] - y[P.iy] * y0[P.ix], 0.0, 1e-15);
  const double radius = std::hypot(y0[P.ix], y0[P.iy]);
  EXPECT_NEAR(y[P.ix], y0[P.ix] / radius, 1e-11);
  EXPECT_NEAR(y[P.iy], y0[P.iy] / radius, 1e-11);
  EXPECT_LE(std::fabs(P.c0(y)), 1e-11);
  EXPECT_EQ(y[P.ivx], y0[P.ivx]) << "c0 does not involve the velocities";
  EXPECT_EQ(y[P.ivy], y0[P.ivy]);
  EXPECT_EQ(y[P.ilambda], y0[P.ilambda]);
  EXPECT_LE(r.iterations, 5);
}

TEST(ConstraintProjection, WeightsDecideWhichStatesMove) {
  // x costs 1000 times more than y: the correction goes into y, and its
  // weighted size is below that of the radial (Euclidean) projection.
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0"});
  const auto y0 = P.point(0.6, 0.81, 0.0, 0.0);  // |p|² = 1.0161
  std::vector<double> w(P.size(), 1.0);
  w[P.ix] = 1000.0;
  auto y = y0;
  const ProjectionResult r = proj.project(0.0, y, P.derivatives(), w, 1e-10);
  ASSERT_TRUE(r.projected);
  EXPECT_LE(std::fabs(P.c0(y)), 1e-11);
  EXPECT_LT(std::fabs(y[P.ix] - y0[P.ix]), 1e-5 * std::fabs(y[P.iy] - y0[P.iy]));
  auto radial = y0;
  const double radius = std::hypot(y0[P.ix], y0[P.iy]);
  radial[P.ix] /= radius, radial[P.iy] /= radius;
  EXPECT_LT(wrms(y, y0, w), 0.01 * wrms(radial, y0, w));
}

TEST(ConstraintProjection, BelowTheToleranceNothingMoves) {
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const auto y0 = P.point(1.0 + 1e-9, 0.0, 0.0, 0.3);
  auto y = y0;
  const ProjectionResult r = proj.project(0.0, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
  EXPECT_FALSE(r.projected);
  EXPECT_FALSE(r.discarded);
  EXPECT_EQ(y, y0);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.jacobians, 0);
  EXPECT_NEAR(r.violation_before, 2e-9, 1e-15);
  EXPECT_EQ(r.violation_after, r.violation_before);
  EXPECT_EQ(r.correction, 0.0);
}

TEST(ConstraintProjection, FiniteDifferencesAgreeWithDirectionalDerivatives) {
  Pendulum& P = shape_a();
  ProjectionOptions fd;
  fd.jacobian = ProjectionOptions::Jacobian::finite_differences;
  ConstraintProjector by_fd = P.projector({"c0", "c1"}, fd);
  ConstraintProjector by_dd = P.projector({"c0", "c1"});
  EXPECT_FALSE(by_fd.uses_directional_derivatives());
  const auto y0 = P.point(1.01, 0.05, 0.1, 0.2);
  auto a = y0, b = y0;
  const std::vector<double> w(P.size(), 1e6);
  const ProjectionResult ra = by_fd.project(0.5, a, P.derivatives(), w, 1e-9);
  const ProjectionResult rb = by_dd.project(0.5, b, P.derivatives(), w, 1e-9);
  ASSERT_TRUE(ra.projected);
  EXPECT_LE(std::fabs(P.c0(a)), 1e-10);
  EXPECT_LE(std::fabs(P.c1(a)), 1e-10);
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_NEAR(a[k], b[k], 1e-7) << "unknown " << k;
  EXPECT_LE(ra.iterations, rb.iterations + 1);
}

TEST(ConstraintProjection, ASingularJacobianNamesTheConstraint) {
  // At the origin ∇c0 = 0: the position constraint cannot be linearised.
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const auto y0 = P.point(0.0, 0.0, 0.3, 0.4);
  auto y = y0;
  try {
    proj.project(0.25, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("constraint projection: at t = 0.25: the constraint Jacobian is singular: \"c0\" ", 0), 0u) << m;
    EXPECT_EQ(m.find("\"c1\""), std::string::npos) << m;
    EXPECT_NE(m.find("max |C| = 1"), std::string::npos) << m;
    EXPECT_NE(m.find("→"), std::string::npos) << m;
  }
  EXPECT_EQ(y, y0) << "y is restored";
}

TEST(ConstraintProjection, DuplicatedConstraintsAreDependent) {
  Pendulum& P = shape_a();
  ConstraintProjector proj(*P.residual, P.dae, P.system(), P.index1(), {P.constraint("c1"), P.constraint("c1")});
  auto y = P.point(1.01, 0.05, 0.1, 0.2);
  try {
    proj.project(0.0, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    EXPECT_NE(std::string(e.what()).find("singular: \"c1\""), std::string::npos) << e.what();
  }
}

TEST(ConstraintProjection, NoConvergenceRestoresTheInput) {
  Pendulum& P = shape_a();
  ProjectionOptions one;
  one.max_iterations = 1;
  ConstraintProjector proj = P.projector({"c0", "c1"}, one);
  const auto y0 = P.point(1.5, 0.5, 1.0, 2.0);
  auto y = y0;
  try {
    proj.project(2.0, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("constraint projection: at t = 2: no convergence in 1 Newton iterations: max |C| = ", 0), 0u)
        << m;
    EXPECT_NE(m.find("largest at \"c"), std::string::npos) << m;
    EXPECT_NE(m.find("→ the point is too far"), std::string::npos) << m;
  }
  EXPECT_EQ(y, y0);
}

// Issue 15: a projection that fails because the constraint Jacobian is
// nearly singular says so, with the condition estimate and the constraint,
// instead of "too far: tighten the tolerances" (which cannot help there).
TEST(ConstraintProjection, NearlyDependentConstraintsAreReportedAsNearlySingular) {
  // At (1e-4, 0) moving along x, ∇c0 = (2e-4, 0, 0, 0) and ∇c1 = (0.3, 0, 1e-4, 0)
  // are 3e-4 rad apart: the equilibrated condition estimate is ~1e7.
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  const auto y0 = P.point(1e-4, 0.0, 0.3, 0.0);
  auto y = y0;
  try {
    proj.project(1.5, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("constraint projection: at t = 1.5: the constraint Jacobian is nearly singular: \"c", 0), 0u) << m;
    EXPECT_NE(m.find("nearly depend(s) on the other constraints here (condition estimate "), std::string::npos) << m;
    EXPECT_NE(m.find("no convergence in 10 Newton iterations"), std::string::npos) << m;
    EXPECT_NE(m.find("tighter tolerances do not cure"), std::string::npos) << m;
    EXPECT_EQ(m.find("tighten"), std::string::npos) << m;
  }
  EXPECT_EQ(y, y0) << "y is restored";
}

TEST(ConstraintProjection, AVanishingGradientIsReportedAsNearlySingular) {
  // One constraint, so no dependence (condition estimate 1), but at x = 1e-7
  // the first Newton step moves x by 5e6: the gradient of c0 nearly vanishes.
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0"});
  auto y = P.point(1e-7, 0.0, 0.0, 0.0);
  try {
    proj.project(0.5, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("nearly singular: the gradient of \"c0\" nearly vanishes here (condition estimate 1, but the "
                     "first Newton correction is "),
              std::string::npos)
        << m;
  }
  // A well-posed projection reports its condition estimate (orthogonal gradients: 1).
  auto ok = P.point(1.001, 0.0, 0.0, 0.0);
  const ProjectionResult r = proj.project(0.5, ok, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8);
  EXPECT_TRUE(r.projected);
  EXPECT_DOUBLE_EQ(r.condition, 1.0);
}

TEST(ConstraintProjection, ArgumentsAreChecked) {
  Pendulum& P = shape_a();
  ConstraintProjector proj = P.projector({"c0", "c1"});
  auto y = P.point(1.01, 0.05, 0.1, 0.2);
  const auto yp = P.derivatives();
  std::vector<double> w(P.size(), 1.0);
  auto kind = [](auto&& f) {
    try {
      f();
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::internal;
  };
  EXPECT_EQ(kind([&] { proj.project(0, std::span(y).first(3), yp, w, 1e-8); }), ErrorKind::usage);
  EXPECT_EQ(kind([&] { proj.project(0, y, yp, std::span(w).first(2), 1e-8); }), ErrorKind::usage);
  EXPECT_EQ(kind([&] { proj.project(0, y, yp, w, 0.0); }), ErrorKind::usage);
  EXPECT_EQ(kind([&] { proj.project(0, y, yp, w, std::nan("")); }), ErrorKind::usage);
  w[P.ivx] = 0.0;
  try {
    proj.project(0, y, yp, w, 1e-8);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("error weight of IDA unknown " + std::to_string(P.ivx) + " is 0"),
              std::string::npos)
        << e.what();
  }
  w[P.ivx] = 1e300 * 1e300;  // a weight of +inf is no weight either
  EXPECT_EQ(kind([&] { proj.project(0, y, yp, w, 1e-8); }), ErrorKind::usage);
  ProjectionOptions bad;
  bad.max_iterations = 0;
  EXPECT_EQ(kind([&] { P.projector({"c0"}, bad); }), ErrorKind::usage);
  bad = {};
  bad.target = 2.0;
  EXPECT_EQ(kind([&] { P.projector({"c0"}, bad); }), ErrorKind::usage);
  bad = {};
  bad.nominal = {1.0};
  EXPECT_EQ(kind([&] { P.projector({"c0"}, bad); }), ErrorKind::usage);
}

TEST(ConstraintProjection, NoConstraintsIsANoOp) {
  Pendulum& P = shape_a();
  ConstraintProjector proj(*P.residual, P.dae, P.system(), P.index1(), {});
  auto y = P.point(1.5, 0.5, 1.0, 2.0);
  const auto y0 = y;
  EXPECT_EQ(proj.violation(0, y, P.derivatives()), 0.0);
  EXPECT_FALSE(proj.project(0, y, P.derivatives(), std::vector<double>(P.size(), 1.0), 1e-8).projected);
  EXPECT_EQ(y, y0);
}

// The pendulum with a shape-B manifest (1.0.0-alpha.1): c2 is the flat
// residual, c0 and c1 are <Invariant>s -- the same binary, only the manifest
// differs, so the value references come from the model description.
class ShapeBPendulum {
 public:
  ShapeBPendulum() : copy_("Pendulum_dae_shapeA", "projection") {
    auto original = Fmu::open(test::fmu_path("Pendulum_dae_shapeA"));
    auto vr = [&](const std::string& name) {
      return std::to_string(original->model_description().find(name)->value_reference);
    };
    auto deps = [&](std::initializer_list<const char*> names) {
      std::string d, k;
      for (const char* n : names) {
        d += (d.empty() ? "" : " ") + vr(n);
        k += (k.empty() ? "" : " ") + std::string("dependent");
      }
      return "dependencies=\"" + d + "\" dependenciesKind=\"" + k + "\"";
    };
    std::string xml =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<fmiDAEManifest xmlns:fmi-ls=\"http://fmi-standard.org/fmi-ls-manifest\"\n"
        "  fmi-ls:fmi-ls-name=\"org.fmi-standard.fmi-ls-dae\" fmi-ls:fmi-ls-version=\"1.0.0-alpha.1\"\n"
        "  fmi-ls:fmi-ls-description=\"Layered standard for DAE support in FMI\">\n"
        "  <AlgebraicVariables><AlgebraicVariable valueReference=\"" + vr("lambda") + "\"/></AlgebraicVariables>\n"
        "  <ModelStructure>\n";
    for (const char* d : {"der(x)", "der(y)", "der(vx)", "der(vy)"})
      xml += "    <ContinuousStateDerivative valueReference=\"" + vr(d) + "\"/>\n";
    xml += "    <Residual valueReference=\"" + vr("r[1]") + "\" " + deps({"vx", "der(x)"}) + "/>\n";
    xml += "    <Residual valueReference=\"" + vr("r[2]") + "\" " + deps({"vy", "der(y)"}) + "/>\n";
    xml += "    <Residual valueReference=\"" + vr("r[3]") + "\" " + deps({"x", "der(vx)", "lambda"}) + "/>\n";
    xml += "    <Residual valueReference=\"" + vr("r[4]") + "\" " + deps({"y", "der(vy)", "lambda"}) + "/>\n";
    xml += "    <Residual valueReference=\"" + vr("c2") + "\" " +
           deps({"x", "y", "vx", "vy", "der(vx)", "der(vy)"}) + "/>\n";
    xml += "    <Invariant valueReference=\"" + vr("c0") + "\" " + deps({"x", "y"}) + "/>\n";
    xml += "    <Invariant valueReference=\"" + vr("c1") + "\" " + deps({"x", "y", "vx", "vy"}) + "/>\n";
    xml += "  </ModelStructure>\n</fmiDAEManifest>\n";
    std::ofstream(copy_.dir() / "extra" / "org.fmi-standard.fmi-ls-dae" / "fmi-ls-manifest.xml") << xml;
  }
  const std::filesystem::path& dir() const { return copy_.dir(); }

 private:
  test::EditableFmu copy_;
};

TEST(ConstraintProjection, ShapeBInvariantsAreProjectedOnto) {
  ShapeBPendulum copy;
  Pendulum P(copy.dir());
  ASSERT_EQ(P.system().invariant_names.size(), 2u);
  ASSERT_EQ(P.index1().projection_constraints.size(), 2u);
  for (const auto& e : P.index1().projection_constraints)
    EXPECT_EQ(e.kind, structure::EquationRef::Kind::invariant) << P.system().name(e);
  ConstraintProjector proj(*P.residual, P.dae, P.system(), P.index1(), P.index1().projection_constraints);
  EXPECT_EQ(proj.constraint_name(0), "c0");
  EXPECT_EQ(proj.constraint_name(1), "c1");
  EXPECT_TRUE(proj.exact_through_reinitialization());
  const auto y0 = P.point(1.01, 0.05, 0.1, 0.2);
  auto y = y0;
  const std::vector<double> w(P.size(), 1e6);
  const ProjectionResult r = proj.project(0.5, y, P.derivatives(), w, 1e-9);
  ASSERT_TRUE(r.projected);
  EXPECT_LE(std::fabs(P.c0(y)), 1e-10);
  EXPECT_LE(std::fabs(P.c1(y)), 1e-10);
  EXPECT_EQ(y[P.ilambda], y0[P.ilambda]);
  // Same constraints, same metric: the same point as through shape A's formulations.
  Pendulum& A = shape_a();
  auto a = A.point(1.01, 0.05, 0.1, 0.2);
  ASSERT_TRUE(A.projector({"c0", "c1"}).project(0.5, a, A.derivatives(), std::vector<double>(A.size(), 1e6), 1e-9)
                  .projected);
  EXPECT_NEAR(y[P.ix], a[A.ix], 1e-14);
  EXPECT_NEAR(y[P.iy], a[A.iy], 1e-14);
  EXPECT_NEAR(y[P.ivx], a[A.ivx], 1e-14);
  EXPECT_NEAR(y[P.ivy], a[A.ivy], 1e-14);
}

}  // namespace
}  // namespace lsdae::simulation
