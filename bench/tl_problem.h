// bench/tl_problem.h -- what the Google Benchmark suites share: the
// TransmissionLine FMUs built under LSDAE_FMU_DIR, opened and prepared the way
// lsdae::Simulation prepares them (runtime/simulation/simulation.cpp), with
// lsdae's internal pieces exposed so each suite can time one of them alone.
//
// Benchmark arguments are {form, N[, threads]}: form 0 is the ODE FMU
// (TransmissionLine_ode_<N>), 1 the fully implicit DAE FMU
// (TransmissionLine_dae_shapeA_<N>). The unpacked FMU folders are read in
// place: build/fmus/ (the model corpus), else build/bench/fmus/ (sizes beyond
// the benchmark, target lsdae_bench_large_fmus). An N whose FMU was not built
// is skipped with a message.
#ifndef LSDAE_BENCH_TL_PROBLEM_H
#define LSDAE_BENCH_TL_PROBLEM_H

#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/instance.h"
#include "native/transmission_line.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "structure/pipeline.h"

namespace lsdae::bench {

// The sizes every suite sweeps (those whose FMU exists run) and the sizes
// beyond the benchmark (run when built).
inline const std::vector<long long> kSizes = {10, 40, 160, 640, 1280};
inline const std::vector<long long> kLargeSizes = {2560, 5120, 10240};

// "TransmissionLine_ode_<N>" or "TransmissionLine_dae_shapeA_<N>".
std::string tl_fmu_name(int form, long n);
// The unpacked FMU folder: LSDAE_FMU_DIR, else LSDAE_BENCH_FMU_DIR.
std::string tl_fmu_folder(int form, long n);
bool tl_fmu_built(int form, long n);
TlForm tl_form(int form);

// Registers the arguments {form, N} for both forms at kSizes and at those
// kLargeSizes whose FMU was built, in microseconds; with an `extra` argument
// name, {form, N, v} for each of `extra_values`.
void tl_sizes(benchmark::internal::Benchmark* b, const char* extra = nullptr,
              std::initializer_list<long long> extra_values = {});

// An FMU with everything Simulation::create and initialize() build before
// IDA starts: the DAE from the manifest, the structure (best colouring),
// `threads` instances in Continuous-Time Mode (DAE mode when the FMU has a
// manifest), one ModelResidual each, and a point (y, y') with the residual there.
// Not movable: the residuals refer to the members.
struct TlFmuProblem {
  std::shared_ptr<Fmu> fmu;
  simulation::ModelDae dae;
  structure::StructureOutcome structure;
  std::vector<std::unique_ptr<Instance>> instances;
  std::vector<std::unique_ptr<simulation::ModelResidual>> residuals;
  std::vector<double> y, yp, r, weights, nominal;

  std::size_t size() const { return y.size(); }
  std::vector<kernels::ResidualFunction*> pool() const;

  // Cached per (form, N, threads) for the whole process; nullptr (and a
  // skip message in `state`) when the FMU was not built.
  static TlFmuProblem* get(benchmark::State& state, int form, long n, std::size_t threads = 1);

  TlFmuProblem() = default;
  TlFmuProblem(const TlFmuProblem&) = delete;
  TlFmuProblem& operator=(const TlFmuProblem&) = delete;
};

// A typical IDA coefficient cj = alpha/h for the TransmissionLine's steps
// (h ~ 1e-10 s over most of the run).
inline constexpr double kTypicalCj = 1e10;

}  // namespace lsdae::bench

#endif  // LSDAE_BENCH_TL_PROBLEM_H
