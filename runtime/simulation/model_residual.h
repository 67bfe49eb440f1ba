// runtime/simulation/model_residual.h -- IDA's residual G(t, y, y') evaluated by
// one instance of the model (lsdae::Model: a single FMU's own instance, or a
// System's composite instance), for an index-1 system of lsdae::structure.
//
// Unknowns (structure::Index1System::unknowns): a differential state i has
// y_k = x_i, y'_k = ẋ_i; a dummy state has y_k = x_s (algebraic) and its dummy
// derivative y_l = ẋ_s (algebraic); z_j is algebraic. Rows
// (Index1System::rows): a residual formulation or invariant is read from its
// Float64 variable; a semi-explicit state equation i is ẋ_i − f_i with f from
// fmi3GetContinuousStateDerivatives.
//
// One evaluation is a fixed sequence of bulk calls, value-reference arrays
// prepared once, no allocation:
//   fmi3SetTime, fmi3SetContinuousStates (all x), fmi3SetFloat64 (z),
//   fmi3SetFloat64 (ẋ; fully implicit form only), fmi3GetFloat64 (residual
//   rows), fmi3GetContinuousStateDerivatives (semi-explicit state rows).
// fmi3Discard makes the evaluation `recoverable`; fmi3Error/fmi3Fatal throw
// lsdae::Error (caught by the integrator and re-thrown after IDA returns).
//
// Both fully implicit forms (runtime/import/dae_form.h) evaluate alike: in the
// OpenModelica form ẋ_i goes to the derivative variable of the core
// modelDescription.xml (its `derivative` attribute names x_i) although the
// manifest's dependencies name only x_i.
//
// Synthesized rows (ModelDae::synthesized, model_dae.h): computed by
// ConstraintSynthesis (constraint_synthesis.h) from the FMU's residual
// variables at (t, x, ẋ) before the point is written for the other rows;
// its extra evaluations are counted apart (synthesis_evaluations()). They
// have no directional derivatives: has_jacobian_columns() is false then, and
// the integrator uses finite differences of the residual (whose entries for
// a synthesized row are nested differences, noisy at about ε^(1/6) relative
// for a central-difference row: good enough for a Newton matrix, which is
// all they are used for).
//
// jacobian_columns (not in the OpenModelica form, where the FMU cannot tell
// x from ẋ: finite differences there): one fmi3GetDirectionalDerivative per call, with the
// knowns of the requested columns seeded (x_i with 1 and, fully implicit,
// ẋ_i with cj; z_j, dummy x_s and ẋ_s with 1) and every row's variable as
// unknowns (plus the derivatives in the semi-explicit form, whose rows add
// cj or 1 for their own ẋ). jacobian_columns_split seeds the y part and the
// y' part with separate factors and leaves out the knowns seeded with 0.
#ifndef LSDAE_RUNTIME_SIMULATION_MODEL_RESIDUAL_H
#define LSDAE_RUNTIME_SIMULATION_MODEL_RESIDUAL_H

#include <vector>

#include "kernels/residual_function.h"
#include "lsdae/instance.h"
#include "simulation/constraint_synthesis.h"
#include "simulation/model_dae.h"
#include "simulation/input_table.h"
#include "structure/dae_system.h"
#include "structure/index1_system.h"

namespace lsdae::simulation {

class ModelResidual final : public kernels::ResidualFunction {
 public:
  // All references must outlive this object.
  ModelResidual(Instance& instance, const ModelDae& dae, const structure::DaeSystem& system,
              const structure::Index1System& index1);

