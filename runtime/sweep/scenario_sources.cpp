// runtime/sweep/scenario_sources.cpp -- see scenario_sources.h.
#include "sweep/scenario_sources.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/model.h"
#include "lsdae/model_description.h"
#include "lsdae/values.h"
#include "sweep/csv_line.h"

namespace lsdae::sweep {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

std::string read_file(const std::filesystem::path& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(what + " \"" + path.string() + "\": cannot be read → check the path");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::optional<double> parse_double(const std::string& text) {
  const std::string t = trim(text);
  double value = 0;
  const char* first = t.data() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(first, t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Levenshtein distance, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// SplitMix64 (Steele, Lea & Flood 2014): a tiny generator whose state can be
// set from (seed, k) directly.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double fraction() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

}  // namespace

std::string round_trip(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  (void)ec;
  return std::string(text, end);
}

std::vector<Scenario> read_scenario_table(const std::filesystem::path& csv) {
  const std::string where = "--scenarios \"" + csv.string() + "\"";
  const std::string text = read_file(csv, "--scenarios");
  std::vector<std::vector<std::string>> records;
  std::vector<int> lines;
  std::size_t pos = 0;
  int line = 1;
  while (pos < text.size()) {
    const int first_line = line;
    std::string error;
    std::size_t end = pos;
    auto fields = parse_csv_record(text, end, &error);
    if (!error.empty()) refuse(where + ", line " + std::to_string(first_line) + ": " + error + " → quote fields as in RFC 4180");
    for (std::size_t i = pos; i < end; ++i) line += text[i] == '\n' ? 1 : 0;
    const std::string raw = text.substr(pos, end - pos);
    pos = end;
    if (trim(raw).empty() || trim(raw)[0] == '#') continue;
    records.push_back(std::move(fields));
    lines.push_back(first_line);
  }
  if (records.empty()) refuse(where + ": no header line → the first line names the variables (and optionally id)");
  const auto& header = records[0];
  std::optional<std::size_t> id_column;
  std::set<std::string> seen;
  for (std::size_t c = 0; c < header.size(); ++c) {
    const std::string name = trim(header[c]);
    if (name.empty())
      refuse(where + ", line " + std::to_string(lines[0]) + ", column " + std::to_string(c + 1) +
             ": empty column name → name a variable in every header field");
    if (!seen.insert(name).second)
      refuse(where + ", line " + std::to_string(lines[0]) + ": column \"" + name + "\" appears twice → keep one");
    if (name == "id") id_column = c;
  }
  std::vector<Scenario> scenarios;
  for (std::size_t r = 1; r < records.size(); ++r) {
    const auto& fields = records[r];
    if (fields.size() != header.size())
      refuse(where + ", line " + std::to_string(lines[r]) + ": " + std::to_string(fields.size()) +
             " fields, the header has " + std::to_string(header.size()) + " → give every row one field per column");
    Scenario s;
    s.id = id_column ? trim(fields[*id_column]) : std::to_string(r);
    if (s.id.empty())
      refuse(where + ", line " + std::to_string(lines[r]) + ": empty id → give every row an id, or drop the id column");
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (id_column && c == *id_column) continue;
      const std::string value = trim(fields[c]);
      if (!value.empty()) s.sets.emplace_back(trim(header[c]), value);
    }
    scenarios.push_back(std::move(s));
  }
  if (scenarios.empty()) refuse(where + ": a header but no scenario rows → add one row per scenario");
  check_unique_ids(scenarios, where);
  return scenarios;
}

std::vector<Scenario> full_factorial(const std::vector<std::string>& axes) {
  std::vector<std::pair<std::string, std::vector<std::string>>> parsed;
  for (const auto& axis : axes) {
    const auto eq = axis.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == axis.size())
      refuse("--grid \"" + axis + "\": expected name=v1,v2,... → e.g. --grid fault.t_off=1.05,1.1,1.2");
    std::vector<std::string> values;
    std::stringstream list(axis.substr(eq + 1));
    for (std::string v; std::getline(list, v, ',');) {
      if (trim(v).empty()) refuse("--grid \"" + axis + "\": an empty value → separate the values by single commas");
      values.push_back(trim(v));
    }
    parsed.emplace_back(trim(axis.substr(0, eq)), std::move(values));
  }
  std::vector<Scenario> scenarios;
  if (parsed.empty()) return scenarios;
  std::vector<std::size_t> index(parsed.size(), 0);
  for (std::size_t n = 1;; ++n) {
    Scenario s{std::to_string(n), {}};
    for (std::size_t a = 0; a < parsed.size(); ++a) s.sets.emplace_back(parsed[a].first, parsed[a].second[index[a]]);
    scenarios.push_back(std::move(s));
    std::size_t a = parsed.size();
    while (a > 0) {
      --a;
      if (++index[a] < parsed[a].second.size()) break;
      index[a] = 0;
      if (a == 0) return scenarios;
    }
  }
}

Draw parse_draw(const std::string& text) {
  const std::string example = " → e.g. --draw 'H=uniform(3,6)' or --draw 'load=normal(1,0.05,0.9,1.1)'";
  const auto eq = text.find('=');
  const auto open = text.find('(', eq == std::string::npos ? 0 : eq);
  const auto close = text.rfind(')');
  if (eq == std::string::npos || eq == 0 || open == std::string::npos || close == std::string::npos || close < open ||
      !trim(text.substr(close + 1)).empty())
    refuse("--draw \"" + text + "\": expected name=uniform(lo,hi) or name=normal(mean,sd[,lo,hi])" + example);
  Draw d;
  d.name = trim(text.substr(0, eq));
  const std::string kind = trim(text.substr(eq + 1, open - eq - 1));
  std::vector<double> args;
  std::stringstream list(text.substr(open + 1, close - open - 1));
  for (std::string a; std::getline(list, a, ',');) {
    auto v = parse_double(a);
    if (!v) refuse("--draw \"" + text + "\": \"" + trim(a) + "\" is not a finite number" + example);
    args.push_back(*v);
  }
  if (kind == "uniform") {
    if (args.size() != 2 || !(args[0] < args[1]))
      refuse("--draw \"" + text + "\": uniform takes (lo,hi) with lo < hi" + example);
    d.kind = Draw::Kind::uniform;
  } else if (kind == "normal") {
    if ((args.size() != 2 && args.size() != 4) || !(args[1] > 0))
      refuse("--draw \"" + text + "\": normal takes (mean,sd) or (mean,sd,lo,hi) with sd > 0" + example);
    d.kind = Draw::Kind::normal;
    if (args.size() == 4) {
      if (!(args[2] < args[3])) refuse("--draw \"" + text + "\": the bounds need lo < hi" + example);
      // Rejection needs a reasonable acceptance rate: the interval must hold
      // at least 1e-6 of the probability.
      const double p = 0.5 * (std::erfc((args[2] - args[0]) / (args[1] * std::sqrt(2.0))) -
                              std::erfc((args[3] - args[0]) / (args[1] * std::sqrt(2.0))));
      if (!(p >= 1e-6))
        refuse("--draw \"" + text + "\": the bounds hold almost none of the distribution (probability " +
               round_trip(p) + ") → widen them or move the mean inside");
      d.low = args[2];
      d.high = args[3];
    }
  } else {
    refuse("--draw \"" + text + "\": unknown distribution \"" + kind + "\" → uniform or normal" + example);
  }
  d.a = args[0];
  d.b = args[1];
  return d;
}

std::vector<double> monte_carlo_values(const std::vector<Draw>& draws, std::int64_t k, std::uint64_t seed) {
  SplitMix64 mix{seed};
  SplitMix64 rng{mix.next() ^ (static_cast<std::uint64_t>(k) * 0xd1b54a32d192ed03ULL)};
  rng.next();
  std::vector<double> values;
  for (const auto& d : draws) {
    if (d.kind == Draw::Kind::uniform) {
      values.push_back(d.a + (d.b - d.a) * rng.fraction());
      continue;
    }
    for (;;) {
      const double u1 = 1.0 - rng.fraction();  // (0, 1]
      const double u2 = rng.fraction();
      const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
      const double x = d.a + d.b * z;
      if ((!d.low || x >= *d.low) && (!d.high || x <= *d.high)) {
        values.push_back(x);
        break;
      }
    }
  }
  return values;
}

std::vector<Scenario> monte_carlo(const std::vector<Draw>& draws, std::int64_t count, std::uint64_t seed) {
  if (draws.empty()) refuse("--monte-carlo: no --draw given → e.g. --monte-carlo 100 --draw 'H=uniform(3,6)'");
  std::vector<Scenario> scenarios;
  for (std::int64_t k = 1; k <= count; ++k) {
    Scenario s{std::to_string(k), {}};
    const auto values = monte_carlo_values(draws, k, seed);
    for (std::size_t i = 0; i < draws.size(); ++i) s.sets.emplace_back(draws[i].name, round_trip(values[i]));
    scenarios.push_back(std::move(s));
  }
  return scenarios;
}

namespace {

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
  const std::string where = "--contingencies \"" + m.string() + "\"";
  const std::string text = read_file(m, "--contingencies");
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
    } else if (!(r.row >= 1) || r.row != std::floor(r.row)) {
      refuse(where + ", line " + std::to_string(r.line) + ": branch row " + round_trip(r.row) +
             " → rows of mpc.branch are whole numbers from 1");
    } else {
      table.outages.push_back({r.label, static_cast<std::int64_t>(r.row), r.line});
    }
  }
  return table;
}

