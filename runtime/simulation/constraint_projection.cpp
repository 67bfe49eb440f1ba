// runtime/simulation/constraint_projection.cpp -- see constraint_projection.h.
#include "simulation/constraint_projection.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {

using structure::EquationRef;
using structure::no_index;
using structure::UnknownKind;

// A pivot of A = J D⁻¹ Jᵀ at most this fraction of its diagonal entry means
// the constraint's W-gradient lies within ~1e-6 rad of the span of the
// others': the correction would be amplified ~1e6, so we call it singular.
constexpr double kPivotTolerance = 1e-12;
// A condition estimate of the equilibrated A at least this large (the
// W-gradients of two constraints within ~1e-3 rad of each other), or a first
// Newton correction this many times the size of the states it moves (a
// W-gradient that nearly vanishes), makes a projection that does not
// converge "nearly singular" rather than "too far from the constraints":
// tighter tolerances do not help there.
constexpr double kNearlySingular = 1e6;

std::string quoted(const std::vector<std::string>& names, const std::vector<std::size_t>& which) {
  constexpr std::size_t kShown = 10;
  std::string out;
  for (std::size_t i = 0; i < which.size() && i < kShown; ++i) out += (i == 0 ? "\"" : ", \"") + names[which[i]] + "\"";
  if (which.size() > kShown) out += " and " + std::to_string(which.size() - kShown) + " more";
  return out;
}

// Every message of the projection, in the house shape
// where → what → value seen → what to do.
namespace messages {

constexpr const char* kWhere = "constraint projection: ";

std::string bad_option(const char* name, const std::string& value, const char* rule) {
  return std::string(kWhere) + "option " + name + " = " + value + " " + rule + " → fix the option";
}
std::string no_directional(const std::string& fmu) {
  return std::string(kWhere) + fmu + " provides no directional derivatives → use finite differences "
         "(ProjectionOptions::Jacobian::automatic)";
}
std::string state_equation(const std::string& name) {
  return std::string(kWhere) + "\"" + name + "\" is a state equation, not a constraint → pass "
         "Index1System::projection_constraints";
}
std::string synthesized(const std::string& name) {
  return std::string(kWhere) + "constraint \"" + name + "\" is a derivative lsdae synthesizes along (1, ẋ) (the "
         "FMU provides only the original constraint), a function of the derivatives, not of the states, so "
         "projecting the states cannot enforce it → use the dummy-derivative method (--constraints dummy, the "
         "default), or export the derivative formulations";
}
std::string synthesized_directional() {
  return std::string(kWhere) + "the constraints include derivatives lsdae synthesizes, which have no directional "
         "derivatives → use finite differences (ProjectionOptions::Jacobian::automatic)";
}
std::string mismatched_system(std::size_t unknowns, std::size_t residual_size) {
  return std::string(kWhere) + "the index-1 system has " + std::to_string(unknowns) +
         " unknowns but the residual has " + std::to_string(residual_size) + " → build both from the same system";
}
std::string unreachable(const std::string& name) {
  return std::string(kWhere) + "constraint \"" + name + "\" depends on no differential state, so projecting the "
         "differential states cannot enforce it → use the dummy-derivative method (--constraints dummy)";
}
std::string wrong_size(const char* what, std::size_t seen, std::size_t expected) {
  return std::string(kWhere) + what + " has " + std::to_string(seen) + " entries, expected " +
         std::to_string(expected) + " (one per IDA unknown) → pass IDA's vectors";
}
std::string bad_tolerance(double tolerance) {
  return std::string(kWhere) + "tolerance " + format_number(tolerance) + " is not positive and finite → pass the drift "
         "tolerance (e.g. the integrator's atol)";
}
std::string bad_weight(std::size_t unknown, double w) {
  return std::string(kWhere) + "error weight of IDA unknown " + std::to_string(unknown) + " is " + format_number(w) +
         ", not positive and finite → pass IDA's error weights (IDAGetErrWeights)";
}
std::string not_finite(double t, const std::string& name, double value) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": constraint \"" + name + "\" evaluates to " + format_number(value) +
         " → the point is outside the model's domain; check the step before the projection";
}
std::string condition_text(double condition) {
  return std::isfinite(condition) ? format_number(condition) : std::string("infinite");
}
std::string singular(double t, const std::string& names, double violation, double condition) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": the constraint Jacobian is singular: " + names +
         " depend(s) on the other constraints or has a zero gradient here (condition estimate " +
         condition_text(condition) + ", max |C| = " + format_number(violation) +
         ") → the constraints are redundant or degenerate at this point: remove duplicated invariants, or use "
         "--constraints dummy";
}
std::string nearly_singular(double t, const std::string& names, const ConditionReport& c, int iterations,
                            double before, double violation, double target) {
  const std::string why =
      c.condition >= kNearlySingular
          ? names + " nearly depend(s) on the other constraints here (condition estimate " +
                condition_text(c.condition) + ")"
          : "the gradient of " + names + " nearly vanishes here (condition estimate " + condition_text(c.condition) +
                ", but the first Newton correction is " + format_number(c.step_ratio) +
                " times the size of the states it moves)";
  return std::string(kWhere) + "at t = " + format_number(t) + ": the constraint Jacobian is nearly singular: " + why +
         "; no convergence in " + std::to_string(iterations) + " Newton iterations (max |C| = " +
         format_number(before) + " at the start, " + format_number(violation) + " after them, target " +
         format_number(target) +
         ") → the constraints are degenerate at this point (a singular configuration of the model, or nearly "
         "duplicated constraints), which tighter tolerances do not cure: check the start values and parameters, "
         "remove a redundant constraint, or use --constraints dummy";
}
std::string not_converged(double t, int iterations, const std::string& names, double violation, double target,
                          double condition) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": no convergence in " + std::to_string(iterations) +
         " Newton iterations: max |C| = " + format_number(violation) + " (target " + format_number(target) +
         "), largest at " + names + " (condition estimate " + condition_text(condition) +
         ") → the point is too far from the constraints: tighten the integration tolerances or the maximum step "
         "so the drift between projections stays small";
}

}  // namespace messages

}  // namespace

