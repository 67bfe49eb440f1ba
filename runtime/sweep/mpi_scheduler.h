// runtime/sweep/mpi_scheduler.h -- hand tasks (the scenarios of a sweep) to
// MPI ranks one at a time, and collect one result row per task on rank 0.
//
// The algorithm: dynamic self-scheduling, the coordinator/worker ("master/
// worker", "task farm") scheme of e.g. Gropp, Lusk & Skjellum, "Using MPI",
// 3rd ed., ch. 3.6. A scenario's cost varies a lot (a stable N-1 case stops
// early, an unstable one runs to the end), so there is no static split:
//   - rank 0 (the coordinator) keeps the queue of task indices not yet run
//     (0 .. tasks-1 in order, without those `already_done` says are finished:
//     resume);
//   - every other rank (a worker) sends "ready", gets one task index, runs
//     it, sends back its row together with the next "ready", until rank 0
//     answers "stop" because the queue is empty;
//   - rank 0 runs tasks too, in one thread of its own for the whole
//     schedule (so what run_task keeps between tasks, such as a watched
//     worker process, stays with that thread), while its main thread answers
//     the workers (only the main thread calls MPI: MPI_THREAD_FUNNELED), so
//     2 ranks are 2 workers, not 1; the main thread sleeps between polls
//     (ScheduleOptions::poll_interval), it does not spin;
//   - rank 0 calls `on_row` for every row as it arrives (the sweep writes and
//     flushes it there: a killed job keeps the rows it had) and `progress`
//     after each.
//   - at the end each worker sends its farewell (ScheduleOptions) to rank 0.
// Every task that is not `already_done` is run exactly once, on one rank,
// unless the schedule is stopped early (stop_requested, abandoned tasks).
// With one rank (no mpirun, or -np 1) rank 0 runs every task itself, in
// order, without any MPI call.
//
// Contract:
//   - run_task(i) runs on any rank; it returns the row, and says whether the
//     task failed. What it throws is caught: the task becomes a failed row
//     made by `failure_row` (the rank goes on). A crash inside run_task kills
//     the rank, though: run each scenario in a watched process (`lsdae
//     sweep` keeps one per rank, lsdae/sweep.h ScenarioWorker) so that a
//     crashing FMU is a failed row and not a dead rank. A task that returns
//     `abandoned` (a stop signal came first) is not recorded.
//   - A rank that dies anyway (killed, out of memory, its node lost): Open
//     MPI 4.1 as Debian builds it has no fault tolerance (no ULFM; its
//     default error handler is MPI_ERRORS_ARE_FATAL, and mpirun kills every
//     rank of the job when one dies), so the job ends with a non-zero exit
//     status (mpirun's). What rank 0 handed to on_row before stays; a second
//     run with resume (already_done) runs the rest. The scheduler cannot
//     re-queue that task: no rank survives to take it.
//   - If on_row or progress throws on rank 0 with more than one rank, the
//     workers would wait for an answer forever: the message goes to stderr
//     and the job is ended with MPI_Abort (exit code of the lsdae::Error's
//     kind, 70 for anything else). With one rank the exception propagates.
//   - Only rank 0's `tasks`, `already_done`, `on_row` and `progress` are
//     used; every rank must call run_schedule (it is collective).
//
// Running it: `mpirun -np 64 lsdae sweep ...`. The program calls MPI_Init
// only when launched_by_mpi() (MpiSession), so the same binary runs without
// mpirun as one rank.
#ifndef LSDAE_RUNTIME_SWEEP_MPI_SCHEDULER_H
#define LSDAE_RUNTIME_SWEEP_MPI_SCHEDULER_H

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace lsdae::sweep {

// True when an MPI launcher started this process: Open MPI's mpirun/mpiexec
// (OMPI_COMM_WORLD_SIZE), a PMIx launcher such as Slurm's srun --mpi=pmix
// (PMIX_RANK), or MPICH's Hydra / Slurm PMI-2 (PMI_SIZE).
bool launched_by_mpi();

// MPI for the life of the object: MPI_Init_thread (MPI_THREAD_FUNNELED) when
// launched_by_mpi(), MPI_Finalize at the end; otherwise no MPI call at all
// and this process is rank 0 of 1. One per process (MPI can be initialized
// once). Error(usage) when MPI gives less than MPI_THREAD_FUNNELED.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return active_; }  // MPI_Init was called
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool coordinator() const { return rank_ == 0; }
  // Ends every rank of the job with this exit code (MPI_Abort), or exits
  // this process when MPI is not active. Does not return.
  [[noreturn]] void abort(int exit_code) const;

 private:
  bool active_ = false;
  int rank_ = 0, size_ = 1;
};

