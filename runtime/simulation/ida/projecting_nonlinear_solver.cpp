// runtime/simulation/ida/projecting_nonlinear_solver.cpp -- see projecting_nonlinear_solver.h.
#include "simulation/ida/projecting_nonlinear_solver.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

#include <vector>

#include "simulation/ida/jacobian_reuse.h"

namespace lsdae::simulation {

namespace {

struct ProjectingContent {
  SUNNonlinearSolver inner = nullptr;
  StepProjection project;
  std::exception_ptr* error = nullptr;
  std::vector<double> y, yp, w;
  JacobianReuse* reuse = nullptr;            // null: IDA's setup given to the inner solver as it is
  SUNNonlinSolLSetupFn ida_lsetup = nullptr;  // IDA's setup (idaNlsLSetup), called by projecting_lsetup
};

// The solver whose solve() runs on this thread: the inner Newton solver
// calls its setup with IDA's memory only, so projecting_lsetup finds its
// content here (solve() sets it for the duration of the inner solve).
thread_local ProjectingContent* projecting_active = nullptr;

// IDA's setup, and a re-formed matrix reported as not current (jcur false):
// a failed Newton iteration is then retried with jbad (a fresh Jacobian,
// jacobian_reuse.h) instead of failing the step.
int projecting_lsetup(booleantype jbad, booleantype* jcur, void* mem) {
  ProjectingContent* c = projecting_active;
  if (c == nullptr || c->ida_lsetup == nullptr || c->reuse == nullptr) return -1;
  c->reuse->setup_requested(jbad != SUNFALSE);
  const int flag = c->ida_lsetup(jbad, jcur, mem);
  if (flag == 0 && c->reuse->reformed()) *jcur = SUNFALSE;
  return flag;
}

ProjectingContent& content(SUNNonlinearSolver nls) { return *static_cast<ProjectingContent*>(nls->content); }

SUNNonlinearSolver_Type get_type(SUNNonlinearSolver) { return SUNNONLINEARSOLVER_ROOTFIND; }
int initialize(SUNNonlinearSolver nls) { return SUNNonlinSolInitialize(content(nls).inner); }
int setup(SUNNonlinearSolver nls, N_Vector y, void* mem) { return SUNNonlinSolSetup(content(nls).inner, y, mem); }

int solve(SUNNonlinearSolver nls, N_Vector y0, N_Vector ycor, N_Vector w, realtype tol, booleantype call_setup,
          void* mem) {
  ProjectingContent& c = content(nls);
  ProjectingContent* const outer = projecting_active;
  projecting_active = &c;
  const int flag = SUNNonlinSolSolve(c.inner, y0, ycor, w, tol, call_setup, mem);
  projecting_active = outer;
  if (flag != SUN_NLS_SUCCESS || !c.project) return flag;
  realtype t = 0, cj = 0;
  N_Vector yypred = nullptr, yppred = nullptr, yyn = nullptr, ypn = nullptr, res = nullptr;
  void* user = nullptr;
  if (IDAGetNonlinearSystemData(mem, &t, &yypred, &yppred, &yyn, &ypn, &res, &cj, &user) != IDA_SUCCESS) return -1;
  const sunindextype n = N_VGetLength(ycor);
  const double* e = N_VGetArrayPointer(ycor);
  const double* yp0 = N_VGetArrayPointer(yppred);
  const double* y_pred = N_VGetArrayPointer(yypred);
  const double* weights = N_VGetArrayPointer(w);
  c.y.resize(static_cast<std::size_t>(n));
  c.yp.resize(static_cast<std::size_t>(n));
  c.w.assign(weights, weights + n);
  for (sunindextype k = 0; k < n; ++k) {
    c.y[static_cast<std::size_t>(k)] = y_pred[k] + e[k];
    c.yp[static_cast<std::size_t>(k)] = yp0[k] + cj * e[k];
  }
  int status = 0;
  try {
    status = c.project(t, c.y, c.yp, c.w);
  } catch (...) {
    if (c.error != nullptr) *c.error = std::current_exception();
    return -1;
  }
  if (status > 0) return SUN_NLS_CONV_RECVR;
  if (status < 0) return status;
  double* out = N_VGetArrayPointer(ycor);
  for (sunindextype k = 0; k < n; ++k) out[k] = c.y[static_cast<std::size_t>(k)] - y_pred[k];
  return SUN_NLS_SUCCESS;
}

int free_solver(SUNNonlinearSolver nls) {
  if (nls == nullptr) return SUN_NLS_SUCCESS;
  if (nls->content != nullptr) {
    ProjectingContent* c = static_cast<ProjectingContent*>(nls->content);
    SUNNonlinSolFree(c->inner);
    delete c;
    nls->content = nullptr;
  }
  SUNNonlinSolFreeEmpty(nls);
  return SUN_NLS_SUCCESS;
}

int set_sys_fn(SUNNonlinearSolver nls, SUNNonlinSolSysFn f) { return SUNNonlinSolSetSysFn(content(nls).inner, f); }
int set_lsetup_fn(SUNNonlinearSolver nls, SUNNonlinSolLSetupFn f) {
  ProjectingContent& c = content(nls);
  c.ida_lsetup = f;
  return SUNNonlinSolSetLSetupFn(c.inner, c.reuse != nullptr && f != nullptr ? projecting_lsetup : f);
}
int set_lsolve_fn(SUNNonlinearSolver nls, SUNNonlinSolLSolveFn f) {
  return SUNNonlinSolSetLSolveFn(content(nls).inner, f);
}
int set_ctest_fn(SUNNonlinearSolver nls, SUNNonlinSolConvTestFn f, void* data) {
  return SUNNonlinSolSetConvTestFn(content(nls).inner, f, data);
}
int set_max_iters(SUNNonlinearSolver nls, int m) { return SUNNonlinSolSetMaxIters(content(nls).inner, m); }
int get_num_iters(SUNNonlinearSolver nls, long* n) { return SUNNonlinSolGetNumIters(content(nls).inner, n); }
int get_cur_iter(SUNNonlinearSolver nls, int* i) { return SUNNonlinSolGetCurIter(content(nls).inner, i); }
int get_num_conv_fails(SUNNonlinearSolver nls, long* n) { return SUNNonlinSolGetNumConvFails(content(nls).inner, n); }

}  // namespace

SUNNonlinearSolver ProjectingNonlinearSolver::make(N_Vector y_template, SUNContext ctx, StepProjection project,
                                                   std::exception_ptr* error, JacobianReuse* reuse) {
  SUNNonlinearSolver inner = SUNNonlinSol_Newton(y_template, ctx);
  if (inner == nullptr) return nullptr;
  SUNNonlinearSolver nls = SUNNonlinSolNewEmpty(ctx);
  if (nls == nullptr) {
    SUNNonlinSolFree(inner);
    return nullptr;
  }
  nls->ops->gettype = get_type;
  nls->ops->initialize = initialize;
  nls->ops->setup = setup;
  nls->ops->solve = solve;
  nls->ops->free = free_solver;
  nls->ops->setsysfn = set_sys_fn;
  nls->ops->setlsetupfn = set_lsetup_fn;
  nls->ops->setlsolvefn = set_lsolve_fn;
  nls->ops->setctestfn = set_ctest_fn;
  nls->ops->setmaxiters = set_max_iters;
  nls->ops->getnumiters = get_num_iters;
  nls->ops->getcuriter = get_cur_iter;
  nls->ops->getnumconvfails = get_num_conv_fails;
  nls->content = new ProjectingContent{inner, std::move(project), error, {}, {}, {}, reuse, nullptr};
  return nls;
}

}  // namespace lsdae::simulation
