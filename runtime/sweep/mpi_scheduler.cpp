// runtime/sweep/mpi_scheduler.cpp -- the coordinator/worker scheduler of
// mpi_scheduler.h over MPI_COMM_WORLD.
//
// Messages (all point-to-point with rank 0, MPI_BYTE payloads):
//   worker → 0, kReportTag:   8 bytes task index (kNoTask: the first "ready"),
//                             1 byte: 0 done, 1 failed, 2 abandoned (no row),
//                             then the row's bytes
//   0 → worker, kTaskTag:     8 bytes task index
//   0 → worker, kStopTag:     empty
//   worker → 0, kFarewellTag: the worker's farewell text, after kStopTag
#include "sweep/mpi_scheduler.h"

#include <mpi.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <thread>

#include "lsdae/error.h"
#include "sweep/stretch_queue.h"

namespace lsdae::sweep {

namespace {

constexpr int kReportTag = 1;
constexpr int kTaskTag = 2;
constexpr int kStopTag = 3;
constexpr int kFarewellTag = 4;
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
  bytes[8] = !outcome ? 0 : outcome->abandoned ? 2 : outcome->failed ? 1 : 0;
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
      std::string words;
      try {
        if (options.farewell) words = options.farewell();
      } catch (const std::exception& e) {
        words = std::string("(no farewell: ") + e.what() + ")";
      }
      MPI_Send(words.data(), static_cast<int>(words.size()), MPI_BYTE, 0, kFarewellTag, MPI_COMM_WORLD);
      return summary;
    }
    std::uint64_t task = 0;
    MPI_Recv(&task, 8, MPI_BYTE, 0, kTaskTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    TaskOutcome outcome = run_guarded(run_task, static_cast<std::size_t>(task), options);
    if (outcome.abandoned) summary.interrupted = true;
    else ++summary.ran;
    if (outcome.failed && !outcome.abandoned) ++summary.failed;
    report = encode_report(task, &outcome);
  }
}

