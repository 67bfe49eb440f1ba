// models/powergrid/scenarios/contingency_source.cpp -- see contingency_source.h.
#include "powergrid/scenarios/contingency_source.h"

#include <optional>
#include <string>

#include "lsdae/fmu.h"
#include "lsdae/model_description.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "powergrid/scenarios/source_arguments.h"

namespace lsdae::powergrid {

namespace {

using gridsources::argument;
using gridsources::number;
using gridsources::refuse;

sweep::SourceScenarios contingencies(const Model& model, const sweep::ScenarioSourceArguments& arguments) {
  const std::string chgtab = *argument(arguments, "contingencies");
  const std::string* case_file = argument(arguments, "case");
  const bool no_fault = argument(arguments, "no-fault") != nullptr;
  const std::optional<double> fault_on = number(arguments, "fault-on");
  const std::optional<double> clear_after = number(arguments, "clear-after");
  if (dynamic_cast<const Fmu*>(&model) == nullptr)
    refuse("--contingencies: the branch outages map onto one PowerGrid FMU's disturbance parameters (fault.bus, "
           "trip.branch), and \"" + model.path().string() + "\" is a system of FMUs → sweep the PowerGrid FMU "
           "itself, or give the outages as a --scenarios table whose columns name the component's variables (e.g. "
           "grid.fault.bus)");
  if (case_file == nullptr && !no_fault)
    refuse("--contingencies: the fault is at each branch's from-bus, which the MATPOWER case file gives → add "
           "--case case.m (or --no-fault to only open the branches)");
  const ModelDescription& md = model.model_description();
  sweep::SourceScenarios out;
  const ChangeTable table = read_chgtab(chgtab);
  out.skipped = table.skipped;
  if (table.outages.empty()) refuse("--contingencies \"" + chgtab + "\": no branch outage to sweep");
  const auto from = no_fault ? std::vector<std::int64_t>{} : read_branch_from_buses(*case_file);
  const ContingencyTimes times{fault_on, clear_after, !no_fault};
  const Variable* t_on = md.find("fault.t_on");
  const Variable* trip_time = md.find("trip.time");
  if (clear_after && !fault_on && (t_on == nullptr || !t_on->start))
    refuse("--clear-after: the FMU has no fault.t_on start value to count from → add --fault-on T");
  out.scenarios = contingency_scenarios(table, from, times, t_on && t_on->start ? *t_on->start : 0.0);
  // The settle test starts once the branch is open.
  if (clear_after) out.settle_from = fault_on.value_or(t_on && t_on->start ? *t_on->start : 0.0) + *clear_after;
  else if (trip_time != nullptr && trip_time->start) out.settle_from = trip_time->start;
  // A trip that cuts buses off from every machine (models/powergrid/islands.h) labels its row;
  // an FMU built before the islands had these variables does not.
  // The names are the FMUs' (models/gridcore/island_names.h), spelled here because a scenario
  // source sees the FMU through its model description and public headers only (tests/runtime/
  // layers.cmake); models.powergrid.island_sweep_* check the label end to end.
  if (md.find("islands.dead_buses") != nullptr && md.find("islands.lost_load") != nullptr)
    out.outcome = sweep::OutcomeLabel{"islanded", "islands.dead_buses", "islands.lost_load", "MW"};
  return out;
}

}  // namespace

void register_powergrid_scenario_sources() {
  using Option = sweep::ScenarioSourceOption;
  sweep::ScenarioSource source;
  source.name = "contingencies";
  source.example = "chgtab.m";
  source.usage = "--contingencies chgtab.m --case case.m";
  using gridsources::option;
  const Option table = option("contingencies", Option::Kind::text, "CHGTAB.m",
                              "MATPOWER change table (chgtab): each branch outage is a fault at the branch's from-bus, "
                              "cleared by opening the branch (PowerGrid FMU: fault.bus, trip.branch)");
  const Option case_file =
      option("case", Option::Kind::text, "CASE.m", "MATPOWER case file of the grid (the branches' from-buses)");
  const Option fault_on = gridsources::fault_on_option();
  const Option clear_after = gridsources::clear_after_option();
  const Option no_fault =
      option("no-fault", Option::Kind::flag, "", "Contingencies: open the branches without a fault (fault.bus = 0)");
  source.options = {table, case_file, fault_on, clear_after, no_fault};
  source.make = contingencies;
  sweep::register_scenario_source(std::move(source));
}

}  // namespace lsdae::powergrid
