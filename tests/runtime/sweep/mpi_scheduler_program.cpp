// tests/runtime/sweep/mpi_scheduler_program.cpp -- runs fake tasks through
// lsdae::sweep::run_schedule (runtime/sweep/mpi_scheduler.h) and checks, on
// rank 0, that every task ran exactly once. Started by ctest under mpirun
// with 3 ranks, with 1 rank, and without mpirun (tests/runtime/sweep/CMakeLists.txt).
//
//   mpi_scheduler_program <folder> check   23 tasks of uneven duration (task 7
//       throws, task 11 reports failed). Resume: the rows already in
//       <folder>/rows.txt are finished tasks; when there is no such file, one
//       with tasks 0, 5 and 6 is written first. Afterwards rows.txt must hold
//       every task exactly once, and the per-rank logs ran-<rank>.txt (what
//       run_task was called with) exactly the tasks not finished before.
//   mpi_scheduler_program <folder> die     the same tasks; rank 1 kills itself
//       (SIGKILL) in its third task: the job must end with an error, rows.txt
//       keeping complete rows only. A `check` run afterwards finishes the rest.
// Every rank's farewell reaches rank 0 and says its tasks ran in one thread
// (rank 0's tasks too: one thread for the whole schedule).
// Exit status 0 when the checks pass; 1 with the reason on stderr otherwise.
#include <mpi.h>
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "lsdae/error.h"
#include "sweep/mpi_scheduler.h"

namespace fs = std::filesystem;
using lsdae::sweep::TaskOutcome;

namespace {

constexpr std::size_t kTasks = 23;

int fail(const std::string& why) {
  std::cerr << "mpi_scheduler_program: FAILED: " << why << '\n';
  return 1;
}

// The task numbers of the complete lines of rows.txt ("<task> <rank> <status> <row>\n"); a last
// line without its newline (the job was killed while writing) is cut off, as a sweep's resume does.
std::multiset<std::size_t> read_rows(const fs::path& file) {
  std::multiset<std::size_t> tasks;
  if (!fs::exists(file)) return tasks;
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  const auto end = text.rfind('\n');
  const std::size_t keep = end == std::string::npos ? 0 : end + 1;
  if (keep != text.size()) fs::resize_file(file, keep);
  std::istringstream lines(text.substr(0, keep));
  std::string line;
  while (std::getline(lines, line))
    if (!line.empty()) tasks.insert(std::stoul(line.substr(0, line.find(' '))));
  return tasks;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return fail("usage: mpi_scheduler_program <folder> check|die");
  const fs::path folder = argv[1];
  const std::string mode = argv[2];
  lsdae::sweep::MpiSession session;
  const int rank = session.rank();
  const fs::path rows_file = folder / "rows.txt";

  std::set<std::size_t> done_before;
  if (session.coordinator()) {
    fs::create_directories(folder);
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().filename().string().starts_with("ran-")) fs::remove(entry.path());
    if (mode == "check" && !fs::exists(rows_file)) {
      std::ofstream(rows_file) << "0 0 ok earlier\n5 0 ok earlier\n6 0 ok earlier\n";
    }
    for (std::size_t t : read_rows(rows_file)) done_before.insert(t);
  }
  if (session.active()) MPI_Barrier(MPI_COMM_WORLD);  // the logs are cleared before any rank writes one

  std::ofstream ran(folder / ("ran-" + std::to_string(rank) + ".txt"));
  int tasks_here = 0;
  std::set<std::thread::id> threads_here;  // rank 0 runs its tasks in one thread for the whole schedule
  auto run_task = [&](std::size_t task) {
    threads_here.insert(std::this_thread::get_id());
    ran << task << '\n' << std::flush;
    ++tasks_here;
    if (mode == "die" && rank == 1 && tasks_here == 3) raise(SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(5 * ((task * 37) % 7)));
    if (task == 7) throw lsdae::Error(lsdae::ErrorKind::fmu_call, "task 7 throws");
    TaskOutcome out;
    out.failed = task == 11;
    out.row = "row of task " + std::to_string(task);
    return out;
  };

  std::FILE* rows = session.coordinator() ? std::fopen(rows_file.c_str(), "a") : nullptr;
  if (session.coordinator() && rows == nullptr) return fail("cannot append to " + rows_file.string());
  auto on_row = [&](std::size_t task, int from, const TaskOutcome& outcome) {
    std::fprintf(rows, "%zu %d %s %s\n", task, from, outcome.failed ? "failed" : "ok", outcome.row.c_str());
    std::fflush(rows);
  };
  lsdae::sweep::ScheduleOptions options;
  options.already_done = [&](std::size_t task) { return done_before.count(task) > 0; };
  std::size_t progress_calls = 0, last_finished = 0;
  bool progress_ok = true;
  options.progress = [&](const lsdae::sweep::ScheduleProgress& p) {
    if (progress_calls > 0 && p.finished != last_finished + 1) progress_ok = false;
    if (p.total != kTasks || p.skipped != done_before.size()) progress_ok = false;
    last_finished = p.finished;
    ++progress_calls;
  };
  options.farewell = [&] {
    return std::to_string(rank) + " " + std::to_string(tasks_here) + " " + std::to_string(threads_here.size());
  };
  const auto summary = lsdae::sweep::run_schedule(session, kTasks, run_task, on_row, options);
  ran.close();
  if (rows != nullptr) std::fclose(rows);
  if (session.active()) MPI_Barrier(MPI_COMM_WORLD);  // every log is complete
  if (!session.coordinator()) return 0;
  if (mode == "die") return fail("rank 1 was to die, yet the schedule ended");