ConstraintProjector::ConstraintProjector(FmuResidual& residual, const FmuDae& dae, const structure::DaeSystem& system,
                                         const structure::Index1System& index1, std::vector<EquationRef> constraints,
                                         ProjectionOptions options)
    : residual_(residual), instance_(residual.instance()), options_(std::move(options)), n_(residual.size()) {
  // Options.
  if (options_.max_iterations < 1)
    throw Error(ErrorKind::usage, messages::bad_option("max_iterations", std::to_string(options_.max_iterations),
                                                       "is not at least 1"));
  if (!(options_.target > 0 && options_.target <= 1))
    throw Error(ErrorKind::usage, messages::bad_option("target", format_number(options_.target), "is not in (0, 1]"));
  if (!(options_.correction_tolerance >= 0 && std::isfinite(options_.correction_tolerance)))
    throw Error(ErrorKind::usage, messages::bad_option("correction_tolerance",
                                                       format_number(options_.correction_tolerance),
                                                       "is not a finite number >= 0"));
  if (!(options_.refresh_ratio > 0 && options_.refresh_ratio < 1))
    throw Error(ErrorKind::usage,
                messages::bad_option("refresh_ratio", format_number(options_.refresh_ratio), "is not in (0, 1)"));
  if (!options_.nominal.empty()) {
    if (options_.nominal.size() != n_)
      throw Error(ErrorKind::usage, messages::wrong_size("nominal", options_.nominal.size(), n_));
    for (double v : options_.nominal)
      if (!(v > 0 && std::isfinite(v)))
        throw Error(ErrorKind::usage, messages::bad_option("nominal", format_number(v), "is not positive and finite"));
  }
  const bool available = instance_.provides_directional_derivatives();
  switch (options_.jacobian) {
    case ProjectionOptions::Jacobian::automatic: directional_ = available; break;
    case ProjectionOptions::Jacobian::finite_differences: directional_ = false; break;
    case ProjectionOptions::Jacobian::directional:
      if (!available) throw Error(ErrorKind::usage, messages::no_directional(instance_.model_display_name()));
      directional_ = true;
      break;
  }
  if (index1.unknowns.size() != n_)
    throw Error(ErrorKind::internal, messages::mismatched_system(index1.unknowns.size(), n_));

  // Constraint variables and the moved columns.
  const structure::ColumnLayout& layout = system.layout;
  std::vector<std::vector<std::size_t>> rows;  // per constraint: moved IDA unknowns (global indices for now)
  std::vector<bool> moved(n_, false);
  for (const EquationRef& e : constraints) {
    names_.push_back(system.name(e));
    if (e.kind == EquationRef::Kind::invariant) {
      vrs_.push_back(dae.invariant_vrs.at(e.id));
      invariant_of_.push_back(e.id);
    } else {
      invariant_of_.push_back(structure::no_index);
      const std::size_t g = system.formulation_group.at(e.id);
      if (system.group_kind[g] == structure::GroupKind::state_equation)
        throw Error(ErrorKind::usage, messages::state_equation(names_.back()));
      if (const FmuDae::Synthesis* s = dae.synthesis_of(system.group_source[g], system.level_of(e.id))) {
        // lsdae's own d/dt(g) (fmu_dae.h): computed, not read. Only the
        // state form (two levels) is a function of the states.
        // The one-level d/dt(g) is always the highest formulation, never a constraint.
        if (!s->two_levels()) throw Error(ErrorKind::internal, messages::synthesized(names_.back()));
        if (!synthesis_)
          synthesis_ = std::make_unique<ConstraintSynthesis>(instance_, dae, state_nominals(instance_.model_description(), dae));
        synthesized_.emplace_back(vrs_.size(), synthesis_->add_row(system.group_source[g], system.level_of(e.id)));
      }
      vrs_.push_back(dae.residual_vrs.at(system.group_source[g]).at(system.level_of(e.id)));
    }
    std::vector<std::size_t> row;
    for (const std::size_t c : system.incidence(e)) {
      const structure::VarRef v = layout.var(c);
      const std::size_t k = index1.column_to_unknown.at(c);
      if (v.block == structure::Block::state && k != no_index && index1.unknowns[k].kind == UnknownKind::differential) {
        row.push_back(k);
        moved[k] = true;
      } else {
        exact_ = false;  // a held value: ẋ, z or a dummy
      }
    }
    if (row.empty()) throw Error(ErrorKind::solver, messages::unreachable(names_.back()));
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> local(n_, no_index);
  for (std::size_t k = 0; k < n_; ++k) {
    if (!moved[k]) continue;
    local[k] = moved_.size();
    moved_.push_back(k);
    moved_vrs_.push_back(dae.state_vrs.at(index1.unknowns[k].index));
  }
  for (auto& row : rows)
    for (std::size_t& k : row) k = local[k];
  if (synthesis_) {
    // Synthesized constraints have no directional derivatives: their
    // Jacobian (and, for one forward difference of all rows, the others')
    // comes from differences.
    if (options_.jacobian == ProjectionOptions::Jacobian::directional)
      throw Error(ErrorKind::usage, messages::synthesized_directional());
    directional_ = false;
    synthesis_->set_inputs(residual_.inputs());  // ∂g/∂t includes the inputs' change
    x_work_.resize(dae.state_vrs.size());
    xdot_work_.resize(dae.state_vrs.size());
    synth_values_.resize(synthesis_->rows());
  }
  const std::size_t m = vrs_.size(), p = moved_.size();
  pattern_ = structure::Pattern::from_rows(p, rows);
  coloring_ = structure::color_columns(pattern_);
  jac_.assign(pattern_.nnz(), 0.0);

  // A's pattern: for every column of J, every pair of its rows (lower triangle).
  std::vector<Eigen::Triplet<double>> triplets;
  for (std::size_t i = 0; i < m; ++i) triplets.emplace_back(static_cast<int>(i), static_cast<int>(i), 0.0);
  for (std::size_t k = 0; k < p; ++k) {
    const auto col = pattern_.column(k);
    for (std::size_t a = 0; a < col.size(); ++a)
      for (std::size_t b = 0; b < a; ++b)
        triplets.emplace_back(static_cast<int>(col[a]), static_cast<int>(col[b]), 0.0);
  }
  a_.resize(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(m));
  a_.setFromTriplets(triplets.begin(), triplets.end());
  a_.makeCompressed();
  auto slot_of = [&](std::size_t r, std::size_t s) {  // position of A_rs (r ≥ s) in a_.valuePtr()
    const int* begin = a_.innerIndexPtr() + a_.outerIndexPtr()[s];
    const int* end = a_.innerIndexPtr() + a_.outerIndexPtr()[s + 1];
    const int* at = std::lower_bound(begin, end, static_cast<int>(r));
    return static_cast<std::size_t>(at - a_.innerIndexPtr());
  };
  pair_ptr_.assign(1, 0);
  const auto& col_ptr = pattern_.col_ptr();
  for (std::size_t k = 0; k < p; ++k) {
    const auto col = pattern_.column(k);
    for (std::size_t a = 0; a < col.size(); ++a)
      for (std::size_t b = 0; b <= a; ++b)
        pairs_.push_back({col_ptr[k] + a, col_ptr[k] + b, slot_of(col[a], col[b])});
    pair_ptr_.push_back(pairs_.size());
  }
  for (std::size_t i = 0; i < m; ++i) diagonal_slot_.push_back(slot_of(i, i));
  if (m > 0) ldlt_.analyzePattern(a_);

  c_.assign(m, 0.0);
  scratch_.assign(m, 0.0);
  mu_.resize(static_cast<Eigen::Index>(m));
  d_inv_.assign(p, 0.0);
  increment_.assign(p, 0.0);
  y_start_.assign(p, 0.0);
  y_work_.assign(directional_ ? 0 : n_, 0.0);
  std::size_t widest = 0;
  for (std::size_t g = 0; g < coloring_.colors; ++g) widest = std::max(widest, coloring_.group(g).size());
  known_vrs_.reserve(widest);
  seeds_.assign(widest, 1.0);
}

ConstraintProjector::Eval ConstraintProjector::read(double t, std::span<const double> y, std::span<const double> yp,
                                                    std::span<double> out) {
  if (synthesis_) {
    residual_.states_from(y, yp, x_work_, xdot_work_);
    if (synthesis_->evaluate(t, x_work_, xdot_work_, synth_values_) != kernels::EvalStatus::ok) return Eval::discard;
  }
  if (residual_.apply(t, y, yp) != kernels::EvalStatus::ok) return Eval::discard;
  if (!out.empty() && instance_.get_float64(vrs_, out) == CallStatus::discard) return Eval::discard;
  for (const auto& [constraint, slot] : synthesized_) out[constraint] = synth_values_[slot];
  if (!offset_.empty())
    for (std::size_t i = 0; i < out.size(); ++i) out[i] -= offset_[i];
  return Eval::ok;
}

void ConstraintProjector::set_invariant_values(std::span<const double> per_invariant) {
  offset_.assign(vrs_.size(), 0.0);
  bool any = false;
  for (std::size_t i = 0; i < vrs_.size(); ++i)
    if (invariant_of_[i] != structure::no_index && invariant_of_[i] < per_invariant.size()) {
      offset_[i] = per_invariant[invariant_of_[i]];
      any = true;
    }
  if (!any) offset_.clear();
}

double ConstraintProjector::max_abs() const {
  double v = 0;
  for (const double c : c_) {
    if (std::isnan(c)) return c;
    v = std::max(v, std::fabs(c));
  }
  return v;
}

std::vector<std::size_t> ConstraintProjector::largest(double above) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < c_.size(); ++i)
    if (!(std::fabs(c_[i]) <= above)) out.push_back(i);
  std::stable_sort(out.begin(), out.end(),
                   [&](std::size_t a, std::size_t b) { return std::fabs(c_[a]) > std::fabs(c_[b]); });
  return out;
}

