// bench/klu_benchmark.cpp -- KLU on the TransmissionLine iteration matrix
// J = ∂G/∂y + cj·∂G/∂y' (lsdae's iteration pattern, values from the FMU's
// directional derivatives, cj = 1e10): the symbolic analysis (AMD + BTF; once
// per run), a full numeric factorization (after a bad rcond), the numeric
// refactorization with the same pivots (every other Jacobian; SUNDIALS'
// policy, runtime/simulation/ida/ida_integrator.h), and one solve (every Newton
// iteration). All go as O(N) on this banded matrix.
//
// Arguments {form, N, rows}: rows 0 is lsdae's default order (each row at its
// matched unknown: structure::order_rows_by_matching, a zero-free diagonal),
// 1 the manifest's declared order (lsdae --row-order declared), the same
// matrix with its rows permuted.
#include <benchmark/benchmark.h>
#include <klu.h>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "tl_problem.h"

namespace lsdae::bench {
namespace {

// The matrix in KLU's 64-bit CSC arrays, with a symbolic analysis and a
// numeric factorization to start from.
struct KluMatrix {
  SuiteSparse_long n = 0;
  std::vector<SuiteSparse_long> ap, ai;
  std::vector<double> ax;
  klu_l_common common{};
  klu_l_symbolic* symbolic = nullptr;
  klu_l_numeric* numeric = nullptr;

  KluMatrix(TlFmuProblem& p, bool declared_rows) {
    const auto& pattern = p.structure.iteration;
    kernels::CompressedJacobian jac(pattern, *p.structure.coloring, 1);
    std::vector<double> values(pattern.nnz());
    kernels::JacobianPoint point{0.0, p.y, p.yp, p.r, kTypicalCj, 1e-10, p.weights, p.nominal};
    const auto pool = p.pool();
    jac.evaluate_directional(pool, point, values);
    n = static_cast<SuiteSparse_long>(pattern.cols());
    ap.assign(pattern.col_ptr().begin(), pattern.col_ptr().end());
    ai.assign(pattern.row_idx().begin(), pattern.row_idx().end());
    ax = values;
    if (declared_rows) {
      // Row k of the problem's (matched) system goes to the declared
      // position of the same equation; rows re-sorted within each column.
      const auto& rows = p.structure.index1->rows;
      // The manifest's order: the same pipeline without the row matching.
      structure::PipelineOptions declared_options;
      declared_options.best_ordering = false;
      declared_options.match_rows = false;
      const std::vector<structure::EquationRef> declared =
          structure::run_structure(p.dae.input, nullptr, declared_options).index1.value().rows;
      std::map<std::pair<int, std::size_t>, SuiteSparse_long> declared_position;
      for (std::size_t k = 0; k < declared.size(); ++k)
        declared_position[{static_cast<int>(declared[k].kind), declared[k].id}] = static_cast<SuiteSparse_long>(k);
      std::vector<SuiteSparse_long> to_declared(rows.size());
      for (std::size_t k = 0; k < rows.size(); ++k)
        to_declared[k] = declared_position.at({static_cast<int>(rows[k].kind), rows[k].id});
      for (std::size_t c = 0; c < pattern.cols(); ++c) {
        std::vector<std::pair<SuiteSparse_long, double>> column;
        for (std::size_t q = pattern.col_ptr()[c]; q < pattern.col_ptr()[c + 1]; ++q)
          column.emplace_back(to_declared[pattern.row_idx()[q]], values[q]);
        std::sort(column.begin(), column.end());
        for (std::size_t j = 0; j < column.size(); ++j) {
          ai[pattern.col_ptr()[c] + j] = column[j].first;
          ax[pattern.col_ptr()[c] + j] = column[j].second;
        }
      }
    }
    klu_l_defaults(&common);
    common.ordering = 0;  // AMD, as SUNLinSol_KLU by default
    symbolic = klu_l_analyze(n, ap.data(), ai.data(), &common);
    if (symbolic != nullptr) numeric = klu_l_factor(ap.data(), ai.data(), ax.data(), symbolic, &common);
  }
  ~KluMatrix() {
    if (numeric != nullptr) klu_l_free_numeric(&numeric, &common);
    if (symbolic != nullptr) klu_l_free_symbolic(&symbolic, &common);
  }
  KluMatrix(const KluMatrix&) = delete;
  KluMatrix& operator=(const KluMatrix&) = delete;
  bool ok() const { return numeric != nullptr; }
  void counters(benchmark::State& state) const {
    state.counters["unknowns"] = static_cast<double>(n);
    state.counters["nnz"] = static_cast<double>(ax.size());
    state.counters["lu_nnz"] = static_cast<double>(numeric->lnz + numeric->unz);
    state.counters["btf_blocks"] = static_cast<double>(symbolic->nblocks);
    state.SetItemsProcessed(state.iterations() * n);
  }
};

KluMatrix* matrix(benchmark::State& state) {
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return nullptr;
  const bool declared_rows = state.range(2) != 0;
  static std::map<std::pair<TlFmuProblem*, bool>, std::unique_ptr<KluMatrix>> cache;
  auto& m = cache[{p, declared_rows}];
  if (!m) m = std::make_unique<KluMatrix>(*p, declared_rows);
  if (!m->ok()) {
    state.SkipWithError("KLU could not factor the iteration matrix");
    return nullptr;
  }
  return m.get();
}

// klu_l_analyze with BTF (KLU's default) or without.
void analyze(benchmark::State& state, bool btf) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  klu_l_common common = m->common;
  common.btf = btf ? 1 : 0;
  for (auto _ : state) {
    klu_l_symbolic* s = klu_l_analyze(m->n, m->ap.data(), m->ai.data(), &common);
    benchmark::DoNotOptimize(s);
    klu_l_free_symbolic(&s, &common);
  }
  m->counters(state);
}

void BM_KluAnalyze(benchmark::State& state) { analyze(state, true); }

// The same analysis without KLU's block triangular form: with the declared
// rows, the difference is BTF's maximum transversal searching for a diagonal.
void BM_KluAnalyzeNoBtf(benchmark::State& state) { analyze(state, false); }

void BM_KluFactor(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  for (auto _ : state) {
    klu_l_numeric* f = klu_l_factor(m->ap.data(), m->ai.data(), m->ax.data(), m->symbolic, &m->common);
    benchmark::DoNotOptimize(f);
    klu_l_free_numeric(&f, &m->common);
  }
  m->counters(state);
}

void BM_KluRefactor(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  for (auto _ : state)
    benchmark::DoNotOptimize(klu_l_refactor(m->ap.data(), m->ai.data(), m->ax.data(), m->symbolic, m->numeric,
                                            &m->common));
  m->counters(state);
}

void BM_KluSolve(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  std::vector<double> b(static_cast<std::size_t>(m->n));
  for (auto _ : state) {
    std::fill(b.begin(), b.end(), 1.0);
    klu_l_solve(m->symbolic, m->numeric, m->n, 1, b.data(), &m->common);
    benchmark::DoNotOptimize(b.data());
  }
  m->counters(state);
}

void sizes(benchmark::internal::Benchmark* b) {
  tl_sizes(b, "rows", {0, 1});
}

BENCHMARK(BM_KluAnalyze)->Apply(sizes);
BENCHMARK(BM_KluAnalyzeNoBtf)->Apply(sizes);
BENCHMARK(BM_KluFactor)->Apply(sizes);
BENCHMARK(BM_KluRefactor)->Apply(sizes);
BENCHMARK(BM_KluSolve)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
