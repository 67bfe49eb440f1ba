// runtime/sweep/sweep_report.cpp -- see sweep_report.h: the outcomes, the
// rankings and the trajectories. The page is sweep_report_html.cpp.
#include "sweep/sweep_report.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>

#include "lsdae/error.h"
#include "simulation/output_channels.h"

namespace lsdae::sweep {

const char* to_string(Outcome outcome) noexcept {
  switch (outcome) {
    case Outcome::stable: return "stable";
    case Outcome::unstable: return "unstable";
    case Outcome::islanded: return "islanded";
    case Outcome::collapsed: return "collapsed";
    case Outcome::failed: return "failed";
  }
  return "failed";
}

Outcome outcome_of(const SummaryRow& row) {
  // A row the scenario source labelled (lsdae/sweep.h OutcomeLabel: "islanded: <amount> (<indicator>)",
  // then "; " and the run's own message, if any).
  static const std::string kIslandedLabel = "islanded: ";
  const bool islanded = row.message.rfind(kIslandedLabel, 0) == 0;
  std::string_view message = row.message;
  if (islanded) {
    const std::size_t own = message.find("; ");
    message = own == std::string_view::npos ? std::string_view() : message.substr(own + 2);
  }
  switch (row.status) {
    case Status::ok: return islanded ? Outcome::islanded : Outcome::stable;
    case Status::stopped_early:
      if (message.rfind("settled", 0) != 0) return Outcome::unstable;  // a --stop-when condition held
      return islanded ? Outcome::islanded : Outcome::stable;
    case Status::failed: break;
  }
  return message.find(kImpasseWords) != std::string_view::npos ? Outcome::collapsed : Outcome::failed;
}

std::optional<OutcomeLabelled> labelled(const SummaryRow& row) {
  // LABEL ": " AMOUNT " = " VALUE [" " UNIT] " (" INDICATOR " = " N ")"
  const std::string& m = row.message;
  const std::size_t colon = m.find(": "), eq = m.find(" = ", colon == std::string::npos ? 0 : colon);
  const std::size_t open = m.find(" (", eq == std::string::npos ? 0 : eq);
  const std::size_t eq2 = m.find(" = ", open == std::string::npos ? 0 : open), close = m.find(')', eq2);
  if (colon == std::string::npos || eq == std::string::npos || open == std::string::npos || eq2 == std::string::npos ||
      close == std::string::npos || colon == 0)
    return std::nullopt;
  OutcomeLabelled o;
  o.label = m.substr(0, colon);
  o.amount = m.substr(colon + 2, eq - colon - 2);
  const std::string value = m.substr(eq + 3, open - eq - 3);
  const std::size_t space = value.find(' ');
  o.unit = space == std::string::npos ? "" : value.substr(space + 1);
  o.indicator = m.substr(open + 2, eq2 - open - 2);
  try {
    std::size_t used = 0;
    o.value = std::stod(value.substr(0, space), &used);
    if (used != value.substr(0, space).size()) return std::nullopt;
    o.indicator_value = std::stod(m.substr(eq2 + 3, close - eq2 - 3), &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return o;
}

std::vector<std::size_t> rank_islands(const SummaryTable& table, const std::vector<Outcome>& outcomes, std::size_t n) {
  std::vector<std::pair<double, std::size_t>> rows;
  for (std::size_t r = 0; r < table.rows.size() && r < outcomes.size(); ++r) {
    if (outcomes[r] != Outcome::islanded) continue;
    const auto o = labelled(table.rows[r]);
    rows.emplace_back(o && std::isfinite(o->value) ? -o->value : HUGE_VAL, r);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < rows.size() && i < n; ++i) out.push_back(rows[i].second);
  return out;
}

Worst worst_direction(const std::string& metric) {
  std::string stat = metric.substr(0, metric.find(':'));
  stat = stat.substr(0, stat.find('@'));  // STAT@FROM: ranked as STAT
  if (stat == "max") return Worst::largest;
  if (stat == "min") return Worst::smallest;
  if (stat == "final") return Worst::largest_magnitude;
  return Worst::not_ranked;
}

namespace {

std::optional<double> number_of(const SummaryRow& row, std::size_t m) {
  if (m >= row.metrics.size() || !row.metrics[m] || std::isnan(*row.metrics[m])) return std::nullopt;
  return row.metrics[m];
}

std::string metric_name(const SummaryTable& table, std::size_t m) {
  const std::size_t column = m + summary_header({}).size();
  return column < table.columns.size() ? table.columns[column] : "";
}

}  // namespace

std::vector<std::size_t> rank_worst(const SummaryTable& table, std::size_t m, std::size_t n) {
  const Worst how = worst_direction(metric_name(table, m));
  if (how == Worst::not_ranked) return {};
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < table.rows.size(); ++r)
    if (number_of(table.rows[r], m)) rows.push_back(r);
  auto key = [&](std::size_t r) {
    const double v = *number_of(table.rows[r], m);
    return how == Worst::largest ? -v : how == Worst::smallest ? v : -std::fabs(v);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  if (rows.size() > n) rows.resize(n);
  return rows;
}

std::vector<std::string> trajectory_ids(const SummaryTable& table, std::size_t per_metric) {
  std::vector<std::string> ids;
  std::set<std::string> seen;
  const std::size_t metrics = table.columns.size() - std::min(table.columns.size(), summary_header({}).size());
  for (std::size_t m = 0; m < metrics; ++m)
    for (std::size_t r : rank_worst(table, m, per_metric))
      if (seen.insert(table.rows[r].id).second) ids.push_back(table.rows[r].id);
  return ids;
}

std::string result_file_stem(const std::string& id) {
  std::string name = id;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  // One character in front (not insert(0, "_"): GCC 12 at -O2 reports a false -Wrestrict on that
  // copy from a literal, GCC bug 105651).
  if (name.empty() || name[0] == '.') name.insert(name.begin(), '_');
  return name;
}

Trajectory read_trajectory(const std::filesystem::path& dir, const std::string& id, const std::string& globs) {
  Trajectory t;
  t.id = id;
  std::error_code ec;
  for (const char* ext : {".csv", ".h5", ".hdf5", ".mat"}) {
    const std::filesystem::path path = dir / (result_file_stem(id) + ext);
    if (std::filesystem::is_regular_file(path, ec)) {
      t.file = path.string();
      break;
    }
  }
  if (t.file.empty()) return t;
  if (!globs.empty()) {
    const auto patterns = simulation::split_output_patterns(globs);
    t.table = results::read_result(
        t.file,
        [&](const std::string& name) {
          return std::any_of(patterns.begin(), patterns.end(),
                             [&](const std::string& p) { return simulation::glob_match(p, name); });
        },
        "", results::NonNumeric::skip);
    if (t.table.series.empty())
      throw Error(ErrorKind::usage, "lsdae report --vars → \"" + globs + "\" matches no numeric column of " + t.file +
                                        " → use lsdae plot's globs (* any run, ? one character)");
  } else {
    // The first numeric columns: names first, then the values of those.
    const results::ResultTable names = results::read_result(t.file, [](const std::string&) { return false; });
    std::set<std::string> wanted;
    for (std::size_t k = 0; k < names.all_names.size() && wanted.size() < kDefaultColumns; ++k)
      wanted.insert(names.all_names[k]);
    t.table = results::read_result(
        t.file, [&](const std::string& name) { return wanted.count(name) > 0; }, "", results::NonNumeric::skip);
  }
  t.panels = results::assign_panels(t.table, 0);
  t.events = results::event_times(t.table.time);
  return t;
}

}  // namespace lsdae::sweep
