// runtime/sweep/run_sweep.cpp -- the scenarios of a sweep in worker
// processes on this machine (lsdae/sweep.h).
//
// The coordinator (this process) stays single-threaded and never loads the
// FMU's binary: it forks `jobs` workers, hands each one scenario index at a
// time over a pipe ("<index>\n"), and reads back one frame per scenario
// ("<index> <length>\n" then the row as one CSV record). A worker whose pipe
// ends without a frame died (a crashing FMU, exit()); one that passes the
// per-scenario time limit is killed. Either way its scenario gets a failed
// row and a fresh worker takes the next one. Workers ignore SIGINT, SIGTERM
// and SIGHUP (a terminal's Ctrl-C reaches the whole process group): the
// coordinator decides, kills them on a stop request, and they die with it
// (PR_SET_PDEATHSIG). Each worker keeps one ScenarioRunner for its whole
// life (sweep/scenario_runner.h): the FMU's binary, the structural analysis
// and the instances are made once per worker and reset between scenarios;
// a replaced worker starts with a new one. A frame also says whether the
// scenario made a new model (the reuse statistics of SweepOutcome).
//
// ScenarioWorker is the same worker, one of it, driven one scenario at a
// time by its caller (an MPI rank, sweep/mpi_scheduler.h) and kept between
// calls.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/supervise.h"
#include "lsdae/sweep.h"
#include "sweep/scenario_runner.h"
#include "sweep/stretch_queue.h"