std::vector<std::int64_t> read_branch_from_buses(const std::filesystem::path& case_m) {
  const std::string where = "--case \"" + case_m.string() + "\"";
  auto rows = matrix_rows(read_file(case_m, "--case"), "mpc.branch", where);
  std::vector<std::int64_t> from;
  for (auto& [line, fields] : rows) {
    auto bus = parse_double(fields[0]);
    if (fields.size() < 11 || !bus || *bus != std::floor(*bus))
      refuse(where + ", line " + std::to_string(line) + ": not a branch row (13 numbers, the first the from-bus) → "
             "give a MATPOWER case file");
    from.push_back(static_cast<std::int64_t>(*bus));
  }
  return from;
}

std::vector<Scenario> contingency_scenarios(const ChangeTable& table, const std::vector<std::int64_t>& from_buses,
                                            const ContingencyTimes& times, double t_on_default) {
  std::vector<Scenario> scenarios;
  for (const auto& o : table.outages) {
    if (times.fault && static_cast<std::size_t>(o.branch) > from_buses.size())
      refuse("--contingencies, line " + std::to_string(o.line) + ": branch row " + std::to_string(o.branch) +
             " but the case has " + std::to_string(from_buses.size()) + " branches → is this the case the table is for?");
    Scenario s{o.label, {}};
    s.sets.emplace_back("fault.bus",
                        times.fault ? std::to_string(from_buses[static_cast<std::size_t>(o.branch - 1)]) : "0");
    s.sets.emplace_back("trip.branch", std::to_string(o.branch));
    if (times.fault_on) s.sets.emplace_back("fault.t_on", round_trip(*times.fault_on));
    if (times.clear_after) {
      const double clear = times.fault_on.value_or(t_on_default) + *times.clear_after;
      s.sets.emplace_back("fault.t_off", round_trip(clear));
      s.sets.emplace_back("trip.time", round_trip(clear));
    }
    scenarios.push_back(std::move(s));
  }
  check_unique_ids(scenarios, "--contingencies");
  return scenarios;
}

