// models/powergrid/scenarios/matpower_changes.h -- the N-1 contingencies of a
// MATPOWER change table as scenarios of the PowerGrid FMU (models/powergrid/
// README.md, "Disturbances"): the model's own scenario source, next to the
// model; the generic sweep only knows it as a registered source
// (contingency_source.h, lsdae/sweep.h).
//
//   read_chgtab(m)   a MATPOWER change table (`chgtab = [ label prob table
//       row col chgtype newval; ... ];`, as apply_changes reads it and as
//       contab_ACTIVSg10k.m is written), symbolic constants (CT_TBRCH,
//       BR_STATUS, CT_REP, ...) or their numbers (3, 11, 1). A label with
//       exactly one row that sets a branch's status to 0 is a branch outage;
//       anything else (other tables, other columns, several rows under one
//       label: N-k) is skipped and listed in `skipped`. A line that is not a
//       row of 7 fields, a field that is neither a number nor a known
//       constant, or an outage's branch row that is not a whole number from
//       1 to 2^53, is Error(usage) naming the line.
//   read_branch_from_buses(case_m)  the from-bus (F_BUS, column 1) of every
//       row of mpc.branch in a MATPOWER case file; read_branch_ends its
//       from- and to-bus and status (the PsseGrid FMU's source matches the
//       rows to PSS/E branches: models/psse/scenarios/). A row whose buses
//       are not whole numbers up to 2^53 in magnitude is Error(usage) naming
//       the line.
//   contingency_scenarios  each outage becomes a scenario of the PowerGrid
//       FMU's disturbance parameters: fault.bus = the branch's from-bus,
//       trip.branch = the row, fault.t_on = --fault-on, fault.t_off =
//       trip.time = t_on + --clear-after (when given); id = the label.
//
// Messages name the options as `lsdae sweep` spells them (--contingencies,
// --case); the C and Python front doors respell them. Uses only the public
// sweep API (lsdae/sweep.h).
#ifndef LSDAE_MODELS_POWERGRID_SCENARIOS_MATPOWER_CHANGES_H
#define LSDAE_MODELS_POWERGRID_SCENARIOS_MATPOWER_CHANGES_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lsdae/sweep.h"

namespace lsdae::powergrid {

struct BranchOutage {
  std::string label;
  std::int64_t branch = 0;  // 1-based row of mpc.branch
  int line = 0;
};
struct ChangeTable {
  std::vector<BranchOutage> outages;
  std::vector<std::string> skipped;  // "label 17 (line 40): a change of the bus table"
};
ChangeTable read_chgtab(const std::filesystem::path& m);
std::vector<std::int64_t> read_branch_from_buses(const std::filesystem::path& case_m);
// The same for text already read; `path` names the file in messages (the fuzz target, the tests).
ChangeTable parse_chgtab(const std::string& text, const std::string& path);
std::vector<std::int64_t> parse_branch_from_buses(const std::string& text, const std::string& path);
// Every row of mpc.branch: F_BUS, T_BUS, BR_STATUS (columns 1, 2, 11) and its line.
struct BranchEnds {
  std::int64_t from = 0, to = 0;
  bool in_service = true;
  int line = 0;
};
std::vector<BranchEnds> read_branch_ends(const std::filesystem::path& case_m);
std::vector<BranchEnds> parse_branch_ends(const std::string& text, const std::string& path);

struct ContingencyTimes {
  std::optional<double> fault_on;      // fault.t_on
  std::optional<double> clear_after;   // fault.t_off = trip.time = t_on + this
  bool fault = true;                   // false: trip only (fault.bus = 0)
};
// `t_on_default`: the FMU's fault.t_on start value, used with clear_after alone.
std::vector<sweep::Scenario> contingency_scenarios(const ChangeTable& table, const std::vector<std::int64_t>& from_buses,
                                                   const ContingencyTimes& times, double t_on_default);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_SCENARIOS_MATPOWER_CHANGES_H
