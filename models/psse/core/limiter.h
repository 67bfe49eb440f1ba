// models/psse/core/limiter.h -- the rules by which a limiter's mode changes:
// its event indicator, its transition at a state event, its mode after a jump
// of the algebraic variables, and its mode at initialization.
//
// Reference: IEEE Std 421.5-2016, Annex E ("Limiters"): a WINDUP limit acts
// on a block's output only (the block's state is not stopped, y = lo/u/hi);
// a NON-WINDUP limit acts on the state itself: while x is at the limit and
// its unlimited derivative points outward, dx/dt = 0 and x stays at the
// limit; it is released as soon as the derivative points back inside. The
// PSS/E Model Library draws the same two kinds (limits drawn on the block,
// or on the line after it). A PI block with non-windup limits (Annex E) has
// its sum v = Kp u + x limited (a windup clamp on v) and its integrator
// stopped while v is at a limit and Ki u points outward (pi_non_windup):
// released when Ki u turns back. (In continuous time Annex E would also
// release when v falls back inside with u still outward, and re-engage at
// once: a sliding mode that a located event cannot follow; the integrator
// stays held instead, and only the sum's clamp releases.)
//
// Event indicators follow one rule: an indicator is POSITIVE WHILE THE
// CURRENT MODE HOLDS and reaches zero when it stops holding, so the
// integrator's root finding places the event and update_discrete() switches
// when an indicator is <= 0 (the convention of the kit's other models):
//
// | kind       | mode            | indicator                | at <= 0 the mode becomes            |
// |------------|-----------------|--------------------------|-------------------------------------|
// | windup     | free            | min(u − lo, hi − u)      | high if u is nearer hi, else low    |
// | windup     | high / low      | u − hi  /  lo − u        | free                                |
// | select     | as windup (a gate or a dead band, frame.h); never reported at initialization  |
// | non_windup | free            | min(x − lo, hi − x)      | high / low, and x is set to the limit |
// | non_windup | high / low      | rate  /  −rate           | free                                |
// | pi_non_windup | as non_windup, on the PI's sum v (the state is not moved when it engages)     |
// | below      | 0 (u ≥ th)      | u − th                   | 1                                   |
// | below      | 1 (u < th)      | th − u                   | 0                                   |
//
// A time event (a fault) makes the algebraic variables jump, and an input can
// jump across a limit without any indicator crossing zero in time; so at
// every event the framework also solves the algebraic equations at the new
// point and sets each mode from the VALUES there (mode_by_value), with a
// small hysteresis (`margin`) so that the mode just chosen at a located root
// is not undone by rounding. Changing a mode counts as one limit event.
#ifndef LSDAE_MODELS_PSSE_CORE_LIMITER_H
#define LSDAE_MODELS_PSSE_CORE_LIMITER_H

#include "psse/core/frame.h"

namespace lsdae::psse {

// Positive while `mode` holds (table above).
double limiter_indicator(LimiterKind kind, int mode, const LimiterRecord& r);

// The directional derivative of the indicator, from the tangents `t` of the
// recorded quantities (a Dual evaluation's record).
double limiter_indicator_tangent(LimiterKind kind, int mode, const LimiterRecord& r, const LimiterRecord& t);

// The mode after a state event at which the indicator is <= 0.
int limiter_transition(LimiterKind kind, int mode, const LimiterRecord& r);

// The mode the values call for, keeping `mode` unless a value is beyond its
// threshold by more than margin * max(1, |threshold|).
int limiter_mode_by_value(LimiterKind kind, int mode, const LimiterRecord& r, double margin);

// The margin limiter_mode_by_value keeps `mode` by, for the threshold the
// mode's indicator measures against: margin * max(1, |threshold|) (the
// nearer of lo and hi while free; lo for a below-switch).
double limiter_margin(LimiterKind kind, int mode, const LimiterRecord& r, double margin);

// The mode at initialization, from the values with no hysteresis. `outside`
// is set when an input or state lies strictly beyond a limit (by more than
// `tolerance`): PSS/E reports those at initialization, and so do we (not for
// kind select: a gate passing its second input is normal operation).
int limiter_initial_mode(LimiterKind kind, const LimiterRecord& r, double tolerance, bool& outside);

// The value a non-windup state is put to when its limiter engages (lo or hi).
double limiter_held_value(int mode, const LimiterRecord& r);

// "free", "high", "low", "above", "below" for messages.
const char* limiter_mode_name(LimiterKind kind, int mode);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_LIMITER_H
