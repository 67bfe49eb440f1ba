// models/psse/core/disturbances.h -- the disturbances of a PSS/E FMU, each
// switched by FMI time events, any number of each in one run:
//
//   fault[k]     a three-phase fault at a bus: the shunt 1/(R + jX) (p.u. on
//                SBASE) for t_on <= t < t_off;
//   trip[k]      a branch or transformer (I, J, circuit) opened for t >= time
//                (a three-winding transformer: its three windings, and its
//                star point is grounded through 1 p.u. so it stays defined);
//   gentrip[k]   a generator (bus, id) disconnected for t >= time: its current
//                leaves the network and every model of its unit is frozen at
//                its values at the trip;
//   loadstep[k]  a constant-admittance load P + jQ (MW, Mvar at 1 p.u.) added
//                at a bus for t >= time.
//
// Each is a set of FMU parameters (fault[1].bus, fault[1].t_on, ...: bus,
// branch ends and ids are Float64 parameters holding whole numbers); 0 as
// the bus means "none". A branch or transformer is chosen by its row in the
// case's table of branch records (trip[k].branch, 1-based, lsdae-grid
// --list-branches) or, when that is 0, by from, to and a numeric circuit;
// a generator by its row in the table of generator records
// (gentrip[k].machine, lsdae-grid --list-machines) or, when that is 0, by
// bus and a numeric id. Configured disturbances name their circuit or
// machine id as text (any id, e.g. WECC240's 'C'); one that is not numeric
// starts as the row. The manifest's dependency kinds are fixed when the
// FMU is built, so the locations a parameter may pick are fixed then too:
// the candidates (configuration keys fault_buses, trip_branches,
// loadstep_buses: a list or `all`; by default the configured disturbances'
// own locations). A parameter naming a location outside them is refused
// with a message at initialization.
#ifndef LSDAE_MODELS_PSSE_CORE_DISTURBANCES_H
#define LSDAE_MODELS_PSSE_CORE_DISTURBANCES_H

#include <string>
#include <vector>

namespace lsdae::psse {

struct FaultSpec {
  int bus = 0;
  double t_on = 1.0, t_off = 1.1;
  double r = 0.0, x = 1e-4;  // p.u. on SBASE
};

struct TripSpec {
  int from = 0, to = 0;
  std::string ckt = "1";  // circuit id as in the .raw
  double time = 1.0;
};

struct GenTripSpec {
  int bus = 0;
  std::string id = "1";   // machine id as in the .raw
  double time = 1.0;
};

struct LoadStepSpec {
  int bus = 0;
  double time = 1.0;
  double p = 0.0, q = 0.0;  // MW, Mvar at 1 p.u. voltage
};

struct Disturbances {
  std::vector<FaultSpec> faults;
  std::vector<TripSpec> trips;
  std::vector<GenTripSpec> gen_trips;
  std::vector<LoadStepSpec> load_steps;
  // Candidates: "" (the disturbances' own locations), "all", or a list:
  // buses "7,12", branches "7-12-1,3-4-C" (FROM-TO-CIRCUIT).
  std::string fault_buses, trip_branches, loadstep_buses;
};

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_CORE_DISTURBANCES_H
