// runtime/run/run_to_files.cpp -- see run_to_files.h.
#include "run/run_to_files.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>

#include "common/format.h"
#include "common/output_file.h"
#include "lsdae/error.h"
#include "run/statistics.h"

namespace lsdae::run {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Writes the statistics to `file` (nothing when it is null); "" when done,
// else the message of the failed write.
std::string write_json(OutputFile* file, const std::string& json) {
  if (file == nullptr) return {};
  const int failure = file->append(json);
  if (failure == 0) return {};
  const std::string name = file->is_stdout() ? "standard output" : "\"" + file->path().string() + "\"";
  return "statistics: writing " + name + " failed: " + std::strerror(failure) + " → " +
         (failure == ENOSPC ? "free disk space" : "check the disk and the path") + " and run again";
}

// The rows of a run into a result file, and its statistics at the end.
class ResultFileSink final : public RowSink {
 public:
  ResultFileSink(const FileRunSpec& spec, const FileRunReport& report)
      : spec_(spec), report_(report), reader_(spec.channels) {
    timing_.format = results::to_string(spec.format);
  }

  void jacobian_checked(const JacobianCheck& check) override {
    if (report_.jacobian_checked) report_.jacobian_checked(check);
    else RowSink::jacobian_checked(check);
  }

  void begin(Simulation&) override {
    if (!spec_.statistics.empty()) stats_ = std::make_unique<OutputFile>(spec_.statistics, "statistics", spec_.stdout_fd);
    if (!spec_.results.empty()) {
      results::WriterOptions options;
      options.stdout_fd = spec_.stdout_fd;
      options.csv_units = spec_.options.csv_units;
      options.csv_events = spec_.options.csv_events;
      options.model_name = spec_.model_name;
      options.hdf5_deflate = spec_.options.hdf5_deflate;
      options.hdf5_compress_all = spec_.options.hdf5_compress_all;
      writer_ = results::open_result_writer(spec_.format, spec_.results, simulation::result_columns(reader_.channels()),
                                            options);
    }
    opened_ = true;
  }

  void row(Simulation& sim, RowKind kind) override {
    reader_.read(sim);
    if (writer_) {
      const auto w0 = std::chrono::steady_clock::now();
      writer_->write_row(sim.time(), reader_, kind);
      timing_.write_seconds += since(w0);
    }
    ++rows_;
    if (report_.values) report_.values(reader_, sim.time(), kind);
    if (report_.row) report_.row(rows(), sim.time());
  }

  void point(std::int64_t k, std::int64_t points, double t) override {
    if (report_.point) report_.point(k, points, t);
  }

  bool opened() const { return opened_; }
  std::size_t rows() const { return writer_ ? writer_->rows() : rows_; }

  RunStatistics statistics(Simulation& sim, bool interrupted, const std::string& error) const {
    RunStatistics s;
    s.model = spec_.model_name;
    s.command_line = spec_.command_line;
    s.interrupted = interrupted;
    s.error = error;
    s.rows = rows();
    s.wall_time = spec_.wall ? spec_.wall() : 0.0;
    take_simulation(s, sim);
    if (!spec_.results.empty()) s.results = timing_;
    return s;
  }

  // The end of the run for the result file: the statistics go in where the
  // format has room (HDF5), the last rows are written, the file is closed.
  // After a failure this must not hide the first error: "" or its message.
  std::string close_results(Simulation& sim, bool interrupted, const std::string& error) {
    if (!writer_) return {};
    auto w0 = std::chrono::steady_clock::now();
    auto count_time = [&] {
      timing_.write_seconds += since(w0);
      w0 = std::chrono::steady_clock::now();
    };
    try {
      writer_->close_rows();  // every row in the file: the writer's statistics are final
      count_time();
      timing_.writer = writer_->statistics();
      writer_->finish(statistics_json(statistics(sim, interrupted, error)));
      count_time();
    } catch (const Error& e) {
      count_time();
      timing_.writer = writer_->statistics();
      return e.what();
    }
    return {};
  }

  std::string write_stats(Simulation& sim, bool interrupted, const std::string& error) {
    return write_json(stats_.get(), statistics_json(statistics(sim, interrupted, error)));
  }

 private:
  const FileRunSpec& spec_;
  const FileRunReport& report_;
  simulation::OutputReader reader_;
  std::unique_ptr<OutputFile> stats_;
  std::unique_ptr<results::ResultWriter> writer_;
  ResultsRecord timing_;
  std::size_t rows_ = 0;
  bool opened_ = false;
};

}  // namespace

FileRunOutcome run_to_files(Simulation& sim, const OutputPlan& plan, const FileRunSpec& spec, const StopToken& stop,
                            const FileRunReport& report) {
  ResultFileSink sink(spec, report);
  const std::string results_name = spec.results == "-" ? "standard output" : spec.results;
  auto kept = [&] {
    if (spec.results.empty()) return std::string();
    return "\n  (stopped at t = " + format_number(sim.time()) + "; " + count_of(sink.rows(), "row") + " kept in " +
           results_name + ")";
  };
  auto line = [](const std::string& text) { return text.empty() ? std::string() : "\n  " + text; };
  FileRunOutcome outcome;
  try {
    outcome.end = run(sim, plan, sink, stop);
  } catch (const Error& e) {
    if (!sink.opened()) throw;  // failed before the first row: nothing was written
    const std::string error = e.what();
    const std::string results_error = sink.close_results(sim, false, error);
    const std::string stats_error = sink.write_stats(sim, false, error);
    throw Error(e.kind(), error + kept() + (results_error == error ? "" : line(results_error)) + line(stats_error));
  }
  const bool interrupted = outcome.end == Ending::stopped;
  if (interrupted && !stop.reason().empty()) {
    const std::string error = stop.reason();
    const std::string results_error = sink.close_results(sim, true, error);
    const std::string stats_error = sink.write_stats(sim, true, error);
    throw Error(ErrorKind::timeout, error + kept() + line(results_error) + line(stats_error));
  }
  outcome.rows = sink.rows();
  outcome.reached = sim.time();
  outcome.results_error = sink.close_results(sim, interrupted, "");
  outcome.stats_error = sink.write_stats(sim, interrupted, "");
  if (!outcome.results_error.empty() && !interrupted)
    throw Error(ErrorKind::output, outcome.results_error + line(outcome.stats_error));
  if (!outcome.stats_error.empty() && !interrupted)
    throw Error(ErrorKind::output, outcome.stats_error + " (the results are complete: " + count_of(outcome.rows, "row") +
                                       " in " + results_name + ")");
  return outcome;
}

std::string write_statistics(const std::string& path, const RunStatistics& stats, int stdout_fd) {
  if (path.empty()) return {};
  try {
    OutputFile file(path, "statistics", stdout_fd);
    return write_json(&file, statistics_json(stats));
  } catch (const Error& e) {
    return e.what();
  }
}

}  // namespace lsdae::run
