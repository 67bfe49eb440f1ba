// runtime/sweep/scenario_sources.h -- where the scenarios of a sweep come from.
//
//   read_scenario_table(csv)   a CSV table (RFC 4180 quoting): a header of
//       variable names, an optional `id` column, one scenario per row. An
//       empty cell leaves that variable at its common value. Ids default to
//       the row number (1-based, data rows only); given ids must be unique
//       and non-empty. Lines starting with '#' and blank lines are skipped.
//   full_factorial(axes)       `name=v1,v2,...` axes: every combination, the
//       last axis varying fastest; ids 1..N.
//   monte_carlo(draws, count, seed)  `name=uniform(lo,hi)` or
//       `name=normal(mean,sd)` / `normal(mean,sd,lo,hi)` (truncated by
//       rejection). Scenario k (1-based) draws from its own stream, a
//       SplitMix64 generator seeded with mix(seed, k): its values depend only
//       on seed and k -- not on the order, the count or the number of
//       workers. Uniform: lo + (hi − lo)·u with u a 53-bit fraction; normal:
//       Box–Muller (Box & Muller 1958), written out here so that every
//       platform draws the same numbers. Values are written in the shortest
//       text that reads back to the same double.
//   cross(a, b)                every scenario of a with every one of b (ids
//       "a.id/b.id", sets of a then b).
//
//   make_scenarios(spec, model)  the scenarios of `lsdae sweep`'s options (and
//       of lsdae_sweep_spec): one source (table, Monte Carlo, or a source a
//       model registered by name, lsdae/sweep.h register_scenario_source: the
//       PowerGrid FMU's MATPOWER contingencies, models/powergrid/scenarios/)
//       and/or a grid, crossed; every name checked against the model, ids
//       unique. A registered source's number options are checked against
//       their ranges here, before it runs; the options that shape a source
//       go only with the option that selects it.
//
// Errors are lsdae::Error(usage) in the shape where → what → value → what to do.
#ifndef LSDAE_RUNTIME_SWEEP_SCENARIO_SOURCES_H
#define LSDAE_RUNTIME_SWEEP_SCENARIO_SOURCES_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lsdae/sweep.h"

namespace lsdae {
struct ModelDescription;
class Model;
}

namespace lsdae::sweep {

std::vector<Scenario> read_scenario_table(const std::filesystem::path& csv);
std::vector<Scenario> full_factorial(const std::vector<std::string>& axes);

struct Draw {
  enum class Kind { uniform, normal } kind = Kind::uniform;
  std::string name;
  double a = 0, b = 0;                   // uniform: lo, hi; normal: mean, sd
  std::optional<double> low, high;       // normal: bounds
};
Draw parse_draw(const std::string& text);  // "name=uniform(0.9,1.1)"
std::vector<Scenario> monte_carlo(const std::vector<Draw>& draws, std::int64_t count, std::uint64_t seed);
// The values of scenario k (1-based) alone: what monte_carlo gives it.
std::vector<double> monte_carlo_values(const std::vector<Draw>& draws, std::int64_t k, std::uint64_t seed);

std::vector<Scenario> cross(const std::vector<Scenario>& a, const std::vector<Scenario>& b);

// Every name set by a scenario must be a variable (or array element) of the
// model: Error(usage) naming the source ("--scenarios table.csv, column
// \"x\""), the name, and the closest names. It must be settable (as
// Simulation::set() requires), and a value common to every scenario (--set)
// must parse for its type (values.h): Error(usage) naming the source, the
// name and the value. A bad value of one scenario is that scenario's failure.
void check_names(const ModelDescription& md, const std::vector<Scenario>& scenarios, const std::string& source);
// Ids must be unique: Error(usage) naming the first duplicate.
void check_unique_ids(const std::vector<Scenario>& scenarios, const std::string& source);

// Where the scenarios of a sweep come from (the options of `lsdae sweep`).
struct ScenarioSourceSpec {
  std::string table;                              // --scenarios table.csv
  std::vector<std::string> grid;                  // --grid name=v1,v2 (crossed with the source)
  std::int64_t monte_carlo = 0;                   // --monte-carlo N
  std::vector<std::string> draws;                 // --draw name=uniform(lo,hi)
  std::uint64_t seed = 1;                         // --seed
  // The options given to registered sources (lsdae/sweep.h), by source name:
  // e.g. {"contingencies", {{"contingencies", "chgtab.m"}, {"case", "case.m"}}}.
  std::vector<std::pair<std::string, ScenarioSourceArguments>> sources;
};
struct ScenarioList {
  std::vector<Scenario> scenarios;
  std::vector<std::string> skipped;    // entries of a source's input that make no scenario (a note)
  std::string skipped_by;              // the source that skipped them ("contingencies")
  std::optional<double> settle_from;   // from the source: where the settle test starts (contingencies: the clearing)
  std::optional<OutcomeLabel> outcome;  // from the source: rows labelled by how the run ended (islanded)
};
// Error(usage) for a bad combination, file, draw or name (naming the option).
ScenarioList make_scenarios(const ScenarioSourceSpec& spec, const Model& model);

// The shortest decimal text that reads back to the same double.
std::string round_trip(double value);

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SCENARIO_SOURCES_H
