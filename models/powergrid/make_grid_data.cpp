// models/powergrid/make_grid_data.cpp -- lsdae_grid_data, the build-time
// generator of the PowerGrid FMUs' network data:
//
//   lsdae_grid_data --case <case.m> --out <file.grid> [--frequency <Hz>]
//                   [--flat-reference <file.csv>]
//
// Reads the MATPOWER case, solves the AC power flow (flat start; from the
// stored voltages if that fails), compares the solution with the voltages
// stored in the case, initializes the classical machines and writes the
// grid data file (grid_data.h); solve_and_build_grid_data (grid_builder.h)
// does all but the writing. With --flat-reference it also writes the
// undisturbed solution at t = 0, 0.25, 0.5 s (states, derivatives = 0,
// bus voltages) as a reference CSV for the corpus tests. Statistics go to
// standard output in a fixed format; errors to standard error, exit code 1
// (a refused case: CaseError naming the file, and its line where a row is
// the cause; a file that cannot be written); exit code 2 for a bad command line,
// also an output that is the case or both outputs one file (checked before
// anything is read or written).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/output_clash.h"
#include "powergrid/grid_builder.h"

using namespace lsdae::powergrid;

namespace {

void write_flat_reference(const GridData& d, const std::string& path) {
  std::string header = "time";
  std::string row;
  auto column = [&](const std::string& name, double value) {
    header += "," + name;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, ",%.17g", value);
    row += buffer;
  };
  for (const GridMachine& m : d.machines) {
    column(machine_name(m.case_row, "delta"), m.delta0);
    column(machine_name(m.case_row, "omega"), 1.0);
    column("der(" + machine_name(m.case_row, "delta") + ")", 0.0);
    column("der(" + machine_name(m.case_row, "omega") + ")", 0.0);
  }
  for (std::size_t i = 0; i < d.bus_number.size(); ++i) {
    column(bus_name(d.bus_number[i], "Vr"), d.voltage[i].real());
    column(bus_name(d.bus_number[i], "Vi"), d.voltage[i].imag());
  }
  std::ofstream out(path, std::ios::binary);
  out << header << '\n';
  for (const char* t : {"0", "0.25", "0.5"}) out << t << row << '\n';
  if (!out) throw std::runtime_error(path + ": cannot write the reference → check the folder");
}

}  // namespace

int main(int argc, char** argv) {
  std::string case_path, out_path, reference_path;
  double frequency = 60.0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--case" && has_value) case_path = argv[++i];
    else if (arg == "--out" && has_value) out_path = argv[++i];
    else if (arg == "--flat-reference" && has_value) reference_path = argv[++i];
    else if (arg == "--frequency" && has_value) frequency = std::atof(argv[++i]);
    else {
      std::fprintf(stderr,
                   "lsdae_grid_data: unexpected argument \"%s\" → usage: --case <case.m> --out <file.grid> "
                   "[--frequency <Hz>] [--flat-reference <file.csv>]\n",
                   arg.c_str());
      return 2;
    }
  }
  if (case_path.empty() || out_path.empty() || !(frequency > 0) || !std::isfinite(frequency)) {
    std::fprintf(stderr, "lsdae_grid_data: --case and --out are required and --frequency must be a positive number\n");
    return 2;
  }
  // An output named like the case (another spelling, a symlink, a hard link)
  // would replace it; --out and --flat-reference must differ
  // (runtime/common/output_clash.h, the rule every lsdae writer follows).
  const std::vector<lsdae::files::WritePath> outputs{{"--out", out_path, "--out CASE.grid"},
                                                     {"--flat-reference", reference_path, "--flat-reference flat.csv"}};
  std::string clash = lsdae::files::output_over_input(outputs, {{case_path, "the case being read"}});
  if (clash.empty() && lsdae::files::same_output(outputs))
    clash = "--out and --flat-reference both name \"" + reference_path + "\" → give each its own file";
  if (!clash.empty()) {
    std::fprintf(stderr, "lsdae_grid_data: %s\n", clash.c_str());
    return 2;
  }
  try {
    const Case c = read_matpower_case(case_path);
    const GridData d = solve_and_build_grid_data(
        c, frequency, [](const std::string& line) { std::printf("%s\n", line.c_str()); });
    write_grid_data(d, out_path);
    std::printf("%s: %zu buses, %zu machines, %zu in-service branches, %zu admittance nonzeros → %s\n",
                c.name.c_str(), d.bus_number.size(), d.machines.size(), d.branches.size(), d.y.nnz(),
                out_path.c_str());
    if (!reference_path.empty()) write_flat_reference(d, reference_path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lsdae_grid_data: %s\n", e.what());
    return 1;
  }
  return 0;
}
