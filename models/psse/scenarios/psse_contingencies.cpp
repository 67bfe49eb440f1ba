// models/psse/scenarios/psse_contingencies.cpp -- see psse_contingencies.h.
#include "psse/scenarios/psse_contingencies.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "gridcore/island_names.h"
#include "lsdae/fmu.h"
#include "lsdae/model_description.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "powergrid/scenarios/source_arguments.h"
#include "psse/io/raw_reader.h"
#include "psse/scenarios/branch_match.h"
#include "psse/scenarios/con_file.h"

namespace lsdae::psse {

namespace {

using gridsources::argument;
using gridsources::number;
using gridsources::refuse;

std::string shortest(double v) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, v);
  return ec == std::errc() ? std::string(text, end) : std::to_string(v);
}

bool is_psse_grid(const Model& model) {
  return dynamic_cast<const Fmu*>(&model) != nullptr && model.model_description().model_name == "PsseGrid";
}

// The case the FMU carries: the .raw named by its configuration (resources/lsdae_model.cfg).
RawCase fmu_case(const Fmu& fmu) {
  const auto resources = fmu.unpacked_dir() / "resources";
  std::ifstream in(resources / "lsdae_model.cfg");
  std::string raw, version, line;
  while (std::getline(in, line)) {
    if (line.rfind("raw=", 0) == 0) raw = line.substr(4);
    if (line.rfind("raw_version=", 0) == 0) version = line.substr(12);
  }
  if (raw.empty())
    refuse("--contingencies: \"" + fmu.path().string() + "\" names no .raw in resources/lsdae_model.cfg → rebuild "
           "the FMU with lsdae-grid");
  int v = 0;
  if (!version.empty()) std::from_chars(version.data(), version.data() + version.size(), v);
  try {
    return read_raw((resources / raw).string(), v);
  } catch (const std::exception& e) {
    refuse(std::string("--contingencies: the FMU's case: ") + e.what());
  }
}

// The slots of one kind the FMU has: fault[1].bus, fault[2].bus, ...
std::size_t slots(const ModelDescription& md, const std::string& kind, const std::string& field) {
  std::size_t k = 0;
  while (md.find(kind + "[" + std::to_string(k + 1) + "]." + field) != nullptr) ++k;
  return k;
}

std::string slot(const std::string& kind, std::size_t k, const std::string& field) {
  return kind + "[" + std::to_string(k) + "]." + field;
}

struct Outage {
  std::string label;
  bool machine = false;
  std::vector<std::size_t> rows;  // 0-based: branch_rows (one or more), or the generator record (one)
  int from_bus = 0;               // the fault's bus (the first branch's from-bus)
};

