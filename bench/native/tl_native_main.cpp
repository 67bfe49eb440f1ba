// bench/native/tl_native_main.cpp -- `tl_native`: the native IDA + KLU
// reference solver of the TransmissionLine benchmark (no FMU), as a program
// that bench/scaling.py runs side by side with `lsdae simulate`.
//
//   tl_native --form dae -N 1280 --stats native.json -o native.csv --output-vars v_load
//   tl_native --form ode -N 80 --reference models/transmission_line/reference/N80_trajectory.csv
//
// The statistics JSON has the shape of lsdae's (`counters`, `klu`, `time_s`,
// `wall_time_s`) plus `peak_rss_kb`, and, with --reference, `reference`: the
// largest difference from the reference trajectory, each column scaled by its
// peak magnitude (models/transmission_line/README.md). Exit codes: 0 success,
// 1 the solution is further from the reference than --reference-tolerance,
// 2 usage, 7 the solver failed.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "native/native_solver.h"
#include "native/transmission_line.h"

namespace {

using lsdae::bench::NativeOptions;
using lsdae::bench::NativeStats;
using lsdae::bench::TlForm;
using lsdae::bench::TransmissionLine;

struct Reference {
  std::vector<std::string> columns;       // without "time"
  std::vector<double> times;              // per row
  std::vector<std::vector<double>> rows;  // per row, per column
};

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(line);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

// strtod, not std::stod: the reference holds subnormal values (1e-320), which
// std::stod rejects as out of range.
double parse_number(const std::string& text, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') throw std::runtime_error(where + ": \"" + text + "\" is not a number");
  return v;
}

Reference read_reference(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the reference trajectory");
  Reference ref;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty file");
  auto header = split(line, ',');
  if (header.empty() || header[0] != "time")
    throw std::runtime_error(path + ":1: the first column must be \"time\"");
  ref.columns.assign(header.begin() + 1, header.end());
  for (long number = 2; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    auto cells = split(line, ',');
    if (cells.size() != header.size())
      throw std::runtime_error(path + ":" + std::to_string(number) + ": " + std::to_string(cells.size()) +
                               " cells, the header has " + std::to_string(header.size()));
    const std::string where = path + ":" + std::to_string(number);
    ref.times.push_back(parse_number(cells[0], where));
    std::vector<double> row;
    for (std::size_t c = 1; c < cells.size(); ++c) row.push_back(parse_number(cells[c], where));
    ref.rows.push_back(std::move(row));
  }
  return ref;
}

std::string json_number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Native IDA + KLU reference solver of the TransmissionLine benchmark (no FMU)"};
  std::string form_text = "dae";
  long segments = 10;
  NativeOptions options;
  double atol = 0.0;
  std::string output, output_vars, stats_path, reference_path;
  double reference_tolerance = 1e-5;
  app.add_option("--form", form_text, "ode (2N+2 states, G = y' - f(y)) or dae (the FMU's fully implicit form)")
      ->check(CLI::IsMember({"ode", "dae"}));
  app.add_option("-N,--segments", segments, "number of segments N")->check(CLI::Range(1L, 10000000L));
  app.add_option("--start", options.t_start, "start time (default 0)");
  app.add_option("--stop", options.t_stop, "stop time (default 4e-6)");
  app.add_option("--rtol", options.rtol, "relative tolerance (default 1e-8)")->check(CLI::PositiveNumber);
  app.add_option("--atol", atol, "absolute tolerance (default: rtol)")->check(CLI::PositiveNumber);
  app.add_option("--output-interval", options.interval, "time between output points (default 2e-9)")
      ->check(CLI::PositiveNumber);
  app.add_option("-o,--output", output, "result CSV (time and --output-vars); none by default");
  app.add_option("--output-vars", output_vars,
                 "comma-separated variable names (default: the reference trajectory's columns)");
  app.add_option("--stats", stats_path, "run statistics as JSON");
  app.add_option("--reference", reference_path, "reference trajectory CSV to compare with (N<N>_trajectory.csv)");
  app.add_option("--reference-tolerance", reference_tolerance,
                 "largest scaled difference from the reference accepted (default 1e-5)");
  std::string nvector = "optimized";
  app.add_option("--nvector", nvector,
                 "optimized (default): the serial vector operations compiled with the project, as lsdae's "
                 "integrator uses them (runtime/simulation/ida/optimized_nvector.h); serial: SUNDIALS' own as "
                 "Debian packages them (built without optimisation; bitwise the same results)")
      ->check(CLI::IsMember({"serial", "optimized"}));
  std::string row_order = "matched";
  app.add_option("--row-order", row_order,
                 "DAE form's rows: matched (default, as lsdae orders them) or declared (the manifest's order, as "
                 "lsdae --row-order declared)")
      ->check(CLI::IsMember({"matched", "declared"}));
  CLI11_PARSE(app, argc, argv);
  options.optimized_vectors = nvector == "optimized";
  const auto wall_start = std::chrono::steady_clock::now();
  if (atol > 0) options.atol = atol;

