// models/powergrid/scenarios/matpower_changes.cpp -- see matpower_changes.h.
#include "powergrid/scenarios/matpower_changes.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "lsdae/error.h"
#include "lsdae/text.h"

namespace lsdae::powergrid {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

// The shortest decimal text that reads back to the same double.
std::string round_trip(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  (void)ec;
  return std::string(text, end);
}

// A whole number that converts to int64 exactly: |v| <= 2^53 (a row or bus
// number beyond is no row or bus of any case, and converting a double beyond
// the int64 range is undefined).
bool whole(double v) { return v == std::floor(v) && std::fabs(v) <= 9007199254740992.0; }

// MATPOWER's constants in a change table (idx_ct.m, idx_brch.m).
const std::map<std::string, double>& chgtab_constants() {
  static const std::map<std::string, double> constants{
      {"CT_TBUS", 1},     {"CT_TGEN", 2},      {"CT_TBRCH", 3},   {"CT_TAREABUS", 4}, {"CT_TAREAGEN", 5},
      {"CT_TAREABRCH", 6}, {"CT_TLOAD", 7},    {"CT_TAREALOAD", 8}, {"CT_TGENCOST", 9}, {"CT_TAREAGENCOST", 10},
      {"CT_REP", 1},      {"CT_REL", 2},       {"CT_ADD", 3},     {"BR_STATUS", 11},  {"F_BUS", 1},
      {"T_BUS", 2},       {"BR_R", 3},         {"BR_X", 4},       {"BR_B", 5},        {"RATE_A", 6},
      {"RATE_B", 7},      {"RATE_C", 8},       {"TAP", 9},        {"SHIFT", 10},      {"ANGMIN", 12},
      {"ANGMAX", 13},     {"GEN_BUS", 1},      {"PG", 2},         {"QG", 3},          {"QMAX", 4},
      {"QMIN", 5},        {"VG", 6},           {"MBASE", 7},      {"GEN_STATUS", 8},  {"PMAX", 9},
      {"PMIN", 10},       {"BUS_TYPE", 2},     {"PD", 3},         {"QD", 4},          {"GS", 5},
      {"BS", 6},          {"CT_LOAD_ALL_PQ", 1}, {"CT_LOAD_ALL_P", 2}};
  return constants;
}

// The rows between `<name> = [` and `];`, comments removed, split at ';' and
// newlines: (line number, fields).
std::vector<std::pair<int, std::vector<std::string>>> matrix_rows(const std::string& text, const std::string& name,
                                                                  const std::string& where) {
  std::vector<std::pair<int, std::vector<std::string>>> rows;
  std::istringstream in(text);
  bool inside = false, found = false;
  int line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (auto pct = line.find('%'); pct != std::string::npos) line.erase(pct);
    if (!inside) {
      auto at = line.find(name);
      if (at == std::string::npos) continue;
      auto eq = line.find('=', at + name.size());
      if (eq == std::string::npos || trim(line.substr(at + name.size(), eq - at - name.size())) != "") continue;
      auto open = line.find('[', eq);
      if (open == std::string::npos) continue;
      inside = found = true;
      line = line.substr(open + 1);
    }
    bool ends = false;
    if (auto close = line.find(']'); close != std::string::npos) {
      line.erase(close);
      ends = true;
    }
    std::stringstream pieces(line);
    for (std::string piece; std::getline(pieces, piece, ';');) {
      std::istringstream fields(piece);
      std::vector<std::string> row;
      for (std::string f; fields >> f;) row.push_back(f);
      if (!row.empty()) rows.emplace_back(line_no, std::move(row));
    }
    if (ends) break;
  }
  if (!found) refuse(where + ": no \"" + name + " = [ ... ];\" matrix → is this the right file?");
  return rows;
}


}  // namespace

ChangeTable read_chgtab(const std::filesystem::path& m) {
  return parse_chgtab(read_text_file(m, "--contingencies"), m.string());
}

ChangeTable parse_chgtab(const std::string& text, const std::string& path) {
  const std::string where = "--contingencies \"" + path + "\"";
  auto rows = matrix_rows(text, "chgtab", where);
  struct Row {
    std::string label;
    double table, row, col, type, value;
    int line;
  };
  std::vector<Row> parsed;
  for (auto& [line, fields] : rows) {
    if (fields.size() != 7)
      refuse(where + ", line " + std::to_string(line) + ": " + std::to_string(fields.size()) +
             " fields → a change table row has 7: label prob table row col chgtype newval");
    double v[7];
    for (int i = 0; i < 7; ++i) {
      auto number = parse_double(fields[static_cast<std::size_t>(i)]);
      if (!number) {
        auto c = chgtab_constants().find(fields[static_cast<std::size_t>(i)]);
        if (c == chgtab_constants().end())
          refuse(where + ", line " + std::to_string(line) + ", field " + std::to_string(i + 1) + ": \"" +
                 fields[static_cast<std::size_t>(i)] +
                 "\" is neither a number nor a MATPOWER constant → e.g. CT_TBRCH, BR_STATUS, CT_REP");
        number = c->second;
      }
      v[i] = *number;
    }
    parsed.push_back({fields[0], v[2], v[3], v[4], v[5], v[6], line});
  }
  if (parsed.empty()) refuse(where + ": the change table is empty → nothing to sweep");
  std::map<std::string, int> per_label;
  for (const auto& r : parsed) ++per_label[r.label];
  ChangeTable table;
  std::set<std::string> done;
  for (const auto& r : parsed) {
    if (!done.insert(r.label).second) continue;  // its first row speaks for a multi-row label
    const std::string at = "label " + r.label + " (line " + std::to_string(r.line) + ")";
    if (per_label[r.label] > 1) {
      table.skipped.push_back(at + ": " + std::to_string(per_label[r.label]) + " changes (an N-k contingency)");
    } else if (r.table != 3) {
      table.skipped.push_back(at + ": a change of another table than the branches");
    } else if (r.col != 11 || r.type != 1 || r.value != 0) {
      table.skipped.push_back(at + ": a branch change other than taking it out of service");
    } else if (!(r.row >= 1) || !whole(r.row)) {
      refuse(where + ", line " + std::to_string(r.line) + ": branch row " + round_trip(r.row) +
             " → rows of mpc.branch are whole numbers from 1 (to 2^53)");
    } else {
      table.outages.push_back({r.label, static_cast<std::int64_t>(r.row), r.line});
    }
  }
  return table;
}

