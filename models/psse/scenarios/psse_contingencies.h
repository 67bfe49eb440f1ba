// models/psse/scenarios/psse_contingencies.h -- the PsseGrid FMU's scenario
// source: branch and generator outages swept with `lsdae sweep
// --contingencies` (the name the PowerGrid FMU's MATPOWER source has; the
// sweep gives the scenarios of a PsseGrid FMU to this one: lsdae/sweep.h
// ScenarioSource::serves).
//
//   --contingencies FILE.con   a PSS/E contingency file (con_file.h): a
//       contingency of branch outages opens them together (trip[1], trip[2],
//       ...: the FMU needs as many trip slots), one machine outage
//       disconnects that generator (gentrip[1])
//   --contingencies CHGTAB.m --case CASE.m   a MATPOWER change table whose
//       branch rows are those of the MATPOWER case of the same grid, each
//       matched to its PSS/E branch by from-bus, to-bus and circuit
//       (branch_match.h); rows that match nothing or several are skipped
//       and listed, never guessed
//   --fault-on T, --clear-after S, --no-fault  as for PowerGrid: a branch
//       outage is a three-phase fault at the branch's from-bus (fault[1],
//       the FMU's R and X) cleared by opening the branch; --no-fault opens it
//       alone. A generator outage has no fault: the machine is disconnected
//       at the fault time.
// Each scenario sets the disturbance slots of the FMU so that it holds this
// contingency alone: the other slots (fault[k], trip[k], gentrip[k],
// loadstep[k] the FMU was built with) are switched off (bus/from/branch/
// machine 0). The FMU must have been built with the slots and candidates
// (lsdae-grid ... --fault B:T_ON:T_OFF:R:X --trip F-T-C@T [--gentrip B-ID@T]
// --fault-buses all --trip-branches all); a slot missing is Error(usage)
// saying so. The branches come from the .raw in the FMU's resources/.
// A scenario that de-energizes an island is labelled `islanded` with the
// load lost, MW (islands.dead_buses, islands.lost_load: SweepOptions::outcome).
#ifndef LSDAE_MODELS_PSSE_SCENARIOS_PSSE_CONTINGENCIES_H
#define LSDAE_MODELS_PSSE_SCENARIOS_PSSE_CONTINGENCIES_H

namespace lsdae::psse {

// What a front door calls (once or more) before it offers a sweep's options.
void register_psse_scenario_sources();

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SCENARIOS_PSSE_CONTINGENCIES_H