double ConstraintProjector::violation(double t, std::span<const double> y, std::span<const double> yp) {
  if (y.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y", y.size(), n_));
  if (yp.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y'", yp.size(), n_));
  if (c_.empty()) return 0.0;
  if (read(t, y, yp, c_) == Eval::discard) return std::numeric_limits<double>::infinity();
  return max_abs();
}

ConstraintProjector::Eval ConstraintProjector::evaluate_jacobian(double t, std::span<const double> y,
                                                                 std::span<const double> yp,
                                                                 std::span<const double> weights) {
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  if (directional_) {
    if (residual_.apply(t, y, yp) != kernels::EvalStatus::ok) return Eval::discard;
    for (std::size_t g = 0; g < coloring_.colors; ++g) {
      const auto group = coloring_.group(g);
      known_vrs_.clear();
      for (const std::size_t k : group) known_vrs_.push_back(moved_vrs_[k]);
      if (instance_.get_directional_derivative(vrs_, known_vrs_, std::span(seeds_).first(group.size()), scratch_) ==
          CallStatus::discard)
        return Eval::discard;
      // The columns of one colour share no row: row r's sensitivity is ∂C_r/∂(its column).
      for (const std::size_t k : group)
        for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx) jac_[idx] = scratch_[row_idx[idx]];
    }
    return Eval::ok;
  }
  // Forward differences from c_, which holds C at (t, y, y').
  static const double sqrt_eps = std::sqrt(std::numeric_limits<double>::epsilon());
  std::copy(y.begin(), y.end(), y_work_.begin());
  for (std::size_t g = 0; g < coloring_.colors; ++g) {
    const auto group = coloring_.group(g);
    for (const std::size_t k : group) {
      const std::size_t u = moved_[k];
      const double nominal = options_.nominal.empty() ? 1.0 : options_.nominal[u];
      const double inc = sqrt_eps * std::max({std::fabs(y[u]), 1.0 / weights[u], nominal});
      y_work_[u] = y[u] + inc;
      increment_[k] = y_work_[u] - y[u];  // the increment actually represented
    }
    const Eval status = read(t, y_work_, yp, scratch_);
    for (const std::size_t k : group) y_work_[moved_[k]] = y[moved_[k]];
    if (status == Eval::discard) return status;
    for (const std::size_t k : group)
      for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx)
        jac_[idx] = (scratch_[row_idx[idx]] - c_[row_idx[idx]]) / increment_[k];
  }
  return Eval::ok;
}

