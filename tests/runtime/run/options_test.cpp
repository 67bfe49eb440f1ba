// tests/runtime/run/options_test.cpp -- the options table (run/options.h):
// one check per option whatever the front door, its messages in each door's
// spelling, the settings each option makes, and the table itself (every
// SimulationOptions field reachable, keys and flags unique).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "lsdae/error.h"
#include "run/options.h"

namespace lsdae::run {
namespace {

std::string only_problem(const GivenOptions& given, Door door, unsigned categories = category::all) {
  const auto problems = validate(given, door, categories);
  EXPECT_EQ(problems.size(), 1u);
  return problems.empty() ? std::string() : problems.front();
}

TEST(OptionsTable, KeysAndFlagsAreUnique) {
  std::set<std::string> keys, flags;
  for (const auto& s : option_table()) {
    EXPECT_TRUE(keys.insert(s.key).second) << s.key;
    EXPECT_TRUE(flags.insert(s.cli).second) << s.cli;
    EXPECT_EQ(s.cli.rfind("--", 0), 0u) << s.cli;
    EXPECT_FALSE(s.help.empty()) << s.key;
    EXPECT_EQ(find_option(s.key), &s);
    if (s.kind == OptionKind::choice) {
      EXPECT_FALSE(s.words().empty()) << s.key;
    }
  }
}

// The same bad value means the same from every door: only the key and the
// value are spelled the caller's way.
TEST(OptionsTable, OneRuleInEveryDoorsSpelling) {
  const std::string meaning = "is out of range: the relative tolerance must be from 1e-15 to 1";
  EXPECT_EQ(only_problem({{"rtol", std::string("5"), ""}}, Door::cli),
            "--rtol: \"5\" " + meaning + " → e.g. --rtol 1e-6");
  EXPECT_EQ(only_problem({{"rtol", 5.0, ""}}, Door::c), "options.rtol = 5 " + meaning + " → e.g. options.rtol = 1e-6");
  EXPECT_EQ(only_problem({{"rtol", std::int64_t{5}, "5"}}, Door::python), "rtol=5 " + meaning + " → e.g. rtol=1e-6");
  // Output options are spelled in lsdae_output's struct in C.
  EXPECT_EQ(only_problem({{"hdf5_deflate", std::int64_t{12}, ""}}, Door::c),
            "output.hdf5_deflate = 12 is out of range: the deflate level must be a whole number from 0 to 9 → e.g. "
            "output.hdf5_deflate = 1");
}

TEST(OptionsTable, KindsAreCheckedForTypedDoors) {
  // Python: a str for a number, a float for a count, an int for a flag.
  EXPECT_NE(only_problem({{"rtol", std::string("1e-6"), "'1e-6'"}}, Door::python).find("rtol='1e-6' is not a number"),
            std::string::npos);
  EXPECT_NE(only_problem({{"threads", 2.0, "2.0"}}, Door::python).find("threads=2.0 is not a whole number"),
            std::string::npos);
  EXPECT_NE(only_problem({{"reselect", std::int64_t{1}, "1"}}, Door::python)
                .find("reselect=1 is not True or False → e.g. reselect=False"),
            std::string::npos);
  // C: an int flag other than 0 or 1, an enum value outside the enum.
  EXPECT_NE(only_problem({{"reselect", std::int64_t{2}, ""}}, Door::c).find("options.reselect = 2 is not 0 or 1"),
            std::string::npos);
  EXPECT_NE(only_problem({{"constraints", std::int64_t{9}, ""}}, Door::c)
                .find("options.constraints = 9 is not one of LSDAE_CONSTRAINTS_DEFAULT, "
                      "LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES, LSDAE_CONSTRAINTS_PROJECTION, LSDAE_CONSTRAINTS_NONE"),
            std::string::npos);
  EXPECT_NE(only_problem({{"eliminate", std::int64_t{2}, ""}}, Door::c).find("is not one of 0 (off), 1 (auto)"),
            std::string::npos);
  // A word with a suggestion.
  EXPECT_NE(only_problem({{"jacobian", std::string("fdd"), ""}}, Door::cli).find("did you mean `fd`?"),
            std::string::npos);
}

TEST(OptionsTable, UnknownKeysAndKeysOfAnotherCall) {
  EXPECT_NE(only_problem({{"rtoll", 1e-6, "1e-06"}}, Door::python).find("rtoll=1e-06 is not an option → did you mean `rtol`?"),
            std::string::npos);
  EXPECT_NE(only_problem({{"output_grid", std::string("log"), "'log'"}}, Door::python, category::simulation)
                .find("is not an option of this call"),
            std::string::npos);
  EXPECT_EQ(validate({{"rtol", 1e-6, ""}, {"rtol", 1e-7, ""}}, Door::c).size(), 1u) << "given twice";
}

TEST(OptionsTable, EveryProblemIsReportedOncePerLine) {
  try {
    settings_from({{"rtol", 0.0, ""}, {"threads", std::int64_t{0}, ""}, {"max_steps", std::int64_t{1}, ""}}, Door::c,
                  category::simulation, "lsdae_open: ");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("lsdae_open: options.rtol = 0", 0), 0u) << m;
    EXPECT_NE(m.find("\nlsdae_open: options.threads = 0"), std::string::npos) << m;
    EXPECT_EQ(m.find("max_steps"), std::string::npos) << "1 is valid: " << m;
  }
}

// Every SimulationOptions field is reachable from the table, and what each
// option makes is what the command line's flags made.
TEST(OptionsTable, SettingsReachEverySimulationOption) {
  const RunSettings defaults = settings_from({}, Door::cli, category::all, "");
  const SimulationOptions d;
  EXPECT_FALSE(defaults.simulation.rtol.has_value());
  EXPECT_EQ(defaults.simulation.max_steps, d.max_steps);
  EXPECT_EQ(defaults.output.max_rows, kDefaultMaxRows);
  const RunSettings s = settings_from(
      {{"start_time", std::string("1"), ""},      {"stop_time", std::string("2"), ""},
       {"rtol", std::string("1e-8"), ""},         {"atol", std::string("1e-9"), ""},
       {"output_interval", std::string("0.1"), ""}, {"jacobian", std::string("check"), ""},
       {"threads", std::string("1e1"), ""},       {"klu_ordering", std::string("metis"), ""},
       {"row_order", std::string("declared"), ""}, {"max_steps", std::string("50"), ""},
       {"max_step", std::string("0.01"), ""},     {"newton_dcj", std::string("0.4"), ""},
       {"constraints", std::string("none"), ""},
       {"projection_tolerance", std::string("1e-7"), ""}, {"reselect", false, ""},
       {"eliminate", std::string("auto"), ""},    {"linear_solver", std::string("dense"), ""},
       {"coloring", false, ""},                   {"constant_entries", false, ""},
       {"klu_reanalyze", true, ""},               {"jacobian_reuse", false, ""},
       {"output_grid", std::string("log"), ""},
       {"max_rows", std::string("10"), ""},       {"output_roles", std::vector<std::string>{"states", "outputs"}, ""},
       {"format", std::string("mat"), ""}},
      Door::cli, category::all, "");
  const SimulationOptions& o = s.simulation;
  EXPECT_EQ(o.start_time, 1.0);
  EXPECT_EQ(o.stop_time, 2.0);
  EXPECT_EQ(o.rtol, 1e-8);
  EXPECT_EQ(o.atol, 1e-9);
  EXPECT_EQ(o.output_interval, 0.1);
  EXPECT_EQ(o.jacobian, JacobianMode::directional) << "check runs directional, compared at the start";
  EXPECT_TRUE(s.check_jacobian);
  EXPECT_EQ(o.threads, 10u);
  EXPECT_EQ(o.klu_ordering, "metis");
  EXPECT_FALSE(o.match_rows);
  EXPECT_EQ(o.max_steps, 50);
  EXPECT_EQ(o.max_step, 0.01);
  EXPECT_EQ(o.newton_dcj, 0.4);
  EXPECT_EQ(d.newton_dcj, 0.25) << "IDA's own default";
  EXPECT_EQ(o.constraints, ConstraintMethod::none);
  EXPECT_EQ(o.projection_tolerance, 1e-7);
  EXPECT_FALSE(o.reselect);
  EXPECT_TRUE(o.eliminate_linear);
  EXPECT_TRUE(o.dense_linear_solver);
  EXPECT_TRUE(o.uncolored_jacobian);
  EXPECT_FALSE(o.constant_jacobian_entries);
  EXPECT_FALSE(o.keep_klu_analysis);
  EXPECT_FALSE(o.jacobian_reuse);
  EXPECT_TRUE(d.jacobian_reuse) << "on by default";
  EXPECT_EQ(s.output.grid, "log");
  EXPECT_EQ(s.output.max_rows, 10);
  EXPECT_EQ(s.results.roles, (std::vector<std::string>{"states", "outputs"}));
  EXPECT_EQ(s.results.format, "mat");
  // Aliases of Python's older spellings.
  const RunSettings a = settings_from({{"constraints", std::string("dummy-derivatives"), ""},
                                       {"jacobian", std::string("finite_differences"), ""}},
                                      Door::python, category::simulation, "");
  EXPECT_EQ(a.simulation.constraints, ConstraintMethod::dummy_derivatives);
  EXPECT_EQ(a.simulation.jacobian, JacobianMode::finite_differences);
}

TEST(OptionsTable, CliTextIsNormalised) {
  std::string text = "1e6";
  EXPECT_EQ(check_cli_text(*find_option("max_steps"), text), "");
  EXPECT_EQ(text, "1000000");
  text = "0";
  EXPECT_EQ(check_cli_text(*find_option("rtol"), text),
            "\"0\" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6");
}

}  // namespace
}  // namespace lsdae::run
