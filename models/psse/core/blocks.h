// models/psse/core/blocks.h -- the linear blocks of the control block
// diagrams (lag, lead-lag, washout, PI), with their limits as the standard
// defines them, and the gates; shared by exciters, stabilizers and governors;
// and, as free functions at the end, the blocks of the WECC renewable models
// (dead band with two edges, PI with non-windup limits on its sum, saturating
// ramp, rate limit), written on the limiter primitives of frame.h.
//
// Reference: IEEE Std 421.5-2016, Annex E ("Limiters"), which the PSS/E
// Model Library draws alike: a WINDUP limit clamps a block's output and
// leaves its state running; a NON-WINDUP limit stops the state at the limit
// while the input pushes outward and releases it as soon as the input turns
// back (limiter.h). A time constant entered as zero removes the block's
// state: a lag becomes its gain, a lead-lag with TB = 0 its gain, and a
// non-windup limit on a lag with T = 0 becomes a clamp of its output (the
// limit of the non-windup lag as T -> 0).
//
// Each block owns the index of its state (and of its limiter); a model
//   1. constructs it from its parameters (the model checks them, with
//      messages naming the fields: a block trusts its caller);
//   2. declares it in declare() (its state, named "<name>", and limiter);
//   3. initializes it in initialize() from the steady-state value of its
//      output (or input), which gives the other side -- backward from the
//      Efd the machine needs to the reference; then, where a high gain over
//      a short time constant would amplify the rounding of that backward
//      pass, forward again from the realized input with settle(), which sets
//      each state as the equations compute it, so that every derivative is
//      zero to rounding (the last integrator absorbs what is left);
//   4. evaluates it ONCE per equations() call: operator() returns the block's
//      output and writes its state's derivative (and records its limiter).
//
// Cost: a few flops per block; no allocation.
#ifndef LSDAE_MODELS_PSSE_CORE_BLOCKS_H
#define LSDAE_MODELS_PSSE_CORE_BLOCKS_H

#include <string>

#include "psse/core/component.h"

namespace lsdae::psse {

// |V| at the component's bus.
template <class T>
T voltage_magnitude(const Frame<T>& f) {
  return hypot(f.vr(), f.vi());
}

// K / (1 + sT). T = 0: y = K u, no state.
class Lag {
 public:
  Lag() = default;
  Lag(double gain, double time_constant) : k_(gain), t_(time_constant) {}
  void declare(Layout& l, const std::string& name, const std::string& description) {
    state_ = t_ > 0.0 ? l.state(name, description) : -1;
  }
  // Steady state with output y: the state; returns the input y / K (0 when K = 0).
  double initialize(InitContext& in, double y) const {
    if (state_ >= 0) in.state(state_, y);
    return k_ != 0.0 ? y / k_ : 0.0;
  }
  // Steady state with input u, forward: the state is K u, computed as the
  // equations compute it, so that its derivative is exactly zero; returns the output.
  double settle(InitContext& in, double u) const {
    const double y = k_ * u;
    if (state_ >= 0) in.state(state_, y);
    return y;
  }
  template <class T>
  T operator()(Frame<T>& f, const T& u) const {
    if (state_ < 0) return k_ * u;
    const T& x = f.x(state_);
    f.der(state_, (k_ * u - x) / t_);
    return x;
  }
  int state() const { return state_; }

 private:
  double k_ = 1.0, t_ = 0.0;
  int state_ = -1;
};

// K / (1 + sT) with NON-WINDUP limits lo <= y <= hi on its state (IEEE Std
// 421.5-2016, Annex E); T = 0: the output K u clamped (a windup limiter).
class NonWindupLag {
 public:
  NonWindupLag() = default;
  NonWindupLag(double gain, double time_constant) : k_(gain), t_(time_constant) {}
  void declare(Layout& l, const std::string& name, const std::string& description) {
    if (t_ > 0.0) {
      state_ = l.state(name, description);
      limiter_ = l.limiter(name, LimiterKind::non_windup, state_);
    } else {
      state_ = -1;
      limiter_ = l.limiter(name, LimiterKind::windup);
    }
  }
  // As Lag::initialize and Lag::settle; a y outside the limits is reported by the framework.
  double initialize(InitContext& in, double y) const {
    if (state_ >= 0) in.state(state_, y);
    return k_ != 0.0 ? y / k_ : 0.0;
  }
  double settle(InitContext& in, double u) const {
    const double y = k_ * u;
    if (state_ >= 0) in.state(state_, y);
    return y;
  }
  template <class T>
  T operator()(Frame<T>& f, const T& u, const T& lo, const T& hi) const {
    if (state_ < 0) return f.clamp(limiter_, k_ * u, lo, hi);
    const T& x = f.x(state_);
    f.der(state_, f.hold(limiter_, x, (k_ * u - x) / t_, lo, hi));
    return x;
  }
  int state() const { return state_; }

