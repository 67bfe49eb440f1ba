// models/powergrid/power_flow.h -- AC power flow by Newton–Raphson in polar
// coordinates, sparse, with KLU.
//
// Unknowns: the angles of PV and PQ buses and the magnitudes of PQ buses.
// Equations: the active power mismatch at PV and PQ buses and the reactive
// mismatch at PQ buses, S(V) = V ∘ conj(Ybus V) − (S_gen − S_load)/baseMVA.
// The Jacobian blocks are MATPOWER's dSbus_dV (polar):
//     ∂S/∂|V| = diag(V) conj(Ybus diag(V/|V|)) + conj(diag(I)) diag(V/|V|)
//     ∂S/∂θ   = j diag(V) conj(diag(I) − Ybus diag(V)),        I = Ybus V
// Reference: W. F. Tinney, C. E. Hart, "Power flow solution by Newton's
// method", IEEE Trans. PAS-86(11), 1967; MATPOWER newtonpf.m / dSbus_dV.m.
//
// Bus types follow MATPOWER's bustypes.m: a PV or slack bus without an
// in-service generator is solved as PQ; without any slack the first PV bus
// becomes the slack. Voltage set points are the VG of the in-service
// generators (the last one at a bus wins, as in MATPOWER). Taps, phase
// shifters and out-of-service branches and generators enter through Ybus and
// S_gen. Generator reactive limits (QMAX, QMIN) are NOT enforced: a PV bus
// stays PV whatever reactive power it needs.
//
// Cost per iteration: one sparse Jacobian assembly O(nnz(Ybus)) and one KLU
// factorization (analyzed once, refactored afterwards; see klu_solver.h).
#ifndef LSDAE_MODELS_POWERGRID_POWER_FLOW_H
#define LSDAE_MODELS_POWERGRID_POWER_FLOW_H

#include <complex>
#include <string>
#include <vector>

#include "powergrid/matpower_case.h"
#include "powergrid/ybus.h"

namespace lsdae::powergrid {

struct PowerFlowOptions {
  double tolerance = 1e-10;  // on the largest power mismatch, p.u. on baseMVA
  int max_iterations = 30;
  // Give up (converged = false) once the mismatch exceeds this: Newton has
  // left the region of convergence and further steps only cost time.
  double divergence = 1e8;
  // Start from |V| = 1 (set points at PV and slack buses), θ = 0 (the slack
  // keeps its VA); otherwise from the VM, VA stored in the case (as MATPOWER).
  bool flat_start = true;
  // Newton steps taken after the tolerance is met, each kept only if it
  // lowers the mismatch: quadratic convergence then usually reaches rounding
  // level, which the model's initial residuals need.
  int polish_steps = 1;
};

struct PowerFlowResult {
  bool converged = false;
  bool singular = false;           // the Jacobian could not be factored (converged = false)
  int iterations = 0;              // Newton steps taken to meet the tolerance (polishing not counted)
  double mismatch = 0;             // largest |mismatch| at the end, p.u.
  std::vector<double> history;     // largest |mismatch| before each step and at the end
  std::vector<Complex> voltage;    // per bus (file order), p.u.
  std::vector<Complex> injection;  // per bus: V conj(Ybus V), net injected power, p.u.
  std::vector<BusType> solved_as;  // per bus: the type it was solved as
  std::size_t slack = 0;           // index of the angle reference bus
};

// Solves the power flow. Throws CaseError when the case has no bus that can be
// the slack (no in-service generator at any PV or slack bus); returns
// converged = false when Newton does not reach the tolerance, and singular as
// well when its Jacobian could not be factored (a bus or island no in-service
// branch ties to the slack, zero impedances).
PowerFlowResult solve_power_flow(const Case& c, const PowerFlowOptions& options = {});

// "case9: converged in 4 iterations, largest mismatch 3.1e-15 p.u." -- the
// fixed-format statistics line the generator prints.
std::string summary(const Case& c, const PowerFlowResult& r);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_POWER_FLOW_H
