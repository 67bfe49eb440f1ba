// runtime/simulation/simulation_reselection.cpp -- Simulation::Impl: the
// choice of dummy derivatives from the FMU's numbers (simulation_impl.h;
// the algorithm is structure/dummy_derivatives.h, Mattsson–Söderlind with
// the pivoting of structure/column_selection.h; the values come from
// dummy_selection.h: directional derivatives, or central finite differences
// when the FMU has none; docs/simulation.md).
//
// At the start (select_dummy_derivatives_numerically, after the FMU's
// initialization, before IDA exists): create() could only choose from the
// structure. That choice is checked at the start point (its rcond), the
// numeric selection is made there, and the residuals are rebuilt for it.
// When no choice is nonsingular at the start (every candidate block's rcond
// below the floor of dummy_selection.h) the run stops: Error(structure),
// naming the constraints and the candidate states.
// At run time (reselect_if_needed, after an accepted step at IDA's own
// point, t_ida): the selection is recomputed with the current dummies
// preferred (StateSelect::avoid keeps them dummies) unless that costs more
// than 1/preference_tolerance in a pivot -- the hysteresis that keeps the
// choice from flickering. On a change the index-1 system, iteration pattern,
// colouring, residuals and integrator are rebuilt, the point is carried over
// by variable and IDA restarts at t_ida; stats.reselections counts switches.
// After an event (handle_event, reselect_at at the post-event point, before
// IDA restarts): the same check and choice, since the event may have moved
// the states (a re-initialization) to where the kept selection is singular.
// A failed re-selection (the constraints lost rank here, or the best choice
// is below the floor) stops the run with Error(solver); so does, with
// --no-reselect, the kept selection falling below the floor (the monitor).
// Per mode: a constraint the FMU switches off in its current mode (zero row,
// value exactly 0, dependencies constant between events: dummy_selection.h)
// takes no row and no dummy; when the set of switched-off constraints
// changes (at an event) the system is rebuilt as for a re-selection, also
// with --no-reselect, and when an event switches a constraint ON with the
// point off it, the point is first re-initialized over the impulse
// (reinitialize_switched_on, simulation_projection.cpp: momentum conserved).
#include <algorithm>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"
#include "structure/iteration_pattern.h"

