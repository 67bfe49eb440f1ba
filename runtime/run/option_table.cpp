// runtime/run/option_table.cpp -- the options table's rows (options.h).
//
// A generated table in spirit: one row per option, nothing else. The order is
// the order of `lsdae simulate --help` and of docs/run.md. Help texts name
// other options as the command line spells them (the C and Python front
// doors respell messages, run/respell.h).
#include <limits>

#include "run/options.h"
#include "run/output_plan.h"

namespace lsdae::run {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::int64_t kLongMax = std::numeric_limits<long>::max();
constexpr std::int64_t kLargest = kLargestMaxRows;
const std::string kBaselines = "Benchmark baselines";

// What every row has: its id, key, kind, category, command-line spelling and help.
OptionSpec row(OptionId id, std::string key, OptionKind kind, unsigned cat, std::string cli, std::string help) {
  OptionSpec s;
  s.id = id;
  s.key = std::move(key);
  s.kind = kind;
  s.category = cat;
  s.cli = std::move(cli);
  s.help = std::move(help);
  return s;
}

OptionSpec real(OptionId id, std::string key, unsigned cat, std::string cli, std::string type, std::string meaning,
                std::string example, std::string def, std::string help, double low, double high, bool low_in,
                bool high_in) {
  OptionSpec s = row(id, std::move(key), OptionKind::real, cat, std::move(cli), std::move(help));
  s.cli_type = std::move(type);
  s.meaning = std::move(meaning);
  s.example = std::move(example);
  s.default_text = std::move(def);
  s.low = low;
  s.high = high;
  s.low_inclusive = low_in;
  s.high_inclusive = high_in;
  return s;
}

OptionSpec count(OptionId id, std::string key, unsigned cat, std::string cli, std::string type, std::string meaning,
                 std::string example, std::string def, std::string help, std::int64_t low, std::int64_t high) {
  OptionSpec s = real(id, std::move(key), cat, std::move(cli), std::move(type), std::move(meaning), std::move(example),
                      std::move(def), std::move(help), -kInf, kInf, true, true);
  s.kind = OptionKind::count;
  s.count_low = low;
  s.count_high = high;
  return s;
}

OptionSpec choice(OptionId id, std::string key, unsigned cat, std::string cli, std::string def, std::string help,
                  std::vector<Choice> choices, std::vector<std::pair<std::string, std::string>> aliases = {}) {
  OptionSpec s = row(id, std::move(key), OptionKind::choice, cat, std::move(cli), std::move(help));
  s.default_text = std::move(def);
  s.choices = std::move(choices);
  s.aliases = std::move(aliases);
  s.example = s.words().front();
  return s;
}

OptionSpec flag(OptionId id, std::string key, unsigned cat, std::string cli, bool when_absent, std::string help) {
  OptionSpec s = row(id, std::move(key), OptionKind::flag, cat, std::move(cli), std::move(help));
  s.flag_default = when_absent;
  s.default_text = when_absent ? "on" : "off";
  return s;
}

OptionSpec cli_help(OptionSpec s, std::string help) {
  s.cli_help = std::move(help);
  return s;
}

OptionSpec shown(OptionSpec s) {
  s.show_default = true;
  return s;
}

OptionSpec grouped(OptionSpec s, const std::string& group) {
  s.group = group;
  return s;
}

std::vector<OptionSpec> make_table() {
  using namespace category;
  std::vector<OptionSpec> t;
  // ---- the simulation (SimulationOptions): every front door, every sweep ----
  t.push_back(real(OptionId::start_time, "start_time", simulation, "--start", "TIME", "the start time", "0",
                   "DefaultExperiment startTime, else 0", "Start time", -kInf, kInf, true, true));
  t.push_back(real(OptionId::stop_time, "stop_time", simulation, "--stop", "TIME", "the stop time", "10",
                   "DefaultExperiment stopTime, else start + 1", "Stop time", -kInf, kInf, true, true));
  t.push_back(real(OptionId::rtol, "rtol", simulation, "--rtol", "NUMBER", "the relative tolerance", "1e-6",
                   "DefaultExperiment tolerance, else 1e-6", "Relative tolerance of IDA, from 1e-15 to 1", 1e-15,
                   1.0, true, true));
  t.push_back(real(OptionId::atol, "atol", simulation, "--atol", "NUMBER", "the absolute tolerance", "1e-8", "rtol",
                   "Absolute tolerance, scaled by each variable's nominal", 0.0, kInf, false, true));
  t.push_back(real(OptionId::output_interval, "output_interval", simulation, "--output-interval", "TIME",
                   "the output interval", "0.01", "DefaultExperiment stepSize, else (stop - start)/500",
                   "Time between output rows (in a sweep: the points where metrics are sampled)", 0.0, kInf, false,
                   true));
  t.push_back(shown(choice(
      OptionId::jacobian, "jacobian", simulation, "--jacobian", "auto",
      "auto (directional if provided, right and not costlier than finite differences; the FMU's claims checked "
      "first: directional derivatives and dependencies at the start, entries declared constant also after events; "
      "a false claim is named in a warning and not used), fd (coloured finite differences), directional (the derivatives as given), check (compare both at "
      "the start and say whether they agree, then directional; a false claim stops the run), or trust (as auto, "
      "nothing checked)",
      {{"auto", "LSDAE_JACOBIAN_AUTO", 0},
       {"fd", "LSDAE_JACOBIAN_FINITE_DIFFERENCES", 1},
       {"directional", "LSDAE_JACOBIAN_DIRECTIONAL", 2},
       {"check", "LSDAE_JACOBIAN_CHECK", 3},
       {"trust", "LSDAE_JACOBIAN_TRUST", 4}},
      {{"finite_differences", "fd"}})));
  t.push_back(count(OptionId::threads, "threads", simulation, "--threads", "N", "the thread count", "4", "1",
                    "Threads (and FMU instances) for Jacobian evaluation, 1 to 1024", 1, 1024));
  t.push_back(shown(choice(OptionId::klu_ordering, "klu_ordering", simulation, "--klu-ordering", "amd",
                           "Fill-reducing ordering for KLU: amd, colamd, metis",
                           {{"amd", "", 0}, {"colamd", "", 0}, {"metis", "", 0}})));
  t.push_back(shown(choice(OptionId::row_order, "row_order", simulation, "--row-order", "matched",
                           "IDA's rows: matched (permuted onto a structural matching: a zero-free diagonal for KLU) "
                           "or declared (the manifest's order of residuals)",
                           {{"", "LSDAE_ROW_ORDER_DEFAULT", 0},
                            {"matched", "LSDAE_ROW_ORDER_MATCHED", 1},
                            {"declared", "LSDAE_ROW_ORDER_DECLARED", 2}})));
  t.push_back(shown(count(OptionId::max_steps, "max_steps", simulation, "--max-steps", "N",
                          "the most steps between two output rows", "1000000", "100000",
                          "Most IDA steps between two output rows (at least 1)", 1, kLongMax)));
  t.push_back(real(OptionId::max_step, "max_step", simulation, "--max-step", "TIME",
                   "the largest step size (0: no limit)", "0.001", "0: no limit", "Largest IDA step size (0: no limit)",
                   0.0, kInf, true, true));
  t.push_back(real(OptionId::newton_dcj, "newton_dcj", simulation, "--newton-dcj", "NUMBER",
                   "the cj band of IDA's Newton matrix", "0.4", "0.25",
                   "IDA's band for a new Newton matrix (IDASetDeltaCjLSetup): no setup (Jacobian, KLU "
                   "refactorization) while cj = alpha/h stays within a factor (1 + d)/(1 - d) of the last setup's; "
                   "wider: fewer setups, more Newton iterations (each a residual and a linear solve), often more steps",
                   0.0, 1.0, false, false));
  t.push_back(shown(choice(
      OptionId::constraints, "constraints", simulation, "--constraints", "dummy",
      "Higher-index models and invariants: dummy (dummy derivatives, re-selected at run time), project (index-1 "
      "formulations, projected back onto the lower-order ones and the invariants inside IDA's steps) or none "
      "(index-1 formulations only; the drift is measured and reported). An FMI 2.0 FMU's own constraint functions "
      "(Najafi et al.) are projected onto after steps unless none",
      {{"", "LSDAE_CONSTRAINTS_DEFAULT", 0},
       {"dummy", "LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES", 1},
       {"project", "LSDAE_CONSTRAINTS_PROJECTION", 2},
       {"none", "LSDAE_CONSTRAINTS_NONE", 3}},
      {{"dummy-derivatives", "dummy"}, {"dummy_derivatives", "dummy"}, {"projection", "project"}})));
  t.push_back(real(OptionId::projection_tolerance, "projection_tolerance", simulation, "--projection-tolerance",
                   "NUMBER", "the projection tolerance", "1e-8",
                   "every step (an FMI 2.0 FMU's own constraints: 10 max(atol, rtol))",
                   "With --constraints project: project only when a constraint exceeds this (default: every step, to a "
                   "tenth of the local error); an FMI 2.0 FMU's own constraints: kept below it (default 10 max(atol, "
                   "rtol))",
                   0.0, kInf, false, true));
  t.push_back(cli_help(flag(OptionId::reselect, "reselect", simulation, "--no-reselect", true,
                            "Re-select the dummy derivatives at run time (off: keep those chosen at the start)"),
                       "Keep the dummy derivatives chosen at the start"));
  t.push_back(shown(choice(OptionId::eliminate, "eliminate", simulation, "--eliminate", "auto",
                           "auto: eliminate the algebraic unknowns that enter every residual linearly with constant "
                           "coefficients (dependenciesKind constant, fixed) before IDA sees them, where that adds no "
                           "Jacobian nonzeros or colours and removes at least 5 % of the unknowns (`lsdae info "
                           "--structure` lists the candidates); off: IDA integrates every unknown",
                           {{"off", "0", 0}, {"auto", "1", 1}})));
  t.push_back(grouped(choice(OptionId::linear_solver, "linear_solver", simulation, "--linear-solver", "klu",
                             "klu (sparse, the default), klu64 (SUNDIALS' KLU solver with 64-bit indices, as used "
                             "where n or nnz exceed int32; the same numbers, larger factors) or dense (baseline for "
                             "benchmarks: what dense importers do)",
                             {{"klu", "", 0}, {"klu64", "", 0}, {"dense", "", 0}}),
                      kBaselines));
  t.push_back(grouped(cli_help(flag(OptionId::coloring, "coloring", simulation, "--no-coloring", true,
                                    "Evaluate the Jacobian by colours (off: one column at a time, a baseline for "
                                    "benchmarks)"),
                               "Evaluate the Jacobian one column at a time (baseline for benchmarks)"),
                      kBaselines));
  t.push_back(grouped(cli_help(flag(OptionId::constant_entries, "constant_entries", simulation, "--no-constant-entries",
                                    true,
                                    "Evaluate the Jacobian entries the FMU declares constant (dependenciesKind) once "
                                    "(off: at every Jacobian, as the varying ones; for comparison and debugging)"),
                               "Evaluate the Jacobian entries the FMU declares constant (dependenciesKind) at every "
                               "Jacobian, as the varying ones (for comparison and debugging)"),
                      kBaselines));
  t.push_back(grouped(cli_help(flag(OptionId::jacobian_reuse, "jacobian_reuse", simulation, "--no-jacobian-reuse",
                                    true,
                                    "Re-form the last directional Jacobian for IDA's new cj where dG/dy' is known "
                                    "(semi-explicit models), fresh after restarts, Newton failures and every 20 "
                                    "steps, as CVODE does (off: a fresh Jacobian at every setup, as IDA does)"),
                               "Evaluate a fresh Jacobian at every IDA setup, as IDA does, instead of re-forming "
                               "the last one for a new cj (for comparison)"),
                      kBaselines));
  t.push_back(grouped(flag(OptionId::klu_reanalyze, "klu_reanalyze", simulation, "--klu-reanalyze", false,
                           "Redo KLU's symbolic analysis at every event, as SUNDIALS does, instead of keeping the "
                           "first (for comparison)"),
                      kBaselines));
  // ---- where the rows go (output_plan.h) ----
  t.push_back(flag(OptionId::output_steps, "output_steps", output, "--output-steps", false,
                   "A row at every step the solver accepts (and at events, the start and the stop), instead of a "
                   "grid"));
  OptionSpec times =
      row(OptionId::output_times, "output_times", OptionKind::text, output, "--output-times",
          "Rows at these times only (and at events, the start and the stop): increasing, comma-separated");
  times.cli_type = "T1,T2,...";
  times.meaning = "the output times";
  times.example = "0.1,0.5,2";
  times.default_text = "none";
  t.push_back(times);
  t.push_back(shown(choice(OptionId::output_grid, "output_grid", output, "--output-grid", "linear",
                           "linear (every --output-interval) or log (from --output-first after the start to the stop, "
                           "--output-per-decade rows per factor of 10)",
                           {{"linear", "", 0}, {"log", "", 0}})));
  t.push_back(shown(real(OptionId::output_first, "output_first", output, "--output-first", "TIME",
                         "the log grid's first time after the start", "1e-6", "1e-06",
                         "The log grid's first time after the start", 0.0, kInf, false, true)));
  t.push_back(shown(count(OptionId::output_per_decade, "output_per_decade", output, "--output-per-decade", "N",
                          "rows per decade", "10", "10", "Rows per factor of 10 on the log grid", 1, 1000)));
  t.push_back(count(OptionId::output_every, "output_every", output, "--output-every", "K", "the decimation", "10", "1",
                    "Keep every K-th output point or step (events, the start and the stop are always kept)", 1,
                    kLargest));
  t.push_back(shown(count(OptionId::max_rows, "max_rows", output, "--max-rows", "ROWS", "the most output rows",
                          "1000000000", "100000000",
                          "Refuse a run whose output interval gives more rows than this (events add theirs); with "
                          "--output-steps, stop the run there",
                          1, kLargest)));
  // ---- the result file (result_sink.h) ----
  t.push_back(choice(OptionId::format, "format", results, "--format", "from the file's extension",
                     "Result format when the file name does not say it: csv, hdf5 or mat",
                     {{"csv", "", 0}, {"hdf5", "", 0}, {"mat", "", 0}}));
  t.push_back(flag(OptionId::csv_units, "csv_units", results, "--csv-units", false,
                   "CSV: a second header line with each column's unit"));
  t.push_back(flag(OptionId::csv_events, "csv_events", results, "--csv-events", false,
                   "CSV: an \"event\" column after time: 1 on the row just before an event, 2 just after, else 0"));
  t.push_back(shown(count(OptionId::hdf5_deflate, "hdf5_deflate", results, "--hdf5-deflate", "LEVEL",
                          "the deflate level", "1", "1",
                          "HDF5: deflate level of the values, 0 (no compression: fastest) to 9; chunks the writer "
                          "thread cannot compress in time are stored uncompressed (see --hdf5-compress-all)",
                          0, 9)));
  t.push_back(flag(OptionId::hdf5_compress_all, "hdf5_compress_all", results, "--hdf5-compress-all", false,
                   "HDF5: compress every chunk, the run waiting for the writer thread when compression is slower "
                   "than the run (the smallest file)"));
  OptionSpec roles = choice(OptionId::output_roles, "output_roles", results, "--output-roles", "none",
                            "Record variables by role: outputs, inputs, states, derivatives, algebraic, parameters, "
                            "locals (comma-separated; with --output-vars, both)",
                            {{"outputs", "", 0},
                             {"inputs", "", 0},
                             {"states", "", 0},
                             {"derivatives", "", 0},
                             {"algebraic", "", 0},
                             {"parameters", "", 0},
                             {"locals", "", 0}});
  roles.kind = OptionKind::choice_list;
  t.push_back(roles);
  t.push_back(flag(OptionId::all, "all", results, "--all", false,
                   "Record every variable (all types, every array element)"));
  return t;
}

}  // namespace

const std::vector<OptionSpec>& option_table() {
  static const std::vector<OptionSpec> table = make_table();
  return table;
}

}  // namespace lsdae::run
