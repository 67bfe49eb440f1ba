// runtime/simulation/indicator_domains.h -- the event indicators as IDA's
// root finding sees them: FMI 3.0's definition of a state event instead of
// IDA's zero crossing (docs/simulation.md, "State events: the rule").
//
// FMI 3.0 3.1.1 ("Localization of State Events"): an event indicator z_j
// signals a state event when it changes domain, from z_j > 0 to z_j <= 0 or
// from z_j <= 0 to z_j > 0; an indicator that reaches exactly 0 from below is
// still in the domain z_j <= 0 (not yet an event; FMPy issue #730 is the same
// question for FMI 2.0). IDA's root finding (IDARootfind) reports a root when
// a component is exactly 0 from either side. The FMU is also required to leave
// Event Mode with z_j != 0; an FMU that leaves an indicator at 0 (a bouncing
// ball that sets h = 0, a latch that holds z = p - p_latch at 0) gives the
// importer no domain for it.
//
// The rule lsdae follows, per indicator, between two (re)starts of IDA:
//   - Not parked: the value IDA sees has the sign of FMI's domain: z itself,
//     except exactly 0, which is passed as -kIndicatorTiny (the domain z <= 0),
//     and a nonzero |z| below kIndicatorTiny, passed as +-kIndicatorTiny (its
//     sign's domain). A root is then a change of domain, and only that.
//   - Parked: at the (re)start |z_j| <= kIndicatorZeroBand (the FMU left the
//     indicator at 0 to rounding: a value an importer's Newton iteration gives
//     an algebraic variable jitters by a few ulps). While it stays within the
//     band IDA sees the domain it had at the restart: +-kIndicatorTiny for a nonzero
//     value (FMI's domain is its sign; jitter inside the band is no change of
//     domain), exactly 0 for an exact 0 (no domain: IDA keeps the component
//     inactive from the start and active again once it moves away, without a
//     root: IDARcheck1/IDARcheck3). The first value outside the band ends the
//     parking (until the next restart): from a nonzero value, leaving to the
//     other side is a root (a change of domain); from exactly 0, the domain
//     is the side it leaves to, and leaving is not an event.
//   Why a nonzero value keeps its sign's domain: PsseGrid_GAST_fault's gate
//   sits at its tie at rest (+1.2e-15 at the fault); without a domain its
//   switch at the fault went unseen and the gate held on the wrong side.
//   The band is rounding, not the solver's tolerance: an indicator computed
//   from an algebraic variable that the first step after the event solves
//   only to IDA's Newton tolerance leaves it (SliderCrank_dae: p - p_latch =
//   1.3e-7 after the first step), and a return to 0 is a change of domain by
//   FMI's rule, one more event (which changes nothing) after which it is
//   parked again: a few events per latching instead of a thousand. A
//   tolerance-wide band would hide real crossings of small excursions (the
//   last bounces before a Zeno point are lower than 1e-6).
//   Values outside the band at every restart give IDA the FMU's values
//   bitwise (the map is the identity for |z| >= kIndicatorTiny).
//
// Why kIndicatorTiny = 2^-500 and not the least normal number (DBL_MIN):
// IDARootfind (SUNDIALS 6.4, ida.c) finds the side of its trial time tmid on
// which an indicator changed sign by the product glo * g(tmid) < 0. With an
// exact 0 passed as -DBL_MIN, that product against a value a few ulps above 0
// (+1.1e-16 * -2.2e-308 = -2.4e-324, below half the least subnormal) rounds to
// -0, the change of domain in (tlo, tmid) goes unseen, tlo moves past it, and
// the bracket is lost: glo and ghi now have one sign, IDA may report a root
// where no indicator changed domain, or its Illinois weight alpha doubles at
// every pass until alpha * |glo| passes |ghi| and the secant's trial time
// leaves the step (seen: t = -inf on ACTIVSg2000 with every PSS/E model, a
// limiter reaching its hysteresis point exactly; IDASolve then looped until
// ida_roots.cpp's guard ended the run). With
// every magnitude IDA sees at least 2^-500, every product of two is at least
// 2^-1000, a normal number: the sign test is exact. The secant's weights are
// unaffected for any value an FMU computes (|z| >= 2^-500 passes bitwise).
//
// The parking is a function of the restart point: every evaluation at the
// restart time decides it anew from the values there, as the first did. IDA
// evaluates there again after its look-ahead past an indicator at exactly 0
// (IDARcheck1: g at t0 + h/10, which may be outside the band and end the
// parking) when the first step is tried again from the same point
// (IdaIntegrator's first-step retry, IDAReInit): with the parking ended the
// 0 there became -kIndicatorTiny, IDA took it as the domain below, and the first
// step's positive value was a root that changed nothing (ControlledMotor as
// a system: a second state event 2.7e-15 s after the limiter's, at which the
// FMU switched nothing).
//
// Contract: arm(t) at every (re)start of IDA at t; map(t, z) on every vector
// of indicator values IDA asks for, in call order (the first call after arm()
// is IDA's evaluation at the restart point, IDARcheck1). Cost: O(number of
// indicators) per evaluation; no FMU call.
#ifndef LSDAE_RUNTIME_SIMULATION_INDICATOR_DOMAINS_H
#define LSDAE_RUNTIME_SIMULATION_INDICATOR_DOMAINS_H

#include <span>
#include <vector>

namespace lsdae::simulation {

// Half-width of the band around 0 in which an indicator left by an event is
// taken as left at 0 (1000 unit roundoffs: a few ulps of the quantities an
// indicator such as p - p_latch subtracts, for magnitudes up to about 10).
inline constexpr double kIndicatorZeroBand = 2.2e-13;

// The least magnitude IDA's root finding is given for an indicator (2^-500,
// about 3.05e-151): the stand-in for an exact 0 and for a nonzero value
// smaller than it (header comment above: IDARootfind's products).
inline constexpr double kIndicatorTiny = 0x1p-500;

class IndicatorDomains {
 public:
  // IDA (re)starts at t_restart: the next map() call (and every one at
  // t_restart) decides which are parked.
  void arm(double t_restart) {
    armed_ = true;
    t_restart_ = t_restart;
  }
  // Rewrites z (the FMU's indicators at t) in place into the values IDA sees.
  void map(double t, std::span<double> z);
  // How many indicators are parked now (diagnostics and tests).
  std::size_t parked() const;

 private:
  // Per indicator: not parked, or parked at the restart above 0, below 0, at exactly 0.
  enum : char { kFree = 0, kAbove, kBelow, kAtZero };
  bool armed_ = true;
  double t_restart_ = 0.0;
  std::vector<char> parked_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INDICATOR_DOMAINS_H
