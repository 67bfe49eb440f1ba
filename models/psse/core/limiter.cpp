// models/psse/core/limiter.cpp -- see limiter.h.
#include "psse/core/limiter.h"

#include <algorithm>
#include <cmath>

namespace lsdae::psse {

namespace {
double scaled(double margin, double threshold) { return margin * std::max(1.0, std::fabs(threshold)); }
}  // namespace

double limiter_indicator(LimiterKind kind, int mode, const LimiterRecord& r) {
  switch (kind) {
    case LimiterKind::windup:
    case LimiterKind::select:
    case LimiterKind::non_windup:
    case LimiterKind::pi_non_windup:
      if (mode == kModeFree) return std::min(r.u - r.lo, r.hi - r.u);
      if (kind == LimiterKind::windup || kind == LimiterKind::select) return mode == kModeHigh ? r.u - r.hi : r.lo - r.u;
      return mode == kModeHigh ? r.rate : -r.rate;
    case LimiterKind::below:
      return mode == kModeBelow ? r.lo - r.u : r.u - r.lo;
  }
  return 1.0;
}

double limiter_indicator_tangent(LimiterKind kind, int mode, const LimiterRecord& r, const LimiterRecord& t) {
  switch (kind) {
    case LimiterKind::windup:
    case LimiterKind::select:
    case LimiterKind::non_windup:
    case LimiterKind::pi_non_windup:
      if (mode == kModeFree) return (r.u - r.lo) <= (r.hi - r.u) ? t.u - t.lo : t.hi - t.u;
      if (kind == LimiterKind::windup || kind == LimiterKind::select) return mode == kModeHigh ? t.u - t.hi : t.lo - t.u;
      return mode == kModeHigh ? t.rate : -t.rate;
    case LimiterKind::below:
      return mode == kModeBelow ? t.lo - t.u : t.u - t.lo;
  }
  return 0.0;
}

int limiter_transition(LimiterKind kind, int mode, const LimiterRecord& r) {
  if (kind == LimiterKind::below) return mode == kModeBelow ? kModeFree : kModeBelow;
  if (mode != kModeFree) return kModeFree;
  return (r.hi - r.u) <= (r.u - r.lo) ? kModeHigh : kModeLow;
}

int limiter_mode_by_value(LimiterKind kind, int mode, const LimiterRecord& r, double margin) {
  switch (kind) {
    case LimiterKind::windup:
    case LimiterKind::select: {
      const double mh = scaled(margin, r.hi), ml = scaled(margin, r.lo);
      if (r.u > r.hi + mh) return kModeHigh;
      if (r.u < r.lo - ml) return kModeLow;
      if (mode == kModeHigh && r.u < r.hi - mh) return kModeFree;
      if (mode == kModeLow && r.u > r.lo + ml) return kModeFree;
      return mode;
    }
    case LimiterKind::non_windup:
    case LimiterKind::pi_non_windup: {
      const double mh = scaled(margin, r.hi), ml = scaled(margin, r.lo);
      if (mode == kModeFree) {
        if (r.u >= r.hi - mh && r.rate > 0.0) return kModeHigh;
        if (r.u <= r.lo + ml && r.rate < 0.0) return kModeLow;
        return mode;
      }
      if (mode == kModeHigh && r.rate < -mh) return kModeFree;
      if (mode == kModeLow && r.rate > ml) return kModeFree;
      return mode;
    }
    case LimiterKind::below: {
      const double m = scaled(margin, r.lo);
      if (mode != kModeBelow && r.u < r.lo - m) return kModeBelow;
      if (mode == kModeBelow && r.u > r.lo + m) return kModeFree;
      return mode;
    }
  }
  return mode;
}

double limiter_margin(LimiterKind kind, int mode, const LimiterRecord& r, double margin) {
  if (kind == LimiterKind::below || mode == kModeLow) return scaled(margin, r.lo);
  if (mode == kModeHigh) return scaled(margin, r.hi);
  return (r.u - r.lo) <= (r.hi - r.u) ? scaled(margin, r.lo) : scaled(margin, r.hi);
}

int limiter_initial_mode(LimiterKind kind, const LimiterRecord& r, double tolerance, bool& outside) {
  outside = false;
  switch (kind) {
    case LimiterKind::windup:
      outside = r.u > r.hi + tolerance || r.u < r.lo - tolerance;
      return r.u > r.hi ? kModeHigh : (r.u < r.lo ? kModeLow : kModeFree);
    case LimiterKind::select:  // normal operation on either input: not reported
      return r.u > r.hi ? kModeHigh : (r.u < r.lo ? kModeLow : kModeFree);
    case LimiterKind::non_windup:
      outside = r.u > r.hi + tolerance || r.u < r.lo - tolerance;
      if (r.u >= r.hi - tolerance) return kModeHigh;
      if (r.u <= r.lo + tolerance) return kModeLow;
      return kModeFree;
    case LimiterKind::pi_non_windup:
      // As non_windup; the sum's own clamp reports a sum beyond a limit.
      if (r.u >= r.hi - tolerance) return kModeHigh;
      if (r.u <= r.lo + tolerance) return kModeLow;
      return kModeFree;
    case LimiterKind::below:
      return r.u < r.lo ? kModeBelow : kModeFree;
  }
  return kModeFree;
}

double limiter_held_value(int mode, const LimiterRecord& r) { return mode == kModeHigh ? r.hi : r.lo; }

const char* limiter_mode_name(LimiterKind kind, int mode) {
  if (kind == LimiterKind::below) return mode == kModeBelow ? "below" : "above";
  return mode == kModeHigh ? "high" : (mode == kModeLow ? "low" : "free");
}

}  // namespace lsdae::psse
