// runtime/simulation/model_evaluation.h -- the model side of one run: the
// model's instances, the DAE they form (model_dae.h), its current index-1
// system, and IDA's residual evaluated by each instance (model_residual.h).
// A collaborator of lsdae::Simulation (simulation_impl.h).
//
// Owns: the instances (one per Jacobian thread); the ModelDae; the structural
// outcome in use (the index-1 system, its iteration pattern and colouring,
// the dummy-derivative selection) and create()'s outcome, kept for reset();
// one ModelResidual per instance; the nominal of each IDA unknown; the values
// the invariants keep; the --input table; the values set before initialize();
// the fmi3Discard counts at the last output point.
//
// Invariants (what the other collaborators may rely on):
//   - residuals().size() == instance_count(); residual i evaluates through
//     instance i, for structure().index1, dae() and structure().analysis.system.
//     The structure is replaced only through replace_structure() or
//     replace_selection(), each after retire_residuals(); make_residuals()
//     then makes them anew (and the nominals with them). Whoever keeps a
//     reference to a residual, the system or the index-1 system (the
//     integrator, the projector, the selection values) drops it first.
//   - nominal() has one entry per IDA unknown of the current index-1 system
//     once residuals exist.
//   - Every instance has been driven through the same calls, so any of them
//     can evaluate any point; instance 0 is the one outputs are read from.
//   - Every residual holds the input table (when there is one) and the
//     current invariant values.
// Cost: point_at() and to_unknowns() are O(unknowns) and allocate their
// result; the residuals allocate nothing per evaluation.
#ifndef LSDAE_RUNTIME_SIMULATION_MODEL_EVALUATION_H
#define LSDAE_RUNTIME_SIMULATION_MODEL_EVALUATION_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/residual_function.h"
#include "lsdae/instance.h"
#include "lsdae/values.h"
#include "simulation/input_table.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "simulation/run_settings.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

class RunSnapshotStore;  // run_snapshot.h

class ModelEvaluation {
 public:
  // `settings` must outlive this object. `created`: create()'s outcome when a
  // run may replace it (reset() restores it), else null.
  ModelEvaluation(const RunSettings& settings, ModelDae dae, structure::StructureOutcome structure,
                  std::shared_ptr<const structure::StructureOutcome> created,
                  std::vector<std::unique_ptr<Instance>> instances);
  ModelEvaluation(const ModelEvaluation&) = delete;
  ModelEvaluation& operator=(const ModelEvaluation&) = delete;

  const Model& model() const { return *settings_.model; }
  const ModelDae& dae() const { return dae_; }
  const structure::StructureOutcome& structure() const { return structure_; }
  const structure::DaeSystem& system() const { return structure_.analysis.system; }
  const structure::Index1System& index1() const { return *structure_.index1; }
  std::size_t unknowns() const { return structure_.index1->unknowns.size(); }

  // ---- instances and residuals
  std::size_t instance_count() const { return instances_.size(); }
  Instance& instance(std::size_t i) { return *instances_[i]; }
  ModelResidual& residual(std::size_t i) { return *residuals_[i]; }
  // The residuals as the Jacobian's evaluation pool.
  std::vector<kernels::ResidualFunction*> residual_pool();
  // One residual per instance for the current index-1 system (the old ones
  // retired), and the nominals.
  void make_residuals();
  // Drops the residuals, keeping their synthesis counts.
  void retire_residuals();
  // FMU evaluations for synthesized rows, of retired and current residuals
  // (the checks of the FMU's claims evaluate uncounted: jacobian_claims.h).
  long synthesis_evaluations() const;

  // ---- the structure in use (replace after retire_residuals(), then make_residuals())
  // The whole outcome (the numeric selection at the start).
  void replace_structure(structure::StructureOutcome outcome);
  // A new dummy-derivative selection: its index-1 system, pattern and colouring.
  void replace_selection(structure::Index1System index1, structure::Pattern iteration,
                         structure::Coloring coloring, structure::DummySelection selection);
  // --uncolored-jacobian: every column its own colour (one evaluation per unknown).
  void color_one_per_column();
  // Runs f() with the system's StateSelect preferences swapped for
  // `preferences` (a re-selection that prefers the current dummies); swapped
  // back after, also when f throws. No allocation.
  template <class F>
  auto with_state_preferences(std::vector<structure::StateSelect>& preferences, F&& f);
  // Back to create()'s state for the next run (Simulation::reset): the
  // residuals dropped, every instance reset (fmi3Reset), create()'s structure,
  // no invariants, inputs, set values or fault marks. make_residuals() next.
  void reset_for_next_run();

