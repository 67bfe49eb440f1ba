// models/powergrid/scenarios/contingency_source.cpp -- see contingency_source.h.
#include "powergrid/scenarios/contingency_source.h"

#include <charconv>
#include <limits>
#include <optional>
#include <string>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/model_description.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/matpower_changes.h"

namespace lsdae::powergrid {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

const std::string* argument(const sweep::ScenarioSourceArguments& arguments, const std::string& name) {
  for (const auto& [key, value] : arguments)
    if (key == name) return &value;
  return nullptr;
}

// A number option's text: checked against its range by the sweep already.
std::optional<double> number(const sweep::ScenarioSourceArguments& arguments, const std::string& name) {
  const std::string* text = argument(arguments, name);
  if (text == nullptr) return std::nullopt;
  double value = 0;
  const char* first = text->data() + (!text->empty() && (*text)[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(first, text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    refuse("--" + name + ": \"" + *text + "\" is not a number → e.g. --" + name + " 0.1");
  return value;
}

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
  const double inf = std::numeric_limits<double>::infinity();
  sweep::ScenarioSource source;
  source.name = "contingencies";
  source.example = "chgtab.m";
  source.usage = "--contingencies chgtab.m --case case.m";
  auto option = [](std::string name, Option::Kind kind, std::string value_name, std::string help) {
    Option o;
    o.name = std::move(name);
    o.kind = kind;
    o.value_name = std::move(value_name);
    o.help = std::move(help);
    return o;
  };
  const Option table = option("contingencies", Option::Kind::text, "CHGTAB.m",
                              "MATPOWER change table (chgtab): each branch outage is a fault at the branch's from-bus, "
                              "cleared by opening the branch (PowerGrid FMU: fault.bus, trip.branch)");
  const Option case_file =
      option("case", Option::Kind::text, "CASE.m", "MATPOWER case file of the grid (the branches' from-buses)");
  Option fault_on = option("fault-on", Option::Kind::number, "TIME", "Contingencies: fault.t_on (default: the FMU's)");
  fault_on.meaning = "the fault time";
  fault_on.example = "--fault-on 1";
  Option clear_after = option("clear-after", Option::Kind::number, "SECONDS",
                              "Contingencies: fault.t_off = trip.time = t_on + this (default: the FMU's times)");
  clear_after.low = 0.0;
  clear_after.low_inclusive = false;
  clear_after.high = inf;
  clear_after.meaning = "the fault duration";
  clear_after.example = "--clear-after 0.1";
  const Option no_fault =
      option("no-fault", Option::Kind::flag, "", "Contingencies: open the branches without a fault (fault.bus = 0)");
  source.options = {table, case_file, fault_on, clear_after, no_fault};
  source.make = contingencies;
  sweep::register_scenario_source(std::move(source));
}

}  // namespace lsdae::powergrid
