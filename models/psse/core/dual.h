// models/psse/core/dual.h -- a forward-mode dual number, so that every
// dynamic model writes its equations once (templated on the scalar) and the
// framework derives their exact partial derivatives.
//
// Algorithm: forward-mode automatic differentiation with one tangent
// direction. A Dual carries a value v and a directional derivative d; every
// operation applies the chain rule to d. The framework evaluates a
// component's equations once per local known with that known's d = 1
// (component.h, "Partials"), which gives one column of the component's local
// Jacobian per evaluation. Reference: A. Griewank, A. Walther, Evaluating
// Derivatives, 2nd ed., SIAM 2008, chapter 3.
//
// Cost: each operation costs two to four flops more than on a double.
//
// Contract: comparisons compare values only, so a branch (a limiter's mode,
// a saturation threshold) is taken by value and differentiated within the
// branch taken -- which is the derivative of the equations of the current
// mode, as the DAE solver needs. Functions are provided for double too (in
// this namespace), so that model code calls sin(x), sqrt(x) ... unqualified
// for both scalars.
#ifndef LSDAE_MODELS_PSSE_CORE_DUAL_H
#define LSDAE_MODELS_PSSE_CORE_DUAL_H

#include <cmath>

namespace lsdae::psse {

struct Dual {
  double v = 0.0;  // value
  double d = 0.0;  // directional derivative
  constexpr Dual() = default;
  constexpr Dual(double value) : v(value) {}  // NOLINT: a constant has no derivative
  constexpr Dual(double value, double derivative) : v(value), d(derivative) {}

  Dual& operator+=(const Dual& b) { v += b.v; d += b.d; return *this; }
  Dual& operator-=(const Dual& b) { v -= b.v; d -= b.d; return *this; }
  Dual& operator*=(const Dual& b) { d = d * b.v + v * b.d; v *= b.v; return *this; }
  Dual& operator/=(const Dual& b) { d = (d * b.v - v * b.d) / (b.v * b.v); v /= b.v; return *this; }
};

inline Dual operator+(Dual a, const Dual& b) { return a += b; }
inline Dual operator-(Dual a, const Dual& b) { return a -= b; }
inline Dual operator*(Dual a, const Dual& b) { return a *= b; }
inline Dual operator/(Dual a, const Dual& b) { return a /= b; }
inline Dual operator-(const Dual& a) { return {-a.v, -a.d}; }
inline Dual operator+(const Dual& a) { return a; }

inline bool operator<(const Dual& a, const Dual& b) { return a.v < b.v; }
inline bool operator>(const Dual& a, const Dual& b) { return a.v > b.v; }
inline bool operator<=(const Dual& a, const Dual& b) { return a.v <= b.v; }
inline bool operator>=(const Dual& a, const Dual& b) { return a.v >= b.v; }

inline Dual sin(const Dual& a) { return {std::sin(a.v), std::cos(a.v) * a.d}; }
inline Dual cos(const Dual& a) { return {std::cos(a.v), -std::sin(a.v) * a.d}; }
inline Dual exp(const Dual& a) {
  const double e = std::exp(a.v);
  return {e, e * a.d};
}
inline Dual log(const Dual& a) { return {std::log(a.v), a.d / a.v}; }
// sqrt(0) has an infinite derivative; a zero tangent stays zero there.
inline Dual sqrt(const Dual& a) {
  const double s = std::sqrt(a.v);
  return {s, a.d == 0.0 ? 0.0 : a.d / (2.0 * s)};
}
inline Dual pow(const Dual& a, double p) { return {std::pow(a.v, p), p * std::pow(a.v, p - 1.0) * a.d}; }
inline Dual fabs(const Dual& a) { return a.v < 0.0 ? -a : a; }
inline Dual atan2(const Dual& y, const Dual& x) {
  const double r2 = x.v * x.v + y.v * y.v;
  return {std::atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / r2};
}
inline Dual hypot(const Dual& a, const Dual& b) {
  const double h = std::hypot(a.v, b.v);
  return {h, h == 0.0 ? 0.0 : (a.v * a.d + b.v * b.d) / h};
}
inline Dual tanh(const Dual& a) {
  const double t = std::tanh(a.v);
  return {t, (1.0 - t * t) * a.d};
}

// The same names for double, so that templated model code reads alike for both.
inline double sin(double a) { return std::sin(a); }
inline double cos(double a) { return std::cos(a); }
inline double exp(double a) { return std::exp(a); }
inline double log(double a) { return std::log(a); }
inline double sqrt(double a) { return std::sqrt(a); }
inline double pow(double a, double p) { return std::pow(a, p); }
inline double fabs(double a) { return std::fabs(a); }
inline double atan2(double y, double x) { return std::atan2(y, x); }
inline double hypot(double a, double b) { return std::hypot(a, b); }
inline double tanh(double a) { return std::tanh(a); }

// The value of either scalar (for decisions and for the double-only paths).
inline double value(double a) { return a; }
inline double value(const Dual& a) { return a.v; }

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_DUAL_H
