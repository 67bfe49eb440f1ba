// runtime/simulation/dummy_reselector.h -- the choice of dummy derivatives
// from the model's numbers, at the start and at run time (Mattsson &
// Söderlind, SIAM J. Sci. Comput. 14(3), 1993; the algorithm is
// structure/dummy_derivatives.h with the pivoting of
// structure/column_selection.h; the values come from dummy_selection.h:
// directional derivatives, or central finite differences when the FMU has
// none; docs/simulation/index-reduction.md, "Index reduction at run time"). A collaborator of
// lsdae::Simulation (simulation_impl.h), which applies what it decides.
//
// At the start (select_at_start, after the FMU's initialization, before IDA
// exists): create() could only choose from the structure. That choice is
// checked at the start point (its rcond) and the numeric selection is made
// there; when no choice is nonsingular (every candidate block's rcond below
// the floor of dummy_selection.h) the run stops: Error(structure), naming the
// constraints and the candidate states.
// At run time (choose, after an accepted step at IDA's own point, or at the
// post-event point): the selection is recomputed with the current dummies
// preferred (StateSelect::avoid keeps them dummies) unless that costs more
// than 1/preference_tolerance in a pivot -- the hysteresis that keeps the
// choice from flickering. A failed re-selection (the constraints lost rank
// here, or the best choice is below the floor) stops the run with
// Error(solver); so does, with --no-reselect, the kept selection falling
// below the floor (the monitor). Per mode: a constraint the FMU switches off
// in its current mode (dummy_selection.h) takes no row and no dummy; a change
// of the switched-off set is a switch too, also with --no-reselect.
//
// Owns: the selection values (a SelectionValues on instance 0 and the
// evaluation's DaeSystem, made on first use) and their Jacobian callback;
// the state preferences that keep the current dummies, and the selection
// they were built for (rebuilt only when it changes: a step costs no
// allocation and O(states), not O(states · dummies)).
// Invariants: the selection values refer to the evaluation's instance 0 and
// DaeSystem: forget_values() before the evaluation replaces its whole
// structure or its instances are reset. choose() leaves the evaluation's
// StateSelect preferences as they were (also when it throws).
#ifndef LSDAE_RUNTIME_SIMULATION_DUMMY_RESELECTOR_H
#define LSDAE_RUNTIME_SIMULATION_DUMMY_RESELECTOR_H

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "simulation/dummy_selection.h"
#include "simulation/model_evaluation.h"
#include "simulation/run_settings.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

class DummyReselector {
 public:
  // A change of the selection, for the simulation to apply at the step boundary.
  struct Switch {
    structure::DummySelection selection;  // the new one (values_source set)
    std::string from, to;                 // the dummies before and after ("none" when empty)
    std::string mode;                     // "\"g\" switched on, ..." when the FMU's mode changed, else ""
    std::vector<structure::EquationRef> switched_on;  // constraints the FMU's mode switched on
  };

  explicit DummyReselector(const RunSettings& settings) : settings_(settings) {}
  ~DummyReselector();

  // Whether the run uses dummy derivatives for a higher-index model.
  static bool active(const ModelEvaluation& evaluation);
  // The numeric selection at the start point (the instances hold it after
  // their initialization), with create()'s structural choice checked and a
  // note when it is replaced; nullopt when the model needs none or the
  // method is not dummy derivatives. The selection values are forgotten
  // (the caller replaces the structure with the result).
  std::optional<structure::StructureOutcome> select_at_start(ModelEvaluation& evaluation);
  // Logs the selection the evaluation uses at the start.
  void log_start_selection(const ModelEvaluation& evaluation) const;
  // The selection at (at, y, y') of the evaluation's index-1 system; nullopt
  // when the current one stays. Precondition: active(evaluation).
  std::optional<Switch> choose(ModelEvaluation& evaluation, double at, std::span<const double> y,
                               std::span<const double> yp);
  void forget_values();

 private:
  SelectionValues& values(ModelEvaluation& evaluation);

  const RunSettings& settings_;
  std::unique_ptr<SelectionValues> values_;  // at instance 0, for the evaluation's DaeSystem
  std::optional<structure::JacobianCallback> callback_;
  std::vector<structure::StateSelect> preferences_;  // avoid: the current dummies
  std::vector<std::size_t> preferences_for_;         // the dummies they were built for
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_DUMMY_RESELECTOR_H