std::vector<std::size_t> ConstraintProjector::factorize() {
  double* a = a_.valuePtr();
  std::fill(a, a + a_.nonZeros(), 0.0);
  for (std::size_t k = 0; k + 1 < pair_ptr_.size(); ++k)
    for (std::size_t q = pair_ptr_[k]; q < pair_ptr_[k + 1]; ++q) {
      const Pair& pr = pairs_[q];
      a[pr.slot] += jac_[pr.j_r] * jac_[pr.j_s] * d_inv_[k];
    }
  ldlt_.factorize(a_);
  // Dependent constraints: a zero W-gradient, or a collapsed pivot. Pivot q of
  // P·A·Pᵀ = L·D·Lᵀ belongs to constraint Pinv(q). SimplicialLDLT stops at an
  // exactly zero pivot (NumericalIssue); the pivots after it are not computed.
  std::vector<std::size_t> dependent;
  for (std::size_t i = 0; i < diagonal_slot_.size(); ++i)
    if (!(a[diagonal_slot_[i]] > 0)) dependent.push_back(i);
  const auto& pinv = ldlt_.permutationPinv().indices();
  const auto& d = ldlt_.vectorD();
  const bool complete = ldlt_.info() == Eigen::Success;
  for (Eigen::Index q = 0; q < d.size(); ++q) {
    const auto i = static_cast<std::size_t>(pinv(q));
    const double diagonal = a[diagonal_slot_[i]];
    if (!complete && d(q) != 0) continue;
    if (!(d(q) > kPivotTolerance * diagonal) && diagonal > 0) dependent.push_back(i);
    if (!complete) break;  // the first zero pivot; nothing after it was computed
  }
  if (!complete && dependent.empty())
    for (std::size_t i = 0; i < diagonal_slot_.size(); ++i) dependent.push_back(i);
  std::sort(dependent.begin(), dependent.end());
  dependent.erase(std::unique(dependent.begin(), dependent.end()), dependent.end());
  // The condition estimate of the equilibrated A (Jacobi-scaled, so the
  // constraints' units do not count): 1 / min_q d_q / A_ii, the smallest
  // relative pivot naming the weakest constraint.
  condition_ = {};
  if (!complete || !dependent.empty()) {
    condition_.condition = std::numeric_limits<double>::infinity();
    if (!dependent.empty()) condition_.weakest = dependent.front();
    return dependent;
  }
  double smallest = 1.0;
  for (Eigen::Index q = 0; q < d.size(); ++q) {
    const auto i = static_cast<std::size_t>(pinv(q));
    const double relative = d(q) / a[diagonal_slot_[i]];
    if (relative < smallest) smallest = relative, condition_.weakest = i;
  }
  condition_.condition = 1.0 / smallest;
  return dependent;
}

