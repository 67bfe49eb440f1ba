// bench/simulation_benchmark.cpp -- whole simulations swept over N, lsdae
// (the public lsdae::Simulation API on the TransmissionLine FMUs, output
// v_load read at every output point as `lsdae simulate` does) against the
// native IDA + KLU solver on the same equations, in the same process.
//
// Stop time: the DefaultExperiment's 4e-6 s up to N = 160; 4e-7 s (the first
// tenth, the wave's entry into the line) above, so that a sweep stays short.
// bench/scaling.py runs the full experiment as separate processes.
// Counters: steps, residual calls and Jacobians per run (equal for lsdae and
// native when lsdae adds nothing), seconds per step.
#include <benchmark/benchmark.h>

#include <cmath>

#include "lsdae/simulation.h"
#include "native/native_solver.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

double stop_time(long n) { return n <= 160 ? 4e-6 : 4e-7; }

// The same counters for lsdae and native (both statistics types have these
// members), so compare.py can put the two side by side; per_step is the time
// per IDA step.
template <typename Stats>
void run_counters(benchmark::State& state, const Stats& stats) {
  state.counters["unknowns"] = static_cast<double>(stats.unknowns);
  state.counters["steps"] = static_cast<double>(stats.steps);
  state.counters["residual_calls"] = static_cast<double>(stats.residual_calls);
  state.counters["jacobians"] = static_cast<double>(stats.jacobian_evaluations);
  state.counters["per_step"] = benchmark::Counter(static_cast<double>(stats.steps),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

void BM_SimulateLsdae(benchmark::State& state) {
  const int form = static_cast<int>(state.range(0));
  const long n = static_cast<long>(state.range(1));
  if (!tl_fmu_built(form, n)) {
    state.SkipWithError((tl_fmu_folder(form, n) + " was not built").c_str());
    return;
  }
  auto fmu = Fmu::open(tl_fmu_folder(form, n));  // parsed once: the benchmark is the simulation
  SimulationOptions options;
  options.stop_time = stop_time(n);
  SimulationStats stats;
  for (auto _ : state) {
    auto sim = Simulation::create(fmu, options);
    sim->initialize();
    const ValueReference vr = fmu->model_description().find("v_load")->value_reference;
    double v = 0.0;
    const double t0 = sim->start_time(), t1 = sim->stop_time(), dt = sim->output_interval();
    const auto intervals = static_cast<long>(std::ceil((t1 - t0) / dt - 1e-9));
    for (long k = 1; k <= intervals; ++k) {
      sim->advance_to(k == intervals ? t1 : t0 + static_cast<double>(k) * dt);
      sim->get({&vr, 1}, {&v, 1});
    }
    benchmark::DoNotOptimize(v);
    stats = sim->statistics();
  }
  run_counters(state, stats);
}

void BM_SimulateNative(benchmark::State& state) {
  const TransmissionLine model(tl_form(static_cast<int>(state.range(0))), static_cast<long>(state.range(1)));
  NativeOptions options;
  options.t_stop = stop_time(model.segments());
  const std::size_t v_load = model.index_of("v_load");
  NativeStats stats;
  for (auto _ : state) {
    double v = 0.0;
    stats = simulate_native(model, options, [&](double, std::span<const double> y) { v = y[v_load]; });
    benchmark::DoNotOptimize(v);
  }
  run_counters(state, stats);
}

// Interleaved registration keeps lsdae and native of one size next to each
// other in the output; equal argument names let Google Benchmark's compare
// tool pair them: compare.py filters out.json BM_SimulateNative BM_SimulateLsdae.
void register_all() {
  std::vector<long long> sizes = kSizes;
  for (long long n : kLargeSizes)
    if (tl_fmu_built(0, static_cast<long>(n)) || tl_fmu_built(1, static_cast<long>(n))) sizes.push_back(n);
  for (long long n : sizes)
    for (long long form : {0, 1}) {
      benchmark::RegisterBenchmark("BM_SimulateLsdae", BM_SimulateLsdae)
          ->ArgNames({"form", "N"})
          ->Args({form, n})
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      benchmark::RegisterBenchmark("BM_SimulateNative", BM_SimulateNative)
          ->ArgNames({"form", "N"})
          ->Args({form, n})
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
}

}  // namespace
}  // namespace lsdae::bench

int main(int argc, char** argv) {
  lsdae::bench::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
