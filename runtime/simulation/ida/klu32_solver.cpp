// runtime/simulation/ida/klu32_solver.cpp -- see klu32_solver.h.
#include "simulation/ida/klu32_solver.h"

#include <sundials/sundials_nvector.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace lsdae::simulation {
namespace klu32_detail {  // named: the unity build compiles klu_symbolic_reuse.cpp's helpers beside these

// SUNDIALS' thresholds (sunlinsol_klu.c: SUNRpowerR(UNIT_ROUNDOFF, TWOTHIRDS)).
const double uround_twothirds = std::pow(std::numeric_limits<double>::epsilon(), 0.666666666666666666666666666666667);

struct Content {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  int n = 0;
  std::vector<int> col_ptr, row_idx;  // the fixed pattern, 32-bit (made once)
  bool first_factorize = true;        // SUNDIALS' FIRSTFACTORIZE: the next setup analyses
  bool keep_analysis = false;
  bool factor_afresh = false;  // a restart with an analysis kept: the next setup runs klu_factor
  bool adopted = false;        // adopt_klu32_analysis gave it an analysis, not yet used
  KluCounters* counters = nullptr;
  sunindextype last_flag = SUNLS_SUCCESS;

  ~Content() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
  // A full numeric factorization with the current analysis (new pivots).
  bool factor(double* values) {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
    numeric = klu_factor(col_ptr.data(), row_idx.data(), values, symbolic, &common);
    return numeric != nullptr;
  }
};

// An analysis detached from a solver, with the 32-bit pattern and ordering it was made for.
class Analysis final : public KluAnalysis {
 public:
  ~Analysis() override {
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
  klu_symbolic* symbolic = nullptr;
  klu_common common{};  // only to free `symbolic` (KLU's default allocator)
  std::vector<int> col_ptr, row_idx;
  int ordering = 0;
  decltype(klu_common::user_order) user_order = nullptr;
};

Content& content(SUNLinearSolver s) { return *static_cast<Content*>(s->content); }

SUNLinearSolver_Type get_type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
// Not SUNLINEARSOLVER_KLU: SUNLinSol_KLU's accessors must not be called on it.
SUNLinearSolver_ID get_id(SUNLinearSolver) { return SUNLINEARSOLVER_CUSTOM; }

int initialize(SUNLinearSolver s) {
  Content& c = content(s);
  c.last_flag = SUNLS_SUCCESS;
  const bool adopted = std::exchange(c.adopted, false);
  if (!c.keep_analysis || c.symbolic == nullptr || (c.first_factorize && !adopted)) {
    c.factor_afresh = false;
    c.first_factorize = true;  // SUNDIALS: analyse and factor at the next setup
    return SUNLS_SUCCESS;
  }
  c.factor_afresh = true;  // keep the analysis; factor with new pivots at the next setup
  return SUNLS_SUCCESS;
}

int flagged(Content& c, int flag) {
  c.last_flag = flag;
  return flag;
}

int setup(SUNLinearSolver s, SUNMatrix a) {
  Content& c = content(s);
  if (SUNMatGetID(a) != SUNMATRIX_SPARSE || SUNSparseMatrix_SparseType(a) != CSC_MAT || SUNSparseMatrix_NP(a) != c.n)
    return flagged(c, SUNLS_ILL_INPUT);
  double* values = SUNSparseMatrix_Data(a);
  if (c.factor_afresh && c.symbolic != nullptr) {  // a restart with the analysis kept (klu_symbolic_reuse.h)
    c.factor_afresh = false;
    ++c.counters->restart_factorizations;
    if (!c.factor(values)) {
      c.first_factorize = true;  // as SUNDIALS' first factorization: analyse again at the next setup
      return flagged(c, SUNLS_PACKAGE_FAIL_UNREC);
    }
    c.first_factorize = false;
    return flagged(c, SUNLS_SUCCESS);
  }
  c.factor_afresh = false;
  if (c.first_factorize) {  // SUNDIALS: analyse the pattern, then factor
    ++c.counters->symbolic_analyses;
    if (c.symbolic != nullptr) klu_free_symbolic(&c.symbolic, &c.common);
    c.symbolic = klu_analyze(c.n, c.col_ptr.data(), c.row_idx.data(), &c.common);
    if (c.symbolic == nullptr) return flagged(c, SUNLS_PACKAGE_FAIL_UNREC);
    if (!c.factor(values)) return flagged(c, SUNLS_PACKAGE_FAIL_UNREC);
    c.first_factorize = false;
    return flagged(c, SUNLS_SUCCESS);
  }
  // SUNDIALS: refactor with the same pivots; factor afresh when ill-conditioned.
  if (klu_refactor(c.col_ptr.data(), c.row_idx.data(), values, c.symbolic, c.numeric, &c.common) == 0)
    return flagged(c, SUNLS_PACKAGE_FAIL_REC);
  if (klu_rcond(c.symbolic, c.numeric, &c.common) == 0) return flagged(c, SUNLS_PACKAGE_FAIL_REC);
  if (c.common.rcond < uround_twothirds) {
    if (klu_condest(c.col_ptr.data(), values, c.symbolic, c.numeric, &c.common) == 0)
      return flagged(c, SUNLS_PACKAGE_FAIL_REC);
    if (c.common.condest > 1.0 / uround_twothirds && !c.factor(values)) return flagged(c, SUNLS_PACKAGE_FAIL_UNREC);
  }
  return flagged(c, SUNLS_SUCCESS);
}

int solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, realtype /*tol*/) {
  if (s == nullptr || a == nullptr || x == nullptr || b == nullptr) return SUNLS_MEM_NULL;
  Content& c = content(s);
  N_VScale(1.0, b, x);
  double* xdata = N_VGetArrayPointer(x);
  if (xdata == nullptr) return flagged(c, SUNLS_MEM_FAIL);
  if (klu_solve(c.symbolic, c.numeric, c.n, 1, xdata, &c.common) == 0) return flagged(c, SUNLS_PACKAGE_FAIL_REC);
  return flagged(c, SUNLS_SUCCESS);
}

sunindextype last_flag(SUNLinearSolver s) { return content(s).last_flag; }

int space(SUNLinearSolver, long* lenrw, long* leniw) {  // as SUNDIALS: KLU's objects are opaque
  *leniw = 2;
  *lenrw = 0;
  return SUNLS_SUCCESS;
}

int free_solver(SUNLinearSolver s) {
  if (s == nullptr) return SUNLS_SUCCESS;
  delete static_cast<Content*>(s->content);
  s->content = nullptr;
  SUNLinSolFreeEmpty(s);
  return SUNLS_SUCCESS;
}

Content* ours(SUNLinearSolver s) {
  return s != nullptr && s->ops != nullptr && s->ops->setup == setup ? static_cast<Content*>(s->content) : nullptr;
}

}  // namespace klu32_detail