void ConstraintProjector::restore(std::span<double> y) const {
  for (std::size_t k = 0; k < moved_.size(); ++k) y[moved_[k]] = y_start_[k];
}

ProjectionResult ConstraintProjector::project(double t, std::span<double> y, std::span<const double> yp,
                                              std::span<const double> weights, double tolerance) {
  if (y.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y", y.size(), n_));
  if (yp.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("y'", yp.size(), n_));
  if (weights.size() != n_) throw Error(ErrorKind::usage, messages::wrong_size("weights", weights.size(), n_));
  if (!(tolerance > 0 && std::isfinite(tolerance))) throw Error(ErrorKind::usage, messages::bad_tolerance(tolerance));
  ProjectionResult result;
  if (c_.empty()) return result;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    const double w = weights[moved_[k]];
    if (!(w > 0 && std::isfinite(w))) throw Error(ErrorKind::usage, messages::bad_weight(moved_[k], w));
    d_inv_[k] = 1.0 / (w * w);
    y_start_[k] = y[moved_[k]];
  }
  auto finite_or_throw = [&](double v) {
    if (std::isfinite(v)) return;
    std::size_t i = 0;
    while (std::isfinite(c_[i])) ++i;
    restore(y);
    throw Error(ErrorKind::solver, messages::not_finite(t, names_[i], c_[i]));
  };
  auto discarded = [&]() {
    restore(y);
    have_jacobian_ = false;
    result.projected = false;
    result.discarded = true;
    result.violation_after = result.violation_before;
    return result;
  };

  if (read(t, y, yp, c_) == Eval::discard) {
    result.discarded = true;
    return result;
  }
  double v = max_abs();
  finite_or_throw(v);
  result.violation_before = result.violation_after = v;
  if (v <= tolerance) return result;

  const double target = options_.target * tolerance;
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  // A kept J (from an earlier call) needs only A with this call's weights.
  bool need_jacobian = !(options_.keep_jacobian && have_jacobian_);
  bool need_factorization = true;
  bool fresh = false;  // J was evaluated in this call
  bool converged = false;
  ConditionReport worst;  // over the Jacobians factorized in this call
  while (result.iterations < options_.max_iterations) {
    if (need_jacobian) {
      have_jacobian_ = false;
      if (evaluate_jacobian(t, y, yp, weights) == Eval::discard) return discarded();
      ++result.jacobians;
      need_jacobian = false;
      need_factorization = fresh = true;
    }
    if (need_factorization) {
      if (const std::vector<std::size_t> dependent = factorize(); !dependent.empty()) {
        if (!fresh) {  // a kept J gone stale: judge the constraints on a fresh one
          need_jacobian = true;
          continue;
        }
        restore(y);
        throw Error(ErrorKind::solver, messages::singular(t, quoted(names_, dependent), result.violation_before,
                                                          condition_.condition));
      }
      have_jacobian_ = true;
      need_factorization = false;
      if (condition_.condition > worst.condition) worst.condition = condition_.condition, worst.weakest = condition_.weakest;
    }
    // y ← y − D⁻¹Jᵀ A⁻¹ C(y)
    mu_ = ldlt_.solve(Eigen::Map<const Eigen::VectorXd>(c_.data(), static_cast<Eigen::Index>(c_.size())));
    if (result.iterations == 0) {
      // Constraint i's share of the correction, D⁻¹J_iᵀμ_i, has W-norm |μ_i|·sqrt(A_ii):
      // the largest names the constraint whose gradient is too small for its value.
      double share = -1;
      for (std::size_t i = 0; i < diagonal_slot_.size(); ++i) {
        const double s_i = std::fabs(mu_(static_cast<Eigen::Index>(i))) * std::sqrt(a_.valuePtr()[diagonal_slot_[i]]);
        if (s_i > share) share = s_i, worst.steepest = i;
      }
    }
    double increment = 0;  // Σ (w_k δ_k)²
    for (std::size_t k = 0; k < moved_.size(); ++k) {
      double s = 0;
      for (std::size_t idx = col_ptr[k]; idx < col_ptr[k + 1]; ++idx)
        s += jac_[idx] * mu_(static_cast<Eigen::Index>(row_idx[idx]));
      const double delta = d_inv_[k] * s;
      if (result.iterations == 0) {  // the first correction against the size of what it moves
        const double size = std::max(std::fabs(y[moved_[k]]), 1.0 / weights[moved_[k]]);
        worst.step_ratio = std::max(worst.step_ratio, std::fabs(delta) / size);
      }
      y[moved_[k]] -= delta;
      const double wd = weights[moved_[k]] * delta;
      increment += wd * wd;
    }
    ++result.iterations;
    if (options_.correction_tolerance > 0 &&
        std::sqrt(increment / static_cast<double>(n_)) <= options_.correction_tolerance) {
      converged = true;  // what is left of C is negligible against IDA's local error
      break;
    }
    if (read(t, y, yp, c_) == Eval::discard) return discarded();
    const double v_new = max_abs();
    finite_or_throw(v_new);
    if (v_new <= target) {
      v = v_new;
      converged = true;
      break;
    }
    if (v_new > options_.refresh_ratio * v) need_jacobian = true;  // slow contraction: J from here
    v = v_new;
  }
  if (!converged && options_.keep_jacobian && !fresh) {
    // A kept J that did not converge gets one more chance, fresh, from the start.
    restore(y);
    have_jacobian_ = false;
    return project(t, y, yp, weights, tolerance);
  }
  if (!converged) {
    have_jacobian_ = false;
    const std::vector<std::size_t> far = largest(target);
    restore(y);
    if (worst.condition >= kNearlySingular)
      throw Error(ErrorKind::solver, messages::nearly_singular(t, quoted(names_, {worst.weakest}), worst,
                                                               result.iterations, result.violation_before, v, target));
    if (worst.step_ratio >= kNearlySingular)
      throw Error(ErrorKind::solver, messages::nearly_singular(t, quoted(names_, {worst.steepest}),
                                                               worst, result.iterations, result.violation_before, v,
                                                               target));
    throw Error(ErrorKind::solver,
                messages::not_converged(t, result.iterations, quoted(names_, far), v, target, worst.condition));
  }
  result.condition = worst.condition;
  double sum = 0;
  for (std::size_t k = 0; k < moved_.size(); ++k) {
    const double e = weights[moved_[k]] * (y[moved_[k]] - y_start_[k]);
    sum += e * e;
  }
  result.projected = true;
  result.violation_after = v;
  result.correction = std::sqrt(sum / static_cast<double>(n_));
  return result;
}

}  // namespace lsdae::simulation
