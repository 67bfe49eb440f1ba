// runtime/simulation/ida/ida_statistics.h -- what one IDA integrator counted
// (IDAGetNum*, the Jacobian's and KLU's own counters), and how the counters of
// several integration segments add up (SUNDIALS: ida_io.c's IDAGetNum*).
//
// IDAReInit (every event) zeroes IDA's own counters; IdaCarriedCounters keeps
// what the earlier segments of one integrator counted (carry() before each
// IDAReInit), so IdaIntegrator::stats() reports the whole run of an
// integrator. IntegratorStats::operator+= adds the counters of finished
// integrators (a re-selection of dummy derivatives replaces the integrator).
// Cost: a handful of IDAGetNum* calls; no allocation.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_IDA_STATISTICS_H
#define LSDAE_RUNTIME_SIMULATION_IDA_IDA_STATISTICS_H

#include <cstddef>

namespace lsdae::simulation {

struct IntegratorStats {
  long steps = 0;
  long residual_calls = 0;          // by IDA itself (Newton iterations, IC)
  long jacobian_evaluations = 0;
  long jacobian_reforms = 0;        // setups that re-formed the saved Jacobian for a new cj (jacobian_reuse.h)
  long jacobian_residual_calls = 0; // finite-difference calls: evaluations × colours
  long directional_calls = 0;       // directional evaluations × colours
  long nonlinear_iterations = 0;
  long nonlinear_convergence_failures = 0;
  long error_test_failures = 0;
  long linear_solver_setups = 0;
  long root_function_calls = 0;
  std::size_t colors = 0;
  std::size_t varying_colors = 0;      // colours evaluated per Jacobian (= colors without constant entries)
  std::size_t constant_entries = 0;    // Jacobian entries evaluated once (per run or per segment)
  long constant_evaluations = 0;       // times they were evaluated
  long constant_calls = 0;             // FMU calls for them (included in the two call counters)
  std::size_t jacobian_nonzeros = 0;
  long klu_lnz = 0, klu_unz = 0;    // nonzeros of the factors (incl. diagonals)
  int klu_index_bits = 0;           // KLU's index width: 32 (klu32_solver.h), 64 (SUNLinSol_KLU), 0 (no KLU)
  long klu_symbolic_analyses = 0;   // KLU symbolic analyses (ordering + BTF)
  long klu_restart_factorizations = 0;  // full numeric factorizations at restarts with a kept analysis
  long klu_adopted_analyses = 0;    // analyses taken over from an earlier integrator (adopt_klu_analysis)
  long first_step_retries = 0;      // first steps from a start tried again smaller (ida_step.cpp)
  long events_continued = 0;        // events without a restart: IDA went on from its history (ida_event_continuation.cpp)
  std::size_t eliminated = 0;       // unknowns eliminated before IDA (IntegratorOptions::expansion)
  double last_step = 0.0;

  // Adds the counters of `other` (a finished integration segment); the
  // size fields (colours, nonzeros, factor sizes, last step) are other's.
  IntegratorStats& operator+=(const IntegratorStats& other);
};

// IDA's counters of the segments before the last IDAReInit of one integrator.
struct IdaCarriedCounters {
  long steps = 0, nonlinear = 0, nonlinear_failures = 0, error_failures = 0, setups = 0, root_calls = 0;
  // Adds IDA's current counters (call right before IDAReInit zeroes them);
  // `roots`: whether root finding is on (IDAGetNumGEvals).
  void carry(void* ida_mem, bool roots);
  // Adds these to the counters read from IDA into `s`.
  void add_to(IntegratorStats& s) const;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_IDA_STATISTICS_H
