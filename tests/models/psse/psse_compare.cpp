// psse_compare -- an lsdae result (CSV with a header) against a trajectory
// PSS/E computed (CSV without a header, ../shared/data/grids/psse/*/): the
// checker of the validation ladder (tests/models/psse/CMakeLists.txt).
//
//   psse_compare ACTUAL.csv REFERENCE.csv [--min-rows N] CHECK...
//   psse_compare --last ACTUAL.csv COLUMN VALUE
//     (the last row's COLUMN equals VALUE: a count, e.g. limits.events;
//     VALUE~TOL: within TOL of VALUE)
//   psse_compare --flat ACTUAL.csv TOLERANCE
//     (an undisturbed run: every column stays within TOLERANCE of its first row)
//   CHECK = REFCOL:KIND:LSDAE_COLUMNS:TOLERANCE
//     REFCOL          1-based column of the reference (0 is time)
//     KIND angle      LSDAE_COLUMNS is one angle in rad; the reference's in degrees
//          abs        "VR,VI": the magnitude |VR + jVI| against the reference
//          arg        "VR,VI": the angle of VR + jVI (rad) against the reference's degrees
//          value      one column, as is
//          deviation  one column, against the reference (a speed deviation, p.u.)
// The reference's times are rounded to 3 decimals; of a time that occurs
// twice (the event at 1 s: before and after) the last row is kept, as
// PowerSimulationsDynamics.jl's tests do; lsdae's rows are matched at the same
// times (to 1e-9 s; of lsdae's two rows at an event, the one after). The
// error of a check is max |actual − reference| over the matched rows, in
// rad for angles and in the reference's unit otherwise.
// Exit 0 when every check is within its tolerance and at least N rows
// (default 2) matched; 1 when one is not; 2 for a usage error, an unreadable
// file or a missing column. Prints one line per check either way.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::stringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

std::vector<std::vector<double>> read_rows(const std::string& path, bool header, std::vector<std::string>* names) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::string line;
  if (header) {
    if (!std::getline(in, line)) throw std::runtime_error(path + ": empty");
    *names = split(line, ',');
  }
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    std::vector<double> row;
    for (const std::string& cell : split(line, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(std::move(row));
  }
  return rows;
}

// Rows by time (rounded to `decimals`), the last row of each time kept.
std::map<long long, std::vector<double>> by_time(const std::vector<std::vector<double>>& rows, double scale) {
  std::map<long long, std::vector<double>> out;
  for (const auto& r : rows) out[std::llround(r[0] * scale)] = r;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: psse_compare ACTUAL.csv REFERENCE.csv [--min-rows N] REFCOL:KIND:COLUMNS:TOLERANCE...\n";
    return 2;
  }
  try {
    if (std::string(argv[1]) == "--last" && argc == 5) {
      std::vector<std::string> names;
      const auto rows = read_rows(argv[2], true, &names);
      std::size_t c = names.size();
      for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == argv[3]) c = k;
      if (c == names.size() || rows.empty()) throw std::runtime_error(std::string(argv[2]) + ": no column \"" + argv[3] + "\"");
      const std::string expected = argv[4];
      const auto tilde = expected.find('~');
      const double want = std::stod(expected.substr(0, tilde)), got = rows.back()[c];
      const double tolerance = tilde == std::string::npos ? 0.0 : std::stod(expected.substr(tilde + 1));
      const bool pass = tolerance == 0.0 ? got == want : std::fabs(got - want) <= tolerance;
      std::printf("%s last %s = %.17g (expected %s)\n", pass ? "PASS" : "FAIL", argv[3], got, argv[4]);
      return pass ? 0 : 1;
    }
    if (std::string(argv[1]) == "--flat") {
      std::vector<std::string> names;
      const auto rows = read_rows(argv[2], true, &names);
      const double tolerance = std::stod(argv[3]);
      double worst = 0, at = 0;
      std::string which;
      for (const auto& r : rows)
        for (std::size_t c = 1; c < r.size() && c < names.size(); ++c)
          if (std::fabs(r[c] - rows.front()[c]) > worst)
            worst = std::fabs(r[c] - rows.front()[c]), at = r[0], which = names[c];
      const bool pass = worst <= tolerance && rows.size() >= 2 && rows.back()[0] >= 10.0 - 1e-9;
      std::printf("%s flat: largest change %.3e (%s at t = %.3f s) over %zu rows to t = %.3f s, tolerance %.3e\n",
                  pass ? "PASS" : "FAIL", worst, which.empty() ? "-" : which.c_str(), at, rows.size(),
                  rows.empty() ? 0.0 : rows.back()[0], tolerance);
      return pass ? 0 : 1;
    }
    std::vector<std::string> names;
    const auto actual = read_rows(argv[1], true, &names);
    const auto reference = read_rows(argv[2], false, nullptr);
    std::size_t min_rows = 2;
    std::vector<std::string> checks;
    for (int i = 3; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--min-rows" && i + 1 < argc) min_rows = std::stoul(argv[++i]);
      else checks.push_back(a);
    }
    auto column = [&](const std::string& name) {
      for (std::size_t c = 0; c < names.size(); ++c)
        if (names[c] == name) return c;
      throw std::runtime_error(std::string(argv[1]) + ": no column \"" + name + "\"");
    };
    // Match at 1e-3 s resolution (the reference's), lsdae's last row of a time.
    const auto ref = by_time(reference, 1000.0);
    const auto act = by_time(actual, 1000.0);
    bool ok = true;
    for (const std::string& check : checks) {
      const auto parts = split(check, ':');
      if (parts.size() != 4) throw std::runtime_error("check \"" + check + "\": expected REFCOL:KIND:COLUMNS:TOLERANCE");
      const std::size_t refcol = std::stoul(parts[0]);
      const std::string kind = parts[1];
      const auto cols = split(parts[2], ',');
      const double tolerance = std::stod(parts[3]);
      std::vector<std::size_t> index;
      for (const auto& c : cols) index.push_back(column(c));
      double worst = 0, at = 0;
      std::size_t matched = 0;
      for (const auto& [key, r] : ref) {
        auto it = act.find(key);
        if (it == act.end()) continue;
        const auto& a = it->second;
        if (refcol >= r.size()) throw std::runtime_error(std::string(argv[2]) + ": no column " + parts[0]);
        double e = 0;
        if (kind == "angle") e = std::fabs(a[index[0]] - r[refcol] * kDeg);
        else if (kind == "abs") e = std::fabs(std::hypot(a[index[0]], a[index[1]]) - r[refcol]);
        else if (kind == "arg") e = std::fabs(std::atan2(a[index[1]], a[index[0]]) - r[refcol] * kDeg);
        else if (kind == "value" || kind == "deviation") e = std::fabs(a[index[0]] - r[refcol]);
        else throw std::runtime_error("check \"" + check + "\": kind must be angle, abs, arg, value or deviation");
        ++matched;
        if (e > worst) worst = e, at = r[0];
      }
      const bool pass = worst <= tolerance && matched >= min_rows;
      ok = ok && pass;
      std::printf("%s reference column %zu (%s of %s): max error %.3e%s at t = %.3f s over %zu rows, tolerance %.3e\n",
                  pass ? "PASS" : "FAIL", refcol, kind.c_str(), parts[2].c_str(), worst,
                  kind == "angle" || kind == "arg" ? " rad" : "", at, matched, tolerance);
    }
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "psse_compare: " << e.what() << "\n";
    return 2;
  }
}
