// bench/klu_benchmark.cpp -- KLU on the TransmissionLine iteration matrix
// J = ∂G/∂y + cj·∂G/∂y' (lsdae's iteration pattern, values from the FMU's
// directional derivatives, cj = 1e10): the symbolic analysis (AMD + BTF; once
// per run), a full numeric factorization (after a bad rcond), the numeric
// refactorization with the same pivots (every other Jacobian; SUNDIALS'
// policy, runtime/simulation/ida_integrator.h), and one solve (every Newton
// iteration). All go as O(N) on this banded matrix.
#include <benchmark/benchmark.h>
#include <btf.h>
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

  explicit KluMatrix(TlFmuProblem& p) {
    const auto& pattern = p.structure.iteration;
    kernels::CompressedJacobian jac(pattern, *p.structure.coloring, 1);
    ax.resize(pattern.nnz());
    kernels::JacobianPoint point{0.0, p.y, p.yp, p.r, kTypicalCj, 1e-10, p.weights, p.nominal};
    const auto pool = p.pool();
    jac.evaluate_directional(pool, point, ax);
    n = static_cast<SuiteSparse_long>(pattern.cols());
    ap.assign(pattern.col_ptr().begin(), pattern.col_ptr().end());
    ai.assign(pattern.row_idx().begin(), pattern.row_idx().end());
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
    state.SetItemsProcessed(state.iterations() * n);
  }
};

KluMatrix* matrix(benchmark::State& state) {
  TlFmuProblem* p = TlFmuProblem::get(state, static_cast<int>(state.range(0)), state.range(1));
  if (p == nullptr) return nullptr;
  static std::map<TlFmuProblem*, std::unique_ptr<KluMatrix>> cache;
  auto& m = cache[p];
  if (!m) m = std::make_unique<KluMatrix>(*p);
  if (!m->ok()) {
    state.SkipWithError("KLU could not factor the iteration matrix");
    return nullptr;
  }
  return m.get();
}

void BM_KluAnalyze(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  for (auto _ : state) {
    klu_l_symbolic* s = klu_l_analyze(m->n, m->ap.data(), m->ai.data(), &m->common);
    benchmark::DoNotOptimize(s);
    klu_l_free_symbolic(&s, &m->common);
  }
  m->counters(state);
}

// The same analysis without KLU's block triangular form: the cost of BTF's
// maximum transversal on a matrix whose diagonal is structurally zero.
void BM_KluAnalyzeNoBtf(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  klu_l_common common = m->common;
  common.btf = 0;
  for (auto _ : state) {
    klu_l_symbolic* s = klu_l_analyze(m->n, m->ap.data(), m->ai.data(), &common);
    benchmark::DoNotOptimize(s);
    klu_l_free_symbolic(&s, &common);
  }
  m->counters(state);
}

// The analysis of the same matrix with its rows permuted to a zero-free
// diagonal (row i moved to the position of its matched column; the matching
// from BTF's maxtrans, computed once outside the timing). lsdae's row order
// (residual groups in manifest order) puts the DAE form's matching far off
// the diagonal; this is what ordering IDA's rows by the structural matching
// would save.
void BM_KluAnalyzeMatchedRows(benchmark::State& state) {
  KluMatrix* m = matrix(state);
  if (m == nullptr) return;
  const auto n = static_cast<std::size_t>(m->n);
  std::vector<SuiteSparse_long> match(n), work(5 * n);
  double done = 0;
  if (btf_l_maxtrans(m->n, m->n, m->ap.data(), m->ai.data(), 0.0, &done, match.data(), work.data()) != m->n) {
    state.SkipWithError("structurally singular");
    return;
  }
  std::vector<SuiteSparse_long> ai(m->ai.size());
  for (std::size_t c = 0; c < n; ++c) {
    const auto begin = static_cast<std::size_t>(m->ap[c]), end = static_cast<std::size_t>(m->ap[c + 1]);
    for (std::size_t q = begin; q < end; ++q) ai[q] = match[static_cast<std::size_t>(m->ai[q])];
    std::sort(ai.begin() + static_cast<long>(begin), ai.begin() + static_cast<long>(end));
  }
  for (auto _ : state) {
    klu_l_symbolic* s = klu_l_analyze(m->n, m->ap.data(), ai.data(), &m->common);
    benchmark::DoNotOptimize(s);
    klu_l_free_symbolic(&s, &m->common);
  }
  m->counters(state);
  // The fill of this ordering, next to lu_nnz (lsdae's row order).
  klu_l_symbolic* s = klu_l_analyze(m->n, m->ap.data(), ai.data(), &m->common);
  if (klu_l_numeric* f = klu_l_factor(m->ap.data(), ai.data(), m->ax.data(), s, &m->common); f != nullptr) {
    state.counters["lu_nnz_matched"] = static_cast<double>(f->lnz + f->unz);
    klu_l_free_numeric(&f, &m->common);
  }
  klu_l_free_symbolic(&s, &m->common);
}

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
  b->ArgNames({"form", "N"});
  for (long long n : kSizes) b->Args({0, n})->Args({1, n});
  for (long long n : kLargeSizes)
    for (int form : {0, 1})
      if (tl_fmu_built(form, static_cast<long>(n))) b->Args({form, n});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_KluAnalyze)->Apply(sizes);
BENCHMARK(BM_KluAnalyzeNoBtf)->Apply(sizes);
BENCHMARK(BM_KluAnalyzeMatchedRows)->Apply(sizes);
BENCHMARK(BM_KluFactor)->Apply(sizes);
BENCHMARK(BM_KluRefactor)->Apply(sizes);
BENCHMARK(BM_KluSolve)->Apply(sizes);

}  // namespace
}  // namespace lsdae::bench

BENCHMARK_MAIN();
