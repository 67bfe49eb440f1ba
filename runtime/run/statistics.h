// runtime/run/statistics.h -- the statistics of a run: one record, one field
// table, one JSON writer.
//
// RunStatistics is what a run reports: the model, how it ended, the rows and
// wall time, the simulation's own statistics (SimulationStats: model size,
// Jacobian, counters, KLU, phase times) and what the result writer did. The
// field table (statistic_fields) lists every statistic once: its place in
// the JSON document (a group -- "model", "jacobian", "counters", "klu",
// "time_s", "results" -- or the top level, and a key), its flat name (the
// field of C's lsdae_stats and the key of Python's statistics(); "" for
// what only the JSON holds), its type and its meaning. From it:
//   - statistics_json(): the JSON of `lsdae simulate --stats`, of lsdae_run's
//     statistics file and lsdae_statistics_json (C), of Python's
//     statistics_json() and run(statistics_file=...): the same document
//     from every front door for the same run;
//   - flat_statistics(): the values by flat name (Python's statistics(),
//     C's lsdae_stats through capi/statistics.cpp, which a test checks
//     against this table);
//   - the table in docs/run.md (a test checks it against this one).
// The counters are deterministic for a given model, options and thread
// count; times (time_s, wall_time_s) and the result writer's chunk counts
// are not.
#ifndef LSDAE_RUNTIME_RUN_STATISTICS_H
#define LSDAE_RUNTIME_RUN_STATISTICS_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "lsdae/simulation.h"

namespace lsdae::run {

// What the result writer did (results/result_writer.h statistics()).
struct ResultsRecord {
  std::string format;                                        // "csv", "hdf5", "mat"
  double write_seconds = 0;                                  // formatting and I/O of the rows
  std::vector<std::pair<std::string, std::uint64_t>> writer;  // e.g. HDF5's chunks stored compressed and raw
};

struct RunStatistics {
  std::string model;                      // the model's display name ("fmu" in the JSON)
  std::vector<std::string> command_line;  // the lsdae program's argv; empty from C and Python
  bool interrupted = false;               // a stop request ended the run
  std::string error;                      // the failure that ended it; "" when none
  std::uint64_t rows = 0;                 // result rows written
  double wall_time = 0;                   // seconds, the whole run
  bool simulated = false;                 // a Simulation was made: the fields below are there
  double start_time = 0, stop_time = 0;
  SimulationStats simulation;
  std::optional<ResultsRecord> results;   // when the run wrote a result file
};

// The simulation's part of the record: its statistics, start and stop.
void take_simulation(RunStatistics& stats, Simulation& sim);

enum class FieldType { text, boolean, integer, real, text_list, writer_counts };
using FieldValue = std::variant<std::string, bool, std::int64_t, double, std::vector<std::string>>;

struct StatisticField {
  std::string group;  // "" (the top level), "versions", "model", "jacobian", "counters", "klu", "time_s", "results"
  std::string key;    // in its group's object
  std::string flat;   // lsdae_stats' field and Python's statistics() key; "" for the JSON only
  FieldType type;
  bool in_c;          // a field of lsdae_stats (lsdae/lsdae.h)
  std::string meaning;
  std::function<FieldValue(const RunStatistics&)> value;
  std::function<bool(const RunStatistics&)> present;  // empty: whenever the record has a simulation (or always, top level)
};

const std::vector<StatisticField>& statistic_fields();
// The field by its flat name; nullptr when none.
const StatisticField* find_statistic(const std::string& flat);

std::string statistics_json(const RunStatistics& stats);
// The fields with a flat name, in table order.
std::vector<std::pair<std::string, FieldValue>> flat_statistics(const RunStatistics& stats);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_STATISTICS_H