std::vector<Scenario> cross(const std::vector<Scenario>& a, const std::vector<Scenario>& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  std::vector<Scenario> out;
  for (const auto& x : a)
    for (const auto& y : b) {
      Scenario s{x.id + "/" + y.id, x.sets};
      s.sets.insert(s.sets.end(), y.sets.begin(), y.sets.end());
      out.push_back(std::move(s));
    }
  return out;
}

namespace {

// Whether Simulation::set() takes a value for `v` (the same rule): a
// parameter or input, or a variable with an exact or approx start value; not
// a constant, a calculated or structural parameter, or a Clock.
bool settable(const Variable& v) {
  const bool by_causality = v.causality == Causality::parameter || v.causality == Causality::input ||
                            (v.initial && (*v.initial == Initial::exact || *v.initial == Initial::approx) &&
                             v.causality != Causality::calculated_parameter &&
                             v.causality != Causality::structural_parameter);
  return by_causality && v.variability != Variability::constant && v.type != VariableType::clock;
}

// A variable Simulation::set() refuses makes every scenario that sets it
// fail alike, and so does a bad value common to all of them (--set): refused
// here, before any run. A bad value in one row of a table (or one grid or
// Monte Carlo value) stays that scenario's failure, a row of the summary.
void check_settable(const ModelDescription& md, const std::vector<Scenario>& scenarios, const std::string& source) {
  const bool common = source == "--set" || source == "spec->sets";
  std::set<std::string> names;
  std::set<std::pair<std::string, std::string>> values;
  for (const auto& s : scenarios)
    for (const auto& [name, value] : s.sets) {
      const auto ref = md.find_element(name);
      if (!ref) continue;
      const Variable& v = *ref->variable;
      if (names.insert(name).second && !settable(v))
        refuse(source + ": \"" + name + "\" (causality " + to_string(v.causality) + ", variability " +
               to_string(v.variability) + ") cannot be set → set parameters, inputs or variables with a start value");
      if (!common || !values.insert({name, value}).second) continue;
      try {
        if (v.is_array() && name != v.name) parse_element_value(v, md, value);
        else parse_value(v, md, value);
      } catch (const Error& e) {
        refuse(source + ": " + e.what());
      }
    }
}

}  // namespace

