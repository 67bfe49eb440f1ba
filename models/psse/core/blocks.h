// models/psse/core/blocks.h -- blocks that recur in the standard models'
// diagrams (dead band, PI with non-windup limits, rate limit), written on the
// limiter primitives of frame.h, so that every kink of theirs is a limiter
// whose mode changes at a located state event (limiter.h), never a smooth
// approximation.
//
// A model declares the limiters a block uses in declare() and passes their
// indices; a limiter index of -1 means "this block has no such limit" (a dead
// band of zero width, a one-sided rate limit), and the block then writes no
// record for it. kUnbounded stands for a missing bound of a limiter that has
// the other one.
//
// Cost: a few flops each; they allocate nothing.
#ifndef LSDAE_MODELS_PSSE_CORE_BLOCKS_H
#define LSDAE_MODELS_PSSE_CORE_BLOCKS_H

#include "psse/core/frame.h"

namespace lsdae::psse {

// A bound that is never reached (indicators stay far from zero; margins
// scale with it, limiter.h).
inline constexpr double kUnbounded = 1e30;

// Dead band without offset (the WECC renewable models, PSS/E's "dbd1, dbd2"):
//     y = u − d2 for u > d2,  0 for d1 <= u <= d2,  u − d1 for u < d1,
// i.e. y = u − clamp(u, d1, d2). `k` a windup limiter, or -1 when d1 == d2
// (then y = u − d1: no kink).
template <class T>
T dead_band(Frame<T>& f, int k, const T& u, double d1, double d2) {
  if (k < 0) return u - d1;
  return u - f.clamp(k, u, T(d1), T(d2));
}

// A PI block Kp + Ki/s on input u with non-windup limits [lo, hi] on its sum
// (IEEE Std 421.5-2016, Annex E; frame.h hold_pi): writes the derivative of
// its integrator `state` (0 while held, or while `frozen`) and returns the
// limited output. `k_sum` a windup limiter, `k_int` a pi_non_windup limiter.
template <class T>
T pi_non_windup(Frame<T>& f, int k_sum, int k_int, int state, const T& u, double kp, double ki, const T& lo,
                const T& hi, bool frozen = false) {
  const T v = kp * u + f.x(state);
  const T rate = f.hold_pi(k_int, v, T(ki * u), lo, hi);
  f.der(state, frozen ? T(0.0) : rate);
  return f.clamp(k_sum, v, lo, hi);
}

// A saturating ramp, a characteristic (not a limit: being on its flat parts
// is normal operation, nothing to report): y = y0 for u < u0, y1 for u > u1,
// linear between (u0 < u1). `k0`, `k1` are `below` switches at u0 and u1.
// `slope` (may be null) receives dy/du on the current piece.
template <class T>
T ramp(Frame<T>& f, int k0, int k1, const T& u, double u0, double u1, double y0, double y1, double* slope = nullptr) {
  const bool under = f.below(k0, u, T(u0));
  const bool inside = f.below(k1, u, T(u1));
  const double s = (y1 - y0) / (u1 - u0);
  if (slope != nullptr) *slope = under || !inside ? 0.0 : s;
  if (under) return T(y0);
  if (!inside) return T(y1);
  return y0 + s * (u - u0);
}

// A rate limit on a derivative: clamp(rate, lo, hi), or the rate itself when
// `k` is -1.
template <class T>
T rate_limit(Frame<T>& f, int k, const T& rate, double lo, double hi) {
  if (k < 0) return rate;
  return f.clamp(k, rate, T(lo), T(hi));
}

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_BLOCKS_H
