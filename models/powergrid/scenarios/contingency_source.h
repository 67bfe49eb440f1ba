// models/powergrid/scenarios/contingency_source.h -- the PowerGrid FMU's
// scenario source, registered with the sweep by name ("contingencies":
// lsdae/sweep.h register_scenario_source).
//
// Its options, as `lsdae sweep` offers them (the C front door maps
// lsdae_sweep_spec's contingencies, case_file, fault_on, clear_after and
// no_fault onto them):
//   --contingencies CHGTAB.m   the change table (matpower_changes.h); selects the source
//   --case CASE.m              the MATPOWER case: each branch's from-bus (not with --no-fault)
//   --fault-on TIME            fault.t_on (default: the FMU's own)
//   --clear-after SECONDS      fault.t_off = trip.time = t_on + this (> 0; default: the FMU's times)
//   --no-fault                 fault.bus = 0: the branches are only opened
// The scenarios' settle test starts at the clearing time. A system of FMUs
// is refused (the table maps onto one PowerGrid FMU's parameters).
//
// register_powergrid_scenario_sources() is what a front door calls (once or
// more: registering twice is harmless) before it offers a sweep's options.
#ifndef LSDAE_MODELS_POWERGRID_SCENARIOS_CONTINGENCY_SOURCE_H
#define LSDAE_MODELS_POWERGRID_SCENARIOS_CONTINGENCY_SOURCE_H

namespace lsdae::powergrid {

void register_powergrid_scenario_sources();

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_SCENARIOS_CONTINGENCY_SOURCE_H