namespace lsdae {

namespace {
std::string quoted_names(const structure::DaeSystem& system,
                         const std::vector<structure::EquationRef>& constraints) {
  std::string out;
  for (const auto& e : constraints) out += (out.empty() ? "\"" : ", \"") + system.name(e) + "\"";
  return out;
}
// The constraints of `from` that are not in `to`.
std::vector<structure::EquationRef> minus(const std::vector<structure::EquationRef>& from,
                                                 const std::vector<structure::EquationRef>& to) {
  std::vector<structure::EquationRef> out;
  for (const auto& e : from)
    if (std::find(to.begin(), to.end(), e) == to.end()) out.push_back(e);
  return out;
}
}  // namespace

bool Simulation::Impl::uses_dummy_derivatives() const {
  return structure.analysis.ok() && structure.analysis.dummy_plan.needed() && structure.selection &&
         structure.index1 && structure.index1->method == structure::ReductionMethod::dummy_derivatives;
}

simulation::SelectionValues& Simulation::Impl::selection_values_now() {
  if (!selection_values) {
    selection_values =
        std::make_unique<simulation::SelectionValues>(*model, *instances[0], dae, structure.analysis.system);
    reselect_values.reset();
  }
  return *selection_values;
}

void Simulation::Impl::select_dummy_derivatives_numerically() {
  if (!structure.analysis.ok() || !structure.analysis.dummy_plan.needed()) return;
  if (options.constraints != ConstraintMethod::dummy_derivatives) return;
  simulation::SelectionValues& values = selection_values_now();
  values.set_point(simulation::initial_point(*instances[0], dae, t_start));
  structure::StructureOutcome numeric = simulation::select_at_start(dae, structure, values, pipeline);
  if (!numeric.index1)
    throw Error(ErrorKind::structure, model->display_name() + ": structural analysis failed: " + numeric.analysis.error);
  const auto& system = numeric.analysis.system;
  const auto& plan = numeric.analysis.dummy_plan;
  if (!numeric.selection || !numeric.selection->success)
    throw Error(ErrorKind::structure,
                model->display_name() + ": t = " + format_number(t_start) +
                    ": no choice of dummy derivatives is nonsingular at the start point (" + values.source() +
                    "): " + (numeric.selection ? numeric.selection->error : std::string("no selection")) +
                    "; constraints " + simulation::constraint_names(system, plan) + ", candidate states " +
                    simulation::candidate_names(system, plan) +
                    " → check the start values (the constraints may be degenerate there), or run with "
                    "--constraints project");
  const auto& check = numeric.selection->structural_check;
  if (check && !check->kept && !numeric.selection->switched_off.empty())
    log_info(model->display_name() + ": t = " + format_number(t_start) + ": the structural choice of dummy derivatives {" +
             simulation::dummy_names(system, check->dummy_states) + "} does not apply here: " +
             quoted_names(system, numeric.selection->switched_off) +
             " switched off in the FMU's current mode (zero row and value, dependencies constant between events): "
             "replaced");
  else if (check && !check->kept)
    log_info(model->display_name() + ": t = " + format_number(t_start) + ": the structural choice of dummy derivatives {" +
             simulation::dummy_names(system, check->dummy_states) + "} has rcond " + format_number(check->rcond) +
             (check->rcond < values.rcond_floor() ? " (singular)" : "") + " here (" + values.source() +
             "): replaced");
  reselect_values.reset();
  selection_values.reset();  // it refers to the system being replaced
  retire_residuals();
  structure = std::move(numeric);
  model_state_select = structure.analysis.system.state_select;
  make_residuals();
  log_info(model->display_name() + ": dummy derivatives at t = " + format_number(t_start) + " (" +
           structure.selection->values_source + ", rcond " + format_number(structure.selection->rcond) + "): " +
           simulation::dummy_names(structure.analysis.system, structure.selection->dummy_states) +
           (structure.selection->switched_off.empty()
                ? std::string()
                : "; switched off in this mode: " +
                      quoted_names(structure.analysis.system, structure.selection->switched_off)));
}

bool Simulation::Impl::reselect_if_needed() {
  if (!uses_dummy_derivatives()) return false;
  return reselect_at(t_ida, integrator->y(), integrator->yp());
}

bool Simulation::Impl::reselect_at(double at, std::span<const double> y_at, std::span<const double> yp_at,
                                   bool at_event) {
  if (!uses_dummy_derivatives()) return false;
  const auto& current = structure.selection->dummy_states;
  const auto& current_off = structure.selection->switched_off;
  auto& system = structure.analysis.system;
  const auto& plan = structure.analysis.dummy_plan;
  simulation::SelectionValues& values = selection_values_now();
  if (!reselect_values) reselect_values = values.callback();
  values.set_point(point_at(at, y_at, yp_at));
  const structure::SelectionOptions selection_options = values.selection_options(pipeline.selection);
  auto stop = [&](const std::string& what, const std::string& todo) {
    throw Error(ErrorKind::solver, model->display_name() + ": t = " + format_number(at) + ": " + what +
                                       "; constraints " + simulation::constraint_names(system, plan) +
                                       ", candidate states " + simulation::candidate_names(system, plan) + " → " + todo);
  };
  if (!options.reselect) {
    // The monitor: the kept selection must stay nonsingular -- in the same
    // mode; a change of the switched-off constraints needs a new selection.
    structure::DummySelection kept =
        structure::check_dummy_selection(system, plan, *reselect_values, current, selection_options);
    if (kept.switched_off == current_off && (!kept.success || kept.rcond < values.rcond_floor()))
      stop("the dummy derivatives {" + simulation::dummy_names(system, current) + "} are numerically singular here (rcond " +
               format_number(kept.success ? kept.rcond : 0.0) + ", " + values.source() + ")",
           "drop --no-reselect so that lsdae re-selects them, or use --constraints project");
    if (kept.switched_off == current_off) return false;
  }
  // The preferences that keep the current dummies (avoid: stay dummies),
  // rebuilt only when the selection changed; swapped in for the call, so a
  // step costs no allocation and O(states), not O(states · dummies).
  // (Also when none were built yet: with no dummies -- every constraint
  // switched off -- `current` equals the initial empty reselect_preferences_for.)
  if (reselect_preferences_for != current || reselect_preferences.size() != system.state_select.size()) {
    reselect_preferences.assign(system.state_select.size(), structure::StateSelect::normal);
    for (const std::size_t s : current) reselect_preferences[s] = structure::StateSelect::avoid;
    reselect_preferences_for = current;
  }
  std::swap(system.state_select, reselect_preferences);
  structure::DummySelection selection;
  try {
    selection = structure::select_dummy_derivatives(system, plan, *reselect_values, selection_options);
  } catch (...) {
    std::swap(system.state_select, reselect_preferences);
    throw;
  }
  std::swap(system.state_select, reselect_preferences);
  if (!selection.success)
    stop("re-selecting the dummy derivatives failed (" + std::string(values.source()) + "): " + selection.error,
         "the constraints are degenerate here; check the model near this time, or use --constraints project");
  if (selection.rcond < values.rcond_floor())
    stop("the best choice of dummy derivatives, {" + simulation::dummy_names(system, selection.dummy_states) +
             "}, has rcond " + format_number(selection.rcond) + ", below " + format_number(values.rcond_floor()) + " (" +
             values.source() + ")",
         "the constraints are nearly dependent here; check the model near this time, or use --constraints project");
  if (selection.dummy_states == current && selection.switched_off == current_off) return false;

  // Switch at the step boundary: same variables, new roles.
  std::vector<double> y_end(y_at.begin(), y_at.end());  // may be y itself (at an event)
  std::vector<double> yp_end(yp_at.begin(), yp_at.end());
  std::swap(y, y_end);
  std::swap(yp, yp_end);
  VariableValues v = values_by_variable();
  std::string from = dummy_list(current), to = dummy_list(selection.dummy_states);
  if (from.empty()) from = "none";
  if (to.empty()) to = "none";
  const std::vector<structure::EquationRef> switched_on = minus(current_off, selection.switched_off);
  const std::vector<structure::EquationRef> switched_off = minus(selection.switched_off, current_off);
  std::string mode;
  if (!switched_on.empty()) mode += quoted_names(system, switched_on) + " switched on";
  if (!switched_off.empty()) mode += (mode.empty() ? "" : ", ") + quoted_names(system, switched_off) + " switched off";
  // A constraint the event switched on, with the point off it (a clutch that
  // locks with the speeds apart): the jump that conserves momentum, before
  // the new system's IDACalcIC (which would move the dummy states alone).
  if (at_event && !switched_on.empty()) reinitialize_switched_on(at, v);
  selection.values_source = values.source();
  structure::Index1System index1 = structure::index1_for_selection(structure.analysis, selection, pipeline.match_rows);
  structure::Pattern iteration = structure::iteration_pattern(system, index1);
  structure::Coloring coloring = structure::color_columns_best(iteration);
  retire_integrator();  // it refers to the old pattern and residuals
  retire_residuals();
  structure.index1 = std::move(index1);
  structure.iteration = std::move(iteration);
  structure.coloring = std::move(coloring);
  structure.selection = selection;
  make_residuals();
  make_integrator();
  load_values(v);
  ++stats.reselections;
  log_info(model->display_name() + ": t = " + format_number(at) + ": " + (mode.empty() ? "" : mode + " (the FMU's mode changed): ") +
           "dummy derivatives switched from {" + from + "} to {" + to + "} (rcond " + format_number(selection.rcond) + ")");
  restart(at);
  return true;
}

}  // namespace lsdae
