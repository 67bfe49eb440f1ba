// models/kit/projection.h -- the Gauss-Newton step of a coordinate projection
// onto the constraint manifold C(x) = 0, for the FMI 2.0 constraint extension
// of Najafi et al. (fmi2ProjectionStep, fmi2Projection).
//
// With m active constraints over n states (m <= n) the constraint Jacobian
// D = dC/dx (m x n) is wide, so the paper's illustrative least-squares form
// S = (D^T D)^-1 D^T C cannot be used: D^T D is n x n of rank m < n and
// singular. The kit uses the minimum-norm solution of the linearized
// constraint D S = -C instead,
//
//     S = -D^T (D D^T)^-1 C,
//
// the smallest correction (Euclidean norm, unscaled states) that zeroes the
// linearized constraints: one step of the orthogonal projection of Hairer and
// Wanner (1996, section VII.2) and of CPODES. The sign makes x + S the
// Gauss-Newton iterate (the paper's pseudo-code adds S to the states). D D^T
// is m x m, symmetric positive definite when D has full row rank; it is
// solved by Gaussian elimination with partial pivoting, and a pivot below
// 1e-13 times the largest diagonal entry of D D^T counts as rank-deficient
// (the paper warns that D loses rank at e.g. bifurcation points).
#ifndef LSDAE_MODELS_KIT_PROJECTION_H
#define LSDAE_MODELS_KIT_PROJECTION_H

#include <cstddef>

namespace lsdae::kit {

// S[n] = -D^T (D D^T)^-1 C for D (m x n, row-major) and C[m]. Returns false,
// leaving S unspecified, when D D^T is numerically singular or a value is not
// finite. m == 0 gives S = 0.
bool minimum_norm_step(const double* D, const double* C, std::size_t m, std::size_t n, double* S);

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_PROJECTION_H