void check_names(const ModelDescription& md, const std::vector<Scenario>& scenarios, const std::string& source) {
  std::set<std::string> checked;
  for (const auto& s : scenarios)
    for (const auto& [name, value] : s.sets) {
      if (!checked.insert(name).second || md.find_element(name)) continue;
      std::string best;
      // A suggestion within a third of the name's length (at least 1), and not a total rewrite.
      std::size_t best_distance = std::max<std::size_t>(1, name.size() / 3) + 1;
      for (const auto& v : md.variables) {
        const std::size_t d = distance(name, v.name);
        if (d < best_distance && d < name.size()) best_distance = d, best = v.name;
      }
      refuse(source + ": \"" + name + "\" is not a variable of the model → " +
             (best.empty() ? std::string("see `lsdae info --json` for the names") : "did you mean \"" + best + "\"?"));
    }
  check_settable(md, scenarios, source);
}

void check_unique_ids(const std::vector<Scenario>& scenarios, const std::string& source) {
  std::set<std::string> ids;
  for (const auto& s : scenarios)
    if (!ids.insert(s.id).second)
      refuse(source + ": scenario id \"" + s.id + "\" appears twice → give every scenario its own id");
}

ScenarioList make_scenarios(const ScenarioSourceSpec& o, const Model& model) {
  const int sources = (!o.table.empty()) + (o.monte_carlo > 0) + (!o.contingencies.empty());
  if (sources > 1)
    refuse("sweep: --scenarios, --monte-carlo and --contingencies are alternatives → give one (--grid may be "
           "added to any of them)");
  if (sources == 0 && o.grid.empty())
    refuse("sweep: no scenarios → give --scenarios table.csv, --grid name=v1,v2, --monte-carlo N --draw ..., or "
           "--contingencies chgtab.m --case case.m");
  if (!o.draws.empty() && o.monte_carlo == 0) refuse("--draw: only with --monte-carlo N → e.g. --monte-carlo 100");
  if (o.monte_carlo < 0) refuse("--monte-carlo " + std::to_string(o.monte_carlo) + ": a count → give 1 or more");
  if ((!o.case_file.empty() || o.fault_on || o.clear_after || o.no_fault) && o.contingencies.empty())
    refuse("--case, --fault-on, --clear-after and --no-fault go with --contingencies chgtab.m");
  if (!o.contingencies.empty() && dynamic_cast<const Fmu*>(&model) == nullptr)
    refuse("--contingencies: the branch outages map onto one PowerGrid FMU's disturbance parameters (fault.bus, "
           "trip.branch), and \"" + model.path().string() + "\" is a system of FMUs → sweep the PowerGrid FMU "
           "itself, or give the outages as a --scenarios table whose columns name the component's variables (e.g. "
           "grid.fault.bus)");
  const ModelDescription& md = model.model_description();
  ScenarioList out;
  std::vector<Scenario> base;
  std::string source;
  if (!o.table.empty()) {
    base = read_scenario_table(o.table);
    source = "--scenarios \"" + o.table + "\"";
  } else if (o.monte_carlo > 0) {
    std::vector<Draw> draws;
    for (const auto& d : o.draws) draws.push_back(parse_draw(d));
    base = monte_carlo(draws, o.monte_carlo, o.seed);
    source = "--draw";
  } else if (!o.contingencies.empty()) {
    if (o.case_file.empty() && !o.no_fault)
      refuse("--contingencies: the fault is at each branch's from-bus, which the MATPOWER case file gives → add "
             "--case case.m (or --no-fault to only open the branches)");
    const ChangeTable table = read_chgtab(o.contingencies);
    out.skipped = table.skipped;
    if (table.outages.empty()) refuse("--contingencies \"" + o.contingencies + "\": no branch outage to sweep");
    const auto from = o.no_fault ? std::vector<std::int64_t>{} : read_branch_from_buses(o.case_file);
    ContingencyTimes times{o.fault_on, o.clear_after, !o.no_fault};
    const Variable* t_on = md.find("fault.t_on");
    const Variable* trip_time = md.find("trip.time");
    if (o.clear_after && !o.fault_on && (t_on == nullptr || !t_on->start))
      refuse("--clear-after: the FMU has no fault.t_on start value to count from → add --fault-on T");
    base = contingency_scenarios(table, from, times, t_on && t_on->start ? *t_on->start : 0.0);
    // The settle test starts once the branch is open.
    if (o.clear_after) out.settle_from = o.fault_on.value_or(t_on && t_on->start ? *t_on->start : 0.0) + *o.clear_after;
    else if (trip_time != nullptr && trip_time->start) out.settle_from = trip_time->start;
    source = "--contingencies \"" + o.contingencies + "\"";
  }
  std::vector<Scenario> grid = full_factorial(o.grid);
  if (!grid.empty()) check_names(md, grid, "--grid");
  if (!base.empty()) check_names(md, base, source);
  out.scenarios = cross(base, grid);
  check_unique_ids(out.scenarios, "sweep");
  return out;
}

}  // namespace lsdae::sweep
