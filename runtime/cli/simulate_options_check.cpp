// runtime/cli/simulate_options_check.cpp -- see simulate_options_check.h.
#include "cli/simulate_options_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::cli {

namespace {

namespace fs = std::filesystem;

struct Output {
  std::string option;  // "-o", "--stats"
  std::string path;
};

std::optional<struct stat> stat_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return st;
}

bool same_file(const struct stat& a, const struct stat& b) { return a.st_dev == b.st_dev && a.st_ino == b.st_ino; }

// `path` (existing) lies inside the folder `dir` (existing), after resolving links.
bool inside(const std::string& path, const std::string& dir) {
  std::error_code ec;
  const fs::path file = fs::canonical(path, ec);
  if (ec) return false;
  const fs::path folder = fs::canonical(dir, ec);
  if (ec) return false;
  auto f = file.begin();
  for (auto d = folder.begin(); d != folder.end(); ++d, ++f)
    if (f == file.end() || *f != *d) return false;
  return true;
}

[[noreturn]] void cannot_write(const Output& out, const std::string& what, const std::string& todo) {
  throw Error(ErrorKind::output,
              "simulate " + out.option + " \"" + out.path + "\": " + what + " → " + todo + " (nothing was run)");
}

bool writable(const std::string& path, int mode) { return ::faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0; }

void check_can_create(const Output& out) {
  if (auto st = stat_of(out.path)) {
    if (S_ISDIR(st->st_mode)) cannot_write(out, "is a folder", "give a file name, e.g. " + out.path + "/result.csv");
    if (!writable(out.path, W_OK))
      cannot_write(out, std::string("cannot be written: ") + std::strerror(errno),
                   "check its permissions, or choose another file");
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR)
    cannot_write(out, std::string("cannot be used: ") + std::strerror(errno), "check the path");
  // A new file: its folder must exist and take new files.
  std::string folder = fs::path(out.path).parent_path().string();
  if (folder.empty()) folder = ".";
  auto st = stat_of(folder);
  if (!st) cannot_write(out, "the folder \"" + folder + "\" does not exist", "create it first, or choose another path");
  if (!S_ISDIR(st->st_mode)) cannot_write(out, "\"" + folder + "\" is not a folder", "check the path");
  if (!writable(folder, W_OK | X_OK))
    cannot_write(out, "cannot create a file in \"" + folder + "\": " + std::strerror(errno),
                 "choose a folder you can write to");
}

}  // namespace

void check_output_files(const RunFiles& files) {
  if (files.results == "-" && files.statistics == "-")
    throw Error(ErrorKind::usage, "simulate: -o - and --stats - both write to standard output → send one of them to a "
                                  "file, e.g. --stats stats.json");
  std::vector<Output> outputs;
  if (files.results != "-") outputs.push_back({"-o", files.results});
  if (!files.statistics.empty() && files.statistics != "-") outputs.push_back({"--stats", files.statistics});

  const std::optional<struct stat> fmu = stat_of(files.fmu);
  for (const Output& out : outputs) {
    const std::optional<struct stat> st = stat_of(out.path);
    if (!st || !fmu) continue;
    if (same_file(*st, *fmu))
      throw Error(ErrorKind::usage, "simulate " + out.option + " \"" + out.path + "\": this is the FMU being "
                                    "simulated; writing there would destroy it → choose another file name, e.g. " +
                                        out.option + (out.option == "-o" ? " result.csv" : " stats.json"));
    if (S_ISDIR(fmu->st_mode) && inside(out.path, files.fmu))
      throw Error(ErrorKind::usage, "simulate " + out.option + " \"" + out.path + "\": this file belongs to the "
                                    "unpacked FMU \"" + files.fmu + "\", which lsdae reads but never modifies → "
                                    "write outside that folder");
  }
  if (outputs.size() == 2) {
    const auto a = stat_of(outputs[0].path), b = stat_of(outputs[1].path);
    std::error_code ec1, ec2;
    const bool same = (a && b) ? same_file(*a, *b)
                               : fs::weakly_canonical(outputs[0].path, ec1) == fs::weakly_canonical(outputs[1].path, ec2);
    if (same)
      throw Error(ErrorKind::usage, "simulate: -o and --stats both name \"" + outputs[1].path +
                                        "\" → give the results and the statistics different files");
  }
  for (const Output& out : outputs) check_can_create(out);
}

