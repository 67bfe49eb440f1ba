// runtime/simulation/klu_symbolic_reuse.cpp -- see klu_symbolic_reuse.h.
#include "runtime/simulation/klu_symbolic_reuse.h"

#include <new>

#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

namespace lsdae::simulation {
namespace {

struct Content {
  SUNLinearSolver inner;
  bool keep_analysis;
  KluCounters* counters;
  bool factor_afresh = false;  // a restart with an analysis kept: the next setup runs klu_factor
  sunindextype last_flag = SUNLS_SUCCESS;
};

Content& content(SUNLinearSolver s) { return *static_cast<Content*>(s->content); }
SUNLinearSolverContent_KLU klu(SUNLinearSolver inner) { return static_cast<SUNLinearSolverContent_KLU>(inner->content); }

SUNLinearSolver_Type get_type(SUNLinearSolver) { return SUNLINEARSOLVER_DIRECT; }
SUNLinearSolver_ID get_id(SUNLinearSolver) { return SUNLINEARSOLVER_KLU; }

int initialize(SUNLinearSolver s) {
  Content& c = content(s);
  c.last_flag = SUNLS_SUCCESS;
  if (!c.keep_analysis || klu(c.inner)->symbolic == nullptr || klu(c.inner)->first_factorize) {
    c.factor_afresh = false;
    return SUNLinSolInitialize(c.inner);  // the first analysis is SUNDIALS' own
  }
  c.factor_afresh = true;  // keep the analysis; factor with new pivots at the next setup
  return SUNLS_SUCCESS;
}

int setup(SUNLinearSolver s, SUNMatrix a) {
  Content& c = content(s);
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
  Content& c = content(s);
  int flag = SUNLinSolSolve(c.inner, a, x, b, tol);
  c.last_flag = flag;
  return flag;
}

sunindextype last_flag(SUNLinearSolver s) { return content(s).last_flag; }

int space(SUNLinearSolver s, long* lenrw, long* leniw) { return SUNLinSolSpace(content(s).inner, lenrw, leniw); }

int free_solver(SUNLinearSolver s) {
  if (s == nullptr) return SUNLS_SUCCESS;
  delete static_cast<Content*>(s->content);
  s->content = nullptr;
  SUNLinSolFreeEmpty(s);
  return SUNLS_SUCCESS;
}

}  // namespace

SUNLinearSolver make_klu_symbolic_reuse(SUNLinearSolver inner, bool keep_analysis, KluCounters* counters,
                                        SUNContext ctx) {
  if (inner == nullptr || counters == nullptr || SUNLinSolGetID(inner) != SUNLINEARSOLVER_KLU) return nullptr;
  SUNLinearSolver s = SUNLinSolNewEmpty(ctx);
  if (s == nullptr) return nullptr;
  s->content = new (std::nothrow) Content{inner, keep_analysis, counters};
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
