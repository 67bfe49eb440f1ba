// bench/psse_eval_benchmark.cpp -- what one evaluation of a PSS/E grid FMU
// costs through the FMI API, for one build or two builds side by side
// (issue 31, "Speed"; docs/performance/psse-activsg2000-evaluation.md).
//
//   lsdae_bench_psse_eval [--rounds R] [--n N] [--evict MB] FOLDER [FOLDER2]
//
// FOLDER is an unpacked FMU made by lsdae-grid (e.g. ACTIVSg2000 with every
// model of its .dyr); FOLDER2 the same FMU with another build's binary in
// binaries/ (the instantiation token must match: the same case, the same
// modelDescription.xml). Each folder is opened as lsdae::Simulation opens an
// FMU (the DAE from the manifest, the structural pipeline, one instance in
// DAE mode at its initialized point, one ModelResidual), then the rounds
// interleave the builds so that both see the same machine load:
//   residual   one G(t, y, y') at a new point (t moved by 1e-12: the FMU
//              recomputes), N times;
//   indicators the point set as for a residual, then fmi3GetEventIndicators
//              (what IDA's root function asks: the kit's indicator-only
//              evaluation where the model provides one), N times;
//   +partials  the same followed by one fmi3GetDirectionalDerivative of one
//              column: the FMU's partial derivatives and their tables
//              (kit ensure_partials) plus one product, N times;
//   jacobian   one compressed Jacobian by directional derivatives at a new
//              point (kernels/compressed_jacobian.h, the full colouring of
//              the structural pipeline): compute, partials and one call per
//              colour, N / 10 times (at least 1).
// Reported: the median and the least over rounds of the CPU time per
// operation (this thread's CPU clock; another process's load still slows
// memory-bound code through the shared caches, least of all in the least
// disturbed round), and whether the builds' residuals, indicators and Jacobians agree
// bit for bit (they must when a change is meant to leave every result
// unchanged).
//
// Not a ctest: a large FMU, seconds to minutes. Cost: the structural
// pipeline once per folder (seconds for 12 000 unknowns), then
// R * (3N + N/10 Jacobians) evaluations per build.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "lsdae/fmu.h"
#include "lsdae/instance.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "structure/pipeline.h"
#include "median.h"
#include "thread_cpu.h"

