// runtime/sweep/mpi_scheduler.cpp -- the coordinator/worker scheduler of
// mpi_scheduler.h over MPI_COMM_WORLD.
//
// Messages (all point-to-point with rank 0, MPI_BYTE payloads):
//   worker → 0, kReportTag: 8 bytes task index (kNoTask: the first "ready"),
//                           1 byte failed flag, then the row's bytes
//   0 → worker, kTaskTag:   8 bytes task index
//   0 → worker, kStopTag:   empty
#include "sweep/mpi_scheduler.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <thread>

#include "lsdae/error.h"

namespace lsdae::sweep {

namespace {

constexpr int kReportTag = 1;
constexpr int kTaskTag = 2;
constexpr int kStopTag = 3;
constexpr std::uint64_t kNoTask = ~std::uint64_t{0};
constexpr std::size_t kHeader = 9;

std::string default_failure_row(std::size_t task, const std::string& message) {
  return "task " + std::to_string(task) + " failed: " + message;
}

TaskOutcome run_guarded(const std::function<TaskOutcome(std::size_t)>& run_task, std::size_t task,
                        const ScheduleOptions& options) {
  std::string message;
  try {
    return run_task(task);
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "an exception that is not a std::exception";
  }
  TaskOutcome out;
  out.failed = true;
  out.row = options.failure_row ? options.failure_row(task, message) : default_failure_row(task, message);
  return out;
}

std::vector<char> encode_report(std::uint64_t task, const TaskOutcome* outcome) {
  std::vector<char> bytes(kHeader + (outcome ? outcome->row.size() : 0));
  std::memcpy(bytes.data(), &task, 8);
  bytes[8] = outcome && outcome->failed ? 1 : 0;
  if (outcome && !outcome->row.empty()) std::memcpy(bytes.data() + kHeader, outcome->row.data(), outcome->row.size());
  return bytes;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A callback on rank 0 failed while workers wait for answers: say why and end the job.
[[noreturn]] void abort_job(const MpiSession& session, const std::exception_ptr& error) {
  int code = 70;
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    code = exit_code(e.kind());
    std::cerr << "lsdae sweep (MPI rank 0): " << e.what() << " → ending every rank of the job\n";
  } catch (const std::exception& e) {
    std::cerr << "lsdae sweep (MPI rank 0): " << e.what() << " → ending every rank of the job\n";
  } catch (...) {
    std::cerr << "lsdae sweep (MPI rank 0): an unknown exception → ending every rank of the job\n";
  }
  std::cerr.flush();
  session.abort(code);
}

ScheduleSummary run_worker(const std::function<TaskOutcome(std::size_t)>& run_task, const ScheduleOptions& options) {
  ScheduleSummary summary;
  std::vector<char> report = encode_report(kNoTask, nullptr);
  for (;;) {
    MPI_Send(report.data(), static_cast<int>(report.size()), MPI_BYTE, 0, kReportTag, MPI_COMM_WORLD);
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kStopTag) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, kStopTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      return summary;
    }
    std::uint64_t task = 0;
    MPI_Recv(&task, 8, MPI_BYTE, 0, kTaskTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    TaskOutcome outcome = run_guarded(run_task, static_cast<std::size_t>(task), options);
    ++summary.ran;
    if (outcome.failed) ++summary.failed;
    report = encode_report(task, &outcome);
  }
}

// One rank: every task in order, no MPI call.
ScheduleSummary run_alone(const std::vector<std::size_t>& queue, ScheduleSummary summary, ScheduleProgress progress,
                          const std::function<TaskOutcome(std::size_t)>& run_task,
                          const std::function<void(std::size_t, int, const TaskOutcome&)>& on_row,
                          const ScheduleOptions& options, std::chrono::steady_clock::time_point started) {
  for (std::size_t task : queue) {
    progress.running = 1;
    TaskOutcome outcome = run_guarded(run_task, task, options);
    ++summary.ran;
    ++summary.tasks_per_rank[0];
    if (outcome.failed) ++summary.failed;
    on_row(task, 0, outcome);
    progress.running = 0;
    ++progress.finished;
    if (outcome.failed) ++progress.failed;
    progress.elapsed = seconds_since(started);
    if (options.progress) options.progress(progress);
  }
  return summary;
}

}  // namespace

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (const char* v = std::getenv(name); v != nullptr && *v != '\0') return true;
  return false;
}

