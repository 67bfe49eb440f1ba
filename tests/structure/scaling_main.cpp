// tests/structure/scaling_main.cpp -- `structure_scaling`: time and peak
// memory of the structural pass on large synthetic inputs, for the figures in
// docs/algorithms.md. Not a test (nothing is asserted); run one size per
// process so the peak RSS belongs to that size:
//
//   structure_scaling chain 500000        # 10^6 residuals, index 1
//   structure_scaling tl 1280             # TransmissionLine DAE form
//   structure_scaling masses 1000         # N masses in a row, N-1 velocity constraints (index 2)
//
// Phases: build (DaeInput → DaeSystem), analyze (matching, Pantelides, BLT,
// index, dummy plan), select (dummy derivatives, numeric), reduce (index-1
// system + iteration pattern), colour (smallest-last), report (text).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "structure/analysis.h"
#include "structure/coloring.h"
#include "structure/iteration_pattern.h"
#include "structure/report.h"
#include "test_models.h"

using namespace lsdae::structure;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// Resident set now, MiB (Linux /proc/self/statm, in pages).
double rss_mib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * 4096.0 / (1024.0 * 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: structure_scaling chain|tl|masses <size>\n");
    return 2;
  }
  const std::string model = argv[1];
  const std::size_t size = std::strtoull(argv[2], nullptr, 10);
  const DaeInput input = model == "chain" ? test::chain(size)
                         : model == "tl" ? test::transmission_line(size)
                                         : test::mass_chain(size);
  const double rss_input = rss_mib();
  auto t0 = std::chrono::steady_clock::now();
  DaeSystem system = build_system(input);
  const double rss_system = rss_mib();
  const double t_build = seconds_since(t0);
  const std::size_t nnz = system.formulations.nnz(), rows = system.groups();

  t0 = std::chrono::steady_clock::now();
  const StructuralAnalysis a = analyze_structure(std::move(system));
  const double t_analyze = seconds_since(t0);
  const double rss_analysis = rss_mib();
  if (!a.ok()) {
    std::fprintf(stderr, "%s\n", a.error.c_str());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  const JacobianCallback ones = [](std::span<const JacobianEntry> entries, std::span<double> v) {
    for (std::size_t k = 0; k < entries.size(); ++k)
      v[k] = entries[k].column.block == Block::state && entries[k].column.index % 2 == 1 ? -1.0 : 1.0;
  };
  const DummySelection sel = select_dummy_derivatives(a.system, a.dummy_plan, ones);
  const double t_select = seconds_since(t0);
  if (!sel.success) {
    std::fprintf(stderr, "%s\n", sel.error.c_str());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  const Index1System i1 = make_dummy_derivative_system(a.system, a.pantelides, a.dummy_plan, sel);
  const Pattern j = iteration_pattern(a.system, i1);
  const double t_reduce = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  const Coloring c = color_columns(j);
  const double t_color = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  const ColoringSummary cs = summarize_coloring(j, c);
  const std::string text = make_report(a, &i1, &sel, &cs).to_text();
  const double t_report = seconds_since(t0);

  std::printf("%s %zu: rows %zu nnz %zu index %zu dummies %zu colours %zu | build %.3f analyze %.3f select %.3f "
              "reduce %.3f colour %.3f report %.3f s | RSS input %.0f, +system %.0f, +analysis %.0f, peak %.0f MiB\n",
              model.c_str(), size, rows, nnz, a.structural_index, sel.dummy_states.size(), c.colors, t_build,
              t_analyze, t_select, t_reduce, t_color, t_report, rss_input, rss_system - rss_input,
              rss_analysis - rss_system, static_cast<double>(peak_rss_kib()) / 1024.0);
  return text.empty() ? 1 : 0;
}