bool klu32_fits(std::size_t n, std::size_t nnz) noexcept {
  constexpr auto most = static_cast<std::size_t>(std::numeric_limits<int>::max());
  return n < most && nnz <= most;  // col_ptr holds n + 1 entries, the last one nnz
}

SUNLinearSolver make_klu32_solver(std::span<const sunindextype> col_ptr, std::span<const sunindextype> row_idx,
                                  KluOrdering ordering, bool keep_analysis, KluCounters* counters, SUNContext ctx) {
  namespace d = klu32_detail;
  if (col_ptr.empty() || counters == nullptr || !klu32_fits(col_ptr.size() - 1, row_idx.size())) return nullptr;
  std::unique_ptr<d::Content> c(new (std::nothrow) d::Content());
  if (!c) return nullptr;
  try {
    c->col_ptr.assign(col_ptr.begin(), col_ptr.end());
    c->row_idx.assign(row_idx.begin(), row_idx.end());
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  c->n = static_cast<int>(col_ptr.size() - 1);
  c->keep_analysis = keep_analysis;
  c->counters = counters;
  if (klu_defaults(&c->common) == 0) return nullptr;
  set_klu_ordering(c->common, ordering);
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  s->content = c.release();
  s->ops->gettype = d::get_type;
  s->ops->getid = d::get_id;
  s->ops->initialize = d::initialize;
  s->ops->setup = d::setup;
  s->ops->solve = d::solve;
  s->ops->lastflag = d::last_flag;
  s->ops->space = d::space;
  s->ops->free = d::free_solver;
  return s;
}

const klu_numeric* klu32_numeric(SUNLinearSolver solver) {
  const klu32_detail::Content* c = klu32_detail::ours(solver);
  return c == nullptr ? nullptr : c->numeric;
}

KluAnalysisPtr detach_klu32_analysis(SUNLinearSolver solver) {
  klu32_detail::Content* c = klu32_detail::ours(solver);
  if (c == nullptr || !c->keep_analysis || c->symbolic == nullptr || c->first_factorize) return nullptr;
  std::unique_ptr<klu32_detail::Analysis> out(new (std::nothrow) klu32_detail::Analysis());
  if (!out) return nullptr;
  try {
    out->col_ptr = c->col_ptr;
    out->row_idx = c->row_idx;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  klu_defaults(&out->common);
  out->ordering = c->common.ordering;
  out->user_order = c->common.user_order;
  out->symbolic = std::exchange(c->symbolic, nullptr);
  c->first_factorize = true;  // without an analysis the next setup must make one
  c->factor_afresh = false;
  return KluAnalysisPtr(out.release());
}

bool adopt_klu32_analysis(SUNLinearSolver solver, KluAnalysisPtr& analysis) {
  klu32_detail::Content* c = klu32_detail::ours(solver);
  auto* kept = dynamic_cast<klu32_detail::Analysis*>(analysis.get());
  if (c == nullptr || kept == nullptr || kept->symbolic == nullptr || !c->keep_analysis || c->symbolic != nullptr ||
      c->common.ordering != kept->ordering || c->common.user_order != kept->user_order ||
      c->col_ptr != kept->col_ptr || c->row_idx != kept->row_idx)
    return false;
  c->symbolic = std::exchange(kept->symbolic, nullptr);
  analysis.reset();
  c->adopted = true;
  ++c->counters->adopted_analyses;
  return true;
}

}  // namespace lsdae::simulation