MpiSession::MpiSession() {
  if (!launched_by_mpi()) return;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    throw Error(ErrorKind::usage, "MPI: MPI_Init was already called in this process → create one MpiSession only");
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  active_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  if (provided < MPI_THREAD_FUNNELED) {
    MPI_Finalize();
    active_ = false;
    throw Error(ErrorKind::usage, "MPI: the MPI library gives thread level " + std::to_string(provided) +
                                      ", the scheduler needs MPI_THREAD_FUNNELED (rank 0 runs tasks in a thread) "
                                      "→ use an MPI built with thread support (Debian's Open MPI is)");
  }
}

MpiSession::~MpiSession() {
  if (active_) MPI_Finalize();
}

void MpiSession::abort(int exit_code) const {
  if (active_) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

ScheduleSummary run_schedule(const MpiSession& session, std::size_t tasks,
                             const std::function<TaskOutcome(std::size_t)>& run_task,
                             const std::function<void(std::size_t, int, const TaskOutcome&)>& on_row,
                             const ScheduleOptions& options) {
  if (!session.coordinator()) return run_worker(run_task, options);

  const auto started = std::chrono::steady_clock::now();
  const int ranks = session.active() ? session.size() : 1;
  ScheduleSummary summary;
  summary.total = tasks;
  summary.tasks_per_rank.assign(static_cast<std::size_t>(ranks), 0);
  std::vector<std::size_t> queue;
  queue.reserve(tasks);
  for (std::size_t i = 0; i < tasks; ++i) {
    if (options.already_done && options.already_done(i)) ++summary.skipped;
    else queue.push_back(i);
  }
  ScheduleProgress progress;
  progress.total = tasks;
  progress.skipped = summary.skipped;
  if (ranks == 1) {
    if (options.progress) options.progress(progress);
    return run_alone(queue, summary, progress, run_task, on_row, options, started);
  }

  // From here on a throwing callback would leave the workers waiting: abort.
  try {
    if (options.progress) options.progress(progress);
  } catch (...) {
    abort_job(session, std::current_exception());
  }
  std::size_t next = 0;
  int workers_left = ranks - 1;
  auto record = [&](std::size_t task, int rank, const TaskOutcome& outcome) {
    ++summary.ran;
    ++summary.tasks_per_rank[static_cast<std::size_t>(rank)];
    if (outcome.failed) ++summary.failed;
    --progress.running;
    ++progress.finished;
    if (outcome.failed) ++progress.failed;
    progress.elapsed = seconds_since(started);
    try {
      on_row(task, rank, outcome);
      if (options.progress) options.progress(progress);
    } catch (...) {
      abort_job(session, std::current_exception());
    }
  };

  // Rank 0's own task, in a thread that never calls MPI.
  std::thread local;
  std::optional<std::size_t> local_task;
  std::atomic<bool> local_done{false};
  TaskOutcome local_outcome;

  std::vector<char> buffer;
  for (;;) {
    bool busy = false;
    if (local_task && local_done.load(std::memory_order_acquire)) {
      local.join();
      const std::size_t task = *local_task;
      local_task.reset();
      record(task, 0, local_outcome);
      busy = true;
    }
    if (options.coordinator_runs_tasks && !local_task && next < queue.size()) {
      local_task = queue[next++];
      ++progress.running;
      local_done.store(false, std::memory_order_relaxed);
      local = std::thread([&, task = *local_task] {
        local_outcome = run_guarded(run_task, task, options);
        local_done.store(true, std::memory_order_release);
      });
      busy = true;
    }
    if (workers_left == 0 && !local_task) break;

    int waiting = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kReportTag, MPI_COMM_WORLD, &waiting, &status);
    if (waiting) {
      int count = 0;
      MPI_Get_count(&status, MPI_BYTE, &count);
      buffer.resize(static_cast<std::size_t>(count));
      const int worker = status.MPI_SOURCE;
      MPI_Recv(buffer.data(), count, MPI_BYTE, worker, kReportTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      std::uint64_t task = kNoTask;
      if (buffer.size() >= kHeader) std::memcpy(&task, buffer.data(), 8);
      if (task != kNoTask) {
        TaskOutcome outcome;
        outcome.failed = buffer[8] != 0;
        outcome.row.assign(buffer.data() + kHeader, buffer.size() - kHeader);
        record(static_cast<std::size_t>(task), worker, outcome);
      }
      if (next < queue.size()) {
        const std::uint64_t give = queue[next++];
        ++progress.running;
        MPI_Send(&give, 8, MPI_BYTE, worker, kTaskTag, MPI_COMM_WORLD);
      } else {
        MPI_Send(nullptr, 0, MPI_BYTE, worker, kStopTag, MPI_COMM_WORLD);
        --workers_left;
      }
      busy = true;
    }
    if (!busy) std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_interval));
  }
  return summary;
}

}  // namespace lsdae::sweep