std::vector<std::int64_t> read_branch_from_buses(const std::filesystem::path& case_m) {
  return parse_branch_from_buses(read_text_file(case_m, "--case"), case_m.string());
}

std::vector<std::int64_t> parse_branch_from_buses(const std::string& text, const std::string& path) {
  const std::string where = "--case \"" + path + "\"";
  auto rows = matrix_rows(text, "mpc.branch", where);
  std::vector<std::int64_t> from;
  for (auto& [line, fields] : rows) {
    auto bus = parse_double(fields[0]);
    if (fields.size() < 11 || !bus || !whole(*bus))
      refuse(where + ", line " + std::to_string(line) + ": not a branch row (13 numbers, the first the from-bus) → "
             "give a MATPOWER case file");
    from.push_back(static_cast<std::int64_t>(*bus));
  }
  return from;
}

std::vector<BranchEnds> read_branch_ends(const std::filesystem::path& case_m) {
  return parse_branch_ends(read_text_file(case_m, "--case"), case_m.string());
}

std::vector<BranchEnds> parse_branch_ends(const std::string& text, const std::string& path) {
  const std::string where = "--case \"" + path + "\"";
  auto rows = matrix_rows(text, "mpc.branch", where);
  std::vector<BranchEnds> out;
  for (auto& [line, fields] : rows) {
    std::optional<double> from, to, status;
    if (fields.size() >= 11) from = parse_double(fields[0]), to = parse_double(fields[1]), status = parse_double(fields[10]);
    if (!from || !to || !status || !whole(*from) || !whole(*to))
      refuse(where + ", line " + std::to_string(line) + ": not a branch row (13 numbers: from-bus, to-bus, ..., status "
             "in column 11) → give a MATPOWER case file");
    out.push_back({static_cast<std::int64_t>(*from), static_cast<std::int64_t>(*to), *status != 0, line});
  }
  return out;
}

std::vector<sweep::Scenario> contingency_scenarios(const ChangeTable& table, const std::vector<std::int64_t>& from_buses,
                                            const ContingencyTimes& times, double t_on_default) {
  std::vector<sweep::Scenario> scenarios;
  // Shared stretches (lsdae/sweep.h): before the fault the run does not
  // depend on the fault bus, and while the fault is on not on the branch
  // tripped at its clearing. So every outage is also the run that starts with
  // one common fault bus and no trip, sets its own fault bus at the fault's
  // event (t_on) and its branch at the clearing's (fault.t_off = trip.time):
  // fault.bus and trip.branch are tunable. Only when both times are known
  // here (--clear-after) and there is a fault.
  std::string shared_bus;
  for (const auto& o : table.outages)
    if (times.fault && times.clear_after && static_cast<std::size_t>(o.branch) <= from_buses.size()) {
      shared_bus = std::to_string(from_buses[static_cast<std::size_t>(o.branch - 1)]);
      break;
    }
  for (const auto& o : table.outages) {
    if (times.fault && static_cast<std::size_t>(o.branch) > from_buses.size())
      refuse("--contingencies, line " + std::to_string(o.line) + ": branch row " + std::to_string(o.branch) +
             " but the case has " + std::to_string(from_buses.size()) + " branches → is this the case the table is for?");
    sweep::Scenario s{o.label, {}};
    s.sets.emplace_back("fault.bus",
                        times.fault ? std::to_string(from_buses[static_cast<std::size_t>(o.branch - 1)]) : "0");
    s.sets.emplace_back("trip.branch", std::to_string(o.branch));
    if (times.fault_on) s.sets.emplace_back("fault.t_on", round_trip(*times.fault_on));
    if (times.clear_after) {
      const double clear = times.fault_on.value_or(t_on_default) + *times.clear_after;
      s.sets.emplace_back("fault.t_off", round_trip(clear));
      s.sets.emplace_back("trip.time", round_trip(clear));
    }
    if (!shared_bus.empty()) {
      const double t_on = times.fault_on.value_or(t_on_default);
      const double clear = t_on + *times.clear_after;
      s.shared_sets = {{"fault.bus", shared_bus}, {"trip.branch", "0"}};
      s.shared_sets.insert(s.shared_sets.end(), s.sets.begin() + 2, s.sets.end());  // the times
      s.stages = {{t_on, {s.sets[0]}}, {clear, {s.sets[1]}}};
    }
    scenarios.push_back(std::move(s));
  }
  return scenarios;
}

}  // namespace lsdae::powergrid
