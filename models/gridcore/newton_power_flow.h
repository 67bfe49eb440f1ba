// models/gridcore/newton_power_flow.h -- AC power flow by Newton–Raphson in
// polar coordinates on a given bus admittance matrix, sparse, with KLU: the
// solver behind models/powergrid's MATPOWER power flow and models/psse's
// PSS/E power flow (each decides bus types, schedules and the start).
//
// Unknowns: the angles of PV and PQ buses and the magnitudes of PQ buses
// (slack buses, any number of them, keep their voltage). Equations: the
// mismatch
//     F_i = V_i conj((Y V)_i) − S_i + C_i |V_i|
// (S the scheduled net injection, C a constant-current load: its power at
// 1 p.u. voltage, scaled by |V|; PSS/E's IP + jIQ), real part at PV and PQ
// buses, imaginary part at PQ buses. Jacobian: MATPOWER's dSbus_dV (polar),
//     ∂S/∂|V| = diag(V) conj(Y diag(V/|V|)) + conj(diag(I)) diag(V/|V|)
//     ∂S/∂θ   = j diag(V) conj(diag(I) − Y diag(V)),        I = Y V,
// plus diag(C) in the |V| columns. Reference: W. F. Tinney, C. E. Hart,
// "Power flow solution by Newton's method", IEEE Trans. PAS-86(11), 1967;
// MATPOWER newtonpf.m / dSbus_dV.m.
//
// Cost per iteration: one sparse Jacobian assembly O(nnz(Y)) and one KLU
// factorization (analyzed once, refactored afterwards; klu_solver.h).
// Contract: vectors have one entry per bus of y (current_load may be empty);
// the start holds the set points of PV and slack magnitudes and the slack
// angles. Never throws for a failed solve: converged = false, and `singular`
// when the Jacobian could not be factored (a bus or an island that no branch
// ties to a slack bus, zero impedances): the last iterate is returned.
#ifndef LSDAE_MODELS_GRIDCORE_NEWTON_POWER_FLOW_H
#define LSDAE_MODELS_GRIDCORE_NEWTON_POWER_FLOW_H

#include <vector>

#include "gridcore/complex_csr.h"

namespace lsdae::grid {

enum class BusRole { pq, pv, slack };

struct NewtonOptions {
  double tolerance = 1e-10;  // on the largest power mismatch, p.u.
  int max_iterations = 30;
  // Give up (converged = false) once the mismatch exceeds this: Newton has
  // left the region of convergence and further steps only cost time.
  double divergence = 1e8;
  // Newton steps taken after the tolerance is met, each kept only if it
  // lowers the mismatch: quadratic convergence then usually reaches rounding
  // level, which a dynamic model's initial residuals need.
  int polish_steps = 1;
};

struct NewtonResult {
  bool converged = false;
  bool singular = false;         // KLU could not factor the Jacobian (converged = false)
  int iterations = 0;            // steps taken to meet the tolerance (polishing not counted)
  double mismatch = 0;           // largest |F| at the end, p.u.
  std::vector<double> history;   // largest |F| before each step and at the end
  std::vector<Complex> voltage;  // per bus
  std::vector<Complex> injection;  // per bus: V conj(Y V)
};

NewtonResult solve_newton(const ComplexCsr& y, const std::vector<BusRole>& role, const std::vector<Complex>& scheduled,
                          std::vector<double> vm, std::vector<double> va, const NewtonOptions& options,
                          const std::vector<Complex>& current_load = {});

std::vector<Complex> multiply(const ComplexCsr& y, const std::vector<Complex>& v);

}  // namespace lsdae::grid

#endif  // LSDAE_MODELS_GRIDCORE_NEWTON_POWER_FLOW_H
