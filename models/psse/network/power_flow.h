// models/psse/network/power_flow.h -- the operating point of a PSS/E case:
// the AC power flow solved from the voltages stored in the .raw, and each
// generator's share of its bus's power.
//
// Bus roles: IDE 3 (swing) buses keep VM∠VA (several swing buses: one per
// island, each its own reference); IDE 2 buses with an in-service generator
// are PV, held at the STORED voltage magnitude VM (a solved case stores the
// voltage each machine holds, which is VS unless the machine sits at a
// reactive limit or regulates a remote bus; `vs_set_points` uses VS
// instead); every other bus and every star point is PQ. Generators at a PQ
// bus inject PG + jQG. Loads as PSS/E's power flow has them: constant power
// PL + jQL, constant current (IP + jIQ)|V|, constant admittance (YP + jYQ)
// |V|² (YQ < 0 inductive). Solved by gridcore's Newton (tolerance 1e-10
// p.u., one polishing step), started from the stored voltages.
//
// Generators' shares: each keeps the PG and QG of its record; what the
// solution needs beyond them at a bus (the swing's P, a PV bus's Q) is
// shared in proportion to MBASE. A solved case thus keeps its stored
// dispatch to the power-flow mismatch.
//
// Contract: throws TextError when no bus is a swing bus; returns
// converged = false (with the last iterate) when Newton does not converge,
// with `singular` when its Jacobian cannot be factored.
#ifndef LSDAE_MODELS_PSSE_NETWORK_POWER_FLOW_H
#define LSDAE_MODELS_PSSE_NETWORK_POWER_FLOW_H

#include <string>
#include <vector>

#include "gridcore/newton_power_flow.h"
#include "psse/network/network.h"

namespace lsdae::psse {

struct PowerFlowOptions {
  bool vs_set_points = false;
  grid::NewtonOptions newton;
};

struct OperatingPoint {
  bool converged = false;
  bool singular = false;                // the Jacobian could not be factored (not converged)
  int iterations = 0;
  double mismatch = 0;                  // largest, p.u.
  std::vector<Complex> voltage;         // per network bus
  std::vector<Complex> generator_power; // per RawCase generator, p.u. on SBASE (0 when out of service)
  double largest_voltage_change = 0;    // |V − stored| largest, p.u.
  int largest_change_bus = 0;
  std::string summary;                  // one line for the report
};

OperatingPoint solve_operating_point(const RawCase& rc, const Network& net, const PowerFlowOptions& options = {});

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_NETWORK_POWER_FLOW_H
