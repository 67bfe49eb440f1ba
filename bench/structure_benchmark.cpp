// bench/structure_benchmark.cpp -- the structural pass lsdae runs once per
// simulation, on the TransmissionLine FMUs' manifests: building the DAE
// system's patterns from the dependency lists, the iteration pattern, the
// distance-2 colouring (one ordering, and all four as Simulation::create
// does), and the whole pipeline. Expected cost: linear in N (structure/README.md).
#include <benchmark/benchmark.h>

#include "structure/coloring.h"
#include "structure/dae_system.h"
#include "structure/iteration_pattern.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

void set_common(benchmark::State& state, const TlFmuProblem& p) {
  state.counters["unknowns"] = static_cast<double>(p.size());
  state.counters["nnz"] = static_cast<double>(p.structure.iteration.nnz());
  state.counters["colours"] = static_cast<double>(p.structure.coloring->colors);
  state.SetItemsProcessed(state.iterations() * static_cast<long>(p.size()));  // rate: unknowns per second
}

// DaeInput (from the manifest) -> DaeSystem: the formulation patterns (CSR + CSC).
void BM_BuildSystem(benchmark::State& state) {
  const TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  for (auto _ : state) benchmark::DoNotOptimize(structure::build_system(p->dae.input));
  set_common(state, *p);
}

void BM_IterationPattern(benchmark::State& state) {
  const TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  for (auto _ : state)
    benchmark::DoNotOptimize(structure::iteration_pattern(p->structure.analysis.system, *p->structure.index1));
  set_common(state, *p);
}

void BM_ColorColumns(benchmark::State& state) {
  const TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  for (auto _ : state) benchmark::DoNotOptimize(structure::color_columns(p->structure.iteration));
  set_common(state, *p);
}

void BM_ColorColumnsBest(benchmark::State& state) {
  const TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  for (auto _ : state) benchmark::DoNotOptimize(structure::color_columns_best(p->structure.iteration));
  set_common(state, *p);
}

// Everything Simulation::create runs: analysis, index-1 system, iteration pattern, colouring, report.
void BM_StructurePipeline(benchmark::State& state) {
  const TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return;
  structure::PipelineOptions options;
  options.best_ordering = true;
  for (auto _ : state) benchmark::DoNotOptimize(structure::run_structure(p->dae.input, nullptr, options));
  set_common(state, *p);
}

void sizes(benchmark::internal::Benchmark* b) {
  tl_sizes(b);
}

BENCHMARK(BM_BuildSystem)->Apply(sizes);
BENCHMARK(BM_IterationPattern)->Apply(sizes);
BENCHMARK(BM_ColorColumns)->Apply(sizes);
BENCHMARK(BM_ColorColumnsBest)->Apply(sizes);
BENCHMARK(BM_StructurePipeline)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
