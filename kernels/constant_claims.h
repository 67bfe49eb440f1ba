// kernels/constant_claims.h -- checks the Jacobian entries a model DECLARES
// constant (kernels::ConstantEntries: FMI 3.0 dependenciesKind constant,
// fixed, tunable, discrete) before the integrator relies on them.
//
// A declared kind is a claim of someone else's code (issue 32: the FMI
// project's Roberts declares four entries of the Robertson rates constant
// that are not, and a Jacobian frozen at those values stops IDA). The
// ground truth is the residual itself, never the directional derivatives
// (they are a claim too):
//   at two points, P0 = the given point and P1 = P0 moved by
//   δ_k = 0.1·max(|y_k|, nominal_k)·s_k (s_k ∈ [0.5, 1], a fixed spread, so
//   that entries that are exactly 0 at the start, y_k = 0, are seen to move),
//   every claimed entry's ∂G/∂y part and, where it has one, its ∂G/∂y' part
//   are taken by central differences G(y ± h e_c), h_c = 1e-3·max(|y_c|,
//   nominal_c) (an affine dependency has no truncation error; the larger
//   step divides the rounding), one pair of residual calls per colour of
//   the FULL colouring restricted to the columns holding claimed entries
//   (a distance-2 colouring: a row sees at most one column of a colour).
// Entry p is a false claim when
//     |a0 − a1| > 1e-6·(|a0| + |a1|) + noise0 + noise1,
//     noise = 4·ε·max(|G+_r|, |G−_r|, Σ_c' |a_rc'|·scale_c', scale_c·Σ_r' |a_r'c|)/h_c
//             (the rounding of the quotient; the sums over the row's and the column's claimed
//             entries bound the terms G_r adds up, which at a solved point cancel to |G±| ≈ 0:
//             a bus's current balance, a tripped branch subtracted from an admittance sum),
// as tests/models/corpus_test.cpp ConstantKindsAreConstant judges the kit.
// When G is not ok at P1 (outside the model's domain) δ is halved, at most
// four times; without a usable P1 nothing is judged (`perturbed` false).
// A column whose pair is not ok at either point is skipped.
// Cost: 2 points × 2 × (colours of the claimed columns, ×2 where a y' part
// is claimed) residual calls, + 1 per P1 attempt, + 1 at P0 at the end
// (the model is left at P0). No call goes through the integrator, so its
// counters do not move.
#ifndef LSDAE_KERNELS_CONSTANT_CLAIMS_H
#define LSDAE_KERNELS_CONSTANT_CLAIMS_H

#include <cstddef>
#include <span>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "kernels/residual_function.h"
#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::kernels {

struct ClaimPoint {
  double t = 0.0;
  std::span<const double> y, yp;
  std::span<const double> nominal;  // per unknown; empty: 1
};

struct FalseClaim {
  std::size_t entry = 0;        // CSC index in the pattern
  std::size_t row = 0, column = 0;
  bool derivative_part = false;  // the ∂G/∂y' part varies (else the ∂G/∂y part)
  double at_point = 0.0;         // the part's value at P0
  double at_perturbed = 0.0;     // and at P1
};

struct ClaimCheck {
  std::vector<FalseClaim> false_claims;  // ascending entry
  std::size_t checked = 0;               // claimed entry parts (y, y') judged
  std::size_t residual_calls = 0;
  bool perturbed = false;  // a P1 was found (else nothing was judged)
};

// `entries` per CSC entry of `pattern` (empty lifetime: nothing claimed);
// `coloring` a distance-2 colouring of `pattern`.
ClaimCheck check_constant_claims(ResidualFunction& f, const structure::Pattern& pattern,
                                 const structure::Coloring& coloring, const ConstantEntries& entries,
                                 const ClaimPoint& point);

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_CONSTANT_CLAIMS_H