sweep::SourceScenarios scenarios_of(const Model& model, const std::vector<Outage>& outages,
                                    const sweep::ScenarioSourceArguments& arguments) {
  const ModelDescription& md = model.model_description();
  const bool no_fault = argument(arguments, "no-fault") != nullptr;
  const std::optional<double> fault_on = number(arguments, "fault-on");
  const std::optional<double> clear_after = number(arguments, "clear-after");
  const std::size_t faults = slots(md, "fault", "bus"), trips = slots(md, "trip", "branch"),
                    gentrips = slots(md, "gentrip", "machine"), steps = slots(md, "loadstep", "bus");
  const std::string rebuild = " → rebuild it with lsdae-grid ... --fault BUS:1:1.1:0:0.01 --trip FROM-TO-CKT@1.1 "
                              "--fault-buses all --trip-branches all";
  bool any_branch = false, any_machine = false;
  for (const Outage& o : outages) (o.machine ? any_machine : any_branch) = true;
  std::size_t most = 0;
  for (const Outage& o : outages) most = std::max(most, o.machine ? 0 : o.rows.size());
  if (most > trips && trips > 0)
    refuse("--contingencies: a contingency opens " + std::to_string(most) + " branches and the FMU has " +
           std::to_string(trips) + " trip slots → rebuild it with as many --trip options (every trip[k] is a slot)");
  if (any_branch && trips == 0) refuse("--contingencies: the FMU has no trip[1] to open a branch with" + rebuild);
  if (any_branch && !no_fault && faults == 0)
    refuse("--contingencies: the FMU has no fault[1] for the fault before the opening" + rebuild + " (or give --no-fault)");
  if (any_machine && gentrips == 0)
    refuse("--contingencies: the file has generator outages and the FMU has no gentrip[1]" + rebuild +
           " --gentrip BUS-ID@1");
  const Variable* t_on_var = md.find("fault[1].t_on");
  const Variable* trip_time = md.find("trip[1].time");
  const std::optional<double> t_on_start = t_on_var && t_on_var->start ? t_on_var->start : std::nullopt;
  if (clear_after && !fault_on && !t_on_start)
    refuse("--clear-after: the FMU has no fault[1].t_on start value to count from → add --fault-on T");
  const std::optional<double> t_on = fault_on ? fault_on : t_on_start;
  sweep::SourceScenarios out;
  for (const Outage& o : outages) {
    sweep::Scenario s{o.label, {}};
    // Every slot off, then this outage's on.
    for (std::size_t k = 1; k <= faults; ++k)
      if (k > 1 || o.machine || no_fault) s.sets.emplace_back(slot("fault", k, "bus"), "0");
    const std::size_t opened = o.machine ? 0 : o.rows.size();
    for (std::size_t k = 1; k <= trips; ++k)
      if (k > opened) {
        s.sets.emplace_back(slot("trip", k, "from"), "0");
        s.sets.emplace_back(slot("trip", k, "branch"), "0");
      }
    for (std::size_t k = 1; k <= gentrips; ++k)
      if (k > 1 || !o.machine) {
        s.sets.emplace_back(slot("gentrip", k, "bus"), "0");
        s.sets.emplace_back(slot("gentrip", k, "machine"), "0");
      }
    for (std::size_t k = 1; k <= steps; ++k) s.sets.emplace_back(slot("loadstep", k, "bus"), "0");
    if (o.machine) {
      s.sets.emplace_back("gentrip[1].machine", std::to_string(o.rows.front() + 1));
      if (t_on) s.sets.emplace_back("gentrip[1].time", shortest(*t_on));
    } else {
      for (std::size_t k = 1; k <= opened; ++k) s.sets.emplace_back(slot("trip", k, "branch"), std::to_string(o.rows[k - 1] + 1));
      if (!no_fault) {
        s.sets.emplace_back("fault[1].bus", std::to_string(o.from_bus));
        if (fault_on) s.sets.emplace_back("fault[1].t_on", shortest(*fault_on));
      }
      // Every branch of the contingency opens when the first one does.
      std::optional<double> open_at;
      if (clear_after) open_at = *t_on + *clear_after;
      else if (no_fault && fault_on) open_at = fault_on;
      else if (opened > 1 && trip_time != nullptr && trip_time->start) open_at = trip_time->start;
      if (clear_after && !no_fault) s.sets.emplace_back("fault[1].t_off", shortest(*open_at));
      if (open_at)
        for (std::size_t k = 1; k <= opened; ++k) s.sets.emplace_back(slot("trip", k, "time"), shortest(*open_at));
    }
    out.scenarios.push_back(std::move(s));
  }
  // The settle test starts once the branch is open.
  if (clear_after) out.settle_from = *t_on + *clear_after;
  else if (trip_time != nullptr && trip_time->start) out.settle_from = trip_time->start;
  // An island left without a machine labels its row (models/gridcore/island_names.h); a
  // PsseGrid FMU declares both variables since islands were added.
  if (md.find(grid::kDeadBusesName) != nullptr && md.find(grid::kLostLoadName) != nullptr)
    out.outcome = sweep::OutcomeLabel{grid::kIslandedLabel, grid::kDeadBusesName, grid::kLostLoadName, grid::kLostLoadUnit};
  return out;
}

