// bench/sweep/sweep_benchmark.cpp -- the per-scenario cost of a sweep:
// a fresh model per scenario (what one `lsdae simulate` per scenario does:
// open, unpack, parse, analyse, instantiate) against scenario after scenario
// on one opened model (lsdae::sweep::ScenarioRunner: Simulation::reset), on
// one rank or under mpirun (lsdae::sweep::run_schedule). Not a test: it
// measures. docs/performance.md ("Sweeps") has the results and the commands.
//
//   sweep_benchmark <model.fmu> <file.scenarios> [fresh|reuse] [stop time] [count]
//   mpirun -np 2 sweep_benchmark ...
// file.scenarios: one scenario per line, an id then name=value settings
// (bench/sweep/contingency_scenarios.py writes N-1 outages this way).
// Prints one row per scenario (rank, steps, CPU seconds to make or reset the
// model, to initialize, to integrate, in all; wall seconds; status) and the
// totals. CPU time of the thread that ran the scenario is the measure on a
// loaded machine; wall time says what a user waits on an idle one.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "sweep/mpi_scheduler.h"
#include "sweep/scenario_runner.h"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// CPU seconds of the calling thread: the work of a scenario, whatever else
// the machine runs (rank 0 runs its scenarios in a thread of their own).
double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

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

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: sweep_benchmark <model.fmu> <file.scenarios> [fresh|reuse] [stop time] [count]\n";
    return 2;
  }
  lsdae::sweep::MpiSession session;
  try {
    const std::string fmu_path = argv[1];
    auto scenarios = read_scenarios(argv[2]);
    const bool reuse = argc <= 3 || std::string(argv[3]) != "fresh";
    lsdae::SimulationOptions options;
    if (argc > 4) options.stop_time = std::atof(argv[4]);
    if (argc > 5 && static_cast<std::size_t>(std::atoi(argv[5])) < scenarios.size())
      scenarios.resize(static_cast<std::size_t>(std::atoi(argv[5])));
    lsdae::Logger::instance().set_threshold(lsdae::LogLevel::error);

    const auto started = Clock::now();
    std::shared_ptr<lsdae::Fmu> fmu;
    std::unique_ptr<lsdae::sweep::ScenarioRunner> runner;
    double open_seconds = 0;
    auto run_task = [&](std::size_t k) {
      const Scenario& s = scenarios[k];
      lsdae::sweep::TaskOutcome out;
      const auto t0 = Clock::now();
      const double c0 = thread_cpu();
      double setup = 0, init = 0, integrate = 0;
      long steps = 0;
      std::string status = "ok";
      try {
        lsdae::Simulation* sim = nullptr;
        std::unique_ptr<lsdae::Simulation> own;
        if (reuse) {
          if (!runner) {
            const auto o0 = Clock::now();
            fmu = lsdae::Fmu::open(fmu_path);
            open_seconds = since(o0);
            runner = std::make_unique<lsdae::sweep::ScenarioRunner>(fmu, options);
          }
          sim = &runner->next(s.sets);
        } else {
          own = lsdae::Simulation::create(lsdae::Fmu::open(fmu_path), options);
          for (const auto& [name, value] : s.sets) own->set(name, value);
          sim = own.get();
        }
        setup = thread_cpu() - c0;
        const double c1 = thread_cpu();
        sim->initialize();
        init = thread_cpu() - c1;
        const double c2 = thread_cpu();
        sim->advance_to(sim->stop_time());
        integrate = thread_cpu() - c2;
        steps = sim->statistics().steps;
      } catch (const lsdae::Error& e) {
        status = std::string("failed: ") + e.what();
        out.failed = true;
      }
      char row[512];
      std::snprintf(row, sizeof row, "%s %ld %.4f %.4f %.4f %.4f %.4f", s.id.c_str(), steps, setup, init, integrate,
                    thread_cpu() - c0, since(t0));
      out.row = std::string(row) + " " + status;
      return out;
    };
    double sum_wall = 0, sum_cpu = 0, sum_setup = 0, sum_init = 0, sum_integrate = 0;
    std::size_t rows = 0;
    if (session.coordinator())
      std::printf("# %s, %zu scenarios, %s, %d rank(s)\n# id rank steps setup_cpu_s initialize_cpu_s integrate_cpu_s cpu_s wall_s status\n",
                  fmu_path.c_str(), scenarios.size(), reuse ? "reuse" : "fresh", session.size());
    auto on_row = [&](std::size_t, int rank, const lsdae::sweep::TaskOutcome& o) {
      std::istringstream f(o.row);
      std::string id;
      long steps;
      double setup, init, integrate, cpu, wall;
      f >> id >> steps >> setup >> init >> integrate >> cpu >> wall;
      sum_wall += wall;
      sum_cpu += cpu;
      sum_setup += setup;
      sum_init += init;
      sum_integrate += integrate;
      ++rows;
      std::printf("%s %d%s\n", id.c_str(), rank, o.row.substr(id.size()).c_str());
      std::fflush(stdout);
    };
    const auto summary = lsdae::sweep::run_schedule(session, scenarios.size(), run_task, on_row);
    if (session.coordinator()) {
      const double total = since(started);
      const double n = static_cast<double>(rows);
      std::printf("# %zu scenarios (%zu failed) on %d rank(s) in %.2f s of wall time (%.3f s per scenario); per "
                  "scenario of CPU time: %.3f s (set-up %.3f, initialize %.3f, integrate %.3f), of wall time in "
                  "the scenario %.3f s; rank 0 opened the FMU in %.3f s of wall time\n",
                  rows, summary.failed, session.size(), total, total / n, sum_cpu / n, sum_setup / n, sum_init / n,
                  sum_integrate / n, sum_wall / n, open_seconds);
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
