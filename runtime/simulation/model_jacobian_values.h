// runtime/simulation/model_jacobian_values.h -- the numeric values the
// dummy-derivative selection asks for (structure::JacobianCallback), from an
// instance of the model, by directional derivatives or, for a model without
// them, by coloured central finite differences.
//
// Each requested entry is ∂(row)/∂(column) for a formulation or invariant
// row and a column ẋ_i, x_i or z_j. A semi-explicit state equation ẋ_i − f_i
// gives 1 for its own ẋ_i, 0 for another ẋ_j and −∂f_i/∂column otherwise
// (f_i from fmi3GetContinuousStateDerivatives, or the derivative variable as
// an unknown of a directional derivative).
//
// Directional (model_jacobian_values): entries arrive sorted by column, so one
// fmi3GetDirectionalDerivative per distinct column serves all of them: the
// column's variable is the only known (seed 1), the rows' variables are the
// unknowns. Exact. Precondition: the instance provides directional
// derivatives and is at the point of interest (Initialization, Event or
// Continuous-Time Mode).
//
// Finite differences (FiniteDifferenceJacobianValues): the columns are
// coloured greedily so that no two columns of a colour share a requested row
// (Curtis, Powell & Reid 1974, as the IDA Jacobian of
// kernels/compressed_jacobian.h); per colour the point is written twice,
// every column of the colour moved by +h_c and by −h_c, and the requested
// rows read: ∂row/∂c = (row(+) − row(−)) / (2 h_c). Increment
// h_c = ε^(1/3) · max(|v_c|, nominal_c), the step that balances the O(h²)
// truncation error against the O(ε/h) rounding error of central
// differences: entries come out with a relative error of about ε^(2/3)
// ≈ 4e-11 of the row's scale (the choice of dummies needs pivots and a
// condition estimate, not a Newton matrix, so accuracy is worth the second
// evaluation). The point (t, x, ẋ, z) is the caller's (set_point()), written
// in full before every evaluation and again at the end, so the instance is
// left at that point. Cost per call: 2 × colours evaluations (one
// fmi3SetTime, fmi3SetContinuousStates, fmi3SetFloat64 of z and, fully
// implicit, ẋ, then one fmi3GetFloat64 of the rows and, semi-explicit, one
// fmi3GetContinuousStateDerivatives), + 1 to restore the point.
// Errors: fmi3Discard from the FMU throws Error(fmu_call) naming the selection.
#ifndef LSDAE_RUNTIME_SIMULATION_MODEL_JACOBIAN_VALUES_H
#define LSDAE_RUNTIME_SIMULATION_MODEL_JACOBIAN_VALUES_H

#include <span>
#include <vector>

#include "lsdae/instance.h"
#include "simulation/model_dae.h"
#include "structure/dae_system.h"
#include "structure/dummy_derivatives.h"

namespace lsdae::simulation {

// The callback keeps references to its arguments.
structure::JacobianCallback model_jacobian_values(Instance& instance, const ModelDae& dae,
                                                const structure::DaeSystem& system);

class FiniteDifferenceJacobianValues {
 public:
  // `column_nominal`: per DaeSystem column (ẋ, x, z blocks), the magnitude
  // floor of the increment (> 0). References must outlive this object.
  FiniteDifferenceJacobianValues(Instance& instance, const ModelDae& dae, const structure::DaeSystem& system,
                                 std::vector<double> column_nominal);
  void set_point(DaePoint point) { point_ = std::move(point); }
  const DaePoint& point() const { return point_; }
  void operator()(std::span<const structure::JacobianEntry> entries, std::span<double> values);
  long evaluations() const { return evaluations_; }

 private:
  void write(const DaePoint& p);
  Instance& instance_;
  const ModelDae& dae_;
  const structure::DaeSystem& system_;
  std::vector<double> column_nominal_;
  DaePoint point_, work_;
  long evaluations_ = 0;
};

// A callback that forwards to `values` (kept by reference).
structure::JacobianCallback as_callback(FiniteDifferenceJacobianValues& values);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_MODEL_JACOBIAN_VALUES_H