sweep::SourceScenarios contingencies(const Model& model, const sweep::ScenarioSourceArguments& arguments) {
  const std::string file = *argument(arguments, "contingencies");
  const RawCase raw = fmu_case(dynamic_cast<const Fmu&>(model));
  const std::vector<BranchRow> rows = branch_rows(raw);
  std::vector<Outage> outages;
  std::vector<std::string> skipped;
  std::string extension = std::filesystem::path(file).extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".con") {
    ConFile con = read_con(file);
    skipped = std::move(con.skipped);
    for (const ConContingency& c : con.contingencies) {
      const std::string at = c.label + " (line " + std::to_string(c.line) + ")";
      const ConElement& first = c.elements.front();
      if (first.kind == ConElement::Kind::machine) {
        std::optional<std::size_t> row;
        for (std::size_t g = 0; g < raw.generators.size(); ++g)
          if (raw.generators[g].bus == first.from && same_psse_id(raw.generators[g].id, first.id)) row = g;
        const std::string name = "generator " + std::to_string(first.from) + " '" + first.id + "'";
        if (!row) skipped.push_back(at + ": no " + name + " in the case");
        else if (raw.generators[*row].status == 0) skipped.push_back(at + ": " + name + " is out of service");
        else outages.push_back({c.label, true, {*row}, 0});
        continue;
      }
      Outage outage{c.label, false, {}, first.from};
      std::string why;
      for (const ConElement& e : c.elements) {
        const auto found = find_branch(rows, e.from, e.to, e.third, e.id);
        const std::string name = std::to_string(e.from) + "-" + std::to_string(e.to) +
                                 (e.third ? "-" + std::to_string(e.third) : "") + " circuit '" + e.id + "'";
        if (found.empty()) why = "no branch " + name + " in the case";
        else if (found.size() > 1) why = std::to_string(found.size()) + " branches " + name + " in the case (ambiguous)";
        else if (!rows[found.front()].in_service) why = "branch " + name + " is out of service";
        else outage.rows.push_back(found.front());
        if (!why.empty()) break;
      }
      if (!why.empty()) skipped.push_back(at + ": " + why);
      else outages.push_back(std::move(outage));
    }
  } else {
    const std::string* case_file = argument(arguments, "case");
    if (case_file == nullptr)
      refuse("--contingencies \"" + file + "\": a MATPOWER change table names rows of the MATPOWER case's branch table → "
             "add --case case.m (the MATPOWER case of the same grid), or give a PSS/E .con file");
    const powergrid::ChangeTable table = powergrid::read_chgtab(file);
    skipped = table.skipped;
    const std::vector<powergrid::BranchEnds> ends = powergrid::read_branch_ends(*case_file);
    const std::vector<RowMatch> match = match_matpower(ends, rows);
    for (const powergrid::BranchOutage& o : table.outages) {
      const std::string at = "label " + o.label + " (line " + std::to_string(o.line) + ")";
      if (static_cast<std::size_t>(o.branch) > ends.size())
        refuse("--contingencies, line " + std::to_string(o.line) + ": branch row " + std::to_string(o.branch) +
               " but the case has " + std::to_string(ends.size()) + " branches → is this the case the table is for?");
      const std::size_t m = static_cast<std::size_t>(o.branch - 1);
      if (!match[m].row) skipped.push_back(at + ": " + match[m].note);
      else if (!ends[m].in_service || !rows[*match[m].row].in_service)
        skipped.push_back(at + ": branch row " + std::to_string(o.branch) + " is out of service");
      else outages.push_back({o.label, false, {*match[m].row}, static_cast<int>(ends[m].from)});
    }
  }
  if (outages.empty()) refuse("--contingencies \"" + file + "\": no outage of this case to sweep (" +
                              std::to_string(skipped.size()) + " skipped" +
                              (skipped.empty() ? "" : ", the first: " + skipped.front()) + ")");
  sweep::SourceScenarios out = scenarios_of(model, outages, arguments);
  out.skipped = std::move(skipped);
  return out;
}

}  // namespace

void register_psse_scenario_sources() {
  using Option = sweep::ScenarioSourceOption;
  sweep::ScenarioSource source;
  source.name = "contingencies";
  source.kind = "PsseGrid";
  source.serves = is_psse_grid;
  source.example = "contingencies.con";
  source.usage = "--contingencies case.con (PsseGrid)";
  using gridsources::option;
  // The options PowerGrid's source has, with the same names (their help is PowerGrid's).
  const Option fault_on = gridsources::fault_on_option();
  const Option clear_after = gridsources::clear_after_option();
  source.options = {option("contingencies", Option::Kind::text, "FILE",
                           "PsseGrid FMU: a PSS/E .con file or a MATPOWER change table (with --case)"),
                    option("case", Option::Kind::text, "CASE.m", "MATPOWER case file of the grid"), fault_on,
                    clear_after, option("no-fault", Option::Kind::flag, "", "Contingencies: open without a fault")};
  source.make = contingencies;
  sweep::register_scenario_source(std::move(source));
}

}  // namespace lsdae::psse
