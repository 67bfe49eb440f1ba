// runtime/simulation/dummy_reselector.cpp -- see dummy_reselector.h.
#include "simulation/dummy_reselector.h"

#include <algorithm>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

namespace {
std::string quoted_names(const structure::DaeSystem& system, const std::vector<structure::EquationRef>& constraints) {
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

DummyReselector::~DummyReselector() = default;

bool DummyReselector::active(const ModelEvaluation& evaluation) {
  const structure::StructureOutcome& s = evaluation.structure();
  return s.analysis.ok() && s.analysis.dummy_plan.needed() && s.selection && s.index1 &&
         s.index1->method == structure::ReductionMethod::dummy_derivatives;
}

SelectionValues& DummyReselector::values(ModelEvaluation& evaluation) {
  if (!values_) {
    values_ = std::make_unique<SelectionValues>(evaluation.model(), evaluation.instance(0), evaluation.dae(),
                                                evaluation.system());
    callback_.reset();
  }
  return *values_;
}

void DummyReselector::forget_values() {
  callback_.reset();
  values_.reset();
}

std::optional<structure::StructureOutcome> DummyReselector::select_at_start(ModelEvaluation& evaluation) {
  const structure::StructureOutcome& structural = evaluation.structure();
  if (!structural.analysis.ok() || !structural.analysis.dummy_plan.needed()) return std::nullopt;
  if (settings_.options.constraints != ConstraintMethod::dummy_derivatives) return std::nullopt;
  const std::string& name = evaluation.model().display_name();
  const double t_start = settings_.t_start;
  SelectionValues& values = this->values(evaluation);
  values.set_point(initial_point(evaluation.instance(0), evaluation.dae(), t_start));
  structure::StructureOutcome numeric = simulation::select_at_start(evaluation.dae(), structural, values, settings_.pipeline);
  if (!numeric.index1)
    throw Error(ErrorKind::structure, name + ": structural analysis failed: " + numeric.analysis.error);
  const auto& system = numeric.analysis.system;
  const auto& plan = numeric.analysis.dummy_plan;
  if (!numeric.selection || !numeric.selection->success)
    throw Error(ErrorKind::structure,
                name + ": t = " + format_number(t_start) +
                    ": no choice of dummy derivatives is nonsingular at the start point (" + values.source() +
                    "): " + (numeric.selection ? numeric.selection->error : std::string("no selection")) +
                    "; constraints " + constraint_names(system, plan) + ", candidate states " +
                    candidate_names(system, plan) +
                    " → check the start values (the constraints may be degenerate there), or run with "
                    "--constraints project");
  const auto& check = numeric.selection->structural_check;
  if (check && !check->kept && !numeric.selection->switched_off.empty())
    log_info(name + ": t = " + format_number(t_start) + ": the structural choice of dummy derivatives {" +
             dummy_names(system, check->dummy_states) + "} does not apply here: " +
             quoted_names(system, numeric.selection->switched_off) +
             " switched off in the FMU's current mode (zero row and value, dependencies constant between events): "
             "replaced");
  else if (check && !check->kept)
    log_info(name + ": t = " + format_number(t_start) + ": the structural choice of dummy derivatives {" +
             dummy_names(system, check->dummy_states) + "} has rcond " + format_number(check->rcond) +
             (check->rcond < values.rcond_floor() ? " (singular)" : "") + " here (" + values.source() +
             "): replaced");
  forget_values();  // they refer to the system being replaced
  return numeric;
}

void DummyReselector::log_start_selection(const ModelEvaluation& evaluation) const {
  const structure::StructureOutcome& s = evaluation.structure();
  log_info(evaluation.model().display_name() + ": dummy derivatives at t = " + format_number(settings_.t_start) +
           " (" + s.selection->values_source + ", rcond " + format_number(s.selection->rcond) +
           "): " + dummy_names(s.analysis.system, s.selection->dummy_states) +
           (s.selection->switched_off.empty()
                ? std::string()
                : "; switched off in this mode: " + quoted_names(s.analysis.system, s.selection->switched_off)));
}

std::optional<DummyReselector::Switch> DummyReselector::choose(ModelEvaluation& evaluation, double at,
                                                               std::span<const double> y_at,
                                                               std::span<const double> yp_at) {
  const structure::StructureOutcome& outcome = evaluation.structure();
  const auto& current = outcome.selection->dummy_states;
  const auto& current_off = outcome.selection->switched_off;
  const structure::DaeSystem& system = evaluation.system();
  const auto& plan = outcome.analysis.dummy_plan;
  SelectionValues& values = this->values(evaluation);
  if (!callback_) callback_ = values.callback();
  values.set_point(evaluation.point_at(at, y_at, yp_at));
  const structure::SelectionOptions selection_options = values.selection_options(settings_.pipeline.selection);
  auto stop = [&](const std::string& what, const std::string& todo) {
    throw Error(ErrorKind::solver, evaluation.model().display_name() + ": t = " + format_number(at) + ": " + what +
                                       "; constraints " + constraint_names(system, plan) + ", candidate states " +
                                       candidate_names(system, plan) + " → " + todo);
  };
  if (!settings_.options.reselect) {
    // The monitor: the kept selection must stay nonsingular -- in the same
    // mode; a change of the switched-off constraints needs a new selection.
    structure::DummySelection kept =
        structure::check_dummy_selection(system, plan, *callback_, current, selection_options);
    if (kept.switched_off == current_off && (!kept.success || kept.rcond < values.rcond_floor()))
      stop("the dummy derivatives {" + dummy_names(system, current) + "} are numerically singular here (rcond " +
               format_number(kept.success ? kept.rcond : 0.0) + ", " + values.source() + ")",
           "drop --no-reselect so that lsdae re-selects them, or use --constraints project");
    if (kept.switched_off == current_off) return std::nullopt;
  }
  // The preferences that keep the current dummies (avoid: stay dummies),
  // rebuilt only when the selection changed; swapped in for the call.
  // (Also when none were built yet: with no dummies -- every constraint
  // switched off -- `current` equals the initial empty preferences_for_.)
  if (preferences_for_ != current || preferences_.size() != system.state_select.size()) {
    preferences_.assign(system.state_select.size(), structure::StateSelect::normal);
    for (const std::size_t s : current) preferences_[s] = structure::StateSelect::avoid;
    preferences_for_ = current;
  }
  structure::DummySelection selection =
      evaluation.with_state_preferences(preferences_, [&](const structure::DaeSystem& preferring) {
        return structure::select_dummy_derivatives(preferring, plan, *callback_, selection_options);
      });
  if (!selection.success)
    stop("re-selecting the dummy derivatives failed (" + std::string(values.source()) + "): " + selection.error,
         "the constraints are degenerate here; check the model near this time, or use --constraints project");
  if (selection.rcond < values.rcond_floor())
    stop("the best choice of dummy derivatives, {" + dummy_names(system, selection.dummy_states) + "}, has rcond " +
             format_number(selection.rcond) + ", below " + format_number(values.rcond_floor()) + " (" +
             values.source() + ")",
         "the constraints are nearly dependent here; check the model near this time, or use --constraints project");
  if (selection.dummy_states == current && selection.switched_off == current_off) return std::nullopt;

  Switch change;
  change.from = evaluation.dummy_list(current);
  change.to = evaluation.dummy_list(selection.dummy_states);
  if (change.from.empty()) change.from = "none";
  if (change.to.empty()) change.to = "none";
  change.switched_on = minus(current_off, selection.switched_off);
  const std::vector<structure::EquationRef> switched_off = minus(selection.switched_off, current_off);
  if (!change.switched_on.empty()) change.mode += quoted_names(system, change.switched_on) + " switched on";
  if (!switched_off.empty())
    change.mode += (change.mode.empty() ? "" : ", ") + quoted_names(system, switched_off) + " switched off";
  selection.values_source = values.source();
  change.selection = std::move(selection);
  return change;
}

}  // namespace lsdae::simulation