 private:
  double k_ = 1.0, t_ = 0.0;
  int state_ = -1, limiter_ = -1;
};

// K (1 + sTC) / (1 + sTB). TB = 0: y = K u, no state (the model refuses
// TC > 0 with TB = 0, an improper block).
class LeadLag {
 public:
  LeadLag() = default;
  LeadLag(double lead, double lag, double gain = 1.0) : tc_(lead), tb_(lag), k_(gain) {}
  void declare(Layout& l, const std::string& name, const std::string& description) {
    state_ = tb_ > 0.0 ? l.state(name, description) : -1;
  }
  // Steady state with output y: returns the input u = y / K (0 when K = 0); the state is u.
  double initialize(InitContext& in, double y) const {
    const double u = k_ != 0.0 ? y / k_ : 0.0;
    if (state_ >= 0) in.state(state_, u);
    return u;
  }
  // Steady state with input u, forward (Lag::settle): the state is u; returns the output.
  double settle(InitContext& in, double u) const {
    if (state_ >= 0) in.state(state_, u);
    return k_ * u;
  }
  template <class T>
  T operator()(Frame<T>& f, const T& u) const {
    if (state_ < 0) return k_ * u;
    const T& x = f.x(state_);
    f.der(state_, (u - x) / tb_);
    return k_ * (x + (tc_ / tb_) * (u - x));
  }
  int state() const { return state_; }

 private:
  double tc_ = 0.0, tb_ = 0.0, k_ = 1.0;
  int state_ = -1;
};

// s K / (1 + sT): rate feedback, a washout. K = 0: y = 0, no state (the
// model refuses T = 0 with K != 0, a pure derivative).
class Washout {
 public:
  Washout() = default;
  Washout(double gain, double time_constant) : k_(gain), t_(time_constant) {}
  void declare(Layout& l, const std::string& name, const std::string& description) {
    state_ = k_ != 0.0 && t_ > 0.0 ? l.state(name, description) : -1;
  }
  // Steady state with input u: the state is u, the output 0.
  void initialize(InitContext& in, double u) const {
    if (state_ >= 0) in.state(state_, u);
  }
  template <class T>
  T operator()(Frame<T>& f, const T& u) const {
    if (state_ < 0) return T(0.0);
    const T& x = f.x(state_);
    const T rate = (u - x) / t_;
    f.der(state_, rate);
    return k_ * rate;
  }
  int state() const { return state_; }

 private:
  double k_ = 0.0, t_ = 0.0;
  int state_ = -1;
};

// KP + KI/s with NON-WINDUP limits lo <= y <= hi (IEEE Std 421.5-2016,
// Annex E): y = KP u + x, dx/dt = KI u. When y reaches a limit while KI u
// pushes outward, the integrator is set to that limit and held, and y stays
// at the limit; it is released when KI u turns back, where y = limit + KP u
// continues from the limit. (One non-windup limiter on the integrator that
// tests y; with KP = 0 it is a non-windup integrator KI/s.) KI = 0: y = KP u
// clamped (a windup limiter), no state.
class PiNonWindup {
 public:
  PiNonWindup() = default;
  PiNonWindup(double kp, double ki) : kp_(kp), ki_(ki) {}
  void declare(Layout& l, const std::string& name, const std::string& description) {
    if (ki_ != 0.0) {
      state_ = l.state(name, description);
      limiter_ = l.limiter(name, LimiterKind::non_windup, state_);
    } else {
      state_ = -1;
      limiter_ = l.limiter(name, LimiterKind::windup);
    }
  }
  // Steady state with output y: the integrator holds y and the input is 0
  // (KI = 0: no state, the input is y / KP).
  double initialize(InitContext& in, double y) const {
    if (state_ >= 0) {
      in.state(state_, y);
      return 0.0;
    }
    return kp_ != 0.0 ? y / kp_ : 0.0;
  }
  template <class T>
  T operator()(Frame<T>& f, const T& u, const T& lo, const T& hi) const {
    if (state_ < 0) return f.clamp(limiter_, kp_ * u, lo, hi);
    const T y = kp_ * u + f.x(state_);
    f.der(state_, f.hold(limiter_, y, ki_ * u, lo, hi));
    const int m = f.mode(limiter_);
    return m == kModeHigh ? hi : (m == kModeLow ? lo : y);
  }
  int state() const { return state_; }

 private:
  double kp_ = 0.0, ki_ = 0.0;
  int state_ = -1, limiter_ = -1;
};

// Low- and high-value gates, min(a, b) and max(a, b): a limiter of kind
// select (Frame::low_select / high_select), so the selection changes at a
// state event where a = b, and a gate passing its second input is normal
// operation, never reported at initialization. Modes: free while a passes;
// high (low gate) or low (high gate) while b passes.
class Gate {
 public:
  void declare(Layout& l, const std::string& name) { limiter_ = l.limiter(name, LimiterKind::select); }
  template <class T>
  T low(Frame<T>& f, const T& a, const T& b) const {
    return f.low_select(limiter_, a, b);
  }
  template <class T>
  T high(Frame<T>& f, const T& a, const T& b) const {
    return f.high_select(limiter_, a, b);
  }

 private:
  int limiter_ = -1;
};

// ---- The renewable models' blocks. A limiter index of -1 means "this block
// has no such limit" (a dead band of zero width, a one-sided rate limit),
// and the block then writes no record for it.

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
