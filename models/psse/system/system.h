// models/psse/system/system.h -- the whole DAE of a PSS/E case: the network,
// every component (core/component.h) bound to its unit's signals and
// initialized, the disturbances, limiter modes and events -- as the FMU
// authoring kit sees a model (declare, compute, partials, update_discrete).
//
// Unknowns: per bus Vr, Vi (algebraic, p.u.), per component its states and
// algebraic variables. Equations (per unit on SBASE):
//   bus i:      Σ_k Y_ik V_k + y_fault V_i [fault on] + ΔY V_i [load step]
//               − ΔI_i [tripped branches] − Σ_{devices at i} I_inj = 0   (res_re, res_im)
//   component:  der(x) = f(x, z, u, V)     (semi-explicit; fully implicit: der(x) − f = 0)
//               0 = g(x, z, u, V)
// u are the component's inputs, bound to another component's variable of the
// same unit or held at their initial value (FMU parameters). Variable names:
// bus[<n>].Vr, <prefix>[<bus>_<id>].<name> (gen, exc, pss, gov, load ...),
// <prefix>[..].<limiter>.mode (Float64 discrete), limits.events.
//
// Events: the disturbances' times are time events (disturbances.h); every
// limiter has an event indicator (limiter.h). At every event
// (update_discrete) the system (1) switches the disturbances due, (2) moves
// each limiter whose indicator crossed zero since the last event by the
// limiter's transition rule (a non-windup limit engaging puts its state at
// the limit: the states are re-initialized), (3) solves the algebraic
// equations at the new point with the states fixed (Newton, KLU) and sets
// every mode from the values there (hysteresis 1e-8), repeating (3) until no
// mode changes (at most 20 times). The count of mode changes is
// limits.events. When Newton cannot reach the new point (constant-power
// loads at a faulted bus), (3) first puts every switch below its threshold
// (loads as admittances) and lets the values decide from there. A
// below-switch that (3) releases and then puts back below within one event,
// or that (2) or (3) puts back below within 1e-6 s (relative) of its release
// at an earlier event, is held below until its value rises 0.02 above the
// failed release (system_events.cpp, kReleaseBand, kBounceWindow; docs/psse-limits.md
// "Bounced releases"). A switch the
// values release (below -> above) at such a jump is released at a time
// event limits.release_delay (1e-6 s, relative) later instead: a DAE solver
// that restarts from the old point may not reach a network of constant-power
// loads by Newton from there (IDACalcIC fails where it is of constant
// admittance), and 1e-6 s later it starts from the new point. The solved
// algebraic variables are written into the FMU's values when (3) converged
// with the final modes: an importer that reads them after Event Mode (lsdae
// does when its restart from the old point fails) has the new point, and can
// run with limits.release_delay = 0 (released at the event itself).
//
// Islands (islands.h): at every event after a trip or a generator trip, the
// network's islands are found anew; one without a machine that runs (a
// tripped machine does not count) is de-energized: every component at its
// buses is frozen, its buses are grounded through 1 p.u., so its voltages go
// to zero, and islands.dead_buses counts its buses, islands.lost_load adds
// its loads' demand at the operating point (MW: what they drew at t = 0, as
// PowerGrid's islands.lost_load; their power at the trip would read ~0 when
// a fault is cleared by the trip). The islands with machines run on.
//
// Initialization happens in the constructor, by stage (component.h): every
// declared variable gets its value, the unit signals are bound, the limiter
// modes follow the values, and InitReport says what the models noted, which
// limiters start outside their limits (PSS/E reports those too), and the
// largest derivative and residual at t = 0 with the variable's name.
//
// Contract: the constructor throws ModelError naming the component for an
// inconsistent case (two models writing one signal, an input nobody sets,
// a controller that cannot deliver what its machine needs).
#ifndef LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_H
#define LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_H

#include <memory>
#include <string>
#include <vector>

#include "kit/model.h"
#include "psse/core/component.h"
#include "psse/core/disturbances.h"
#include "psse/network/network.h"

namespace lsdae::psse {

struct PlacedComponent {
  std::unique_ptr<Component> component;
  std::size_t bus = 0;   // network bus index
  Complex injection;     // its generator's power at the operating point (p.u. on SBASE), for InitContext
  std::string unit;      // the signal scope: components with the same unit share signals
};

struct SystemInput {
  Network network;
  std::vector<Complex> voltage;  // operating point, per network bus
  std::vector<PlacedComponent> components;
  Disturbances disturbances;
  // A limiter whose value starts beyond its limit (reported either way):
  // false (default), the limit is widened to that value, as PowerWorld does
  // ("If Gate > Gmax, then Gmax = Gate"), so the case starts at rest; true,
  // it is held at the limit, as PSS/E holds it (STRT's "INITIAL CONDITION
  // SUSPECT"), and the case does not start at rest.
  bool hold_initial_limits = false;
};

struct InitReport {
  std::vector<std::string> notes;   // what the models noted
  std::vector<std::string> limits;  // limiters outside their limits at t = 0
  double largest_derivative = 0;
  std::string largest_derivative_name;
  double largest_residual = 0;
  std::string largest_residual_name;
  std::size_t states = 0, algebraics = 0, limiters = 0, components = 0;
};

class System {
 public:
  System(SystemInput input, kit::Form form);
  ~System();
  System(const System&) = delete;
  System& operator=(const System&) = delete;

  void declare(kit::Builder& b);
  void compute(kit::Context& c);
  // kit::Model::compute_event_indicators: the slots with limiters alone
  // (System::Impl::indicators) where the parameters and modes in hand are
  // this point's (Continuous-Time Mode after a compute() at the same
  // discrete epoch), returning false; otherwise compute(), returning true.
  bool compute_event_indicators(kit::Context& c);
  void partials(const kit::Context& c, kit::PartialSink& sink);
  kit::DiscreteUpdate update_discrete(kit::Context& c);
  // What the behaviour depends on outside the FMU's values (kit::Model::
  // internal_state): the dead buses, the frozen components with their held
  // algebraic values, the limiters' last indicators, whether the first
  // update ran and a pending release. fmi3Reset gives back the value after
  // construction (every bus alive, nothing frozen), so a reused instance
  // starts each scenario from the undisturbed state; fmi3SetFMUState the
  // saved one. A fixed count for the case: buses + 2 + per component
  // 1 + its algebraics + its limiters. set_internal_state() throws
  // std::invalid_argument for a state of another count or a flag not 0/1.
  std::vector<double> internal_state() const;
  // Also makes the event solver as new (its pivots and pattern's union:
  // event_solver.h), so that equal states continue alike.
  void set_internal_state(const std::vector<double>& state);

  // The event solver's KLU work since it was made or set back (for tests
  // and diagnostics): symbolic analyses, factorizations with pivoting,
  // refactorizations with the pivots kept.
  struct EventSolveCounts {
    int analyses = 0, factorizations = 0, refactorizations = 0;
  };
  EventSolveCounts event_solve_counts() const;

  const InitReport& report() const;
  // Name and initial value of every state and algebraic variable (and, semi-
  // explicit, every derivative, 0): the undisturbed operating point.
  std::vector<std::pair<std::string, double>> initial_point() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_SYSTEM_H
