// bench/native/native_solver.h -- IDA + KLU on the hand-coded TransmissionLine
// (transmission_line.h): the fastest this integrator solves the benchmark, and
// the yardstick of lsdae's overhead.
//
// The solver is set up call for call as lsdae's (runtime/simulation/
// ida_integrator.cpp and simulation.cpp): the same optimised serial vector
// operations (NativeOptions::optimized_vectors), IDAInit at t_start, vector absolute
// tolerances (atol per unknown; lsdae scales by the variable's nominal, and
// the TransmissionLine FMUs declare none), IDASetId, a CSC SUNSparseMatrix
// with SUNLinSol_KLU (AMD ordering; KLU analyses once and refactors while the
// pattern holds, SUNDIALS' own policy), the analytic Jacobian, max steps per
// output, the stop time, IDACalcIC(IDA_YA_YDP_INIT) towards the first output
// point, then IDASolve in IDA_NORMAL mode to each output point
// t_start + k*interval (the last one exactly t_stop). With the same tolerances
// the step sequence is lsdae's up to rounding in the Jacobian.
//
// Errors throw std::runtime_error naming the IDA call and its return flag.
#ifndef LSDAE_BENCH_NATIVE_NATIVE_SOLVER_H
#define LSDAE_BENCH_NATIVE_NATIVE_SOLVER_H

#include <functional>
#include <optional>
#include <span>

#include "native/transmission_line.h"

namespace lsdae::bench {

struct NativeOptions {
  double t_start = 0.0, t_stop = 4e-6;  // TransmissionLine's DefaultExperiment
  double rtol = 1e-8;
  std::optional<double> atol;  // default: rtol (as lsdae)
  double interval = 2e-9;
  long max_steps = 100000;     // between two output points
  // The serial vectors' operations compiled with the project
  // (runtime/simulation/ida/optimized_nvector.h; bitwise the same results), as
  // lsdae's integrator uses them; false: SUNDIALS' own as Debian builds them (-O0).
  bool optimized_vectors = true;
};

struct NativeStats {
  std::size_t unknowns = 0, nonzeros = 0;
  long steps = 0, residual_calls = 0, jacobian_evaluations = 0, nonlinear_iterations = 0,
       nonlinear_convergence_failures = 0, error_test_failures = 0, linear_solver_setups = 0;
  long klu_lnz = 0, klu_unz = 0;
  long outputs = 0;  // output points after the start
  double reached_time = 0.0;
  // wall time, seconds: setup (vectors, matrix, IDA), IDACalcIC, integration
  double time_setup = 0.0, time_initialize = 0.0, time_integrate = 0.0;
};

// Calls on_output(t, y) after the consistent initialization (t = t_start) and
// at every output point; `on_output` may be empty.
NativeStats simulate_native(const TransmissionLine& model, const NativeOptions& options,
                            const std::function<void(double, std::span<const double>)>& on_output = {});

}  // namespace lsdae::bench

#endif  // LSDAE_BENCH_NATIVE_NATIVE_SOLVER_H
