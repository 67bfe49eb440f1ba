// bench/residual_benchmark.cpp -- one evaluation of IDA's residual
// G(t, y, y'): through the FMU as lsdae does it (FmuResidual: fmi3SetTime,
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

// What FmuResidual would cost if it handed IDA's vectors to the FMU without
// its own gather and scatter: possible whenever IDA's unknowns are the states
// followed by the algebraic variables in the FMU's order and the rows are the
// residual variables in order -- as for the TransmissionLine (and every index-1
// DAE without dummy derivatives). The result is checked bitwise against
// FmuResidual's once; a measurement for docs/performance.md, not lsdae's code.
void BM_ResidualFmuDirect(benchmark::State& state) {
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  Instance& inst = *p->instances[0];
  const auto& dae = p->dae;
  const std::size_t nx = dae.state_vrs.size(), nz = dae.algebraic_vrs.size(), n = p->size();
  std::vector<ValueReference> row_vrs;
  for (const auto& group : dae.residual_vrs) row_vrs.push_back(group.at(0));
  std::vector<double> r(n), f(nx), expected(n);
  const std::span<const double> y(p->y), yp(p->yp);
  auto evaluate = [&](double t) {
    inst.set_time(t);
    inst.set_continuous_states(y.first(nx));
    if (dae.fully_implicit) {
      if (nz > 0) inst.set_float64(dae.algebraic_vrs, y.subspan(nx, nz));
      inst.set_float64(dae.derivative_vrs, yp.first(nx));
      inst.get_float64(row_vrs, r);
    } else {  // an ODE: G = y' - f(y)
      inst.get_continuous_state_derivatives(f);
      for (std::size_t k = 0; k < nx; ++k) r[k] = yp[k] - f[k];
    }
  };
  evaluate(1.0);
  p->residuals[0]->residual(1.0, p->y, p->yp, expected);
  if (r != expected || (dae.fully_implicit && row_vrs.size() != n)) {
    state.SkipWithError("the unknowns or rows are not in the FMU's order: the direct path does not apply");
    return;
  }
  double t = 0.0;
  for (auto _ : state) {
    t += 1e-12;
    evaluate(t);
    benchmark::DoNotOptimize(r.data());
  }
  state.counters["unknowns"] = static_cast<double>(n);
  state.SetItemsProcessed(state.iterations() * static_cast<long>(n));
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
  b->ArgNames({"form", "N"});
  for (long long n : kSizes) b->Args({0, n})->Args({1, n});
  for (long long n : kLargeSizes)
    for (int form : {0, 1})
      if (tl_fmu_built(form, static_cast<long>(n))) b->Args({form, n});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_ResidualFmu)->Apply(sizes);
BENCHMARK(BM_ResidualFmuDirect)->Apply(sizes);
BENCHMARK(BM_ResidualNative)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