  // ---- names for messages
  const Variable& variable(const std::string& name) const;  // Error(usage) when there is none
  std::string unknown_name(std::size_t k) const;            // IDA unknown k
  std::string row_name(std::size_t k) const;                // IDA row k
  // What the FMU returned for row k, for messages about a NaN in it.
  std::string row_value_name(std::size_t k) const;
  // Column names of `states` (state indices), comma-separated.
  std::string dummy_list(const std::vector<std::size_t>& states) const;

  // ---- points: IDA's unknowns ↔ values by variable
  const std::vector<double>& nominal() const { return nominal_; }
  double nominal_of(std::size_t k) const { return k < nominal_.size() ? nominal_[k] : 1.0; }
  // The point (t, y, y') of the current index-1 system, by variable: what
  // survives a change of the index-1 system.
  DaePoint point_at(double t, std::span<const double> y, std::span<const double> yp) const;
  // y, y' of the current index-1 system from values by variable (t is not used).
  void to_unknowns(const DaePoint& v, std::vector<double>& y, std::vector<double>& yp) const;
  // The event indicators at (t, y, y') from instance 0: 0, or -1 when the FMU refused.
  int event_indicators(double t, std::span<const double> y, std::span<const double> yp, std::span<double> g);

  // ---- invariants: the values they keep (read after initialization and events)
  // Reads them from instance 0 (at the point it holds, time t) and hands them
  // to the residuals; false when the model has no invariants (nothing read).
  // Error(fmu_call) when discarded or not finite.
  bool read_invariant_values(double t);
  std::span<const double> invariant_values() const { return invariant_values_; }

  // ---- inputs and values set before initialize()
  void set_inputs(InputTable table);
  InputTable* inputs() { return inputs_ ? &*inputs_ : nullptr; }
  // A whole variable's value, or (element) one element of an array variable,
  // the others at their start values; the last given wins.
  void set_value(const Variable& v, Values value);
  void set_element(const Variable& v, std::size_t element, const Values& one);
  // The values set, in the order first given, onto `instance`; Error(fmu_call)
  // naming the variable when the FMU refuses one.
  void apply_set_values(Instance& instance) const;
  // Forgets them (Simulation::set while paused at an event: the next values are that event's).
  void clear_set_values() { set_values_.clear(); }

  // ---- snapshots of runs on these instances (run_snapshot.h), kept across reset_for_next_run
  RunSnapshotStore& snapshots() { return *snapshots_; }

  // ---- faults counted since the last output point
  // Marks the instances' fmi3Discard counts at time t.
  void mark_faults(double t);
  // "fmi3GetFloat64 (instance "lsdae") returned fmi3Discard 40 times since t = ..." or "".
  std::string discard_report() const;

 private:
  std::vector<double> compute_nominals() const;

  const RunSettings& settings_;
  ModelDae dae_;
  structure::StructureOutcome structure_;
  std::shared_ptr<const structure::StructureOutcome> created_structure_;
  std::vector<std::unique_ptr<Instance>> instances_;
  std::vector<std::unique_ptr<ModelResidual>> residuals_;
  long retired_synthesis_evaluations_ = 0;  // of residuals replaced by make_residuals()
  std::vector<double> nominal_;             // per IDA unknown
  // The value each invariant keeps (per DaeInput invariant): invariant rows
  // and projection constraints are I − invariant_values_.
  std::vector<double> invariant_values_;
  std::optional<InputTable> inputs_;  // --input: time-varying inputs
  // Values given with set() before initialize(), whole variables, in the order first given.
  std::vector<std::pair<const Variable*, Values>> set_values_;
  // fmi3Discard counts of the instances at the last output point (mark_faults).
  std::vector<std::uint64_t> discard_marks_;
  double fault_mark_time_ = 0;
  std::shared_ptr<RunSnapshotStore> snapshots_;  // after instances_: freed before them
};

template <class F>
auto ModelEvaluation::with_state_preferences(std::vector<structure::StateSelect>& preferences, F&& f) {
  auto& state_select = structure_.analysis.system.state_select;
  std::swap(state_select, preferences);
  try {
    auto result = f(std::as_const(structure_.analysis.system));
    std::swap(state_select, preferences);
    return result;
  } catch (...) {
    std::swap(state_select, preferences);
    throw;
  }
}

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_MODEL_EVALUATION_H
