// compare_results -- compare columns of two result CSVs (lsdae's, or a
// reference table) row by row at equal times; the checker of the system
// acceptance tests (tests/systems/) and of the component FMUs run alone
// (tests/models/systems/).
//
//   compare_results ACTUAL.csv EXPECTED.csv --tolerance T [--floor F]
//                   [--min-rows N] [--skip-events] ACTUAL_COLUMN=[-]EXPECTED_COLUMN ...
//
// Rows are matched by time: every row of EXPECTED whose time lies within
// ACTUAL's time span must have a row of ACTUAL at the same time (to 1e-10
// relative); a time that occurs k times (an event: the rows before and
// after) matches the k-th occurrence. --skip-events drops, in both tables,
// the rows of a time that occurs more than once: event rows, whose times two
// runs locate a little apart (each by its own root finding), so they are
// compared on the output grid only. For each pair the error is
//     max over rows |a - s e| / max(peak |e| of the column, F)
// with s = -1 when the expected column is written with a leading '-'.
// Passes (exit 0) when every pair's error is at most T and at least N rows
// (default 2) were compared; prints one line per pair either way. Exit 1:
// a pair exceeds T or too few rows; 2: usage, unreadable file, or a missing
// column (named in the message).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Table {
  std::string path;
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  std::size_t column(const std::string& name) const {
    auto it = std::find(columns.begin(), columns.end(), name);
    if (it == columns.end()) {
      std::string list;
      for (std::size_t i = 0; i < columns.size() && i < 12; ++i) list += (i ? ", " : "") + columns[i];
      throw std::runtime_error(path + ": no column \"" + name + "\" (columns: " + list +
                               (columns.size() > 12 ? ", ..." : "") + ")");
    }
    return static_cast<std::size_t>(it - columns.begin());
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"') quoted = !quoted;
    else if (ch == ',' && !quoted) {
      out.push_back(cell);
      cell.clear();
    } else if (ch != '\r') cell += ch;
  }
  out.push_back(cell);
  return out;
}

Table read_table(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  Table t;
  t.path = path;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty");
  t.columns = split(line);
  std::size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line == "\r") continue;
    const auto cells = split(line);
    std::vector<double> row;
    bool numeric = true;
    for (const auto& c : cells) {
      char* end = nullptr;
      const double v = std::strtod(c.c_str(), &end);
      if (c.empty() || end == c.c_str() || *end != '\0') {
        numeric = false;
        break;
      }
      row.push_back(v);
    }
    if (!numeric) {
      if (number == 2) continue;  // a units line (--csv-units)
      throw std::runtime_error(path + ":" + std::to_string(number) + ": not a row of numbers");
    }
    if (row.size() != t.columns.size())
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + std::to_string(row.size()) +
                               " values for " + std::to_string(t.columns.size()) + " columns");
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Removes the rows whose time occurs more than once (to 1e-10 relative).
void drop_event_rows(Table& t, std::size_t time_column) {
  std::vector<std::vector<double>> kept;
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    const double time = t.rows[r][time_column];
    const bool before = r > 0 && std::abs(t.rows[r - 1][time_column] - time) <= 1e-10 * std::abs(time) + 1e-18;
    const bool after =
        r + 1 < t.rows.size() && std::abs(t.rows[r + 1][time_column] - time) <= 1e-10 * std::abs(time) + 1e-18;
    if (!before && !after) kept.push_back(t.rows[r]);
  }
  t.rows = std::move(kept);
}

bool same_time(double a, double b) { return std::abs(a - b) <= 1e-10 * std::max(std::abs(a), std::abs(b)) + 1e-18; }

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::vector<std::string> positional;
    double tolerance = -1, floor = 0;
    std::size_t min_rows = 2;
    bool skip_events = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "--skip-events") {
        skip_events = true;
      } else if ((args[i] == "--tolerance" || args[i] == "--floor" || args[i] == "--min-rows") && i + 1 < args.size()) {
        const double v = std::stod(args[i + 1]);
        if (args[i] == "--tolerance") tolerance = v;
        else if (args[i] == "--floor") floor = v;
        else min_rows = static_cast<std::size_t>(v);
        ++i;
      } else {
        positional.push_back(args[i]);
      }
    }
    if (positional.size() < 3 || tolerance < 0) {
      std::cerr << "usage: compare_results ACTUAL.csv EXPECTED.csv --tolerance T [--floor F] [--min-rows N] [--skip-events] "
                   "ACTUAL_COLUMN=[-]EXPECTED_COLUMN ...\n";
      return 2;
    }
    Table actual = read_table(positional[0]);
    Table expected = read_table(positional[1]);
    const std::size_t ta = actual.column("time"), te = expected.column("time");
    if (skip_events) {
      drop_event_rows(actual, ta);
      drop_event_rows(expected, te);
    }
    if (actual.rows.empty()) throw std::runtime_error(actual.path + ": no rows");

    // Row pairs: expected row -> actual row at the same time (k-th occurrence).
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    const double t_first = actual.rows.front()[ta], t_last = actual.rows.back()[ta];
    std::size_t cursor = 0;
    for (std::size_t r = 0; r < expected.rows.size(); ++r) {
      const double t = expected.rows[r][te];
      if ((t < t_first && !same_time(t, t_first)) || (t > t_last && !same_time(t, t_last))) continue;
      while (cursor < actual.rows.size() && actual.rows[cursor][ta] < t && !same_time(actual.rows[cursor][ta], t))
        ++cursor;
      if (cursor == actual.rows.size() || !same_time(actual.rows[cursor][ta], t)) {
        std::cerr << "compare_results: " << actual.path << " has no row at t = " << t << " (row " << r + 2 << " of "
                  << expected.path << ") → write the results on the expected grid (--output-interval)\n";
        return 1;
      }
      pairs.emplace_back(r, cursor);
      ++cursor;
    }
    bool ok = pairs.size() >= min_rows;
    if (!ok)
      std::cerr << "compare_results: only " << pairs.size() << " rows at common times, " << min_rows
                << " required\n";
    for (std::size_t p = 2; p < positional.size(); ++p) {
      const std::string& spec = positional[p];
      const auto eq = spec.find('=');
      if (eq == std::string::npos) throw std::runtime_error("\"" + spec + "\" is not ACTUAL_COLUMN=[-]EXPECTED_COLUMN");
      std::string exp_name = spec.substr(eq + 1);
      double sign = 1.0;
      if (!exp_name.empty() && exp_name[0] == '-') {
        sign = -1.0;
        exp_name.erase(0, 1);
      }
      const std::size_t ca = actual.column(spec.substr(0, eq)), ce = expected.column(exp_name);
      double peak = 0.0;
      for (const auto& [r, a] : pairs) peak = std::max(peak, std::abs(expected.rows[r][ce]));
      const double scale = std::max(peak, floor) > 0 ? std::max(peak, floor) : 1.0;
      double worst = 0.0, worst_t = 0.0;
      for (const auto& [r, a] : pairs) {
        const double err = std::abs(actual.rows[a][ca] - sign * expected.rows[r][ce]) / scale;
        if (!(err <= worst)) {  // NaN counts as the worst
          worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
          worst_t = expected.rows[r][te];
        }
      }
      const bool pass = worst <= tolerance;
      ok = ok && pass;
      std::cout << (pass ? "ok   " : "FAIL ") << spec << ": max |difference| / " << scale << " = " << worst
                << " at t = " << worst_t << " (" << pairs.size() << " rows, tolerance " << tolerance << ")\n";
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "compare_results: " << e.what() << "\n";
    return 2;
  }
}
