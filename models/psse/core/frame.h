// models/psse/core/frame.h -- what a dynamic model's equations see and write:
// its own states x, algebraic variables z, inputs u (signals of its unit),
// the bus voltage, its parameters and the modes of its limiters; it writes
// the derivatives dx/dt = f, the residuals 0 = g, and the current it
// injects into the network.
//
// A Frame is built by the framework (system.h) around a component's local
// slice of the FMU's variables: knowns = [x | z | u | Vr Vi], outputs =
// [f | g | Ir Ii]. The scalar T is double (values) or Dual (one column of the
// local Jacobian, dual.h). Parameters and modes are plain numbers: they are
// constant between events.
//
// Limiters (IEEE Std 421.5-2016, Annex E; PSS/E Model Library): a model
// never writes min/max itself. It calls clamp() for a windup limit on a
// block's output, hold() for a non-windup limit on a state (an integrator or
// a lag whose state stops at the limit), hold_pi() for the integrator of a
// PI whose sum is limited, below() for a switch (a load's low-voltage
// change of characteristic). Each uses the limiter's MODE, fixed
// between events, so the equations are smooth within a mode; the framework
// records the limiter's input at every double evaluation and turns it into
// an event indicator, so that a limit engaging or releasing is a state event
// located by the integrator -- never a smooth approximation (limiter.h has
// the rules).
//
// Contract: every equation writes each der(i) and res(j) exactly once (the
// framework sets unwritten outputs to 0, and a model test catches that);
// inject() only for models attached to the network (machines, loads,
// converters). All values are per unit: voltages on the bus base, currents
// injected on the SYSTEM MVA base (a machine converts from its MBASE).
#ifndef LSDAE_MODELS_PSSE_CORE_FRAME_H
#define LSDAE_MODELS_PSSE_CORE_FRAME_H

#include <cstddef>
#include <type_traits>

#include "psse/core/dual.h"

namespace lsdae::psse {

// How a limiter acts (limiter.h).
enum class LimiterKind {
  windup,      // on a block's output: y = lo / u / hi; the block's state runs on
  non_windup,  // on a state: dx/dt = 0 while held at lo or hi; released when the rate turns back
  below,       // a switch: mode 1 while u < threshold (lo), else 0
  select,      // a gate or a dead band (low_select, high_select, dead_band): switches as windup
               // does, but its input beyond a bound is normal operation, so it is never
               // reported at initialization (the model notes what matters, e.g. a limit
               // below the request at the operating point)
  pi_non_windup,  // the integrator of a PI: dx/dt = 0 while the PI's sum is held at lo or hi
};

// The one value of "no limit" on this side, for every limiter of every model
// (a gate's open side, a one-sided limit, a limit a record does not give).
// FINITE on purpose: an event indicator is a difference with a limit
// (limiter.h), and FMI 3.0 needs every indicator a finite number for the
// importer's root finding; with infinity, an indicator of a limiter without
// either limit is inf, and the hysteresis test (hi − margin·|hi|) is
// inf − inf = nan, a comparison that is always false. 1e30 keeps every
// difference finite (1e30 − x, margins 1e-8·1e30) and beyond any value a
// model reaches, so no mode ever changes on it; and a case's results are
// bitwise those it had with infinity: min(x − lo, 1e30 − x) = x − lo, as
// min(x − lo, inf) is, for any x and lo a model reaches. PSS/E data have no infinity either: a .dyr spells a
// limit it does not want as a large number (±99, ±999: kept as they are,
// limits that never bind) or, where a model's manual says so, as 0 (e.g.
// the DC exciters' VRMAX = 0: a computed limit, exciter_common.h); a model
// that turns such a field into "no limit" uses kUnbounded.
inline constexpr double kUnbounded = 1e30;

// Mode values of a limiter (Float64 discrete variables of the FMU).
inline constexpr int kModeFree = 0;
inline constexpr int kModeHigh = 1;
inline constexpr int kModeLow = -1;
inline constexpr int kModeBelow = 1;  // LimiterKind::below: u < threshold

// What a double evaluation records for each limiter: the input of the test.
struct LimiterRecord {
  double u = 0;     // windup: the unlimited input; non_windup: the state; pi_non_windup: the PI's sum; below: the tested value
  double lo = 0;    // lower limit (below: the threshold)
  double hi = 0;    // upper limit
  double rate = 0;  // non_windup, pi_non_windup: the unlimited derivative of the state
  bool written = false;
};

// Offsets of a component's local slice (set by the framework).
struct FrameShape {
  int states = 0, algebraics = 0, inputs = 0, parameters = 0, limiters = 0;
  int known_count() const { return states + algebraics + inputs + 2; }
  int output_count() const { return states + algebraics + 2; }
  int vr_index() const { return states + algebraics + inputs; }
};

template <class T>
class Frame {
 public:
  Frame(const FrameShape& shape, const T* known, T* out, const double* parameter, const int* mode,
        LimiterRecord* record, double time)
      : s_(shape), known_(known), out_(out), parameter_(parameter), mode_(mode), record_(record), time_(time) {}

