// runtime/simulation/ida/klu_ordering.h -- the fill-reducing ordering KLU
// applies to each diagonal block of its BTF form (docs/simulation/ida.md, "Linear
// algebra"; SUNDIALS: SUNLinSol_KLUSetOrdering).
//
// amd     approximate minimum degree of A + Aᵀ (KLU's default; Amestoy, Davis
//         & Duff, SIAM J. Matrix Anal. Appl. 17(4), 1996);
// colamd  column approximate minimum degree of AᵀA (Davis et al., ACM TOMS
//         30(3), 2004);
// metis   nested dissection of A + Aᵀ by METIS_NodeND (Karypis & Kumar, SIAM
//         J. Sci. Comput. 20(1), 1998), handed to KLU as its user ordering.
//         The diagonal is dropped, duplicates merged; METIS' seed is fixed
//         (deterministic). Cost: O(nnz) to build the graph, then METIS'.
// Both of KLU's interfaces get the same choice: SUNLinSol_KLU (64-bit
// indices, klu_l_*) and lsdae's own solver on the 32-bit one (klu32_solver.h);
// METIS sees the same graph through either, so the orderings are the same.
// Contract: `solver` is a SUNLinSol_KLU made for the matrix to be analysed, or
// `common` a klu_common set to KLU's defaults; nothing is validated beyond
// that (the enum is closed).
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_KLU_ORDERING_H
#define LSDAE_RUNTIME_SIMULATION_IDA_KLU_ORDERING_H

#include <sundials/sundials_linearsolver.h>

struct klu_common_struct;  // <klu.h>: klu_common, KLU's 32-bit interface

namespace lsdae::simulation {

enum class KluOrdering { amd, colamd, metis };
const char* to_string(KluOrdering ordering) noexcept;

// Sets `ordering` on a SUNLinSol_KLU solver, before its first setup.
void set_klu_ordering(SUNLinearSolver solver, KluOrdering ordering);
// Sets `ordering` in the controls of KLU's 32-bit interface, before klu_analyze.
void set_klu_ordering(klu_common_struct& common, KluOrdering ordering);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_KLU_ORDERING_H
