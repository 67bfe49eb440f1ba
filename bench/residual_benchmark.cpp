// bench/residual_benchmark.cpp -- one evaluation of IDA's residual
// G(t, y, y'): through the FMU as lsdae does it (ModelResidual: fmi3SetTime,
// fmi3SetContinuousStates, fmi3SetFloat64 of the algebraic variables and,
// fully implicit, the derivatives, fmi3GetFloat64 of the residuals or
// fmi3GetContinuousStateDerivatives, and the model's compute()), and the same
// residual hand-coded (bench/native). The difference is the FMI interface's
// cost per evaluation; IDA calls the residual about once per step.
#include <benchmark/benchmark.h>

#include "native/transmission_line.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

void BM_ResidualFmu(benchmark::State& state) {
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  std::vector<double> r(p->size());
  double t = 0.0;
  for (auto _ : state) {
    t += 1e-12;  // a new point each time, as in a run
    p->residuals[0]->residual(t, p->y, p->yp, r);
    benchmark::DoNotOptimize(r.data());
  }
  state.counters["unknowns"] = static_cast<double>(p->size());
  state.SetItemsProcessed(state.iterations() * static_cast<long>(p->size()));
}

void BM_ResidualNative(benchmark::State& state) {
  const TransmissionLine model(tl_form(static_cast<int>(state.range(0))), static_cast<long>(state.range(1)));
  std::vector<double> y(model.size()), yp(model.size()), r(model.size());
  model.initial_values(y, yp);
  double t = 0.0;
  for (auto _ : state) {
    t += 1e-12;
    model.residual(t, y, yp, r);
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
  state.counters["unknowns"] = static_cast<double>(model.size());
  state.SetItemsProcessed(state.iterations() * static_cast<long>(model.size()));
}

void sizes(benchmark::internal::Benchmark* b) {
  tl_sizes(b);
}

BENCHMARK(BM_ResidualFmu)->Apply(sizes);
BENCHMARK(BM_ResidualNative)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