namespace {

using namespace lsdae;

using bench::median;
using bench::thread_cpu_seconds;

struct PsseEvalProblem {
  std::string folder;
  std::shared_ptr<Fmu> fmu;
  simulation::ModelDae dae;
  structure::StructureOutcome structure;
  std::unique_ptr<Instance> instance;
  std::unique_ptr<simulation::ModelResidual> residual;
  std::unique_ptr<kernels::CompressedJacobian> jacobian;
  std::vector<double> y, yp, r, jac_values, one_column, g;
  double t = 0.0;
  double instantiate_s = 0.0, initialize_s = 0.0;  // fmi3InstantiateModelExchange; Initialization Mode to Continuous-Time Mode
  std::vector<double> res_times, indicator_times, partial_times, jac_times;
};

std::unique_ptr<PsseEvalProblem> open_problem(const std::string& folder) {
  auto p = std::make_unique<PsseEvalProblem>();
  p->folder = folder;
  p->fmu = Fmu::open(folder);
  p->dae = simulation::build_model_dae(*p->fmu);
  structure::PipelineOptions options;
  options.best_ordering = true;  // as Simulation::create
  p->structure = structure::run_structure(p->dae.input, nullptr, options);
  if (!p->structure.index1) throw std::runtime_error(folder + ": structure failed: " + p->structure.analysis.error);
  p->fmu->load_binary();
  double start = thread_cpu_seconds();
  p->instance = p->fmu->instantiate("bench");
  p->instantiate_s = thread_cpu_seconds() - start;
  if (p->fmu->manifest().present()) p->instance->enable_dae_mode();
  start = thread_cpu_seconds();
  p->instance->enter_initialization_mode(1e-6, 0.0, 10.0);
  p->instance->exit_initialization_mode();
  p->instance->update_discrete_states();
  p->instance->enter_continuous_time_mode();
  p->initialize_s = thread_cpu_seconds() - start;
  p->residual = std::make_unique<simulation::ModelResidual>(*p->instance, p->dae, p->structure.analysis.system,
                                                            *p->structure.index1);
  simulation::DaePoint point = simulation::empty_point(p->dae, 0.0);
  simulation::read_point(*p->instance, p->dae, simulation::PointRead::everything, point);
  const auto& unknowns = p->structure.index1->unknowns;
  p->y.resize(unknowns.size());
  p->yp.assign(unknowns.size(), 0.0);
  for (std::size_t k = 0; k < unknowns.size(); ++k) {
    const structure::IdaUnknown& u = unknowns[k];
    if (u.kind == structure::UnknownKind::differential) {
      p->y[k] = point.x[u.index];
      p->yp[k] = point.xdot[u.index];
    } else if (u.kind == structure::UnknownKind::algebraic) {
      p->y[k] = point.z[u.index];
    } else {
      throw std::runtime_error(folder + ": dummy states: not a PSS/E grid FMU of lsdae-grid");
    }
  }
  p->r.resize(unknowns.size());
  p->g.resize(p->instance->number_of_event_indicators());
  p->one_column.resize(unknowns.size());
  p->jacobian = std::make_unique<kernels::CompressedJacobian>(p->structure.iteration, *p->structure.coloring, 1);
  p->jac_values.resize(p->structure.iteration.nnz());
  return p;
}

void check(kernels::EvalStatus s, const char* what) {
  if (s != kernels::EvalStatus::ok) throw std::runtime_error(std::string(what) + " failed");
}

// --evict MB: a buffer written through before each timed operation (outside
// its timing), so that the FMU's data are no longer in the caches, as in a
// simulation, where the Jacobian, KLU's factors and IDA's vectors pass
// through the caches between two evaluations. Empty: no eviction.
std::vector<unsigned char> evict_buffer;

void evict() {
  for (std::size_t i = 0; i < evict_buffer.size(); i += 64) evict_buffer[i] = static_cast<unsigned char>(evict_buffer[i] + 1);
}

void run_round(PsseEvalProblem& p, int n) {
  kernels::ResidualFunction& f = *p.residual;
  double spent = 0.0;
  for (int i = 0; i < n; ++i) {
    p.t += 1e-12;
    evict();
    const double start = thread_cpu_seconds();
    check(f.residual(p.t, p.y, p.yp, p.r), "residual");
    spent += thread_cpu_seconds() - start;
  }
  p.res_times.push_back(spent / n);
  // The indicators at a new point, after one residual at this round's
  // epoch (as in a simulation: the root function follows residuals).
  spent = 0.0;
  for (int i = 0; i < n; ++i) {
    p.t += 1e-12;
    evict();
    const double start = thread_cpu_seconds();
    check(p.residual->apply(p.t, p.y, p.yp), "set point");
    if (p.instance->get_event_indicators(p.g) != CallStatus::ok) throw std::runtime_error("event indicators failed");
    spent += thread_cpu_seconds() - start;
  }
  p.indicator_times.push_back(spent / n);
  const std::size_t column = 0;
  spent = 0.0;
  for (int i = 0; i < n; ++i) {
    p.t += 1e-12;
    evict();
    const double start = thread_cpu_seconds();
    check(f.residual(p.t, p.y, p.yp, p.r), "residual");
    check(f.jacobian_columns(p.t, p.y, p.yp, 1e3, std::span<const std::size_t>(&column, 1), p.one_column),
          "directional derivative");
    spent += thread_cpu_seconds() - start;
  }
  p.partial_times.push_back(spent / n);
  kernels::ResidualFunction* pool[] = {&f};
  const int jacobians = std::max(1, n / 10);
  spent = 0.0;
  for (int i = 0; i < jacobians; ++i) {
    p.t += 1e-12;
    evict();
    const double start = thread_cpu_seconds();
    const kernels::JacobianPoint point{p.t, p.y, p.yp, p.r, 1e3, 1e-3, {}, {}};
    check(p.jacobian->evaluate_directional(pool, point, p.jac_values), "Jacobian");
    spent += thread_cpu_seconds() - start;
  }
  p.jac_times.push_back(spent / jacobians);
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5, n = 20;
  std::vector<std::string> folders;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--rounds" || a == "--n") && i + 1 < argc) {
      (a == "--rounds" ? rounds : n) = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--evict" && i + 1 < argc) {
      evict_buffer.assign(static_cast<std::size_t>(std::max(0, std::atoi(argv[++i]))) << 20, 0);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "lsdae_bench_psse_eval: unknown option %s → usage: [--rounds R] [--n N] [--evict MB] FOLDER [FOLDER2]\n",
                   a.c_str());
      return 2;
    } else {
      folders.push_back(a);
    }
  }
  if (folders.empty() || folders.size() > 2) {
    std::fprintf(stderr, "lsdae_bench_psse_eval: give one or two unpacked FMU folders → [--rounds R] [--n N] [--evict MB] FOLDER [FOLDER2]\n");
    return 2;
  }
  try {
    std::vector<std::unique_ptr<PsseEvalProblem>> problems;
    for (const std::string& folder : folders) problems.push_back(open_problem(folder));
    for (int round = 0; round < rounds; ++round)
      for (auto& p : problems) run_round(*p, n);
    std::printf("%zu unknowns, %zu Jacobian entries, %zu colours; %d rounds of %d residuals, %d with partials, %d Jacobians\n",
                problems[0]->y.size(), problems[0]->jac_values.size(), problems[0]->jacobian->colors(), rounds, n, n,
                std::max(1, n / 10));
    std::printf("%-8s %-6s %12s %12s %12s %14s %16s %12s %12s\n", "build", "", "instantiate s", "initialize s",
                "residual ms", "indicators ms", "res+partials ms", "partials ms", "jacobian ms");
    for (std::size_t k = 0; k < problems.size(); ++k) {
      const PsseEvalProblem& p = *problems[k];
      // The median, and the least of the rounds (the one another process disturbed least).
      for (const bool least : {false, true}) {
        auto pick = [&](const std::vector<double>& v) { return least ? *std::min_element(v.begin(), v.end()) : median(v); };
        const double res = pick(p.res_times), ind = pick(p.indicator_times), part = pick(p.partial_times),
                     jac = pick(p.jac_times);
        std::printf("%-8s %-6s %12.3f %12.3f %12.3f %14.3f %16.3f %12.3f %12.3f   %s\n", k == 0 ? "FOLDER" : "FOLDER2",
                    least ? "least" : "median", p.instantiate_s, p.initialize_s, 1e3 * res, 1e3 * ind, 1e3 * part,
                    1e3 * (part - res), 1e3 * jac, p.folder.c_str());
      }
    }
    if (problems.size() == 2) {
      const bool same = same_bits(problems[0]->r, problems[1]->r) && same_bits(problems[0]->g, problems[1]->g) &&
                        same_bits(problems[0]->one_column, problems[1]->one_column) &&
                        same_bits(problems[0]->jac_values, problems[1]->jac_values);
      std::printf("residual, indicators, one column and Jacobian at the last point: %s\n",
                  same ? "bitwise identical" : "DIFFERENT");
      if (!same) return 1;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lsdae_bench_psse_eval: %s\n", e.what());
    return 1;
  }
  return 0;
}
