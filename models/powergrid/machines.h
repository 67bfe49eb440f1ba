// models/powergrid/machines.h -- classical machines at the power-flow
// operating point: typical dynamic data and the initial rotor angle, internal
// EMF and mechanical power that put the model at rest.
//
// Classical model (P. Kundur, Power System Stability and Control, 1994,
// section 13.3.1; P. M. Anderson, A. A. Fouad, Power System Control and
// Stability, 2nd ed., 2003, chapter 2): a constant EMF E'∠δ behind the
// transient reactance x'd, and the swing equation
//     dδ/dt = ω_s (ω − 1),   2H dω/dt = Pm − Pe − D (ω − 1),
//     Pe = Re(E'e^(jδ) conj(I)),  I = (E'e^(jδ) − V)/(j x'd).
//
// MATPOWER cases carry no dynamic data. Every machine gets the same typical
// values on its own MVA base S_m, converted to the system base S_b:
//     H_sys = H S_m/S_b,  D_sys = D S_m/S_b,  x'd_sys = x'd S_b/S_m.
// S_m = max(MBASE, PMAX, |S_g|/0.9, 10 MVA), with S_g the machine's output at
// the solved operating point: MBASE alone is 100 MVA for most machines of most
// cases whatever their size, and a small unit that the power flow (which does
// not enforce reactive limits) makes absorb much reactive power would
// otherwise start beyond its stability limit (δ0 − θ > 90°).
//
// Operating point: the generation at a bus, S = V conj(Ybus V) + S_load, is
// shared among its in-service machines: P as scheduled (PG) plus the
// difference (the slack's balance), and Q, in proportion to the case-data
// rating max(MBASE, PMAX, |PG + jQG|/0.9, 10 MVA); S_m is then taken from the
// shared output as above. Then I = conj(S_g/V), E = V + j x'd I, E' = |E|,
// δ0 = arg V + arg(E/V) (continuous with the bus angle) and Pm = Pe at δ0.
#ifndef LSDAE_MODELS_POWERGRID_MACHINES_H
#define LSDAE_MODELS_POWERGRID_MACHINES_H

#include <vector>

#include "powergrid/grid_data.h"
#include "powergrid/matpower_case.h"
#include "powergrid/power_flow.h"

namespace lsdae::powergrid {

// Typical classical-model data on the machine's own base.
struct MachineDefaults {
  double h = 5.0;        // inertia constant, s (3–6 s for steam and hydro units)
  double d = 10.0;       // damping, p.u. power per p.u. speed (lumps damper windings and a 10 % governor droop)
  double xd = 0.3;       // transient reactance x'd, p.u.
  double power_factor = 0.9;   // S_m ≥ |S_g| / power_factor
  double minimum_rating_mva = 10.0;
};

// max(MBASE, PMAX, |output|/power factor, minimum rating), MVA; `output` in MVA.
double machine_rating(const Generator& g, Complex output_mva, const MachineDefaults& defaults);

// One classical machine per in-service generator, in case order. The bus of
// each is its 0-based bus index. Throws CaseError naming the generator's line
// when a machine would start with E' = 0 (a bus voltage of zero).
std::vector<GridMachine> initialize_machines(const Case& c, const PowerFlowResult& flow,
                                             const MachineDefaults& defaults = {});

// Pe = E'(sin δ Vr − cos δ Vi)/x'd, the electrical power of a classical
// machine (all p.u.); the model computes exactly this expression.
double electrical_power(double e, double delta, double xd, Complex v);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_MACHINES_H
