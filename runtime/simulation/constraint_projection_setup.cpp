// runtime/simulation/constraint_projection_setup.cpp -- ConstraintProjector (constraint_projection.h):
// the constructor: the options checked, the constraints and the unknowns
// they move, J's pattern and colouring, A's fixed pattern and the workspaces.
#include "simulation/constraint_projection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"
#include "simulation/constraint_projection_messages.h"

namespace lsdae::simulation {

using structure::EquationRef;
using structure::no_index;
using structure::UnknownKind;
namespace messages = projection_messages;

ConstraintProjector::ConstraintProjector(ModelResidual& residual, const ModelDae& dae, const structure::DaeSystem& system,
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
      if (const ModelDae::Synthesis* s = dae.synthesis_of(system.group_source[g], system.level_of(e.id))) {
        // lsdae's own d/dt(g) (model_dae.h): computed, not read. Only the
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

}  // namespace lsdae::simulation