std::int64_t check_run_length(double start, double stop, double interval, std::int64_t max_rows) {
  auto refuse = [](const std::string& text) { throw Error(ErrorKind::usage, "simulate: " + text); };
  if (!std::isfinite(start)) refuse("start time " + format_number(start) + " is not a finite number → set --start");
  if (!std::isfinite(stop)) refuse("stop time " + format_number(stop) + " is not a finite number → set --stop");
  if (!std::isfinite(interval) || !(interval > 0))
    refuse("output interval " + format_number(interval) + " is not a positive finite number → set --output-interval");
  const double span = stop - start;
  if (!std::isfinite(span))
    refuse("the span from start " + format_number(start) + " to stop " + format_number(stop) +
           " overflows double precision → choose times closer together");
  const double magnitude = std::max(std::fabs(start), std::fabs(stop));
  const double intervals = std::ceil(span / interval - 1e-9);
  const double rows = intervals + 1;
  if (!(rows <= static_cast<double>(max_rows))) {
    const double suggested = span / 500.0;
    refuse("from t = " + format_number(start) + " to " + format_number(stop) + " every " + format_number(interval) +
           " makes " + format_number(rows) + " output rows, more than --max-rows " + std::to_string(max_rows) +
           " → choose a larger --output-interval (e.g. " + format_number(suggested) +
           " for 501 rows), or raise --max-rows if you mean it");
  }
  if (interval < kTimeResolution * magnitude)
    refuse("output interval " + format_number(interval) + " is below what double-precision times near " +
           format_number(magnitude) + " resolve → use an --output-interval of at least " +
           format_number(kTimeResolution * magnitude) + ", or times nearer 0");
  return static_cast<std::int64_t>(std::max(intervals, 1.0));
}

}  // namespace lsdae::cli

namespace lsdae::cli {

namespace {

[[noreturn]] void refuse_output(const std::string& text) { throw Error(ErrorKind::usage, text); }

void check_row_count(double rows, std::int64_t every, std::int64_t max_rows, const std::string& what) {
  const double kept = std::ceil(rows / static_cast<double>(every)) + 1;
  if (kept > static_cast<double>(max_rows))
    refuse_output("simulate: " + what + " makes " + format_number(kept) + " output rows, more than --max-rows " +
                  std::to_string(max_rows) + " → write fewer rows (--output-every K), or raise --max-rows if you "
                  "mean it");
}

std::vector<double> listed_times(const std::string& list, double start, double stop) {
  std::vector<double> out;
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    std::string item = list.substr(at, comma - at);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    double t = 0;
    const auto r = std::from_chars(item.data(), item.data() + item.size(), t);
    if (item.empty() || r.ec != std::errc() || r.ptr != item.data() + item.size() || !std::isfinite(t))
      refuse_output("--output-times: \"" + item + "\" is not a time → give decimal times separated by commas, "
                    "e.g. --output-times 0.1,0.5,2");
    if (t < start || t > stop)
      refuse_output("--output-times: " + item + " lies outside the run from " + format_number(start) + " to " +
                    format_number(stop) + " → list times inside it, or set --start/--stop");
    if (!out.empty() && !(t > out.back()))
      refuse_output("--output-times: " + item + " does not come after " + format_number(out.back()) +
                    " → list the times in increasing order, each once");
    if (t > start) out.push_back(t);
    at = comma + 1;
  }
  if (out.empty() || out.back() < stop) out.push_back(stop);  // the run's end is always a row
  return out;
}

}  // namespace

double OutputPlan::at(std::int64_t k) const {
  if (!times.empty()) return times[static_cast<std::size_t>(k - 1)];
  return k == points ? stop : start + static_cast<double>(k) * interval;
}

OutputPlan plan_output(double start, double stop, double interval, const OutputControl& control,
                       std::int64_t max_rows) {
  OutputPlan plan;
  plan.start = start;
  plan.stop = stop;
  plan.interval = interval;
  plan.every = control.every;
  const int grids = (!control.times.empty() ? 1 : 0) + (control.grid == "log" ? 1 : 0) + (control.steps ? 1 : 0);
  if (grids > 1)
    refuse_output("simulate: --output-times, --output-grid log and --output-steps each place the rows → choose one");
  if (control.every < 1) refuse_output("--output-every: at least 1");
  if (!control.times.empty()) {
    plan.times = listed_times(control.times, start, stop);
    check_row_count(static_cast<double>(plan.times.size()), control.every, max_rows, "--output-times");
  } else if (control.grid == "log") {
    const double span = stop - start;
    if (!(control.log_first > 0) || !(control.log_first < span))
      refuse_output("--output-first " + format_number(control.log_first) + ": the log grid's first time after the "
                    "start must be positive and below the span " + format_number(span) + " → e.g. --output-first " +
                    format_number(span * 1e-9));
    if (control.per_decade < 1 || control.per_decade > 1000)
      refuse_output("--output-per-decade " + std::to_string(control.per_decade) + ": from 1 to 1000");
    const double decades = std::log10(span / control.log_first);
    check_row_count(std::ceil(decades * static_cast<double>(control.per_decade)) + 1, control.every, max_rows,
                    "--output-grid log from " + format_number(control.log_first) + " with " +
                        std::to_string(control.per_decade) + " per decade");
    for (std::int64_t j = 0;; ++j) {
      const double offset =
          control.log_first * std::pow(10.0, static_cast<double>(j) / static_cast<double>(control.per_decade));
      const double t = start + offset;
      if (!(offset < span) || !(t < stop)) break;
      if (plan.times.empty() || t > plan.times.back()) plan.times.push_back(t);
    }
    plan.times.push_back(stop);
  }
  if (!plan.times.empty()) {
    plan.points = static_cast<std::int64_t>(plan.times.size());
  } else {
    // --max-rows counts the grid's points before decimation; with
    // --output-steps the grid only paces the stop checks.
    plan.points = check_run_length(start, stop, interval, control.steps ? kLargestMaxRows : max_rows);
  }
  plan.record_points = !control.steps;
  return plan;
}

}  // namespace lsdae::cli