// One rank: every task in order, no MPI call.
ScheduleSummary run_alone(const std::vector<std::size_t>& queue, ScheduleSummary summary, ScheduleProgress progress,
                          const std::function<TaskOutcome(std::size_t)>& run_task,
                          const std::function<void(std::size_t, int, const TaskOutcome&)>& on_row,
                          const ScheduleOptions& options, std::chrono::steady_clock::time_point started) {
  for (std::size_t task : queue) {
    if (options.stop_requested && options.stop_requested()) {
      summary.interrupted = true;
      break;
    }
    progress.running = 1;
    TaskOutcome outcome = run_guarded(run_task, task, options);
    if (outcome.abandoned) {
      summary.interrupted = true;
      break;
    }
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
  if (options.farewell) summary.farewells.push_back(options.farewell());
  return summary;
}

// Rank 0's own tasks, in one thread for the whole schedule (MPI-free). The
// main thread gives it a task and sleeps on `wake` until it is done or a
// poll is due.
class LocalRunner {
 public:
  LocalRunner(const std::function<TaskOutcome(std::size_t)>& run_task, const ScheduleOptions& options)
      : thread_([this, &run_task, &options] { loop(run_task, options); }) {}
  ~LocalRunner() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  bool busy() const { return task_.has_value(); }
  void start(std::size_t task) {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    done_ = false;
    changed_.notify_all();
  }
  // The finished task and its outcome, once done.
  std::optional<std::pair<std::size_t, TaskOutcome>> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!task_ || !done_) return std::nullopt;
    const std::size_t task = *task_;
    task_.reset();
    return std::make_pair(task, std::move(outcome_));
  }
  // Sleeps up to `seconds`, less when the running task finishes.
  void wait(double seconds) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, std::chrono::duration<double>(seconds), [this] { return task_ && done_; });
  }

 private:
  void loop(const std::function<TaskOutcome(std::size_t)>& run_task, const ScheduleOptions& options) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return quit_ || (task_ && !done_); });
      if (quit_) return;
      const std::size_t task = *task_;
      lock.unlock();
      TaskOutcome outcome = run_guarded(run_task, task, options);
      lock.lock();
      outcome_ = std::move(outcome);
      done_ = true;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::optional<std::size_t> task_;  // the main thread's view: handed out and not yet taken
  bool done_ = false, quit_ = false;
  TaskOutcome outcome_;
  std::thread thread_;  // last: started once the rest is made
};

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
  // A rank waiting inside MPI (a worker for rank 0's answer, a rank done
  // early in MPI_Finalize until the last scenario ends) busy-polls a core by
  // default; yielding lets the processes that run scenarios have it. The
  // user's own setting (mpirun --mca, the environment) wins.
  ::setenv("OMPI_MCA_mpi_yield_when_idle", "1", /*overwrite=*/0);
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
  // Each rank keeps to the tasks of its last group (stretch_queue.h).
  std::vector<std::string> groups;
  groups.reserve(queue.size());
  for (std::size_t task : queue) groups.push_back(options.task_group ? options.task_group(task) : std::string());
  StretchQueue tasks_left(queue, groups);
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

  // Rank 0's own tasks, in one thread that never calls MPI.
  std::optional<LocalRunner> local;
  if (options.coordinator_runs_tasks) local.emplace(run_task, options);
  bool stopping = false;
  const double longest_sleep = options.poll_interval > 0 ? options.poll_interval : 0.004;
  double sleep = longest_sleep / 16;

  std::vector<char> buffer;
  for (;;) {
    bool busy = false;
    if (!stopping && options.stop_requested) {
      try {
        stopping = options.stop_requested();
      } catch (...) {
        abort_job(session, std::current_exception());
      }
    }
    if (local) {
      if (auto finished = local->take()) {
        if (finished->second.abandoned) {
          --progress.running;
          stopping = true;
        } else {
          record(finished->first, 0, finished->second);
        }
        busy = true;
      }
      if (!stopping && !local->busy() && !tasks_left.empty()) {
        local->start(*tasks_left.take(0));
        ++progress.running;
        busy = true;
      }
    }
    if (workers_left == 0 && !(local && local->busy())) break;

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
      if (task != kNoTask && buffer[8] == 2) {
        --progress.running;  // abandoned: no row
        stopping = true;
      } else if (task != kNoTask) {
        TaskOutcome outcome;
        outcome.failed = buffer[8] != 0;
        outcome.row.assign(buffer.data() + kHeader, buffer.size() - kHeader);
        record(static_cast<std::size_t>(task), worker, outcome);
      }
      if (!stopping && !tasks_left.empty()) {
        const std::uint64_t give = *tasks_left.take(static_cast<std::size_t>(worker));
        ++progress.running;
        MPI_Send(&give, 8, MPI_BYTE, worker, kTaskTag, MPI_COMM_WORLD);
      } else {
        MPI_Send(nullptr, 0, MPI_BYTE, worker, kStopTag, MPI_COMM_WORLD);
        --workers_left;
      }
      busy = true;
    }
    if (busy) {
      sleep = longest_sleep / 16;
    } else {
      if (local) local->wait(sleep);
      else std::this_thread::sleep_for(std::chrono::duration<double>(sleep));
      sleep = std::min(2 * sleep, longest_sleep);
    }
  }
  summary.interrupted = stopping || !tasks_left.empty();
  local.reset();

  // Every worker's farewell, then rank 0's own.
  summary.farewells.assign(static_cast<std::size_t>(ranks), std::string());
  for (int rank = 1; rank < ranks; ++rank) {
    MPI_Status status;
    MPI_Probe(rank, kFarewellTag, MPI_COMM_WORLD, &status);
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    buffer.resize(static_cast<std::size_t>(count));
    MPI_Recv(buffer.data(), count, MPI_BYTE, rank, kFarewellTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    summary.farewells[static_cast<std::size_t>(rank)].assign(buffer.data(), buffer.size());
  }
  if (options.farewell) {
    try {
      summary.farewells[0] = options.farewell();
    } catch (...) {
      abort_job(session, std::current_exception());
    }
  }
  return summary;
}

}  // namespace lsdae::sweep
