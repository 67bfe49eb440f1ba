// bench/sweep/sweep_benchmark.cpp -- the per-scenario cost of a sweep:
// a fresh model per scenario (what one `lsdae simulate` per scenario does:
// open, unpack, parse, analyse, instantiate) against scenario after scenario
// on one opened model (lsdae::sweep::ScenarioRunner: Simulation::reset, KLU's
// analysis carried over), on one rank or under mpirun
// (lsdae::sweep::run_schedule), with or without early termination. Not a
// test: it measures. docs/performance/sweeps.md has the results and the
// commands.
//
//   sweep_benchmark <model.fmu> <file.scenarios> [fresh|reuse] [stop time] [count] [options]
//   mpirun -np 2 sweep_benchmark ...
// options, as `lsdae sweep` takes them (each scenario runs through
// lsdae::sweep::run_scenario, the engine of `lsdae sweep`):
//   --metric STAT:SELECTOR   (repeatable)     --stop-when 'SELECTOR OP NUMBER' (repeatable)
//   --settle TOL,DURATION[,FROM]              --rtol R    --output-interval H
// file.scenarios: one scenario per line, an id then name=value settings
// (bench/sweep/contingency_scenarios.py writes N-1 outages this way).
// Prints one row per scenario (id, rank, steps, reached time, CPU seconds to
// make or reset the model, to initialize, to integrate, in all; wall seconds;
// status and message; the metrics) and the totals. CPU time of the thread
// that ran the scenario is the measure on a loaded machine; wall time says
// what a user waits on an idle one.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "lsdae/sweep.h"
#include "sweep/mpi_scheduler.h"
#include "sweep/scenario_runner.h"
#include "../thread_cpu.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// CPU seconds of the calling thread: the work of a scenario, whatever else
// the machine runs (rank 0 runs its scenarios in a thread of their own).
double thread_cpu() { return lsdae::bench::thread_cpu_seconds(); }

struct Scenario {
  std::string id;
  std::vector<std::pair<std::string, std::string>> sets;
};

std::vector<Scenario> read_scenarios(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw lsdae::Error(lsdae::ErrorKind::usage, path + ": cannot be read → give a .scenarios file");
  std::vector<Scenario> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Scenario s;
    if (!(words >> s.id)) continue;
    std::string w;
    while (words >> w) {
      const auto eq = w.find('=');
      if (eq == std::string::npos)
        throw lsdae::Error(lsdae::ErrorKind::usage, path + ": \"" + w + "\" is not name=value → fix the line");
      s.sets.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    }
    out.push_back(std::move(s));
  }
  return out;
}

// CPU times of one scenario, noted by its observer (which run_scenario
// destroys before it returns): when the model is ready (started) and when
// it is initialized (the first sampled point).
struct Times {
  double start = 0, ready = -1, initialized = -1;
  double setup(double end) const { return (ready < 0 ? end : ready) - start; }
  double initialize(double end) const { return ready < 0 ? 0 : (initialized < 0 ? end : initialized) - ready; }
  double integrate(double end) const { return initialized < 0 ? 0 : end - initialized; }
};

class Timing final : public lsdae::sweep::ScenarioObserver {
 public:
  explicit Timing(Times& times) : times_(times) {}
  void started(lsdae::Simulation&) override { times_.ready = thread_cpu(); }
  void sampled(lsdae::Simulation&, int) override {
    if (times_.initialized < 0) times_.initialized = thread_cpu();
  }

 private:
  Times& times_;
};