  // Every task in rows.txt exactly once.
  const auto all_rows = read_rows(rows_file);
  for (std::size_t t = 0; t < kTasks; ++t)
    if (all_rows.count(t) != 1)
      return fail("task " + std::to_string(t) + " has " + std::to_string(all_rows.count(t)) + " rows in rows.txt");
  if (all_rows.size() != kTasks) return fail("rows.txt has " + std::to_string(all_rows.size()) + " rows");
  // run_task called exactly once for every task not finished before, never for the others.
  std::map<std::size_t, int> calls;
  std::set<int> ranks_that_ran;
  for (int r = 0; r < session.size(); ++r) {
    std::ifstream in(folder / ("ran-" + std::to_string(r) + ".txt"));
    std::size_t t = 0;
    while (in >> t) {
      ++calls[t];
      ranks_that_ran.insert(r);
    }
  }
  for (std::size_t t = 0; t < kTasks; ++t) {
    const int expected = done_before.count(t) ? 0 : 1;
    if (calls[t] != expected)
      return fail("task " + std::to_string(t) + " ran " + std::to_string(calls[t]) + " times, expected " +
                  std::to_string(expected));
  }
  const std::size_t to_run = kTasks - done_before.size();
  if (summary.total != kTasks || summary.skipped != done_before.size() || summary.ran != to_run)
    return fail("summary: total " + std::to_string(summary.total) + ", skipped " + std::to_string(summary.skipped) +
                ", ran " + std::to_string(summary.ran));
  const std::size_t failures = (done_before.count(7) ? 0 : 1) + (done_before.count(11) ? 0 : 1);
  if (summary.failed != failures) return fail("summary: failed " + std::to_string(summary.failed));
  std::size_t by_rank = 0;
  for (std::size_t n : summary.tasks_per_rank) by_rank += n;
  if (by_rank != to_run) return fail("tasks_per_rank adds up to " + std::to_string(by_rank));
  if (!progress_ok || progress_calls != to_run + 1 || last_finished != to_run)
    return fail("progress: " + std::to_string(progress_calls) + " calls, last finished " + std::to_string(last_finished));
  // Dynamic scheduling: with more tasks than ranks, every rank (rank 0 too) ran some.
  if (to_run >= static_cast<std::size_t>(session.size()) && ranks_that_ran.size() != static_cast<std::size_t>(session.size()))
    return fail(std::to_string(ranks_that_ran.size()) + " of " + std::to_string(session.size()) + " ranks ran tasks");
  // Every rank's farewell, in rank order: its own rank, its tasks, one thread.
  if (summary.interrupted) return fail("the schedule says it was interrupted");
  if (summary.farewells.size() != static_cast<std::size_t>(session.size()))
    return fail(std::to_string(summary.farewells.size()) + " farewells for " + std::to_string(session.size()) + " ranks");
  for (int r = 0; r < session.size(); ++r) {
    std::istringstream words(summary.farewells[static_cast<std::size_t>(r)]);
    int from = -1;
    std::size_t tasks = 0, threads = 0;
    words >> from >> tasks >> threads;
    if (from != r || tasks != summary.tasks_per_rank[static_cast<std::size_t>(r)] || threads > 1)
      return fail("rank " + std::to_string(r) + "'s farewell is \"" + summary.farewells[static_cast<std::size_t>(r)] +
                  "\": expected \"" + std::to_string(r) + " " +
                  std::to_string(summary.tasks_per_rank[static_cast<std::size_t>(r)]) + " 1\" (tasks in one thread)");
  }
  // The failed task's row carries the message.
  std::ifstream in(rows_file);
  std::string line;
  bool seen7 = done_before.count(7) > 0;
  while (std::getline(in, line))
    if (line.starts_with("7 ")) seen7 = line.find("failed") != std::string::npos && line.find("task 7 throws") != std::string::npos;
  if (!seen7) return fail("task 7's row does not say it failed with its message");
  std::cout << "mpi_scheduler_program: " << session.size() << " rank(s), " << summary.ran << " tasks run, "
            << summary.skipped << " skipped, " << summary.failed << " failed: OK\n";
  return 0;
}