struct TaskOutcome {
  bool failed = false;
  // No row: the task was stopped half-way (a stop signal). It is not
  // recorded, and rank 0 hands out no more tasks (run_schedule returns with
  // interrupted set once the tasks under way are back).
  bool abandoned = false;
  std::string row;
};

struct ScheduleProgress {
  std::size_t total = 0;     // tasks
  std::size_t skipped = 0;   // already done before this run (resume)
  std::size_t finished = 0;  // rows received in this run (failed ones included)
  std::size_t failed = 0;
  std::size_t running = 0;   // handed out, row not back yet
  double elapsed = 0.0;      // seconds since run_schedule started
};

struct ScheduleOptions {
  // Rank 0: tasks finished by an earlier run, not run again (resume).
  std::function<bool(std::size_t task)> already_done;
  // Rank 0: after the queue is made and after every row.
  std::function<void(const ScheduleProgress&)> progress;
  // The row of a task whose run_task threw (message: what()). Default:
  // "task <i> failed: <message>".
  std::function<std::string(std::size_t task, const std::string& message)> failure_row;
  // Rank 0: the group of a task (stretch_queue.h: tasks of one group share a
  // stretch); a rank keeps to the tasks of the group it took from last.
  // Unset or empty: a group of its own (tasks in order, as without it).
  std::function<std::string(std::size_t task)> task_group;
  // Rank 0 runs tasks too (in a thread) when there are workers; false keeps
  // it a pure coordinator (useful with more ranks than cores).
  bool coordinator_runs_tasks = true;
  // Rank 0: checked between messages; once true no more tasks are handed
  // out, the tasks under way are waited for (and recorded), and run_schedule
  // returns with interrupted set (e.g. a stop signal: StopSignals).
  std::function<bool()> stop_requested;
  // Every rank, once its last task is done: a few words about it (e.g. how
  // often the model was made), sent to rank 0: ScheduleSummary::farewells.
  std::function<std::string()> farewell;
  // Longest sleep of rank 0's main thread when no message is waiting,
  // seconds. It starts at 1/16 of it after each message and doubles while
  // the ranks are quiet: a worker's row is answered at most this late, and
  // a coordinator waiting on long scenarios wakes up 1/poll_interval times
  // a second instead of spinning (rank 0's own task wakes it at once).
  double poll_interval = 0.004;
};

struct ScheduleSummary {
  std::size_t total = 0, skipped = 0, ran = 0, failed = 0;
  bool interrupted = false;                 // stop_requested or an abandoned task ended it early
  std::vector<std::size_t> tasks_per_rank;  // rank 0 only: rows from each rank
  std::vector<std::string> farewells;       // rank 0 only: each rank's farewell (empty without one)
};

// Collective over MPI_COMM_WORLD (every rank calls it with the same session).
// Rank 0 returns when every row is in; a worker when told to stop (its
// summary counts only its own tasks).
ScheduleSummary run_schedule(const MpiSession& session, std::size_t tasks,
                             const std::function<TaskOutcome(std::size_t task)>& run_task,
                             const std::function<void(std::size_t task, int rank, const TaskOutcome&)>& on_row,
                             const ScheduleOptions& options = {});

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_MPI_SCHEDULER_H
