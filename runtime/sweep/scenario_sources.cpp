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
#include "lsdae/text.h"
#include "lsdae/values.h"
#include "run/value_checks.h"
#include "sweep/csv_line.h"

namespace lsdae::sweep {

namespace {

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

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
  const std::string text = read_text_file(csv, "--scenarios");
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

std::vector<Scenario> cross(const std::vector<Scenario>& a, const std::vector<Scenario>& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  std::vector<Scenario> out;
  for (const auto& x : a)
    for (const auto& y : b) {
      Scenario s{x.id + "/" + y.id, x.sets};
      s.sets.insert(s.sets.end(), y.sets.begin(), y.sets.end());
      // A grid value applies from the start, in the shared run too -- unless
      // it names a variable a stage sets: then no sharing for this scenario.
      bool staged_name = false;
      for (const auto& stage : x.stages)
        for (const auto& [name, value] : stage.sets)
          for (const auto& [grid_name, grid_value] : y.sets) staged_name = staged_name || grid_name == name;
      if (!x.stages.empty() && !staged_name) {
        s.shared_sets = x.shared_sets;
        s.shared_sets.insert(s.shared_sets.end(), y.sets.begin(), y.sets.end());
        s.stages = x.stages;
      }
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

namespace {

// "--a, --b and --c"
std::string and_list(const std::vector<std::string>& words) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return out;
}

// A registered source's number options checked against their ranges (the
// command line checks them while parsing; C hands them in as text).
void check_numbers(const ScenarioSource& source, const ScenarioSourceArguments& arguments) {
  for (const auto& [name, text] : arguments)
    for (const auto& option : source.options) {
      if (option.name != name || option.kind != ScenarioSourceOption::Kind::number) continue;
      const run::RealRange range{option.low, option.high, option.low_inclusive, option.high_inclusive, option.meaning,
                                 option.example};
      if (const auto refusal = run::refuse_real_text(text, range))
        refuse("--" + name + ": " + refusal->after(run::quoted_value(text)));
    }
}

}  // namespace

ScenarioList make_scenarios(const ScenarioSourceSpec& o, const Model& model) {
  const std::vector<ScenarioSource> registered = scenario_sources();
  // The registered source given (its selecting option), and options of a
  // source given without the option that selects it.
  const ScenarioSource* chosen = nullptr;
  const ScenarioSourceArguments* chosen_arguments = nullptr;
  int chosen_count = 0;
  for (const auto& [name, arguments] : o.sources) {
    const ScenarioSource* source = nullptr;
    for (const auto& r : registered)
      if (r.name == name) source = &r;
    if (source == nullptr) refuse("sweep: no scenario source is named \"" + name + "\" → the sources: --scenarios, --grid, --monte-carlo" + [&] {
      std::string list;
      for (const auto& r : registered) list += ", --" + r.name;
      return list;
    }());
    if (arguments.empty()) continue;
    bool selected = false;
    for (const auto& [key, value] : arguments) selected = selected || key == source->name;
    if (!selected) {
      std::vector<std::string> others;
      for (std::size_t i = 1; i < source->options.size(); ++i) others.push_back("--" + source->options[i].name);
      refuse(and_list(others) + " go with --" + source->name + " " + source->example);
    }
    check_numbers(*source, arguments);
    chosen = source;
    chosen_arguments = &arguments;
    ++chosen_count;
  }
  const int sources = (!o.table.empty()) + (o.monte_carlo > 0) + chosen_count;
  if (sources > 1) {
    std::vector<std::string> names{"--scenarios", "--monte-carlo"};
    for (const auto& r : registered) names.push_back("--" + r.name);
    refuse("sweep: " + and_list(names) + " are alternatives → give one (--grid may be added to any of them)");
  }
  if (sources == 0 && o.grid.empty()) {
    std::string usage;
    for (const auto& r : registered) usage += ", or " + r.usage;
    if (usage.empty()) usage = " or --monte-carlo N --draw ...";
    else usage = ", --monte-carlo N --draw ..." + usage;
    refuse("sweep: no scenarios → give --scenarios table.csv, --grid name=v1,v2" + usage);
  }
  if (!o.draws.empty() && o.monte_carlo == 0) refuse("--draw: only with --monte-carlo N → e.g. --monte-carlo 100");
  if (o.monte_carlo < 0) refuse("--monte-carlo " + std::to_string(o.monte_carlo) + ": a count → give 1 or more");
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
  } else if (chosen != nullptr) {
    SourceScenarios made = chosen->make(model, *chosen_arguments);
    base = std::move(made.scenarios);
    out.skipped = std::move(made.skipped);
    out.skipped_by = chosen->name;
    out.settle_from = made.settle_from;
    out.outcome = made.outcome;
    check_unique_ids(base, "--" + chosen->name);
    std::string input;
    for (const auto& [key, value] : *chosen_arguments)
      if (key == chosen->name) input = value;
    source = "--" + chosen->name + " \"" + input + "\"";
  }
  std::vector<Scenario> grid = full_factorial(o.grid);
  if (!grid.empty()) check_names(md, grid, "--grid");
  if (!base.empty()) check_names(md, base, source);
  out.scenarios = cross(base, grid);
  check_unique_ids(out.scenarios, "sweep");
  return out;
}

}  // namespace lsdae::sweep