  try {
    const TlForm form = form_text == "ode" ? TlForm::ode : TlForm::dae;
    const TransmissionLine model(form, segments, {},
                                 row_order == "matched" ? lsdae::bench::TlRowOrder::matched
                                                        : lsdae::bench::TlRowOrder::declared);

    // Columns to record: the output variables and the reference's.
    std::vector<std::string> names;
    if (!output_vars.empty()) names = split(output_vars, ',');
    Reference ref;
    if (!reference_path.empty()) ref = read_reference(reference_path);
    if (names.empty()) {
      if (!ref.columns.empty()) {
        names = ref.columns;
      } else {
        const std::string n = std::to_string(segments), half = std::to_string(std::max(1L, segments / 2));
        names = {"filter.y", "C[1].v", "C[" + half + "].v", "C[" + n + "].v", "L[1].i", "L[" + n + "].i"};
      }
    }
    std::vector<std::string> recorded = names;
    for (const auto& c : ref.columns)
      if (std::find(recorded.begin(), recorded.end(), c) == recorded.end()) recorded.push_back(c);
    std::vector<std::size_t> index;
    for (const auto& name : recorded) index.push_back(model.index_of(name));

    std::vector<double> times;
    std::vector<double> values;  // row-major, recorded.size() per row
    values.reserve(index.size() * 4096);
    auto on_output = [&](double t, std::span<const double> y) {
      times.push_back(t);
      for (std::size_t i : index) values.push_back(y[i]);
    };
    const NativeStats s = lsdae::bench::simulate_native(model, options, on_output);

    if (!output.empty()) {
      std::ofstream out(output);
      if (!out) throw std::runtime_error(output + ": cannot write");
      out << "time";
      for (const auto& name : names) out << ',' << name;
      out << '\n';
      char cell[40];
      for (std::size_t r = 0; r < times.size(); ++r) {
        std::snprintf(cell, sizeof cell, "%.17g", times[r]);
        out << cell;
        for (std::size_t c = 0; c < names.size(); ++c) {
          std::snprintf(cell, sizeof cell, "%.17g", values[r * recorded.size() + c]);
          out << ',' << cell;
        }
        out << '\n';
      }
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

    // Reference: per column, the largest |ours - reference| over the rows of
    // equal time, divided by the column's peak |reference|.
    double worst = 0.0, worst_time = 0.0;
    std::string worst_column;
    long compared_rows = 0;
    if (!ref.columns.empty()) {
      std::vector<double> peak(ref.columns.size(), 0.0), err(ref.columns.size(), 0.0), err_time(ref.columns.size());
      std::size_t r = 0;
      for (std::size_t q = 0; q < ref.times.size(); ++q) {
        for (std::size_t c = 0; c < ref.columns.size(); ++c) peak[c] = std::max(peak[c], std::fabs(ref.rows[q][c]));
        const double tol = 1e-6 * options.interval;
        while (r < times.size() && times[r] < ref.times[q] - tol) ++r;
        if (r == times.size() || std::fabs(times[r] - ref.times[q]) > tol) continue;
        ++compared_rows;
        for (std::size_t c = 0; c < ref.columns.size(); ++c) {
          const std::size_t at =
              static_cast<std::size_t>(std::find(recorded.begin(), recorded.end(), ref.columns[c]) - recorded.begin());
          const double e = std::fabs(values[r * recorded.size() + at] - ref.rows[q][c]);
          if (e > err[c]) {
            err[c] = e;
            err_time[c] = ref.times[q];
          }
        }
      }
      for (std::size_t c = 0; c < ref.columns.size(); ++c) {
        const double scaled = err[c] / std::max(peak[c], 1e-300);
        if (scaled >= worst) {
          worst = scaled;
          worst_column = ref.columns[c];
          worst_time = err_time[c];
        }
      }
      if (compared_rows == 0) throw std::runtime_error(reference_path + ": no row at an output time of this run");
    }
    const bool reference_ok = ref.columns.empty() || worst <= reference_tolerance;

    struct rusage usage {};
    getrusage(RUSAGE_SELF, &usage);
    if (!stats_path.empty()) {
      std::ofstream js(stats_path);
      js << "{\n  \"solver\": \"native IDA + KLU, analytic Jacobian\",\n  \"nvector\": \"" << nvector << "\",\n"
         << "  \"form\": \"" << form_text << "\",\n  \"N\": " << segments << ",\n"
         << "  \"start_time\": " << json_number(options.t_start) << ",\n"
         << "  \"stop_time\": " << json_number(options.t_stop) << ",\n"
         << "  \"reached_time\": " << json_number(s.reached_time) << ",\n"
         << "  \"rows_written\": " << times.size() << ",\n"
         << "  \"wall_time_s\": " << json_number(wall) << ",\n"
         << "  \"peak_rss_kb\": " << usage.ru_maxrss << ",\n"
         << "  \"model\": {\"unknowns\": " << s.unknowns << ", \"differential\": " << model.differential()
         << ", \"algebraic\": " << s.unknowns - model.differential() << "},\n"
         << "  \"jacobian\": {\"method\": \"analytic\", \"nonzeros\": " << s.nonzeros << "},\n"
         << "  \"counters\": {\"steps\": " << s.steps << ", \"residual_calls\": " << s.residual_calls
         << ", \"jacobian_evaluations\": " << s.jacobian_evaluations
         << ", \"nonlinear_iterations\": " << s.nonlinear_iterations
         << ", \"nonlinear_convergence_failures\": " << s.nonlinear_convergence_failures
         << ", \"error_test_failures\": " << s.error_test_failures
         << ", \"linear_solver_setups\": " << s.linear_solver_setups << "},\n"
         << "  \"klu\": {\"ordering\": \"amd\", \"lnz\": " << s.klu_lnz << ", \"unz\": " << s.klu_unz << "},\n"
         << "  \"time_s\": {\"setup\": " << json_number(s.time_setup)
         << ", \"initialize\": " << json_number(s.time_initialize)
         << ", \"integrate\": " << json_number(s.time_integrate) << "}";
      if (!ref.columns.empty())
        js << ",\n  \"reference\": {\"file\": \"" << reference_path << "\", \"rows\": " << compared_rows
           << ", \"max_scaled_error\": " << json_number(worst) << ", \"column\": \"" << worst_column
           << "\", \"time\": " << json_number(worst_time) << ", \"tolerance\": " << json_number(reference_tolerance)
           << ", \"passed\": " << (reference_ok ? "true" : "false") << "}";
      js << "\n}\n";
    }
    std::printf("tl_native: %s form, N = %ld, %zu unknowns: %ld steps, %ld residual calls, %ld Jacobians "
                "(%zu nonzeros), KLU L+U %ld nonzeros; integration %.6g s, wall %.6g s\n",
                form_text.c_str(), segments, s.unknowns, s.steps, s.residual_calls, s.jacobian_evaluations,
                s.nonzeros, s.klu_lnz + s.klu_unz, s.time_integrate, wall);
    if (!ref.columns.empty())
      std::printf("tl_native: %s: largest scaled difference %.3g (column %s, t = %.6g) over %ld rows: %s\n",
                  reference_path.c_str(), worst, worst_column.c_str(), worst_time, compared_rows,
                  reference_ok ? "within tolerance" : "OUTSIDE the tolerance");
    return reference_ok ? 0 : 1;
  } catch (const std::invalid_argument& e) {
    std::cerr << "tl_native: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tl_native: " << e.what() << '\n';
    return 7;
  }
}
