// bench/jacobian_benchmark.cpp -- one compressed Jacobian J = ∂G/∂y + cj·∂G/∂y'
// of the TransmissionLine FMUs (kernels/compressed_jacobian.h): coloured
// finite differences (one residual per colour) and coloured directional
// derivatives (one fmi3GetDirectionalDerivative per colour), on 1 and 2
// threads (one FMU instance per thread), against the hand-coded analytic
// Jacobian of bench/native. Counters: colours, nonzeros, and residual (or
// directional) calls per Jacobian, which must equal the colour count.
#include <benchmark/benchmark.h>

#include "kernels/compressed_jacobian.h"
#include "native/transmission_line.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

void run(benchmark::State& state, bool directional) {
  const auto threads = static_cast<std::size_t>(state.range(2));
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1), threads);
  if (p == nullptr) return;
  kernels::CompressedJacobian jac(p->structure.iteration, *p->structure.coloring, threads);
  std::vector<double> values(p->structure.iteration.nnz());
  const auto pool = p->pool();
  kernels::JacobianPoint point{0.0, p->y, p->yp, p->r, kTypicalCj, 1e-10, p->weights, p->nominal};
  for (auto _ : state) {
    point.t += 1e-12;  // a new point each time: the FMU recomputes its partials as in a run
    const kernels::EvalStatus s = directional ? jac.evaluate_directional(pool, point, values)
                                              : jac.evaluate_finite_differences(pool, point, values);
    if (s != kernels::EvalStatus::ok) {
      state.SkipWithError("the Jacobian evaluation failed");
      return;
    }
    benchmark::DoNotOptimize(values.data());
  }
  const auto& c = jac.counters();
  const double calls = static_cast<double>(directional ? c.directional_calls : c.residual_calls);
  state.counters["colours"] = static_cast<double>(jac.colors());
  state.counters["nnz"] = static_cast<double>(values.size());
  state.counters["calls_per_jacobian"] = calls / static_cast<double>(c.evaluations);
  state.SetItemsProcessed(state.iterations() * static_cast<long>(p->size()));
}

void BM_JacobianFiniteDifferences(benchmark::State& state) { run(state, false); }
void BM_JacobianDirectional(benchmark::State& state) { run(state, true); }

void BM_JacobianNative(benchmark::State& state) {
  const TransmissionLine model(tl_form(static_cast<int>(state.range(0))), static_cast<long>(state.range(1)));
  std::vector<double> values(model.nnz());
  double cj = kTypicalCj;
  for (auto _ : state) {
    cj *= 1.0000001;
    model.jacobian(cj, values);
    benchmark::DoNotOptimize(values.data());
    benchmark::ClobberMemory();
  }
  state.counters["nnz"] = static_cast<double>(values.size());
  state.SetItemsProcessed(state.iterations() * static_cast<long>(model.size()));
}

void sizes_threads(benchmark::internal::Benchmark* b) {
  b->ArgNames({"form", "N", "threads"});
  for (long long threads : {1, 2})
    for (long long n : kSizes) b->Args({0, n, threads})->Args({1, n, threads});
  for (long long n : kLargeSizes)
    for (int form : {0, 1})
      if (tl_fmu_built(form, static_cast<long>(n))) b->Args({form, n, 1})->Args({form, n, 2});
  b->Unit(benchmark::kMicrosecond)->UseRealTime();  // wall time: the point of threads
}

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"form", "N"});
  for (long long n : kSizes) b->Args({0, n})->Args({1, n});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_JacobianFiniteDifferences)->Apply(sizes_threads);
BENCHMARK(BM_JacobianDirectional)->Apply(sizes_threads);
BENCHMARK(BM_JacobianNative)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
