// runtime/simulation/ida/klu_symbolic_reuse.cpp -- see klu_symbolic_reuse.h.
#include "simulation/ida/klu_symbolic_reuse.h"

#include <algorithm>
#include <new>
#include <utility>
#include <vector>

#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

namespace lsdae::simulation {
namespace {

struct KluReuseContent {
  SUNLinearSolver inner;
  bool keep_analysis;
  KluCounters* counters;
  bool factor_afresh = false;  // a restart with an analysis kept: the next setup runs klu_factor
  bool adopted = false;        // adopt_klu_analysis gave it an analysis, not yet used
  sunindextype last_flag = SUNLS_SUCCESS;
};

KluReuseContent& content(SUNLinearSolver s) { return *static_cast<KluReuseContent*>(s->content); }
SUNLinearSolverContent_KLU klu(SUNLinearSolver inner) { return static_cast<SUNLinearSolverContent_KLU>(inner->content); }

SUNLinearSolver_Type get_type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
SUNLinearSolver_ID get_id(SUNLinearSolver) { return SUNLINEARSOLVER_KLU; }

int initialize(SUNLinearSolver s) {
  KluReuseContent& c = content(s);
  c.last_flag = SUNLS_SUCCESS;
  const bool adopted = std::exchange(c.adopted, false);
  if (!c.keep_analysis || klu(c.inner)->symbolic == nullptr || (klu(c.inner)->first_factorize && !adopted)) {
    c.factor_afresh = false;
    return SUNLinSolInitialize(c.inner);  // the first analysis is SUNDIALS' own
  }
  c.factor_afresh = true;  // keep the analysis; factor with new pivots at the next setup
  return SUNLS_SUCCESS;
}

int setup(SUNLinearSolver s, SUNMatrix a) {
  KluReuseContent& c = content(s);
  SUNLinearSolverContent_KLU k = klu(c.inner);
  if (!c.factor_afresh || k->symbolic == nullptr) {
    if (k->first_factorize) ++c.counters->symbolic_analyses;
    int flag = SUNLinSolSetup(c.inner, a);
    c.last_flag = flag;
    return flag;
  }
  c.factor_afresh = false;
  if (k->numeric != nullptr) sun_klu_free_numeric(&k->numeric, &k->common);
  k->numeric = sun_klu_factor(SUNSparseMatrix_IndexPointers(a), SUNSparseMatrix_IndexValues(a),
                              SUNSparseMatrix_Data(a), k->symbolic, &k->common);
  ++c.counters->restart_factorizations;
  if (k->numeric == nullptr) {
    // As SUNDIALS' first factorization: analyse again at the next setup.
    k->first_factorize = 1;
    c.last_flag = k->last_flag = SUNLS_PACKAGE_FAIL_UNREC;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  k->first_factorize = 0;
  c.last_flag = k->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

int solve(SUNLinearSolver s, SUNMatrix a, N_Vector x, N_Vector b, realtype tol) {
  KluReuseContent& c = content(s);
  int flag = SUNLinSolSolve(c.inner, a, x, b, tol);
  c.last_flag = flag;
  return flag;
}

sunindextype last_flag(SUNLinearSolver s) { return content(s).last_flag; }

int space(SUNLinearSolver s, long* lenrw, long* leniw) { return SUNLinSolSpace(content(s).inner, lenrw, leniw); }

int free_solver(SUNLinearSolver s) {
  if (s == nullptr) return SUNLS_SUCCESS;
  delete static_cast<KluReuseContent*>(s->content);
  s->content = nullptr;
  SUNLinSolFreeEmpty(s);
  return SUNLS_SUCCESS;
}

}  // namespace

namespace {

// SUNLinSol_KLU's analysis (KLU's 64-bit interface).
class KluAnalysis64 final : public KluAnalysis {
 public:
  ~KluAnalysis64() override {
    if (symbolic != nullptr) sun_klu_free_symbolic(&symbolic, &common);
  }
  sun_klu_symbolic* symbolic = nullptr;
  sun_klu_common common{};  // only to free `symbolic` (KLU's default allocator, as SUNDIALS')
  std::vector<sunindextype> col_ptr, row_idx;
  decltype(sun_klu_common::ordering) ordering = 0;
  decltype(sun_klu_common::user_order) user_order = nullptr;
};

}  // namespace

KluAnalysisPtr detach_klu_analysis(SUNLinearSolver solver, std::span<const sunindextype> col_ptr,
                                   std::span<const sunindextype> row_idx) {
  if (solver == nullptr || solver->ops->setup != setup) return nullptr;  // not ours
  KluReuseContent& c = content(solver);
  SUNLinearSolverContent_KLU k = klu(c.inner);
  if (!c.keep_analysis || k->symbolic == nullptr || k->first_factorize) return nullptr;
  std::unique_ptr<KluAnalysis64> out(new (std::nothrow) KluAnalysis64());
  if (!out) return nullptr;
  try {
    out->col_ptr.assign(col_ptr.begin(), col_ptr.end());
    out->row_idx.assign(row_idx.begin(), row_idx.end());
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
  sun_klu_defaults(&out->common);
  out->ordering = k->common.ordering;
  out->user_order = k->common.user_order;
  out->symbolic = std::exchange(k->symbolic, nullptr);
  k->first_factorize = 1;  // without an analysis the next setup must make one (SUNDIALS' path)
  c.factor_afresh = false;
  return KluAnalysisPtr(out.release());
}

bool adopt_klu_analysis(SUNLinearSolver solver, KluAnalysisPtr& analysis, std::span<const sunindextype> col_ptr,
                        std::span<const sunindextype> row_idx) {
  auto* kept = dynamic_cast<KluAnalysis64*>(analysis.get());
  if (solver == nullptr || solver->ops->setup != setup || kept == nullptr || kept->symbolic == nullptr) return false;
  KluReuseContent& c = content(solver);
  SUNLinearSolverContent_KLU k = klu(c.inner);
  if (!c.keep_analysis || k->symbolic != nullptr || k->common.ordering != kept->ordering ||
      k->common.user_order != kept->user_order ||
      !std::equal(col_ptr.begin(), col_ptr.end(), kept->col_ptr.begin(), kept->col_ptr.end()) ||
      !std::equal(row_idx.begin(), row_idx.end(), kept->row_idx.begin(), kept->row_idx.end()))
    return false;
  k->symbolic = std::exchange(kept->symbolic, nullptr);
  analysis.reset();
  c.adopted = true;
  ++c.counters->adopted_analyses;
  return true;
}

SUNLinearSolver make_klu_symbolic_reuse(SUNLinearSolver inner, bool keep_analysis, KluCounters* counters,
                                        SUNContext ctx) {
  if (inner == nullptr || counters == nullptr || SUNLinSolGetID(inner) != SUNLINEARSOLVER_KLU) return nullptr;
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  s->content = new (std::nothrow) KluReuseContent{inner, keep_analysis, counters};
  if (s->content == nullptr) {
    SUNLinSolFreeEmpty(s);
    return nullptr;
  }
  s->ops->gettype = get_type;
  s->ops->getid = get_id;
  s->ops->initialize = initialize;
  s->ops->setup = setup;
  s->ops->solve = solve;
  s->ops->lastflag = last_flag;
  s->ops->space = space;
  s->ops->free = free_solver;
  return s;
}

}  // namespace lsdae::simulation
