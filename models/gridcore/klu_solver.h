// models/gridcore/klu_solver.h -- a real sparse LU factorization with KLU
// (SuiteSparse), for the Newton steps of the power flows (models/powergrid,
// models/psse) and the PSS/E FMU's event solve.
//
// Algorithm: KLU orders the matrix to block triangular form (BTF), orders
// each block with AMD and factors it with left-looking Gilbert–Peierls LU with
// partial pivoting. Reference: T. A. Davis, E. Palamadai Natarajan, "Algorithm
// 907: KLU, a direct sparse solver for circuit simulation problems", ACM TOMS
// 37(3), 2010.
//
// Policy: analyze() once per pattern. The first factor() factors with
// pivoting; later ones refactor with the same pivots (klu_refactor, no
// search, cheaper), and factor afresh when the refactored matrix's crude
// reciprocal condition estimate (klu_rcond, min|U_ii| / max|U_ii|) falls
// below 1e-12 -- the old pivot order no longer suits the values.
//
// Contract: the pattern is compressed sparse column, 0-based, n + 1 column
// starts, row indices sorted or not, no duplicates; `values` has nnz entries
// in that order; solve() takes and returns a dense vector of length n.
// Failures (singular matrix, out of memory) throw std::runtime_error naming
// the KLU status. The pattern is not validated beyond what KLU checks.
#ifndef LSDAE_MODELS_GRIDCORE_KLU_SOLVER_H
#define LSDAE_MODELS_GRIDCORE_KLU_SOLVER_H

#include <vector>

namespace lsdae::grid {

class KluSolver {
 public:
  KluSolver();
  ~KluSolver();
  KluSolver(const KluSolver&) = delete;
  KluSolver& operator=(const KluSolver&) = delete;

  void analyze(int n, std::vector<int> column_start, std::vector<int> row);
  void factor(const std::vector<double>& values);
  // Whether analyze() was last called with this pattern.
  bool analyzed_for(int n, const std::vector<int>& column_start, const std::vector<int>& row) const;
  void solve(std::vector<double>& rhs) const;  // in place: rhs becomes the solution

  int analyses() const { return analyses_; }
  int factorizations() const { return factorizations_; }
  int refactorizations() const { return refactorizations_; }

 private:
  struct Impl;
  Impl* impl_;
  int analyses_ = 0, factorizations_ = 0, refactorizations_ = 0;
};

}  // namespace lsdae::grid

#endif  // LSDAE_MODELS_GRIDCORE_KLU_SOLVER_H