  std::size_t size() const override { return unknowns_.size(); }
  kernels::EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp,
                               std::span<double> r) override;
  bool has_jacobian_columns() const override {
    return instance_.provides_directional_derivatives() && synthesis_.empty() && directional_trusted_;
  }
  // Semi-explicit form without synthesized rows: ∂G/∂y' is 1 at each state
  // row's own ẋ_i (a differential unknown) and 0 elsewhere, whatever the FMU
  // computes. Fully implicit forms and synthesized rows: not known (false).
  bool known_derivative_part(std::vector<DerivativeEntry>& out) const override;
  // After the FMU's directional derivatives were found wrong
  // (jacobian_claims.h): has_jacobian_columns() is false from then on, so
  // the Jacobian and a linear elimination take finite differences.
  void distrust_directional() { directional_trusted_ = false; }
  kernels::EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                                       std::span<const std::size_t> columns, std::span<double> jv) override;
  kernels::EvalStatus jacobian_columns_split(double t, std::span<const double> y, std::span<const double> yp,
                                             double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                             std::span<double> jv) override;
  // The FMU asked for the sensitivities of the variables of `rows` only
  // (fmi3GetDirectionalDerivative with those unknowns), and with
  // `same_point` the point not written again: O(rows) per call on this side
  // instead of O(unknowns).
  kernels::EvalStatus jacobian_columns_at_rows(double t, std::span<const double> y, std::span<const double> yp,
                                               double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                               std::span<const std::size_t> rows, bool same_point,
                                               std::span<double> jv) override;

  // The values the invariant rows keep (per DaeInput invariant): an invariant
  // row is I_i − value_i, so it vanishes where the invariant has the value it
  // had after initialization (not where I_i = 0). Default: 0.
  void set_invariant_values(std::span<const double> per_invariant);

  // Writes (t, y, y') into the instance without reading anything: afterwards
  // the instance's outputs and locals belong to that point.
  kernels::EvalStatus apply(double t, std::span<const double> y, std::span<const double> yp);

  // The states and state derivatives at (y, y') in Fmu::states() order.
  void states_from(std::span<const double> y, std::span<const double> yp, std::span<double> x,
                   std::span<double> xdot) const;
  Instance& instance() { return instance_; }
  // Time-varying inputs (input_table.h) whose continuous columns are set
  // at every evaluation after the time; null: none. Must outlive this.
  void set_inputs(const InputTable* inputs) {
    inputs_ = inputs && inputs->has_continuous() ? inputs : nullptr;
    synthesis_.set_inputs(inputs_);
  }
  const InputTable* inputs() const { return inputs_; }
  std::size_t calls() const { return calls_; }
  // Evaluations of the FMU made for the synthesized rows (2 per call with
  // one-level rows; constraint_synthesis.h for two levels).
  std::size_t synthesis_evaluations() const { return synthesis_.evaluations(); }
  // While one lives, the synthesis evaluations are not counted: the checks
  // of the FMU's claims (jacobian_claims.h) evaluate through it, so the
  // run's counters are what the run itself spent.
  class Uncounted {
   public:
    explicit Uncounted(ModelResidual& r) : r_(r), was_(r.synthesis_.counting()) { r_.synthesis_.set_counting(false); }
    ~Uncounted() { r_.synthesis_.set_counting(was_); }
    Uncounted(const Uncounted&) = delete;
    Uncounted& operator=(const Uncounted&) = delete;

   private:
    ModelResidual& r_;
    bool was_;
  };

 private:
  // jacobian_columns_split (rows empty: every row) and jacobian_columns_at_rows.
  kernels::EvalStatus directional(double t, std::span<const double> y, std::span<const double> yp, double y_seed,
                                  double yp_seed, std::span<const std::size_t> columns,
                                  std::span<const std::size_t> rows, bool same_point, std::span<double> jv);
  enum class RowKind : unsigned char { model_variable, state_equation, synthesized };
  struct Row {
    RowKind kind;
    std::size_t index;  // position in row_vrs_ (model_variable), state index (state_equation) or in synth_vrs_
  };
  Instance& instance_;
  bool fully_implicit_;
  bool state_stands_for_derivative_;  // OpenModelica form: no directional derivatives
  std::vector<structure::IdaUnknown> unknowns_;
  ConstraintSynthesis synthesis_;     // the synthesized rows
  std::vector<double> synth_values_;  // their values at the current call
  std::vector<std::size_t> x_from_;     // per state: unknown index holding x_i
  std::vector<std::size_t> xdot_from_;  // per state: unknown index holding ẋ_i
  std::vector<bool> xdot_in_yp_;        // per state: ẋ_i is y'[k] (differential) or y[k] (dummy)
  std::vector<std::size_t> z_from_;     // per algebraic: unknown index
  std::vector<Row> rows_;
  std::vector<std::size_t> invariant_row_invariant_;  // rows that are invariants: their invariant index
  std::vector<std::size_t> invariant_row_;            // … and their row
  std::vector<double> invariant_offset_;              // … and the value subtracted
  std::vector<ValueReference> state_vrs_, derivative_vrs_, algebraic_vrs_, row_vrs_;
  std::vector<double> x_, xdot_, z_, row_values_, f_;
  std::vector<ValueReference> known_vrs_, unknown_vrs_, asked_vrs_;
  std::vector<double> seeds_, sensitivity_;
  bool directional_trusted_ = true;  // distrust_directional()
  std::vector<double> direct_;  // semi-explicit: the ẋ part of a state row's column sum
  std::size_t calls_ = 0;
  const InputTable* inputs_ = nullptr;
  // The common case without dummy derivatives: y = [x; z] and y' = [ẋ; ·] in
  // the FMU's own order, so the spans go to the FMU without a gather copy.
  bool natural_unknowns_ = false;
  // Rows [state_rows_, size) read residual variables 0, 1, ... in order: they
  // are fetched straight into r (state_rows_ leading state equations first).
  bool natural_rows_ = false;
  std::size_t state_rows_ = 0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_MODEL_RESIDUAL_H
