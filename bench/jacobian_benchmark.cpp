// bench/jacobian_benchmark.cpp -- one compressed Jacobian J = ∂G/∂y + cj·∂G/∂y'
// of the TransmissionLine FMUs (kernels/compressed_jacobian.h): coloured
// finite differences (one residual per colour) and coloured directional
// derivatives (one fmi3GetDirectionalDerivative per colour), on 1 and 2
// threads (one FMU instance per thread), against the hand-coded analytic
// Jacobian of bench/native. Counters: colours, nonzeros, and residual (or
// directional) calls per Jacobian, counted where they reach the FMU, which
// must equal the colour count.
#include <benchmark/benchmark.h>

#include <memory>

#include "kernels/compressed_jacobian.h"
#include "native/transmission_line.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

// Forwards to an FMU residual and counts the calls that reach it, so that
// calls per Jacobian are measured, not taken from the kernel's own counter.
class CountingResidual final : public kernels::ResidualFunction {
 public:
  explicit CountingResidual(kernels::ResidualFunction& inner) : inner_(inner) {}
  std::size_t size() const override { return inner_.size(); }
  kernels::EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp,
                               std::span<double> r) override {
    ++calls;
    return inner_.residual(t, y, yp, r);
  }
  bool has_jacobian_columns() const override { return inner_.has_jacobian_columns(); }
  kernels::EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                                       std::span<const std::size_t> columns, std::span<double> jv) override {
    ++calls;
    return inner_.jacobian_columns(t, y, yp, cj, columns, jv);
  }
  long calls = 0;

 private:
  kernels::ResidualFunction& inner_;
};

void run(benchmark::State& state, bool directional) {
  const auto threads = static_cast<std::size_t>(state.range(2));
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1), threads);
  if (p == nullptr) return;
  kernels::CompressedJacobian jac(p->structure.iteration, *p->structure.coloring, threads);
  std::vector<double> values(p->structure.iteration.nnz());
  std::vector<std::unique_ptr<CountingResidual>> counting;
  std::vector<kernels::ResidualFunction*> pool;
  for (kernels::ResidualFunction* f : p->pool()) {
    counting.push_back(std::make_unique<CountingResidual>(*f));
    pool.push_back(counting.back().get());
  }
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
  long calls = 0;
  for (const auto& f : counting) calls += f->calls;
  state.counters["colours"] = static_cast<double>(jac.colors());
  state.counters["nnz"] = static_cast<double>(values.size());
  // Measured at the FMU's door: must equal the colour count.
  state.counters["calls_per_jacobian"] =
      static_cast<double>(calls) / static_cast<double>(jac.counters().evaluations);
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

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"form", "N"});
  for (long long n : kSizes) b->Args({0, n})->Args({1, n});
  b->Unit(benchmark::kMicrosecond);
}

void sizes_threads(benchmark::internal::Benchmark* b) {
  tl_sizes(b, "threads", {1, 2});
  b->UseRealTime();  // wall time: the point of threads
}

BENCHMARK(BM_JacobianFiniteDifferences)->Apply(sizes_threads);
BENCHMARK(BM_JacobianDirectional)->Apply(sizes_threads);
BENCHMARK(BM_JacobianNative)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
