// models/powergrid/make_grid_data.cpp -- lsdae_grid_data, the build-time
// generator of the PowerGrid FMUs' network data:
//
//   lsdae_grid_data --case <case.m> --out <file.grid> [--frequency <Hz>]
//                   [--flat-reference <file.csv>]
//
// Reads the MATPOWER case, solves the AC power flow (flat start; from the
// stored voltages if that fails), compares the solution with the voltages
// stored in the case, initializes the classical machines and writes the
// grid data file (grid_data.h). With --flat-reference it also writes the
// undisturbed solution at t = 0, 0.25, 0.5 s (states, derivatives = 0,
// bus voltages) as a reference CSV for the corpus tests. Statistics go to
// standard output in a fixed format; errors to standard error, exit code 1.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>

#include "powergrid/grid_builder.h"
#include "powergrid/power_flow.h"

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
  if (case_path.empty() || out_path.empty() || !(frequency > 0)) {
    std::fprintf(stderr, "lsdae_grid_data: --case and --out are required and --frequency must be positive\n");
    return 2;
  }
  try {
    const Case c = read_matpower_case(case_path);
    PowerFlowOptions options;
    PowerFlowResult flow = solve_power_flow(c, options);
    std::printf("%s (flat start)\n", summary(c, flow).c_str());
    if (!flow.converged) {
      options.flat_start = false;
      flow = solve_power_flow(c, options);
      std::printf("%s (from the stored voltages)\n", summary(c, flow).c_str());
    }
    if (flow.singular)
      throw std::runtime_error(case_path + ": the power flow's Jacobian is singular (after " +
                               std::to_string(flow.iterations) + " iterations from the stored voltages) → check that "
                               "every bus is tied by in-service branches to the slack bus of its island and that no "
                               "branch has zero impedance");
    if (!flow.converged)
      throw std::runtime_error(case_path + ": the power flow does not converge (largest mismatch " +
                               std::to_string(flow.mismatch) + " p.u.) → check the case data");
    double dvm = 0, dva = 0;
    for (std::size_t i = 0; i < c.buses.size(); ++i) {
      dvm = std::max(dvm, std::abs(std::abs(flow.voltage[i]) - c.buses[i].vm));
      double diff = std::arg(flow.voltage[i]) * 180.0 / std::numbers::pi - c.buses[i].va;
      diff = std::remainder(diff, 360.0);
      dva = std::max(dva, std::abs(diff));
    }
    std::printf("%s: largest difference to the stored solution: |V| %.3e p.u., angle %.3e deg\n", c.name.c_str(),
                dvm, dva);
    const GridData d = build_grid_data(c, flow, frequency);
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