namespace lsdae::sweep {

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

struct Worker {
  pid_t pid = -1;
  int to = -1, from = -1;
  std::string buffer;
  std::optional<std::size_t> task;
  double started = 0;
};

[[noreturn]] void worker_main(int in_fd, int out_fd, pid_t parent, const SweepPlan& plan,
                              const std::vector<Scenario>& scenarios, const ObserverFactory& hook) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_IGN);
  ::signal(SIGHUP, SIG_IGN);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);  // what the FMU prints must not mix with anything on stdout
  ScenarioRunner runner(plan);
  std::string pending;
  char chunk[256];
  for (;;) {
    const auto newline = pending.find('\n');
    if (newline == std::string::npos) {
      const ssize_t n = ::read(in_fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(0);
      pending.append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    const std::size_t index = std::stoull(pending.substr(0, newline));
    pending.erase(0, newline + 1);
    const std::size_t made_before = runner.scenarios() - runner.reused();
    const std::string record = run_scenario(plan, scenarios[index], runner, hook).to_csv();
    const std::size_t made = runner.scenarios() - runner.reused() - made_before;
    if (!write_all(out_fd, std::to_string(index) + " " + std::to_string(record.size()) + " " + std::to_string(made) +
                               "\n" + record))
      ::_exit(0);
  }
}

class Pool {
 public:
  Pool(const SweepPlan& plan, const std::vector<Scenario>& scenarios, const ObserverFactory& hook)
      : plan_(plan), scenarios_(scenarios), hook_(hook) {}
  ~Pool() {
    for (auto& w : workers_) stop(w, SIGKILL);
  }

  void spawn(Worker& w) {
    int down[2], up[2];
    if (::pipe2(down, O_CLOEXEC) != 0 || ::pipe2(up, O_CLOEXEC) != 0)
      throw Error(ErrorKind::internal, std::string("sweep: cannot create a pipe: ") + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw Error(ErrorKind::internal, std::string("sweep: cannot fork a worker: ") + std::strerror(errno));
    if (pid == 0) {
      for (auto& other : workers_) {
        if (other.to >= 0) ::close(other.to);
        if (other.from >= 0) ::close(other.from);
      }
      ::close(down[1]);
      ::close(up[0]);
      worker_main(down[0], up[1], parent, plan_, scenarios_, hook_);
    }
    ::close(down[0]);
    ::close(up[1]);
    ++started;
    w = Worker{};
    w.pid = pid;
    w.to = down[1];
    w.from = up[0];
  }

  // How a worker ended (after its pipe closed or it was killed).
  static std::string reap(Worker& w) {
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    w.pid = -1;
    if (WIFSIGNALED(status))
      return "the worker process running it was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
             strsignal(WTERMSIG(status)) + "): the FMU crashed";
    return "the worker process running it exited with status " + std::to_string(WEXITSTATUS(status)) +
           " (the FMU called exit()?)";
  }

  static void stop(Worker& w, int signo) {
    if (w.to >= 0) ::close(w.to), w.to = -1;
    if (w.from >= 0) ::close(w.from), w.from = -1;
    if (w.pid > 0) {
      ::kill(w.pid, signo);
      int status = 0;
      while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
      }
      w.pid = -1;
    }
  }

  std::vector<Worker> workers_;
  std::size_t started = 0;  // worker processes forked

 private:
  const SweepPlan& plan_;
  const std::vector<Scenario>& scenarios_;
  const ObserverFactory& hook_;
};

void count(SweepOutcome& outcome, const SummaryRow& row) {
  ++outcome.ran;
  if (row.status == Status::ok) ++outcome.ok;
  else if (row.status == Status::stopped_early) ++outcome.stopped_early;
  else ++outcome.failed;
}

SummaryRow failed_row(const SweepPlan& plan, const Scenario& scenario, const std::string& message, double wall) {
  SummaryRow row;
  row.id = scenario.id;
  row.status = Status::failed;
  row.message = message;
  row.wall_time = wall;
  row.metrics.assign(plan.options().metrics.size(), std::nullopt);
  return row;
}

SummaryRow died_row(const SweepPlan& plan, const Scenario& s, const std::string& how, double wall) {
  return failed_row(plan, s, "scenario " + s.id + ": " + how + " → run it alone with `lsdae simulate` and its "
                                 "--set values to see in which FMU call", wall);
}

SummaryRow timeout_row(const SweepPlan& plan, const Scenario& s, double limit, double wall) {
  return failed_row(plan, s, "scenario " + s.id + ": took longer than the per-scenario limit of " +
                                 format_number(limit) + " s and was stopped → raise --scenario-timeout", wall);
}

struct Frame {
  SummaryRow row;
  std::size_t made = 0;  // models the scenario made (0: the worker's was reset)
};

// The frame at the start of w.buffer once it is complete ("<index> <length>
// <made>\n<record>"), or nullopt while more is to come.
std::optional<Frame> take_frame(Worker& w, std::size_t metric_count) {
  const auto newline = w.buffer.find('\n');
  if (newline == std::string::npos) return std::nullopt;
  std::istringstream head(w.buffer.substr(0, newline));
  std::size_t index = 0, length = 0;
  Frame frame;
  if (!(head >> index >> length >> frame.made))
    throw Error(ErrorKind::internal, "sweep: a worker process sent a bad frame header: " + w.buffer.substr(0, newline));
  if (w.buffer.size() < newline + 1 + length) return std::nullopt;
  frame.row = SummaryRow::from_csv(w.buffer.substr(newline + 1, length), metric_count);
  w.buffer.clear();
  return frame;
}

// Sends w its task (starting it first when it has no process); a worker
// that died before taking it is replaced once.
void send_task(Pool& pool, Worker& w, std::size_t task) {
  if (w.pid < 0) pool.spawn(w);
  w.task = task;
  w.started = now_seconds();
  w.buffer.clear();
  if (!write_all(w.to, std::to_string(task) + "\n")) {
    const std::string how = Pool::reap(w);
    Pool::stop(w, SIGKILL);
    pool.spawn(w);
    w.task = task;
    if (!write_all(w.to, std::to_string(task) + "\n"))
      throw Error(ErrorKind::internal, "sweep: a new worker process would not take a scenario: " + how);
  }
}

// Ignores SIGPIPE while alive: a worker that died must not kill this process.
class IgnoreSigpipe {
 public:
  IgnoreSigpipe() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &previous_);
  }
  ~IgnoreSigpipe() { ::sigaction(SIGPIPE, &previous_, nullptr); }
  IgnoreSigpipe(const IgnoreSigpipe&) = delete;
  IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

 private:
  struct sigaction previous_ {};
};

}  // namespace

