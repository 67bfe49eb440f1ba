// runtime/run/options.h -- THE options table: every option of a run, once.
//
// Each option has a key (the Python keyword argument and the C field), a
// kind (real, whole number, one of some words, on/off flag, text, list of
// words), a default, the values it accepts and a help line. Everything a
// front door knows about an option is derived from here:
//   - the command line's options (`lsdae simulate`, `lsdae sweep`: their
//     names, help, value names, groups and CLI11 validators;
//     cli/table_options.h),
//   - the C API's keys (lsdae_options for the simulation options,
//     lsdae_output for the output and result-file options; capi/options.h
//     reads the struct fields into the table's keys),
//   - Python's keyword arguments (lsdae.Simulation, lsdae.simulate,
//     Model.simulate's options, lsdae.ScenarioRunner),
//   - a sweep's options (the simulation options: the same table),
//   - the table in docs/run.md (a test checks it against this one).
//
// Categories: `simulation` options become SimulationOptions (lsdae/simulation.h)
// and are offered everywhere; `output` options place the rows (output_plan.h)
// and `results` options shape the result file (result_sink.h): offered where a
// run writes rows (lsdae simulate, lsdae_run, Python's run and simulate).
//
// validate(given, door, categories) reads the options a front door received
// -- text from a command line, typed values from C and Python -- and returns
// one message per problem, naming the key in the caller's own spelling (Door):
//     --rtol: "5" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6
//     options.rtol = 5 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. options.rtol = 1e-6
//     rtol=5 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. rtol=1e-6
// settings_from(given, door, categories) is the RunSettings they make, or
// Error(usage) with every problem (one per line). A front door never checks
// a value itself.
//
// The C API's "use the default" encodings (NaN, 0 threads, NULL strings, the
// *_DEFAULT enum values) are the front door's to read (capi/options.h): it
// leaves such a key out. An enum field is given as its integer; the table
// knows each word's C name and value.
#ifndef LSDAE_RUNTIME_RUN_OPTIONS_H
#define LSDAE_RUNTIME_RUN_OPTIONS_H

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "lsdae/simulation.h"
#include "run/output_plan.h"

namespace lsdae::run {

// Whose spelling a message uses.
enum class Door { cli, c, python };

enum class OptionKind { real, count, choice, flag, text, choice_list };

// Bits: which options a front door's call takes.
namespace category {
inline constexpr unsigned simulation = 1;  // SimulationOptions (and --jacobian check)
inline constexpr unsigned output = 2;      // where the rows go (output_plan.h)
inline constexpr unsigned results = 4;     // what the result file holds and how (result_sink.h)
inline constexpr unsigned all = 7;
}  // namespace category

// One word of a choice; `c_name` its name in C ("LSDAE_JACOBIAN_FINITE_DIFFERENCES",
// or the number for an int field), `c_value` the integer a C enum field
// holds. A word "" is the C enum's *_DEFAULT value: the option not given.
struct Choice {
  std::string word, c_name;
  std::int64_t c_value = 0;
};

enum class OptionId {
  start_time, stop_time, rtol, atol, output_interval, jacobian, threads, klu_ordering, row_order, max_steps,
  max_step, newton_dcj, constraints, projection_tolerance, reselect, eliminate, linear_solver, coloring, constant_entries,
  klu_reanalyze, jacobian_reuse,
  output_steps, output_times, output_grid, output_first, output_per_decade, output_every, max_rows,
  format, csv_units, csv_events, hdf5_deflate, hdf5_compress_all, output_roles, all,
};

struct OptionSpec {
  OptionId id;
  std::string key;           // "rtol": Python's keyword argument, the C field
  OptionKind kind;
  unsigned category;
  std::string cli;           // "--rtol"; a flag that switches a default off: "--no-reselect"
  std::string cli_type;      // the value's name in --help: "NUMBER"
  std::string meaning;       // "the relative tolerance"
  std::string example;       // "1e-6" (a word for a choice)
  std::string default_text;  // "DefaultExperiment tolerance, else 1e-6"
  std::string help;          // one line, for --help and docs/run.md
  std::string cli_help;      // the command line's help when its flag says the opposite ("--no-reselect"); "" help
  // real: the range
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
  bool low_inclusive = true, high_inclusive = true;
  // count: the range
  std::int64_t count_low = 0, count_high = std::numeric_limits<std::int64_t>::max();
  // choice, choice_list: the words, and other spellings accepted for them
  std::vector<Choice> choices;
  std::vector<std::pair<std::string, std::string>> aliases;  // spelling → word
  bool flag_default = false;  // flag: the value when not given (reselect: true)
  std::string group;          // the command line's --help group; "" the command's own
  bool show_default = false;  // --help shows default_text as the value's default

  std::vector<std::string> words() const;  // the choice words, without the C default
};

const std::vector<OptionSpec>& option_table();
// nullptr when no option has this key.
const OptionSpec* find_option(const std::string& key);
const OptionSpec& option(OptionId id);

// The key as `door` spells it: "--rtol", "options.rtol" / "output.max_rows", "rtol=".
std::string spelled(const OptionSpec& spec, Door door);
// With a value: "--rtol 1e-6", "options.rtol = 1e-6", "rtol=1e-6"; a word of
// a C enum by its name ("options.jacobian = LSDAE_JACOBIAN_FINITE_DIFFERENCES"),
// a flag as the door sets it ("--no-reselect", "options.reselect = 0", "reselect=False").
std::string spelled(const OptionSpec& spec, Door door, const std::string& value);

// What a result file holds and how it is written (result_sink.h).
struct ResultOptions {
  std::string format;  // "csv", "hdf5", "mat"; "" from the file's extension
  bool csv_units = false, csv_events = false;
  int hdf5_deflate = 1;
  bool hdf5_compress_all = false;
  std::vector<std::string> roles;  // --output-roles
  bool all = false;                // every variable
};

// What the options of a run make.
struct RunSettings {
  SimulationOptions simulation;
  bool check_jacobian = false;  // jacobian "check": directional derivatives, compared at the start
  OutputControl output;
  ResultOptions results;
};

// One option as a front door received it: text from a command line; a
// double, an integer, a bool, a text or a list of texts from C and Python.
using OptionValue = std::variant<std::string, double, std::int64_t, bool, std::vector<std::string>>;
struct GivenOption {
  std::string key;
  OptionValue value;
  std::string seen;  // the value as the caller wrote it (Python's repr); "" renders `value`
};
using GivenOptions = std::vector<GivenOption>;

// One message per problem (an unknown key, a key of another category, a
// value of the wrong type or out of range), in the door's spelling, without
// the caller's prefix ("lsdae_open: ").
std::vector<std::string> validate(const GivenOptions& given, Door door, unsigned categories = category::all);
// The settings the options make; Error(usage) with every problem, one per
// line, each after `where` ("lsdae_open: ").
RunSettings settings_from(const GivenOptions& given, Door door, unsigned categories, const std::string& where);
// The command line's check of one value (a CLI11 validator's): "" when it is
// valid -- `text` then normalised ("1e6" → "1000000") --, else the message
// that follows "--rtol: ".
std::string check_cli_text(const OptionSpec& spec, std::string& text);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_OPTIONS_H
