// kernels/derivative_claims.h -- checks the directional derivatives a model
// provides and the dependency pattern it declares, against the residual
// itself, before the integrator relies on them (issue 32).
//
// Both are claims of someone else's code: an exporter's
// fmi3GetDirectionalDerivative can return an entry with a wrong factor or
// sign, and a `dependencies` list can leave out a dependency (a Jacobian
// without that entry, and a linear elimination of the wrong system). The
// ground truth is G: per colour g of a distance-2 colouring of the pattern
// (a row sees at most one column of a colour), the central difference
//     d_r = (G_r(y + h∘v_g) − G_r(y − h∘v_g)) / 2     (v_g: 1 on the colour),
// h_c = 1e-3·max(|y_c|, nominal_c), divided per row by the step of the one
// column of g the pattern puts in row r, is that entry's ∂G/∂y (a second pass
// moves y' instead: the ∂G/∂y' part). Central differences are exact for
// quadratic terms (Robertson's 3e7·y2² at y2 = 0, where forward differences
// are off) and a colour's columns share no row, so no cross term enters.
//   * a WRONG entry: the directional derivative of the colour (the same
//     split seeds, y 1 / y' 0 and y 0 / y' 1) differs from d_r by more than
//     1e-4 of the row's scale (its largest |entry| of either kind) plus the
//     rounding 4·ε·max|G±|/h; confirmed with steps h/100 (a kink of G near
//     the point moves the two difference quotients apart, a wrong
//     derivative does not): flagged only when both quotients agree to a
//     tenth of the disagreement;
//   * a HIDDEN dependency: d_r is that large in a row that no column of the
//     colour has in the pattern (confirmed the same way); the column is
//     then found by moving the colour's columns one at a time.
// Both at the given point P0 and at P1, moved as kernels/constant_claims.h
// moves it (an entry can be right by accident at P0: 0.5·1e4·y3 at y3 = 0).
// Cost, per point: 2 residual calls per colour and part (with directional
// derivatives + 1 call of jacobian_columns_at_rows per colour and part, for
// the rows of the colour's entries, all made at the point before any move, so that a model caching its partials
// per point computes them once per part: on ACTIVSg2000 with every PSS/E
// model that halved the check), + 2 per colour with a suspect row (h/100),
// + 2 per column of a colour with a hidden row; + 1 to 5 for P1, + 1 at the
// end (the model is left at the point). None goes through the integrator:
// its counters do not move.
#ifndef LSDAE_KERNELS_DERIVATIVE_CLAIMS_H
#define LSDAE_KERNELS_DERIVATIVE_CLAIMS_H

#include <cstddef>
#include <vector>

#include "kernels/constant_claims.h"
#include "kernels/residual_function.h"
#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::kernels {

struct DerivativeClaim {
  std::size_t row = 0, column = 0;
  bool derivative_part = false;  // ∂G/∂y' (else ∂G/∂y)
  double claimed = 0.0;          // the directional derivative (0 for a hidden entry)
  double measured = 0.0;         // the central difference
};

struct DerivativeCheck {
  std::vector<DerivativeClaim> wrong;   // entries of the pattern whose directional derivative is wrong
  std::vector<DerivativeClaim> hidden;  // dependencies outside the pattern
  std::size_t residual_calls = 0, directional_calls = 0;
};

// `pattern` the iteration pattern (rows × unknowns), `coloring` a distance-2
// colouring of it. With `directional` false only hidden dependencies are
// looked for (the model's directional derivatives are not called).
DerivativeCheck check_derivative_claims(ResidualFunction& f, const structure::Pattern& pattern,
                                        const structure::Coloring& coloring, const ClaimPoint& point,
                                        bool directional);

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_DERIVATIVE_CLAIMS_H
