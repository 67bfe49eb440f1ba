// runtime/simulation/simulation_reselection.cpp -- Simulation::Impl: the
// choice of dummy derivatives from the FMU's numbers (simulation_impl.h;
// the algorithm is structure/dummy_derivatives.h, Mattsson–Söderlind with
// the pivoting of structure/column_selection.h; docs/algorithms.md).
//
// At the start (select_dummy_derivatives_numerically, after the FMU's
// initialization, before IDA exists): create() could only choose from the
// structure; with directional derivatives the structural analysis runs
// again with the FMU's Jacobian values at the initial point, and the
// residuals are rebuilt for the new index-1 system.
// At run time (reselect_if_needed, after an accepted step at IDA's own
// point, t_ida): the selection is recomputed with the current dummies
// preferred (StateSelect::avoid keeps them dummies) unless that costs more
// than 1/preference_tolerance in a pivot -- the hysteresis that keeps the
// choice from flickering. On a change the index-1 system, iteration pattern,
// colouring, residuals and integrator are rebuilt, the point is carried over
// by variable and IDA restarts at t_ida; stats.reselections counts switches.
#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/fmu_jacobian_values.h"
#include "simulation/simulation_impl.h"
#include "structure/iteration_pattern.h"

namespace lsdae {

bool Simulation::Impl::uses_dummy_derivatives() const {
  return structure.analysis.ok() && structure.analysis.dummy_plan.needed() && structure.selection &&
         structure.index1 && structure.index1->method == structure::ReductionMethod::dummy_derivatives;
}

void Simulation::Impl::select_dummy_derivatives_numerically() {
  if (!structure.analysis.ok() || !structure.analysis.dummy_plan.needed()) return;
  if (options.constraints == ConstraintMethod::projection) return;
  if (!fmu->directional_derivatives_available()) {
    log_warning(fmu->display_name() + ": dummy derivatives chosen from the structure alone: the FMU provides "
                "no directional derivatives for a numeric choice");
    return;
  }
  structure::JacobianCallback values = simulation::fmu_jacobian_values(*instances[0], dae, structure.analysis.system);
  structure::StructureOutcome numeric = structure::run_structure(dae.input, &values, pipeline);
  if (!numeric.index1)
    throw Error(ErrorKind::structure, fmu->display_name() + ": structural analysis failed: " + numeric.analysis.error);
  residuals.clear();
  structure = std::move(numeric);
  reselect_values.reset();
  model_state_select = structure.analysis.system.state_select;
  make_residuals();
  if (structure.selection)
    log_info(fmu->display_name() + ": dummy derivatives at t = " + format_number(t_start) + ": " +
             (structure.selection->dummy_states.empty() ? std::string("none")
                                                        : dummy_list(structure.selection->dummy_states)));
}

bool Simulation::Impl::reselect_if_needed() {
  if (!options.reselect || !uses_dummy_derivatives() || !fmu->directional_derivatives_available()) return false;
  const auto& current = structure.selection->dummy_states;
  auto& system = structure.analysis.system;
  // The preferences that keep the current dummies (avoid: stay dummies),
  // rebuilt only when the selection changed; swapped in for the call, so a
  // step costs no allocation and O(states), not O(states · dummies).
  if (reselect_preferences_for != current) {
    reselect_preferences.assign(system.state_select.size(), structure::StateSelect::normal);
    for (const std::size_t s : current) reselect_preferences[s] = structure::StateSelect::avoid;
    reselect_preferences_for = current;
  }
  if (!reselect_values) reselect_values = simulation::fmu_jacobian_values(*instances[0], dae, system);
  residuals[0]->apply(t_ida, integrator->y(), integrator->yp());
  std::swap(system.state_select, reselect_preferences);
  structure::DummySelection selection;
  try {
    selection = structure::select_dummy_derivatives(system, structure.analysis.dummy_plan, *reselect_values,
                                                    pipeline.selection);
  } catch (...) {
    std::swap(system.state_select, reselect_preferences);
    throw;
  }
  std::swap(system.state_select, reselect_preferences);
  if (!selection.success || selection.dummy_states == current) return false;

  // Switch at the step boundary: same variables, new roles.
  std::vector<double> y_end(integrator->y().begin(), integrator->y().end());
  std::vector<double> yp_end(integrator->yp().begin(), integrator->yp().end());
  std::swap(y, y_end);
  std::swap(yp, yp_end);
  VariableValues v = values_by_variable();
  std::string from = dummy_list(current), to = dummy_list(selection.dummy_states);
  structure::Index1System index1 = structure::index1_for_selection(structure.analysis, selection, pipeline.match_rows);
  structure::Pattern iteration = structure::iteration_pattern(system, index1);
  structure::Coloring coloring = structure::color_columns_best(iteration);
  retire_integrator();  // it refers to the old pattern and residuals
  residuals.clear();
  structure.index1 = std::move(index1);
  structure.iteration = std::move(iteration);
  structure.coloring = std::move(coloring);
  structure.selection = selection;
  make_residuals();
  make_integrator();
  load_values(v);
  ++stats.reselections;
  log_info(fmu->display_name() + ": t = " + format_number(t_ida) + ": dummy derivatives switched from {" + from + "} to {" +
           to + "} (rcond " + format_number(selection.rcond) + ")");
  restart(t_ida);
  return true;
}

}  // namespace lsdae
