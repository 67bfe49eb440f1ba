// runtime/simulation/simulation_structure.cpp -- Simulation::Impl: a new
// index-1 system, composed from the collaborators (simulation_impl.h).
//
// Whoever refers to the evaluation's residuals or structure goes first and
// comes back after: the projector (rebuild_residuals), the integrator
// (make_integrator). A new dummy-derivative selection (the numeric one at
// the start, a switch at run time: dummy_reselector.h decides, this file
// applies) replaces the evaluation's structure between the two. At a switch
// the point is carried over by variable (same variables, new roles) and IDA
// restarts at the step boundary; stats.reselections counts switches. When an
// event switched a constraint ON with the point off it, the point is first
// re-initialized over the impulse (projection_controller.h: momentum conserved).
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"
#include "structure/iteration_pattern.h"

namespace lsdae {

void Simulation::Impl::rebuild_residuals() {
  projection.retire();
  evaluation->make_residuals();
  projection.make(*evaluation, session.trusts_directional());
}

void Simulation::Impl::make_integrator() {
  session.retire();
  if (settings->options.uncolored_jacobian) evaluation->color_one_per_column();
  simulation::StepProjection step_projection;
  if (projection.projects_in_step())
    step_projection = [this](double at, std::span<double> yy, std::span<const double> yyp,
                             std::span<const double> weights) { return projection.project_in_step(at, yy, yyp, weights); };
  session.make(*evaluation, std::move(step_projection), projection.active());
  // The claims check (in make) found the FMU's directional derivatives wrong:
  // the projector takes dC/dx by finite differences (its step projection
  // refers to the controller, which keeps referring to the new projector).
  if (projection.uses_directional() && !session.trusts_directional()) projection.make(*evaluation, false);
}

void Simulation::Impl::restart(double at) {
  session.set_stop_time(events.stop_time());
  session.restart(at);
}

void Simulation::Impl::select_dummy_derivatives_at_start() {
  std::optional<structure::StructureOutcome> numeric = reselector.select_at_start(*evaluation);
  if (!numeric) return;
  projection.retire();
  evaluation->retire_residuals();
  evaluation->replace_structure(std::move(*numeric));
  rebuild_residuals();
  reselector.log_start_selection(*evaluation);
}

bool Simulation::Impl::reselect_after_step() {
  if (!simulation::DummyReselector::active(*evaluation)) return false;
  const simulation::IdaIntegrator& integrator = session.integrator();
  return reselect_at(session.ida_time(), integrator.y(), integrator.yp());
}

bool Simulation::Impl::reselect_at(double at, std::span<const double> y_at, std::span<const double> yp_at,
                                   bool at_event) {
  if (!simulation::DummyReselector::active(*evaluation)) return false;
  std::optional<simulation::DummyReselector::Switch> change = reselector.choose(*evaluation, at, y_at, yp_at);
  if (!change) return false;
  switch_selection(at, std::move(*change), y_at, yp_at, at_event);
  return true;
}

void Simulation::Impl::switch_selection(double at, simulation::DummyReselector::Switch change,
                                        std::span<const double> y_at, std::span<const double> yp_at,
                                        bool at_event) {
  // Switch at the step boundary: same variables, new roles. The run holds
  // the point (at, y_at, yp_at) while the system is rebuilt (y_at may be the
  // session's own point: copied before it is replaced).
  simulation::DaePoint v = evaluation->point_at(at, y_at, yp_at);
  session.set_point(std::vector<double>(y_at.begin(), y_at.end()), std::vector<double>(yp_at.begin(), yp_at.end()));
  // A constraint the event switched on, with the point off it (a clutch that
  // locks with the speeds apart): the jump that conserves momentum, before
  // the new system's IDACalcIC (which would move the dummy states alone).
  if (at_event && !change.switched_on.empty()) projection.reinitialize_switched_on(*evaluation, at, v);
  const double rcond = change.selection.rcond;
  structure::Index1System index1 = structure::index1_for_selection(evaluation->structure().analysis, change.selection,
                                                                   settings->pipeline.match_rows);
  structure::Pattern iteration = structure::iteration_pattern(evaluation->system(), index1);
  structure::Coloring coloring = structure::color_columns_best(iteration);
  session.retire();  // it refers to the old pattern and residuals
  projection.retire();
  evaluation->retire_residuals();
  evaluation->replace_selection(std::move(index1), std::move(iteration), std::move(coloring),
                                std::move(change.selection));
  rebuild_residuals();
  // The new system's point before its integrator: make() checks the FMU's
  // claims there (jacobian_claims.h), over the new selection's unknowns --
  // the old point may have another length.
  std::vector<double> y, yp;
  evaluation->to_unknowns(v, y, yp);
  session.set_point(std::move(y), std::move(yp));
  make_integrator();
  ++stats.reselections;
  log_info(evaluation->model().display_name() + ": t = " + format_number(at) + ": " +
           (change.mode.empty() ? "" : change.mode + " (the FMU's mode changed): ") +
           "dummy derivatives switched from {" + change.from + "} to {" + change.to + "} (rcond " +
           format_number(rcond) + ")");
  restart(at);
}

}  // namespace lsdae