SweepOutcome run_sweep(const SweepPlan& plan, const std::vector<Scenario>& scenarios, const RowSink& sink,
                       const std::vector<std::size_t>& indices, const ObserverFactory& hook) {
  std::deque<std::size_t> queue;
  if (indices.empty())
    for (std::size_t i = 0; i < scenarios.size(); ++i) queue.push_back(i);
  else
    queue.assign(indices.begin(), indices.end());
  for (std::size_t i : queue)
    if (i >= scenarios.size())
      throw Error(ErrorKind::usage, "sweep: scenario index " + std::to_string(i) + " of " +
                                        std::to_string(scenarios.size()) + " scenarios");
  SweepOutcome outcome;
  if (!plan.options().isolate) {
    ScenarioRunner runner(plan);
    for (std::size_t i : queue) {
      if (StopSignals::received() != 0) {
        outcome.interrupted = true;
        break;
      }
      const SummaryRow row = run_scenario(plan, scenarios[i], runner, hook);
      count(outcome, row);
      sink(i, row);
    }
    outcome.models_made = runner.scenarios() - runner.reused();
    return outcome;
  }

  IgnoreSigpipe ignore_sigpipe;
  Pool pool(plan, scenarios, hook);
  const std::size_t jobs = std::min(plan.options().jobs, std::max<std::size_t>(queue.size(), 1));
  pool.workers_.resize(jobs);
  const double limit = plan.options().scenario_timeout;
  const std::size_t metric_count = plan.options().metrics.size();
  // A worker keeps to the scenarios of its last shared stretch (stretch_queue.h).
  const std::vector<std::size_t> order(queue.begin(), queue.end());
  std::vector<std::string> keys;
  keys.reserve(order.size());
  for (std::size_t i : order)
    keys.push_back(plan.options().share_stretches ? deepest_stretch_key(scenarios[i]) : std::string());
  StretchQueue tasks(order, keys);
  auto hand_out = [&](Worker& w) {
    if (const auto next = tasks.take(static_cast<std::size_t>(&w - pool.workers_.data()))) send_task(pool, w, *next);
  };
  auto finish = [&](Worker& w, const SummaryRow& row) {
    const std::size_t index = *w.task;
    w.task.reset();
    count(outcome, row);
    sink(index, row);
  };
  for (auto& w : pool.workers_) hand_out(w);
  for (;;) {
    if (StopSignals::received() != 0) {
      outcome.interrupted = true;
      break;
    }
    std::vector<pollfd> fds;
    std::vector<Worker*> owners;
    for (auto& w : pool.workers_)
      if (w.task) {
        fds.push_back({w.from, POLLIN, 0});
        owners.push_back(&w);
      }
    if (fds.empty()) break;
    const int ready = ::poll(fds.data(), fds.size(), 100);
    if (ready < 0 && errno != EINTR)
      throw Error(ErrorKind::internal, std::string("sweep: poll: ") + std::strerror(errno));
    for (std::size_t f = 0; f < fds.size(); ++f) {
      Worker& w = *owners[f];
      if (ready > 0 && (fds[f].revents & (POLLIN | POLLHUP | POLLERR))) {
        char chunk[65536];
        const ssize_t n = ::read(w.from, chunk, sizeof chunk);
        if (n > 0) {
          w.buffer.append(chunk, static_cast<std::size_t>(n));
          if (auto frame = take_frame(w, metric_count)) {
            outcome.models_made += frame->made;
            finish(w, frame->row);
            hand_out(w);
          }
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        // The pipe ended without a row: the worker is gone.
        const std::string how = Pool::reap(w);
        Pool::stop(w, SIGKILL);
        finish(w, died_row(plan, scenarios[*w.task], how, now_seconds() - w.started));
        hand_out(w);
        continue;
      }
      if (limit > 0 && now_seconds() - w.started > limit) {
        Pool::stop(w, SIGKILL);
        finish(w, timeout_row(plan, scenarios[*w.task], limit, now_seconds() - w.started));
        hand_out(w);
      }
    }
  }
  outcome.processes = pool.started;
  return outcome;
}

// ---- ScenarioWorker ----------------------------------------------------------

struct ScenarioWorker::Impl {
  Impl(const SweepPlan& p, const std::vector<Scenario>& s, const ObserverFactory& o)
      : plan(p), scenarios(s), observe(o) {}
  const SweepPlan& plan;
  const std::vector<Scenario>& scenarios;
  const ObserverFactory& observe;
  SweepOutcome outcome;
  std::unique_ptr<ScenarioRunner> runner;      // not isolated
  std::unique_ptr<IgnoreSigpipe> ignore_sigpipe;  // isolated
  std::unique_ptr<Pool> pool;                  // isolated: one worker

  std::optional<SummaryRow> in_process(std::size_t index) {
    if (StopSignals::received() != 0) return std::nullopt;
    if (!runner) runner = std::make_unique<ScenarioRunner>(plan);
    SummaryRow row = run_scenario(plan, scenarios[index], *runner, observe);
    outcome.models_made = runner->scenarios() - runner->reused();
    return row;
  }

  std::optional<SummaryRow> isolated(std::size_t index) {
    if (StopSignals::received() != 0) return std::nullopt;
    if (!pool) {
      ignore_sigpipe = std::make_unique<IgnoreSigpipe>();
      pool = std::make_unique<Pool>(plan, scenarios, observe);
      pool->workers_.resize(1);
    }
    Worker& w = pool->workers_[0];
    send_task(*pool, w, index);
    outcome.processes = pool->started;
    const double limit = plan.options().scenario_timeout;
    for (;;) {
      if (StopSignals::received() != 0) {
        Pool::stop(w, SIGKILL);  // abandoned: the next run() starts a new worker
        w.task.reset();
        return std::nullopt;
      }
      pollfd fd{w.from, POLLIN, 0};
      const int ready = ::poll(&fd, 1, 100);
      if (ready < 0 && errno != EINTR)
        throw Error(ErrorKind::internal, std::string("sweep: poll: ") + std::strerror(errno));
      if (ready > 0) {
        char chunk[65536];
        const ssize_t n = ::read(w.from, chunk, sizeof chunk);
        if (n > 0) {
          w.buffer.append(chunk, static_cast<std::size_t>(n));
          if (auto frame = take_frame(w, plan.options().metrics.size())) {
            outcome.models_made += frame->made;
            w.task.reset();
            return std::move(frame->row);
          }
          continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const std::string how = Pool::reap(w);
        Pool::stop(w, SIGKILL);
        w.task.reset();
        return died_row(plan, scenarios[index], how, now_seconds() - w.started);
      }
      if (limit > 0 && now_seconds() - w.started > limit) {
        Pool::stop(w, SIGKILL);
        w.task.reset();
        return timeout_row(plan, scenarios[index], limit, now_seconds() - w.started);
      }
    }
  }
};

ScenarioWorker::ScenarioWorker(const SweepPlan& plan, const std::vector<Scenario>& scenarios,
                               const ObserverFactory& observe)
    : impl_(std::make_unique<Impl>(plan, scenarios, observe)) {}

ScenarioWorker::~ScenarioWorker() = default;  // ~Pool ends the worker process

std::optional<SummaryRow> ScenarioWorker::run(std::size_t index) {
  if (index >= impl_->scenarios.size())
    throw Error(ErrorKind::usage, "sweep: scenario index " + std::to_string(index) + " of " +
                                      std::to_string(impl_->scenarios.size()) + " scenarios");
  std::optional<SummaryRow> row = impl_->plan.options().isolate ? impl_->isolated(index) : impl_->in_process(index);
  if (row) count(impl_->outcome, *row);
  return row;
}

const SweepOutcome& ScenarioWorker::outcome() const { return impl_->outcome; }

}  // namespace lsdae::sweep