std::string text_of(const std::optional<double>& v) {
  if (!v) return "-";
  char b[40];
  std::snprintf(b, sizeof b, "%.6g", *v);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  lsdae::sweep::SweepOptions sweep;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    const bool has_value = a + 1 < argc;
    if (arg == "--metric" && has_value) sweep.metrics.push_back(argv[++a]);
    else if (arg == "--stop-when" && has_value) sweep.stop_when.push_back(argv[++a]);
    else if (arg == "--settle" && has_value) {
      lsdae::sweep::Settle settle;
      double from = 0;
      const int got = std::sscanf(argv[++a], "%lf,%lf,%lf", &settle.tol, &settle.duration, &from);
      if (got < 2) {
        std::cerr << "sweep_benchmark: --settle TOL,DURATION[,FROM]\n";
        return 2;
      }
      if (got == 3) settle.from = from;
      sweep.settle = settle;
    } else if (arg == "--rtol" && has_value) sweep.simulation.rtol = std::atof(argv[++a]);
    else if (arg == "--output-interval" && has_value) sweep.simulation.output_interval = std::atof(argv[++a]);
    else if (arg.rfind("--", 0) == 0) {
      std::cerr << "sweep_benchmark: unknown option " << arg << "\n";
      return 2;
    } else positional.push_back(arg);
  }
  if (positional.size() < 2) {
    std::cerr << "usage: sweep_benchmark <model.fmu> <file.scenarios> [fresh|reuse] [stop time] [count] [--metric M] "
                 "[--stop-when C] [--settle TOL,DURATION[,FROM]] [--rtol R] [--output-interval H]\n";
    return 2;
  }
  lsdae::sweep::MpiSession session;
  try {
    const std::string fmu_path = positional[0];
    auto scenarios = read_scenarios(positional[1]);
    const bool reuse = positional.size() <= 2 || positional[2] != "fresh";
    if (positional.size() > 3) sweep.simulation.stop_time = std::atof(positional[3].c_str());
    if (positional.size() > 4 && static_cast<std::size_t>(std::atoi(positional[4].c_str())) < scenarios.size())
      scenarios.resize(static_cast<std::size_t>(std::atoi(positional[4].c_str())));
    lsdae::Logger::instance().set_threshold(lsdae::LogLevel::error);

    const auto started = Clock::now();
    std::shared_ptr<const lsdae::sweep::SweepPlan> plan;
    std::unique_ptr<lsdae::sweep::ScenarioRunner> runner;
    double open_seconds = 0;
    auto run_task = [&](std::size_t k) {
      const Scenario& s = scenarios[k];
      lsdae::sweep::TaskOutcome out;
      const auto t0 = Clock::now();
      Times times;
      times.start = thread_cpu();
      const double c0 = times.start;
      const lsdae::sweep::ObserverFactory observe = [&times](const lsdae::sweep::Scenario&) {
        return std::make_unique<Timing>(times);
      };
      const lsdae::sweep::Scenario scenario{s.id, s.sets};
      lsdae::sweep::SummaryRow row;
      if (reuse) {
        if (!runner) {
          const auto o0 = Clock::now();
          plan = lsdae::sweep::SweepPlan::compile(lsdae::Fmu::open(fmu_path), sweep);
          open_seconds = since(o0);
          runner = std::make_unique<lsdae::sweep::ScenarioRunner>(*plan);
        }
        row = lsdae::sweep::run_scenario(*plan, scenario, *runner, observe);
      } else {
        // What one `lsdae simulate` per scenario does: the FMU opened anew.
        auto fresh = lsdae::sweep::SweepPlan::compile(lsdae::Fmu::open(fmu_path), sweep);
        row = lsdae::sweep::run_scenario(*fresh, scenario, observe);
      }
      out.failed = row.status == lsdae::sweep::Status::failed;
      std::string status = lsdae::sweep::to_string(row.status);
      if (!row.message.empty()) status += ": " + row.message;
      for (char& c : status)
        if (c == '\n') c = ' ';
      std::string metrics;
      for (const auto& m : row.metrics) metrics += " " + text_of(m);
      char line[512];
      const double end = thread_cpu();
      std::snprintf(line, sizeof line, "%s %ld %s %.4f %.4f %.4f %.4f %.4f", s.id.c_str(), row.steps,
                    text_of(row.reached_time).c_str(), times.setup(end), times.initialize(end),
                    times.integrate(end), end - c0, since(t0));
      out.row = std::string(line) + metrics + " | " + status;
      return out;
    };
    double sum_wall = 0, sum_cpu = 0, sum_setup = 0, sum_init = 0, sum_integrate = 0, sum_reached = 0;
    std::size_t rows = 0, stopped = 0;
    if (session.coordinator()) {
      std::printf("# %s, %zu scenarios, %s, %d rank(s), stop %s, rtol %s", fmu_path.c_str(), scenarios.size(),
                  reuse ? "reuse" : "fresh", session.size(), text_of(sweep.simulation.stop_time).c_str(),
                  sweep.simulation.rtol ? text_of(sweep.simulation.rtol).c_str() : "default");
      for (const auto& m : sweep.metrics) std::printf(", --metric '%s'", m.c_str());
      for (const auto& c : sweep.stop_when) std::printf(", --stop-when '%s'", c.c_str());
      if (sweep.settle)
        std::printf(", --settle %g,%g%s", sweep.settle->tol, sweep.settle->duration,
                    sweep.settle->from ? ("," + std::to_string(*sweep.settle->from)).c_str() : "");
      std::printf("\n# id rank steps reached_time setup_cpu_s initialize_cpu_s integrate_cpu_s cpu_s wall_s "
                  "metrics... | status\n");
    }
    auto on_row = [&](std::size_t, int rank, const lsdae::sweep::TaskOutcome& o) {
      std::istringstream f(o.row);
      std::string id, reached;
      long steps;
      double setup, init, integrate, cpu, wall;
      f >> id >> steps >> reached >> setup >> init >> integrate >> cpu >> wall;
      sum_wall += wall;
      sum_cpu += cpu;
      sum_setup += setup;
      sum_init += init;
      sum_integrate += integrate;
      if (reached != "-") sum_reached += std::atof(reached.c_str());
      if (o.row.find("| stopped-early") != std::string::npos) ++stopped;
      ++rows;
      std::printf("%s %d%s\n", id.c_str(), rank, o.row.substr(id.size()).c_str());
      std::fflush(stdout);
    };
    const auto summary = lsdae::sweep::run_schedule(session, scenarios.size(), run_task, on_row);
    if (session.coordinator()) {
      const double total = since(started);
      const double n = static_cast<double>(rows);
      std::printf("# %zu scenarios (%zu failed, %zu stopped early; mean reached time %.3f s) on %d rank(s) in %.2f s "
                  "of wall time (%.3f s per scenario); per scenario of CPU time: %.3f s (set-up %.3f, initialize "
                  "%.3f, integrate %.3f), of wall time in the scenario %.3f s; rank 0 opened the FMU in %.3f s of "
                  "wall time\n",
                  rows, summary.failed, stopped, sum_reached / n, session.size(), total, total / n, sum_cpu / n,
                  sum_setup / n, sum_init / n, sum_integrate / n, sum_wall / n, open_seconds);
      std::printf("# scenarios per rank:");
      for (std::size_t r : summary.tasks_per_rank) std::printf(" %zu", r);
      std::printf("\n");
    }
  } catch (const lsdae::Error& e) {
    std::cerr << "sweep_benchmark: " << e.what() << '\n';
    return lsdae::exit_code(e.kind());
  }
  return 0;
}
