// runtime/simulation/simulation_jacobian.cpp -- lsdae::Simulation::
// check_jacobian() and jacobian() (lsdae/simulation.h): the iteration matrix
// J = ∂G/∂y + cj·∂G/∂y' of the current index-1 system at the run's point, by
// the coloured Jacobian of kernels/compressed_jacobian.h on instance 0.
//
// Both take IDA's error weights for the tolerances (1/(rtol·|y_k| +
// atol·nominal_k)), the residual at the point (one evaluation), and h = 0 so
// that the increments keep the variables' own scale. check_jacobian()
// compares finite differences with directional derivatives at cj = 1/(output
// interval), a step of one interval; jacobian() gives the values the run's
// Jacobian source computes. Cost: one residual evaluation, then one
// evaluation per colour (twice for the check). Errors: Error(usage) before
// initialize(), without directional derivatives to check, for a bad cj or an
// uncoloured run.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

namespace {

// The compressed Jacobian of the current structure at the run's point.
class IterationMatrixAt {
 public:
  IterationMatrixAt(const simulation::RunSettings& s, simulation::ModelEvaluation& evaluation,
                    const simulation::IntegrationSession& session, double cj)
      : pattern_(evaluation.structure().iteration),
        jacobian_(pattern_, *evaluation.structure().coloring, 1),
        r_(session.y().size()),
        weights_(session.y().size()) {
    const std::span<const double> y = session.y();
    const std::vector<double>& nominal = evaluation.nominal();
    for (std::size_t k = 0; k < y.size(); ++k) weights_[k] = 1.0 / (s.rtol * std::fabs(y[k]) + s.atol * nominal[k]);
    evaluation.residual(0).residual(session.time(), y, session.yp(), r_);
    point_ = {session.time(), y, session.yp(), r_, cj, 0.0, weights_, nominal};
    pool_[0] = &evaluation.residual(0);
  }
  const structure::Pattern& pattern() const { return pattern_; }
  void finite_differences(std::span<double> values) { jacobian_.evaluate_finite_differences(pool_, point_, values); }
  void directional(std::span<double> values) { jacobian_.evaluate_directional(pool_, point_, values); }

 private:
  const structure::Pattern& pattern_;
  kernels::CompressedJacobian jacobian_;
  std::vector<double> r_, weights_;
  kernels::JacobianPoint point_;
  kernels::ResidualFunction* pool_[1] = {nullptr};
};

}  // namespace

std::string to_string(const JacobianCheck& c) {
  const std::string where = "jacobian check at t = " + format_number(c.time) + ": finite differences and directional derivatives ";
  if (c.agree())
    return where + "agree to " + format_number(c.max_rel_difference) + " (relative; threshold " +
           format_number(c.threshold) + "): OK";
  return where + "differ: largest relative difference " + format_number(c.max_rel_difference) + " (threshold " +
         format_number(c.threshold) + ") at row \"" + c.row + "\", column \"" + c.column + "\": finite differences " +
         format_number(c.finite_difference) + ", directional " + format_number(c.directional) + " (largest absolute " +
         "difference " + format_number(c.max_abs_difference) + ") → wrong directional derivatives in the FMU (use " +
         "--jacobian fd), unless this residual is so nonlinear that finite differences are off themselves";
}

JacobianCheck Simulation::check_jacobian() {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: check_jacobian() needs initialize() first");
  if (!m.settings->model->directional_derivatives_available())
    throw Error(ErrorKind::usage, "simulate: the FMU does not provide directional derivatives to compare");
  // A representative iteration matrix: cj of a step of one output interval.
  IterationMatrixAt at(*m.settings, *m.evaluation, m.session, 1.0 / m.settings->interval);
  const structure::Pattern& pattern = at.pattern();
  const std::size_t N = m.session.y().size();
  std::vector<double> fd(pattern.nnz()), dd(pattern.nnz());
  at.finite_differences(fd);
  at.directional(dd);
  JacobianCheck c;
  c.time = m.session.time();
  std::vector<double> row_scale(N, 0.0);
  for (std::size_t p = 0; p < pattern.nnz(); ++p)
    row_scale[pattern.row_idx()[p]] = std::max(row_scale[pattern.row_idx()[p]], std::fabs(dd[p]));
  bool first = true;
  for (std::size_t col = 0; col < pattern.cols(); ++col)
    for (std::size_t p = pattern.col_ptr()[col]; p < pattern.col_ptr()[col + 1]; ++p) {
      double abs_diff = std::fabs(fd[p] - dd[p]);
      double rel = abs_diff / std::max(row_scale[pattern.row_idx()[p]], 1e-300);
      c.max_abs_difference = std::max(c.max_abs_difference, abs_diff);
      if (first || rel > c.max_rel_difference) {
        first = false;
        c.max_rel_difference = rel;
        c.row = m.evaluation->row_name(pattern.row_idx()[p]);
        c.column = m.evaluation->unknown_name(col);
        c.finite_difference = fd[p];
        c.directional = dd[p];
      }
    }
  return c;
}

IterationMatrix Simulation::jacobian(std::optional<double> cj_given) {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: jacobian() needs initialize() first");
  const double cj = cj_given.value_or(1.0 / m.settings->interval);
  if (!std::isfinite(cj) || cj < 0)
    throw Error(ErrorKind::usage, "simulate: jacobian(cj = " + format_number(cj) +
                                      ") → give cj >= 0 and finite (0: ∂F/∂y; 1/h: a step of size h)");
  if (!m.evaluation->structure().coloring)
    throw Error(ErrorKind::usage, "simulate: jacobian(): this run evaluates no compressed Jacobian (uncoloured "
                                  "baseline) → use the default options");
  IterationMatrixAt at(*m.settings, *m.evaluation, m.session, cj);
  const structure::Pattern& pattern = at.pattern();
  IterationMatrix out;
  out.values.resize(pattern.nnz());
  if (m.session.trusts_directional()) at.directional(out.values);
  else at.finite_differences(out.values);
  out.rows = pattern.rows();
  out.cols = pattern.cols();
  out.col_ptr = pattern.col_ptr();
  out.row_idx = pattern.row_idx();
  for (std::size_t k = 0; k < out.rows; ++k) out.row_names.push_back(m.evaluation->row_name(k));
  for (std::size_t k = 0; k < out.cols; ++k) out.column_names.push_back(m.evaluation->unknown_name(k));
  out.time = m.session.time();
  out.cj = cj;
  return out;
}

}  // namespace lsdae
