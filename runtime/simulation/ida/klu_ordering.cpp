// runtime/simulation/ida/klu_ordering.cpp -- see klu_ordering.h.
#include "simulation/ida/klu_ordering.h"

#include <metis.h>
#include <sunlinsol/sunlinsol_klu.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace lsdae::simulation {

const char* to_string(KluOrdering ordering) noexcept {
  switch (ordering) {
    case KluOrdering::amd: return "amd";
    case KluOrdering::colamd: return "colamd";
    case KluOrdering::metis: return "metis";
  }
  return "?";
}

namespace {

// KLU user ordering: METIS nested dissection of the pattern of A + Aᵀ
// (diagonal dropped). Returns a positive number on success, 0 on failure,
// as KLU expects of `user_order`. Int: KLU's index type (int32 for klu_*,
// SuiteSparse_long for klu_l_*); the graph METIS sees is the same for both.
template <typename Int, typename Common>
Int metis_order(Int n, Int* Ap, Int* Ai, Int* Perm, Common* /*common*/) {
  std::vector<std::vector<idx_t>> adjacency(static_cast<std::size_t>(n));
  for (Int j = 0; j < n; ++j)
    for (Int p = Ap[j]; p < Ap[j + 1]; ++p) {
      Int i = Ai[p];
      if (i == j) continue;
      adjacency[static_cast<std::size_t>(i)].push_back(static_cast<idx_t>(j));
      adjacency[static_cast<std::size_t>(j)].push_back(static_cast<idx_t>(i));
    }
  std::vector<idx_t> xadj{0}, adjncy;
  for (auto& list : adjacency) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    adjncy.insert(adjncy.end(), list.begin(), list.end());
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  idx_t nvtxs = static_cast<idx_t>(n);
  std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(static_cast<std::size_t>(n));
  if (adjncy.empty()) {
    for (Int k = 0; k < n; ++k) Perm[k] = k;
    return 1;
  }
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // deterministic
  if (METIS_NodeND(&nvtxs, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data()) != METIS_OK)
    return 0;
  // METIS: row k of the permuted matrix is row perm[k] of A -- KLU's Perm.
  for (Int k = 0; k < n; ++k) Perm[k] = static_cast<Int>(perm[static_cast<std::size_t>(k)]);
  return 1;
}

}  // namespace

void set_klu_ordering(SUNLinearSolver solver, KluOrdering ordering) {
  switch (ordering) {
    case KluOrdering::amd: SUNLinSol_KLUSetOrdering(solver, 0); break;
    case KluOrdering::colamd: SUNLinSol_KLUSetOrdering(solver, 1); break;
    case KluOrdering::metis: {
      sun_klu_common* common = SUNLinSol_KLUGetCommon(solver);
      common->ordering = 3;  // user ordering
      common->user_order = metis_order<SuiteSparse_long, klu_l_common>;
      break;
    }
  }
}

void set_klu_ordering(klu_common& common, KluOrdering ordering) {
  switch (ordering) {
    case KluOrdering::amd: common.ordering = 0; break;
    case KluOrdering::colamd: common.ordering = 1; break;
    case KluOrdering::metis:
      common.ordering = 3;  // user ordering
      common.user_order = metis_order<int, klu_common>;
      break;
  }
}

}  // namespace lsdae::simulation