  // ---- reading
  const T& x(int i) const { return known_[i]; }
  const T& z(int j) const { return known_[s_.states + j]; }
  const T& u(int k) const { return known_[s_.states + s_.algebraics + k]; }
  const T& vr() const { return known_[s_.vr_index()]; }
  const T& vi() const { return known_[s_.vr_index() + 1]; }
  double p(int k) const { return parameter_[k]; }
  int mode(int limiter) const { return mode_[limiter]; }
  double time() const { return time_; }

  // ---- writing
  void der(int i, const T& value) { out_[i] = value; }
  void res(int j, const T& value) { out_[s_.states + j] = value; }
  // Current injected INTO the network at the bus, p.u. on the system base.
  void inject(const T& ir, const T& ii) {
    out_[s_.states + s_.algebraics] += ir;
    out_[s_.states + s_.algebraics + 1] += ii;
  }

  // ---- limiters (see the header comment and limiter.h)
  // Windup limit: u while free, lo or hi while at that limit.
  T clamp(int k, const T& u, T lo, T hi) {
    widened(k, lo, hi);
    record(k, u, lo, hi, T(0.0));
    const int m = mode_[k];
    return m == kModeHigh ? hi : (m == kModeLow ? lo : u);
  }
  // Non-windup limit on state x whose unlimited derivative is `rate`: the
  // derivative to use (0 while held).
  T hold(int k, const T& x, const T& rate, T lo, T hi) {
    widened(k, lo, hi);
    record(k, x, lo, hi, rate);
    return mode_[k] == kModeFree ? rate : T(0.0);
  }
  // Non-windup limits of a PI block (IEEE Std 421.5-2016, Annex E): the sum
  // v = Kp u + x is limited to [lo, hi] by a separate clamp(); this stops
  // the integrator x (whose unlimited derivative is `rate` = Ki u) once v
  // reaches a limit with the rate pointing outward, until the rate turns
  // back. Returns dx/dt (0 while held). Unlike hold(), engaging does not
  // move x: the limit is on the sum, not on the state.
  T hold_pi(int k, const T& v, const T& rate, T lo, T hi) {
    widened(k, lo, hi);
    record(k, v, lo, hi, rate);
    return mode_[k] == kModeFree ? rate : T(0.0);
  }
  // A switch: true while u is below the threshold.
  bool below(int k, const T& u, const T& threshold) {
    record(k, u, threshold, T(0.0), T(0.0));
    return mode_[k] == kModeBelow;
  }
  // Low-value gate min(a, b): a windup limit on a whose upper limit is b
  // (mode high while b is passed on). Limiter k must be of kind select.
  T low_select(int k, const T& a, const T& b) { return clamp(k, a, T(-kUnbounded), b); }
  // High-value gate max(a, b): a windup limit on a whose lower limit is b
  // (mode low while b is passed on). Limiter k must be of kind select.
  T high_select(int k, const T& a, const T& b) { return clamp(k, a, b, T(kUnbounded)); }
  // Dead band of half width w >= 0 without step: 0 for |u| <= w, u - w above,
  // u + w below (u minus its windup clamp to [-w, w]). Limiter k must be of
  // kind select; with w = 0 it would switch at every zero crossing of u, so a
  // model declares it only for w > 0.
  T dead_band(int k, const T& u, double w) { return u - clamp(k, u, T(-w), T(w)); }

  // The framework's widened limits (ComponentSlot::widen: PowerWorld's rule
  // for a value that starts beyond its limit), two per limiter: the lower
  // limit is at most widen[2k], the upper at least widen[2k + 1]; null: none.
  void widen_limits(const double* widen) { widen_ = widen; }

 private:
  void widened(int k, T& lo, T& hi) const {
    if (widen_ == nullptr) return;
    const double low = widen_[2 * k], high = widen_[2 * k + 1];
    if constexpr (std::is_same_v<T, Dual>) {
      if (low < lo.v) lo = T(low);
      if (high > hi.v) hi = T(high);
    } else {
      if (low < lo) lo = low;
      if (high > hi) hi = high;
    }
  }

  void record(int k, const T& u, const T& lo, const T& hi, const T& rate) {
    if (record_ == nullptr) return;
    if constexpr (std::is_same_v<T, Dual>)
      record_[k] = {u.d, lo.d, hi.d, rate.d, true};
    else
      record_[k] = {u, lo, hi, rate, true};
  }

  const FrameShape& s_;
  const T* known_;
  T* out_;
  const double* parameter_;
  const int* mode_;
  LimiterRecord* record_;
  double time_;
  const double* widen_ = nullptr;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_FRAME_H
